// SPDX-License-Identifier: GPL-2.0-or-later
/* What a call asks of serve, for its subset of NFS (serve_args.h). */
#include "serve_args.h"

#include <string.h>

#include <rpcrdma/cursor.h>

#include "pg_nfs.h"

#define NFS3_FHSIZE 64u
#define NFS4_FHSIZE 128u

/* opaque<max>: its bytes and length */
static bool opaque(struct rr_cursor *c, uint32_t max, const uint8_t **p, uint32_t *n)
{
	return rr_xdr_opaque(c, max, p, n);
}

/* bitmap4, then (with vals) the attrlist4 of a fattr4 */
static bool skip_bitmap(struct rr_cursor *c, bool vals)
{
	uint32_t n;
	if (!rr_get_be32(c, &n) || n > 8 || !rr_skip(c, 4ull * n))
		return false;
	return !vals || rr_xdr_skip_opaque(c, UINT32_MAX);
}

/* sattr3 (RFC 1813 2.6): mode, uid, gid (bool + uint32), size (bool + uint64),
 * atime, mtime (time_how; SET_TO_CLIENT_TIME: nfstime3) */
static bool skip_sattr3(struct rr_cursor *c)
{
	static const uint32_t width[4] = { 4, 4, 4, 8 };
	uint32_t v;

	for (int i = 0; i < 4; i++)
		if (!rr_get_be32(c, &v) || v > 1 || (v && !rr_skip(c, width[i])))
			return false;
	for (int i = 0; i < 2; i++)
		if (!rr_get_be32(c, &v) || v > 2 || (v == 2 && !rr_skip(c, 8)))
			return false;
	return true;
}

static bool v3_args(struct rr_cursor *c, uint32_t proc, struct sa_op *o)
{
	const uint8_t *p;

	o->op = proc;
	if (proc == NFS3_NULL)
		return true;
	if (!opaque(c, NFS3_FHSIZE, &o->fh, &o->fhlen))
		return false;
	switch (proc) {
	case NFS3_GETATTR:
	case NFS3_READLINK:
	case NFS3_READDIR:
		return true;
	case PG_NFS3_LOOKUP:
		return opaque(c, 255, &o->data, &o->len);
	case NFS3_SYMLINK:
		/* diropargs3, sattr3, nfspath3 */
		return opaque(c, 255, &o->data, &o->len) && skip_sattr3(c) &&
		       opaque(c, UINT32_MAX, &p, &o->target_len);
	case NFS3_READ:
		return rr_get_be64(c, &o->offset);
	case NFS3_WRITE:
		/* offset, count, stable, data<> */
		return rr_get_be64(c, &o->offset) && rr_skip(c, 8) &&
		       opaque(c, UINT32_MAX, &o->data, &o->len);
	default:
		return false;
	}
}

static bool v4_op(struct rr_cursor *c, struct sa_op *o)
{
	const uint8_t *p;
	uint32_t type;

	if (!rr_get_be32(c, &o->op))
		return false;
	switch (o->op) {
	case OP4_SEQUENCE:
		/* sessionid, sequenceid, slotid, highest_slotid, cachethis */
		if (!rr_get_bytes(c, 16, &o->data) || !rr_get_be32(c, &o->seqid))
			return false;
		o->len = 16;
		return rr_skip(c, 12);
	case OP4_PUTFH:
		return opaque(c, NFS4_FHSIZE, &o->fh, &o->fhlen);
	case OP4_PUTROOTFH:
	case OP4_GETFH:
	case OP4_READLINK:
		return true;
	case OP4_GETATTR:
		return skip_bitmap(c, false);
	case OP4_LOOKUP:
		return opaque(c, UINT32_MAX, &o->data, &o->len);
	case OP4_READ:
		/* stateid, offset, count */
		return rr_skip(c, 16) && rr_get_be64(c, &o->offset) && rr_skip(c, 4);
	case OP4_WRITE:
		/* stateid, offset, stable, data<> */
		return rr_skip(c, 16) && rr_get_be64(c, &o->offset) && rr_skip(c, 4) &&
		       opaque(c, UINT32_MAX, &o->data, &o->len);
	case OP4_READDIR:
		/* cookie, cookieverf, dircount, maxcount, attr_request */
		return rr_skip(c, 24) && skip_bitmap(c, false);
	case OP4_CREATE:
		/* createtype4 (NF4LNK: linkdata; NF4BLK, NF4CHR: specdata4), objname, createattrs */
		if (!rr_get_be32(c, &type))
			return false;
		if (type == PG_NF_LNK && !opaque(c, UINT32_MAX, &p, &o->target_len))
			return false;
		if ((type == 3 || type == 4) && !rr_skip(c, 8))
			return false;
		return opaque(c, UINT32_MAX, &o->data, &o->len) && skip_bitmap(c, true);
	default:
		return false;
	}
}

void sa_decode(const uint8_t *args, size_t len, uint32_t vers, uint32_t proc, struct sa_call *out)
{
	struct rr_cursor c;
	uint32_t n;

	memset(out, 0, sizeof(*out));
	rr_cursor_init(&c, args, len);
	if (vers == 3) {
		out->n = 1;
		out->complete = v3_args(&c, proc, &out->op[0]);
		return;
	}
	if (vers != 4 || proc != 1)
		return;
	/* tag<>, minorversion, argarray<> */
	if (!rr_xdr_skip_opaque(&c, UINT32_MAX) || !rr_skip(&c, 4) || !rr_get_be32(&c, &n))
		return;
	for (uint32_t i = 0; i < n; i++) {
		if (out->n >= SA_MAX_OPS || !v4_op(&c, &out->op[out->n]))
			return;
		out->n++;
	}
	out->complete = true;
}
