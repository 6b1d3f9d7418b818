#!/bin/bash
# Hotplug: the daemon starts with no touch device; a touchpad plugged in later
# works; unplugged in the middle of a swipe, nothing fires and the daemon goes on;
# plugged in again, it works again.
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
start_daemon
"$player" --script "$vm_dir/timelines/touchpad-hotplug.timeline" >>"$log/player" 2>&1 \
  || fail "gestured-uinput-play touchpad-hotplug failed"
expect_lines swipe "workspace-next left 3" "workspace-next left 3"
daemon_alive
pass
