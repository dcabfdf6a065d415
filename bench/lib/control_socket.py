"""The box's control socket (MPD's protocol) for the bench scripts in this folder, which
import it by name (Python puts a script's own folder first on its path)."""
import socket


class ControlSocket:
    """One connection: a command line out, its reply back to `OK`; an `ACK` is raised."""

    def __init__(self, path):
        self.s = socket.socket(socket.AF_UNIX)
        self.s.connect(path)
        self.buf = b""
        self.until(b"\n")  # the greeting

    def until(self, end):
        """What the box sends next, up to and with `end`."""
        while end not in self.buf:
            chunk = self.s.recv(1 << 16)
            if not chunk:
                raise EOFError("the box closed the connection")
            self.buf += chunk
        i = self.buf.index(end) + len(end)
        out, self.buf = self.buf[:i], self.buf[i:]
        return out

    def ask(self, line):
        """Sends `line` (its newline added if missing); the reply, `OK` line included."""
        self.s.sendall(line if line.endswith(b"\n") else line + b"\n")
        reply = b""
        while True:
            got = self.until(b"\n")
            if got.startswith(b"ACK "):
                raise RuntimeError(got.decode(errors="replace").strip())
            reply += got
            if got == b"OK\n":
                return reply

    def close(self):
        self.s.close()
