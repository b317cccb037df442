// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * manifest_write.c - the agent's record of what it sent and received
 * (manifest.h), written during a run.  A write error is kept and reported
 * once, by mf_close(), so the run's hot path does not test every record.
 */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "manifest.h"
#include "manifest_format.h"

struct mf_writer {
	FILE *f;
	char *path;
	char err[256];                  /* first problem, reported by mf_close() */
};

struct mf_writer *mf_open(const char *path, bool overwrite, char *err, size_t errlen)
{
	int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (overwrite ? O_TRUNC : O_EXCL);
	struct mf_writer *w;
	int fd = open(path, flags, 0644);

	if (fd < 0) {
		if (errno == EEXIST)
			snprintf(err, errlen, "%s already exists; refusing to overwrite a manifest", path);
		else
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	w = g_new0(struct mf_writer, 1);
	w->f = fdopen(fd, "w");
	if (!w->f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		g_free(w);
		return NULL;
	}
	w->path = g_strdup(path);
	fprintf(w->f, MF_MAGIC "%d\n", MF_VERSION);
	return w;
}

static void w_fail(struct mf_writer *w, const char *why)
{
	if (!w->err[0])
		snprintf(w->err, sizeof(w->err), "%s: %s", w->path, why);
}

/*
 * A text value as the reader will take it: no tabs, newlines or other
 * control characters (they would split the record), valid UTF-8 (a byte
 * that is not becomes '?', one for one, so a value that fit its field
 * still fits after a round trip).
 */
static void w_text(struct mf_writer *w, const char *key, const char *s)
{
	const char *p = s, *end;

	fprintf(w->f, "\t%s=", key);
	while (*p) {
		if (!g_utf8_validate(p, -1, &end)) {
			for (; p < end; p++)
				fputc((unsigned char)*p < 0x20 || *p == 0x7f ? ' ' : *p, w->f);
			fputc('?', w->f);
			p++;
			continue;
		}
		for (; *p; p++)
			fputc((unsigned char)*p < 0x20 || *p == 0x7f ? ' ' : *p, w->f);
	}
}

/* A comma list (rules): "-" when empty. */
static void w_list(struct mf_writer *w, const char *key, const char *s)
{
	if (*s)
		w_text(w, key, s);
	else
		fprintf(w->f, "\t%s=-", key);
}

static void w_segs(struct mf_writer *w, const struct mf_seg *s, uint32_t n, bool with_pos)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (i)
			fputc(',', w->f);
		if (with_pos)
			fprintf(w->f, "%" PRIu32 ":", s[i].position);
		fprintf(w->f, "0x%" PRIx32 ":%" PRIu32 ":0x%" PRIx64, s[i].handle, s[i].length, s[i].offset);
	}
}

void mf_write_run(struct mf_writer *w, const struct mf_run *r)
{
	fputs("run", w->f);
	w_text(w, "role", r->role);
	w_text(w, "transport", r->transport);
	w_text(w, "device", r->device);
	w_text(w, "netdev", r->netdev);
	w_text(w, "local", r->local);
	w_text(w, "remote", r->remote);
	fprintf(w->f, "\tport=%" PRIu32, r->port);
	w_text(w, "target", r->target);
	w_text(w, "scenario", r->scenario);
	w_list(w, "inject", r->inject);
	fputc('\n', w->f);
}

void mf_write_capture(struct mf_writer *w, const struct mf_capture *c)
{
	fputs("capture", w->f);
	w_text(w, "file", c->file);
	fprintf(w->f, "\treceived=%" PRIu64 "\tdropped=%" PRIu64 "\tifdropped=%" PRIu64 "\n",
		c->received, c->dropped, c->ifdropped);
}

