// SPDX-License-Identifier: GPL-2.0-or-later
/* serve's in-memory file system (serve_fs.h). */
#include "serve_fs.h"

#include <string.h>

#include <glib.h>

#include "serve_args.h"

void sf_init(struct sf_fs *fs, uint64_t store_limit)
{
	memset(fs, 0, sizeof(*fs));
	pg_nfs_state_init(&fs->nfs, 0x5e7e);
	fs->store = ss_new(store_limit);
}

void sf_free(struct sf_fs *fs)
{
	ss_free(fs->store);
	fs->store = NULL;
}

/* A name's handle in dir: the directory's first 12 bytes (knfsd style: version,
 * types, fsid), then 16 bytes of SHA-256 over the directory's handle and the name. */
static void derive(const uint8_t *dir, uint32_t dirlen, const uint8_t *name, uint32_t namelen,
		   uint8_t *fh, uint32_t *fhlen)
{
	static const uint8_t hdr[12] = { 0x01, 0x00, 0x07, 0x01 };
	GChecksum *h = g_checksum_new(G_CHECKSUM_SHA256);
	uint8_t d[32];
	gsize n = sizeof(d);

	memcpy(fh, dirlen >= 12 ? dir : hdr, 12);
	g_checksum_update(h, (const guchar *)&dirlen, sizeof(dirlen));
	g_checksum_update(h, dir, dirlen);
	g_checksum_update(h, name, namelen);
	g_checksum_get_digest(h, d, &n);
	g_checksum_free(h);
	memcpy(fh + 12, d, 16);
	*fhlen = 28;
}

bool sf_lookup(const uint8_t *dir, uint32_t dirlen, const uint8_t *name, uint32_t namelen,
	       uint8_t *fh, uint32_t *fhlen)
{
	size_t m = strlen(SF_MISSING);
	if (!namelen || (namelen >= m && !memcmp(name, SF_MISSING, m)))
		return false;
	derive(dir, dirlen, name, namelen, fh, fhlen);
	return true;
}

/* One call being described: the current handle, each op's file, this reply's state. */
struct walk {
	struct sf_fs *fs;
	pg_nfs_state *st;
	const struct rr_ulp_info *u;
	uint8_t cur[SS_MAX_FH];
	uint32_t curlen;
	uint8_t fh[SA_MAX_OPS][SS_MAX_FH];   /* READ: the file it reads */
	uint32_t fhlen[SA_MAX_OPS];
	bool stopped;                         /* an NFSv4 op failed: the rest do nothing */
};

static void set_fh(uint8_t *dst, uint32_t *dlen, const uint8_t *fh, uint32_t len)
{
	*dlen = MIN(len, SS_MAX_FH);
	memcpy(dst, fh, *dlen);
}

/* The handle the reply's encoder puts in GETFH, LOOKUP3 and SYMLINK3 results. */
static void reply_fh(pg_nfs_state *st, const uint8_t *fh, uint32_t len)
{
	len = MIN(len, (uint32_t)sizeof(st->file_fh));
	set_fh(st->file_fh, &st->file_fh_len, fh, len);
	set_fh(st->dir_fh, &st->dir_fh_len, fh, len);
	set_fh(st->link_fh, &st->link_fh_len, fh, len);
}

/* READ and WRITE (both versions): op is set; false never (a status says what failed). */
static void data_op(struct walk *w, unsigned i, bool v3, const struct sa_op *o, pg_nfsop *op)
{
	const uint8_t *fh = v3 ? o->fh : w->cur;
	uint32_t fhlen = v3 ? o->fhlen : w->curlen;
	uint64_t size, left;

	op->offset = o->offset;
	if (o->op == (v3 ? (uint32_t)NFS3_WRITE : (uint32_t)OP4_WRITE)) {
		op->len = op->count = o->len;
		/* NFS3ERR_NOSPC / NFS4ERR_NOSPC (both 28): the store is full */
		if (!w->stopped && !ss_write(w->fs->store, fh, fhlen, o->offset, o->data, o->len))
			op->status = 28;
		return;
	}
	set_fh(w->fh[i], &w->fhlen[i], fh, fhlen);
	size = MAX((uint64_t)SF_FILE_SIZE, ss_end(w->fs->store, fh, fhlen));
	left = o->offset < size ? size - o->offset : 0;
	op->count = w->u->op_count[v3 ? 0 : i];
	op->len = (uint32_t)MIN((uint64_t)MIN(op->count, SF_MAX_READ), left);
	op->eof = op->len == left;
	/* beyond the largest file size: NFS3ERR_INVAL / NFS4ERR_INVAL (both 22) */
	if (op->offset >= SF_MAX_OFFSET)
		op->status = 22;
}

