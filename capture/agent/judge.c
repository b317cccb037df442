// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a conforming peer must do when the agent breaks a rule (judge.h).
 * One place: each entry names the injector, the role of the side that
 * broke it, the rule whose duty is judged and the answers that pass or
 * say nothing; every other answer fails.  The RFC section is the duty's.
 */
#include "judge.h"

#include <stdio.h>
#include <string.h>

#include "inject.h"

#define B(a) (1u << (a))

static const char *const names[JD_N_ANSWERS] = {
	"none", "reply", "nfs-error", "garbage-args", "rpc-error", "err-chunk", "err-vers",
	"bad-reply", "disconnect", "timeout", "next-call", "retransmit", "access-error", "refused",
};

static const char *const texts[JD_N_ANSWERS] = {
	"nothing", "a normal reply", "an NFS error", "GARBAGE_ARGS", "an RPC error",
	"RDMA_ERROR ERR_CHUNK", "RDMA_ERROR ERR_VERS", "a malformed reply", "a disconnect",
	"no answer (timeout)", "another call", "the same XID again", "a remote access error",
	"its RNIC refusing the Send",
};

const char *jd_answer_name(enum jd_answer a)
{
	return a < JD_N_ANSWERS ? names[a] : "?";
}

const char *jd_answer_text(enum jd_answer a)
{
	return a < JD_N_ANSWERS ? texts[a] : "?";
}

struct duty {
	const char *name;
	int role;                 /* who broke it */
	const char *rule;         /* the duty judged */
	unsigned pass, na;        /* answers (B(JD_*)) */
	const char *duty;         /* what a conforming peer does, with the section */
};

/* answers a responder gives a call it could not process */
#define REJECT (B(JD_ERR_CHUNK))
#define RPC_REJECT (B(JD_GARBAGE) | B(JD_RPC_ERROR) | B(JD_NFS_ERROR))
#define ANSWERED (B(JD_REPLY) | B(JD_NFS_ERROR) | B(JD_GARBAGE) | B(JD_RPC_ERROR) | B(JD_ERR_CHUNK))

