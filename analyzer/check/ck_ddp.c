// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Checks of group I: DDP-eligibility (RFC 8267).  A normal chunk (a read
 * chunk at a non-zero Position, a Write chunk the reply used) must carry an
 * item the binding lists; which rule a stray chunk breaks depends on the
 * program.  The walk of the whole payload (rebuild) found every eligible
 * item and where its data sits; a walk that stopped early proves nothing,
 * so the checks skip that message (ENG-ULP says where the walk stopped).
 */
#include "check_int.h"

enum ddp_rule_kind { DDP_NFS23, DDP_NFS4, DDP_NFSACL, DDP_AUX, DDP_CALLBACK, DDP_OTHER };

static bool is_callback_program(uint32_t prog)
{
	return prog >= 0x40000000u && prog <= 0x5fffffffu;
}

static enum ddp_rule_kind kind_of(const struct rr_message *m)
{
	uint32_t p, v, pr;

	if (!ck_prog(m, &p, &v, &pr))
		return DDP_OTHER;
	if (p == RR_NFS_PROGRAM)
		return v == 4 ? DDP_NFS4 : DDP_NFS23;
	if (p == RR_NFSACL_PROGRAM)
		return DDP_NFSACL;
	if (p == RR_MOUNT_PROGRAM || p == RR_NLM_PROGRAM || p == RR_NSM_PROGRAM)
		return DDP_AUX;
	if (is_callback_program(p))
		return DDP_CALLBACK;
	return DDP_OTHER;
}

static bool gss_protected(const struct rr_message *m)
{
	const struct rr_ulp_info *u = m->dir == RR_DIR_CALL ? &m->ulp : m->call_ulp;

	return u && u->is_gss && (u->gss_service == 2 || u->gss_service == 3) && u->gss_proc == 0;
}

static bool gss_control(const struct rr_message *m)
{
	const struct rr_ulp_info *u = m->dir == RR_DIR_CALL ? &m->ulp : m->call_ulp;

	return u && u->is_gss && u->gss_proc != 0;
}

/* A stray normal chunk of this message: a read chunk at no eligible item, or a used Write chunk with no result. */
struct stray {
	bool found;
	bool read;             /* a read chunk (else a Write chunk) */
	bool surplus;          /* NFSv4: a Write chunk no READ-class op pairs with */
	uint32_t position;     /* read */
	uint32_t chunk;        /* write */
	uint64_t bytes;
};

/*
 * NFSv4 pairs the k-th Write chunk with the k-th READ-class op of the
 * COMPOUND (RFC 8267 §6.4.1).  A chunk beyond them pairs with nothing, so
 * bytes the responder wrote into it (RDMA Writes seen landing there) are
 * no eligible result: something else was reduced.  Lengths returned with
 * nothing written are an unused chunk not zeroed (RR-166), not this.
 */
bool ck_write_chunk_stray(const struct rr_message *m, uint32_t k)
{
	const struct rr_hdr *c = m->call_hdr;
	uint64_t bytes = 0;
	uint32_t i, p, v, pr;

	if (m->dir != RR_DIR_REPLY || !c || !m->call_ulp || m->call_ulp->ops_truncated || !m->seg_bytes ||
	    !ck_prog(m, &p, &v, &pr) || p != RR_NFS_PROGRAM || v != 4 || pr != 1 ||
	    k >= c->n_write_chunks || k >= m->hdr->n_write_chunks || k < m->call_ulp->n_ddp_capable ||
	    !rr_chunk_length(m->hdr, &m->hdr->writes[k]))
		return false;
	for (i = 0; i < c->writes[k].count; i++)
		bytes += m->seg_bytes[c->writes[k].first + i];
	return bytes > 0;
}

static bool proc_has_results(const struct rr_message *m)
{
	uint32_t p, v, pr;

	if (!ck_prog(m, &p, &v, &pr) || p != RR_NFS_PROGRAM)
		return false;
	if (v == 2)
		return pr == RR_NFS2_PROC_READ || pr == RR_NFS2_PROC_READLINK;
	if (v == 3)
		return pr == RR_NFS3_PROC_READ || pr == RR_NFS3_PROC_READLINK;
	return m->call_ulp && m->call_ulp->n_ddp_capable > 0;
}

static struct stray find_stray(const struct rr_message *m)
{
	struct stray s = { 0 };

