// SPDX-License-Identifier: GPL-2.0-or-later
/* NFSv4.x COMPOUND (RFC 7530/8881) and NFSv4.1 CB_COMPOUND encoders. */
#include "pg_nfs.h"

#include "pg_buf.h"

#include <string.h>

/* type, change, size, fsid, fileid | mode, numlinks, owner, owner_group,
 * space_used, time_access, time_metadata, time_modify */
#define GA_W0 ((1u << 1) | (1u << 3) | (1u << 4) | (1u << 8) | (1u << 20))
#define GA_W1 ((1u << 1) | (1u << 3) | (1u << 4) | (1u << 5) | (1u << 13) | (1u << 15) | \
	       (1u << 20) | (1u << 21))
#define RD_W0 ((1u << 1) | (1u << 20)) /* READDIR asks for type and fileid */
#define GA_ACL (1u << 12)              /* GETATTR(len=N): acl too, N entries (RFC 7530 6.2.1) */
/* CREATE_SESSION (RFC 8881 18.36): CONN_BACK_CHAN | PERSIST, and the channel sizes */
#define CS_FLAGS 0x3u
#define CS_FORE_MAXREQ 1049620u
#define CS_FORE_MAXRESP 1049480u
#define CS_BACK_MAX 4096u

static void bitmap2(GByteArray *b, uint32_t w0, uint32_t w1)
{
	pb_be32(b, 2);
	pb_be32(b, w0);
	pb_be32(b, w1);
}

static void nfstime4(GByteArray *b, pg_rng *r, uint32_t base)
{
	pb_be64(b, base + pg_rng_range(r, 0, 3600));
	pb_be32(b, pg_rng_range(r, 0, 999999999));
}

/* fattr4_acl: nfsace4<> of n ALLOW entries for numbered users */
static void acl4(GByteArray *v, uint32_t n)
{
	char who[32];

	pb_be32(v, n);
	for (uint32_t i = 0; i < n; i++) {
		pb_be32(v, 0);          /* ACE4_ACCESS_ALLOWED_ACE_TYPE */
		pb_be32(v, 0);          /* flag */
		pb_be32(v, 0x120089);   /* read data, attributes, ACL, synchronize */
		g_snprintf(who, sizeof(who), "%u@localdomain", 1000 + i);
		pb_xdr_string(v, who);
	}
}

/* The attributes of GA_W0/GA_W1 in attribute order, with acl (12) when acl_n is non-zero. */
static void fattr4_full(GByteArray *b, const pg_nfs_state *st, pg_rng *r, uint32_t type,
			uint64_t size, uint64_t fileid, uint32_t acl_n)
{
	GByteArray *v = g_byte_array_new();
	bitmap2(b, GA_W0 | (acl_n ? GA_ACL : 0), GA_W1);
	pb_be32(v, type);
	pb_be64(v, ((uint64_t)st->time_base << 32) | pg_rng_u32(r)); /* change */
	pb_be64(v, size);
	pb_be64(v, 0x8a1c5e02ull); /* fsid.major */
	pb_be64(v, 0xd3f4b6a7ull); /* fsid.minor */
	if (acl_n)
		acl4(v, acl_n);
	pb_be64(v, fileid);
	pb_be32(v, type == PG_NF_DIR ? 0755 : type == PG_NF_LNK ? 0777 : 0644);
	pb_be32(v, type == PG_NF_DIR ? 2 : 1);
	pb_xdr_string(v, "1000");
	pb_xdr_string(v, "1000");
	pb_be64(v, (size + 4095) & ~(uint64_t)4095);
	nfstime4(v, r, st->time_base);
	nfstime4(v, r, st->time_base);
	nfstime4(v, r, st->time_base);
	pb_xdr_opaque(b, v->data, v->len);
	g_byte_array_free(v, TRUE);
}

/* channel_attrs4 { headerpadsize; maxrequestsize; maxresponsesize; maxresponsesize_cached;
 *                  maxoperations; maxrequests; rdma_ird<1> } (RFC 8881 18.36.1) */
