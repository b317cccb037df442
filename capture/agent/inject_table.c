// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * How the agent runs each injector of the generator's table on a message
 * it really sends (inject.h), and the few injections the table has no
 * entry for.  The hooks themselves are the generator's (pg_inject*.c).
 *
 * Stages per role: the requester (drive) builds its calls with pg_plan,
 * so the call's prep, plan, ops (before its chunks are registered) and
 * header hooks run as in the generator; the responder (serve) answers with
 * a pg_rdmamsg and its own RDMA operations, so its hooks are those that
 * work on the reply's RPC message (plan: pg_rpc_pair), on the knobs serve
 * honours (overfill, fill_short, write_pad, reply_inline_despite_write)
 * and on the reply's header.  A wire hook runs only
 * where it rewrites the Send's own bytes; wire hooks that damage a CRC or
 * make the receiving RNIC refuse a Send, and capture hooks, belong to
 * synthetic frames.  The backward-direction entries (INJ_ST_BACK) are the
 * responder's too: only a proxy, in the server's place, sends the client
 * backward calls of its own, and their hooks run on those (proxy_back.h).
 */
#include "inject.h"
#include "inject_legs.h"

#include <string.h>

#include "pg_inject.h"

#define P INJ_ST_PREP
#define L INJ_ST_PLAN
#define O INJ_ST_OPS
#define H INJ_ST_HEADER
#define W INJ_ST_WIRE
#define A INJ_ST_AGENT
#define K INJ_ST_BACK

/* reasons shared by several entries */
#define WHY_CRC "the RNIC computes the CRC of every packet: verbs cannot send a damaged one"
#define WHY_CAPTURE "a capture artefact (the snap length), not a message"
#define WHY_REFUSE "the receiving RNIC refuses a Send when no Receive fits; the agent keeps its Receives posted and sized (verbs.c)"
#define WHY_OPS "the hook changes an RDMA operation of the generator's op list; serve posts its own " \
	"Reads and Writes and runs only the operations hooks add (extra-read, read-after-reply, write-after-reply)"
#define WHY_KNOB "a reply knob of pg_plan serve does not honour: serve lays out its replies itself" \
	" (it honours overfill, fill_short, write_pad and reply_inline_despite_write)"
#define WHY_SHAPE "the reply's shape (Long or Short) is serve's own choice from the requester's inline size, not the scenario line's"
#define WHY_HANDLE "the agent registers memory per call; a fixed or made-up handle names no region of the requester"
#define WHY_SWI "the agent advertises no Send With Invalidate (RFC 8797 private data) and never posts one"

#define E(n, rq, rs, why) { .name = n, .req_stages = rq, .resp_stages = rs, .reason = why }
#define X(n, rq, rs, r, h) { .name = n, .req_stages = rq, .resp_stages = rs, .rules = r, .help = h, \
			     .agent_only = true }

