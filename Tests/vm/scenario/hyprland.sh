#!/bin/bash
# vm: gpu
# vm: root forky
# Hyprland 0.56 (Debian testing's, from the Tests/roots root) for real, as a user:
# it cannot start in a container (its backend needs a DRM device: Tests/roots/README.md),
# so it runs here, on the VM's virtio GPU (no 3D: Mesa's llvmpipe through kms_swrast),
# with its seat from seatd, reading the touchpad through libinput as it would on a
# laptop. gestured, started as its user unit starts it with the session's environment,
# switches Hyprland's workspace on 3-finger swipes, takes the focused app from
# Hyprland's event socket for a per-app binding; every answer is Hyprland's own (hyprctl).
. "$(dirname "$0")/../guest/e2e-lib.sh"
. "$(dirname "$0")/../guest/hyprland-lib.sh"
start_hyprland

write_config <<'YAML'
gestures:
  - {name: next, gesture: swipe, fingers: 3, direction: left, command: {workspace: next}}
  - {name: previous, gesture: swipe, fingers: 3, direction: right, command: {workspace: previous}}
  - name: in-two
    gesture: swipe
    fingers: 3
    direction: left
    apps: [two]
    command: echo "$GESTURE_NAME $GESTURE_DIRECTION" >> /tmp/e2e/out/in-two
YAML
daemon_env=(XDG_RUNTIME_DIR="$runtime" HYPRLAND_INSTANCE_SIGNATURE="$signature" WAYLAND_DISPLAY="$display")
plug hyprland-swipes
start_daemon
within 30 status_has "focused app: .* from hyprland" || fail "no focus source on Hyprland: $(status)"

# A window on workspace 2 and one on 1 (Hyprland's `workspace e+1`, which next is,
# goes through the workspaces that exist), each focused as it opens.
hyprctl dispatch workspace 2 >/dev/null
window two
within 60 status_has "focused app: two " || fail "Hyprland's focus on foot --app-id=two was not heard: $(status)"
hyprctl dispatch workspace 1 >/dev/null
window one
within 60 status_has "focused app: one " || fail "Hyprland's focus on foot --app-id=one was not heard: $(status)"

expect_workspace 1 "with 'one' focused"
cue go1
expect_workspace 2 "{workspace: next} on a swipe left"
cue go2
expect_workspace 1 "{workspace: previous} on a swipe right"

# In 'two' (focused by Hyprland's own dispatcher) a swipe left runs its own binding.
hyprctl dispatch workspace 2 >/dev/null
within 30 status_has "focused app: two " || fail "the focus back on 'two' was not heard: $(status)"
cue go3
finish hyprland-swipes
within 10 has_lines "$out/in-two" 1 || fail "in-two did not run: $(status)"
expect_lines in-two "in-two left"
workspace_is 2 || fail "the per-app binding ran, and Hyprland still moved to workspace $(active_workspace)"

# Not checked: Hyprland 0.56 turning its output (`hyprctl keyword monitor …, transform,
# 1`) is not sent to a client already bound to the wl_output (a new client sees 90°), so
# gestured hears it only when it connects again (Tests/roots/README.md).
say "status: $(status | grep -E 'focused app|screen rotation' | tr '\n' ';')"
daemon_alive
pass