static const struct duty duties[] = {
	/* ---- the requester (drive) broke a call: the responder's duty ---- */
	{ "bad-vers", INJ_REQ, "RR-110", B(JD_ERR_VERS), 0,
	  "a call of another version gets RDMA_ERROR ERR_VERS (RFC 8166 §4.5.1, §4.2.2)" },
	{ "msgp", INJ_REQ, "RR-131", REJECT, 0,
	  "RDMA_MSGP gets ERR_CHUNK from a version 1 responder (RFC 8166 §4.6.1)" },
	{ "ineligible-chunk", INJ_REQ, "RR-065", REJECT | B(JD_GARBAGE), 0,
	  "a chunk at no DDP-eligible item is not processed: ERR_CHUNK (RFC 8166 §4.5.2, §6.1)" },
	{ "count-in-chunk", INJ_REQ, "RR-065", REJECT | B(JD_GARBAGE), 0,
	  "a chunk at no DDP-eligible item is not processed: ERR_CHUNK (RFC 8166 §4.5.2, §6.1)" },
	{ "position-in-header", INJ_REQ, "RR-065", REJECT | B(JD_GARBAGE), 0,
	  "a chunk that does not rebuild the call is not processed (RFC 8166 §4.5.2, §6.1)" },
	{ "position-in-item", INJ_REQ, "RR-065", REJECT | B(JD_GARBAGE), 0,
	  "a chunk that does not rebuild the call is not processed (RFC 8166 §4.5.2, §6.1)" },
	{ "xid-mismatch", INJ_REQ, "RR-113", REJECT, B(JD_REPLY) | B(JD_NFS_ERROR),
	  "a header it cannot trust gets ERR_CHUNK; a responder that goes by the RPC XID owes "
	  "nothing more (RFC 8166 §4.5, §4.2.1)" },
	{ "bad-proc", INJ_REQ, "RR-113", REJECT, B(JD_TIMEOUT),
	  "an unknown message type gets ERR_CHUNK, or is dropped (RFC 8166 §4.5, §4.2.4)" },
	{ "bad-discriminator", INJ_REQ, "RR-113", REJECT, 0,
	  "a header that does not decode gets ERR_CHUNK (RFC 8166 §4.5.2)" },
	{ "nomsg-empty", INJ_REQ, "RR-113", REJECT, 0,
	  "RDMA_NOMSG without a chunk carries no call: ERR_CHUNK (RFC 8166 §4.5.2, §3.5.3)" },
	{ "short-header", INJ_REQ, "RR-113", B(JD_TIMEOUT), 0,
	  "a message shorter than 28 bytes is silently discarded, not answered (RFC 8166 §4.5)" },
	{ "trailing-bytes", INJ_REQ, "RR-022", ANSWERED, 0,
	  "bytes after a header without Payload are ignored; the responder still answers "
	  "(RFC 8166 §4.2.4)" },
	{ "unaligned-position", INJ_REQ, "RR-113", REJECT | RPC_REJECT, 0,
	  "a Position that is not XDR-aligned does not rebuild: ERR_CHUNK (RFC 8166 §3.5.3, §4.5.2)" },
	{ "position-beyond", INJ_REQ, "RR-113", REJECT | RPC_REJECT, 0,
	  "a Position past the Payload does not rebuild: ERR_CHUNK (RFC 8166 §3.5.3, §4.5.2)" },
	{ "descending-positions", INJ_REQ, "RR-113", REJECT | RPC_REJECT, B(JD_REPLY),
	  "a Read list out of order is an XDR error: ERR_CHUNK (RFC 8166 §3.5.3, §4.5.2); "
	  "sorting it is a courtesy" },
	{ "bad-msg-type", INJ_REQ, "RR-008", RPC_REJECT | REJECT, B(JD_TIMEOUT),
	  "an RPC message that is no CALL is not executed; with nothing to answer, dropping it is "
	  "what an RPC server does (RFC 5531 §9)" },
	{ "record-mark", INJ_REQ, "RR-007", RPC_REJECT | REJECT, B(JD_TIMEOUT),
	  "a record mark where the XID belongs does not decode as a call: an error answer, or "
	  "dropped as no call (RFC 8166 §4.5.2, RFC 5531 §9)" },
	{ "minorversion", INJ_REQ, "RR-150", RPC_REJECT, 0,
	  "an unknown minor version gets NFS4ERR_MINOR_VERS_MISMATCH (RFC 8881 §16.2.3)" },
	{ "zero-credit", INJ_REQ, "RR-100", B(JD_REPLY) | B(JD_NFS_ERROR), 0,
	  "a responder grants at least one credit, whatever was requested (RFC 8166 §3.3.1)" },
	{ "small-reply-chunk", INJ_REQ, "RR-044", REJECT, B(JD_REPLY) | B(JD_NFS_ERROR),
	  "a reply that fits neither inline nor the Reply chunk gets ERR_CHUNK (RFC 8166 §4.5.2); "
	  "a reply that fitted owes nothing" },
	{ "reconnect-xid", INJ_REQ, "RR-004", B(JD_REPLY) | B(JD_NFS_ERROR), 0,
	  "a retransmission on a new connection is answered (RFC 8166 §3.3.1, RFC 5531 §9)" },
	{ "dup-xid", INJ_REQ, "RR-004", B(JD_REPLY) | B(JD_NFS_ERROR), B(JD_TIMEOUT),
	  "a call whose XID is still outstanding is a retransmission: answered, or dropped by a "
	  "duplicate reply cache while the first is in progress (RFC 5531 §9, RFC 8167 §2.4)" },
	{ "resend-xid", INJ_REQ, "RR-116", 0, ANSWERED | B(JD_ERR_VERS),
	  "the requester broke it; a responder answers the new call as it sees fit (RFC 8166 §4.5)" },
	{ "retry-xid", INJ_REQ, "RR-180", 0, ANSWERED,
	  "the requester broke it; a responder answers the new call as it sees fit (RFC 8267 §3.1)" },
	{ "oversize-send", INJ_REQ, "RR-040", B(JD_DISCONNECT) | ANSWERED, 0,
	  "a Send larger than the Receive fails at the responder's RNIC, which breaks the "
	  "connection, or a responder with larger Receives answers (RFC 8166 §3.3.2)" },
	{ "credit-overrun", INJ_REQ, "RR-102", 0, ANSWERED | B(JD_DISCONNECT) | B(JD_TIMEOUT),
	  "a responder may drop calls beyond its grant or the connection (RFC 8166 §3.3.1)" },
	/* ---- the responder (serve) broke a reply: the requester's duty ---- */
	{ "zero-credit", INJ_RESP, "RR-102", B(JD_TIMEOUT) | B(JD_DISCONNECT), 0,
	  "after a grant of 0 the requester sends no call on the connection (RFC 8166 §3.3.1)" },
	{ "write-beyond", INJ_RESP, "RR-085", B(JD_ACCESS_ERROR) | B(JD_DISCONNECT), 0,
	  "the requester's memory outside a segment is not writable: the Write fails "
	  "(RFC 8166 §3.4.6, §7.1)" },
	{ "grant-above", INJ_RESP, "RR-102", B(JD_NEXT_CALL) | B(JD_TIMEOUT) | B(JD_DISCONNECT), 0,
	  "the requester keeps to min(requested, granted) outstanding calls (RFC 8166 §3.3.1); "
	  "one call at a time never exceeds it" },
	{ "oversize-send", INJ_RESP, "RR-040", B(JD_REFUSED) | B(JD_DISCONNECT),
	  B(JD_NEXT_CALL) | B(JD_RETRANSMIT), "a Send longer than the requester's Receive fails at "
	  "its RNIC; a requester with larger Receives may take it (RFC 8166 §3.3.2)" },
	{ "extra-read", INJ_RESP, "RR-066", B(JD_ACCESS_ERROR) | B(JD_DISCONNECT), 0,
	  "the requester's memory outside an advertised segment is not readable: the Read fails "
	  "(RFC 8166 §3.4.5, §7.1)" },
	{ "read-after-reply", INJ_RESP, "RR-068", B(JD_ACCESS_ERROR) | B(JD_DISCONNECT),
	  B(JD_NEXT_CALL) | B(JD_TIMEOUT), "a requester that invalidated its chunks when the reply "
	  "came refuses the late Read; one that had not yet owes nothing (RFC 8166 §3.4.5, §7.1)" },
	{ "write-after-reply", INJ_RESP, "RR-092", B(JD_ACCESS_ERROR) | B(JD_DISCONNECT),
	  B(JD_NEXT_CALL) | B(JD_TIMEOUT), "a requester that invalidated its chunks when the reply "
	  "came refuses the late Write; one that had not yet owes nothing (RFC 8166 §3.4.6, §7.1)" },
	{ "bad-vers", INJ_RESP, "RR-001", B(JD_RETRANSMIT) | B(JD_DISCONNECT) | B(JD_TIMEOUT),
	  B(JD_NEXT_CALL), "a reply of another version is not taken as the answer (RFC 8166 §4.2.2)" },
	/* the real reply never comes: waiting, retransmitting or reconnecting is the requester's
	 * right answer, a hang the responder's doing */
	{ "orphan-reply", INJ_RESP, "RR-003", B(JD_RETRANSMIT) | B(JD_DISCONNECT) | B(JD_TIMEOUT),
	  B(JD_NEXT_CALL), "a reply whose XID matches no outstanding call answers nothing; the call "
	  "still waits for its own (RFC 8166 §2.2.2)" },
	{ "bad-proc", INJ_RESP, "RR-005", B(JD_RETRANSMIT) | B(JD_DISCONNECT) | B(JD_TIMEOUT),
	  B(JD_NEXT_CALL), "a message of an undefined type is not taken as the answer (RFC 8166 §4, "
	  "§4.2.4)" },
	/* ---- the server side (the proxy) broke a backward call: the client's duty ---- */
	{ "cb-long-call", INJ_RESP, "RR-191", ANSWERED, 0,
	  "a backward call with chunks is answered: processed, or RDMA_ERROR ERR_CHUNK from a client "
	  "that takes no chunks in the backchannel (RFC 8167 §5.3)" },
	{ "cb-reply-chunk", INJ_RESP, "RR-191", ANSWERED, 0,
	  "a backward call offering a Reply chunk (legal) is answered: processed, or RDMA_ERROR "
	  "ERR_CHUNK from a client that takes no chunks in the backchannel (RFC 8167 §5.3)" },
	{ "cb-nfs-program", INJ_RESP, "RR-195", B(JD_RPC_ERROR), 0,
	  "a backward call of a program the client does not serve gets PROG_UNAVAIL "
	  "(RFC 5531 §9); the client serves no NFS (RFC 8167 §2)" },
	/* the calls within the grant are owed answers; beyond it, dropping them or the
	 * connection is the client's choice */
	{ "cb-over-grant", INJ_RESP, "RR-104", 0, ANSWERED | B(JD_DISCONNECT),
	  "the calls within the client's backward grant are answered; beyond it the client may "
	  "answer, drop them or drop the connection (RFC 8167 §4.1, §4.3)" },
};

