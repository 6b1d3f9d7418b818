#!/bin/bash
# gestured's virtual touchpad (issue 34, item 3), where `follow` bindings are played as
# the desktop's own touchpad swipes, on the real kernel with libinput itself: udev tags
# it an external touchpad (the rule `make install` adds), libinput takes it as a pointer
# with gestures, tap-to-click and disable-while-typing off, and each follow played on it
# (the driver makes the device with gestured's own VirtualTouchpad and drives it as the
# daemon does) is ONE libinput swipe: begin, updates, end, with the finger count played
# and not cancelled, its unaccelerated deltas adding up to 10.52 units per mm the
# fingers moved past the pre-roll. A spring-back ends not cancelled, back where it began.
# (sway's `bindgesture` needs sway 1.8; the VM's root is Debian 12's, with sway 1.7.)
. "$(dirname "$0")/../guest/e2e-lib.sh"
setup
install -D -m 644 "$vm_dir/../../udev/71-gestured-virtual-touchpad.rules" /etc/udev/rules.d/71-gestured-virtual-touchpad.rules
udevadm control --reload

# The follows: 4 fingers right 30 mm, committed; 4 fingers left 20 mm, cancelled (a
# spring-back); 3 fingers up 25 mm, committed.
plays=("4 right 30mm 400ms commit" "4 left 20mm 300ms cancel" "3 up 25mm 300ms commit")
args=()
for p in "${plays[@]}"; do args+=(--follow "$p"); done
"$player" "${args[@]}" --await /tmp/e2e/go >"$log/player" 2>&1 &
player_pid=$!
wait_for_match "$log/player" '^created ' 20 || fail "the driver made no virtual touchpad: $(cat "$log/player")"
udevadm settle --timeout=20
node=$(node_named "gestured virtual touchpad") || fail "no input device named 'gestured virtual touchpad'"

# udev: a touchpad, external, which KWin's tablet mode ignores.
udevadm info "$node" >"$log/udev"
grep -qx 'E: ID_INPUT_TOUCHPAD=1' "$log/udev" || fail "udev did not tag $node ID_INPUT_TOUCHPAD"
grep -qx 'E: ID_INPUT_TOUCHPAD_INTEGRATION=external' "$log/udev" || fail "the rule did not make $node external"
grep -Eq '^(E: TAGS=.*:kwin-ignore-tablet-mode:|G: kwin-ignore-tablet-mode$)' "$log/udev" || fail "the rule did not tag $node kwin-ignore-tablet-mode"
say "udev: $node ID_INPUT_TOUCHPAD=1, ID_INPUT_TOUCHPAD_INTEGRATION=external, tag kwin-ignore-tablet-mode"

# libinput: a pointer with gestures; tap-to-click off (BTN_LEFT declared), no
# disable-while-typing (an external touchpad has none).
libinput list-devices >"$log/list-devices" 2>&1
awk -v node="$node" '/^Device:/ { block = "" } { block = block $0 "\n" } /^Kernel:/ && $2 == node { found = 1 }
  found && /^$/ { print block; exit } END { if (found) print block }' "$log/list-devices" >"$log/libinput-device"
[ -s "$log/libinput-device" ] || fail "libinput list-devices does not list $node"
field() { sed -n "s/^$1: *//p" "$log/libinput-device" | head -1; }
[ "$(field Capabilities)" = "pointer gesture" ] || fail "libinput's capabilities: '$(field Capabilities)', not 'pointer gesture'"
[ "$(field Tap-to-click)" = disabled ] || fail "tap-to-click is '$(field Tap-to-click)'"
[ "$(field Disable-w-typing)" = n/a ] || fail "disable-while-typing is '$(field Disable-w-typing)': libinput took the pad for an internal one"
say "libinput: $(field Size), capabilities '$(field Capabilities)', tap-to-click $(field Tap-to-click), disable-while-typing $(field Disable-w-typing)"

# gestured itself: its own device, not read.
runuser -u "$user" -- "$gestured" list-devices >"$log/gestured-list-devices" 2>&1
grep -qF "$node  not used  \"gestured virtual touchpad\": gestured's own virtual touchpad" "$log/gestured-list-devices" \
  || fail "gestured list-devices does not call $node its own: $(grep -F "$node" "$log/gestured-list-devices")"

libinput_on "gestured virtual touchpad" "$log/libinput"
start=$(date +%s%N)
cue go
within 30 not_running "$player_pid" || fail "the driver did not finish its follows in 30 s"
wait "$player_pid" || fail "the driver failed: $(tail -n 3 "$log/player")"
say "played ${#plays[@]} follows in $(( ($(date +%s%N) - start) / 1000000 )) ms (VM time)"
grep '^follow ' "$log/player" | sed 's/^/e2e:   /'
libinput_off 0.5

# libinput's own words for anything it threw away or took for something else.
libinput_complaints "$log/libinput" && fail "libinput logged the above"
others=$(grep -Eo '(POINTER|GESTURE_PINCH|GESTURE_HOLD|TOUCH)_[A-Z_]+' "$log/libinput" | sort | uniq -c | tr '\n' ' ')
[ -z "$others" ] || fail "libinput made more than swipes of it: $others"

