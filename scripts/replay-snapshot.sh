#!/bin/sh
# Saves `gestured replay --json` and `--explain` of every bundled recording (the ones
# Tests/Recordings/MANIFEST.md lists, as gestured-bench loads them), once with
# --detect and once with the bench's 20-gesture config, into DIR; with --compare
# BEFORE, then diffs DIR against BEFORE. A refactor that keeps behaviour shows no
# difference.
#   scripts/replay-snapshot.sh DIR [--compare BEFORE]   (run from the repository root)
set -eu
out=${1:?usage: scripts/replay-snapshot.sh DIR [--compare BEFORE]}
bin=${GESTURED:-.build/debug/gestured}
dir=Tests/Recordings
mkdir -p "$out"
cat config/default.yaml > "$out/config-20.yaml"
printf '\n' >> "$out/config-20.yaml"
cat Benchmarks/extra-gestures.yaml >> "$out/config-20.yaml"
grep '^| `' "$dir/MANIFEST.md" | while IFS='|' read -r _ file desc _; do
    file=$(echo "$file" | tr -d ' `')
    desc=$(echo "$desc" | sed 's/^ *//; s/ *$//')
    set -- "$dir/$file"
    case "$desc" in *"header in the file"*) ;; *) set -- "$@" --description "$dir/$(echo "$desc" | tr -d '`')";; esac
    for mode in detect config; do
        if [ $mode = detect ]; then m=--detect; else m="--config $out/config-20.yaml"; fi
        # shellcheck disable=SC2086
        "$bin" replay "$@" $m --json > "$out/$file.$mode.json" 2>&1 || echo "exit $?" >> "$out/$file.$mode.json"
        # shellcheck disable=SC2086
        "$bin" replay "$@" $m --explain > "$out/$file.$mode.explain" 2>&1 || echo "exit $?" >> "$out/$file.$mode.explain"
    done
done
if [ "${2:-}" = --compare ]; then
    before=${3:?--compare needs the directory saved before}
    # The config path differs between the two runs; everything else must not.
    if diff -r -x config-20.yaml "$before" "$out"; then
        echo "identical: $(ls "$out" | grep -c -v config-20.yaml) outputs"
    else
        echo "DIFFERENT"; exit 1
    fi
fi
