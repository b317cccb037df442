// SPDX-License-Identifier: GPL-2.0-or-later
/* NFSv3 (RFC 1813) and NFSACL messages, RPCSEC_GSS wrapping, and the
 * dispatch to the NFSv4 encoders. */
#include "pg_nfs.h"

#include "pg_buf.h"

#include <string.h>

/* ---- NFSv3 ---------------------------------------------------------- */

static void nfstime3(GByteArray *b, pg_rng *r, uint32_t base)
{
	pb_be32(b, base + pg_rng_range(r, 0, 3600));
	pb_be32(b, pg_rng_range(r, 0, 999999999));
}

static void fattr3(GByteArray *b, const pg_nfs_state *st, pg_rng *r, uint32_t type,
		   uint64_t size, uint64_t fileid)
{
	pb_be32(b, type);
	pb_be32(b, type == PG_NF_DIR ? 0755 : type == PG_NF_LNK ? 0777 : 0644);
	pb_be32(b, type == PG_NF_DIR ? 2 : 1);
	pb_be32(b, 1000);
	pb_be32(b, 1000);
	pb_be64(b, size);
	pb_be64(b, (size + 4095) & ~(uint64_t)4095);
	pb_be32(b, 0); /* rdev */
	pb_be32(b, 0);
	pb_be64(b, 0x8a1c5e02d3f4b6a7ull); /* fsid */
	pb_be64(b, fileid);
	nfstime3(b, r, st->time_base);
	nfstime3(b, r, st->time_base);
	nfstime3(b, r, st->time_base);
}

static void post_op_attr(GByteArray *b, const pg_nfs_state *st, pg_rng *r, bool present,
			 uint32_t type, uint64_t size, uint64_t fileid)
{
	pb_xdr_bool(b, present);
	if (present)
		fattr3(b, st, r, type, size, fileid);
}

static void wcc_data(GByteArray *b, const pg_nfs_state *st, pg_rng *r, uint32_t type,
		     uint64_t size, uint64_t fileid)
{
	pb_xdr_bool(b, true); /* pre_op_attr */
	pb_be64(b, size);
	nfstime3(b, r, st->time_base);
	nfstime3(b, r, st->time_base);
	post_op_attr(b, st, r, true, type, size, fileid);
}

static void sattr3_mode(GByteArray *b, uint32_t mode)
{
	pb_xdr_bool(b, true);
	pb_be32(b, mode);
	pb_xdr_bool(b, false); /* uid */
	pb_xdr_bool(b, false); /* gid */
	pb_xdr_bool(b, false); /* size */
	pb_be32(b, 0);         /* atime: DONT_CHANGE */
	pb_be32(b, 0);         /* mtime: DONT_CHANGE */
}

