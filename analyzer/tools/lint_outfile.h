/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lint_outfile.h - a file ulb-lint writes (the --report page) without ever
 * losing what was there: it refuses to be the capture being read, a regular
 * file is written beside its target and put in its place only once whole,
 * so a run that fails leaves an earlier page as it was, and a device or a
 * pipe (/dev/stdout) is written in place.
 */
#ifndef RR_LINT_OUTFILE_H
#define RR_LINT_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct lint_outfile;

/*
 * Ready to write path.  input is the capture that will be read (NULL or
 * "-": standard input or an interface).  NULL, with a sentence naming the
 * file in err, when path is that capture or cannot be written.
 */
struct lint_outfile *lint_outfile_open(const char *path, const char *input, char *err, size_t errlen);
FILE *lint_outfile_stream(const struct lint_outfile *o);
/* The file written out: put in place of its target.  false, with a sentence in err, when it failed. */
bool lint_outfile_commit(struct lint_outfile *o, char *err, size_t errlen);
/* Given up (NULL: nothing): the target is left as it was; frees o either way. */
void lint_outfile_free(struct lint_outfile *o);

#endif
