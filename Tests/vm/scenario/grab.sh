#!/bin/bash
# Exclusive grab with passthrough, on a touchscreen (issue 12): a reader on the
# clone sees a 1-finger drag exactly as a reader on the device itself saw the same
# drag before the grab (timestamps aside); a bound 3-finger swipe reaches libinput
# on the clone as touch down and motion until gestured recognizes it, then as a
# touch cancel, with no touch up (no tap, no click for the app); with hold-back, a
# quick swipe reaches libinput not at all; SIGTERM gives the device back and removes
# the clone.
. "$(dirname "$0")/../guest/e2e-lib.sh"
screen="Atmel maXTouch Touchscreen"
start_grabbing "$screen" grab-touchscreen --no-daemon

# events FILE: what a reader printed, without its first line (the node it opened),
# each touch's tracking id replaced by its order (the driver gives each touch a new one).
events() { tail -n +2 "$1" | awk '$1 == "ABS_MT_TRACKING_ID" && $2 >= 0 { $2 = "touch" ++n } { print }'; }

# 1. The drag as the device itself reports it, before gestured runs.
read_device "$screen" "$log/original"
cue drag-1
wait_for /tmp/e2e/dragged-1 20 || fail "the first drag never ended"
within 5 grep -q 'ABS_MT_TRACKING_ID -1' "$log/original" || fail "the reader on the device saw no lift"
kill "$last_reader"

# 2. The same drag, grabbed, as the clone carries it.
start_daemon
wait_for_grab "$screen" 1
runuser -u "$user" -- "$gestured" list-devices >"$log/list-devices" 2>&1
grep -qF "not used  \"$clone\": gestured's copy of a grabbed device" "$log/list-devices" \
  || fail "list-devices does not call the clone gestured's own: $(cat "$log/list-devices")"
read_device "$clone" "$log/clone"
cue drag-2
wait_for /tmp/e2e/dragged-2 20 || fail "the second drag never ended"
within 5 grep -q 'ABS_MT_TRACKING_ID -1' "$log/clone" || fail "the clone carried no lift: $(events "$log/clone" | tr '\n' ' ')"
sleep 0.3
[ "$(events "$log/original" | wc -l)" -gt 20 ] || fail "the drag is too short to compare: $(events "$log/original" | tr '\n' ' ')"
diff <(events "$log/original") <(events "$log/clone") >"$log/drag.diff" \
  || fail "the clone's drag differs from the device's: $(cat "$log/drag.diff")"
say "1-finger drag: the clone carried the device's $(events "$log/clone" | wc -l) events unchanged"

# 3. A bound 3-finger swipe, as libinput sees the clone.
libinput_on "$clone" "$log/libinput"
cue swipe
wait_for /tmp/e2e/swiped 20 || fail "the swipe never ended"
expect_lines screen-swipe screen-swipe
within 5 grep -q TOUCH_CANCEL "$log/libinput" || fail "libinput saw no touch cancel: $(grep -o 'TOUCH_[A-Z]*' "$log/libinput" | uniq -c | tr '\n' ' ')"
libinput_off 0.3
seen=$(grep -o 'TOUCH_[A-Z]*' "$log/libinput" | grep -v TOUCH_FRAME | uniq -c | awk '{ printf "%s×%s ", $2, $1 }')
say "libinput on the clone: $seen"
[ "$(grep -c TOUCH_DOWN "$log/libinput")" = 3 ] || fail "expected 3 touch downs: $seen"
grep -q TOUCH_MOTION "$log/libinput" || fail "no motion reached the desktop before recognition: $seen"
[ "$(grep -c TOUCH_CANCEL "$log/libinput")" = 3 ] || fail "expected the 3 touches cancelled: $seen"
grep -q TOUCH_UP "$log/libinput" && fail "a touch went up (a tap or click for the app): $seen"
[ "$(grep -o 'TOUCH_[A-Z]*' "$log/libinput" | grep -v TOUCH_FRAME | tail -n 1)" = TOUCH_CANCEL ] \
  || fail "something reached the desktop after the cancel: $seen"

# 4. With hold-back (a reload, the grab kept): a quick bound swipe is recognized
# before its first frames are passed on, so the desktop sees nothing of it at all.
sed 's/^  devices: \[touchscreen, touchpad\]$/&\n  hold-back: 100ms/' "$vm_dir/scenario/grab.yaml" | write_config
wait_for_log '^gestured: reloaded' 1 20
grep -q "released" "$log/daemon" && fail "a reload that keeps the grab released the device"
libinput_on "$clone" "$log/libinput-held"
cue quick-swipe
wait_for /tmp/e2e/quick-swiped 20 || fail "the quick swipe never ended"
expect_lines screen-swipe screen-swipe screen-swipe
libinput_off 0.5
held=$(grep -o 'TOUCH_[A-Z]*' "$log/libinput-held" | uniq -c | awk '{ printf "%s×%s ", $2, $1 }')
[ -z "$held" ] || fail "with hold-back the quick swipe still reached the desktop: $held"
say "hold-back 100ms: libinput on the clone saw nothing of a quick swipe"

# 5. SIGTERM: the device is given back and the clone removed.
read_device "$screen" "$log/after-term"
kill -TERM "$(pgrep -u "$user" -x gestured)"
within 10 not_running "$daemon_pid" || fail "gestured did not exit on SIGTERM"
grep -q "released /dev/input/event[0-9]* ($screen): stopping" "$log/daemon" || fail "no release logged at SIGTERM"
grep -qF "$clone" /proc/bus/input/devices && fail "the clone outlived the daemon"
cue drag-3
wait_for /tmp/e2e/dragged-3 20 || fail "the third drag never ended"
within 5 grep -q 'ABS_MT_TRACKING_ID -1' "$log/after-term" || fail "after SIGTERM the device itself is not readable"
say "after SIGTERM: the clone is gone and the device reads again"
cue done
wait "$player_pid" || fail "gestured-uinput-play grab-touchscreen failed"
pass