static void nfs3_build(pg_nfs_state *st, const pg_item *it, pg_rng *r, pg_rpc_pair *out)
{
	const pg_nfsop *op = &g_array_index(it->ops, pg_nfsop, 0);
	GByteArray *c = out->call.msg, *y = out->reply.msg;
	uint64_t fid = st->fileid_base + pg_rng_range(r, 1, 5000);
	bool ok = op->status == 0;
	char name[256], *path;
	uint8_t *data;
	uint32_t u;
	size_t count_at, res_at;

	switch (op->op) {
	case NFS3_NULL:
		break;
	case NFS3_GETATTR:
		pg_bulk_add(&out->call, pb_xdr_opaque(c, st->file_fh, st->file_fh_len),
			    st->file_fh_len);
		pb_be32(y, op->status);
		if (ok)
			fattr3(y, st, r, PG_NF_REG, op->offset + 65536, fid);
		break;
	case NFS3_READ:
		pg_bulk_add(&out->call, pb_xdr_opaque(c, st->file_fh, st->file_fh_len),
			    st->file_fh_len);
		pb_be64(c, op->offset);
		pb_be32(c, op->count);
		pg_slot_add(out, op->count, ok ? PG_SLOT_DATA : PG_SLOT_FAILED);
		pb_be32(y, op->status);
		post_op_attr(y, st, r, ok, PG_NF_REG, op->offset + op->len + 4096, fid);
		if (ok) {
			pb_be32(y, op->len);
			pb_xdr_bool(y, op->eof);
			data = pg_rand_data(r, op->len);
			pg_ddp_add(&out->reply, pb_xdr_opaque(y, data, op->len), op->len, 0);
			g_free(data);
		}
		break;
	case NFS3_WRITE:
		pg_bulk_add(&out->call, pb_xdr_opaque(c, st->file_fh, st->file_fh_len),
			    st->file_fh_len);
		pb_be64(c, op->offset);
		pb_be32(c, op->len);
		pb_be32(c, 2); /* FILE_SYNC */
		data = pg_rand_data(r, op->len);
		pg_ddp_add(&out->call, pb_xdr_opaque(c, data, op->len), op->len, -1);
		g_free(data);
		pb_be32(y, op->status);
		wcc_data(y, st, r, PG_NF_REG, op->offset + op->len, fid);
		if (ok) {
			pb_be32(y, op->len);
			pb_be32(y, 2);
			pb_bytes(y, st->verifier, 8);
		}
		break;
	case PG_NFS3_LOOKUP:
		/* diropargs3; LOOKUP3resok: the object's handle (file_fh), its
		 * attributes, the directory's; LOOKUP3resfail: the directory's */
		pg_bulk_add(&out->call, pb_xdr_opaque(c, st->dir_fh, st->dir_fh_len),
			    st->dir_fh_len);
		pg_rand_name(r, name, op->len ? op->len : 8);
		pb_xdr_string(c, name);
		pb_be32(y, op->status);
		if (ok) {
			pb_xdr_opaque(y, st->file_fh, st->file_fh_len);
			post_op_attr(y, st, r, true, PG_NF_REG, 1u << 20, fid);
		}
		post_op_attr(y, st, r, true, PG_NF_DIR, 4096, st->fileid_base);
		break;
	case NFS3_READLINK:
		pg_bulk_add(&out->call, pb_xdr_opaque(c, st->link_fh, st->link_fh_len),
			    st->link_fh_len);
		pg_slot_add(out, PG_MAX_PATH, ok ? PG_SLOT_DATA : PG_SLOT_FAILED);
		pb_be32(y, op->status);
		post_op_attr(y, st, r, true, PG_NF_LNK, op->len, fid);
		if (ok) {
			path = g_malloc(op->len + 1);
			pg_rand_path(r, path, op->len);
			pg_ddp_add(&out->reply, pb_xdr_opaque(y, path, op->len), op->len, 0);
			g_free(path);
		}
		break;
	case NFS3_SYMLINK:
		pg_bulk_add(&out->call, pb_xdr_opaque(c, st->dir_fh, st->dir_fh_len),
			    st->dir_fh_len);
		pg_rand_name(r, name, pg_rng_range(r, 6, 20));
		pb_xdr_string(c, name);
		sattr3_mode(c, 0777);
		path = g_malloc(op->len + 1);
		pg_rand_path(r, path, op->len);
		pg_ddp_add(&out->call, pb_xdr_opaque(c, path, op->len), op->len, -1);
		g_free(path);
		pb_be32(y, op->status);
		if (ok) {
			pb_xdr_bool(y, true);
			pb_xdr_opaque(y, st->link_fh, st->link_fh_len);
			post_op_attr(y, st, r, true, PG_NF_LNK, op->len, fid);
		}
		wcc_data(y, st, r, PG_NF_DIR, 4096, st->fileid_base);
		break;
	case NFS3_READDIR:
		pg_bulk_add(&out->call, pb_xdr_opaque(c, st->dir_fh, st->dir_fh_len),
			    st->dir_fh_len);
		pb_be64(c, 0);  /* cookie */
		pb_zero(c, 8);  /* cookieverf */
		count_at = c->len;
		pb_be32(c, 0);  /* count: below, once the result is built */
		pb_be32(y, op->status);
		res_at = y->len;
		post_op_attr(y, st, r, true, PG_NF_DIR, 4096, st->fileid_base);
		if (ok) {
			pb_bytes(y, st->verifier, 8);
			for (uint32_t i = 0; i < op->len; i++) {
				pb_xdr_bool(y, true);
				pb_be64(y, st->fileid_base + 1 + i);
				pg_rand_name(r, name, pg_rng_range(r, 5, 24));
				u = (uint32_t)strlen(name);
				pg_bulk_add(&out->reply, pb_xdr_opaque(y, name, u), i ? 0 : u);
				pb_be64(y, (uint64_t)(i + 1) * 0x200 + 0x7fff0000ull);
			}
			pb_xdr_bool(y, false);
			pb_xdr_bool(y, op->eof);
		}
		/* The requester allocates reply resources for the largest reply its
		 * count allows (RFC 8166 6.2): it asks for no more READDIR3resok
		 * (RFC 1813 3.3.16) than the reply the scenario returns. */
		pb_put_be32(c, count_at, (uint32_t)(y->len - res_at));
		break;
	default:
		pg_bug("NFSv3 procedure %u", op->op);
	}
}

/* ---- NFSACL version 3 (program 100227; Linux/Solaris nfs_acl.x) ---- */

/* secattr: mask, aclcnt, aclent<>, dfaclcnt, dfaclent<>; aclent is
 * { type, id, perm }. Returns where the access ACL's entries start. */
