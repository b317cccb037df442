// SPDX-License-Identifier: GPL-2.0-or-later
/* Parsing of the per-message lines: rpc, cb, done, error, terminate, inject. */
#include "pg_scenario_priv.h"

#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	uint32_t v;
} status_names[] = {
	{ "OK", 0 }, { "PERM", 1 }, { "NOENT", 2 }, { "IO", 5 }, { "NXIO", 6 }, { "ACCES", 13 },
	{ "ACCESS", 13 }, { "EXIST", 17 }, { "NOTDIR", 20 }, { "ISDIR", 21 }, { "INVAL", 22 },
	{ "FBIG", 27 }, { "NOSPC", 28 }, { "ROFS", 30 }, { "NAMETOOLONG", 63 }, { "STALE", 70 },
	{ "BADHANDLE", 10001 }, { "DELAY", 10008 }, { "JUKEBOX", 10008 },
};

static bool parse_status(pctx *c, const char *s, uint32_t *v)
{
	const char *n = s;
	if (g_str_has_prefix(n, "NFS3ERR_") || g_str_has_prefix(n, "NFS4ERR_"))
		n += 8;
	else if (g_str_has_prefix(n, "NFS3_") || g_str_has_prefix(n, "NFS4_"))
		n += 5;
	for (size_t i = 0; i < G_N_ELEMENTS(status_names); i++)
		if (g_ascii_strcasecmp(status_names[i].name, n) == 0) {
			*v = status_names[i].v;
			return true;
		}
	return pg_num32(c, "status", s, 0, 0x7fffffff, v);
}

static unsigned parse_target(pctx *c, const char *key, const char *s)
{
	if (!strcmp(s, "call"))
		return PG_TGT_CALL;
	if (!strcmp(s, "reply"))
		return PG_TGT_REPLY;
	if (!strcmp(s, "both"))
		return PG_TGT_CALL | PG_TGT_REPLY;
	pg_fail(c, "%s: expected call, reply or both, got '%s'", key, s);
	return 0;
}

/* "read:2,3" / "write:1+reply:2" / "pzrc:3" */
static bool parse_shape(pctx *c, const char *key, const char *s, bool reply, pg_shape *sh)
{
	gchar **parts;
	bool ok = true;
	memset(sh, 0, sizeof(*sh));
	if (!strcmp(s, "inline"))
		return true;
	if (reply && !strcmp(s, "none")) {
		sh->none = true;
		return true;
	}
	parts = g_strsplit(s, "+", 0);
	for (int i = 0; ok && parts[i]; i++) {
		const char *p = parts[i];
		const char *chunk_kw = reply ? "write:" : "read:";
		const char *long_kw = reply ? "reply:" : "pzrc:";
		if (reply && !sh->error && (!strcmp(p, "error-vers") || !strcmp(p, "error-chunk"))) {
			/* RDMA_ERROR; chunks given with it are still offered by the call */
			sh->error = !strcmp(p, "error-vers") ? PG_ERR_VERS : PG_ERR_CHUNK;
		} else if (g_str_has_prefix(p, chunk_kw) && !sh->chunked) {
			gchar **nums = g_strsplit(p + strlen(chunk_kw), ",", 0);
			sh->chunked = true;
			for (int k = 0; ok && nums[k]; k++) {
				uint32_t v;
				if (k >= (int)PG_MAX_CHUNKS) {
					ok = pg_fail(c, "%s: more than %u chunks", key, PG_MAX_CHUNKS);
					break;
				}
				ok = pg_num32(c, key, nums[k], 0, PG_MAX_SEGS, &v);
				sh->nseg[k] = (uint8_t)v;
				sh->n = (uint8_t)(k + 1);
			}
			g_strfreev(nums);
		} else if (g_str_has_prefix(p, long_kw) && !sh->long_segs) {
			uint32_t v;
			ok = pg_num32(c, key, p + strlen(long_kw), 1, PG_MAX_SEGS, &v);
			sh->long_segs = (uint8_t)v;
		} else {
			ok = pg_fail(c, "%s: cannot parse '%s' (expected inline, %s, %s%s)", key, p,
				  reply ? "write:N[,N...]" : "read:N[,N...]",
				  reply ? "reply:N" : "pzrc:N",
				  reply ? ", error-vers, error-chunk or none" : "");
		}
	}
	g_strfreev(parts);
	return ok;
}

