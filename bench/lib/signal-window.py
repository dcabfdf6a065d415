#!/usr/bin/env python3
"""How soon after exec a SIGHUP stops killing a program (bench/signal-window).

    signal-window.py TRIES DELAYS_MS -- COMMAND...

For each delay in the comma-separated DELAYS_MS, starts COMMAND TRIES times, sends it
SIGHUP that many milliseconds after exec has succeeded (Popen returns once the child's
exec is done), gives it 0.3 s, and counts the starts the signal killed. A start it did
not kill is then stopped with SIGTERM (and SIGKILL after 5 s). Prints one line a delay:
    delay_ms D killed K of TRIES
"""
import os, signal, subprocess, sys, time

tries = int(sys.argv[1])
delays = [float(d) for d in sys.argv[2].split(",")]
command = sys.argv[sys.argv.index("--") + 1:]

for delay in delays:
    killed = 0
    for _ in range(tries):
        p = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        if delay > 0:
            time.sleep(delay / 1000)
        os.kill(p.pid, signal.SIGHUP)
        try:
            code = p.wait(0.3)
        except subprocess.TimeoutExpired:
            p.terminate()
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
            code = None
        if code == -signal.SIGHUP:
            killed += 1
    print(f"delay_ms {delay:g} killed {killed} of {tries}", flush=True)
