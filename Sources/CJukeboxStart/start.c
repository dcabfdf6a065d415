// `jukebox run` holds the signals the daemon handles before anything else in the process
// runs: from `.preinit_array`, which the dynamic loader calls once the program is loaded
// and before any library's constructors (the Swift runtime's and the C libraries'). A
// SIGHUP or SIGTERM during the start then waits, pending, for the daemon's signal handling
// (Daemon.swift) instead of killing the box by its default action. Only the kernel's exec
// and the loader come before this, about 8 ms on a PC (bench/signal-window); no program
// can do anything about a signal that arrives while they run.
#include <signal.h>
#include <string.h>

#include "CJukeboxStart.h"

static int held = 0;

static void hold_signals_for_run(int argc, char **argv, char **envp) {
    (void)envp;
    if (argc < 2 || strcmp(argv[1], "run") != 0) return;
    // Daemon.stopSignals, and SIGHUP (a reload).
    static const int signals[] = {SIGHUP, SIGTERM, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2};
    sigset_t set;
    sigemptyset(&set);
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++) sigaddset(&set, signals[i]);
    held = sigprocmask(SIG_BLOCK, &set, NULL) == 0;
}

__attribute__((section(".preinit_array"), used))
static void (*const hold_signals_entry)(int, char **, char **) = hold_signals_for_run;

int jukebox_start_held_signals(void) { return held; }