static void default_sizes(int nfsver, bool cb, pg_nfsop *op)
{
	op->eof = true;
	if (cb)
		return;
	if (nfsver == PG_V3) {
		switch (op->op) {
		case NFS3_READ: case NFS3_WRITE: op->len = 4096; break;
		case NFS3_READLINK: case NFS3_SYMLINK: op->len = 24; break;
		case NFS3_READDIR: op->len = 16; break;
		default: break;
		}
	} else {
		switch (op->op) {
		case OP4_READ: case OP4_WRITE: op->len = 4096; break;
		case OP4_READLINK: case OP4_CREATE: op->len = 24; break;
		case OP4_READDIR: op->len = 16; break;
		case OP4_LOOKUP: op->len = 8; break;
		default: break;
		}
	}
}

/* Size-like keys shared by v3 procedures and v4/callback operation args. */
static bool op_key(pctx *c, pg_nfsop *op, bool *count_set, const char *k, const char *v)
{
	if (!strcmp(k, "len")) {
		uint32_t max = PG_MAX_PAYLOAD;
		if (op->op == NFS3_READDIR || op->op == OP4_READDIR)
			max = PG_MAX_ENTRIES;
		return pg_num32(c, k, v, 0, max, &op->len);
	}
	if (!strcmp(k, "count")) {
		*count_set = true;
		return pg_num32(c, k, v, 0, PG_MAX_PAYLOAD, &op->count);
	}
	if (!strcmp(k, "offset"))
		return pg_num(c, k, v, 0, UINT64_MAX / 2, &op->offset);
	if (!strcmp(k, "status"))
		return parse_status(c, v, &op->status);
	if (!strcmp(k, "eof")) {
		bool b;
		if (!pg_onoff(c, k, v, &b))
			return false;
		op->eof = b;
		return true;
	}
	return pg_fail(c, "unknown key '%s'", k);
}

static bool finish_op(pctx *c, int nfsver, pg_nfsop *op, bool count_set)
{
	bool is_read = (nfsver == PG_V3) ? op->op == NFS3_READ : op->op == OP4_READ;
	bool is_path = (nfsver == PG_V3) ? (op->op == NFS3_READLINK || op->op == NFS3_SYMLINK)
					 : (op->op == OP4_READLINK || op->op == OP4_CREATE);
	if (!count_set)
		op->count = op->len;
	if (is_read && op->count < op->len)
		return pg_fail(c, "READ count %u is smaller than len %u", op->count, op->len);
	if (is_path && (op->len < 1 || op->len > PG_MAX_PATH))
		return pg_fail(c, "path length %u out of range 1..%u", op->len, PG_MAX_PATH);
	if ((op->op == OP4_LOOKUP && nfsver != PG_V3) && (op->len < 1 || op->len > 255))
		return pg_fail(c, "LOOKUP name length %u out of range 1..255", op->len);
	return true;
}

/* One COMPOUND element: NAME or NAME(k=v,k=v). */
static bool parse_v4op(pctx *c, int nfsver, bool cb, const char *tok, pg_nfsop *op)
{
	char *name = g_strdup(tok), *args = strchr(name, '(');
	bool ok = true, count_set = false;
	memset(op, 0, sizeof(*op));
	if (args) {
		size_t n = strlen(args);
		if (n < 2 || args[n - 1] != ')') {
			g_free(name);
			return pg_fail(c, "operation '%s': missing ')'", tok);
		}
		*args++ = '\0';
		args[n - 2] = '\0';
	}
	if (!pg_nfs_oplookup(nfsver, cb, name, &op->op) || (!cb && nfsver == PG_V3)) {
		ok = pg_fail(c, "unknown %s operation '%s'", cb ? "callback" : "NFSv4", name);
		g_free(name);
		return ok;
	}
	default_sizes(nfsver, cb, op);
	if (!cb && op->op == OP4_SEQUENCE && nfsver == PG_V40)
		ok = pg_fail(c, "SEQUENCE needs NFSv4.1 or later");
	if (cb && op->op == CB_SEQUENCE && nfsver == PG_V40)
		ok = pg_fail(c, "CB_SEQUENCE needs NFSv4.1 or later");
	if (ok && args && *args) {
		gchar **kv = g_strsplit(args, ",", 0);
		for (int i = 0; ok && kv[i]; i++) {
			char *eq = strchr(kv[i], '=');
			if (!eq) {
				ok = pg_fail(c, "operation %s: expected key=value, got '%s'", name, kv[i]);
				break;
			}
			*eq = '\0';
			ok = op_key(c, op, &count_set, kv[i], eq + 1);
		}
		g_strfreev(kv);
	}
	if (ok && !cb)
		ok = finish_op(c, nfsver, op, count_set);
	g_free(name);
	return ok;
}