	if (m->dir == RR_DIR_CALL) {
		struct ck_rchunk rc[RR_HDR_MAX_SEGS];
		size_t n = ck_read_chunks(m->hdr, m->hdr->proc == RR_RDMA_NOMSG, rc, G_N_ELEMENTS(rc)), i;

		for (i = 0; i < n; i++)
			if (!ck_item_at(m, rc[i].position)) {
				s.found = s.read = true;
				s.position = rc[i].position;
				s.bytes = rc[i].length;
				return s;
			}
		return s;
	}
	if (!m->call_hdr || m->hdr->proc == RR_RDMA_ERROR)
		return s;
	/*
	 * READ-class results may use the chunks they pair with (unused ones are
	 * RR-088/164/166), unless GSS protects them; an NFSv4 chunk that pairs
	 * with no READ-class op holds no eligible result.
	 */
	{
		bool results = proc_has_results(m) && !gss_protected(m);
		uint32_t k;

		for (k = 0; k < m->hdr->n_write_chunks; k++) {
			uint64_t len = rr_chunk_length(m->hdr, &m->hdr->writes[k]);

			if (len && (!results || ck_write_chunk_stray(m, k))) {
				s.found = true;
				s.surplus = results;
				s.chunk = k;
				s.bytes = len;
				return s;
			}
		}
	}
	return s;
}

/* The one rule that owns the stray chunk of this message, or RR_RULE_COUNT. */
static enum rr_rule_id owner_of(const struct rr_message *m)
{
	if (m->backchannel)
		return RR_147_CALLBACK;   /* and RR-191 for the shape */
	if (gss_control(m))
		return RR_151_GSS_CONTROL;
	if (gss_protected(m))
		return RR_152_GSS_PROTECTED;
	if (m->dir == RR_DIR_CALL && ck_is_long_call(m->hdr))
		return RR_148_PZRC_DODGE;
	switch (kind_of(m)) {
	case DDP_NFS23:
		return RR_141_NFS3_ELIGIBLE;
	case DDP_NFS4:
		return RR_143_NFS4_ELIGIBLE;
	case DDP_NFSACL:
		return RR_145_NFSACL;
	case DDP_AUX:
		return RR_146_AUX;
	case DDP_CALLBACK:
		return RR_147_CALLBACK;
	case DDP_OTHER:
		break;
	}
	return RR_RULE_COUNT;
}

/* Does this rule own the stray chunk of this fact's message?  Found once per fact, for its eight rules. */
static bool owns(struct rr_checker *ck, const struct rr_message *m, enum rr_rule_id rule)
{
	if (ck->stray_owner_fact != ck->n_facts) {
		ck->stray_owner_fact = ck->n_facts;
		ck->stray_owner = owner_of(m);
	}
	return ck->stray_owner == rule;
}

static void check_stray(struct rr_checker *ck, const struct rr_fact *f, enum rr_rule_id rule)
{
	const struct rr_message *m = f->msg;
	struct stray s;
	char what[48];

	if (!owns(ck, m, rule))
		return;
	/*
	 * A call's stray chunk is found against the items a complete walk found.
	 * A reply's needs only the call's procedure: a used chunk where none can
	 * be used (and the data it took makes the walk fail anyway).
	 */
	if (!m->has_rpc || (m->dir == RR_DIR_CALL && !gss_protected(m) && !gss_control(m) &&
			    kind_of(m) != DDP_OTHER && m->ulp_result != RR_ULP_OK) ||
	    (m->dir == RR_DIR_REPLY && !m->call_ulp)) {
		ck_skip(ck, rule);
		return;
	}
	if (m->capture_loss) {
		ck_skip(ck, rule);
		return;
	}
	s = find_stray(m);
	if (!s.found)
		return;
	ck_describe_call(m, what, sizeof(what));
	if (m->dir == RR_DIR_CALL) {
		struct ck_call *c = ck_call_find(ck, m->conn_id, m->backchannel ? 1 : 0, m->xid);

		if (c)
			c->flags |= CK_CALL_BAD_CHUNK;
		ck_report(ck, f, rule, m->send_frame,
			  "%s call XID 0x%08x reduces %" G_GUINT64_FORMAT " bytes at Position %u into a read chunk, "
			  "but no DDP-eligible item starts there", what, m->xid, s.bytes, s.position);
	} else if (s.surplus) {
		ck_report(ck, f, rule, m->send_frame,
			  "%s reply XID 0x%08x returns %" G_GUINT64_FORMAT " bytes written into Write chunk %u, "
			  "which pairs with no READ or READLINK (the COMPOUND has %u): only their results go into "
			  "Write chunks", what, m->xid, s.bytes, s.chunk, m->call_ulp->n_ddp_capable);
	} else {
		ck_report(ck, f, rule, m->send_frame,
			  "%s reply XID 0x%08x returns %" G_GUINT64_FORMAT " bytes in Write chunk %u, but the "
			  "procedure has no DDP-eligible result", what, m->xid, s.bytes, s.chunk);
	}
}