void jd_judge(const char *name, int role, const char *broke, const struct jd_reaction *r,
	      struct jd_verdict *v)
{
	const struct duty *d = NULL;

	for (size_t i = 0; i < sizeof(duties) / sizeof(duties[0]) && !d; i++)
		if (duties[i].role == role && !strcmp(duties[i].name, name))
			d = &duties[i];
	if (!d) {
		/* no entry: the duty is not one the wire shows; a hang is never right */
		v->rule = broke;
		v->result = r->answer == JD_TIMEOUT ? "fail" : "n/a";
		snprintf(v->why, sizeof(v->why), "injected %s; the %s answered with %s; %s", broke,
			 role == INJ_REQ ? "server" : "client", jd_answer_text(r->answer),
			 r->answer == JD_TIMEOUT ? "a peer that stops answering hangs the other side "
			 "(RFC 8166 §4.5)" : "no duty of the peer to judge on the wire");
		return;
	}
	v->rule = d->rule;
	v->result = d->pass & B(r->answer) ? "pass" : d->na & B(r->answer) ? "n/a" : "fail";
	if (d->pass & B(r->answer) && !strcmp(d->rule, "RR-100") && !r->credit)
		v->result = "fail";
	snprintf(v->why, sizeof(v->why), "injected %s; the %s answered with %s; %s", broke,
		 role == INJ_REQ ? "server" : "client", jd_answer_text(r->answer), d->duty);
}
