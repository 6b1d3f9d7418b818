#!/bin/bash
# udev classifies the uinput devices as a real touchpad and touchscreen would be,
# and `gestured list-devices` (run by the user, from group `input`) reports them
# as such, with the recorded device's slots.
. "$(dirname "$0")/../guest/e2e-lib.sh"
setup
plug plug-touchpad
plug plug-touchscreen

touchpad=$(cat "$log/plug-touchpad.node") touchscreen=$(cat "$log/plug-touchscreen.node")
udevadm info --query=property "$touchpad" | grep -qx ID_INPUT_TOUCHPAD=1 || fail "udev did not tag $touchpad ID_INPUT_TOUCHPAD"
udevadm info --query=property "$touchscreen" | grep -qx ID_INPUT_TOUCHSCREEN=1 || fail "udev did not tag $touchscreen ID_INPUT_TOUCHSCREEN"
[ "$(stat -c %G "$touchpad")" = input ] || fail "$touchpad is not in group input (udev rules not applied)"

runuser -u "$user" -- "$gestured" list-devices >"$log/list-devices" 2>&1 || fail "list-devices failed"
runuser -u "$user" -- "$gestured" list-devices --json >"$log/list-devices.json" 2>&1 || fail "list-devices --json failed"
cat "$log/list-devices"
# One JSON object per device, or an array of them.
check() { # NODE TYPE SLOTS
  local found
  found=$(jq -sr --arg path "$1" '[.[] | if type == "array" then .[] else . end | select(.path == $path)]
    | if length == 0 then "missing" else .[0] | "\(.type // .kind) \(.slots)" end' "$log/list-devices.json") \
    || fail "list-devices --json is not JSON: $(head -c 300 "$log/list-devices.json")"
  [ "$found" = "$2 $3" ] || fail "list-devices --json says $1 is '$found', expected '$2 $3'"
  say "$1: $found"
}
check "$touchpad" touchpad 2
check "$touchscreen" touchscreen 10
pass
