#!/usr/bin/env python3
"""bench/hostile's clients. Each prints one line: what it saw, for the table's note.

    hostile-clients.py albumart PID PORT URI N     N TCP clients without the password each send
                                                   `albumart URI 0`, read the chunk, then `idle`;
                                                   with all N waiting, the daemon's VmRSS
    hostile-clients.py idle PID PORT N UNIXSOCK    N TCP clients without the password send `idle`;
                                                   then a client on the Unix socket asks `status`
    hostile-clients.py list UNIXSOCK COMMAND       sends COMMAND, reads to its OK (or an ACK, or the
                                                   end of the connection): entries and bytes
    hostile-clients.py stall UNIXSOCK COMMAND      the same, while a second client times `status`
                                                   every 10 ms: its slowest answer
"""
import socket, sys, threading, time


def vmrss(pid):
    with open(f"/proc/{pid}/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmRSS:"))


class Client:
    def __init__(self, address):
        family = socket.AF_UNIX if isinstance(address, str) else socket.AF_INET
        self.s = socket.socket(family)
        self.s.settimeout(30)
        self.s.connect(address)
        self.buf = b""
        self.greeting = self.line()

    def fill(self):
        chunk = self.s.recv(1 << 16)
        if not chunk:
            raise EOFError
        self.buf += chunk

    def line(self):
        while b"\n" not in self.buf:
            self.fill()
        i = self.buf.index(b"\n") + 1
        out, self.buf = self.buf[:i], self.buf[i:]
        return out

    def exactly(self, n):
        while len(self.buf) < n:
            self.fill()
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def reply(self):
        """Lines up to OK or ACK; a binary chunk is skipped by its length."""
        lines = []
        while True:
            line = self.line()
            if line == b"OK\n" or line.startswith(b"ACK"):
                return lines, line
            if line.startswith(b"binary: "):
                self.exactly(int(line.split()[1]) + 1)
            lines.append(line)


def albumart(pid, port, uri, n):
    clients, answered = [], 0
    for _ in range(n):
        c = Client(("127.0.0.1", port))
        c.s.sendall(b'albumart "%s" 0\n' % uri.encode())
        try:
            lines, end = c.reply()
            answered += end == b"OK\n"
        except (EOFError, OSError):
            pass
        try:
            c.s.sendall(b"idle\n")
        except OSError:
            pass
        clients.append(c)
    time.sleep(1)
    print(f"{answered} of {n} got their first chunk; VmRSS with all {n} waiting in idle: {vmrss(pid) / 1024:.1f} MB")


def idle(pid, port, n, unix):
    clients, refused = [], 0
    for _ in range(n):
        try:
            c = Client(("127.0.0.1", port))
            if c.greeting.startswith(b"ACK"):
                refused += 1
            c.s.sendall(b"idle\n")
            clients.append(c)
        except (EOFError, OSError):
            refused += 1
    time.sleep(0.5)
    try:
        local = Client(unix)
        if local.greeting.startswith(b"ACK"):
            seen = f"refused: {local.greeting.decode().strip()}"
        else:
            local.s.sendall(b"status\n")
            _, end = local.reply()
            seen = "answered `status`" if end == b"OK\n" else f"refused: {end.decode().strip()}"
    except (EOFError, OSError) as e:
        seen = f"no answer ({e.__class__.__name__})"
    print(f"{n - refused} of {n} TCP clients held; the Unix socket then: {seen}; VmRSS {vmrss(pid) / 1024:.1f} MB")


def listing(unix, command):
    c = Client(unix)
    t0 = time.monotonic()
    c.s.sendall(command.encode() + b"\n")
    entries = size = 0
    end = "the connection closed with no OK"
    try:
        while True:
            line = c.line()
            size += len(line)
            if line == b"OK\n":
                end = "ended with OK"
                break
            if line.startswith(b"ACK"):
                end = line.decode().strip()
                break
            entries += line.startswith(b"file: ")
    except (EOFError, OSError):
        pass
    return f"{entries:,} entries, {size / 1048576:.1f} MiB, {end}, {time.monotonic() - t0:.2f} s"


def stall(unix, command):
    worst, done = [0.0], threading.Event()

    def probe():
        c = Client(unix)
        while not done.is_set():
            t0 = time.monotonic()
            c.s.sendall(b"status\n")
            c.reply()
            worst[0] = max(worst[0], time.monotonic() - t0)
            time.sleep(0.01)

    t = threading.Thread(target=probe)
    t.start()
    time.sleep(0.2)
    seen = listing(unix, command)
    done.set()
    t.join()
    print(f"{seen}; another client's `status` waited at most {worst[0] * 1000:.0f} ms")


what, args = sys.argv[1], sys.argv[2:]
if what == "albumart":
    albumart(int(args[0]), int(args[1]), args[2], int(args[3]))
elif what == "idle":
    idle(int(args[0]), int(args[1]), int(args[2]), args[3])
elif what == "list":
    print(listing(args[0], args[1]))
elif what == "stall":
    stall(args[0], args[1])
else:
    sys.exit(__doc__)
