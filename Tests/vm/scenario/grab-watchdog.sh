#!/bin/bash
# A stalled daemon never keeps the grab (issue 26): gestured stopped with SIGSTOP
# while it holds the touchpad, a swipe on it comes back to the desktop within the
# watchdog's bound (a reader of the device node itself sees it), and libinput on the
# device makes pointer motion of the next drag. After SIGCONT the daemon drops the
# backlog (nothing reaches the old clone, the swipe made while stopped fires nothing),
# grabs the device again once the fingers are up, and the next swipe works, grabbed.
. "$(dirname "$0")/../guest/e2e-lib.sh"
pad="SynPS/2 Synaptics TouchPad"
start_grabbing "$pad" grab-watchdog
gestured_pid=$(pgrep -u "$user" -x gestured) || fail "no gestured process of $user (or more than one)"
watchdog_pid=$(pgrep -u "$user" -x gestured-grabwd) || fail "no grab watchdog next to the grab: $(ps -u "$user" -o pid,comm,args)"
say "grabbed; daemon pid $gestured_pid, its grab watchdog pid $watchdog_pid ($(tr '\0' ' ' </proc/"$watchdog_pid"/cmdline))"
# A reader of the device node itself, with each event's kernel time.
"$player" --read "$pad" --times >"$log/device" 2>&1 &
device_reader=$!
wait_for_match "$log/device" '^reading ' 10 || fail "no reader on the device: $(cat "$log/device")"
read_device "$clone" "$log/old-clone"
libinput_on "$pad" "$log/libinput"

kill -STOP "$gestured_pid"
within 5 grep -q '^State:.*stopped' /proc/"$gestured_pid"/status || fail "the daemon did not stop"
say "daemon stopped (SIGSTOP)"
cue stalled-swipe
within 30 grep -q 'ABS_MT_POSITION_X' "$log/device" || fail "the device never came back while the daemon was stopped: $(tail -n 5 "$log/daemon")"
# From the touch (the player's mark, right after it) to the first event the reader got
# (its kernel time): not the script's polling, which TCG makes slow.
touched=$(stat -c %.6Y /tmp/e2e/stall-touched)
first=$(grep -m1 -o '@[0-9.]*' "$log/device" | tr -d @)
back=$(awk "BEGIN { printf \"%.2f\", $first - $touched }")
say "a reader of the device node itself reads it again ${back} s after the swipe began (the watchdog's bound: 1.5 s)"
awk "BEGIN { exit !($back <= 2.5) }" || fail "the device came back only after $back s"
wait_for_log "grab watchdog: gestured \\(pid $gestured_pid\\) left input from /dev/input/event[0-9]+ unread for 1.5 s" 1 10
grep 'grab watchdog:' "$log/daemon" | head -n 1 | sed 's/^/e2e: the log: /'
wait_for /tmp/e2e/dragged 30 || fail "the drag never ended"
# What a desktop makes of it: libinput on the device node, which missed the start of
# the swipe the watchdog cut into (it logs a "double tracking ID -1" for its lift).
# It detects touches by pressure here: the player gives each touch a pressure other
# than the last one's, as real fingers have (with one pressure for all, the kernel
# dropped the drags' as unchanged and libinput, which missed the swipe's, saw none).
within 10 grep -q 'POINTER_MOTION' "$log/libinput" ||
  fail "libinput made no pointer motion of the drags after the release: $(grep -v '^ *event' "$log/libinput" | head -n 5)"
say "libinput on the device itself, daemon still stopped: $(grep -c POINTER_MOTION "$log/libinput") pointer motions of the drags; its complaints: $(grep -c 'libinput error' "$log/libinput")"
kill "$last_libinput"

kill -CONT "$gestured_pid"
say "daemon continued (SIGCONT)"
wait_for_log "the grab watchdog gave it back to the desktop while gestured was stalled" 1 20
wait_for_grab "$pad" 2
grep -q 'ABS_MT_POSITION' "$log/old-clone" && fail "the backlog reached the desktop through the old clone: $(grep -c ABS_MT_POSITION "$log/old-clone") positions"
say "the old clone got the watchdog's lift and nothing of the backlog: $(tail -n +2 "$log/old-clone" | tr '\n' ' ' | cut -c1-160)"
expect_nothing pad-swipe
say "the swipe made while stopped fired nothing"
new_watchdog=$(pgrep -u "$user" -x gestured-grabwd) || fail "grabbed again without a watchdog"
[ "$new_watchdog" != "$watchdog_pid" ] || fail "the old watchdog is still there"

udevadm settle --timeout=10
seen=$(wc -l <"$log/device")
cue swipe
wait_for /tmp/e2e/swiped 20 || fail "the last swipe never ended"
expect_lines pad-swipe pad-swipe
[ "$(wc -l <"$log/device")" = "$seen" ] || fail "grabbed again, yet a reader of the device saw the last swipe: $(tail -n +$((seen + 1)) "$log/device" | head -n 5 | tr '\n' ' ')"
say "grabbed again (new watchdog pid $new_watchdog): the reader of the device sees nothing of the last swipe, and it runs its command"
kill "$device_reader"
cue done
wait "$player_pid" || fail "gestured-uinput-play grab-watchdog failed"
daemon_alive
pass
