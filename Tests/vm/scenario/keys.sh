#!/bin/bash
# Keys through the kernel's uinput: the udev rule `make install` adds lets the
# user's daemon create "gestured virtual input"; a libevdev reader on it (what a
# compositor is) sees super+Page_Down for a 3-finger swipe, and the Alt+Tab pan:
# Alt down, a Tab per step, Shift+Tab going back, Alt up at lift. A touchscreen
# unplugged mid-pan: Alt comes up, the daemon goes on.
. "$(dirname "$0")/../guest/e2e-lib.sh"
start_with_virtual_input "$vm_dir/scenario/keys.yaml"
runuser -u "$user" -- "$gestured" list-devices >"$log/list-devices" 2>&1
grep -q "not used  \"gestured virtual input\": gestured's own virtual device" "$log/list-devices" \
  || fail "list-devices does not show the virtual device as gestured's own: $(cat "$log/list-devices")"
# reader_keys: what the reader saw, EV_KEY only, as +NAME / -NAME.
reader_keys() { awk '$1 ~ /^(KEY|BTN)_/ { printf "%s%s ", ($2 == 1 ? "+" : "-"), substr($1, 5) }' "$log/reader"; }
play_cued keys-swipe touchpad go
within 10 grep -q 'KEY_PAGEDOWN 0' "$log/reader" || fail "no super+Page_Down: reader saw [$(reader_keys)]"
[ "$(reader_keys)" = "+LEFTMETA +PAGEDOWN -PAGEDOWN -LEFTMETA " ] || fail "swipe: reader saw [$(reader_keys)]"
say "swipe left: $(reader_keys)"

play_cued keys-alt-tab touchscreen go-pan
within 5 grep -q 'KEY_LEFTALT 0' "$log/reader" || fail "Alt never came up: reader saw [$(reader_keys)]"
pan=$(reader_keys | sed 's/^+LEFTMETA +PAGEDOWN -PAGEDOWN -LEFTMETA //')
echo "$pan" | grep -Eq '^\+LEFTALT (\+TAB -TAB ){2,}(\+LEFTSHIFT \+TAB -TAB -LEFTSHIFT )+-LEFTALT $' \
  || fail "Alt+Tab pan: reader saw [$pan]"
say "alt-tab pan: $pan"

"$player" --script "$vm_dir/timelines/keys-unplug-mid-pan.timeline" >>"$log/player" 2>&1 &
player_pid=$!
wait_for_log '(using|added) /dev/input/.*touchscreen' 2 30
lines_before=$(wc -l <"$log/reader")
cue go-unplug
wait "$player_pid" || fail "gestured-uinput-play keys-unplug-mid-pan failed"
within 5 test "$(tail -n +$((lines_before + 1)) "$log/reader" | grep -c 'KEY_LEFTALT 0')" -ge 1 \
  || fail "unplugged mid-pan: Alt stayed down: [$(tail -n +$((lines_before + 1)) "$log/reader" | tr '\n' ' ')]"
unplugged=$(tail -n +$((lines_before + 1)) "$log/reader" | awk '$1 ~ /^KEY_/ { printf "%s%s ", ($2 == 1 ? "+" : "-"), substr($1, 5) }')
echo "$unplugged" | grep -Eq '^\+LEFTALT (\+TAB -TAB )*-LEFTALT $' || fail "unplugged mid-pan: reader saw [$unplugged]"
say "unplugged mid-pan: $unplugged"
daemon_alive
pass
