// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The check stage's dispatcher: the table of checks (expanded from
 * rules.def), profiles and enabling, and which checks each fact runs.
 * Findings go out through report.c.
 */
#include <string.h>

#include "conn_state.h"
#include "check_int.h"
#include "held.h"

/* Every check function, declared from the table. */
#define RR_RULE(sym, code, name, group, sev, sev5666, facts, check, ref, text, evidence, example) \
	void check(struct rr_checker *ck, const struct rr_fact *f);
#include "rpcrdma/rules.def"

static const rr_check_fn check_of[RR_RULE_COUNT] = {
#define RR_RULE(sym, code, name, group, sev, sev5666, facts, check, ref, text, evidence, example) [sym] = check,
#include "rpcrdma/rules.def"
};

void rr_check_default_opts(struct rr_check_opts *o)
{
	unsigned i;

	memset(o, 0, sizeof(*o));
	o->profile = RR_PROFILE_RFC8166;
	for (i = 0; i < RR_RULE_COUNT; i++)
		o->enabled[i] = true;
	o->credit_slack = 0;
}

/*
 * Checks that read nothing of a Send but its transport header, its wire
 * length and the state earlier headers built: they still run on a Send the
 * snaplen cut once its transport header was captured whole (a sampler
 * keeps the first 128 bytes of each frame).  The others need bytes past
 * the header and are skipped.
 */
static const enum rr_rule_id header_checks[] = {
	RR_001_VERS, RR_004_XID_DUP, RR_005_PROC, RR_020_XDR_BOOL, RR_021_NOMSG_EMPTY, RR_023_POS_ALIGN,
	RR_024_POS_RUNS, RR_025_POS_ORDER, RR_027_PZ_RUN, RR_028_MSG_PZRC, RR_029_REPLY_SEGS,
	RR_031_ZERO_SEG, RR_040_INLINE, RR_041_INLINE_DEFAULT, RR_048_NOMSG_NEEDS_RC, RR_090_NO_PAD_SEGMENT,
	RR_100_GRANT_ZERO, RR_101_BACK_CREDIT_ZERO, RR_102_CREDIT_LIMIT, RR_103_FIRST_CREDIT,
	RR_104_BACK_CREDIT_LIMIT, RR_106_CREDIT_CHANGES, RR_110_ERR_COPIES,
	RR_111_ERR_VERS, RR_117_BAD_ERR, RR_130_MSGP, RR_132_DONE, RR_210_HANDLE_REUSE,
	RR_240_MULTISEG_PZRC, RR_241_MULTISEG_POS,
	RR_051_ACCEPT_1024, RR_108_BACK_FIRST_CREDIT,
};

static bool is_header_check(enum rr_rule_id id)
{
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(header_checks); i++)
		if (header_checks[i] == id)
			return true;
	return false;
}

/*
 * Checks whose function, on a message fact of the other direction, returns
 * before it reads or changes any state: the first thing each tests of a
 * message (after the fact's kind) is m->dir, directly or through a helper
 * that tests it first (is_reply_with_call, reply_walked, check_unused,
 * check_result_length, fill_order and ck_report_missing's ck_missing_result
 * for replies; check_read_length, check_pad_room_msg and rpcb_query for
 * calls).  A message skips them, which changes no finding.  Checks that
 * note state of both directions before testing it (RR-114 garbled_answer,
 * RR-121's probe, RR-181/182's ck_conn, RR-184, RR-192, RR-193, RR-203, the
 * outcome log's feed) are in neither list.  The same of a Send and its
 * is_call below (ok_send and is_forward_call test nothing else first).
 */
static const enum rr_rule_id send_call_only[] = {
	RR_004_XID_DUP, RR_028_MSG_PZRC, RR_029_REPLY_SEGS, RR_031_ZERO_SEG, RR_070_PZRC_PAD, RR_086_FILL_ORDER,
	RR_090_NO_PAD_SEGMENT, RR_103_FIRST_CREDIT, RR_105_CREDIT_RESERVE, RR_108_BACK_FIRST_CREDIT,
	RR_175_NO_RETRY_OVER, RR_180_RETRY_NEW_XID, RR_210_HANDLE_REUSE, RR_240_MULTISEG_PZRC,
	RR_241_MULTISEG_POS,
};