/* Split "A,B(x=1,y=2),C" on top-level commas. */
static GPtrArray *split_ops(const char *s)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	int depth = 0;
	const char *start = s;
	for (const char *p = s;; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')')
			depth--;
		if (*p == '\0' || (*p == ',' && depth == 0)) {
			g_ptr_array_add(out, g_strndup(start, (gsize)(p - start)));
			if (!*p)
				break;
			start = p + 1;
		}
	}
	return out;
}

static bool parse_ops_list(pctx *c, pg_item *it, bool cb, const char *v)
{
	GPtrArray *toks = split_ops(v);
	bool ok = true;
	if (toks->len == 0 || toks->len > PG_MAX_OPS)
		ok = pg_fail(c, "ops: need 1..%u operations", PG_MAX_OPS);
	for (guint i = 0; ok && i < toks->len; i++) {
		pg_nfsop op;
		ok = parse_v4op(c, it->nfsver, cb, toks->pdata[i], &op);
		if (ok)
			g_array_append_val(it->ops, op);
	}
	g_ptr_array_free(toks, TRUE);
	return ok;
}


static bool parse_version(pctx *c, const char *v, int *nfsver)
{
	if (!strcmp(v, "3") || !strcmp(v, "v3"))
		*nfsver = PG_V3;
	else if (!strcmp(v, "4") || !strcmp(v, "4.0") || !strcmp(v, "v4.0"))
		*nfsver = PG_V40;
	else if (!strcmp(v, "4.1") || !strcmp(v, "v4.1"))
		*nfsver = PG_V41;
	else if (!strcmp(v, "4.2") || !strcmp(v, "v4.2"))
		*nfsver = PG_V42;
	else
		return pg_fail(c, "unknown NFS version '%s' (expected 3, 4.0, 4.1 or 4.2)", v);
	return true;
}

static bool is_call_ddp(const pg_item *it, const pg_nfsop *op)
{
	if (it->kind != PG_ITEM_RPC || it->acl)
		return false;
	if (it->nfsver == PG_V3)
		return op->op == NFS3_WRITE || op->op == NFS3_SYMLINK;
	return op->op == OP4_WRITE || op->op == OP4_CREATE;
}

static bool is_reply_ddp(const pg_item *it, const pg_nfsop *op)
{
	if (it->kind != PG_ITEM_RPC || it->acl)
		return false;
	if (it->nfsver == PG_V3)
		return op->op == NFS3_READ || op->op == NFS3_READLINK;
	return op->op == OP4_READ || op->op == OP4_READLINK;
}

