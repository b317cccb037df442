// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lint_outfile.c - an output file that never costs the user a file (see
 * lint_outfile.h): refused when it is the capture being read or a file
 * that is not a page of ours, written beside its target and renamed over
 * it once complete, written in place when it is a device or a pipe.
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lint_outfile.h"

struct lint_outfile {
	FILE *f;
	char *target;                 /* the file the page ends up in (symbolic links followed) */
	char *tmp;                    /* the file written beside it; NULL: written in place */
	char *shown;                  /* the path as given, for sentences */
};

static bool same_file(const char *a, const char *b)
{
	struct stat x, y;

	return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

/* An existing file that may be replaced: empty, or an HTML page (an earlier report). */
static bool replaceable(const char *path)
{
	char head[16] = "";
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return false;
	n = fread(head, 1, sizeof(head) - 1, f);
	fclose(f);
	head[n] = 0;
	return n == 0 || !g_ascii_strncasecmp(head, "<!DOCTYPE html", 14) || !g_ascii_strncasecmp(head, "<html", 5);
}

G_GNUC_PRINTF(4, 5)
static struct lint_outfile *fail(struct lint_outfile *o, char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_vsnprintf(err, (gulong)errlen, fmt, ap);
	va_end(ap);
	lint_outfile_free(o);
	return NULL;
}

struct lint_outfile *lint_outfile_open(const char *path, const char *input, char *err, size_t errlen)
{
	struct lint_outfile *o = g_new0(struct lint_outfile, 1);
	struct stat st;
	bool exists = stat(path, &st) == 0;
	mode_t mode, mask;
	char *dir, *base;
	int fd;

	o->shown = g_strdup(path);
	if (input && strcmp(input, "-") && same_file(path, input))
		return fail(o, err, errlen, "--report: %s is the capture being read; the page would overwrite it",
			    path);
	if (exists && S_ISDIR(st.st_mode))
		return fail(o, err, errlen, "--report: cannot write %s: it is a directory", path);
	if (exists && !S_ISREG(st.st_mode)) {
		/* A device or a pipe (/dev/stdout, a FIFO): nothing to replace, written as it is. */
		o->f = fopen(path, "w");
		if (!o->f)
			return fail(o, err, errlen, "--report: cannot write %s: %s", path, g_strerror(errno));
		return o;
	}
	if (exists && !replaceable(path))
		return fail(o, err, errlen,
			    "--report: %s exists and is not an HTML page (a capture?); remove it or name another file",
			    path);
	o->target = exists ? realpath(path, NULL) : g_strdup(path);
	if (!o->target)
		return fail(o, err, errlen, "--report: cannot write %s: %s", path, g_strerror(errno));
	dir = g_path_get_dirname(o->target);
	base = g_path_get_basename(o->target);
	o->tmp = g_strdup_printf("%s/.%s.XXXXXX", dir, base);
	g_free(dir);
	g_free(base);
	fd = g_mkstemp_full(o->tmp, O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0) {
		g_free(o->tmp);
		o->tmp = NULL;
		return fail(o, err, errlen, "--report: cannot write %s: %s", path, g_strerror(errno));
	}
	/* The page gets the mode the file had, or what a new file gets. */
	mask = umask(0);
	umask(mask);
	mode = exists ? st.st_mode & 07777 : 0666 & ~mask;
	if (fchmod(fd, mode) != 0 || !(o->f = fdopen(fd, "w"))) {
		int e = errno;

		if (!o->f)
			close(fd);
		return fail(o, err, errlen, "--report: cannot write %s: %s", path, g_strerror(e));
	}
	return o;
}

FILE *lint_outfile_stream(const struct lint_outfile *o)
{
	return o->f;
}

bool lint_outfile_commit(struct lint_outfile *o, char *err, size_t errlen)
{
	bool ok = !ferror(o->f);
	int e = errno;

	if (fclose(o->f) != 0) {
		ok = false;
		e = errno;
	}
	o->f = NULL;
	if (!ok) {
		snprintf(err, errlen, "--report: writing %s failed: %s", o->shown, g_strerror(e));
		return false;
	}
	if (o->tmp && rename(o->tmp, o->target) != 0) {
		snprintf(err, errlen, "--report: cannot put the page in place of %s: %s", o->shown, g_strerror(errno));
		return false;
	}
	g_free(o->tmp);
	o->tmp = NULL;          /* in place: nothing to take back */
	return true;
}

void lint_outfile_free(struct lint_outfile *o)
{
	if (!o)
		return;
	if (o->f)
		fclose(o->f);
	if (o->tmp)
		g_unlink(o->tmp);   /* not committed: the target keeps what it held */
	g_free(o->tmp);
	g_free(o->target);
	g_free(o->shown);
	g_free(o);
}
