#!/bin/bash
# Two fingers on a touchscreen: spreading them to twice their distance runs the
# pinch's commands (scale about 2x), turning them a quarter turn clockwise runs the
# rotate's (about +90°), and neither gesture fires for the other's motion.
. "$(dirname "$0")/../guest/e2e-lib.sh"
setup
write_config <<'YAML'
gestures:
  - name: zoom
    gesture: pinch
    fingers: 2
    begin: echo begin >> /tmp/e2e/out/pinch
    end: echo "end $GESTURE_SCALE" >> /tmp/e2e/out/pinch
  - name: turn
    gesture: rotate
    fingers: 2
    begin: echo begin >> /tmp/e2e/out/rotate
    end: echo "end $GESTURE_ROTATION_DEG" >> /tmp/e2e/out/rotate
YAML
plug touchscreen-pinch-rotate
start_daemon
cue go
finish touchscreen-pinch-rotate

# expect_ended NAME LOW HIGH: one begin, one end whose value is within [LOW, HIGH].
expect_ended() {
  wait_for "$out/$1" 10 || fail "$1: no command ran"
  sleep 0.5
  local lines
  lines=$(tr '\n' '|' <"$out/$1")
  awk -v low="$2" -v high="$3" 'NR == 1 && $0 != "begin" { exit 1 }
    NR == 2 && !($1 == "end" && $2 + 0 >= low && $2 + 0 <= high) { exit 1 }
    END { exit NR != 2 }' "$out/$1" || fail "$1: expected 'begin' then 'end' with a value in [$2, $3]; got '$lines'"
  say "$1: $lines"
}
expect_ended pinch 1.6 2.4
expect_ended rotate 60 120
daemon_alive
pass
