# Sourced by Tests/roots/*-session: what every desktop session script shares.
# A session script runs INSIDE a root (Tests/roots/run), as the non-root user that owns
# DIR (its first argument: a fresh, empty directory, mode 0700, reachable from the host
# at the same path through `run --share DIR`). It makes DIR the desktop's
# XDG_RUNTIME_DIR and DIR/home its HOME, starts the desktop with its log in
# DIR/DESKTOP.log, waits (polling, bounded: GESTURED_SESSION_TIMEOUT seconds, 60 by
# default) until the desktop answers on its own interface, then writes DIR/session.env
# (shell assignments: DESKTOP, VERSION, WAYLAND_DISPLAY as an absolute path, the IPC
# socket or bus address, READY_SECONDS) atomically, so a test on the host polls for
# that file. The script then waits for the desktop and exits with its status; a
# desktop that does not come up is an error with the log's tail on stderr (exit 1).
set -eu

session_setup() {   # DIR
    dir=$(cd "${1:?usage: $0 DIR}" && pwd)
    [ -O "$dir" ] || { echo "$0: $dir must belong to the user this runs as ($(id -u))" >&2; exit 2; }
    [ "$(id -u)" -ne 0 ] || { echo "$0: run it as a non-root user (setpriv --reuid=1000 --regid=1000 --clear-groups)" >&2; exit 2; }
    chmod 700 "$dir"
    export XDG_RUNTIME_DIR="$dir" HOME="$dir/home"
    export XDG_CONFIG_HOME="$HOME/.config" XDG_DATA_HOME="$HOME/.local/share" XDG_CACHE_HOME="$HOME/.cache"
    export XDG_SESSION_TYPE=wayland NO_AT_BRIDGE=1 LANG=C.UTF-8
    if [ -z "${GESTURED_SESSION_T0:-}" ]; then   # the first stage (later ones run on buses it started)
        unset DISPLAY WAYLAND_DISPLAY DBUS_SESSION_BUS_ADDRESS DBUS_SYSTEM_BUS_ADDRESS SWAYSOCK HYPRLAND_INSTANCE_SIGNATURE NIRI_SOCKET
    fi
    mkdir -p "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" "$XDG_CACHE_HOME"
    workspaces=${GESTURED_WORKSPACES:-4}
    session_t0=${GESTURED_SESSION_T0:-$(session_now)}   # from the first stage on (buses, fake logind)
    export GESTURED_SESSION_T0="$session_t0"
}

session_now() { cut -d' ' -f1 /proc/uptime; }

# session_wait WHAT PID CMD...: run CMD until it succeeds; fail when PID (the desktop)
# dies or the time runs out. Polls every 50 ms; the bound is the only time limit.
session_wait() {
    what=$1 pid=$2; shift 2
    deadline=$(( $(date +%s) + ${GESTURED_SESSION_TIMEOUT:-60} ))
    until "$@" >/dev/null 2>&1; do
        session_alive "$pid" || session_fail "the desktop exited before $what"
        if [ "$(date +%s)" -ge "$deadline" ]; then session_fail "no $what after ${GESTURED_SESSION_TIMEOUT:-60}s"; fi
        sleep 0.05
    done
}

# PID runs (a child that exited but was not waited for yet is a zombie: not running).
session_alive() {
    [ -r "/proc/$1/stat" ] || return 1
    state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
    [ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ]
}

session_fail() {
    echo "$0: $1; last lines of $session_log:" >&2
    tail -n 25 "$session_log" >&2 2>/dev/null || true
    exit 1
}

# session_ready NAME=VALUE...: writes DIR/session.env (atomically: a test polls for it).
session_ready() {
    {
        for kv in "$@"; do printf "%s='%s'\n" "${kv%%=*}" "${kv#*=}"; done
        printf "READY_SECONDS='%s'\n" "$(awk -v a="$session_t0" -v b="$(session_now)" 'BEGIN { printf "%.2f", b - a }')"
    } > "$dir/session.env.tmp"
    mv "$dir/session.env.tmp" "$dir/session.env"
    echo "$0: ready: $(tr '\n' ' ' < "$dir/session.env")" >&2
}

# The one wayland-N socket the desktop made in DIR (DIR is fresh: there is one).
session_wayland_socket() {
    for s in "$dir"/wayland-*; do
        case $s in *.lock) continue ;; esac
        [ -S "$s" ] && { printf '%s' "$s"; return 0; }
    done
    return 1
}
has_wayland_socket() { session_wayland_socket >/dev/null; }

# A dbus-daemon config listening at DIR/NAME_bus that anyone may use: the tests on the
# host connect as root, the desktop runs as the user.
session_bus_config() {   # TYPE (session|system) EXTRA-XML
    cat <<XML
<busconfig>
  <type>$1</type>
  <listen>unix:path=$dir/$1_bus</listen>
$2
  <policy context="default">
    <allow user="*"/>
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
XML
}