void mf_write_rpc(struct mf_writer *w, const struct mf_rpc *m)
{
	uint32_t n_reads = m->n_reads, n_wsegs = m->n_wsegs, n_rsegs = m->n_rsegs;
	uint32_t n_wchunks = m->n_wchunks, i, at;

	/* A record that would index past its arrays is the caller's bug: write what is safe, fail at close. */
	if (n_reads > MF_MAX_SEGS || n_wsegs > MF_MAX_SEGS || n_rsegs > MF_MAX_SEGS ||
	    n_wchunks > MF_MAX_WCHUNKS) {
		w_fail(w, "an rpc record has more segments or chunks than struct mf_rpc holds");
		n_reads = MIN(n_reads, MF_MAX_SEGS);
		n_wsegs = MIN(n_wsegs, MF_MAX_SEGS);
		n_rsegs = MIN(n_rsegs, MF_MAX_SEGS);
		n_wchunks = MIN(n_wchunks, MF_MAX_WCHUNKS);
	}
	fprintf(w->f, "rpc\txid=0x%08" PRIx32 "\tdir=%s", m->xid, m->reply ? "reply" : "call");
	w_text(w, "proc", m->proc);
	fprintf(w->f, "\tvers=%" PRIu32 "\tcredit=%" PRIu32 "\tlen=%" PRIu64, m->vers, m->credit, m->len);
	w_text(w, "sha256", m->sha256);
	fprintf(w->f, "\trebuilt=%s\treads=", m->rebuilt ? "yes" : "no");
	if (n_reads)
		w_segs(w, m->reads, n_reads, true);
	else
		fputc('-', w->f);
	fputs("\twrites=", w->f);
	if (!n_wchunks)
		fputc('-', w->f);
	for (i = 0, at = 0; i < n_wchunks; i++) {
		uint32_t n = m->wchunk_nsegs[i];

		if (n > n_wsegs - at) {
			w_fail(w, "an rpc record's write chunks list more segments than wsegs holds");
			n = n_wsegs - at;
		}
		if (i)
			fputc(';', w->f);
		if (n)
			w_segs(w, m->wsegs + at, n, false);
		else
			fputs("empty", w->f);
		at += n;
	}
	if (at != n_wsegs)
		w_fail(w, "an rpc record's write chunks list fewer segments than wsegs holds");
	fputs("\treply=", w->f);
	if (!m->has_reply)
		fputc('-', w->f);
	else if (n_rsegs)
		w_segs(w, m->rsegs, n_rsegs, false);
	else
		fputs("empty", w->f);
	fprintf(w->f, "\tinline=%" PRIu64 "\trdma=%" PRIu64 "\n", m->inline_bytes, m->rdma_bytes);
}

void mf_write_inject(struct mf_writer *w, const struct mf_inject *i)
{
	fputs("inject", w->f);
	w_text(w, "rule", i->rule);
	fprintf(w->f, "\txid=0x%08" PRIx32 "\tdir=%s", i->xid, i->reply ? "reply" : "call");
	w_list(w, "also", i->also);
	w_text(w, "note", i->note);
	if (i->send_failed)
		fputs("\tsent=failed", w->f);
	fputc('\n', w->f);
}

void mf_write_event(struct mf_writer *w, const struct mf_event *e)
{
	fputs("event", w->f);
	w_text(w, "kind", e->kind);
	fprintf(w->f, "\txid=0x%08" PRIx32, e->xid);
	w_text(w, "text", e->text);
	fputc('\n', w->f);
}

void mf_write_verdict(struct mf_writer *w, const struct mf_verdict *v)
{
	fputs("verdict", w->f);
	w_text(w, "rule", v->rule);
	fprintf(w->f, "\txid=0x%08" PRIx32, v->xid);
	w_text(w, "result", v->result);
	w_text(w, "text", v->text);
	fputc('\n', w->f);
}

void mf_write_reaction(struct mf_writer *w, const struct mf_reaction *r)
{
	fputs("reaction", w->f);
	fprintf(w->f, "\txid=0x%08" PRIx32 "\tdir=%s", r->xid, r->reply ? "reply" : "call");
	w_text(w, "inject", r->inject);
	w_text(w, "answer", r->answer);
	fprintf(w->f, "\tcredit=%" PRIu32 "\treconnects=%" PRIu32 "\tretransmits=%" PRIu32
		"\telapsed_ms=%" PRIu32, r->credit, r->reconnects, r->retransmits, r->elapsed_ms);
	w_text(w, "error", *r->error ? r->error : "-");
	fputc('\n', w->f);
}

bool mf_close(struct mf_writer *w, char *err, size_t errlen)
{
	bool ok = true;

	if (!w)
		return false;
	/* stdio latches write errors: one check at the end covers every record. */
	if (fflush(w->f) != 0 || ferror(w->f))
		w_fail(w, strerror(errno ? errno : EIO));
	else if (fsync(fileno(w->f)) != 0 && errno != EINVAL)
		w_fail(w, strerror(errno));
	if (fclose(w->f) != 0)
		w_fail(w, strerror(errno));
	if (w->err[0]) {
		snprintf(err, errlen, "%s", w->err);
		ok = false;
	}
	g_free(w->path);
	g_free(w);
	return ok;
}