/* One procedure or op; false: outside the subset. */
static bool one_op(struct walk *w, unsigned i, bool v3, const struct sa_op *o, pg_nfsop *op)
{
	uint8_t fh[SS_MAX_FH];
	uint32_t fhlen;

	switch (v3 ? o->op + 1000 : o->op) {
	case 1000 + NFS3_READ: case OP4_READ:
	case 1000 + NFS3_WRITE: case OP4_WRITE:
		data_op(w, i, v3, o, op);
		break;
	case 1000 + NFS3_READLINK: case OP4_READLINK:
		op->len = w->fs->symlink_len ? w->fs->symlink_len : 64;
		break;
	case 1000 + NFS3_READDIR: case OP4_READDIR:
		/* an entry takes 32 bytes or more: no more than the count can hold */
		op->len = MIN(SF_DIR_ENTRIES, w->u->op_count[v3 ? 0 : i] / 32);
		break;
	case 1000 + NFS3_SYMLINK: case OP4_CREATE:
		op->len = op->count = o->target_len;
		if (w->stopped)
			break;
		w->fs->symlink_len = op->len ? op->len : w->fs->symlink_len;
		derive(v3 ? o->fh : w->cur, v3 ? o->fhlen : w->curlen, o->data, o->len, fh, &fhlen);
		if (v3)
			reply_fh(w->st, fh, fhlen);
		else
			set_fh(w->cur, &w->curlen, fh, fhlen);
		break;
	case 1000 + PG_NFS3_LOOKUP: case OP4_LOOKUP:
		op->len = 8;
		if (w->stopped)
			break;
		if (!sf_lookup(v3 ? o->fh : w->cur, v3 ? o->fhlen : w->curlen, o->data, o->len, fh,
			       &fhlen))
			op->status = 2;   /* NFS3ERR_NOENT / NFS4ERR_NOENT */
		else if (v3)
			reply_fh(w->st, fh, fhlen);
		else
			set_fh(w->cur, &w->curlen, fh, fhlen);
		break;
	case OP4_PUTFH:
		set_fh(w->cur, &w->curlen, o->fh, o->fhlen);
		break;
	case OP4_PUTROOTFH:
		set_fh(w->cur, &w->curlen, w->fs->nfs.root_fh, w->fs->nfs.root_fh_len);
		break;
	case OP4_GETFH:
		if (!w->stopped)
			reply_fh(w->st, w->cur, w->curlen);
		break;
	case OP4_SEQUENCE:
		/* the reply echoes the call's session and sequence ids */
		memcpy(w->st->sessionid, o->data, 16);
		w->st->seqid = o->seqid;
		break;
	case 1000 + NFS3_NULL:
	case 1000 + NFS3_GETATTR:
	case OP4_GETATTR:
		break;
	default:
		return false;
	}
	return true;
}

