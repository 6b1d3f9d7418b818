#!/bin/bash
# Exclusive grab with passthrough, on a touchpad (issue 12): libinput on the device
# itself makes a swipe of a 3-finger stroke to its end; grabbed, libinput on the clone
# sees the same stroke, bound, only until gestured recognizes it (its fingers then
# lift for the desktop: at most the first frames of a libinput swipe, and no desktop
# gesture to the end), while an unbound 2-finger scroll passes as scrolling. A
# reload with the grab turned off gives the touchpad back and removes the clone.
. "$(dirname "$0")/../guest/e2e-lib.sh"
pad="SynPS/2 Synaptics TouchPad"
start_grabbing "$pad" grab-touchpad --no-daemon

# The swipe as libinput makes it of the device itself, before gestured runs.
libinput_on "$pad" "$log/libinput-ungrabbed"
cue swipe-0
wait_for /tmp/e2e/swiped-0 20 || fail "the first swipe never ended"
libinput_off 0.5
baseline=$(grep -c 'GESTURE_SWIPE_UPDATE' "$log/libinput-ungrabbed")
say "libinput on the device itself, not grabbed: $baseline swipe updates"
[ "$baseline" -ge 60 ] || fail "libinput made only $baseline swipe updates of the ungrabbed swipe: nothing to compare with"

start_daemon
wait_for_grab "$pad" 1
libinput_on "$clone" "$log/libinput"
cue swipe
wait_for /tmp/e2e/swiped 20 || fail "the swipe never ended"
expect_lines pad-swipe pad-swipe
sleep 0.5
swipe_lines=$(wc -l <"$log/libinput")
gestures=$(grep -Eo 'GESTURE_[A-Z_]+' "$log/libinput" | uniq -c | awk '{ printf "%s×%s ", $2, $1 }')
say "libinput on the clone, 3-finger swipe (80 frames of motion): ${gestures:-no gesture}"
# The stroke is 80% of the pad (55 mm by the daemon's estimate) in 80 frames; gestured
# recognizes the swipe at its 20 mm, about 29 frames in, and the fingers lift for the
# desktop there: libinput's own swipe stops with them, whenever it began (it needs a
# few frames, more when it discards a touch jump). Not grabbed, it ran to the lift.
updates=$(grep -c 'GESTURE_SWIPE_UPDATE' "$log/libinput")
[ "$updates" -le 50 ] || fail "the desktop's swipe went on after gestured took it: $updates updates of 80 frames, $baseline not grabbed ($gestures)"
grep -Eq 'GESTURE_(PINCH|HOLD)_BEGIN' "$log/libinput" && fail "libinput made another gesture of it: $gestures"
grep -Eq 'POINTER_(SCROLL_FINGER|AXIS)' "$log/libinput" && fail "the swipe scrolled: $(grep -c POINTER "$log/libinput") pointer events"

cue scroll
wait_for /tmp/e2e/scrolled 20 || fail "the scroll never ended"
within 5 grep -Eq 'POINTER_(SCROLL_FINGER|AXIS)' "$log/libinput" || fail "the 2-finger scroll did not scroll: $(tail -n +$((swipe_lines + 1)) "$log/libinput" | grep -Eo '[A-Z]+_[A-Z_]+' | uniq -c | tr '\n' ' ')"
sleep 0.5
scrolls=$(tail -n +$((swipe_lines + 1)) "$log/libinput" | grep -Ec 'POINTER_(SCROLL_FINGER|AXIS)')
say "libinput on the clone, unbound 2-finger scroll: $scrolls scroll events"
[ "$scrolls" -ge 5 ] || fail "only $scrolls scroll events for a 2-finger scroll"
expect_lines pad-swipe pad-swipe
kill -INT "$last_libinput"

# A reload with the grab turned off: the touchpad is given back, its clone removed.
grep -v -e '^grab:' -e '^  devices:' "$vm_dir/scenario/grab.yaml" | write_config
wait_for_log "released /dev/input/event[0-9]+ \\(SynPS/2 Synaptics TouchPad\\): not in grab: any more" 1 20
within 5 sh -c "! grep -qF '$clone' /proc/bus/input/devices" || fail "the clone outlived the grab"
say "reloaded without grab: the touchpad is given back, its clone gone"
cue done
wait "$player_pid" || fail "gestured-uinput-play grab-touchpad failed"
daemon_alive
pass
