#!/bin/bash
# Never locked out (issue 12): while gestured holds the touchscreen, a reader on
# the device itself sees nothing; after `kill -9` the kernel has released the grab
# and destroyed the clone, and the same reader reads the device again. Restarted,
# gestured grabs it again; unplugged and plugged in again (suspend and resume), it
# is grabbed again and the new clone carries the next drag.
. "$(dirname "$0")/../guest/e2e-lib.sh"
screen="Atmel maXTouch Touchscreen"
start_grabbing "$screen" grab-kill-replug
read_device "$screen" "$log/original"
original_reader=$last_reader

cue drag-1
wait_for /tmp/e2e/dragged-1 20 || fail "the first drag never ended"
sleep 0.5
[ "$(wc -l <"$log/original")" = 1 ] || fail "a reader of the grabbed device saw events: $(tail -n +2 "$log/original" | tr '\n' ' ')"
say "grabbed: a reader of the device itself sees nothing"

gestured_pid=$(pgrep -u "$user" -x gestured) || fail "no gestured process of $user"
kill -KILL "$gestured_pid"
within 10 not_running "$gestured_pid" || fail "gestured survived SIGKILL"
within 5 sh -c "! grep -qF '$clone' /proc/bus/input/devices" || fail "the clone outlived the daemon"
cue drag-2
wait_for /tmp/e2e/dragged-2 20 || fail "the second drag never ended"
within 5 grep -q 'ABS_MT_TRACKING_ID -1' "$log/original" || fail "after kill -9 the device is still not readable: $(tail -n +2 "$log/original" | tr '\n' ' ')"
say "after kill -9: the clone is gone and the reader reads the device again ($(($(wc -l <"$log/original") - 1)) events)"
kill "$original_reader"

start_daemon
wait_for_grab "$screen" 1
cue replug
wait_for_log "removed /dev/input/event[0-9]+ \\($screen\\)" 1 20
wait_for_grab "$screen" 2
udevadm settle --timeout=10
read_device "$clone" "$log/clone"
cue drag-3
wait_for /tmp/e2e/dragged-3 20 || fail "the third drag never ended"
within 5 grep -q 'ABS_MT_TRACKING_ID -1' "$log/clone" || fail "the new clone carried no drag: $(tail -n +2 "$log/clone" | tr '\n' ' ')"
say "unplugged and plugged in again: grabbed again, the new clone carries the drag"
cue done
wait "$player_pid" || fail "gestured-uinput-play grab-kill-replug failed"
daemon_alive
pass
