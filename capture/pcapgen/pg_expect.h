/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The audit: which findings a rule checker must report on the capture
 * (docs/pcapgen.md, "Expected findings"). Injectors register the findings
 * of what they break; the audit adds those that follow from the sequence
 * of emitted messages (credits, XIDs, sizes, chunk shapes, answers), from
 * the facts recorded about each message once it is final. A finding is
 * anchored to a message's Send or to one RDMA operation; anchors become
 * frame numbers once the framers have written every frame.
 */
#ifndef PG_EXPECT_H
#define PG_EXPECT_H

#include "pg_cap.h"
#include "pg_truth.h"
#include "pg_xport.h"

/* Facts about a message that the audit cannot see in its header. */
enum { PG_EXF_MALFORMED = 1,   /* transport header XDR error (RFC 8166 4.5) */
       PG_EXF_INELIGIBLE = 2,  /* a normal chunk holds a non-eligible item */
       PG_EXF_CALL_OFF_WIRE = 4, PG_EXF_REPLY_OFF_WIRE = 8,
       PG_EXF_DAMAGED = 16,    /* capture damage: its findings are unknowable */
       PG_EXF_GARBAGE = 32,    /* a reply whose RPC says GARBAGE_ARGS */
       PG_EXF_HANDLE_REUSED = 64,   /* the call's read segment reuses a persistent handle */
       PG_EXF_SILENT_READ = 128,    /* reply=none, yet the responder pulled the call's read chunks */
       PG_EXF_PART_PAD = 256 };     /* a read chunk one to three bytes longer than its item: the
				     * arguments still decode, so a SUCCESS answer is no RR-114 */

/* What the audit knows about one emitted message. */
typedef struct {
	uint32_t send_frame;   /* first frame of its Send, filled by the framer */
	bool emitted, call, backchannel, damaged;
	unsigned flags;        /* PG_EXF_* */
	uint32_t rdma_xid, vers, credit, proc, err, low, high, wire_len;
	uint32_t program, version;
	bool has_rpc;
	/* the chunk lists it carries (calls: as offered) */
	uint64_t reply_total;
	uint32_t reply_segs, pz_segs, npos, max_at_pos, max_at_nzpos, nwrites, max_wsegs;
	bool pz_split;
	/* facts about the RPC it carries (pg_audit_facts) */
	char what[64];         /* program/version/procedure or op list: "the same request" */
	bool nfs4, big_reply, named_retry, over_limit, cb40, aux, handle32;
	uint32_t pz_bulk;      /* call: largest eligible argument left inside the PZRC */
	uint32_t rc_read;      /* reply: READ data bytes returned through the Reply chunk */
	uint32_t nfs4_status;  /* reply: COMPOUND status */
	uint32_t sends;        /* calls: how many times this XID was sent before an answer */
	int gss;               /* PG_GSS_* of the exchange */
	bool writes_used;      /* reply: a returned Write chunk with a non-zero length */
	/* NFSv4.1 sessions (RR-193): a forward COMPOUND of minor version 1 or later, one that
	 * binds the connection's back channel, a backward CB_COMPOUND */
	bool nfs41, binds_back, cb_compound;
	bool getattr_mixed;    /* call: NFSv4.0 GETATTR of acl beside WRITE or CREATE (RR-183) */
	bool over_maxresp;     /* reply: longer than the session's ca_maxresponsesize (RR-184) */
	uint32_t conn;         /* the connection it went on: 0, then one more per reconnect */
	bool has_seq;          /* call: an NFSv4.1+ COMPOUND led by SEQUENCE ... */
	uint32_t seqid;        /* ... with this sequence ID (one session, slot 0) */
	bool hdr_undecodable;  /* a list discriminator not 0 or 1, or an unknown message type */
} pg_msginfo;

typedef struct pg_audit pg_audit;

pg_audit *pg_audit_new(const pg_scenario *s);
void pg_audit_free(pg_audit *a);
/* A connection opens (0 for the first): what the checks keep per
 * connection starts over, and calls still unanswered are left behind. */
void pg_audit_conn(pg_audit *a, uint32_t conn);
/* A blank record for a message about to be built; the audit owns it. */
pg_msginfo *pg_audit_info(pg_audit *a);

/* A finding at the first frame of this message's Send. */
void pg_expect_at(pg_audit *a, const char *rule, const pg_msginfo *mi);
/* A finding at an RDMA operation: returns where the framer stores the
 * operation's first frame (pg_op.frame_out). */
uint32_t *pg_expect_op(pg_audit *a, const char *rule);

/* Record what a message carries once it is final (wire_len: its Send). */
void pg_audit_fill(pg_msginfo *mi, const pg_rdmamsg *m, const pg_rpc_pair *rp, bool call,
		   bool backchannel, uint32_t wire_len);
/* Facts about the RPC of an exchange (the call c, the reply r), for the
 * checks that look past the transport header. */
void pg_audit_facts(pg_audit *a, pg_msginfo *c, pg_msginfo *r, const pg_item *it,
		    const pg_rpc_pair *rp, const pg_plan *plan);

/* The sequence checks, in emission order: a call's Send, a reply's or an
 * RDMA_ERROR's Send, an RDMA_DONE. */
void pg_audit_call(pg_audit *a, pg_msginfo *mi);
void pg_audit_reply(pg_audit *a, pg_msginfo *mi);
void pg_audit_done(pg_audit *a, pg_msginfo *mi);
/* A reply's Send With Invalidate (RR-215). */
void pg_audit_invalidate(pg_audit *a, const pg_msginfo *rmi, const pg_plan *p, const pg_op *op);

/* Turn every anchor into its frame and hand the list to the truth file
 * (only when the scenario asks for it or an injector applied). */
void pg_audit_write(const pg_audit *a, pg_truth *t, bool any_injected, const pg_cap *cap);

#endif
