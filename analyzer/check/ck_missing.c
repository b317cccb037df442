// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A reply whose results stop decoding inside a DDP-eligible result: the
 * walker names the item (rr_ulp_info.stop_item), its length word or the
 * bytes that word counts are missing.  RFC 8267 §6.4.1 says where such a
 * result goes: through the Write chunk it pairs with (the n-th chunk for the
 * n-th READ-class op) when that chunk was offered non-empty, inline
 * otherwise.  So a result that is in neither place breaks the responder
 * rule of the chunk the call offered for it, and the finding names that
 * chunk (or the missing one) instead of a walk that "does not decode".
 * Only when the paired chunk was written and the data still did not land
 * at the item is there no such explanation (RR-032 names the chunk then).
 * An NFSv2/v3 READ or READLINK result pairs with Write chunk 0 the same
 * way (RFC 8267 §4.2); left out of a non-empty one it is RR-080's.
 */
#include <stdio.h>

#include "check_int.h"

static bool nfs4_compound_reply(const struct rr_message *m)
{
	uint32_t p, v, pr;

	return ck_prog(m, &p, &v, &pr) && p == RR_NFS_PROGRAM && v == 4 && pr == 1;
}

/* Did the reply return Write chunk k with data in it? */
static bool chunk_returned_used(const struct rr_message *m, uint32_t k)
{
	return k < m->hdr->n_write_chunks && rr_chunk_length(m->hdr, &m->hdr->writes[k]);
}

/* An NFSv2/v3 READ or READLINK reply: its one eligible result pairs with Write chunk 0 (RFC 8267 §4.2). */
static bool nfs23_read_reply(const struct rr_message *m)
{
	uint32_t p, v, pr;

	return ck_prog(m, &p, &v, &pr) && p == RR_NFS_PROGRAM && (v == 2 || v == 3) &&
	       (pr == RR_NFS3_PROC_READ || pr == RR_NFS3_PROC_READLINK) && m->ulp.stop_item.op == pr;
}

bool ck_missing_result(const struct rr_message *m, struct ck_missing *out)
{
	const struct rr_ulp_stop_item *s = &m->ulp.stop_item;
	const struct rr_hdr *c = m->call_hdr;
	uint32_t k;

	out->rule = RR_RULE_COUNT;
	if (m->dir != RR_DIR_REPLY || !c || m->hdr->proc == RR_RDMA_ERROR || m->backchannel ||
	    !ck_reply_ok(m) || m->ulp_result != RR_ULP_MALFORMED || !m->complete || m->capture_loss ||
	    m->call_capture_loss || !s->set)
		return false;
	out->stop = *s;
	out->offered = c->n_write_chunks;
	/*
	 * RFC 8166 §4.3.2: with a non-empty Write chunk offered, the responder
	 * pushes the result into it; without one the result is inline, and a
	 * reply that lacks it there is only malformed (ENG-ULP).
	 */
	if (nfs23_read_reply(m)) {
		out->stop.ordinal = 0;
		if (c->n_write_chunks && rr_chunk_length(c, &c->writes[0]) && !chunk_returned_used(m, 0))
			out->rule = RR_080_DDP_RESULT;
		return out->rule != RR_RULE_COUNT;
	}
	if (!nfs4_compound_reply(m) || (s->op != RR_NFS4_OP_READ && s->op != RR_NFS4_OP_READLINK))
		return false;
	k = s->ordinal;
	if (!c->n_write_chunks)
		out->rule = RR_160_EMPTY_LIST_INLINE;
	else if (k >= c->n_write_chunks)
		out->rule = RR_165_EXTRA_OPS_INLINE;
	else if (!rr_chunk_length(c, &c->writes[k]))
		out->rule = RR_163_EMPTY_CHUNK_INLINE;
	else if (!chunk_returned_used(m, k))
		out->rule = RR_162_NONEMPTY_BY_CHUNK;
	return out->rule != RR_RULE_COUNT;
}

/* Where the result ran out: the first sentence's tail. */
static void where_it_ends(const struct rr_ulp_stop_item *s, char *buf, size_t len)
{
	size_t end = s->pos + s->left;

	if (s->length == UINT32_MAX)
		snprintf(buf, len, "the reply ends at byte %zu, where its length word was expected", end);
	else if (s->left <= 4)
		snprintf(buf, len, "the reply ends at byte %zu, right after its length word (%u bytes)", end,
			 s->length);
	else
		snprintf(buf, len, "its length word says %u bytes, but the reply ends %zu bytes later, at byte %zu",
			 s->length, s->left - 4, end);
}

bool ck_report_missing(struct rr_checker *ck, const struct rr_fact *f, enum rr_rule_id rule)
{
	const struct rr_message *m = f->msg;
	const char *op;
	struct ck_missing x;
	char where[128], why[160];
	unsigned n;

	if (!ck_missing_result(m, &x) || x.rule != rule)
		return false;
	if (rule == RR_080_DDP_RESULT) {
		where_it_ends(&x.stop, where, sizeof(where));
		ck_report(ck, f, rule, m->send_frame,
			  "reply XID 0x%08x: the %s data is neither in Write chunk 0 nor inline: %s. The call "
			  "offered Write chunk 0 non-empty for it, yet it comes back unused", m->xid,
			  rr_nfs3_proc_name(x.stop.op), where);
		return true;
	}
	op = rr_nfs4_op_name(x.stop.op);
	n = x.stop.ordinal + 1;
	where_it_ends(&x.stop, where, sizeof(where));
	switch (rule) {
	case RR_160_EMPTY_LIST_INLINE:
		snprintf(why, sizeof(why), "The call offered no Write chunk, so every eligible result returns inline");
		break;
	case RR_165_EXTRA_OPS_INLINE:
		snprintf(why, sizeof(why), "The call offered %u Write chunk%s, so %s #%u pairs with none and returns its "
			 "result inline", x.offered, x.offered == 1 ? "" : "s", op, n);
		break;
	case RR_163_EMPTY_CHUNK_INLINE:
		snprintf(why, sizeof(why), "Write chunk %u, which pairs with it, was offered empty, so its result "
			 "returns inline", x.stop.ordinal);
		break;
	default:
		snprintf(why, sizeof(why), "Write chunk %u was offered non-empty for it, yet comes back unused",
			 x.stop.ordinal);
		break;
	}
	ck_report(ck, f, rule, m->send_frame,
		  "reply XID 0x%08x: the result of %s #%u is neither in a Write chunk nor inline: %s. %s "
		  "(READ-class ops are counted in COMPOUND order)", m->xid, op, n, where, why);
	return true;
}

void ck_rr165(struct rr_checker *ck, const struct rr_fact *f)
{
	ck_report_missing(ck, f, RR_165_EXTRA_OPS_INLINE);
}

void ck_skip_walk(struct rr_checker *ck, const struct rr_message *m, enum rr_rule_id rule)
{
	struct ck_missing x;

	if (m->capture_loss || m->call_capture_loss)
		ck_skip_why(ck, rule, RR_SKIP_NOT_CAPTURED);
	else if (ck_missing_result(m, &x) || m->placement_broken || !m->complete || !m->has_rpc)
		ck_skip_why(ck, rule, RR_SKIP_UNDECODED);
	else
		ck_skip_why(ck, rule, RR_SKIP_NOT_UNDERSTOOD);
}
