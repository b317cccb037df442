// SPDX-License-Identifier: GPL-2.0-or-later
/* What the NFSv3 and NFSv4 encoders (pg_nfs.c, pg_nfs4.c) share: the
 * session state, RPC call and reply headers (RFC 5531), invented names and
 * data, the bookkeeping of items and Write chunk slots, and a pair's end. */
#include "pg_nfs.h"

#include "pg_buf.h"

#include <stdio.h>
#include <string.h>

static const char *const words[] = {
	"alpha", "bravo", "cedar", "delta", "ember", "fjord", "gamma", "harbor", "iris",
	"juniper", "kelp", "lumen", "maple", "nectar", "onyx", "pebble", "quartz", "raven",
	"sierra", "tundra", "umber", "vortex", "willow", "xenon", "yarrow", "zephyr",
};

void pg_nfs_state_init(pg_nfs_state *st, uint64_t seed)
{
	memset(st, 0, sizeof(*st));
	st->rng = pg_rng_derive(seed, 0x4e4653, 0);
	/* Linux knfsd style: fh version 1, auth type 0, fsid type, fileid type */
	const uint8_t hdr[4] = { 0x01, 0x00, 0x07, 0x01 };
	st->root_fh_len = 16;
	st->dir_fh_len = st->file_fh_len = st->link_fh_len = 28;
	memcpy(st->root_fh, hdr, 4);
	pg_rng_fill(&st->rng, st->root_fh + 4, st->root_fh_len - 4);
	memcpy(st->dir_fh, hdr, 4);
	pg_rng_fill(&st->rng, st->dir_fh + 4, st->dir_fh_len - 4);
	memcpy(st->file_fh, st->dir_fh, 12);
	pg_rng_fill(&st->rng, st->file_fh + 12, st->file_fh_len - 12);
	memcpy(st->link_fh, st->dir_fh, 12);
	pg_rng_fill(&st->rng, st->link_fh + 12, st->link_fh_len - 12);
	pg_rng_fill(&st->rng, st->sessionid, sizeof(st->sessionid));
	pg_rng_fill(&st->rng, st->stateid_other, sizeof(st->stateid_other));
	pg_rng_fill(&st->rng, st->verifier, sizeof(st->verifier));
	st->seqid = pg_rng_range(&st->rng, 1, 5000);
	st->cb_seqid = 1;
	st->fileid_base = 0x100000 + pg_rng_range(&st->rng, 0, 0xfffff);
	st->time_base = 1600000000u + pg_rng_range(&st->rng, 0, 90000000u);
	snprintf(st->machine, sizeof(st->machine), "client-%s%u",
		 words[pg_rng_range(&st->rng, 0, G_N_ELEMENTS(words) - 1)],
		 pg_rng_range(&st->rng, 1, 99));
}

void pg_rpc_call_hdr(GByteArray *b, const pg_nfs_state *st, uint32_t xid, uint32_t prog,
		     uint32_t vers, uint32_t proc, bool auth_sys)
{
	pb_be32(b, xid);
	pb_be32(b, 0); /* CALL */
	pb_be32(b, 2); /* RPC version */
	pb_be32(b, prog);
	pb_be32(b, vers);
	pb_be32(b, proc);
	if (auth_sys) {
		GByteArray *c = g_byte_array_new();
		pb_be32(c, st->time_base); /* stamp */
		pb_xdr_string(c, st->machine);
		pb_be32(c, 1000); /* uid */
		pb_be32(c, 1000); /* gid */
		pb_be32(c, 2);    /* gids<16> */
		pb_be32(c, 1000);
		pb_be32(c, 27);
		pb_be32(b, 1); /* AUTH_SYS */
		pb_xdr_opaque(b, c->data, c->len);
		g_byte_array_free(c, TRUE);
	} else {
		pb_be32(b, 0);
		pb_be32(b, 0);
	}
	pb_be32(b, 0); /* verifier AUTH_NONE */
	pb_be32(b, 0);
}

void pg_rpc_reply_hdr(GByteArray *b, uint32_t xid)
{
	pb_be32(b, xid);
	pb_be32(b, 1); /* REPLY */
	pb_be32(b, 0); /* MSG_ACCEPTED */
	pb_be32(b, 0); /* verifier AUTH_NONE */
	pb_be32(b, 0);
	pb_be32(b, 0); /* SUCCESS */
}

void pg_rand_name(pg_rng *r, char *out, uint32_t len)
{
	static const char cs[] = "abcdefghijklmnopqrstuvwxyz0123456789_-.";
	const char *w = words[pg_rng_range(r, 0, G_N_ELEMENTS(words) - 1)];
	uint32_t i = 0;
	for (; i < len && w[i]; i++)
		out[i] = w[i];
	for (; i < len; i++)
		out[i] = cs[pg_rng_range(r, 0, sizeof(cs) - 2)];
	out[len] = '\0';
}

/* Symlink text: directory-like components so a misplaced byte is visible. */
void pg_rand_path(pg_rng *r, char *out, uint32_t len)
{
	uint32_t i = 0;
	if (len >= 3) {
		memcpy(out, "../", 3);
		i = 3;
	}
	while (i < len) {
		uint32_t n = pg_rng_range(r, 3, 12);
		if (n > len - i)
			n = len - i;
		pg_rand_name(r, out + i, n);
		i += n;
		if (i < len)
			out[i++] = '/';
	}
	if (len && out[len - 1] == '/')
		out[len - 1] = 'z';
	out[len] = '\0';
}

uint8_t *pg_rand_data(pg_rng *r, uint32_t len)
{
	uint8_t *p = g_malloc(len ? len : 1);
	pg_rng_fill(r, p, len);
	return p;
}

void pg_ddp_add(pg_rpcmsg *m, size_t off, uint32_t len, int slot)
{
	pg_ddp d = { off, len, slot };
	g_array_append_val(m->ddp, d);
}

void pg_bulk_add(pg_rpcmsg *m, size_t off, uint32_t len)
{
	pg_ddp d = { off, len, -1 };
	if (len)
		g_array_append_val(m->bulk, d);
}

void pg_slot_add(pg_rpc_pair *out, uint32_t max, int state)
{
	g_array_append_val(out->slots, max);
	g_array_append_val(out->slot_state, state);
}

void pg_rpc_pair_clear(pg_rpc_pair *p)
{
	if (p->call.msg)
		g_byte_array_free(p->call.msg, TRUE);
	if (p->reply.msg)
		g_byte_array_free(p->reply.msg, TRUE);
	if (p->call.ddp)
		g_array_free(p->call.ddp, TRUE);
	if (p->reply.ddp)
		g_array_free(p->reply.ddp, TRUE);
	if (p->call.bulk)
		g_array_free(p->call.bulk, TRUE);
	if (p->reply.bulk)
		g_array_free(p->reply.bulk, TRUE);
	if (p->slot_state)
		g_array_free(p->slot_state, TRUE);
	if (p->slots)
		g_array_free(p->slots, TRUE);
	if (p->opnames)
		g_ptr_array_free(p->opnames, TRUE);
	memset(p, 0, sizeof(*p));
}
