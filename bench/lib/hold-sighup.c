// bench/signal-window's floor: a program that holds SIGHUP in the first code of its own
// that runs (.preinit_array, as `jukebox run` does), then sleeps 2 s. Whatever still kills
// it is the kernel's exec and the loader, which no program can shorten from inside.
#include <signal.h>
#include <time.h>

static void hold(int argc, char **argv, char **envp) {
    (void)argc; (void)argv; (void)envp;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGHUP);
    sigprocmask(SIG_BLOCK, &set, 0);
}

__attribute__((section(".preinit_array"), used))
static void (*const hold_entry)(int, char **, char **) = hold;

int main(void) {
    struct timespec rest = {2, 0};
    nanosleep(&rest, 0);
    return 0;
}
