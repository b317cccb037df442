// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Checks of group Q (outcomes) and R (interop hazards).  An outcome is what
 * happened to one call across its attempts: sent as a Long Call or answered
 * through the Reply chunk, failed with an RPC or transport error, retried on
 * new connections.  It is told once, when the capture ends, as one finding
 * that names the chunk shape, then what the capture says for and against
 * each cause the failure could have (ck_outcome_evidence.c): a matching
 * interop hazard is offered as a possibility, never as the cause.
 */
#include <stdio.h>
#include <string.h>

#include "conn_state.h"
#include "ck_outcome.h"

static void shape(const struct ck_episode *ep, char *buf, size_t len)
{
	if (ep->long_call)
		snprintf(buf, len, "sent as a Long Call with a %u-segment Position-Zero read chunk", ep->pz_segs);
	else if (ep->long_reply)
		snprintf(buf, len, "answered through a %u-segment Reply chunk", ep->reply_chunk_segs);
	else if (ep->reply_chunk)
		snprintf(buf, len, "offering a %u-segment Reply chunk", ep->reply_chunk_segs);
	else
		snprintf(buf, len, "sent inline");
}

static void retries(const struct ck_episode *ep, char *buf, size_t len)
{
	if (ep->sends <= 1)
		snprintf(buf, len, "not retried");
	else if (ep->n_conns > 1)
		snprintf(buf, len, "retried with the same XID on %u new connection%s (%u attempts)", ep->n_conns - 1,
			 ep->n_conns > 2 ? "s" : "", ep->sends);
	else
		snprintf(buf, len, "sent %u times with the same XID", ep->sends);
}

static bool long_failure(const struct ck_episode *ep)
{
	return ep->failures && ep->fail_long;
}

static bool reconnect_loop(const struct ck_episode *ep)
{
	return ep->n_conns >= 3 && !ep->failures && !ep->successes;
}

/*
 * The finding's core sentence says what was asked and how it ended; the
 * retries and the evidence about the cause follow as sentences of their
 * own (rpcrdma/diag.h), so a viewer with short lines keeps the core whole.
 */
static void tell(struct rr_checker *ck, struct ck_episode *ep, enum rr_rule_id rule, const char *fmt_tail)
{
	char sh[96], re[96], out[160], why[400] = "";
	uint64_t also[CK_OUTCOME_ALSO], frames[CK_EPISODE_FRAMES + CK_OUTCOME_ALSO];
	unsigned n_also = 0;
	size_t n_frames;
	/* A call of no known program is described by its XID, which the sentence names anyway. */
	const char *what = ep->what[0] && strncmp(ep->what, "XID ", 4) ? ep->what : "a call";
	const struct ck_note *n = ck_outlog_note(ck_outlog(ck), ep->key);
	const char *again = ep->successes ? " before a later attempt succeeded" : ep->failures > 1 ? " every time" : "";

	shape(ep, sh, sizeof(sh));
	retries(ep, re, sizeof(re));
	re[0] = (char)g_ascii_toupper(re[0]);
	if (ep->failures && !strcmp(ep->failure, "GARBAGE_ARGS") && n)
		snprintf(out, sizeof(out), "the server rejected its %" G_GUINT64_FORMAT " bytes of arguments "
			 "(GARBAGE_ARGS)%s", n->size, again);
	else if (ep->failures && !strcmp(ep->failure, "GARBAGE_ARGS"))
		snprintf(out, sizeof(out), "the server rejected its arguments (GARBAGE_ARGS)%s", again);
	else if (ep->failures)
		snprintf(out, sizeof(out), "the server answered %s%s", ep->failure, again);
	else if (ep->successes)
		snprintf(out, sizeof(out), "a later attempt succeeded");
	else
		snprintf(out, sizeof(out), "no answer was seen");
	if (rule == RR_230_LONG_FAILED)
		ck_outcome_evidence(ck_outlog(ck), ep, why, sizeof(why), also, &n_also);
	for (unsigned i = 0; i < n_also; i++)
		ck_evidence(ck, also[i]);
	n_frames = ck_take_evidence(ck, ep->frames, ep->n_frames, frames, G_N_ELEMENTS(frames));
	ck_report_full(ck, rule, ep->fail_frame ? ep->fail_frame : ep->frames[ep->n_frames - 1], frames,
		       n_frames, ep->conn_id, true, ep->xid, "%s (XID 0x%08x) %s; %s. %s%s%s",
		       what, ep->xid, sh, out, re, fmt_tail, why);
}

