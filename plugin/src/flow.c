// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * flow.c - the Flow Graph of RPC-over-RDMA: Statistics > Flow Graph, flow
 * type RPC-over-RDMA, and `tshark -z flow,rpcrdma,standard|network[,FILTER]`.
 *
 * One arrow per frame the plugin drew (the "rpcrdma.frame" tap), between
 * the frame's two addresses, labelled with what the engine found in it:
 * the messages rebuilt there ("NFS v3 READ call XID 0x1faab4aa"), the
 * Sends it completed or was a packet of, and the RDMA operations it
 * carried ("RDMA Write 4096 B write[0] seg 0 @0x1000").  The comment (the
 * graph's right column) names the connection and the findings.
 */
#include "ws_compat.h"

#include <inttypes.h>
#include <string.h>

#include <epan/tap.h>

#include "rpcrdma_plugin.h"
#include "rpcrdma/hdr.h"

/*
 * Wireshark 4.0 exports the sequence analysis API from libwireshark but
 * does not install its header.  Where the header is installed it is used;
 * on 4.0 the declarations below are the ones libwireshark 4.0 was built
 * with (only the leading members of seq_analysis_info_t are named: the
 * plugin never allocates one).  Elsewhere the Flow Graph is left out.
 */
#if defined(__has_include)
#if __has_include(<epan/sequence_analysis.h>)
#include <epan/sequence_analysis.h>
#define RRP_HAVE_FLOW 1
#endif
#endif
#if !defined(RRP_HAVE_FLOW) && WIRESHARK_VERSION_MAJOR == 4 && WIRESHARK_VERSION_MINOR == 0
#define RRP_HAVE_FLOW 1
typedef struct _seq_analysis_item {
	guint32 frame_number;
	address src_addr;
	guint16 port_src;
	address dst_addr;
	guint16 port_dst;
	gchar *frame_label;
	gchar *time_str;
	gchar *comment;
	guint16 conv_num;
	unsigned fg_color;
	unsigned bg_color;
	gboolean has_color_filter;
	gboolean display;
	guint src_node;
	guint dst_node;
	guint16 line_style;
	guint32 info_type;
	gpointer info_ptr;
} seq_analysis_item_t;
typedef struct _seq_analysis_info {
	const char *name;
	gboolean any_addr;
	int nconv;
	GQueue *items;
} seq_analysis_info_t;
WS_DLL_PUBLIC void register_seq_analysis(const char *name, const char *ui_name, const int proto_id,
					 const char *tap_listener, guint tap_flags, tap_packet_cb tap_func);
WS_DLL_PUBLIC seq_analysis_item_t *sequence_analysis_create_sai_with_addresses(packet_info *pinfo,
									       seq_analysis_info_t *sainfo);
WS_DLL_PUBLIC void sequence_analysis_use_color_filter(packet_info *pinfo, seq_analysis_item_t *sai);
#endif

#ifdef RRP_HAVE_FLOW

static void sep(GString *s)
{
	if (s->len)
		g_string_append(s, "; ");
}

/* "RDMA Write 4096 B write[0] seg 0 @0x1000", or "... R_Key 0x.. (no segment advertised)". */
static void carry_label(GString *s, const struct rrp_carry *c)
{
	char role[24];

	sep(s);
	g_string_append_printf(s, "%s %" PRIu64 " B", rrp_carry_op_name(c->op), c->len);
	if (!c->hit) {
		g_string_append_printf(s, " handle 0x%08x (no segment advertised)", c->handle);
		return;
	}
	rrp_role_text(role, sizeof(role), c->role, c->chunk);
	g_string_append_printf(s, " %s seg %u @0x%" PRIx64 " XID 0x%08x", role, c->seg, c->seg_offset, c->xid);
}

static void msg_label(GString *s, const struct rrp_msg *m)
{
	sep(s);
	g_string_append_printf(s, "%s %s%s XID 0x%08x", m->v.op, m->v.backchannel ? "backchannel " : "",
			       m->v.dir == RR_DIR_CALL ? "call" : "reply", m->v.xid);
}

/* A Send whose message is not rebuilt in this frame (its read chunk still to come, or not RPC). */
static void send_label(GString *s, const struct rrp_send *snd, const struct rrp_frame *fr, bool last)
{
	FOR_EACH(fr->msgs, const struct rrp_msg *, m)
		if (last && m->v.xid == snd->xid && (m->v.dir == RR_DIR_CALL) == snd->is_call)
			return;
	sep(s);
	g_string_append_printf(s, "%s %s XID 0x%08x", rr_hdr_proc_name(snd->proc), snd->is_call ? "call" : "reply",
			       snd->xid);
	if (!last)
		g_string_append_printf(s, " (packet of the Send completed in frame %u)", snd->last);
	else if (snd->is_call && !fr->msgs)
		g_string_append(s, " (Send)");
}

static void comment_of(GString *c, const struct rrp_frame *fr)
{
	unsigned n[3] = { 0, 0, 0 };

	FOR_EACH(fr->msgs, const struct rrp_msg *, m) {
		if (!c->len)
			g_string_append_printf(c, "connection %u: %s", m->v.conn_id, m->conn_name ? m->conn_name : "?");
	}
	FOR_EACH(fr->findings, const struct rrp_finding *, f) {
		if (f->severity == RR_SEV_ERROR)
			n[0]++;
		else if (f->severity == RR_SEV_WARNING)
			n[1]++;
		else
			n[2]++;
	}
	if (n[0] || n[1] || n[2]) {
		sep(c);
		g_string_append_printf(c, "findings: %u error, %u warning, %u other", n[0], n[1], n[2]);
	}
}

static tap_packet_status flow_packet(void *ptr, packet_info *pinfo, epan_dissect_t *edt, const void *data,
				     tap_flags_t flags)
{
	seq_analysis_info_t *sainfo = ptr;
	const struct rrp_frame *fr = ((const struct rrp_frame_tap *)data)->fr;
	seq_analysis_item_t *sai;
	GString *label, *comment;

	(void)edt;
	(void)flags;
	if (!fr || !(sai = sequence_analysis_create_sai_with_addresses(pinfo, sainfo)))
		return TAP_PACKET_DONT_REDRAW;
	label = g_string_new(NULL);
	comment = g_string_new(NULL);
	FOR_EACH(fr->msgs, const struct rrp_msg *, m)
		msg_label(label, m);
	FOR_EACH(fr->sends_done, const struct rrp_send *, s)
		send_label(label, s, fr, true);
	FOR_EACH(fr->carries, const struct rrp_carry *, c)
		carry_label(label, c);
	FOR_EACH(fr->part_sends, const struct rrp_send *, s)
		send_label(label, s, fr, false);
	if (!label->len)
		g_string_append(label, "RPC-over-RDMA");
	comment_of(comment, fr);
	sai->frame_number = pinfo->num;
	sai->port_src = (guint16)pinfo->srcport;
	sai->port_dst = (guint16)pinfo->destport;
	sai->frame_label = g_string_free(label, FALSE);
	sai->comment = g_string_free(comment, FALSE);
	sequence_analysis_use_color_filter(pinfo, sai);
	sai->line_style = 1;
	sai->display = TRUE;
	g_queue_push_tail(sainfo->items, sai);
	return TAP_PACKET_REDRAW;
}

void rrp_flow_register(void)
{
	register_seq_analysis("rpcrdma", "RPC-over-RDMA", proto_rpcrdma, "rpcrdma.frame", 0, flow_packet);
}

#else

/* This Wireshark installs no sequence analysis header: no Flow Graph (see above). */
void rrp_flow_register(void)
{
}

#endif
