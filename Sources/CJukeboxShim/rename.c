// renameat2 is a GNU extension that Swift's Glibc module (built without _GNU_SOURCE) does
// not declare, and glibc before 2.28 has no wrapper at all: the system call is made
// directly, so the caller learns from ENOSYS or EINVAL that it must fall back.
#define _GNU_SOURCE
#include "CJukeboxShim.h"
#include <errno.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif

int jukebox_rename_noreplace(int from_dir, const char *from, int to_dir, const char *to) {
#ifdef SYS_renameat2
    return (int)syscall(SYS_renameat2, from_dir, from, to_dir, to, RENAME_NOREPLACE);
#else
    errno = ENOSYS;
    return -1;
#endif
}