# One swipe per follow: its finger count, its updates, the sum of its unaccelerated
# deltas along the axis, and the farthest that sum went (a spring-back comes back).
swipes=$(awk '
  /GESTURE_SWIPE_BEGIN/ { n++; fingers[n] = $NF; sumx[n] = 0; sumy[n] = 0; peak[n] = 0; updates[n] = 0 }
  /GESTURE_SWIPE_UPDATE/ && match($0, /\( *-?[0-9.]+\/ *-?[0-9.]+ unaccelerated\)/) {
    split(substr($0, RSTART + 1, RLENGTH - 2), v, "/"); split(v[2], w, " ")
    sumx[n] += v[1]; sumy[n] += w[1]; updates[n]++
    line = $0; sub(/ *\(.*/, "", line); k = split(line, f, /[ \t\/]+/); accx[n] += f[k - 1]; accy[n] += f[k]
    s = (sumx[n] ^ 2 > sumy[n] ^ 2) ? sumx[n] : sumy[n]
    if (s ^ 2 > peak[n] ^ 2) peak[n] = s
  }
  /GESTURE_SWIPE_END/ { ended[n] = /cancelled/ ? "cancelled" : "ended" }
  END { for (i = 1; i <= n; i++) printf "%d %s %d %.2f %.2f %.2f %.2f %.2f\n", fingers[i], ended[i], updates[i], sumx[i], sumy[i], peak[i], accx[i], accy[i] }
' "$log/libinput")
echo "$swipes" >"$log/swipes"
count=$(grep -c GESTURE_SWIPE_BEGIN "$log/libinput")
[ "$count" = "${#plays[@]}" ] || fail "libinput made $count swipes of ${#plays[@]} follows: $(grep -Eo 'GESTURE_SWIPE_[A-Z]+' "$log/libinput" | uniq -c | tr '\n' ' ')"

# Per follow: the sum of the unaccelerated deltas along the axis is 10.5165 units a mm
# (libinput's adaptive touchpad profile: 1000/25.4 units an inch × 0.9 × 0.2968), signed
# (right and down +), of the motion past the pre-roll: the distance when committed, 0
# when sprung back (and its farthest most of the distance: a cancel goes back from
# where the fingers are, dropping what they had yet to catch up). libinput before 1.27
# also reports the frame it decided on a swipe in, the pre-roll's last 0.05 mm (1.27+
# begin the swipe there, with no motion). Tolerance: each update is printed with 2
# decimals (≤ 0.005 off), and 0.1 besides; the positions are whole device units, so
# nothing else is rounded. A frame lost to libinput's jump filter would be at least
# 1 unit (0.26) off, a usual one 6 or more.
version=$(libinput --version)
leak=$(awk -v v="$version" 'BEGIN { split(v, p, "."); print (p[1] == 1 && p[2] < 27) ? 0.05 : 0 }')
say "libinput $version: the deciding frame's $leak mm is in the updates"
i=0
for p in "${plays[@]}"; do
  i=$((i + 1))
  read -r fingers dir dist _ kind <<<"$p"
  mm=${dist%mm}
  read -r got_fingers ended updates sumx sumy peak accx accy <<<"$(sed -n "${i}p" "$log/swipes")"
  [ "$got_fingers" = "$fingers" ] || fail "follow $i ($p): libinput's swipe has $got_fingers fingers"
  [ "$ended" = ended ] || fail "follow $i ($p): libinput's swipe ended $ended"
  [ "$updates" -ge 5 ] || fail "follow $i ($p): only $updates updates"
  case $dir in right) sign=1 axis=x ;; left) sign=-1 axis=x ;; down) sign=1 axis=y ;; up) sign=-1 axis=y ;; esac
  if [ "$axis" = x ]; then along=$sumx across=$sumy accelerated=$accx; else along=$sumy across=$sumx accelerated=$accy; fi
  units() { awk -v m="$1" -v s="$sign" 'BEGIN { printf "%.2f", s * m * 1000 / 25.4 * 0.9 * 0.2968 }'; }
  farthest=$(units "$(awk -v m="$mm" -v l="$leak" 'BEGIN { print m + l }')")
  if [ "$kind" = commit ]; then want=$farthest; else want=$(units "$leak"); fi
  tolerance=$(awk -v u="$updates" 'BEGIN { printf "%.2f", 0.1 + 0.005 * u }')
  near() { awk -v g="$1" -v w="$2" -v t="$3" 'BEGIN { d = g - w; exit !(d <= t && -d <= t) }'; }
  say "follow $i ($p): 1 swipe, $got_fingers fingers, $updates updates, $ended; Σ unaccelerated along the axis $along (expected $want ± $tolerance), across $across, farthest $peak (expected $farthest); accelerated Σ $accelerated"
  near "$along" "$want" "$tolerance" || fail "follow $i ($p): Σ unaccelerated $along, expected $want ± $tolerance"
  near "$across" 0 0 || fail "follow $i ($p): $across across the axis"
  if [ "$kind" = commit ]; then
    near "$peak" "$farthest" "$tolerance" || fail "follow $i ($p): the fingers went to $peak, expected $farthest ± $tolerance"
  else # a cancel springs back from wherever the fingers are, not from where they were still going
    awk -v g="$peak" -v w="$farthest" -v t="$tolerance" 'BEGIN { g = g < 0 ? -g : g; w = w < 0 ? -w : w; exit !(g >= 0.9 * w && g <= w + t) }' \
      || fail "follow $i ($p): the fingers went to $peak before springing back, expected 90–100% of $farthest"
  fi
done
grep -m1 GESTURE_SWIPE_UPDATE "$log/libinput" | sed 's/^/e2e: libinput'"'"'s first update: /'
pass
