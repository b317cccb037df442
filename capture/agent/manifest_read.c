// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * manifest_read.c - a manifest (manifest.h) read back by verify.
 *
 * The reader treats a manifest as untrusted input: it is a text file that
 * may have been edited, cut short or produced by another version.  Every
 * line and every list is bounded, every number is range-checked, and the
 * first problem ends the read with "FILE:LINE: reason".  Unknown record
 * types, unknown or repeated keys are errors: a verifier that skipped a
 * misspelt "rebuilt=" would check less than it claims.
 */
#include <errno.h>
#include <glib.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "manifest.h"
#include "manifest_format.h"

#define MF_LINE_MAX 65536           /* a full rpc line is about 12 KiB */
#define MF_MAX_LINES 2000000u
/* struct mf_rpc holds three segment arrays (~5 KiB): cap what a file can make us allocate. */
#define MF_MAX_RPCS 50000u
#define MF_MAX_OTHER 100000u        /* inject, event and verdict lines, each */
#define MF_MAX_FIELDS 32

struct pctx {
	const char *path;
	unsigned long line;
	char *err;
	size_t errlen;
	bool failed;
};

static bool p_fail(struct pctx *p, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static bool p_fail(struct pctx *p, const char *fmt, ...)
{
	char why[384];
	va_list ap;

	if (p->failed)
		return false;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	snprintf(p->err, p->errlen, "%s:%lu: %s", p->path, p->line, why);
	p->failed = true;
	return false;
}

/* A value echoed in an error: short and printable. */
static const char *shown(const char *v, char *buf, size_t n)
{
	size_t i;

	for (i = 0; v[i] && i + 1 < n; i++)
		buf[i] = (unsigned char)v[i] < 0x20 || (unsigned char)v[i] >= 0x7f ? '?' : v[i];
	buf[i] = 0;
	if (v[i] && n > 4)
		memcpy(buf + n - 4, "...", 4);
	return buf;
}

static bool parse_dec(struct pctx *p, const char *key, const char *v, uint64_t max, uint64_t *out)
{
	uint64_t x = 0;
	const char *s = v;
	char b[40];

	if (!*s)
		return p_fail(p, "%s is empty; it takes a decimal number", key);
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return p_fail(p, "%s=%s is not a decimal number", key, shown(v, b, sizeof(b)));
		if (x > (max - (uint64_t)(*s - '0')) / 10)
			return p_fail(p, "%s=%s is out of range (at most %" PRIu64 ")", key, shown(v, b, sizeof(b)),
				      max);
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*out = x;
	return true;
}

static bool parse_dec32(struct pctx *p, const char *key, const char *v, uint32_t *out)
{
	uint64_t x;

	if (!parse_dec(p, key, v, UINT32_MAX, &x))
		return false;
	*out = (uint32_t)x;
	return true;
}

/* "0x" and 1..digits hex digits. */
static bool parse_hex(struct pctx *p, const char *key, const char *v, unsigned digits, uint64_t *out)
{
	uint64_t x = 0;
	unsigned n = 0;
	const char *s = v;
	char b[40];

	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return p_fail(p, "%s=%s is not a 0x hex number", key, shown(v, b, sizeof(b)));
	for (s += 2; *s; s++, n++) {
		if (!g_ascii_isxdigit(*s))
			return p_fail(p, "%s=%s is not a 0x hex number", key, shown(v, b, sizeof(b)));
		if (n == digits)
			return p_fail(p, "%s=%s has more than %u hex digits", key, shown(v, b, sizeof(b)), digits);
		x = x << 4 | (uint64_t)g_ascii_xdigit_value(*s);
	}
	if (!n)
		return p_fail(p, "%s=%s is not a 0x hex number", key, shown(v, b, sizeof(b)));
	*out = x;
	return true;
}

static bool parse_hex32(struct pctx *p, const char *key, const char *v, uint32_t *out)
{
	uint64_t x;

	if (!parse_hex(p, key, v, 8, &x))
		return false;
	*out = (uint32_t)x;
	return true;
}

static bool parse_choice(struct pctx *p, const char *key, const char *v, const char *a, const char *b,
			 bool *is_b)
{
	char s[40];

	if (!strcmp(v, a) || !strcmp(v, b)) {
		*is_b = !strcmp(v, b);
		return true;
	}
	return p_fail(p, "%s=%s: expected %s or %s", key, shown(v, s, sizeof(s)), a, b);
}

static bool copy_text(struct pctx *p, const char *key, const char *v, char *dst, size_t n)
{
	size_t len = strlen(v);

	if (len >= n)
		return p_fail(p, "%s is %zu bytes long; at most %zu fit", key, len, n - 1);
	memcpy(dst, v, len + 1);
	return true;
}

/* Rule codes, kinds, procs: letters, digits, '-', '_', '/', '.'; comma lists when list. */
static bool copy_token(struct pctx *p, const char *key, const char *v, char *dst, size_t n, bool list)
{
	const char *s;
	char b[40];

	if (list && !strcmp(v, "-")) {
		dst[0] = 0;
		return true;
	}
	if (!*v)
		return p_fail(p, "%s is empty", key);
	for (s = v; *s; s++)
		if (!g_ascii_isalnum(*s) && !strchr("-_/.", *s) && !(list && *s == ',' && s > v && s[1] &&
								     s[1] != ','))
			return p_fail(p, "%s=%s: unexpected character '%c'", key, shown(v, b, sizeof(b)),
				      g_ascii_isprint(*s) ? *s : '?');
	return copy_text(p, key, v, dst, n);
}

static bool parse_sha(struct pctx *p, const char *v, char out[65])
{
	char b[40];
	int i;

	for (i = 0; i < 64; i++)
		if (!g_ascii_isxdigit(v[i]))
			break;
	if (i != 64 || v[64])
		return p_fail(p, "sha256=%s is not 64 hex digits", shown(v, b, sizeof(b)));
	for (i = 0; i < 64; i++)
		out[i] = g_ascii_tolower(v[i]);
	out[64] = 0;
	return true;
}

/* One segment "[P:]H:L:O" (position decimal, handle hex, length decimal, offset hex). */
static bool parse_seg(struct pctx *p, const char *key, char *s, bool with_pos, struct mf_seg *g)
{
	char *part[4], *c = s;
	unsigned want = with_pos ? 4 : 3, n = 0, k = 0;
	uint64_t v = 0;
	char b[48];

	memset(g, 0, sizeof(*g));
	part[n++] = c;
	for (; *c; c++)
		if (*c == ':') {
			if (n == want)
				return p_fail(p, "%s: segment %s has more than %u fields", key,
					      shown(s, b, sizeof(b)), want);
			*c = 0;
			part[n++] = c + 1;
		}
	if (n != want)
		return p_fail(p, "%s: segment '%s' is not %s", key, shown(s, b, sizeof(b)),
			      with_pos ? "POSITION:HANDLE:LENGTH:OFFSET" : "HANDLE:LENGTH:OFFSET");
	if (with_pos && !parse_dec32(p, key, part[k++], &g->position))
		return false;
	if (!parse_hex32(p, key, part[k++], &g->handle) || !parse_dec32(p, key, part[k++], &g->length) ||
	    !parse_hex(p, key, part[k], 16, &v))
		return false;
	g->offset = v;
	return true;
}

/* A comma list of segments, appended at out[*n] with room for max in all. */
static bool parse_segs(struct pctx *p, const char *key, char *s, bool with_pos, struct mf_seg *out,
		       uint32_t *n, uint32_t max)
{
	char *next;

	for (; s; s = next) {
		next = strchr(s, ',');
		if (next)
			*next++ = 0;
		if (*n == max)
			return p_fail(p, "%s lists more than %u segments", key, max);
		if (!parse_seg(p, key, s, with_pos, &out[*n]))
			return false;
		(*n)++;
	}
	return true;
}

static bool parse_writes(struct pctx *p, char *s, struct mf_rpc *r)
{
	char *next;

	if (!strcmp(s, "-"))
		return true;
	for (; s; s = next) {
		uint32_t before = r->n_wsegs;

		next = strchr(s, ';');
		if (next)
			*next++ = 0;
		if (r->n_wchunks == MF_MAX_WCHUNKS)
			return p_fail(p, "writes lists more than %u write chunks", MF_MAX_WCHUNKS);
		if (strcmp(s, "empty") && !parse_segs(p, "writes", s, false, r->wsegs, &r->n_wsegs, MF_MAX_SEGS))
			return false;
		r->wchunk_nsegs[r->n_wchunks++] = r->n_wsegs - before;
	}
	return true;
}

/* ---- records ---- */

struct field {
	const char *key;
	char *val;
};

/*
 * Which of keys each field is: *seen gets a bit per key; a key that is
 * not in keys, or comes twice, is an error.  idx[i] is the key of f[i].
 */
static bool index_fields(struct pctx *p, const char *rec, const char *const *keys, const struct field *f,
			 int nf, int *idx, uint32_t *seen)
{
	int i, k;
	char b[40];

	*seen = 0;
	for (i = 0; i < nf; i++) {
		for (k = 0; keys[k] && strcmp(keys[k], f[i].key); k++)
			;
		if (!keys[k])
			return p_fail(p, "%s: unknown key '%s'", rec, shown(f[i].key, b, sizeof(b)));
		if (*seen & (1u << k))
			return p_fail(p, "%s: key '%s' given twice", rec, keys[k]);
		*seen |= 1u << k;
		idx[i] = k;
	}
	return true;
}

static bool require(struct pctx *p, const char *rec, const char *const *keys, uint32_t seen, uint32_t need)
{
	int k;

	for (k = 0; keys[k]; k++)
		if ((need & (1u << k)) && !(seen & (1u << k)))
			return p_fail(p, "%s: missing %s=", rec, keys[k]);
	return true;
}

static bool rec_run(struct pctx *p, struct field *f, int nf, struct mf_run *r)
{
	static const char *const keys[] = { "role", "transport", "device", "netdev", "local", "remote",
					     "port", "target", "scenario", "inject", NULL };
	char *const dst[] = { r->role, r->transport, r->device, r->netdev, r->local, r->remote, NULL,
			      r->target, r->scenario, r->inject };
	const size_t len[] = { sizeof(r->role), sizeof(r->transport), sizeof(r->device), sizeof(r->netdev),
			       sizeof(r->local), sizeof(r->remote), 0, sizeof(r->target), sizeof(r->scenario),
			       sizeof(r->inject) };
	int idx[MF_MAX_FIELDS], i;
	uint32_t seen;

	if (!index_fields(p, "run", keys, f, nf, idx, &seen))
		return false;
	for (i = 0; i < nf; i++) {
		int k = idx[i];
		bool ok;

		if (k == 6)
			ok = parse_dec32(p, "port", f[i].val, &r->port) &&
			     (r->port <= 65535 || p_fail(p, "port=%" PRIu32 " is not a port", r->port));
		else if (k == 9 && !strcmp(f[i].val, "-"))
			ok = (r->inject[0] = 0, true);
		else if (k == 9)
			/* --inject as given: NAME[=ARG][:WHEN...] items (inject.h) */
			ok = copy_text(p, "inject", f[i].val, dst[k], len[k]);
		else
			ok = copy_text(p, keys[k], f[i].val, dst[k], len[k]);
		if (!ok)
			return false;
	}
	return require(p, "run", keys, seen, 1u << 0);
}

static bool rec_capture(struct pctx *p, struct field *f, int nf, struct mf_capture *c)
{
	static const char *const keys[] = { "file", "received", "dropped", "ifdropped", NULL };
	uint64_t *num[] = { NULL, &c->received, &c->dropped, &c->ifdropped };
	int idx[MF_MAX_FIELDS], i;
	uint32_t seen;

	if (!index_fields(p, "capture", keys, f, nf, idx, &seen))
		return false;
	for (i = 0; i < nf; i++) {
		int k = idx[i];

		if (k == 0 ? !copy_text(p, "file", f[i].val, c->file, sizeof(c->file))
			   : !parse_dec(p, keys[k], f[i].val, UINT64_MAX, num[k]))
			return false;
	}
	/* dropped= is what makes a capture untrustworthy: it must be there. */
	if (!require(p, "capture", keys, seen, 1u << 0 | 1u << 2 | 1u << 3))
		return false;
	c->present = true;
	return true;
}

static bool rec_rpc(struct pctx *p, struct field *f, int nf, struct mf_rpc *r)
{
	static const char *const keys[] = { "xid", "dir", "proc", "vers", "credit", "len", "sha256",
					     "rebuilt", "reads", "writes", "reply", "inline", "rdma", NULL };
	int idx[MF_MAX_FIELDS], i;
	uint32_t seen;
	bool no = false;

	if (!index_fields(p, "rpc", keys, f, nf, idx, &seen))
		return false;
	for (i = 0; i < nf; i++) {
		char *v = f[i].val;
		bool ok = true;

		switch (idx[i]) {
		case 0: ok = parse_hex32(p, "xid", v, &r->xid); break;
		case 1: ok = parse_choice(p, "dir", v, "call", "reply", &r->reply); break;
		case 2: ok = !*v || copy_token(p, "proc", v, r->proc, sizeof(r->proc), false); break;
		case 3: ok = parse_dec32(p, "vers", v, &r->vers); break;
		case 4: ok = parse_dec32(p, "credit", v, &r->credit); break;
		case 5: ok = parse_dec(p, "len", v, UINT64_MAX, &r->len); break;
		case 6: ok = parse_sha(p, v, r->sha256); break;
		case 7:
			ok = parse_choice(p, "rebuilt", v, "yes", "no", &no);
			r->rebuilt = !no;
			break;
		case 8:
			ok = !strcmp(v, "-") || parse_segs(p, "reads", v, true, r->reads, &r->n_reads, MF_MAX_SEGS);
			break;
		case 9: ok = parse_writes(p, v, r); break;
		case 10:
			r->has_reply = strcmp(v, "-") != 0;
			if (r->has_reply && strcmp(v, "empty"))
				ok = parse_segs(p, "reply", v, false, r->rsegs, &r->n_rsegs, MF_MAX_SEGS);
			break;
		case 11: ok = parse_dec(p, "inline", v, UINT64_MAX, &r->inline_bytes); break;
		case 12: ok = parse_dec(p, "rdma", v, UINT64_MAX, &r->rdma_bytes); break;
		}
		if (!ok)
			return false;
	}
	/* xid dir len sha256 rebuilt: what verify compares. */
	return require(p, "rpc", keys, seen, 1u << 0 | 1u << 1 | 1u << 5 | 1u << 6 | 1u << 7);
}

static bool rec_inject(struct pctx *p, struct field *f, int nf, struct mf_inject *j)
{
	static const char *const keys[] = { "rule", "xid", "dir", "also", "note", NULL };
	int idx[MF_MAX_FIELDS], i;
	uint32_t seen;

	if (!index_fields(p, "inject", keys, f, nf, idx, &seen))
		return false;
	for (i = 0; i < nf; i++) {
		char *v = f[i].val;
		bool ok = true;

		switch (idx[i]) {
		case 0: ok = copy_token(p, "rule", v, j->rule, sizeof(j->rule), false); break;
		case 1: ok = parse_hex32(p, "xid", v, &j->xid); break;
		case 2: ok = parse_choice(p, "dir", v, "call", "reply", &j->reply); break;
		case 3: ok = copy_token(p, "also", v, j->also, sizeof(j->also), true); break;
		case 4: ok = copy_text(p, "note", v, j->note, sizeof(j->note)); break;
		}
		if (!ok)
			return false;
	}
	return require(p, "inject", keys, seen, 1u << 0 | 1u << 1 | 1u << 2);
}

static bool rec_event(struct pctx *p, struct field *f, int nf, struct mf_event *e)
{
	static const char *const keys[] = { "kind", "xid", "text", NULL };
	int idx[MF_MAX_FIELDS], i;
	uint32_t seen;

	if (!index_fields(p, "event", keys, f, nf, idx, &seen))
		return false;
	for (i = 0; i < nf; i++) {
		char *v = f[i].val;
		bool ok = true;

		switch (idx[i]) {
		case 0: ok = copy_token(p, "kind", v, e->kind, sizeof(e->kind), false); break;
		case 1: ok = parse_hex32(p, "xid", v, &e->xid); break;
		case 2: ok = copy_text(p, "text", v, e->text, sizeof(e->text)); break;
		}
		if (!ok)
			return false;
	}
	return require(p, "event", keys, seen, 1u << 0);
}

static bool rec_verdict(struct pctx *p, struct field *f, int nf, struct mf_verdict *d)
{
	static const char *const keys[] = { "rule", "xid", "result", "text", NULL };
	int idx[MF_MAX_FIELDS], i;
	uint32_t seen;
	char b[40];

	if (!index_fields(p, "verdict", keys, f, nf, idx, &seen))
		return false;
	for (i = 0; i < nf; i++) {
		char *v = f[i].val;
		bool ok = true;

		switch (idx[i]) {
		case 0: ok = copy_token(p, "rule", v, d->rule, sizeof(d->rule), false); break;
		case 1: ok = parse_hex32(p, "xid", v, &d->xid); break;
		case 2:
			if (strcmp(v, "pass") && strcmp(v, "fail") && strcmp(v, "n/a"))
				ok = p_fail(p, "result=%s: expected pass, fail or n/a", shown(v, b, sizeof(b)));
			else
				ok = copy_text(p, "result", v, d->result, sizeof(d->result));
			break;
		case 3: ok = copy_text(p, "text", v, d->text, sizeof(d->text)); break;
		}
		if (!ok)
			return false;
	}
	return require(p, "verdict", keys, seen, 1u << 0 | 1u << 2);
}

static bool rec_reaction(struct pctx *p, struct field *f, int nf, struct mf_reaction *r)
{
	static const char *const keys[] = { "xid", "dir", "inject", "answer", "credit", "reconnects",
					    "retransmits", "elapsed_ms", "error", NULL };
	int idx[MF_MAX_FIELDS], i;
	uint32_t seen;

	if (!index_fields(p, "reaction", keys, f, nf, idx, &seen))
		return false;
	for (i = 0; i < nf; i++) {
		char *v = f[i].val;
		bool ok = true;

		switch (idx[i]) {
		case 0: ok = parse_hex32(p, "xid", v, &r->xid); break;
		case 1: ok = parse_choice(p, "dir", v, "call", "reply", &r->reply); break;
		case 2: ok = copy_token(p, "inject", v, r->inject, sizeof(r->inject), false); break;
		case 3: ok = copy_token(p, "answer", v, r->answer, sizeof(r->answer), false); break;
		case 4: ok = parse_dec32(p, "credit", v, &r->credit); break;
		case 5: ok = parse_dec32(p, "reconnects", v, &r->reconnects); break;
		case 6: ok = parse_dec32(p, "retransmits", v, &r->retransmits); break;
		case 7: ok = parse_dec32(p, "elapsed_ms", v, &r->elapsed_ms); break;
		case 8: ok = copy_text(p, "error", v, r->error, sizeof(r->error)); break;
		}
		if (!ok)
			return false;
	}
	return require(p, "reaction", keys, seen, 1u << 0 | 1u << 2 | 1u << 3);
}

struct acc {
	GArray *rpcs, *injects, *events, *verdicts, *reactions;
	bool have_run;
};

/* Appends a zeroed element and returns it, or NULL past the cap. */
static void *grow(struct pctx *p, GArray *a, unsigned cap, const char *what)
{
	if (a->len >= cap) {
		p_fail(p, "more than %u %s lines", cap, what);
		return NULL;
	}
	g_array_set_size(a, a->len + 1);
	return a->data + (size_t)(a->len - 1) * g_array_get_element_size(a);
}

static bool parse_line(struct pctx *p, char *line, struct mf_manifest *m, struct acc *a)
{
	struct field f[MF_MAX_FIELDS];
	char *rec = line, *s, *next, b[40];
	int nf = 0;
	void *slot;

	s = strchr(line, '\t');
	if (s)
		*s++ = 0;
	for (; s; s = next) {
		char *eq;

		next = strchr(s, '\t');
		if (next)
			*next++ = 0;
		if (!*s)
			continue;           /* two tabs in a row: alignment, not a field */
		eq = strchr(s, '=');
		if (!eq)
			return p_fail(p, "%s: field '%s' is not key=value", rec, shown(s, b, sizeof(b)));
		if (nf == MF_MAX_FIELDS)
			return p_fail(p, "%s: more than %d fields", rec, MF_MAX_FIELDS);
		*eq = 0;
		f[nf].key = s;
		f[nf++].val = eq + 1;
	}
	if (!strcmp(rec, "rpc")) {
		slot = grow(p, a->rpcs, MF_MAX_RPCS, "rpc");
		return slot && rec_rpc(p, f, nf, slot);
	}
	if (!strcmp(rec, "inject")) {
		slot = grow(p, a->injects, MF_MAX_OTHER, "inject");
		return slot && rec_inject(p, f, nf, slot);
	}
	if (!strcmp(rec, "event")) {
		slot = grow(p, a->events, MF_MAX_OTHER, "event");
		return slot && rec_event(p, f, nf, slot);
	}
	if (!strcmp(rec, "verdict")) {
		slot = grow(p, a->verdicts, MF_MAX_OTHER, "verdict");
		return slot && rec_verdict(p, f, nf, slot);
	}
	if (!strcmp(rec, "reaction")) {
		slot = grow(p, a->reactions, MF_MAX_OTHER, "reaction");
		return slot && rec_reaction(p, f, nf, slot);
	}
	if (!strcmp(rec, "run")) {
		if (a->have_run)
			return p_fail(p, "a second run line (one manifest records one run)");
		a->have_run = true;
		return rec_run(p, f, nf, &m->run);
	}
	if (!strcmp(rec, "capture")) {
		if (m->capture.present)
			return p_fail(p, "a second capture line (one manifest describes one capture)");
		return rec_capture(p, f, nf, &m->capture);
	}
	return p_fail(p, "unknown record '%s' (run, capture, rpc, inject, event, verdict or reaction)",
		      shown(rec, b, sizeof(b)));
}

/*
 * One line into buf (without its newline, and without a CR before it).
 * 1 a line, 0 end of file, -1 an error (p says which).
 */
static int read_line(struct pctx *p, FILE *f, char *buf, size_t size)
{
	size_t n = 0;
	int c;

	while ((c = getc(f)) != EOF && c != '\n') {
		if (c == 0) {
			p_fail(p, "a NUL byte: not a text manifest");
			return -1;
		}
		if (n + 1 >= size) {
			p_fail(p, "line longer than %zu bytes", size - 2);
			return -1;
		}
		buf[n++] = (char)c;
	}
	if (ferror(f)) {
		p_fail(p, "read error: %s", strerror(errno));
		return -1;
	}
	if (c == EOF && n == 0)
		return 0;
	if (n && buf[n - 1] == '\r')
		n--;
	buf[n] = 0;
	return 1;
}

static bool check_text(struct pctx *p, const char *line)
{
	const char *s;

	if (!g_utf8_validate(line, -1, NULL))
		return p_fail(p, "not valid UTF-8");
	for (s = line; *s; s++)
		if (((unsigned char)*s < 0x20 && *s != '\t') || *s == 0x7f)
			return p_fail(p, "control character 0x%02x in the line", (unsigned char)*s);
	return true;
}

static bool read_all(struct pctx *p, FILE *f, struct mf_manifest *m, struct acc *a)
{
	char *buf = g_malloc(MF_LINE_MAX + 2);
	bool ok = true;
	int r;

	while (ok) {
		p->line++;
		r = read_line(p, f, buf, MF_LINE_MAX + 2);
		if (r <= 0) {
			p->line -= r == 0;
			ok = r == 0;
			break;
		}
		if (p->line > MF_MAX_LINES) {
			ok = p_fail(p, "more than %u lines", MF_MAX_LINES);
			break;
		}
		if (p->line == 1) {
			size_t ml = strlen(MF_MAGIC);
			char b[40];

			if (strncmp(buf, MF_MAGIC, ml))
				ok = p_fail(p, "not an rpcrdma-agent manifest (the first line is not '" MF_MAGIC "%d')",
					    MF_VERSION);
			else if (strcmp(buf + ml, G_STRINGIFY(MF_VERSION)))
				ok = p_fail(p, "manifest version '%s' is not supported (this reader knows %d)",
					    shown(buf + ml, b, sizeof(b)), MF_VERSION);
			continue;
		}
		ok = check_text(p, buf);
		if (ok && buf[0] && buf[0] != '#')
			ok = parse_line(p, buf, m, a);
	}
	if (ok && p->line == 0) {
		p->line = 1;
		ok = p_fail(p, "empty file: not an rpcrdma-agent manifest");
	}
	g_free(buf);
	return ok && !p->failed;
}

static void *take(GArray *a, size_t *n)
{
	*n = a->len;
	return g_array_free(a, FALSE);
}

bool mf_read(const char *path, struct mf_manifest *out, char *err, size_t errlen)
{
	struct pctx p = { .path = path, .err = err, .errlen = errlen };
	struct acc a;
	FILE *f;
	bool ok;

	memset(out, 0, sizeof(*out));
	f = fopen(path, "re");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return false;
	}
	a.rpcs = g_array_new(FALSE, TRUE, sizeof(struct mf_rpc));
	a.injects = g_array_new(FALSE, TRUE, sizeof(struct mf_inject));
	a.events = g_array_new(FALSE, TRUE, sizeof(struct mf_event));
	a.verdicts = g_array_new(FALSE, TRUE, sizeof(struct mf_verdict));
	a.reactions = g_array_new(FALSE, TRUE, sizeof(struct mf_reaction));
	a.have_run = false;
	ok = read_all(&p, f, out, &a);
	fclose(f);
	out->rpcs = take(a.rpcs, &out->n_rpcs);
	out->injects = take(a.injects, &out->n_injects);
	out->events = take(a.events, &out->n_events);
	out->verdicts = take(a.verdicts, &out->n_verdicts);
	out->reactions = take(a.reactions, &out->n_reactions);
	if (!ok)
		mf_free(out);
	return ok;
}

void mf_free(struct mf_manifest *m)
{
	g_free(m->rpcs);
	g_free(m->injects);
	g_free(m->events);
	g_free(m->verdicts);
	g_free(m->reactions);
	memset(m, 0, sizeof(*m));
}
