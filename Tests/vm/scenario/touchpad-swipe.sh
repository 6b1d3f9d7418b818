#!/bin/bash
# The daemon started as a user would (unprivileged, in group `input`, the config
# in ~/.config/gestured/config.yaml, systemd-style readiness); a 3-finger swipe on
# a 2-slot touchpad whose third finger only shows in BTN_TOOL_TRIPLETAP runs the
# bound command, each way, and a 2-finger swipe runs only its own.
. "$(dirname "$0")/../guest/e2e-lib.sh"
setup
write_config <<'YAML'
gestures:
  - name: workspace-next
    gesture: swipe
    fingers: 3
    direction: left
    device: touchpad
    command: echo "$GESTURE_NAME $GESTURE_DIRECTION $GESTURE_FINGERS" >> /tmp/e2e/out/swipe-3
  - name: workspace-previous
    gesture: swipe
    fingers: 3
    direction: right
    device: touchpad
    command: echo "$GESTURE_NAME $GESTURE_DIRECTION $GESTURE_FINGERS" >> /tmp/e2e/out/swipe-3
  - name: back
    gesture: swipe
    fingers: 2
    direction: left
    command: echo "$GESTURE_NAME $GESTURE_DIRECTION $GESTURE_FINGERS" >> /tmp/e2e/out/swipe-2
YAML
plug touchpad-swipes
start_daemon
cue go
finish touchpad-swipes
expect_lines swipe-3 "workspace-next left 3" "workspace-previous right 3"
expect_lines swipe-2 "back left 2"
daemon_alive
pass
