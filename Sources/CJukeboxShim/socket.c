// accept4 and pipe2 are GNU extensions: glibc declares them only under _GNU_SOURCE, which
// Swift's Glibc module is built without. Here they are declared, so a descriptor is
// non-blocking and closed on exec from the call that makes it (no fcntl after).
#define _GNU_SOURCE
#include "CJukeboxShim.h"
#include <unistd.h>

int jukebox_accept4(int fd, struct sockaddr *address, socklen_t *length, int flags) {
    return accept4(fd, address, length, flags);
}

int jukebox_pipe2(int fds[2], int flags) { return pipe2(fds, flags); }
