#!/bin/bash
# The daemon SIGKILLed in the middle of the Alt+Tab pan, Alt held: it cannot
# release anything itself, but its uinput descriptor closes with it and the kernel
# destroys "gestured virtual input", sending key-up for every key still down. What a
# reader of the device (a compositor) sees: Alt up and the device gone, or just the
# device gone (see below).
. "$(dirname "$0")/../guest/e2e-lib.sh"
start_with_virtual_input "$vm_dir/scenario/keys.yaml"
"$player" --script "$vm_dir/timelines/keys-kill-mid-pan.timeline" >>"$log/player" 2>&1 &
player_pid=$!
wait_for_log '(using|added) /dev/input/.*touchscreen' 1 30
cue go
wait_for /tmp/e2e/mid-pan 20 || fail "the timeline never reached mid-pan"
within 5 grep -q 'KEY_LEFTALT 1' "$log/reader" || fail "Alt was not down mid-pan: [$(tr '\n' ' ' <"$log/reader")]"
gestured_pid=$(pgrep -u "$user" -x gestured) || fail "no gestured process of $user"
kill -KILL "$gestured_pid"  # the daemon itself ($daemon_pid is runuser, its parent)
within 10 not_running "$reader_pid" || fail "the reader still reads: the device outlived the daemon"
cue killed
wait "$player_pid" || fail "gestured-uinput-play keys-kill-mid-pan failed"
seen=$(tr '\n' ' ' <"$log/reader")
say "reader saw: $seen"
# The kernel queues key-up for what the device held as it unregisters it, but evdev
# refuses reads (ENODEV) once the device is marked gone, so a reader sees the
# release only if it wins that race; either way it sees the device go, and libinput
# then releases whatever it still had down from that device.
case "$seen" in
  *"KEY_LEFTALT 0 SYN_REPORT gone ") say "after SIGKILL: Alt up (the kernel's release), then the device gone" ;;
  *"gone ") say "after SIGKILL: the device gone (ENODEV before the kernel's release was read)" ;;
  *) fail "after SIGKILL the reader should see the device go: [$seen]" ;;
esac
grep -q 'gestured virtual input' /proc/bus/input/devices && fail "the virtual device outlived the daemon"
pass
