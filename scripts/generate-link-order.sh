#!/bin/sh
# Writes Sources/gestured/hot.order, the order the link lays gestured's functions out in
# (Package.swift passes it to lld as --symbol-ordering-file; docs/PERFORMANCE.md,
# "Resident memory: the link order"):
#   scripts/generate-link-order.sh [RELEASE-BINARY] > Sources/gestured/hot.order
# (`make link-order` builds the release binary and does this.)
#
# Every function the daemon runs from start to idle comes first, then those recognition
# runs: the kernel maps a binary's text in 64 KB blocks around each page touched, so
# these together at the front of .text keep the daemon's resident memory to about
# their size instead of most of the 7 MB. Found by running the binary under callgrind:
#   1. `gestured run --config config/default.yaml`, until it answers `gestured status`;
#      then `status --json`, `trigger` of each of its bindings, `events` for 2 s, SIGTERM;
#   2. `gestured replay` of each bundled recording with config/default.yaml, then with
#      --detect (every recognizer kind): about 2 minutes.
# Names are symbol names as the linker sees them; a function renamed or new since the
# file was written is laid out among the rest (lld ignores names it does not know), and
# only costs memory. Needs valgrind (callgrind_annotate) and binutils' strip.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
binary=${1:-$root/.build/static/release/gestured}
for tool in valgrind callgrind_annotate strip; do
    command -v "$tool" >/dev/null || { echo "generate-link-order: $tool is missing (apt install valgrind binutils)" >&2; exit 2; }
done
[ -x "$binary" ] || { echo "generate-link-order: no binary at $binary (make release)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Valgrind 3.19 cannot read the toolchain's DWARF; the symbol table is all it needs.
cp "$binary" "$tmp/gestured"
strip --strip-debug "$tmp/gestured"
mkdir -m 700 "$tmp/run" "$tmp/input"
export XDG_RUNTIME_DIR="$tmp/run" XDG_CONFIG_HOME="$tmp/config"

# 1. Start-up to idle.
valgrind --tool=callgrind --demangle=no --callgrind-out-file="$tmp/0-start.cg" \
    "$tmp/gestured" run --config "$root/config/default.yaml" --input-dir "$tmp/input" >"$tmp/daemon.log" 2>&1 &
daemon=$!
tries=0
until "$tmp/gestured" status >/dev/null 2>&1; do
    tries=$((tries + 1))
    [ $tries -lt 600 ] || { echo "generate-link-order: the daemon did not answer in 60 s: $(tail -n 3 "$tmp/daemon.log")" >&2; kill $daemon; exit 1; }
    sleep 0.1
done
# What a user asks of it: its status, each binding run by `gestured trigger` (here, with
# no desktop, the path to the desktop's refusal), the event stream for a moment.
"$tmp/gestured" status >/dev/null 2>&1 || true
"$tmp/gestured" status --json >"$tmp/status.json" 2>/dev/null || true
for name in $(sed -n 's/^.*"gestures": \[//p' "$tmp/status.json" | grep -o '{"name": "[^"]*"' | cut -d'"' -f4); do
    "$tmp/gestured" trigger "$name" >/dev/null 2>&1 || true
done
timeout 2 "$tmp/gestured" events >/dev/null 2>&1 || true
sleep 1
kill -TERM $daemon
wait $daemon || true

# 2. Recognition: every bundled recording (Tests/Recordings/MANIFEST.md's, with their
# descriptions, as scripts/replay-snapshot.sh reads them).
n=0
grep '^| `' "$root/Tests/Recordings/MANIFEST.md" | while IFS='|' read -r _ file desc _; do
    file=$(echo "$file" | tr -d ' `')
    desc=$(echo "$desc" | sed 's/^ *//; s/ *$//')
    n=$((n + 1))
    for how in config detect; do
        set -- "$root/Tests/Recordings/$file"
        case "$desc" in *"header in the file"*) ;; *) set -- "$@" --description "$root/Tests/Recordings/$(echo "$desc" | tr -d '`')" ;; esac
        if [ $how = config ]; then set -- "$@" --config "$root/config/default.yaml"; else set -- "$@" --detect; fi
        valgrind --tool=callgrind --demangle=no --callgrind-out-file="$tmp/$n-$how.cg" \
            "$tmp/gestured" replay "$@" >/dev/null 2>&1 || true
    done
done

# Each profile's functions in gestured (not libc's), most instructions first; callgrind's
# "'2" marks a recursion level. Start-up's first, then each name once.
for profile in $(ls "$tmp"/*.cg | sort -V); do
    callgrind_annotate --threshold=100 --inclusive=no "$profile" 2>/dev/null \
        | sed -n "s|^ *[0-9,]* *([ 0-9.]*%) *???:\([^ ]*\) \[$tmp/gestured\]\$|\1|p" \
        | sed "s/'[0-9]*\$//"
done | grep -v '^0x[0-9a-f]*$' | awk '!seen[$0]++'