static bool item_key(pctx *c, pg_item *it, bool cb, const char *k, const char *v, pg_nfsop *v3op,
		     bool *count_set, bool *ops_seen)
{
	uint32_t u;
	if (!strcmp(k, "ops")) {
		if (it->nfsver == PG_V3 || it->proc != 1)
			return pg_fail(c, "ops= is only valid for COMPOUND");
		*ops_seen = true;
		return parse_ops_list(c, it, cb, v);
	}
	if (!strcmp(k, "len") || !strcmp(k, "count") || !strcmp(k, "offset") ||
	    !strcmp(k, "status") || !strcmp(k, "eof")) {
		if (!v3op)
			return pg_fail(c, "%s= belongs inside an operation here, e.g. READ(%s=%s)",
				       k, k, v);
		return op_key(c, v3op, count_set, k, v);
	}
	if (!strcmp(k, "call")) {
		if (cb)
			return pg_fail(c, "backchannel messages are always Short (RFC 8267 6.5)");
		return parse_shape(c, k, v, false, &it->call);
	}
	if (!strcmp(k, "reply")) {
		if (!parse_shape(c, k, v, true, &it->reply))
			return false;
		if (cb && (it->reply.chunked || it->reply.long_segs))
			return pg_fail(c, "backchannel messages are always Short (RFC 8267 6.5); "
					  "a cb reply may only be error-vers, error-chunk or none");
		return true;
	}
	if (!strcmp(k, "pipeline"))
		return pg_onoff(c, k, v, &it->pipeline);
	if (!strcmp(k, "reply-size"))
		return pg_num32(c, k, v, 1, PG_MAX_PAYLOAD, &it->reply_size);
	if (!strcmp(k, "prog")) {
		gchar **pv = g_strsplit(v, ":", 0);
		bool ok = g_strv_length(pv) >= 1 && g_strv_length(pv) <= 2;
		if (!ok)
			ok = pg_fail(c, "prog: expected PROGRAM[:VERSION]");
		else
			ok = pg_num32(c, "prog", pv[0], 0, UINT32_MAX, &it->prog) &&
			     (!pv[1] || pg_num32(c, "prog version", pv[1], 0, UINT32_MAX,
						 &it->progvers));
		if (ok && !pv[1])
			it->progvers = it->nfsver == PG_V3 ? 3 : 4;
		it->has_prog = true;
		g_strfreev(pv);
		return ok;
	}
	if (!strcmp(k, "gss")) {
		static const char *const names[] = { "init", "continue", "destroy", "none", "integ",
						     "priv" };
		if (cb)
			return pg_fail(c, "gss= is for forward calls");
		for (unsigned i = 0; i < G_N_ELEMENTS(names); i++)
			if (!strcmp(v, names[i])) {
				it->gss = (int)i + 1;
				return true;
			}
		return pg_fail(c, "gss: expected init, continue, destroy, none, integ or priv");
	}
	if (!strcmp(k, "cover")) {
		if (!strcmp(v, "per-seg"))
			it->cover = PG_COVER_PER_SEG;
		else if (!strcmp(v, "coalesce"))
			it->cover = PG_COVER_COALESCE;
		else if (g_str_has_prefix(v, "split:")) {
			it->cover = PG_COVER_SPLIT;
			return pg_num32(c, k, v + 6, 2, PG_MAX_SPLIT, &it->split);
		} else
			return pg_fail(c, "cover: expected per-seg, coalesce or split:K");
		return true;
	}
	if (!strcmp(k, "pad"))
		return pg_onoff(c, k, v, &it->pad);
	if (!strcmp(k, "invalidate"))
		return pg_onoff(c, k, v, &it->invalidate);
	if (!strcmp(k, "se"))
		return pg_onoff(c, k, v, &it->se);
	if (!strcmp(k, "dup"))
		return (it->dup = parse_target(c, k, v)) != 0;
	if (!strcmp(k, "reorder"))
		return (it->reorder = parse_target(c, k, v)) != 0;
	if (!strcmp(k, "msgp")) {
		gchar **at = g_strsplit(v, ":", 0);
		bool ok;
		if (g_strv_length(at) != 2)
			ok = pg_fail(c, "msgp: expected ALIGN:THRESH");
		else
			ok = pg_num32(c, "msgp align", at[0], 0, 65536, &it->align) &&
			     pg_num32(c, "msgp thresh", at[1], 0, 1u << 24, &it->thresh);
		g_strfreev(at);
		it->msgp = true;
		return ok;
	}
	if (!strcmp(k, "xid")) {
		it->has_xid = true;
		return pg_num32(c, k, v, 0, UINT32_MAX, &it->xid);
	}
	if (!strcmp(k, "credits"))
		return pg_num32(c, k, v, 1, 65535, &it->credits);
	if (!strcmp(k, "repeat")) {
		if (!pg_num32(c, k, v, 1, PG_MAX_REPEAT, &u))
			return false;
		it->repeat = u;
		return true;
	}
	return pg_fail(c, "unknown key '%s'", k);
}

