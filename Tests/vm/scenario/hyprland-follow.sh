#!/bin/bash
# vm: gpu
# vm: root forky
# A follow on a compositor that animates its own touchpad swipes (issue 34, item 3):
# Hyprland 0.56 with its workspace swipe bound (`gesture = 3, horizontal, workspace`),
# gestured as its user unit starts it in Hyprland's session with a {workspace: follow}
# 4-finger pan on a uinput touchscreen. The drag is played on gestured's virtual
# touchpad as Hyprland's own 3-finger swipe, Hyprland's libinput reads it, and its
# workspace strip moves with it and lands on the next workspace: hyprctl says so.
. "$(dirname "$0")/../guest/e2e-lib.sh"
. "$(dirname "$0")/../guest/hyprland-lib.sh"
start_hyprland 'gesture = 3, horizontal, workspace'
hyprctl configerrors >"$log/configerrors" 2>&1
allow_uinput
# 88 mm of 60 mm: one and a half of Hyprland's transitions (its 300 units, 28.5 mm of
# the virtual pad), so that libinput's pointer acceleration, which slows a slow swipe's
# deltas, still leaves Hyprland more than its half (cancel_ratio) to commit on.
write_config <<'YAML'
gestures:
  - {name: workspaces, gesture: pan, fingers: 4, axis: horizontal, device: touchscreen, command: {workspace: follow}, distance: 60mm}
YAML
daemon_env=(XDG_RUNTIME_DIR="$runtime" HYPRLAND_INSTANCE_SIGNATURE="$signature" WAYLAND_DISPLAY="$display")
start_daemon
wait_for_log 'follows are played on "gestured virtual touchpad"' 1 20 || fail "the daemon made no virtual touchpad: $(tail -n 5 "$log/daemon")"
udevadm settle --timeout=20
libinput_on "gestured virtual touchpad" "$log/libinput"
pad_listed() { hyprctl devices >"$log/devices" 2>&1 && grep -q 'gestured-virtual-touchpad' "$log/devices"; }
within 30 pad_listed || fail "Hyprland lists no gestured virtual touchpad: $(head -n 20 "$log/devices")"
# Windows on workspaces 2 and 1: Hyprland's swipe goes through the workspaces that exist.
hyprctl dispatch workspace 2 >/dev/null
window two
within 90 status_has "focused app: two " || fail "no window 'two' on workspace 2: $(status | grep focused)"
hyprctl dispatch workspace 1 >/dev/null
window one
within 90 status_has "focused app: one " || fail "no window 'one' on workspace 1: $(status | grep focused)"
expect_workspace 1 "before the drag"
play_cued follow-4-finger-drag touchscreen go
libinput_off 1
say "libinput on the pad: $(grep -c GESTURE_SWIPE_BEGIN "$log/libinput") swipe of $(grep GESTURE_SWIPE_BEGIN "$log/libinput" | awk '{print $NF}' | head -n 1) fingers, $(grep -c GESTURE_SWIPE_UPDATE "$log/libinput") updates"
[ -s "$log/configerrors" ] && grep -q . "$log/configerrors" && fail "Hyprland's config errors: $(cat "$log/configerrors")"
expect_workspace 2 "a 4-finger drag left on the touchscreen, followed as Hyprland's own 3-finger swipe"
say "Hyprland's workspace after the follow: $(active_workspace)"
grep -i 'warning.*follow\|follow.*warning' "$log/daemon" && fail "the daemon warned about the follow"
daemon_alive
pass
