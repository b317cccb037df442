// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * jobs_noroom_shim.c - an LD_PRELOAD library for check_jobs.py: a mapping
 * of the file RR_SHIM_NO_ROOM names fails with ENOMEM, as it does in a
 * process whose address space ulimit -v leaves too small for it; every
 * other mapping is made.  Not for ThreadSanitizer builds, whose runtime
 * takes no preloaded mmap (check_jobs.py skips the case there).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

/* The real mapping by its system call: nothing to look up, nothing allocated. */
__attribute__((visibility("default"))) void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	const char *no_room = getenv("RR_SHIM_NO_ROOM");
	struct stat a, b;

	if (fd >= 0 && no_room && *no_room && fstat(fd, &a) == 0 && stat(no_room, &b) == 0 && a.st_dev == b.st_dev &&
	    a.st_ino == b.st_ino) {
		errno = ENOMEM;
		return MAP_FAILED;
	}
	return (void *)syscall(SYS_mmap, addr, len, prot, flags, fd, off);
}