static const struct inj_def defs[] = {
	E("bad-vers", H, H, NULL),
	E("xid-mismatch", H, H, NULL),
	E("orphan-reply", 0, L | H, NULL),
	/* drive has one call outstanding: it sends the call twice, back to back */
	{ .name = "dup-xid", .req_stages = A, .help = "drive sends the call twice, back to back, "
	  "before any answer: the second has the XID of a call still outstanding" },
	E("bad-proc", H, H, NULL),
	E("record-mark", H, H, NULL),
	E("bad-msg-type", L, L, NULL),
	E("bad-discriminator", H, H, NULL),
	E("nomsg-empty", H, H, NULL),
	E("trailing-bytes", W, W, NULL),
	E("unaligned-position", H, 0, NULL),
	E("split-run", L | H, 0, NULL),
	E("descending-positions", H, 0, NULL),
	E("position-beyond", H, 0, NULL),
	E("position-in-header", H, 0, NULL),
	E("reply-chunk-cut", 0, H, NULL),
	E("position-in-item", H, 0, NULL),
	E("msg-pzrc", H, 0, NULL),
	E("zero-length-segment", H, 0, NULL),
	E("long-reply-inline", 0, 0, WHY_SHAPE),
	E("msg-writes-reply-chunk", 0, 0, "serve keeps no copy of what it wrote into the Reply chunk for the hook to put inline"),
	E("short-read-chunk", L | H, 0, NULL),
	E("extra-read", 0, O, NULL),
	E("read-after-reply", 0, O, NULL),
	E("reply-read-list", 0, 0, WHY_KNOB),
	E("inline-despite-write", 0, L | H, NULL),
	E("misdirected-write", 0, L, NULL),
	E("segcount-changed", 0, H, NULL),
	E("handle-changed", 0, H, NULL),
	E("write-beyond", 0, L, NULL),
	E("fill-order", 0, L | H, NULL),
	E("phantom-length", 0, H, NULL),
	E("unused-nonzero", 0, H, NULL),
	E("pad-written", 0, L | H, NULL),
	E("pad-segment", L | H, 0, NULL),
	E("write-length-lie", 0, H, NULL),
	E("write-after-reply", 0, O, NULL),
	E("zero-credit", H, H, NULL),
	E("err-range", 0, H, NULL),
	E("resend-xid", P, 0, NULL),
	E("err-code", 0, H, NULL),
	E("silent-read", 0, 0, WHY_OPS),
	E("ineligible-chunk", L | H, 0, NULL),
	E("ineligible-write", 0, L, NULL),
	E("minorversion", L, 0, NULL),
	E("data-missing", 0, 0, WHY_KNOB),
	E("null-write-chunk", L | H, 0, NULL),
	E("extra-write-chunk", L | H, 0, NULL),
	E("retry-xid", P, 0, NULL),
	E("cb-reply-chunk", 0, K, NULL),
	E("long-read-chunk", L | H, 0, NULL),
	E("no-rpc", 0, H, NULL),
	E("short-err-vers", 0, W, NULL),
	E("short-header", H | W, 0, NULL),
	E("partial-read", 0, 0, WHY_OPS),
	E("reply-chunk-changed", 0, H, NULL),
	E("empty-write-chunk", H, 0, NULL),
	E("wrong-invalidate", 0, 0, WHY_SWI),
	E("cb-long-call", 0, K, NULL),
	E("cb-nfs-program", 0, K, NULL),
	E("rpcb-nfs4", L, 0, NULL),
	E("rpcb-mount", L, 0, NULL),
	E("garbage-args", 0, L, NULL),
	E("reuse-handle", 0, 0, WHY_HANDLE),
	E("pz-interleave", L | H, 0, NULL),
	E("overlap-chunk", 0, 0, WHY_HANDLE),
	E("small-write-chunk", O, 0, NULL),
	E("readdir-count", H, 0, NULL),
	E("empty-chunk-used", 0, 0, "the responder writing into a chunk offered with length 0 is serve's fault to make, and serve writes only what was offered"),
	E("hidden-short-fill", 0, L | H, NULL),
	E("pad-written-exact", 0, L | H, NULL),
	E("long-unpadded", L | H, 0, NULL),
	E("pad-inline", H, 0, NULL),
	E("count-in-chunk", L | H, 0, NULL),
	E("part-pad-read", 0, 0, "the hook lengthens the responder's Read in the generator's op list, which drive does not build (the responder reads what the segment says)"),
	E("pad-room", L, 0, NULL),
	E("unaligned-payload", H, H, NULL),
	E("write-late", 0, 0, WHY_OPS),
	E("bad-icrc", 0, 0, WHY_CRC),
	E("rnr-nak", 0, 0, WHY_REFUSE),
	E("reply-too-long", 0, 0, WHY_REFUSE),
	E("small-receive", 0, 0, WHY_REFUSE),
	E("bad-mpa-crc", 0, 0, WHY_CRC),
	E("truncate-snaplen", 0, 0, WHY_CAPTURE),
	E("msgp", P, 0, NULL),
	/* serve's own reply goes inline past the requester's size (the hook is the call's) */
	{ .name = "oversize-send", .req_stages = P, .resp_stages = A,
	  .help = "serve's reply goes inline (RDMA_MSG) however long it is: past the requester's "
		  "inline size (no Reply chunk used)" },
	/* the agent's own: what the generator makes with a scenario option or
	 * a sequence of lines rather than an injector */
	X("small-reply-chunk", A, 0, "RR-044", "the call offers a Reply chunk of ARG bytes (default 64), "
	  "too small for its reply"),
	X("reconnect-xid", A, 0, "RR-004", "after the reply, drive disconnects, connects again and "
	  "sends the same call with the same XID (a retransmission)"),
	/* legal: a grant above the request breaks no rule of the catalogue */
	X("grant-above", 0, A, "", "the reply grants ARG (default 32) credits more than the "
	  "call requested (legal: what the requester then keeps to is judged)"),
	X("credit-overrun", A, 0, "RR-102", "drive goes on sending after a grant of 0 credits"),
	/* the backward direction: the generator makes it with a scenario line per call */
	X("cb-over-grant", 0, K, "RR-104", "the proxy sends the client ARG (default 1) backward "
	  "CB_NULL calls more than its backward grant, back to back (first one call, to learn the "
	  "grant from its answer, when no backward reply carried it yet)"),
};

