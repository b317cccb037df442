// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * jobs_file_shim.c - an LD_PRELOAD library for check_jobs.py: when ulb-lint
 * --jobs starts its first thread (the file is mapped by then), another
 * program seems to change the capture under it.  RR_SHIM_FILE names the
 * capture; RR_SHIM_TRUNCATE=N cuts it to N bytes (a capture restarted on
 * the same path), RR_SHIM_APPEND=PATH appends PATH's bytes to it (a capture
 * still being written).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

static void change_file(void)
{
	const char *file = getenv("RR_SHIM_FILE"), *cut = getenv("RR_SHIM_TRUNCATE"), *add = getenv("RR_SHIM_APPEND");
	char buf[65536];
	ssize_t n;
	int in, out;

	if (!file)
		return;
	if (cut && truncate(file, atoll(cut)) != 0)
		_exit(99);
	if (add) {
		in = open(add, O_RDONLY);
		out = open(file, O_WRONLY | O_APPEND);
		if (in < 0 || out < 0)
			_exit(99);
		while ((n = read(in, buf, sizeof(buf))) > 0)
			if (write(out, buf, (size_t)n) != n)
				_exit(99);
		close(in);
		close(out);
	}
}

__attribute__((visibility("default"))) int pthread_create(pthread_t *t, const pthread_attr_t *attr,
						   void *(*fn)(void *), void *arg)
{
	static create_fn real;
	static int changed;

	if (!real)
		real = (create_fn)dlsym(RTLD_NEXT, "pthread_create");
	if (!changed) {
		changed = 1;
		change_file();
	}
	return real(t, attr, fn, arg);
}
