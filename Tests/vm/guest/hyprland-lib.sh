# Hyprland from the Debian testing root, on the VM's virtio GPU, as the user
# (scenario/hyprland.sh and hyprland-follow.sh): `start_hyprland [CONF_LINE]` sets up
# the root, the seat and the runtime directory, starts Hyprland with its config plus
# CONF_LINE, and defines hyprctl, in_root, active_workspace, workspace_is,
# expect_workspace, and (for after the daemon starts) window, status, status_has;
# $runtime, $signature and $display name the session.
start_hyprland() {
  setup
  root=/var/cache/gestured-roots/forky
  [ -x "$root/usr/bin/Hyprland" ] || fail "no Debian testing root with Hyprland at $root (Tests/roots/build forky)"
  [ -e /dev/dri/card0 ] || fail "no /dev/dri/card0: the VM has no GPU (run-in-vm --gpu)"
  huid=$(id -u "$user")
  runtime=/run/user/$huid
  install -d -o "$user" -g "$user" -m 700 "$runtime"

  # The root's programs see the guest's devices, /run (seatd's socket, the runtime
  # directory) and a /tmp of their own.
  mount -t proc proc "$root/proc" && mount -t sysfs sys "$root/sys" && mount --rbind /dev "$root/dev" \
    && mount --rbind /run "$root/run" && mount -t tmpfs tmp "$root/tmp" || fail "cannot mount into $root"
  in_root() { chroot --userspec="$huid:$huid" "$root" env -i HOME=/tmp PATH=/usr/bin:/bin XDG_RUNTIME_DIR="$runtime" "$@"; }

  # The seat, as seatd.service gives it on a desktop; the DRM nodes, as udev's uaccess
  # gives them to the user at the seat (Mesa's kms_swrast opens card0 itself too).
  seatd -u "$user" -g "$user" >"$log/seatd" 2>&1 &
  within 20 test -S /run/seatd.sock || fail "seatd did not start"
  chmod 666 /dev/dri/card0 /dev/dri/renderD128

  printf '%s\n' 'monitor = , 1280x800, auto, 1' 'misc {' '    disable_hyprland_logo = true' \
    '    disable_splash_rendering = true' '}' >"$runtime/hyprland.conf"
  if [ -n "${1:-}" ]; then printf '%s\n' "$1" >>"$runtime/hyprland.conf"; fi
  chown "$user:$user" "$runtime/hyprland.conf"
  in_root LIBSEAT_BACKEND=seatd Hyprland --config "$runtime/hyprland.conf" >"$log/hyprland" 2>&1 &
  hyprland_socket() { ls "$runtime"/hypr/*/.socket.sock >/dev/null 2>&1; }
  within 120 hyprland_socket || fail "Hyprland made no IPC socket: $(tail -n 5 "$log/hyprland")"
  signature=$(ls "$runtime/hypr" | head -n 1)
  hyprctl() { in_root HYPRLAND_INSTANCE_SIGNATURE="$signature" hyprctl "$@"; }
  within 60 hyprctl -j activeworkspace || fail "hyprctl got no answer: $(tail -n 5 "$log/hyprland")"
  say "$(hyprctl version | head -n 1)"
  display=$(cd "$runtime" && ls wayland-* | grep -v lock | head -n 1)
  active_workspace() { hyprctl -j activeworkspace | jq -r .id; }
  workspace_is() { [ "$(active_workspace)" = "$1" ]; }
  expect_workspace() { within 30 workspace_is "$1" || fail "$2: Hyprland's active workspace is $(active_workspace), not $1"; }
  # A foot window with app id $1 on the active workspace; gestured's status.
  window() { in_root WAYLAND_DISPLAY="$display" foot --app-id="$1" sleep 120 >>"$log/foot" 2>&1 & }
  status() { runuser -u "$user" -- env XDG_RUNTIME_DIR="$runtime" "$gestured" status 2>&1; }
  status_has() { status | grep -Eq "$1"; }
}