static void channel_attrs4(GByteArray *b, uint32_t maxreq, uint32_t maxresp)
{
	pb_be32(b, 0);
	pb_be32(b, maxreq);
	pb_be32(b, maxresp);
	pb_be32(b, 7584);
	pb_be32(b, 16);
	pb_be32(b, 64);
	pb_be32(b, 0);
}

static void stateid4(GByteArray *b, const pg_nfs_state *st)
{
	pb_be32(b, 1);
	pb_bytes(b, st->stateid_other, 12);
}

/* READ's and WRITE's stateid: the state's, or a special one (pg_nfs_state) */
static void io_stateid4(GByteArray *b, const pg_nfs_state *st, bool read)
{
	if (!st->special_stateids)
		stateid4(b, st);
	else if (read)
		pb_fill(b, 0xff, 16);
	else
		pb_zero(b, 16);
}

typedef struct {
	const uint8_t *fh;
	uint32_t fhlen;
	uint32_t type;
} curfh;

static bool later_op(const pg_item *it, guint from, uint32_t a, uint32_t b, uint32_t c)
{
	for (guint i = from; i < it->ops->len; i++) {
		uint32_t op = g_array_index(it->ops, pg_nfsop, i).op;
		if (op == a || op == b || op == c)
			return true;
	}
	return false;
}

static void set_cur(curfh *cur, const uint8_t *fh, uint32_t len, uint32_t type)
{
	cur->fh = fh;
	cur->fhlen = len;
	cur->type = type;
}

/* Arguments of op i; records DDP-eligible call items. */
static void op_args(pg_nfs_state *st, const pg_item *it, guint i, pg_rng *r, pg_rpc_pair *out,
		    curfh *cur)
{
	const pg_nfsop *op = &g_array_index(it->ops, pg_nfsop, i);
	GByteArray *c = out->call.msg;
	char name[256], *path;
	uint8_t *data;

	pb_be32(c, op->op);
	switch (op->op) {
	case OP4_SEQUENCE:
		pb_bytes(c, st->sessionid, 16);
		pb_be32(c, st->seqid++);
		pb_be32(c, 0); /* slotid */
		pb_be32(c, 0); /* highest_slotid */
		pb_xdr_bool(c, false);
		break;
	case OP4_PUTFH:
		if (later_op(it, i + 1, OP4_READLINK, OP4_READLINK, OP4_READLINK))
			set_cur(cur, st->link_fh, st->link_fh_len, PG_NF_LNK);
		else if (later_op(it, i + 1, OP4_READDIR, OP4_LOOKUP, OP4_CREATE))
			set_cur(cur, st->dir_fh, st->dir_fh_len, PG_NF_DIR);
		else
			set_cur(cur, st->file_fh, st->file_fh_len, PG_NF_REG);
		pb_xdr_opaque(c, cur->fh, cur->fhlen);
		break;
	case OP4_PUTROOTFH:
		set_cur(cur, st->root_fh, st->root_fh_len, PG_NF_DIR);
		break;
	case OP4_GETATTR:
		/* bitmap4 is a counted array: its words are the reducible part */
		bitmap2(c, GA_W0 | (op->len ? GA_ACL : 0), GA_W1);
		pg_bulk_add(&out->call, c->len - 8, 8);
		break;
	case OP4_CREATE_SESSION:
		pb_bytes(c, st->stateid_other, 8);   /* csa_clientid */
		pb_be32(c, 1);                        /* csa_sequence */
		pb_be32(c, CS_FLAGS);
		channel_attrs4(c, CS_FORE_MAXREQ, op->len ? op->len : CS_FORE_MAXRESP);
		channel_attrs4(c, CS_BACK_MAX, CS_BACK_MAX);
		pb_be32(c, PG_PROG_NFS_CB);          /* csa_cb_program */
		pb_be32(c, 1);                        /* csa_sec_parms<>: AUTH_NONE */
		pb_be32(c, 0);
		break;
	case OP4_GETFH:
	case OP4_READLINK:
		break;
	case OP4_BIND_CONN:
		pb_bytes(c, st->sessionid, 16);
		pb_be32(c, 7);          /* CDFC4_BACK_OR_BOTH */
		pb_xdr_bool(c, true);   /* use_conn_in_rdma_mode */
		break;
	case OP4_LOOKUP:
		pg_rand_name(r, name, op->len);
		pb_xdr_string(c, name);
		if (later_op(it, i + 1, OP4_READLINK, OP4_READLINK, OP4_READLINK))
			set_cur(cur, st->link_fh, st->link_fh_len, PG_NF_LNK);
		else if (later_op(it, i + 1, OP4_READDIR, OP4_CREATE, OP4_LOOKUP))
			set_cur(cur, st->dir_fh, st->dir_fh_len, PG_NF_DIR);
		else
			set_cur(cur, st->file_fh, st->file_fh_len, PG_NF_REG);
		break;
	case OP4_READ:
		io_stateid4(c, st, true);
		pb_be64(c, op->offset);
		pb_be32(c, op->count);
		break;
	case OP4_WRITE:
		io_stateid4(c, st, false);
		pb_be64(c, op->offset);
		pb_be32(c, 2); /* FILE_SYNC4 */
		data = pg_rand_data(r, op->len);
		pg_ddp_add(&out->call, pb_xdr_opaque(c, data, op->len), op->len, -1);
		g_free(data);
		break;
	case OP4_CREATE:
		pb_be32(c, PG_NF_LNK); /* NF4LNK */
		path = g_malloc(op->len + 1);
		pg_rand_path(r, path, op->len);
		pg_ddp_add(&out->call, pb_xdr_opaque(c, path, op->len), op->len, -1);
		g_free(path);
		pg_rand_name(r, name, pg_rng_range(r, 6, 20));
		pb_xdr_string(c, name);
		bitmap2(c, 0, 1u << 1); /* createattrs: mode */
		pb_be32(c, 4);
		pb_be32(c, 0777);
		set_cur(cur, st->link_fh, st->link_fh_len, PG_NF_LNK);
		break;
	case OP4_READDIR:
		pb_be64(c, 0);
		pb_zero(c, 8);
		/* dircount and maxcount of an empty READDIR4resok (cookieverf, no
		 * entry, eof); pg_nfs4_build sets them to the result's size */
		pb_be32(c, 16);
		pb_be32(c, 16);
		bitmap2(c, RD_W0, 0);
		break;
	default:
		pg_bug("NFSv4 op %u", op->op);
	}
}

