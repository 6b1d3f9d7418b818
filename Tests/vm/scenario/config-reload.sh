#!/bin/bash
# The config edited while the daemon runs (an editor's write-to-temp-and-rename):
# the next swipe runs the new command; after an invalid edit, the last good config
# keeps running.
. "$(dirname "$0")/../guest/e2e-lib.sh"
setup
swipe_config() { # COMMAND-WORD
  write_config <<YAML
gestures:
  - name: workspace-next
    gesture: swipe
    fingers: 3
    direction: left
    command: echo $1 >> /tmp/e2e/out/swipe
YAML
}
swipe_config first
plug touchpad-swipe-thrice
start_daemon
cue go1
expect_lines swipe first

swipe_config second
wait_for_log '^gestured: reloaded' 1 20
cue go2
expect_lines swipe first second

write_config <<'YAML'
gestures:
  - name: workspace-next
    gesture: swipe
    fingers: three
YAML
wait_for_log 'still running the previous one' 1 20
cue go3
finish touchpad-swipe-thrice
expect_lines swipe first second second
daemon_alive
pass
