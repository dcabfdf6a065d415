#!/usr/bin/env python3
"""Pages following the box, for bench/web: N readers of `GET /api/events`, each in its
own thread on its own connection, reading the stream line by line as a browser does.

    web-follow.py load    HOST PORT CONTROL_SOCKET N SECONDS [EVERY]
    web-follow.py latency HOST PORT CONTROL_SOCKET N COUNT

load: follows for SECONDS while `next` is sent every EVERY s (default 5) on the control
socket; prints `events E` (status events read, all followers).
latency: sends `next` COUNT times (once every follower has seen the last change) and
prints, for each, one line per follower: the ms from the command's OK (and from its
sending) to that follower reading an `event: status` whose title differs from the one
before. Then `command_ms`
lines: the command's own round trip.
"""
import http.client, json, sys, threading, time

from control_socket import ControlSocket

mode, host, port, control, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
changed = threading.Condition()


class Follower(threading.Thread):
    def __init__(self, number):
        super().__init__(daemon=True)
        # Each from its own loopback address: the box lets at most 8 pages follow it from
        # one address, and 10 phones would have 10. HOST's own network, .10 on (bench/web
        # gives the box's side of its veth these addresses).
        self.source = host.rsplit(".", 1)[0] + ".%d" % (10 + number)
        self.seen = []  # (monotonic time, title, state), in the order read
        self.ready = threading.Event()

    def run(self):
        connection = http.client.HTTPConnection(host, port, timeout=60, source_address=(self.source, 0))
        connection.request("GET", "/api/events", headers={"Accept": "text/event-stream"})
        response = connection.getresponse()
        assert response.status == 200, response.status
        self.ready.set()
        event = None
        while True:
            line = response.readline()
            if not line:
                return
            now = time.monotonic()
            if line.startswith(b"event: "):
                event = line[7:].strip()
            elif line.startswith(b"data: ") and event == b"status":
                status = json.loads(line[6:])
                with changed:
                    self.seen.append((now, status.get("title"), status.get("state")))
                    changed.notify_all()


followers = [Follower(i) for i in range(n)]
for f in followers:
    f.start()
for f in followers:
    f.ready.wait(10)
ctl = ControlSocket(control)

if mode == "load":
    seconds = float(sys.argv[6])
    every = float(sys.argv[7]) if len(sys.argv) > 7 else 5.0
    end = time.monotonic() + seconds
    while True:
        time.sleep(max(0.0, min(every, end - time.monotonic())))
        if time.monotonic() >= end:
            break
        ctl.ask(b"next")
    with changed:
        print("events", sum(len(f.seen) for f in followers))
    sys.exit(0)


def last_titles():
    return {f.seen[-1][1] if f.seen else None for f in followers}


count = int(sys.argv[6])
commands = []
for _ in range(count):
    with changed:  # every follower agrees on what plays before the next change
        changed.wait_for(lambda: len(last_titles()) == 1 and None not in last_titles(), 5)
        before = followers[0].seen[-1][1]
        marks = [len(f.seen) for f in followers]
    sent = time.monotonic()
    ctl.ask(b"next")
    ok = time.monotonic()
    commands.append((ok - sent) * 1000)

    def arrived(f, mark):
        return next((t for t, title, _ in f.seen[mark:] if title != before), None)

    with changed:
        changed.wait_for(lambda: all(arrived(f, m) is not None for f, m in zip(followers, marks)), 5)
        for f, m in zip(followers, marks):
            t = arrived(f, m)
            print("%.3f %.3f" % ((t - ok) * 1000, (t - sent) * 1000) if t is not None else "lost")
    time.sleep(0.15)
for c in commands:
    print("command_ms %.3f" % c)