/*
 * The READDIR args at args_at (after its op number) ask for no more than
 * the len-byte READDIR4resok the reply returns: the requester allocates
 * reply resources for the largest reply maxcount allows (RFC 8166 6.2,
 * RFC 7530 16.24), and the generator sizes them for the actual reply.
 */
static void readdir_count(GByteArray *c, size_t args_at, uint32_t len)
{
	pb_put_be32(c, args_at + 4 + 16, len);       /* dircount */
	pb_put_be32(c, args_at + 4 + 16 + 4, len);   /* maxcount */
}

/* Result of op i (only for executed ops). slot: its Write chunk ordinal. */
static void op_result(pg_nfs_state *st, const pg_item *it, guint i, int slot, pg_rng *r,
		      pg_rpc_pair *out, const curfh *cur)
{
	const pg_nfsop *op = &g_array_index(it->ops, pg_nfsop, i);
	GByteArray *y = out->reply.msg;
	uint64_t fid = st->fileid_base + pg_rng_range(r, 1, 5000);
	char name[256], *path;
	uint8_t *data;

	pb_be32(y, op->op);
	pb_be32(y, op->status);
	if (op->status != 0)
		return;
	switch (op->op) {
	case OP4_SEQUENCE:
		pb_bytes(y, st->sessionid, 16);
		pb_be32(y, st->seqid - 1);
		pb_be32(y, 0);
		pb_be32(y, 63);
		pb_be32(y, 63);
		pb_be32(y, 0); /* status flags */
		break;
	case OP4_GETATTR:
		fattr4_full(y, st, r, cur->type, cur->type == PG_NF_DIR ? 4096 : 1u << 20, fid, op->len);
		break;
	case OP4_CREATE_SESSION:   /* the server grants what was asked */
		pb_bytes(y, st->sessionid, 16);
		pb_be32(y, 1);
		pb_be32(y, CS_FLAGS);
		channel_attrs4(y, CS_FORE_MAXREQ, op->len ? op->len : CS_FORE_MAXRESP);
		channel_attrs4(y, CS_BACK_MAX, CS_BACK_MAX);
		break;
	case OP4_GETFH:
		pb_xdr_opaque(y, cur->fh, cur->fhlen);
		break;
	case OP4_BIND_CONN:
		pb_bytes(y, st->sessionid, 16);
		pb_be32(y, 3);          /* CDFS4_BOTH */
		pb_xdr_bool(y, true);
		break;
	case OP4_READ:
		pb_xdr_bool(y, op->eof);
		data = pg_rand_data(r, op->len);
		pg_ddp_add(&out->reply, pb_xdr_opaque(y, data, op->len), op->len, slot);
		g_free(data);
		break;
	case OP4_WRITE:
		pb_be32(y, op->len);
		pb_be32(y, 2);
		pb_bytes(y, st->verifier, 8);
		break;
	case OP4_READLINK:
		path = g_malloc(op->len + 1);
		pg_rand_path(r, path, op->len);
		pg_ddp_add(&out->reply, pb_xdr_opaque(y, path, op->len), op->len, slot);
		g_free(path);
		break;
	case OP4_CREATE:
		pb_xdr_bool(y, true); /* change_info4 */
		pb_be64(y, ((uint64_t)st->time_base << 32) | 7);
		pb_be64(y, ((uint64_t)st->time_base << 32) | 8);
		bitmap2(y, 0, 1u << 1);
		break;
	case OP4_READDIR:
		pb_bytes(y, st->verifier, 8);
		for (uint32_t k = 0; k < op->len; k++) {
			pb_xdr_bool(y, true);
			pb_be64(y, (uint64_t)(k + 3) * 0x200);
			pg_rand_name(r, name, pg_rng_range(r, 5, 24));
			pg_bulk_add(&out->reply, pb_xdr_opaque(y, name, (uint32_t)strlen(name)),
				    k ? 0 : (uint32_t)strlen(name));
			bitmap2(y, RD_W0, 0);
			pb_be32(y, 12);
			pb_be32(y, k % 5 == 0 ? PG_NF_DIR : PG_NF_REG);
			pb_be64(y, st->fileid_base + 1 + k);
		}
		pb_xdr_bool(y, false);
		pb_xdr_bool(y, op->eof);
		break;
	default: /* PUTFH, PUTROOTFH, LOOKUP: status only */
		break;
	}
}

