#!/bin/bash
# A follow end to end on the real kernel (issue 34, item 3): the daemon, told it runs
# in KDE Plasma, recognizes a uinput touchscreen's 4-finger drag as the pan bound to
# {workspace: follow} and plays it on its virtual touchpad as KWin's own 4-finger
# touchpad swipe. libinput itself, on that touchpad, sees ONE swipe: begin, updates,
# end, 4 fingers, not cancelled, its unaccelerated deltas (10.52 units a mm on the
# virtual pad) adding up to the drag's share of a transition times KWin's travel
# (19 mm): 88 mm of 150 mm → 0.59 → 11.1 mm → about 117 units, less what the pan's
# beginning took (the pan begins a few mm into the drag, already that far along).
. "$(dirname "$0")/../guest/e2e-lib.sh"
setup
allow_uinput
install -D -m 644 "$vm_dir/../../udev/71-gestured-virtual-touchpad.rules" /etc/udev/rules.d/71-gestured-virtual-touchpad.rules
udevadm control --reload
write_config <"$vm_dir/scenario/follow-touchpad.yaml"
# KDE Plasma as its session says (no kglobalaccel is asked: a follow goes to the touchpad).
daemon_env=(XDG_CURRENT_DESKTOP=KDE DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent)
start_daemon
wait_for_log 'follows are played on "gestured virtual touchpad"' 1 20 || fail "the daemon made no virtual touchpad: $(tail -n 5 "$log/daemon")"
udevadm settle --timeout=20
libinput_on "gestured virtual touchpad" "$log/libinput"
play_cued follow-4-finger-drag touchscreen go
libinput_off 1

libinput_complaints "$log/libinput" && fail "libinput logged the above"
others=$(grep -Eo '(POINTER|GESTURE_PINCH|GESTURE_HOLD|TOUCH)_[A-Z_]+' "$log/libinput" | sort | uniq -c | tr '\n' ' ')
[ -z "$others" ] || fail "libinput made more than a swipe of it: $others"
read -r n fingers ended updates sum < <(awk '
  /GESTURE_SWIPE_BEGIN/ { n++; fingers = $NF }
  /GESTURE_SWIPE_UPDATE/ && match($0, /\( *-?[0-9.]+\/ *-?[0-9.]+ unaccelerated\)/) {
    split(substr($0, RSTART + 1, RLENGTH - 2), v, "/"); sum += v[1]; updates++ }
  /GESTURE_SWIPE_END/ { ended = /cancelled/ ? "cancelled" : "ended" }
  END { printf "%d %s %s %d %.2f\n", n, fingers, ended, updates, sum }' "$log/libinput")
[ "$n" = 1 ] || fail "libinput saw $n swipes, not one: $(grep GESTURE "$log/libinput" | head -n 5)"
[ "$fingers" = 4 ] || fail "the swipe had $fingers fingers, not KWin's 4"
[ "$ended" = ended ] || fail "the swipe was $ended"
# Fingers left: forward, the virtual fingers go left too (negative x). The drag's 88 mm
# of 150 mm, times 19 mm, times 10.52 units a mm: -117; the pan begins a little into
# the drag and libinput's begin takes up to 0.05 mm, so between -125 and -95.
awk -v s="$sum" 'BEGIN { exit !(s <= -95 && s >= -125) }' || fail "the swipe's unaccelerated x added up to $sum, not about -117"
say "one libinput swipe: 4 fingers, $updates updates, ended, unaccelerated x $sum (a 88 mm drag of 150 mm for KWin's 19 mm: about -117)"
grep -i 'warning.*follow\|follow.*warning' "$log/daemon" && fail "the daemon warned about the follow"
daemon_alive
pass