static bool check_item(pctx *c, pg_item *it, bool cb)
{
	bool call_ddp = false, reply_ddp = false;
	for (guint i = 0; i < it->ops->len; i++) {
		const pg_nfsop *op = &g_array_index(it->ops, pg_nfsop, i);
		call_ddp |= is_call_ddp(it, op);
		reply_ddp |= is_reply_ddp(it, op);
	}
	if (it->call.chunked && !call_ddp)
		return pg_fail(c, "call=read:... needs a DDP-eligible argument "
				  "(WRITE data, SYMLINK path, CREATE link text)");
	if (it->reply.chunked && !reply_ddp)
		return pg_fail(c, "reply=write:... needs a READ or READLINK in the request");
	if (cb && it->nfsver < PG_V40)
		return pg_fail(c, "callbacks need NFSv4.0 or later");
	if (it->reply.none && (it->reply.error || it->reply.chunked || it->reply.long_segs))
		return pg_fail(c, "reply=none cannot be combined with anything else");
	if (it->reply.none && it->pipeline)
		return pg_fail(c, "reply=none has no reply to defer (pipeline=on)");
	if ((it->gss == PG_GSS_INIT || it->gss == PG_GSS_CONTINUE || it->gss == PG_GSS_DESTROY) &&
	    it->proc != 0)
		return pg_fail(c, "gss=init, continue and destroy go with the NULL procedure");
	if (it->gss == PG_GSS_PRIV && (it->call.chunked || it->reply.chunked))
		return pg_fail(c, "gss=priv: the encrypted body has no item a chunk could hold");
	if (it->reply_size && !it->reply.long_segs)
		return pg_fail(c, "reply-size= needs a Reply chunk (reply=reply:N)");
	for (guint i = 0; i < it->ops->len; i++) {
		const pg_nfsop *op = &g_array_index(it->ops, pg_nfsop, i);
		if (!cb && it->nfsver == PG_V40 && (op->op == OP4_BIND_CONN || op->op == OP4_CREATE_SESSION))
			return pg_fail(c, "%s needs NFSv4.1 or later",
				       op->op == OP4_BIND_CONN ? "BIND_CONN_TO_SESSION" : "CREATE_SESSION");
	}
	return true;
}

bool pg_parse_rpc(pctx *c, char **argv, int argc, bool cb)
{
	pg_item *it;
	pg_nfsop v3op = { 0 };
	bool count_set = false, ops_seen = false, ok = true, has_v3op = false;
	if (argc < 3)
		return pg_fail(c, "usage: %s VERSION PROCEDURE [key=value ...]", argv[0]);
	it = pg_item_new(c->line, cb ? PG_ITEM_CB : PG_ITEM_RPC);
	it->repeat = 1;
	if (!cb && (!strcmp(argv[1], "acl") || !strcmp(argv[1], "acl3"))) {
		it->acl = true;
		it->nfsver = PG_V3;
	} else {
		ok = parse_version(c, argv[1], &it->nfsver);
	}
	if (ok) {
		if (it->acl) {
			if (pg_acl_proclookup(argv[2], &v3op.op)) {
				it->proc = v3op.op;
				has_v3op = true;
				v3op.len = 4; /* ACL entries */
				v3op.eof = true;
			} else {
				ok = pg_fail(c, "unknown procedure '%s' for NFSACL (NULL, GETACL, "
					     "SETACL)", argv[2]);
			}
		} else if (it->nfsver == PG_V3 && !cb &&
		    pg_nfs_oplookup(PG_V3, false, argv[2], &v3op.op)) {
			it->proc = v3op.op;
			has_v3op = true;
			default_sizes(PG_V3, false, &v3op);
		} else if (it->nfsver != PG_V3 && !g_ascii_strcasecmp(argv[2], "NULL")) {
			it->proc = 0;
		} else if (it->nfsver != PG_V3 && (!g_ascii_strcasecmp(argv[2], "COMPOUND") ||
						   (cb && !g_ascii_strcasecmp(argv[2], "CB_COMPOUND")))) {
			it->proc = 1;
		} else {
			ok = pg_fail(c, "unknown procedure '%s' for %s %s", argv[2],
				     cb ? "callback" : "NFS", argv[1]);
		}
	}
	for (int i = 3; ok && i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		if (!eq || eq == argv[i]) {
			ok = pg_fail(c, "expected key=value, got '%s'", argv[i]);
			break;
		}
		*eq = '\0';
		ok = item_key(c, it, cb, argv[i], eq + 1, has_v3op ? &v3op : NULL, &count_set,
			      &ops_seen);
	}
	if (ok && it->nfsver != PG_V3 && it->proc == 1 && !ops_seen)
		ok = pg_fail(c, "COMPOUND needs ops=OP,OP,...");
	if (ok && has_v3op) {
		ok = finish_op(c, PG_V3, &v3op, count_set);
		if (ok && it->acl && v3op.len > 1024)
			ok = pg_fail(c, "NFSACL: at most 1024 ACL entries (len=)");
		g_array_append_val(it->ops, v3op);
	}
	if (ok)
		ok = check_item(c, it, cb);
	if (!ok) {
		pg_item_free(it);
		return false;
	}
	g_ptr_array_add(c->s->items, it);
	c->last_rpc = it;
	return true;
}