static size_t secattr(GByteArray *b, uint32_t n)
{
	static const uint32_t types[] = { 0x01, 0x02, 0x04, 0x08, 0x10, 0x20 };
	size_t at;
	pb_be32(b, 0x0f); /* NFS_ACL | NFS_ACLCNT | NFS_DFACL | NFS_DFACLCNT */
	pb_be32(b, n);
	pb_be32(b, n);
	at = b->len;
	for (uint32_t i = 0; i < n; i++) {
		pb_be32(b, types[i % G_N_ELEMENTS(types)]);
		pb_be32(b, 1000 + i);
		pb_be32(b, (i * 5) % 8);
	}
	pb_be32(b, 0); /* no default ACL */
	pb_be32(b, 0);
	return at;
}

static void acl3_build(pg_nfs_state *st, const pg_item *it, pg_rng *r, pg_rpc_pair *out)
{
	const pg_nfsop *op = &g_array_index(it->ops, pg_nfsop, 0);
	GByteArray *c = out->call.msg, *y = out->reply.msg;
	uint64_t fid = st->fileid_base + pg_rng_range(r, 1, 5000);
	bool ok = op->status == 0;
	size_t at;

	switch (op->op) {
	case ACL3_NULL:
		break;
	case ACL3_GETACL:
		pb_xdr_opaque(c, st->file_fh, st->file_fh_len);
		pb_be32(c, 0x0f);
		pb_be32(y, op->status);
		post_op_attr(y, st, r, true, PG_NF_REG, 4096, fid);
		if (ok) {
			at = secattr(y, op->len);
			pg_bulk_add(&out->reply, at, op->len * 12);
		}
		break;
	case ACL3_SETACL:
		pb_xdr_opaque(c, st->file_fh, st->file_fh_len);
		at = secattr(c, op->len);
		pg_bulk_add(&out->call, at, op->len * 12);
		pb_be32(y, op->status);
		post_op_attr(y, st, r, true, PG_NF_REG, 4096, fid);
		break;
	default:
		pg_bug("NFSACL procedure %u", op->op);
	}
}

static void gss_apply(const pg_nfs_state *st, const pg_item *it, uint32_t xid, pg_rpc_pair *out);

void pg_nfs_build(pg_nfs_state *st, const pg_item *it, uint32_t xid, pg_rng *rng,
		  pg_rpc_pair *out)
{
	memset(out, 0, sizeof(*out));
	out->call.msg = g_byte_array_new();
	out->reply.msg = g_byte_array_new();
	out->call.ddp = g_array_new(FALSE, FALSE, sizeof(pg_ddp));
	out->reply.ddp = g_array_new(FALSE, FALSE, sizeof(pg_ddp));
	out->call.bulk = g_array_new(FALSE, FALSE, sizeof(pg_ddp));
	out->reply.bulk = g_array_new(FALSE, FALSE, sizeof(pg_ddp));
	out->slots = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	out->slot_state = g_array_new(FALSE, FALSE, sizeof(int));
	out->procedure = it->proc;
	if (it->kind == PG_ITEM_CB) {
		out->backchannel = true;
		out->program = PG_PROG_NFS_CB;
		out->version = 1;
		pg_rpc_call_hdr(out->call.msg, st, xid, PG_PROG_NFS_CB, 1, it->proc, false);
		pg_rpc_reply_hdr(out->reply.msg, xid);
		if (it->proc == 1)
			pg_nfs4_cb_build(st, it, rng, out);
		return;
	}
	out->program = it->acl ? PG_PROG_NFSACL : PG_PROG_NFS;
	out->version = it->nfsver == PG_V3 ? 3 : 4;
	if (it->has_prog) {
		/* another RPC program carrying the same argument bytes */
		out->program = it->prog;
		out->version = it->progvers;
	}
	pg_rpc_call_hdr(out->call.msg, st, xid, out->program, out->version, it->proc, true);
	pg_rpc_reply_hdr(out->reply.msg, xid);
	if (it->acl)
		acl3_build(st, it, rng, out);
	else if (it->nfsver == PG_V3)
		nfs3_build(st, it, rng, out);
	else if (it->proc == 1)
		pg_nfs4_build(st, it, rng, out);
	if (it->gss)
		gss_apply(st, it, xid, out);
}

static void shift_items(GArray *a, size_t from, int64_t d)
{
	for (guint i = 0; i < a->len; i++) {
		pg_ddp *x = &g_array_index(a, pg_ddp, i);
		if (x->off >= from)
			x->off = (size_t)((int64_t)x->off + d);
	}
}

/* opaque bytes derived from the XID (GSS tokens, checksums, ciphertext) */
static void gss_bytes(GByteArray *b, pg_rng *r, uint32_t n)
{
	uint8_t *d = g_malloc(n ? n : 1);
	for (uint32_t i = 0; i < n; i++)
		d[i] = (uint8_t)pg_rng_u32(r);
	pb_xdr_opaque(b, d, n);
	g_free(d);
}

