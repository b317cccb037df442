// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * draw_frag.c - the frames a rebuilt message came from, shown the way
 * Wireshark shows a reassembly: "[3 Message fragments (5120 bytes): #5(120),
 * #6(4096), #7(904)]" with one child per frame.  The engine did the
 * rebuilding; this only tells, from what feed.c kept of each frame, how
 * many of the message's bytes the frame carried: its RDMA Writes or Read
 * Responses into the message's chunks (or a chunk segment it carried
 * alone), and its Send's inline bytes when the Send is that one packet.
 * A frame whose share is not known is listed without a count.
 */
#include "ws_compat.h"

#include <inttypes.h>

#include <glib.h>

#include <epan/packet.h>

#include "fields.h"
#include "rpcrdma_plugin.h"

/* Room for the list in the label: Wireshark cuts labels at ITEM_LABEL_LENGTH. */
#define LABEL_ROOM 200

/* Bytes of m that frame num carried; false when the frame tells no count. */
static bool frame_bytes(const struct rrp_msg *m, uint32_t num, uint64_t *out)
{
	const struct rrp_frame *fr = rrp_frame_get(num);
	bool call = m->v.dir == RR_DIR_CALL, known = false;
	uint64_t n = 0;
	unsigned i;

	if (!fr)
		return false;
	FOR_EACH(fr->carries, const struct rrp_carry *, c) {
		bool mine = c->hit && c->op != RR_CARRY_READ_REQ && c->xid == m->v.xid && c->conn_id == m->v.conn_id &&
			    (call ? c->role == RR_ROLE_READ : c->role == RR_ROLE_WRITE || c->role == RR_ROLE_REPLY);

		if (mine) {
			n += c->len;
			known = true;
		}
	}
	/* Without the frame's RDMA operations, a segment one frame carried whole still tells. */
	for (i = 0; !fr->carries && i < m->n_segs; i++)
		if (m->segs[i].n_frames == 1 && m->segs[i].frames[0] == num) {
			n += m->segs[i].s.bytes;
			known = true;
		}
	FOR_EACH(fr->sends_done, const struct rrp_send *, s)
		if (s->xid == m->v.xid && s->is_call == call && s->conn_id == m->v.conn_id && s->n_frames == 1) {
			n += m->v.inline_bytes;
			known = true;
		}
	*out = n;
	return known;
}

void rrp_draw_fragments(tvbuff_t *at, proto_tree *mtree, const struct rrp_msg *m)
{
	GString *label = g_string_new(NULL);
	proto_item *ti;
	proto_tree *t;
	unsigned i;
	uint64_t n;

	g_string_printf(label, "%u Message fragment%s (%u bytes): ", m->n_frames, m->n_frames == 1 ? "" : "s",
			m->payload_len);
	for (i = 0; i < m->n_frames; i++) {
		if (label->len > LABEL_ROOM) {
			g_string_append_printf(label, " and %u more", m->n_frames - i);
			break;
		}
		g_string_append_printf(label, "%s#%u", i ? ", " : "", m->frames[i]);
		if (frame_bytes(m, m->frames[i], &n))
			g_string_append_printf(label, "(%" PRIu64 ")", n);
	}
	ti = proto_tree_add_none_format(mtree, hf_rr_msg_fragments, at, 0, 0, "%s", label->str);
	g_string_free(label, TRUE);
	proto_item_set_generated(ti);
	t = proto_item_add_subtree(ti, ett_rr_fragments);
	for (i = 0; i < m->n_frames; i++) {
		proto_item *fi;

		if (frame_bytes(m, m->frames[i], &n))
			fi = proto_tree_add_uint_format(t, hf_rr_msg_frame, at, 0, 0, m->frames[i],
							"Frame: %u, %" PRIu64 " bytes", m->frames[i], n);
		else
			fi = proto_tree_add_uint_format(t, hf_rr_msg_frame, at, 0, 0, m->frames[i],
							"Frame: %u", m->frames[i]);
		proto_item_set_generated(fi);
	}
	proto_item_set_generated(proto_tree_add_uint(t, hf_rr_msg_fragment_count, at, 0, 0, m->n_frames));
}
