// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * conv.c - RPC-over-RDMA connections as Wireshark conversations:
 *  - Statistics > Conversations > RPC-over-RDMA, `tshark -z conv,rpcrdma`
 *    (and Endpoints, `-z endpoints,rpcrdma`);
 *  - Conversation Filter > RPC-over-RDMA (and Colorize Conversation):
 *    `rpcrdma.conn == N` for the connection of the selected packet.
 *
 * A row is one connection as the engine numbers it (rpcrdma.conn), which
 * holds without the RDMA-CM handshake, where the InfiniBand layer cannot
 * pair a connection's two directions.  Several connections between the
 * same two hosts stay apart: the connection number is the row's key, and
 * is shown in the Port columns, whose filter field is rpcrdma.conn.
 *
 * What is counted comes from the "rpcrdma" tap, one record per message
 * rebuilt: a message goes from the host that sent it (the frame that
 * completed it has that source) and counts its frames (the Sends and RDMA
 * operations that carried its bytes) and its bytes by the engine's
 * measure (inline + DDP + Long, as ulb-lint --summary counts them).
 */
#include "ws_compat.h"

#include <epan/packet.h>
#include <epan/conversation_filter.h>
#include <epan/conversation_table.h>
#include <epan/tap.h>

#include "rpcrdma_plugin.h"

static const char *addr_field(const address *a, conv_filter_type_e filter)
{
	bool v6 = a->type == AT_IPv6;

	if (a->type != AT_IPv4 && !v6)
		return CONV_FILTER_INVALID;
	switch (filter) {
	case CONV_FT_SRC_ADDRESS:
		return v6 ? "ipv6.src" : "ip.src";
	case CONV_FT_DST_ADDRESS:
		return v6 ? "ipv6.dst" : "ip.dst";
	case CONV_FT_ANY_ADDRESS:
		return v6 ? "ipv6.addr" : "ip.addr";
	default:
		/* The "port" of a row is the connection number. */
		return "rpcrdma.conn";
	}
}

static const char *conv_filter_type(conv_item_t *item, conv_filter_type_e filter)
{
	return addr_field(&item->src_address, filter);
}

static const char *endpoint_filter_type(endpoint_item_t *item, conv_filter_type_e filter)
{
	return addr_field(&item->myaddress, filter);
}

static ct_dissector_info_t conv_info = { &conv_filter_type };
static et_dissector_info_t endpoint_info = { &endpoint_filter_type };

/* A message's frames and bytes: int, as the conversation table takes them. */
static void msg_counts(const struct rrp_msg *m, int *frames, int *bytes)
{
	uint64_t b = m->v.inline_bytes + m->v.ddp_bytes + m->v.long_bytes;

	*frames = (int)MIN(m->n_frames ? m->n_frames : 1u, (unsigned)G_MAXINT);
	*bytes = (int)MIN(b, (uint64_t)G_MAXINT);
}

static tap_packet_status conv_packet(void *pct, packet_info *pinfo, epan_dissect_t *edt, const void *vip,
				     tap_flags_t flags)
{
	conv_hash_t *hash = pct;
	const struct rrp_msg *m = ((const struct rrp_tap_info *)vip)->msg;
	int frames, bytes;

	(void)edt;
	hash->flags = flags;
	msg_counts(m, &frames, &bytes);
	add_conversation_table_data_with_conv_id(hash, &pinfo->src, &pinfo->dst, m->v.conn_id, m->v.conn_id,
						 (conv_id_t)m->v.conn_id, frames, bytes, &pinfo->rel_ts,
						 &pinfo->abs_ts, &conv_info, CONVERSATION_NONE);
	return TAP_PACKET_REDRAW;
}

static tap_packet_status endpoint_packet(void *pit, packet_info *pinfo, epan_dissect_t *edt, const void *vip,
					 tap_flags_t flags)
{
	conv_hash_t *hash = pit;
	const struct rrp_msg *m = ((const struct rrp_tap_info *)vip)->msg;
	int frames, bytes;

	(void)edt;
	hash->flags = flags;
	msg_counts(m, &frames, &bytes);
	add_endpoint_table_data(hash, &pinfo->src, m->v.conn_id, TRUE, frames, bytes, &endpoint_info,
				ENDPOINT_NONE);
	add_endpoint_table_data(hash, &pinfo->dst, m->v.conn_id, FALSE, frames, bytes, &endpoint_info,
				ENDPOINT_NONE);
	return TAP_PACKET_REDRAW;
}

/* The connection a frame belongs to: of what it completed, carried or was named in. */
static bool frame_conn(const packet_info *pinfo, uint32_t *conn)
{
	const struct rrp_frame *fr = rrp_frame_get(pinfo->num);

	if (!fr)
		return false;
	FOR_EACH(fr->msgs, const struct rrp_msg *, m) {
		*conn = m->v.conn_id;
		return true;
	}
	FOR_EACH(fr->sends_done, const struct rrp_send *, s) {
		*conn = s->conn_id;
		return true;
	}
	FOR_EACH(fr->part_sends, const struct rrp_send *, s) {
		*conn = s->conn_id;
		return true;
	}
	FOR_EACH(fr->part_msgs, const struct rrp_msg *, m) {
		*conn = m->v.conn_id;
		return true;
	}
	FOR_EACH(fr->carries, const struct rrp_carry *, c) {
		*conn = c->conn_id;
		return true;
	}
	return false;
}

/* The conversation filter's callbacks: since 4.2 they take user data and return bool. */
#if RRP_WS_AT_LEAST(4, 2)
#define RRP_FILTER_ARGS packet_info *pinfo, void *user_data
#define RRP_FILTER_UNUSED (void)user_data
#define RRP_FILTER_REGISTER(v, b) register_conversation_filter("rpcrdma", "RPC-over-RDMA", v, b, NULL)
#else
#define RRP_FILTER_ARGS packet_info *pinfo
#define RRP_FILTER_UNUSED ((void)0)
#define RRP_FILTER_REGISTER(v, b) register_conversation_filter("rpcrdma", "RPC-over-RDMA", v, b)
#endif

static rrp_bool conn_filter_valid(RRP_FILTER_ARGS)
{
	uint32_t conn;

	RRP_FILTER_UNUSED;
	return frame_conn(pinfo, &conn);
}

static gchar *conn_filter_build(RRP_FILTER_ARGS)
{
	uint32_t conn;

	RRP_FILTER_UNUSED;
	if (!frame_conn(pinfo, &conn))
		return NULL;
	return g_strdup_printf("rpcrdma.conn == %u", conn);
}

void rrp_conv_register(void)
{
	register_conversation_table(proto_rpcrdma, FALSE, conv_packet, endpoint_packet);
	RRP_FILTER_REGISTER(conn_filter_valid, conn_filter_build);
}