void pg_nfs4_build(pg_nfs_state *st, const pg_item *it, pg_rng *r, pg_rpc_pair *out)
{
	GByteArray *c = out->call.msg, *y = out->reply.msg;
	size_t status_at, count_at;
	uint32_t nres = 0, last = 0;
	int slot = 0;
	bool stopped = false;
	curfh cur = { st->root_fh, st->root_fh_len, PG_NF_DIR };

	out->opnames = g_ptr_array_new();
	pb_be32(c, 0); /* tag<> */
	out->minorversion_off = c->len;
	pb_be32(c, (uint32_t)(it->nfsver - PG_V40));
	pb_be32(c, it->ops->len);
	status_at = y->len;
	pb_be32(y, 0);
	pb_be32(y, 0); /* tag<> */
	count_at = y->len;
	pb_be32(y, 0);
	for (guint i = 0; i < it->ops->len; i++) {
		const pg_nfsop *op = &g_array_index(it->ops, pg_nfsop, i);
		bool ddp_res = op->op == OP4_READ || op->op == OP4_READLINK;
		g_ptr_array_add(out->opnames, (gpointer)pg_nfs_opname(it->nfsver, false, op->op));
		size_t args_at = c->len, res_at = y->len;
		op_args(st, it, i, r, out, &cur);
		if (ddp_res) {
			uint32_t max = op->op == OP4_READ ? op->count : PG_MAX_PATH;
			pg_slot_add(out, max, stopped ? PG_SLOT_NOT_RUN
					     : op->status ? PG_SLOT_FAILED : PG_SLOT_DATA);
		}
		if (!stopped) {
			/* An operation that fails ends the COMPOUND (RFC 8881 16.2.3);
			 * later READs still own their Write chunks, which then come
			 * back empty (RFC 8267 6.4.1). */
			op_result(st, it, i, ddp_res ? slot : -1, r, out, &cur);
			if (op->op == OP4_READDIR && !op->status)
				readdir_count(c, args_at, (uint32_t)(y->len - res_at - 8));
			nres++;
			last = op->status;
			stopped = op->status != 0;
		}
		if (ddp_res)
			slot++;
	}
	pb_put_be32(y, status_at, last);
	pb_put_be32(y, count_at, nres);
	out->reply_nops = nres;
}

