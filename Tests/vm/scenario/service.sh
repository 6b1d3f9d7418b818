#!/bin/bash
# vm: systemd
# The whole scene, as the README installs it: systemd as PID 1, the user logged in
# with sway (headless) as the session's compositor, `make install`, then the
# README's `systemctl --user daemon-reload` and `systemctl --user enable --now
# gestured` with the default config unmodified. A 3-finger swipe left on a uinput
# touchpad moves sway to the next workspace through `{workspace: next}` (sway's IPC,
# no process started), right moves it back; the same on a
# touchscreen; and once more through `keys:`, which sway reads from gestured's
# virtual keyboard. Then the service's life: Type=notify readiness with its STATUS=,
# kill -9 restarts it (gestures work after), `systemctl --user reload` applies an
# edited config, a broken config at start is not restarted (exit 3, file:line:col
# in the journal), and ending the session stops it.
. "$(dirname "$0")/../guest/e2e-lib.sh"
repo=$(cd "$vm_dir/../.." && pwd)
session_user

# make install as root, into the VM's root (the host made the release binary: `make
# release`, whose file target is then up to date: install only copies). Or, with
# GESTURED_E2E_DEB=PATH (make deb's .deb), the package as a user installs it: its
# postinst loads uinput and applies the udev rule; the unit is /usr/lib's.
if [ -n "${GESTURED_E2E_DEB:-}" ]; then
  # man-db's trigger re-indexes the host's whole /usr/share/man: over 240 s under TCG.
  echo "man-db man-db/auto-update boolean false" | debconf-set-selections
  dpkg -i "$GESTURED_E2E_DEB" >"$log/make-install" 2>&1 || fail "dpkg -i: $(tail -n 5 "$log/make-install")"
  say "dpkg -i: $(dpkg-query -W -f='${Package} ${Version}, ${Installed-Size} KiB' gestured); $(stat -c '%G %a' /dev/uinput) /dev/uinput"
else
  make -C "$repo" --no-print-directory install >"$log/make-install" 2>&1 || fail "make install: $(tail -n 5 "$log/make-install")"
  say "make install: $(tail -n 1 "$log/make-install")"
fi
cmp -s "$repo/config/default.yaml" /etc/gestured/config.yaml || fail "/etc/gestured/config.yaml is not the default config"

start_sway_session
windows_at_least() { [ "$(as_user swaymsg -t get_tree | jq '[.. | .app_id? | select(. == "foot")] | length')" -ge "$1" ]; }
state_is() { [ "$(unit_property ActiveState)/$(unit_property SubState)" = "$1" ]; }
# Two workspaces with a window each (an empty one vanishes when left), the first focused.
as_user swaymsg 'workspace 1; exec foot' >/dev/null || fail "swaymsg exec foot"
within 30 windows_at_least 1 || fail "foot did not open on workspace 1"
as_user swaymsg 'workspace 2; exec foot' >/dev/null
within 30 windows_at_least 2 || fail "foot did not open on workspace 2"
as_user swaymsg 'workspace 1' >/dev/null
expect_workspace 1 "before any gesture"

plug service-touchpad
# The README's commands, in the user's session.
as_user systemctl --user daemon-reload || fail "systemctl --user daemon-reload"
as_user systemctl --user enable --now gestured >"$log/enable" 2>&1 || fail "systemctl --user enable --now gestured: $(cat "$log/enable")"
# Type=notify: enable --now returned once the daemon said READY=1 — active, not activating.
[ "$(unit_property ActiveState)" = active ] || fail "gestured is $(unit_property ActiveState) after enable --now"
status_text=$(unit_property StatusText)
[ -n "$status_text" ] || fail "no STATUS= from the daemon"
user_systemctl status gestured --no-pager >"$log/status" 2>&1
grep -q "Status: \"$status_text\"" "$log/status" || fail "systemctl --user status shows no Status: line"
say "systemctl --user status: $(grep -E 'Active:|Status:' "$log/status" | sed 's/^ *//' | tr '\n' ';')"

# The default config, unmodified, against sway: {workspace: next} over sway's IPC.
within 10 journal_has 'desktop actions through sway \(' || fail "the daemon did not say it sends desktop actions to sway: $(journal | tail -n 5)"
cue pad-left-1
expect_workspace 2 "touchpad 3-finger swipe left"
cue pad-right-1
expect_workspace 1 "touchpad 3-finger swipe right"

plug service-touchscreen
within 20 journal_has 'added .*touchscreen' || fail "the daemon did not add the touchscreen"
cue screen-left
expect_workspace 2 "touchscreen 3-finger swipe left"
cue screen-right
expect_workspace 1 "touchscreen 3-finger swipe right"