const struct inj_def *inj_def_at(size_t i)
{
	return i < sizeof(defs) / sizeof(defs[0]) ? &defs[i] : NULL;
}

const struct inj_def *inj_def_find(const char *name)
{
	for (size_t i = 0; i < sizeof(defs) / sizeof(defs[0]); i++)
		if (!strcmp(defs[i].name, name))
			return &defs[i];
	return NULL;
}

const char *inj_def_rules(const struct inj_def *d)
{
	const pg_injector *in = d->agent_only ? NULL : pg_injector_find(d->name);
	return in ? in->rules : d->rules ? d->rules : "";
}

const char *inj_def_help(const struct inj_def *d)
{
	const pg_injector *in = d->agent_only ? NULL : pg_injector_find(d->name);
	return in ? in->help : d->help ? d->help : "";
}

unsigned inj_def_stages(const struct inj_def *d, int role)
{
	return role == INJ_REQ ? d->req_stages : d->resp_stages;
}

/* The responder's plan hooks that only rewrite the reply's RPC message (orphan-reply's XID,
 * bad-msg-type's msg_type): the server built the rest of a relayed reply (its results, its
 * chunks), which the table's other plan and ops hooks would have to build themselves. */
static const char *const client_plan_ok[] = { "orphan-reply", "bad-msg-type" };

/* The requester's entries whose hooks need nothing but the call's transport header
 * (pg_rdmamsg) or its Send.  The others plan the call from the scenario line (its shape,
 * reduction and knobs: ineligible-chunk, msgp, oversize-send, ...), take the XID from the
 * generator's sequence of calls, or read what the reduction recorded (zero-length-segment,
 * position-in-item), which a relayed call has not; record-mark reads the RPC message's
 * length, which the relay gives. */
static const char *const server_ok[] = {
	"bad-vers", "xid-mismatch", "bad-proc", "zero-credit", "nomsg-empty", "short-header",
	"trailing-bytes", "record-mark", "unaligned-payload", "bad-discriminator",
	"descending-positions", "unaligned-position",
};

static bool listed(const char *const *t, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(t[i], name))
			return true;
	return false;
}

bool inj_leg_client_ok(const char *name, unsigned resp_stages)
{
	if (!(resp_stages & (INJ_ST_PLAN | INJ_ST_OPS)))
		return true;
	return listed(client_plan_ok, sizeof(client_plan_ok) / sizeof(client_plan_ok[0]), name);
}

bool inj_leg_server_ok(const char *name, unsigned req_stages)
{
	if (!req_stages || (req_stages & ~(unsigned)(INJ_ST_HEADER | INJ_ST_WIRE)))
		return false;
	return listed(server_ok, sizeof(server_ok) / sizeof(server_ok[0]), name);
}

unsigned inj_def_legs(const struct inj_def *d, const char **why)
{
	unsigned legs = 0;

	if (d->resp_stages && inj_leg_client_ok(d->name, d->resp_stages))
		legs |= INJ_LEG_CLIENT;
	if (inj_leg_server_ok(d->name, d->req_stages))
		legs |= INJ_LEG_SERVER;
	*why = legs ? NULL :
	       d->resp_stages ? "it plans the reply's results or RDMA operations, which the server made" :
	       d->req_stages ? "it plans the call from a scenario line (its chunks, its shape or its "
			       "XID), which a relayed call has not" :
	       d->reason ? d->reason : "?";
	return legs;
}
