// SPDX-License-Identifier: GPL-2.0-or-later
#include "pg_inject.h"

#include "pg_scenario_priv.h"

#include <stdlib.h>
#include <string.h>

static uint32_t arg_u32(const pg_inj_ctx *c, uint32_t dflt)
{
	return c->arg ? (uint32_t)strtoul(c->arg, NULL, 0) : dflt;
}

/* rdma_vers other than 1 (RFC 8166 4.2.2 / ERR_VERS territory) */
static bool bad_vers(pg_inj_ctx *c)
{
	c->msg->vers = arg_u32(c, 2);
	return c->msg->vers != 1;
}

/* rdma_xid no longer mirrors the RPC XID (RFC 8166 4.1) */
static bool xid_mismatch(pg_inj_ctx *c)
{
	c->msg->xid ^= arg_u32(c, 0x00010000u);
	return true;
}

/* a read chunk Position that is not a multiple of 4 (RFC 8166 3.5.3) */
static bool unaligned_position(pg_inj_ctx *c)
{
	if (!c->is_call)
		return false;
	for (guint i = 0; i < c->msg->reads->len; i++) {
		pg_chunk *ch = c->msg->reads->pdata[i];
		if (ch->position) {
			ch->position += arg_u32(c, 2);
			return (ch->position & 3) != 0;
		}
	}
	return false;
}

/* responder changes the segment count of a returned Write chunk (8166 3.5.6) */
static bool segcount_changed(pg_inj_ctx *c)
{
	pg_chunk *ch;
	if (c->is_call || !c->msg->writes->len)
		return false;
	ch = c->msg->writes->pdata[0];
	if (ch->ret->len > 1) {
		g_array_set_size(ch->ret, ch->ret->len - 1);
	} else {
		pg_seg s = g_array_index(ch->segs, pg_seg, 0);
		s.length = 0;
		s.offset += 4096;
		g_array_append_val(ch->ret, s);
	}
	return true;
}

/* responder writes the XDR pad into a Write chunk (RFC 8166 3.5.4) */
static bool pad_written(pg_inj_ctx *c)
{
	if (c->is_call)
		return false;
	c->plan->write_pad = true;
	return true;
}

static bool pad_written_check(pg_inj_ctx *c)
{
	/* only a data item whose length is not a multiple of 4 has a pad */
	for (guint i = 0; i < c->msg->writes->len; i++) {
		const pg_chunk *ch = c->msg->writes->pdata[i];
		if (ch->data->len > ch->item_len)
			return true;
	}
	return false;
}

/* data returned inline although the requester offered a Write chunk
 * (RFC 8166 3.6, RFC 8267 5) */
static bool inline_despite_write(pg_inj_ctx *c)
{
	if (c->is_call)
		return false;
	c->plan->reply_inline_despite_write = true;
	return true;
}

static bool inline_despite_write_check(pg_inj_ctx *c)
{
	return c->msg->writes->len > 0;
}

static bool bad_icrc(pg_inj_ctx *c)
{
	if (c->s->link->iwarp)
		return false;
	c->op->bad_crc = arg_u32(c, 0xdeadbeefu);
	return c->op->bad_crc != 0;
}

static bool bad_mpa_crc(pg_inj_ctx *c)
{
	if (!c->s->link->iwarp || !c->s->link->mpa_crc)
		return false;
	c->op->bad_crc = arg_u32(c, 0x5a5a5a5au);
	return c->op->bad_crc != 0;
}

static bool truncate_snaplen(pg_inj_ctx *c)
{
	c->snap = arg_u32(c, 0);
	return c->snap > 0;
}

static const pg_injector table[] = {
	{ "bad-vers", false, "rdma_vers set to ARG (default 2)", NULL, bad_vers, NULL, NULL },
	{ "xid-mismatch", false, "rdma_xid XORed with ARG (default 0x10000)", NULL, xid_mismatch,
	  NULL, NULL },
	{ "unaligned-position", false, "first non-zero read chunk Position += ARG (default 2)",
	  NULL, unaligned_position, NULL, NULL },
	{ "segcount-changed", false, "reply's first Write chunk returns a different segment count",
	  NULL, segcount_changed, NULL, NULL },
	{ "pad-written", false, "responder RDMA-Writes the XDR pad into Write chunks", pad_written,
	  pad_written_check, NULL, NULL },
	{ "inline-despite-write", false, "reply carries the data inline and leaves the Write chunk "
	  "empty", inline_despite_write, inline_despite_write_check, NULL, NULL },
	{ "bad-icrc", false, "IB/RoCE: ICRC of the message's first Send packet XORed with ARG",
	  NULL, NULL, bad_icrc, NULL },
	{ "bad-mpa-crc", false, "iWARP with CRC: MPA CRC of the message's first FPDU XORed with ARG",
	  NULL, NULL, bad_mpa_crc, NULL },
	{ "truncate-snaplen", true, "frames carrying the message captured with only ARG bytes",
	  NULL, NULL, NULL, truncate_snaplen },
};

const pg_injector *pg_injector_find(const char *name)
{
	for (size_t i = 0; i < G_N_ELEMENTS(table); i++)
		if (!strcmp(table[i].name, name))
			return &table[i];
	return NULL;
}

const pg_injector *pg_injector_at(size_t i)
{
	return i < G_N_ELEMENTS(table) ? &table[i] : NULL;
}

bool pg_known_injector(const char *name, bool *needs_arg)
{
	const pg_injector *in = pg_injector_find(name);
	if (in)
		*needs_arg = in->needs_arg;
	return in != NULL;
}
