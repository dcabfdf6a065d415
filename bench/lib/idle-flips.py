#!/usr/bin/env python3
"""The idle benchmarks' client (bench/idle-path).

    idle-flips.py SOCKET -1         wait until the library holds 10,000 songs, no update running
    idle-flips.py SOCKET N [watch]  N changes: one client waits in `idle options` while another
                                    flips `repeat`, 20 ms apart; with `watch`, then the commands
                                    a phone app sends as it watches (status, currentsong, setvol)
"""
import sys, time

from control_socket import ControlSocket

path, changes, watch = sys.argv[1], int(sys.argv[2]), sys.argv[3:] == ["watch"]
changer, waiter = ControlSocket(path), ControlSocket(path)
if changes < 0:  # wait for the library: 10,000 songs and no update running
    while b"songs: 10000" not in changer.ask(b"stats\n") or b"updating_db" in changer.ask(b"status\n"): time.sleep(0.5)
    sys.exit()
repeat = b"repeat: 1\n" in changer.ask(b"status\n")
for _ in range(changes):
    waiter.s.sendall(b"idle options\n")
    time.sleep(0.02)
    repeat = not repeat
    changer.s.sendall(b"repeat %d\n" % repeat); waiter.until(b"OK\n"); changer.until(b"OK\n")
if watch:
    for _ in range(changes // 10):
        for line in (b"status\n", b"currentsong\n", b"setvol 50\n", b"setvol 60\n"): changer.ask(line)
