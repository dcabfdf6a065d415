// The bytes still queued in a pipe or a TCP socket, and a pipe's size: FIONREAD and
// TIOCOUTQ go through ioctl and F_SETPIPE_SZ through fcntl, both variadic (Swift cannot
// call them), and F_SETPIPE_SZ is declared only under _GNU_SOURCE.
#define _GNU_SOURCE
#include "CJukeboxShim.h"
#include <fcntl.h>
#include <sys/ioctl.h>

int jukebox_pipe_unread(int fd) {
    int bytes = 0;
    return ioctl(fd, FIONREAD, &bytes) == 0 ? bytes : -1;
}

int jukebox_socket_unsent(int fd) {
    int bytes = 0;
    return ioctl(fd, TIOCOUTQ, &bytes) == 0 ? bytes : -1;
}

int jukebox_pipe_set_size(int fd, int bytes) { return fcntl(fd, F_SETPIPE_SZ, bytes); }