static bool simple_keys(pctx *c, pg_item *it, char **argv, int argc, int first)
{
	for (int i = first; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		if (!eq)
			return pg_fail(c, "expected key=value, got '%s'", argv[i]);
		*eq = '\0';
		if (!strcmp(argv[i], "xid")) {
			it->has_xid = true;
			if (!pg_num32(c, "xid", eq + 1, 0, UINT32_MAX, &it->xid))
				return false;
		} else if (!strcmp(argv[i], "low") && it->kind == PG_ITEM_ERROR) {
			if (!pg_num32(c, "low", eq + 1, 0, UINT32_MAX, &it->err_low))
				return false;
		} else if (!strcmp(argv[i], "high") && it->kind == PG_ITEM_ERROR) {
			if (!pg_num32(c, "high", eq + 1, 0, UINT32_MAX, &it->err_high))
				return false;
		} else if (!strcmp(argv[i], "credits")) {
			if (!pg_num32(c, "credits", eq + 1, 1, 65535, &it->credits))
				return false;
		} else {
			return pg_fail(c, "unknown key '%s'", argv[i]);
		}
	}
	return true;
}

static bool add_simple(pctx *c, pg_item *it, char **argv, int argc, int first)
{
	it->repeat = 1;
	if (!simple_keys(c, it, argv, argc, first)) {
		pg_item_free(it);
		return false;
	}
	g_ptr_array_add(c->s->items, it);
	c->last_rpc = it;
	return true;
}

bool pg_parse_done(pctx *c, char **argv, int argc)
{
	return add_simple(c, pg_item_new(c->line, PG_ITEM_DONE), argv, argc, 1);
}

bool pg_parse_error(pctx *c, char **argv, int argc)
{
	pg_item *it;
	if (argc < 2 || (strcmp(argv[1], "vers") && strcmp(argv[1], "chunk")))
		return pg_fail(c, "usage: error vers [low=N high=N] [xid=N] | error chunk [xid=N]");
	it = pg_item_new(c->line, PG_ITEM_ERROR);
	it->err_code = !strcmp(argv[1], "vers") ? PG_ERR_VERS : PG_ERR_CHUNK;
	it->err_low = it->err_high = 1;
	return add_simple(c, it, argv, argc, 2);
}

bool pg_parse_terminate(pctx *c, char **argv, int argc)
{
	if (argc != 1)
		return pg_fail(c, "terminate takes no arguments");
	return add_simple(c, pg_item_new(c->line, PG_ITEM_TERMINATE), argv, argc, 1);
}

bool pg_parse_inject(pctx *c, char **argv, int argc)
{
	pg_inject_spec *in;
	char *eq;
	bool needs_arg = false;
	unsigned target = PG_TGT_CALL;
	if (argc < 2 || argc > 3)
		return pg_fail(c, "usage: inject NAME[=ARG] [call|reply|both]");
	if (!c->last_rpc)
		return pg_fail(c, "inject must follow the message it modifies");
	eq = strchr(argv[1], '=');
	if (eq)
		*eq = '\0';
	if (!pg_known_injector(argv[1], &needs_arg))
		return pg_fail(c, "unknown injector '%s'", argv[1]);
	if (needs_arg && (!eq || !eq[1]))
		return pg_fail(c, "injector %s needs an argument (%s=N)", argv[1], argv[1]);
	if (argc == 3 && !(target = parse_target(c, "inject", argv[2])))
		return false;
	in = g_new0(pg_inject_spec, 1);
	in->name = g_strdup(argv[1]);
	in->arg = eq ? g_strdup(eq + 1) : NULL;
	in->target = target;
	in->line = c->line;
	g_ptr_array_add(c->last_rpc->injects, in);
	return true;
}