void pg_nfs4_cb_build(pg_nfs_state *st, const pg_item *it, pg_rng *r, pg_rpc_pair *out)
{
	GByteArray *c = out->call.msg, *y = out->reply.msg;
	size_t status_at, count_at;
	uint32_t nres = 0, last = 0;
	bool stopped = false;

	out->opnames = g_ptr_array_new();
	pb_be32(c, 0); /* tag<> */
	pb_be32(c, (uint32_t)(it->nfsver - PG_V40));
	/* callback_ident: the one the 4.0 client gave in SETCLIENTID; unused in 4.1 */
	pb_be32(c, it->nfsver == PG_V40 ? 1 : 0);
	pb_be32(c, it->ops->len);
	status_at = y->len;
	pb_be32(y, 0);
	pb_be32(y, 0);
	count_at = y->len;
	pb_be32(y, 0);
	for (guint i = 0; i < it->ops->len; i++) {
		const pg_nfsop *op = &g_array_index(it->ops, pg_nfsop, i);
		g_ptr_array_add(out->opnames, (gpointer)pg_nfs_opname(it->nfsver, true, op->op));
		pb_be32(c, op->op);
		switch (op->op) {
		case CB_SEQUENCE:
			pb_bytes(c, st->sessionid, 16);
			pb_be32(c, st->cb_seqid++);
			pb_be32(c, 0);
			pb_be32(c, 0);
			pb_xdr_bool(c, false);
			pb_be32(c, 0); /* referring_call_lists<> */
			break;
		case CB_RECALL:
			stateid4(c, st);
			pb_xdr_bool(c, false);
			pg_bulk_add(&out->call, pb_xdr_opaque(c, st->file_fh, st->file_fh_len),
				    st->file_fh_len);
			break;
		case CB_GETATTR:
			pb_xdr_opaque(c, st->file_fh, st->file_fh_len);
			bitmap2(c, (1u << 3) | (1u << 4), 0);
			break;
		default:
			pg_bug("callback op %u", op->op);
		}
		if (stopped)
			continue;
		pb_be32(y, op->op);
		pb_be32(y, op->status);
		nres++;
		last = op->status;
		stopped = op->status != 0;
		if (stopped)
			continue;
		if (op->op == CB_SEQUENCE) {
			pb_bytes(y, st->sessionid, 16);
			pb_be32(y, st->cb_seqid - 1);
			pb_be32(y, 0);
			pb_be32(y, 0);
			pb_be32(y, 0);
		} else if (op->op == CB_GETATTR) {
			bitmap2(y, (1u << 3) | (1u << 4), 0);
			pb_be32(y, 16);
			pb_be64(y, ((uint64_t)st->time_base << 32) | pg_rng_u32(r));
			pb_be64(y, 1u << 20);
		}
	}
	pb_put_be32(y, status_at, last);
	pb_put_be32(y, count_at, nres);
	out->reply_nops = nres;
}