# kill -9: systemd restarts it (Restart=on-failure), and gestures work again.
old_pid=$(unit_property MainPID)
kill -9 "$old_pid"
restarted() { local pid; pid=$(unit_property MainPID); [ "$pid" != 0 ] && [ "$pid" != "$old_pid" ] && [ "$(unit_property ActiveState)" = active ]; }
within 30 restarted || fail "gestured was not restarted after kill -9 (state $(unit_property ActiveState))"
say "kill -9 $old_pid: restarted as $(unit_property MainPID) (NRestarts=$(unit_property NRestarts))"
cue pad-left-2
expect_workspace 2 "after the restart, touchpad swipe left"
cue pad-right-2
expect_workspace 1 "after the restart, touchpad swipe right"

# An edited config (the next workspace now on a swipe up), applied by reload.
sed -i '/- name: workspace-next$/,/direction:/ s/direction: left/direction: up/' /etc/gestured/config.yaml
grep -q 'direction: up' /etc/gestured/config.yaml || fail "the edit did not apply to /etc/gestured/config.yaml"
as_user systemctl --user reload gestured || fail "systemctl --user reload gestured"
within 20 journal_has 'reloaded \(SIGHUP\)' || fail "no 'reloaded (SIGHUP)' in the journal"
cue pad-up
expect_workspace 2 "after systemctl --user reload, touchpad swipe up (the edited config)"

# A broken config at start: exit 3, not restarted, the error with file:line:col.
mkdir -p "$home/.config/gestured"
printf 'gestures:\n  - name: workspace-next\n    gesture: swipe\n    fingers: three\n' >"$home/.config/gestured/config.yaml"
chown -R "$user:$user" "$home/.config/gestured"
as_user systemctl --user restart gestured 2>/dev/null && fail "systemctl --user restart succeeded with a broken config"
# A restart would show as activating/auto-restart the moment it exited; failed/failed is final.
within 30 state_is failed/failed \
  || fail "gestured is $(unit_property ActiveState)/$(unit_property SubState), expected failed/failed"
[ "$(unit_property ExecMainStatus)" = 3 ] || fail "exit status $(unit_property ExecMainStatus), expected 3"
# (systemctl restart set NRestarts back to 0; Restart=on-failure would count up.)
[ "$(unit_property NRestarts)" = 0 ] || fail "gestured was restarted $(unit_property NRestarts) times after exiting 3"
error=$(journal | grep -E "$home/.config/gestured/config.yaml:[0-9]+:[0-9]+" | head -1)
[ -n "$error" ] || fail "no file:line:col error in journalctl --user -u gestured"
say "broken config: exit 3, not restarted; journal: $error"

# Fixed, with the workspace keys sway's config binds (super+Page_Down/Up) instead of
# swaymsg: the keys go through gestured's virtual keyboard, which sway reads with its
# libinput backend like any keyboard plugged in.
cat >"$home/.config/gestured/config.yaml" <<'YAML'
gestures:
  - {name: next, gesture: swipe, fingers: 3, direction: left, command: {keys: super+Page_Down}}
  - {name: previous, gesture: swipe, fingers: 3, direction: right, command: {keys: super+Page_Up}}
YAML
as_user systemctl --user start gestured || fail "systemctl --user start gestured after the fix"
sway_has_virtual_keyboard() { as_user swaymsg -t get_inputs | jq -e '.[] | select(.name == "gestured virtual input" and .type == "keyboard")' >/dev/null; }
within 20 sway_has_virtual_keyboard \
  || fail "sway lists no keyboard 'gestured virtual input': $(as_user swaymsg -t get_inputs | jq -c '[.[] | [.name, .type]]')"
say "sway reads the virtual keyboard: $(as_user swaymsg -t get_inputs | jq -c '[.[] | select(.name == "gestured virtual input") | .identifier]')"
# The swipe up above left workspace 2 focused: right (the previous) first.
cue pad-right-3
expect_workspace 1 "keys: super+Page_Up, touchpad swipe right"
cue pad-left-3
expect_workspace 2 "keys: super+Page_Down, touchpad swipe left"

# The session ends (its target stopped): gestured stops with it.
as_user systemctl --user stop sway-session.target
within 20 state_is inactive/dead || fail "gestured is $(unit_property ActiveState) after the session target stopped"
say "session ended: graphical-session.target $(user_systemctl is-active graphical-session.target), gestured $(unit_property ActiveState)"
pass