static void each_episode(struct rr_checker *ck, const struct rr_fact *f, enum rr_rule_id rule)
{
	GList *l;

	ck_outlog_feed(ck, f);
	if (f->kind != RR_FACT_END)
		return;
	for (l = ck->episode_order.head; l; l = l->next) {
		struct ck_episode *ep = l->data;

		if (!ep->n_frames)
			continue;
		if (ep->uncertain) {
			ck_skip(ck, rule);
			continue;
		}
		switch (rule) {
		case RR_230_LONG_FAILED:
			if (long_failure(ep))
				tell(ck, ep, rule, "");
			break;
		case RR_119_RECONNECT_LOOP:
			if (reconnect_loop(ep))
				tell(ck, ep, rule, " (the responder should end the cycle with ERR_CHUNK)");
			break;
		case RR_231_RECONNECT_RETRY:
			/* A storm (RR-233) or a session replay (RR-234) tells it. */
			if (ep->n_conns > 1 && !long_failure(ep) && !reconnect_loop(ep) &&
			    !ck_outcome_in_storm(ck, ep) && !ck_outcome_is_replay(ck, ep))
				tell(ck, ep, rule, "");
			break;
		case RR_232_RETRY_RUN:
			if (ep->sends >= 3 && ep->n_conns == 1 && !long_failure(ep))
				tell(ck, ep, rule, "");
			break;
		default:
			break;
		}
	}
}

void ck_rr119(struct rr_checker *ck, const struct rr_fact *f) { each_episode(ck, f, RR_119_RECONNECT_LOOP); }
void ck_rr230(struct rr_checker *ck, const struct rr_fact *f) { each_episode(ck, f, RR_230_LONG_FAILED); }
void ck_rr231(struct rr_checker *ck, const struct rr_fact *f) { each_episode(ck, f, RR_231_RECONNECT_RETRY); }
void ck_rr232(struct rr_checker *ck, const struct rr_fact *f) { each_episode(ck, f, RR_232_RETRY_RUN); }

void ck_rr240(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = f->send;
	uint32_t n;

	if (s->status != RR_HDR_OK || !s->is_call || s->hdr->proc != RR_RDMA_NOMSG)
		return;
	n = ck_pz_segments(s->hdr);
	/* A resend of the same call is the same hazard: told at its first Send. */
	if (n > 1 && ck_send_dir(s) == 0) {
		struct ck_episode *ep = ck_episode_find(ck, ck_episode_key(&s->conn, s->hdr->xid));

		if (ep && ep->sends)
			return;
	}
	if (n > 1)
		ck_report(ck, f, RR_240_MULTISEG_PZRC, s->frame,
			  "Long Call XID 0x%08x has a %u-segment Position-Zero read chunk", s->hdr->xid, n);
}

void ck_rr241(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_fact_send *s = f->send;
	struct ck_rchunk rc[RR_HDR_MAX_SEGS];
	size_t n, i;

	if (s->status != RR_HDR_OK || !s->is_call)
		return;
	if (ck_conn(ck, s->conn_id)->reported_241)
		return;
	n = ck_read_chunks(s->hdr, s->hdr->proc == RR_RDMA_NOMSG, rc, G_N_ELEMENTS(rc));
	for (i = 0; i < n; i++)
		if (rc[i].n_segs > 1) {
			ck_conn(ck, s->conn_id)->reported_241 = true;
			ck_report(ck, f, RR_241_MULTISEG_POS, s->frame,
				  "call XID 0x%08x has %u segments at Position %u (told once per connection)",
				  s->hdr->xid, rc[i].n_segs, rc[i].position);
			return;
		}
}
