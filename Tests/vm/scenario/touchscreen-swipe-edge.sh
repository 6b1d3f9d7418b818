#!/bin/bash
# A touchscreen: the recorded 4-finger drag down runs the 4-finger swipe's command,
# and a finger pulled in from the left edge runs the edge pan's.
. "$(dirname "$0")/../guest/e2e-lib.sh"
setup
write_config <<'YAML'
gestures:
  - name: close-window
    gesture: swipe
    fingers: 4
    direction: down
    device: touchscreen
    command: echo "$GESTURE_NAME $GESTURE_DIRECTION $GESTURE_FINGERS $GESTURE_DEVICE_KIND" >> /tmp/e2e/out/swipe-4
  - name: launcher
    gesture: edgepan
    edge: left
    end: echo "$GESTURE_NAME end" >> /tmp/e2e/out/edge
    begin: echo "$GESTURE_NAME begin" >> /tmp/e2e/out/edge
YAML
plug touchscreen-swipe-edge
start_daemon
cue go
finish touchscreen-swipe-edge
expect_lines swipe-4 "close-window down 4 touchscreen"
expect_lines edge "launcher begin" "launcher end"
daemon_alive
pass