void ck_rr141(struct rr_checker *ck, const struct rr_fact *f) { check_stray(ck, f, RR_141_NFS3_ELIGIBLE); }
void ck_rr143(struct rr_checker *ck, const struct rr_fact *f) { check_stray(ck, f, RR_143_NFS4_ELIGIBLE); }
void ck_rr145(struct rr_checker *ck, const struct rr_fact *f) { check_stray(ck, f, RR_145_NFSACL); }
void ck_rr146(struct rr_checker *ck, const struct rr_fact *f) { check_stray(ck, f, RR_146_AUX); }
void ck_rr147(struct rr_checker *ck, const struct rr_fact *f) { check_stray(ck, f, RR_147_CALLBACK); }
void ck_rr148(struct rr_checker *ck, const struct rr_fact *f) { check_stray(ck, f, RR_148_PZRC_DODGE); }
void ck_rr151(struct rr_checker *ck, const struct rr_fact *f) { check_stray(ck, f, RR_151_GSS_CONTROL); }
void ck_rr152(struct rr_checker *ck, const struct rr_fact *f) { check_stray(ck, f, RR_152_GSS_PROTECTED); }

void ck_rr142(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	struct ck_rchunk rc[RR_HDR_MAX_SEGS];
	size_t n;
	uint32_t k;

	if (kind_of(m) != DDP_NFS23 || m->backchannel)
		return;
	if (m->dir == RR_DIR_CALL) {
		n = ck_read_chunks(m->hdr, m->hdr->proc == RR_RDMA_NOMSG, rc, G_N_ELEMENTS(rc));
		if (n > 1)
			ck_report(ck, f, RR_142_NFS3_ONE_ITEM, m->send_frame,
				  "NFSv%u call XID 0x%08x has read chunks at %zu Positions; an NFSv2/v3 procedure has at "
				  "most one eligible argument", m->call.vers, m->xid, n);
		return;
	}
	if (!m->call_hdr || m->hdr->proc == RR_RDMA_ERROR || !proc_has_results(m))
		return;
	for (k = 1; k < m->hdr->n_write_chunks; k++)
		if (rr_chunk_length(m->hdr, &m->hdr->writes[k])) {
			ck_report(ck, f, RR_142_NFS3_ONE_ITEM, m->send_frame,
				  "NFSv3 reply XID 0x%08x returns %" G_GUINT64_FORMAT " bytes in extra Write chunk %u",
				  m->xid, rr_chunk_length(m->hdr, &m->hdr->writes[k]), k);
			return;
		}
}

void ck_rr149(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;

	if (m->dir != RR_DIR_CALL || !m->has_rpc || m->backchannel || kind_of(m) != DDP_OTHER)
		return;
	ck_report(ck, f, RR_149_NO_ULB, m->send_frame,
		  "program %u version %u (XID 0x%08x) has no Upper-Layer Binding to RPC-over-RDMA", m->call.prog,
		  m->call.vers, m->xid);
}

void ck_rr150(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;

	if (m->dir == RR_DIR_CALL && m->has_ulp && m->ulp.prog == RR_NFS_PROGRAM && m->ulp.vers == 4 &&
	    m->ulp.proc == 1 && m->ulp.minorversion > 2)
		ck_report(ck, f, RR_150_MINORVERS, m->send_frame,
			  "NFSv4.%u COMPOUND XID 0x%08x: RFC 8267 covers minor versions 0 to 2", m->ulp.minorversion,
			  m->xid);
}

void ck_rr153(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;

	if (m->dir == RR_DIR_CALL && gss_protected(m) && ck_is_long_call(m->hdr))
		ck_report(ck, f, RR_153_GSS_LONG, m->send_frame,
			  "RPCSEC_GSS %s call XID 0x%08x travels as a Long Call",
			  m->ulp.gss_service == 2 ? "integrity" : "privacy", m->xid);
}
