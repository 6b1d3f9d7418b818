#!/bin/bash
# Exclusive grab with passthrough, on a touchpad (issue 12): libinput on the clone
# sees a bound 3-finger swipe only until gestured recognizes it (its fingers then
# lift for the desktop: at most the first frames of a libinput swipe, and no desktop
# gesture to the end), while an unbound 2-finger scroll passes as scrolling. A
# reload with the grab turned off gives the touchpad back and removes the clone.
. "$(dirname "$0")/../guest/e2e-lib.sh"
start_grabbing "SynPS/2 Synaptics TouchPad" grab-touchpad
libinput_on "$clone" "$log/libinput"

cue swipe
wait_for /tmp/e2e/swiped 20 || fail "the swipe never ended"
expect_lines pad-swipe pad-swipe
sleep 0.5
swipe_lines=$(wc -l <"$log/libinput")
gestures=$(grep -Eo 'GESTURE_[A-Z_]+' "$log/libinput" | uniq -c | awk '{ printf "%s×%s ", $2, $1 }')
say "libinput on the clone, 3-finger swipe (50 frames of motion): ${gestures:-no gesture}"
# The swipe has 50 frames of motion; gestured recognizes it, and the fingers lift
# for the desktop, well before its end: libinput's own swipe stops there.
updates=$(grep -c 'GESTURE_SWIPE_UPDATE' "$log/libinput")
[ "$updates" -le 20 ] || fail "the desktop's swipe went on after gestured took it: $updates updates ($gestures)"
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
