# Helpers for the end-to-end scenarios; sourced by Tests/vm/scenario/*.sh, which
# run as root inside the VM (Tests/vm/scenarios boots one VM per scenario).
# A scenario sets things up as a user would, plays touches into uinput devices
# and asserts on the files the bound commands write.
set -uo pipefail
# GESTURED_E2E_TRACE=1: trace every command with its time (to find slow steps).
if [ -n "${GESTURED_E2E_TRACE:-}" ]; then PS4='+ $EPOCHREALTIME '; set -x; fi

vm_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=${GESTURED_E2E_BIN:?GESTURED_E2E_BIN must name the directory holding gestured and gestured-uinput-play}
gestured=$bin/gestured
player=$bin/gestured-uinput-play
user=tester
home=/home/$user
config=$home/.config/gestured/config.yaml
# What the bound commands write: one file per gesture, one line per run.
out=/tmp/e2e/out
log=/tmp/e2e/log
daemon_pid=

say() { echo "e2e: $*"; }

fail() {
  echo "FAIL: $*"
  show_logs
  exit 1
}

pass() {
  echo "PASS"
  exit 0
}

show_logs() {
  local f
  # Under systemd the daemon logs to the user's journal.
  if [ -n "${uid:-}" ]; then journal >"$log/journal" 2>&1; fi
  for f in "$log"/*; do
    [ -s "$f" ] || continue
    echo "--- $(basename "$f") (last 40 lines) ---"
    tail -n 40 "$f"
    [ -z "$(tail -c 1 "$f")" ] || echo # the notify file has no final newline
  done
  if [ -d "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
    echo "--- files the commands wrote ---"
    for f in "$out"/*; do echo "$(basename "$f"): $(tr '\n' '|' <"$f")"; done
  fi
  # Keep everything for the host: Tests/vm/scenarios leaves the job dir on failure.
  [ -n "${GESTURED_VM_JOB:-}" ] && cp -r /tmp/e2e "$GESTURED_VM_JOB/" 2>/dev/null
}

# udevd (tags devices ID_INPUT_TOUCHPAD/…, sets group `input` on event nodes, and
# feeds the daemon's hotplug monitor), and an unprivileged user in group `input`,
# which is how the README tells people to run gestured.
setup() {
  mkdir -p "$out" "$log"
  chmod 1777 "$out"
  /lib/systemd/systemd-udevd --daemon >"$log/udevd" 2>&1 || fail "systemd-udevd did not start"
  # Only input devices need replaying (the VM's keyboard: group `input`, as on a
  # real machine); every device a scenario makes comes after udevd started.
  udevadm trigger --subsystem-match=input --action=add >/dev/null 2>&1
  udevadm settle --timeout=20 || say "udevadm settle timed out"
  id "$user" >/dev/null 2>&1 || useradd --create-home --groups input --shell /bin/bash "$user" \
    || fail "useradd $user"
  mkdir -p "$(dirname "$config")"
  chown -R "$user:$user" "$home"
}

# allow_uinput: the udev rule `make install` adds (the input group may write
# /dev/uinput), applied to the node that exists already; checks that it took.
allow_uinput() {
  install -D -m 644 "$vm_dir/../../udev/70-gestured-uinput.rules" /etc/udev/rules.d/70-gestured-uinput.rules
  udevadm control --reload && udevadm trigger --sysname-match=uinput --action=add && udevadm settle --timeout=10
  [ "$(stat -c %G:%a /dev/uinput)" = input:660 ] || fail "the udev rule did not give /dev/uinput to input (it is $(stat -c %G:%a /dev/uinput))"
}

# start_with_virtual_input CONFIG: set up with the uinput rule, the daemon running
# CONFIG (which uses keys:), its virtual device made, and a libevdev reader on that
# device printing to $log/reader ($reader_pid).
reader_pid=
start_with_virtual_input() {
  setup
  allow_uinput
  write_config <"$1"
  start_daemon
  wait_for_log 'created gestured virtual input' 1 10
  "$player" --read "gestured virtual input" >"$log/reader" 2>&1 &
  reader_pid=$!
  wait_for_match "$log/reader" '^reading ' 10 || fail "the reader found no gestured virtual input"
}

# node_named NAME: the /dev/input/eventN of the input device named NAME (empty if none).
node_named() {
  local d
  for d in /sys/class/input/event*; do
    [ "$(cat "$d/device/name" 2>/dev/null)" = "$1" ] && { echo "/dev/input/$(basename "$d")"; return 0; }
  done
  return 1
}

# read_device NAME FILE: a libevdev reader on the device named NAME, printing its
# events to FILE (one `CODE VALUE` line each, no timestamps); its pid in $last_reader.
last_reader=
read_device() {
  "$player" --read "$1" >"$2" 2>&1 &
  last_reader=$!
  wait_for_match "$2" '^reading ' 10 || fail "no reader on '$1': $(cat "$2")"
}

# libinput_on NAME FILE: `libinput debug-events` (what a desktop's libinput makes of
# a device) on the device named NAME, line-buffered into FILE; pid in $last_libinput.
last_libinput=
libinput_on() {
  local node
  node=$(node_named "$1") || fail "no input device named '$1'"
  stdbuf -oL libinput debug-events --device "$node" >"$2" 2>&1 &
  last_libinput=$!
  wait_for_match "$2" 'DEVICE_ADDED' 20 || fail "libinput debug-events on $node did not start: $(cat "$2")"
}

# libinput_off SECONDS: stops the `libinput debug-events` of libinput_on after SECONDS
# more (what it is still reading arrives), and waits for it to end.
libinput_off() {
  sleep "$1"
  kill -INT "$last_libinput"
  wait "$last_libinput" 2>/dev/null
}

# libinput_complaints FILE: what libinput debug-events said it threw away or took for
# something else ("kernel bug: Touch jump detected and discarded", …); nothing when it
# took the device as sent. Its "client bug: event processing lagging behind" is left
# out: that is the reader itself on a machine too busy to run it on time, and nothing
# of the device's is dropped for it.
libinput_complaints() {
  grep -Ei 'jump|bug|discard' "$1" | grep -v 'client bug: event processing lagging behind'
}

# play_cued TIMELINE KIND CUE [N]: timelines/TIMELINE.timeline played in the background
# ($player_pid), the daemon's Nth (default 1st) `using`/`added` of a KIND device (a
# touchpad, a touchscreen) waited for, CUE given, and the player waited for.
play_cued() {
  "$player" --script "$vm_dir/timelines/$1.timeline" >>"$log/player" 2>&1 &
  player_pid=$!
  wait_for_log "(using|added) /dev/input/.*$2" "${4:-1}" 30
  cue "$3"
  wait "$player_pid" || fail "gestured-uinput-play $1 failed"
}

# start_grabbing DEVICE TIMELINE [--no-daemon]: the grab scenarios' set-up: the
# uinput rule, scenario/grab.yaml as the config, TIMELINE playing in the background
# ($player_pid) with its device (named DEVICE) made, and, unless --no-daemon, the
# daemon started and DEVICE grabbed. Sets $clone, the name of DEVICE's clone.
clone=
player_pid=
start_grabbing() {
  setup
  allow_uinput
  write_config <"$vm_dir/scenario/grab.yaml"
  clone="$1 (gestured)"
  "$player" --script "$vm_dir/timelines/$2.timeline" --ready-file "$log/$2.node" >>"$log/player" 2>&1 &
  player_pid=$!
  wait_for "$log/$2.node" 30 || fail "gestured-uinput-play $2 made no device"
  udevadm settle --timeout=10
  [ "${3:-}" = --no-daemon ] && return
  start_daemon
  wait_for_grab "$1" 1
}

# wait_for_grab DEVICE COUNT: the daemon has logged COUNT times that it grabbed DEVICE.
wait_for_grab() { wait_for_log "grabbed /dev/input/event[0-9]+ \\($1\\): the desktop reads" "$2" 30; }

# write_config < YAML: the user's config, owned by the user, mode 644. Written to a
# temporary file and renamed over the old one, as editors do.
write_config() {
  local temporary
  temporary=$(dirname "$config")/.config.yaml.$$
  cat >"$temporary"
  chown "$user:$user" "$temporary"
  chmod 644 "$temporary"
  mv -f "$temporary" "$config"
}

# What the session's environment adds to the daemon's (a desktop's sockets: the
# compositor's start-up hands them to systemd --user), NAME=VALUE each.
daemon_env=()

# start_daemon: gestured as its systemd user unit starts it — the unit's ExecStart
# (binary installed where `make install` puts it; in the guest's overlay only), its
# UMask, Type=notify — as the user, with the config found through XDG_CONFIG_HOME.
start_daemon() {
  local socket=/run/e2e-notify unit=$vm_dir/../../systemd/gestured.service exec_start
  exec_start=$(sed -n 's/^ExecStart=//p' "$unit")
  [ -n "$exec_start" ] || fail "no ExecStart= in $unit"
  install -D -m 755 "$gestured" "${exec_start%% *}" || fail "cannot install gestured as ${exec_start%% *}"
  rm -f "$socket" "$log/notify"
  # systemd's side of Type=notify: a datagram socket the daemon writes READY=1 to.
  socat -u "UNIX-RECV:$socket,mode=666" "OPEN:$log/notify,creat,append" &
  within 20 test -S "$socket" || fail "notify socket listener did not start"
  say "starting as $user: $exec_start"
  runuser -u "$user" -- env -i HOME="$home" USER="$user" PATH=/usr/local/bin:/usr/bin:/bin \
    XDG_CONFIG_HOME="$home/.config" NOTIFY_SOCKET="$socket" ${daemon_env[@]+"${daemon_env[@]}"} \
    sh -c "umask $(sed -n 's/^UMask=//p' "$unit" | grep . || echo 0022); exec $exec_start" >"$log/daemon" 2>&1 &
  daemon_pid=$!
  if wait_for_match "$log/notify" '(^|[^A-Z_])READY=1($|[^0-9])' 30; then
    say "daemon ready (pid $daemon_pid)"
  else
    kill -0 "$daemon_pid" 2>/dev/null || fail "gestured run exited early"
    fail "gestured run sent no READY=1 to NOTIFY_SOCKET within 30 s"
  fi
}

daemon_alive() {
  kill -0 "$daemon_pid" 2>/dev/null || fail "the daemon is no longer running"
}

# play TIMELINE [ARGS…]: plays Tests/vm/timelines/TIMELINE.timeline to its end.
play() {
  local name=$1; shift
  "$player" --script "$vm_dir/timelines/$name.timeline" "$@" >>"$log/player" 2>&1 \
    || fail "gestured-uinput-play $name failed"
}

# replay RECORDING [DESCRIPTION]: a recording from Tests/Recordings with its timing.
replay() {
  local recordings=$vm_dir/../Recordings
  "$player" "$recordings/$1" ${2:+--description "$recordings/$2"} >>"$log/player" 2>&1 \
    || fail "gestured-uinput-play $1 failed"
}

# within SECONDS COMMAND…: until COMMAND succeeds, for at most SECONDS of wall time
# (not a count of tries: under TCG every fork is slow).
within() {
  local deadline=$((SECONDS + $1)); shift
  until "$@"; do
    [ "$SECONDS" -lt "$deadline" ] || return 1
    sleep 0.1
  done
}

# wait_for FILE SECONDS: until FILE exists and is not empty.
wait_for() { within "$2" test -s "$1"; }

# wait_for_match FILE REGEX SECONDS: until FILE matches the extended REGEX.
# (The notify file holds datagrams back to back, with no newline between them.)
wait_for_match() { within "$3" grep -Eq "$2" "$1" 2>/dev/null; }

# wait_for_log REGEX COUNT SECONDS: until the daemon's log has COUNT lines matching REGEX.
log_has() { [ "$(grep -Ec "$1" "$log/daemon")" -ge "$2" ]; }
wait_for_log() {
  within "$3" log_has "$1" "$2" || fail "the daemon did not log /$1/ ($2 times) within $3 s"
}

has_lines() { [ "$(cat "$1" 2>/dev/null | wc -l)" -ge "$2" ]; }

# expect_lines NAME LINE…: the commands bound to the gesture wrote exactly these
# lines to $out/NAME (waiting up to 10 s for them to appear).
expect_lines() {
  local name=$1; shift
  local expected actual
  within 10 has_lines "$out/$name" $#
  sleep 0.5 # let late, unexpected runs show up
  expected=$(printf '%s\n' "$@")
  actual=$(cat "$out/$name" 2>/dev/null)
  [ "$actual" = "$expected" ] || fail "$name: expected the commands to write [$(echo $expected)], they wrote [$(echo $actual)]"
  say "$name: $(echo $actual)"
}

# expect_nothing NAME: no command bound to NAME ran.
expect_nothing() {
  [ ! -e "$out/$1" ] || fail "$1: expected no command, but it ran: $(tr '\n' ' ' <"$out/$1")"
}

# plug TIMELINE: plays a timeline in the background and returns once its device
# exists (its node in $log/TIMELINE.node); the device goes when the timeline ends
# or `unplug TIMELINE` is called.
declare -A plugged=()
plug() {
  local name=$1
  rm -f "$log/$name.node"
  "$player" --script "$vm_dir/timelines/$name.timeline" --ready-file "$log/$name.node" >>"$log/player" 2>&1 &
  plugged[$name]=$!
  wait_for "$log/$name.node" 10 || fail "gestured-uinput-play $name made no device"
  udevadm settle --timeout=10
}

# cue NAME: lets a timeline waiting at `await /tmp/e2e/NAME` go on.
cue() { touch "/tmp/e2e/$1"; }

# finish TIMELINE [SECONDS]: waits for a plugged timeline to play to its end.
finish() {
  local pid=${plugged[$1]}
  within "${2:-60}" not_running "$pid" || fail "timeline $1 did not finish in ${2:-60} s"
  wait "$pid" || fail "gestured-uinput-play $1 failed: $(tail -n 3 "$log/player")"
}

not_running() { ! kill -0 "$1" 2>/dev/null; }

unplug() {
  kill "${plugged[$1]}" 2>/dev/null
  wait "${plugged[$1]}" 2>/dev/null
  udevadm settle --timeout=10
}

# --- A desktop session under systemd (scenarios marked `# vm: systemd`) -------
# Debian's systemd is PID 1 (run-in-vm --systemd): udevd, D-Bus and logind run as
# on a desktop machine; the user logs in through PAM (pam_systemd), which starts
# their `systemd --user`; sway (headless, no GPU) is the session's compositor.

uid=
# session_user: the user, in group `input` as the README asks.
session_user() {
  mkdir -p "$out" "$log"
  chmod 1777 "$out"
  id "$user" >/dev/null 2>&1 || useradd --create-home --groups input --shell /bin/bash "$user" \
    || fail "useradd $user"
  uid=$(id -u "$user")
}

# as_user CMD…: CMD as the user, with the environment a terminal in their session
# has (XDG_RUNTIME_DIR from pam_systemd, the session bus, sway's socket).
as_user() {
  runuser -u "$user" -- env -i HOME="$home" USER="$user" LOGNAME="$user" PATH=/usr/local/bin:/usr/bin:/bin \
    XDG_RUNTIME_DIR="/run/user/$uid" DBUS_SESSION_BUS_ADDRESS="unix:path=/run/user/$uid/bus" \
    ${SWAYSOCK:+SWAYSOCK=$SWAYSOCK} "$@"
}

# start_sway_session: the user logs in (su -l: a PAM session, as a display manager
# opens one) and starts sway, whose config does what the sway wiki's systemd
# integration does: hand the session's environment to systemd --user and start a
# session target bound to graphical-session.target (which refuses manual starts).
# Besides its headless output, sway reads the input devices as a desktop does, with
# its libinput backend. Its seat comes from seatd (Debian's seatd.service, for the
# video group; the VM boots no multi-user.target to start it), as a login on a
# display manager's VT would get one from logind.
start_sway_session() {
  usermod -aG video "$user" || fail "usermod -aG video $user"
  systemctl start seatd.service || fail "systemctl start seatd.service"
  within 20 seatd_ready || fail "seatd.service is $(systemctl is-active seatd) (no /run/seatd.sock)"
  local units=$home/.config/systemd/user
  mkdir -p "$units" "$home/.config/sway"
  cat >"$units/sway-session.target" <<'UNIT'
[Unit]
Description=sway compositor session
Documentation=man:systemd.special(7)
BindsTo=graphical-session.target
Wants=graphical-session-pre.target
After=graphical-session-pre.target
UNIT
  cat >"$home/.config/sway/config" <<'SWAY'
exec "systemctl --user import-environment DISPLAY WAYLAND_DISPLAY SWAYSOCK && systemctl --user start sway-session.target"
bindsym Mod4+Page_Down workspace next_on_output
bindsym Mod4+Page_Up workspace prev_on_output
SWAY
  chown -R "$user:$user" "$home"
  su -l "$user" -c 'WLR_BACKENDS=headless,libinput LIBSEAT_BACKEND=seatd WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1 exec sway' >"$log/sway" 2>&1 &
  within 60 session_target_active || fail "the session did not start sway-session.target within 60 s"
  SWAYSOCK=$(ls /run/user/"$uid"/sway-ipc.*.sock 2>/dev/null | head -1)
  [ -n "$SWAYSOCK" ] || fail "sway made no IPC socket in /run/user/$uid"
  say "session: sway running, $(user_systemctl is-active graphical-session.target) graphical-session.target"
}
seatd_ready() { [ -S /run/seatd.sock ]; }
session_target_active() { [ "$(user_systemctl is-active sway-session.target 2>/dev/null)" = active ]; }

user_systemctl() { as_user systemctl --user "$@"; }

# unit_property NAME: gestured.service's property, as systemctl show gives it.
unit_property() { user_systemctl show -p "$1" --value gestured; }

# focused_workspace: the name of sway's focused workspace.
focused_workspace() { as_user swaymsg -t get_workspaces | jq -r '.[] | select(.focused) | .name'; }
workspace_is() { [ "$(focused_workspace)" = "$1" ]; }

# expect_workspace NAME WHY: sway's focused workspace becomes NAME within 30 s.
expect_workspace() {
  within 30 workspace_is "$1" || fail "$2: sway's focused workspace is $(focused_workspace), expected $1"
  say "$2: focused workspace $1"
}

# journal: gestured's lines in the user's journal, as the README tells users to read it.
journal() { as_user journalctl --user -u gestured --no-pager -o cat "$@"; }
journal_has() { journal | grep -Eq "$1"; }
