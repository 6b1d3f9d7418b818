#!/bin/bash
# Hotplug: the daemon starts with no touch device; a touchpad plugged in later
# works; unplugged in the middle of a swipe, nothing fires and the daemon goes on;
# plugged in again, it works again. A touchscreen unplugged in the middle of a
# pinch runs the pinch's `cancel` command.
. "$(dirname "$0")/../guest/e2e-lib.sh"
setup
write_config <<'YAML'
gestures:
  - name: workspace-next
    gesture: swipe
    fingers: 3
    direction: left
    command: echo "$GESTURE_NAME $GESTURE_DIRECTION $GESTURE_FINGERS" >> /tmp/e2e/out/swipe
  - name: zoom
    gesture: pinch
    fingers: 2
    device: touchscreen
    begin: echo begin >> /tmp/e2e/out/pinch
    end: echo end >> /tmp/e2e/out/pinch
    cancel: echo cancel >> /tmp/e2e/out/pinch
YAML
start_daemon
# cue_when_added N: the daemon has said N times that it uses a new device.
cue_when_added() {
  wait_for_log '^gestured: (using|added) /dev/input/' "$1" 30
  cue "added-$1"
}
"$player" --script "$vm_dir/timelines/touchpad-hotplug.timeline" >>"$log/player" 2>&1 &
player_pid=$!
cue_when_added 1
cue_when_added 2
wait "$player_pid" || fail "gestured-uinput-play touchpad-hotplug failed"
expect_lines swipe "workspace-next left 3" "workspace-next left 3"

"$player" --script "$vm_dir/timelines/touchscreen-unplug-mid-pinch.timeline" >>"$log/player" 2>&1 &
player_pid=$!
cue_when_added 3
wait "$player_pid" || fail "gestured-uinput-play touchscreen-unplug-mid-pinch failed"
expect_lines pinch begin cancel
daemon_alive
pass
