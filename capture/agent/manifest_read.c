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
#include <stddef.h>
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

/* What a key's value is; it is parsed into its record's struct at fdef.off. */
enum fkind {
	F_TEXT,       /* printable text */
	F_TEXT_DASH,  /* text, "-" for none */
	F_TOKEN,      /* copy_token's characters */
	F_TOKENS,     /* a comma list of tokens, "-" for none */
	F_PROC,       /* a token, or empty */
	F_HEX32,
	F_DEC32,
	F_DEC64,
	F_PORT,       /* decimal, at most 65535 */
	F_DIR,        /* call or reply: bool reply */
	F_REBUILT,    /* yes or no: bool rebuilt */
	F_SHA,
	F_RESULT,     /* pass, fail or n/a */
	F_SENT,       /* ok or failed: bool send_failed */
	F_READS,      /* the rpc line's chunk lists (the whole struct mf_rpc) */
	F_WRITES,
	F_REPLY,
};

struct fdef {
	const char *key;
	enum fkind kind;
	size_t off, size;
	bool required;
};

#define FD(type, key, kind, member, req) \
	{ key, kind, offsetof(type, member), sizeof(((type *)0)->member), req }
#define FD_RPC_LIST(key, kind) { key, kind, 0, 0, false }

static const struct fdef run_defs[] = {
	FD(struct mf_run, "role", F_TEXT, role, true),
	FD(struct mf_run, "transport", F_TEXT, transport, false),
	FD(struct mf_run, "device", F_TEXT, device, false),
	FD(struct mf_run, "netdev", F_TEXT, netdev, false),
	FD(struct mf_run, "local", F_TEXT, local, false),
	FD(struct mf_run, "remote", F_TEXT, remote, false),
	FD(struct mf_run, "port", F_PORT, port, false),
	FD(struct mf_run, "target", F_TEXT, target, false),
	FD(struct mf_run, "scenario", F_TEXT, scenario, false),
	/* --inject as given: NAME[=ARG][:WHEN...] items (inject.h) */
	FD(struct mf_run, "inject", F_TEXT_DASH, inject, false),
};

/* dropped= is what makes a capture untrustworthy: it must be there. */
static const struct fdef capture_defs[] = {
	FD(struct mf_capture, "file", F_TEXT, file, true),
	FD(struct mf_capture, "received", F_DEC64, received, false),
	FD(struct mf_capture, "dropped", F_DEC64, dropped, true),
	FD(struct mf_capture, "ifdropped", F_DEC64, ifdropped, true),
};

/* xid dir len sha256 rebuilt: what verify compares. */
static const struct fdef rpc_defs[] = {
	FD(struct mf_rpc, "xid", F_HEX32, xid, true),
	FD(struct mf_rpc, "dir", F_DIR, reply, true),
	FD(struct mf_rpc, "proc", F_PROC, proc, false),
	FD(struct mf_rpc, "vers", F_DEC32, vers, false),
	FD(struct mf_rpc, "credit", F_DEC32, credit, false),
	FD(struct mf_rpc, "len", F_DEC64, len, true),
	FD(struct mf_rpc, "sha256", F_SHA, sha256, true),
	FD(struct mf_rpc, "rebuilt", F_REBUILT, rebuilt, true),
	FD_RPC_LIST("reads", F_READS),
	FD_RPC_LIST("writes", F_WRITES),
	FD_RPC_LIST("reply", F_REPLY),
	FD(struct mf_rpc, "inline", F_DEC64, inline_bytes, false),
	FD(struct mf_rpc, "rdma", F_DEC64, rdma_bytes, false),
};

static const struct fdef inject_defs[] = {
	FD(struct mf_inject, "rule", F_TOKEN, rule, true),
	FD(struct mf_inject, "xid", F_HEX32, xid, true),
	FD(struct mf_inject, "dir", F_DIR, reply, true),
	FD(struct mf_inject, "also", F_TOKENS, also, false),
	FD(struct mf_inject, "note", F_TEXT, note, false),
	FD(struct mf_inject, "sent", F_SENT, send_failed, false),
};

static const struct fdef event_defs[] = {
	FD(struct mf_event, "kind", F_TOKEN, kind, true),
	FD(struct mf_event, "xid", F_HEX32, xid, false),
	FD(struct mf_event, "text", F_TEXT, text, false),
};

static const struct fdef verdict_defs[] = {
	FD(struct mf_verdict, "rule", F_TOKEN, rule, true),
	FD(struct mf_verdict, "xid", F_HEX32, xid, false),
	FD(struct mf_verdict, "result", F_RESULT, result, true),
	FD(struct mf_verdict, "text", F_TEXT, text, false),
};

static const struct fdef reaction_defs[] = {
	FD(struct mf_reaction, "xid", F_HEX32, xid, true),
	FD(struct mf_reaction, "dir", F_DIR, reply, false),
	FD(struct mf_reaction, "inject", F_TOKEN, inject, true),
	FD(struct mf_reaction, "answer", F_TOKEN, answer, true),
	FD(struct mf_reaction, "credit", F_DEC32, credit, false),
	FD(struct mf_reaction, "reconnects", F_DEC32, reconnects, false),
	FD(struct mf_reaction, "retransmits", F_DEC32, retransmits, false),
	FD(struct mf_reaction, "elapsed_ms", F_DEC32, elapsed_ms, false),
	FD(struct mf_reaction, "error", F_TEXT, error, false),
};