static const enum rr_rule_id send_reply_only[] = {
	RR_001_VERS, RR_100_GRANT_ZERO, RR_106_CREDIT_CHANGES,
};

static const enum rr_rule_id msg_call_only[] = {
	RR_026_POS_RANGE, RR_030_EMPTY_WCHUNK, RR_050_BULK_IN_LONG, RR_061_COUNT_INLINE, RR_062_READ_COUNT,
	RR_063_NO_INLINE_PAD, RR_071_READ_NO_PAD, RR_082_WCHUNK_SIZE, RR_090_NO_PAD_SEGMENT, RR_149_NO_ULB,
	RR_150_MINORVERS, RR_153_GSS_LONG, RR_168_NULL_NO_WRITES, RR_170_READ_LIST_LIMIT,
	RR_171_WRITE_LIST_LIMIT, RR_172_SEGMENT_LIMIT, RR_183_GETATTR_ALONE, RR_186_MAX_RESOURCES,
	RR_195_BACK_CONNECT, RR_196_V40_CB_RDMA, RR_200_PORT, RR_201_NO_PORTMAP, RR_222_WHOLE_ITEM,
	RR_224_NO_OVERLAP,
};

static const enum rr_rule_id msg_reply_only[] = {
	RR_003_REPLY_MATCH, RR_044_REPLY_CHUNK_NEEDED, RR_045_USE_REPLY_CHUNK, RR_046_SHORT_DESPITE_RC,
	RR_049_MSG_USES_RC, RR_065_PROCESSED_BAD, RR_067_READ_ALL, RR_080_DDP_RESULT, RR_081_CHUNK_ORDER,
	RR_083_SEG_COUNT, RR_084_MIRROR, RR_085_WRITE_BOUNDS, RR_086_FILL_ORDER, RR_087_UNFILLED_ZERO,
	RR_088_UNUSED_ZERO, RR_089_NO_WRITE_PAD, RR_091_WRITE_COUNT, RR_093_REPLY_CHUNK_RULES,
	RR_094_READ_VIA_RC, RR_096_REPLY_CHUNK_PAD, RR_113_ERR_CHUNK_FOR_BAD_HDR, RR_131_MSGP_ANSWER,
	RR_160_EMPTY_LIST_INLINE, RR_162_NONEMPTY_BY_CHUNK, RR_163_EMPTY_CHUNK_INLINE,
	RR_164_FAILED_OP_EMPTY, RR_165_EXTRA_OPS_INLINE, RR_166_UNEXECUTED_EMPTY, RR_173_ACCEPT_WITHIN,
	RR_174_REJECT_HOW, RR_215_INVALIDATE_KEY, RR_221_NO_PAD_AFTER_WRITE, RR_243_UNUSED_UNCHANGED,
};

static bool listed(const enum rr_rule_id *l, size_t n, enum rr_rule_id id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (l[i] == id)
			return true;
	return false;
}

/* Does the check act only on the direction other than d (0 call, 1 reply) of a Send (k 0) or a message (k 1)? */
static bool other_direction_only(unsigned k, unsigned d, enum rr_rule_id id)
{
	if (k == 0)
		return d == 0 ? listed(send_reply_only, G_N_ELEMENTS(send_reply_only), id) :
				listed(send_call_only, G_N_ELEMENTS(send_call_only), id);
	return d == 0 ? listed(msg_reply_only, G_N_ELEMENTS(msg_reply_only), id) :
			listed(msg_call_only, G_N_ELEMENTS(msg_call_only), id);
}

/* Which checks run on which kind of fact, so a fact costs only its own checks. */
static void plan(struct rr_checker *ck)
{
	unsigned k, i, d;

	for (i = 0; i < RR_RULE_COUNT; i++)
		ck->header_only[i] = is_header_check(i);
	for (k = 0; k < 5; k++) {
		ck->n_run[k] = 0;
		for (i = 0; i < RR_RULE_COUNT; i++)
			if (check_of[i] && (rr_rule_get(i)->facts & (1u << k)) && ck_rule_on(ck, i))
				ck->run[k][ck->n_run[k]++] = (uint16_t)i;
	}
	for (k = 0; k < 2; k++)
		for (d = 0; d < 2; d++) {
			unsigned *n = &ck->n_run_dir[k][d];

			*n = 0;
			for (i = 0; i < ck->n_run[k]; i++)
				if (!other_direction_only(k, d, ck->run[k][i]))
					ck->run_dir[k][d][(*n)++] = ck->run[k][i];
		}
}

