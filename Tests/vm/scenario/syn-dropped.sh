#!/bin/bash
# The kernel drops events (SYN_DROPPED) when the daemon falls behind — here it is
# stopped while a whole swipe floods the evdev buffer. The daemon resynchronizes,
# fires nothing from the partial stream, and the next swipe works.
. "$(dirname "$0")/../guest/e2e-lib.sh"
setup
write_config <<'YAML'
gestures:
  - name: workspace-next
    gesture: swipe
    fingers: 3
    direction: left
    command: echo "$GESTURE_NAME $GESTURE_DIRECTION $GESTURE_FINGERS" >> /tmp/e2e/out/swipe
YAML
plug touchpad-flood
start_daemon
daemon=$(pgrep -u "$user" -x gestured) || fail "no gestured process of $user"
# A second reader, stopped like the daemon, shows the kernel really dropped events.
node=$(cat "$log/touchpad-flood.node")
cat "$node" >"$log/raw-events" &
witness=$!
has_open() { ls -l "/proc/$1/fd" 2>/dev/null | grep -q " $2\$"; }
within 10 has_open "$witness" "$node" || fail "the witness reader did not open $node"
kill -STOP "$daemon" "$witness"
cue go
within 60 test -e /tmp/e2e/flooded || fail "the flood did not finish"
kill -CONT "$daemon" "$witness"
sleep 2 # both drain what the kernel kept
kill "$witness"
# struct input_event on x86_64: 24 bytes, type and code the 9th and 10th u16.
drops=$(od -An -v -t u2 -w24 "$log/raw-events" | awk '$9 == 0 && $10 == 3' | wc -l)
[ "$drops" -gt 0 ] || fail "the kernel dropped no events: the flood did not overflow evdev's buffer"
say "kernel: $drops SYN_DROPPED to a stopped reader"
if log_has SYN_DROPPED 1; then say "daemon logged SYN_DROPPED"; else say "daemon did not log SYN_DROPPED (rate limit?)"; fi
expect_nothing swipe
cue go2
finish touchpad-flood
expect_lines swipe "workspace-next left 3"
daemon_alive
pass
