// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The check stage's dispatcher: the table of checks (expanded from
 * rules.def), profiles and enabling, and which checks each fact runs.
 * Findings go out through report.c.
 */
#include <string.h>

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

/* Which checks run on which kind of fact, so a fact costs only its own checks. */
static void plan(struct rr_checker *ck)
{
	unsigned k, i;

	for (k = 0; k < 5; k++) {
		ck->n_run[k] = 0;
		for (i = 0; i < RR_RULE_COUNT; i++)
			if (check_of[i] && (rr_rule_get(i)->facts & (1u << k)) && ck_rule_on(ck, i))
				ck->run[k][ck->n_run[k]++] = (uint16_t)i;
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
		break;
	}
	return 3;
}

/*
 * Whether the fact rests on bytes the capture does not hold: its own (a
 * Send cut by the snaplen, a message that lost bytes), or, on a connection
 * where a header or the handshake's private data was cut, anything (the
 * chunks, XIDs and thresholds later facts are judged against may be what
 * was cut).  Such facts still update the state; their checks are skipped
 * and counted, never run on zeros.
 */
static bool fact_not_captured(struct rr_checker *ck, const struct rr_fact *f)
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
		return false;
	}
	cs = g_hash_table_lookup(ck->conns, GUINT_TO_POINTER(id));
	if (ci && ci->capture_cut) {
		cs = ck_conn(ck, id);
		cs->cut = true;
	}
	return own || (cs && cs->cut);
}

void rr_checker_fact(struct rr_checker *ck, const struct rr_fact *f)
{
	unsigned k = fact_index(f->kind), i;
	bool cut = fact_not_captured(ck, f);

	ck->cur_cut = cut;
	ck_held_settle(ck, f);
	if (f->kind == RR_FACT_SEND)
		ck->last_outstanding = 0;

	ck_state_before(ck, f);
	if (cut)
		ck->skipped[RR_SKIP_NOT_CAPTURED] += ck->n_run[k];
	else
		for (i = 0; i < ck->n_run[k]; i++)
			check_of[ck->run[k][i]](ck, f);
	ck_state_after(ck, f);
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