struct rr_checker *rr_checker_new(const struct rr_diag_sink *sink)
{
	struct rr_checker *ck = g_new0(struct rr_checker, 1);

	if (sink)
		ck->sink = *sink;
	rr_check_default_opts(&ck->opts);
	ck_state_init(ck);
	plan(ck);
	return ck;
}

void rr_checker_set_opts(struct rr_checker *ck, const struct rr_check_opts *o)
{
	ck->opts = *o;
	plan(ck);
}

const struct rr_check_opts *rr_checker_opts(const struct rr_checker *ck)
{
	return &ck->opts;
}

uint64_t rr_checker_skipped(const struct rr_checker *ck, enum rr_skip_reason why)
{
	return why < RR_SKIP__COUNT ? ck->skipped[why] : 0;
}

/* The bit index of each fact kind in the table's facts (F_SEND is bit 0 ...). */
static unsigned fact_index(enum rr_fact_kind k)
{
	switch (k) {
	case RR_FACT_SEND:
		return 0;
	case RR_FACT_MSG:
		return 1;
	case RR_FACT_RDMA:
		return 2;
	case RR_FACT_END:
		return 4;
	case RR_FACT_CONN_DOWN:
	case RR_FACT_RNR:
		break;
	}
	return 3;
}

/*
 * Captured whole (the caller knows) and still not decoded: its chunks do
 * not rebuild it (RR-026, RR-032), its RPC header does not decode, or it
 * answers a call that was not decoded.  Bytes the peer never sent (a call
 * whose chunks were not pulled) do not count; arguments or results the ULP
 * walker cannot follow are the walker's limit, not this.
 */
static bool msg_undecoded(const struct rr_message *m)
{
	struct ck_missing x;

	return m->placement_broken || m->has_bad_position || ck_missing_result(m, &x) ||
	       (m->dir == RR_DIR_REPLY && m->call_hdr && !m->call_ulp) ||
	       (m->complete && m->payload_len && !m->has_rpc);
}

/*
 * Whether the fact rests on bytes the capture does not hold: its own (a
 * Send cut by the snaplen, a message that lost bytes), or, on a connection
 * where a header or the handshake's private data was cut or packets were
 * lost, anything (the chunks, XIDs and thresholds later facts are judged
 * against may be what was cut).  Such facts still update the state; their
 * checks are skipped and counted, never run on zeros; of a Send cut after
 * its transport header, the header checks run.
 */
enum captured {
	CAPTURED,
	HEADER_ONLY,              /* a Send cut after its whole transport header */
	NOT_CAPTURED,
};

static enum captured fact_captured(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_conn_info *ci = NULL;
	uint32_t id;
	bool own = false;
	struct ck_conn_state *cs;

	switch (f->kind) {
	case RR_FACT_SEND:
		id = f->send->conn_id;
		own = f->send->truncated;
		ci = &f->send->conn;
		break;
	case RR_FACT_MSG:
		id = f->msg->conn_id;
		own = f->msg->capture_loss || f->msg->call_capture_loss;
		ci = &f->msg->conn;
		break;
	case RR_FACT_RDMA:
		id = f->rdma->conn_id;
		if (f->rdma->conn_cut)
			ck_conn(ck, id)->cut = true;
		break;
	default:
		return CAPTURED;
	}
	cs = ck_conn_find(ck, id);
	if (ci && ci->capture_cut) {
		cs = ck_conn(ck, id);
		cs->cut = true;
	}
	if (cs && cs->cut)
		return NOT_CAPTURED;
	if (own && f->kind == RR_FACT_SEND && f->send->status == RR_HDR_OK &&
	    f->send->hdr->hdr_len <= f->send->captured)
		return HEADER_ONLY;
	return own ? NOT_CAPTURED : CAPTURED;
}