/* Rewrite one message of the pair under RPCSEC_GSS v1 (RFC 2203 5.3):
 * hdr bytes of RPC header (ending with the old cred/verifier), then the
 * body. The call's credential is RPCSEC_GSS; both verifiers are flavor 6.
 * INIT/CONTINUE_INIT carry an opaque GSS token instead of arguments (and
 * their reply an rpc_gss_init_res), DESTROY nothing; integrity wraps the
 * body in rpc_gss_integ_data, privacy replaces it with opaque ciphertext. */
static int64_t gss_wrap(pg_rpcmsg *m, bool call, size_t hdr, const pg_item *it, uint32_t xid,
			const pg_nfs_state *st)
{
	pg_rng r = pg_rng_derive(xid, 0x475353, call);
	GByteArray *b = g_byte_array_new(), *cr = g_byte_array_new();
	const uint8_t *body = m->msg->data + hdr;
	uint32_t blen = m->msg->len - (uint32_t)hdr, seq = 1 + (xid & 0xffff);
	size_t nh;
	int64_t shift = INT64_MIN; /* the items are gone or placed anew */
	bool ctl = it->gss == PG_GSS_INIT || it->gss == PG_GSS_CONTINUE;
	pb_bytes(b, m->msg->data, call ? 24 : 12); /* up to the cred / the verifier */
	if (call) {
		pb_be32(cr, 1); /* RPCSEC_GSS_VERS_1 */
		pb_be32(cr, it->gss == PG_GSS_INIT ? 1 : it->gss == PG_GSS_CONTINUE ? 2
			    : it->gss == PG_GSS_DESTROY ? 3 : 0);
		pb_be32(cr, ctl ? 0 : seq);
		pb_be32(cr, it->gss == PG_GSS_INTEG ? 2 : it->gss == PG_GSS_PRIV ? 3 : 1);
		if (it->gss == PG_GSS_INIT)
			pb_be32(cr, 0); /* no handle yet */
		else
			pb_xdr_opaque(cr, st->verifier, 8);
		pb_be32(b, 6); /* RPCSEC_GSS */
		pb_xdr_opaque(b, cr->data, cr->len);
	}
	pb_be32(b, 6);
	gss_bytes(b, &r, 28); /* verifier: a MIC token */
	if (!call)
		pb_be32(b, 0); /* SUCCESS */
	nh = b->len;
	if (ctl) {
		g_array_set_size(m->ddp, 0);
		g_array_set_size(m->bulk, 0);
		if (call) {
			size_t at = b->len + 4;
			gss_bytes(b, &r, 600); /* gss_token */
			pg_bulk_add(m, at, 600);
		} else {
			pb_xdr_opaque(b, st->verifier, 8); /* handle */
			pb_be32(b, 0);                     /* GSS_S_COMPLETE */
			pb_be32(b, 0);
			pb_be32(b, 128);                   /* seq_window */
			gss_bytes(b, &r, 96);              /* gss_token */
		}
	} else if (it->gss == PG_GSS_DESTROY) {
		g_array_set_size(m->ddp, 0);
		g_array_set_size(m->bulk, 0);
	} else if (it->gss == PG_GSS_INTEG) {
		pb_be32(b, blen + 4);
		pb_be32(b, seq);
		pb_bytes(b, body, blen);
		pb_pad4(b);
		gss_bytes(b, &r, 28); /* checksum */
		shift = (int64_t)nh + 8 - (int64_t)hdr;
	} else if (it->gss == PG_GSS_PRIV) {
		gss_bytes(b, &r, pg_round4(blen + 4) + 16);
		g_array_set_size(m->ddp, 0);
		g_array_set_size(m->bulk, 0);
	} else {
		pb_bytes(b, body, blen);
		shift = (int64_t)nh - (int64_t)hdr;
	}
	if (shift != INT64_MIN) {
		shift_items(m->ddp, hdr, shift);
		shift_items(m->bulk, hdr, shift);
	}
	g_byte_array_free(m->msg, TRUE);
	g_byte_array_free(cr, TRUE);
	m->msg = b;
	return shift;
}

static void gss_apply(const pg_nfs_state *st, const pg_item *it, uint32_t xid, pg_rpc_pair *out)
{
	/* the AUTH_SYS call header: 24 bytes, the cred, an AUTH_NONE verifier */
	const uint8_t *p = out->call.msg->data;
	size_t chdr = 24 + 8 + pg_round4((uint32_t)p[28] << 24 | (uint32_t)p[29] << 16 |
					 (uint32_t)p[30] << 8 | p[31]) + 8;
	int64_t d = gss_wrap(&out->call, true, chdr, it, xid, st);
	if (out->minorversion_off)
		out->minorversion_off = d != INT64_MIN
					? (size_t)((int64_t)out->minorversion_off + d) : 0;
	gss_wrap(&out->reply, false, 24, it, xid, st);
}