/* The call described for the encoders; false: outside the subset. */
static bool describe(struct walk *w, const struct rr_rpc_call *rc, const struct sa_call *a,
		     pg_item *it)
{
	bool v3 = rc->vers == 3;

	it->kind = PG_ITEM_RPC;
	if (rc->prog != RR_NFS_PROGRAM)
		return false;
	if (v3)
		it->nfsver = PG_V3;
	else if (rc->vers == 4 && rc->proc == 1)
		it->nfsver = w->u->minorversion == 0 ? PG_V40 : w->u->minorversion == 1 ? PG_V41 : PG_V42;
	else if (rc->vers == 4 && rc->proc == 0)
		it->nfsver = PG_V41;
	else
		return false;
	it->proc = rc->proc;
	if (rc->vers == 4 && rc->proc == 0)
		return true;   /* NFSv4 NULL has no op list (NFSv3 NULL is procedure 0 of the list) */
	if (!a->complete)
		return false;
	for (unsigned i = 0; i < a->n; i++) {
		pg_nfsop op;
		memset(&op, 0, sizeof(op));
		op.op = a->op[i].op;
		if (!one_op(w, i, v3, &a->op[i], &op))
			return false;
		w->stopped |= !v3 && op.status;
		g_array_append_val(it->ops, op);
	}
	return true;
}

/* What WRITE stored, laid over the synthetic data of each READ that succeeded. */
static void overlay(struct walk *w, const pg_item *it, pg_rpc_pair *rp)
{
	bool v3 = it->nfsver == PG_V3;
	guint k = 0;

	for (guint i = 0; i < it->ops->len; i++) {
		const pg_nfsop *op = &g_array_index(it->ops, pg_nfsop, i);
		bool read = op->op == (v3 ? (uint32_t)NFS3_READ : (uint32_t)OP4_READ);
		bool readlink = op->op == (v3 ? (uint32_t)NFS3_READLINK : (uint32_t)OP4_READLINK);
		const pg_ddp *d;
		if (!v3 && i >= rp->reply_nops)
			break;
		if ((!read && !readlink) || op->status || k >= rp->reply.ddp->len)
			continue;
		d = &g_array_index(rp->reply.ddp, pg_ddp, k++);
		if (read)
			ss_read(w->fs->store, w->fh[i], w->fhlen[i], op->offset,
				rp->reply.msg->data + d->off, d->len);
	}
}

/* One call between its description and its reply (serve_fs.h). */
struct sf_reply {
	pg_nfs_state st;             /* this reply's: handles and session ids as the call asks */
	struct walk w;
	struct sa_call a;
	pg_item it;
	uint32_t xid;
};

struct sf_reply *sf_describe(struct sf_fs *fs, const uint8_t *msg, size_t len,
			     const struct rr_rpc_call *rc, const struct rr_ulp_info *u)
{
	struct sf_reply *r = g_new0(struct sf_reply, 1);

	r->st = fs->nfs;
	r->xid = rc->xid;
	r->it.ops = g_array_new(FALSE, TRUE, sizeof(pg_nfsop));
	r->w.fs = fs;
	r->w.st = &r->st;
	r->w.u = u;
	set_fh(r->w.cur, &r->w.curlen, fs->nfs.root_fh, fs->nfs.root_fh_len);
	if (rc->args_off <= len)
		sa_decode(msg + rc->args_off, len - rc->args_off, rc->vers, rc->proc, &r->a);
	if (!describe(&r->w, rc, &r->a, &r->it)) {
		sf_reply_free(r);
		return NULL;
	}
	r->w.u = NULL;   /* the walk's result is in the item now; u need not outlive this call */
	return r;
}

pg_item *sf_item(struct sf_reply *r)
{
	return &r->it;
}

void sf_build(struct sf_reply *r, pg_rpc_pair *rp)
{
	pg_rng rng = pg_rng_derive(0x5e7e, 0x444154, r->w.fs->idx++);
	pg_nfs_build(&r->st, &r->it, r->xid, &rng, rp);
	overlay(&r->w, &r->it, rp);
}

void sf_reply_free(struct sf_reply *r)
{
	if (!r)
		return;
	g_array_free(r->it.ops, TRUE);
	g_free(r);
}

bool sf_answer(struct sf_fs *fs, const uint8_t *msg, size_t len, const struct rr_rpc_call *rc,
	       const struct rr_ulp_info *u, pg_rpc_pair *rp)
{
	struct sf_reply *r = sf_describe(fs, msg, len, rc, u);
	if (!r)
		return false;
	sf_build(r, rp);
	sf_reply_free(r);
	return true;
}
