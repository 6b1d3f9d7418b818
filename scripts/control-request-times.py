#!/usr/bin/env python3
"""How long each kind of control request holds the daemon's loop (issue 26 item 8).

    scripts/control-request-times.py [GESTURED] [--gestures N] [--runs N]

Starts GESTURED (default .build/release/gestured) with an N-gesture config (1000) in
a runtime directory of its own, and sends every kind of request, RUNS times each
(20), from a new connection, timing connect to the daemon's close. The daemon
answers on its one loop and closes, so the round trip bounds how long the loop was
held (less ~0.1 ms of socket and Python). Prints the median and the worst per kind.
A measurement, run by hand (docs/PERFORMANCE.md), never a timed unit test.
"""
import os, socket, statistics, subprocess, sys, tempfile, time

args = sys.argv[1:]
binary = next((a for a in args if not a.startswith("--") and not a.isdigit()), ".build/release/gestured")
def option(name, default):
    return int(args[args.index(name) + 1]) if name in args else default
count, runs = option("--gestures", 1000), option("--runs", 20)

d = tempfile.mkdtemp(prefix="gestured-requests.")
os.mkdir(d + "/run", 0o700); os.mkdir(d + "/input", 0o700)
kinds = [("swipe", "direction: left"), ("swipe", "direction: right"), ("pinch", ""), ("hold", ""), ("tap", ""), ("rotate", "")]
with open(d + "/config.yaml", "w") as f:
    f.write("gestures:\n")
    for i in range(count):
        kind, extra = kinds[i % len(kinds)]
        f.write(f"  - name: gesture-{i:04d}-{kind}\n    gesture: {kind}\n    fingers: {2 + i % 4}\n")
        if extra: f.write(f"    {extra}\n")
        f.write(f"    apps: [app-{i % 7}]\n    command: echo {i}\n")
env = dict(os.environ, XDG_RUNTIME_DIR=d + "/run")
for k in ("SWAYSOCK", "I3SOCK", "HYPRLAND_INSTANCE_SIGNATURE", "WAYLAND_DISPLAY", "DISPLAY", "JOURNAL_STREAM"): env.pop(k, None)
daemon = subprocess.Popen([binary, "run", "--quiet", "--config", d + "/config.yaml", "--input-dir", d + "/input"],
                          env=env, stderr=open(d + "/log", "w"))
sock = d + "/run/gestured.sock"
for _ in range(200):
    if os.path.exists(sock): break
    time.sleep(0.05)

def request(payload):
    t0 = time.perf_counter()
    s = socket.socket(socket.AF_UNIX); s.connect(sock); s.sendall(payload)
    s.shutdown(socket.SHUT_WR)
    reply = b""
    while chunk := s.recv(1 << 20): reply += chunk
    s.close()
    return (time.perf_counter() - t0) * 1000, reply

near = f"gesture-0{count // 2:03d}-swip"
requests = [
    ("status", b"status\n"), ("status --json", b"status --json\n"),
    ("enable NAME", f"enable gesture-0001-swipe\n".encode()), ("disable NAME", f"disable gesture-0001-swipe\n".encode()),
    ("enable near typo (did-you-mean)", f"enable {near}\n".encode()),
    ("enable 64-char unknown", b"enable " + b"q" * 64 + b"\n"),
    ("enable 4,080-char unknown", b"enable " + b"x" * 4080 + b"\n"),
    ("4,096 bytes of garbage", b"\x01" * 4096 + b"\n"), ("request too long", b"a" * 8192),
    ("reload", b"reload\n"),
]
print(f"{binary}: {count} gestures, {runs} runs each, ms from connect to the daemon's close")
print(f"{'request':34} {'median':>8} {'worst':>8}  answer")
for name, payload in requests:
    times, reply = [], b""
    for _ in range(runs):
        t, reply = request(payload)
        times.append(t)
    first = reply.split(b"\n", 1)[0][:60].decode(errors="replace")
    print(f"{name:34} {statistics.median(times):8.2f} {max(times):8.2f}  {first} ({len(reply)} bytes)")
daemon.terminate(); daemon.wait()
