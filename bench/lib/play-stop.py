#!/usr/bin/env python3
"""The play/stop soak's client (bench/soak, bench/hostile).

    play-stop.py SOCKET PID CYCLES [EVERY] [heard] [reconnect]

Plays the queue's first entry and stops it CYCLES times over the control socket: each
`play 0` waits until the track is open (the status shows its `audio:` format), or with
`heard` until it is heard (an `elapsed` past 0: about 0.1 s more a cycle), and each `stop`
until the status says `state: stop`, so every cycle opens, decodes and closes the track.
With `reconnect`, each cycle is a new connection, as `jukebox ctl play` makes. Every
EVERY cycles (default 1,000) and at the end it prints a line
    cycle N vmrss_kb V rssanon_kb A
from /proc/PID/status, and at the end how many cycles' track did not start within 5 s.
"""
import sys, time

from control_socket import ControlSocket

path, pid, cycles = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
every = int(sys.argv[4]) if len(sys.argv) > 4 else 1000
until_heard = "heard" in sys.argv[5:]
reconnect = "reconnect" in sys.argv[5:]


def memory():
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "RssAnon"):
                fields[key] = int(value.split()[0])
    return fields["VmRSS"], fields["RssAnon"]


def report(n):
    rss, anon = memory()
    print(f"cycle {n} vmrss_kb {rss} rssanon_kb {anon}", flush=True)


def started(status):
    if b"\nstate: play\n" not in status or b"\naudio: " not in status:
        return False
    return not until_heard or float(status.split(b"\nelapsed: ")[1].split(b"\n")[0]) > 0


def wait_for(client, done, seconds):
    deadline = time.monotonic() + seconds
    while not done(client.ask(b"status\n")):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.001)
    return True


c = ControlSocket(path)
slow = 0
report(0)
for n in range(1, cycles + 1):
    if reconnect:
        c.s.close()
        c = ControlSocket(path)
    c.ask(b"play 0\n")
    if not wait_for(c, started, 5):
        slow += 1
    c.ask(b"stop\n")
    wait_for(c, lambda status: b"\nstate: stop\n" in status, 5)
    if n % every == 0 or n == cycles:
        report(n)
print(f"not_started_within_5s {slow}", flush=True)