static bool parse_rpc_list(struct pctx *p, enum fkind kind, char *v, struct mf_rpc *r)
{
	if (kind == F_WRITES)
		return parse_writes(p, v, r);
	if (kind == F_READS)
		return !strcmp(v, "-") || parse_segs(p, "reads", v, true, r->reads, &r->n_reads, MF_MAX_SEGS);
	r->has_reply = strcmp(v, "-") != 0;
	return !r->has_reply || !strcmp(v, "empty") ||
	       parse_segs(p, "reply", v, false, r->rsegs, &r->n_rsegs, MF_MAX_SEGS);
}

static bool parse_value(struct pctx *p, const struct fdef *d, char *v, void *rec)
{
	char *at = (char *)rec + d->off, b[40];
	bool no = false;

	switch (d->kind) {
	case F_TEXT_DASH:
		if (!strcmp(v, "-")) {
			at[0] = 0;
			return true;
		}
		/* fall through */
	case F_TEXT: return copy_text(p, d->key, v, at, d->size);
	case F_TOKEN: return copy_token(p, d->key, v, at, d->size, false);
	case F_TOKENS: return copy_token(p, d->key, v, at, d->size, true);
	case F_PROC: return !*v || copy_token(p, d->key, v, at, d->size, false);
	case F_HEX32: return parse_hex32(p, d->key, v, (uint32_t *)(void *)at);
	case F_DEC32: return parse_dec32(p, d->key, v, (uint32_t *)(void *)at);
	case F_DEC64: return parse_dec(p, d->key, v, UINT64_MAX, (uint64_t *)(void *)at);
	case F_PORT:
		return parse_dec32(p, d->key, v, (uint32_t *)(void *)at) &&
		       (*(uint32_t *)(void *)at <= 65535 ||
			p_fail(p, "port=%" PRIu32 " is not a port", *(uint32_t *)(void *)at));
	case F_DIR: return parse_choice(p, d->key, v, "call", "reply", (bool *)(void *)at);
	case F_REBUILT:
		if (!parse_choice(p, d->key, v, "yes", "no", &no))
			return false;
		*(bool *)(void *)at = !no;
		return true;
	case F_SHA: return parse_sha(p, v, at);
	case F_SENT: return parse_choice(p, d->key, v, "ok", "failed", (bool *)(void *)at);
	case F_RESULT:
		if (strcmp(v, "pass") && strcmp(v, "fail") && strcmp(v, "n/a"))
			return p_fail(p, "%s=%s: expected pass, fail or n/a", d->key, shown(v, b, sizeof(b)));
		return copy_text(p, d->key, v, at, d->size);
	case F_READS:
	case F_WRITES:
	case F_REPLY: return parse_rpc_list(p, d->kind, v, rec);
	}
	return p_fail(p, "%s: no parser", d->key);
}

/*
 * A record's fields into out by its table: a key that is not in the table,
 * or comes twice, is an error, and so is a required key that is missing.
 */
static bool parse_record(struct pctx *p, const char *rec, const struct fdef *defs, size_t n,
			 const struct field *f, int nf, void *out)
{
	uint32_t seen = 0;
	char b[40];
	size_t k;

	for (int i = 0; i < nf; i++) {
		for (k = 0; k < n && strcmp(defs[k].key, f[i].key); k++)
			;
		if (k == n)
			return p_fail(p, "%s: unknown key '%s'", rec, shown(f[i].key, b, sizeof(b)));
		if (seen & (1u << k))
			return p_fail(p, "%s: key '%s' given twice", rec, defs[k].key);
		seen |= 1u << k;
		if (!parse_value(p, &defs[k], f[i].val, out))
			return false;
	}
	for (k = 0; k < n; k++)
		if (defs[k].required && !(seen & (1u << k)))
			return p_fail(p, "%s: missing %s=", rec, defs[k].key);
	return true;
}

struct acc {
	GArray *rpcs, *injects, *events, *verdicts, *reactions;
	bool have_run;
};

/* The records a manifest may hold many of: their tables, where they gather, how many at most. */
static const struct {
	const char *name;
	const struct fdef *defs;
	size_t n_defs, acc_off;
	unsigned cap;
} lists[] = {
	{ "rpc", rpc_defs, G_N_ELEMENTS(rpc_defs), offsetof(struct acc, rpcs), MF_MAX_RPCS },
	{ "inject", inject_defs, G_N_ELEMENTS(inject_defs), offsetof(struct acc, injects), MF_MAX_OTHER },
	{ "event", event_defs, G_N_ELEMENTS(event_defs), offsetof(struct acc, events), MF_MAX_OTHER },
	{ "verdict", verdict_defs, G_N_ELEMENTS(verdict_defs), offsetof(struct acc, verdicts), MF_MAX_OTHER },
	{ "reaction", reaction_defs, G_N_ELEMENTS(reaction_defs), offsetof(struct acc, reactions),
	  MF_MAX_OTHER },
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
	for (size_t i = 0; i < G_N_ELEMENTS(lists); i++)
		if (!strcmp(rec, lists[i].name)) {
			GArray *arr = *(GArray **)(void *)((char *)a + lists[i].acc_off);
			void *slot = grow(p, arr, lists[i].cap, lists[i].name);
			return slot && parse_record(p, rec, lists[i].defs, lists[i].n_defs, f, nf, slot);
		}
	if (!strcmp(rec, "run")) {
		if (a->have_run)
			return p_fail(p, "a second run line (one manifest records one run)");
		a->have_run = true;
		return parse_record(p, rec, run_defs, G_N_ELEMENTS(run_defs), f, nf, &m->run);
	}
	if (!strcmp(rec, "capture")) {
		if (m->capture.present)
			return p_fail(p, "a second capture line (one manifest describes one capture)");
		if (!parse_record(p, rec, capture_defs, G_N_ELEMENTS(capture_defs), f, nf, &m->capture))
			return false;
		m->capture.present = true;
		return true;
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