/*
 * A message whose bytes were all captured, yet the ULP walk stopped at an
 * op or union arm it does not know, or at XDR it cannot decode: checks
 * skipped on it are the walker's limit (ENG-ULP), not the capture's.
 */
static bool ulp_not_understood(const struct rr_message *m)
{
	return m->has_rpc && !m->capture_loss && !m->call_capture_loss &&
	       (m->ulp_result == RR_ULP_UNSUPPORTED || (m->ulp_result == RR_ULP_MALFORMED && m->complete));
}

#ifndef NDEBUG
/*
 * Debug builds hold the direction lists above to what they claim: the
 * checks a fact skipped for its direction run anyway and must tell
 * nothing.  A check changed to act on the other direction aborts here (the
 * ASan build's tests and the hostile campaign run every bundled capture).
 */
static void guard_directions(struct rr_checker *ck, const struct rr_fact *f, unsigned k, const uint16_t *ran,
			     unsigned n_ran)
{
	for (unsigned i = 0; i < ck->n_run[k]; i++) {
		enum rr_rule_id id = ck->run[k][i];
		uint64_t told = ck->n_told;
		bool skipped = true;

		for (unsigned j = 0; j < n_ran && skipped; j++)
			skipped = ran[j] != id;
		if (!skipped)
			continue;
		ck->n_evidence = 0;
		check_of[id](ck, f);
		if (ck->n_told != told)
			g_error("check %s is listed for one direction only, yet told a finding on a %s of the other",
				rr_rule_get(id)->code, k == 0 ? "Send" : "message");
	}
}
#endif

void rr_checker_fact(struct rr_checker *ck, const struct rr_fact *f)
{
	unsigned k = fact_index(f->kind), i, n;
	enum captured cap = fact_captured(ck, f);
	bool cut = cap != CAPTURED;
	const uint16_t *run = ck->run[k];

	ck->n_facts++;
	ck->cur_cut = cut;
	ck->cur_not_understood = f->kind == RR_FACT_MSG && ulp_not_understood(f->msg);
	ck->cur_undecoded = !cut && f->kind == RR_FACT_MSG && msg_undecoded(f->msg);
	ck->cur_no_payload = f->kind == RR_FACT_MSG &&
			     (f->msg->hdr->proc == RR_RDMA_ERROR || f->msg->hdr->proc == RR_RDMA_DONE);
	ck_held_settle(ck, f);
	if (f->kind == RR_FACT_SEND)
		ck->last_outstanding = 0;

	ck_state_before(ck, f);
	n = ck->n_run[k];
	/* A fact not wholly captured counts every check it skips, of either direction. */
	if (k < 2 && !cut) {
		unsigned d = k == 0 ? !f->send->is_call : f->msg->dir;

		run = ck->run_dir[k][d];
		n = ck->n_run_dir[k][d];
	}
	/* Evidence a check staged but did not report stays with it: n_evidence starts at 0 for each. */
	if (cap == CAPTURED) {
		for (i = 0; i < n; i++) {
			ck->n_evidence = 0;
			check_of[run[i]](ck, f);
		}
	} else {
		for (i = 0; i < n; i++) {
			enum rr_rule_id id = run[i];

			ck->n_evidence = 0;
			if (cap == HEADER_ONLY && ck->header_only[id])
				check_of[id](ck, f);
			else
				ck->skipped[RR_SKIP_NOT_CAPTURED]++;
		}
	}
#ifndef NDEBUG
	if (k < 2 && !cut)
		guard_directions(ck, f, k, run, n);
#endif
	ck_state_after(ck, f);
}

void rr_checker_clock(struct rr_checker *ck, uint64_t ts_usec)
{
	ck_held_clock(ck, ts_usec);
}

uint32_t rr_checker_last_outstanding(const struct rr_checker *ck)
{
	return ck->last_outstanding;
}

void rr_checker_free(struct rr_checker *ck)
{
	if (!ck)
		return;
	ck_held_free(ck);
	ck_state_free(ck);
	g_free(ck);
}
