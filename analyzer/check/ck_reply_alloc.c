// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RR-186 (group L): a requester provides reply resources for the largest
 * possible reply (RFC 8166 §6.2, §4.3.3).  An observer knows that size
 * only where the call's arguments bound it: the count of NFSv3 READDIR
 * (the maximum size of READDIR3resok, RFC 1813 3.3.16), the maxcount of
 * NFSv3 READDIRPLUS (READDIRPLUS3resok, 3.3.17) and of NFSv4 READDIR
 * (READDIR4resok, RFC 7530 16.24).  READ's count is RR-082's.
 *
 * Both sides of the comparison lean towards silence: the reply is taken
 * as the count plus the smallest RPC reply header (an AUTH_NONE verifier)
 * and results around it, and the resources offered as the larger of the
 * requester's inline threshold (the transport header not deducted) and
 * its Reply chunk, plus every Write chunk's bytes.
 */
#include <stdio.h>

#include "check_int.h"

/* xid, msg_type, reply_stat, verifier flavor and length, accept_stat (RFC 5531 9). */
#define MIN_RPC_REPLY 24u
/* NFSv4 COMPOUND4res: status, an empty tag, the result count (RFC 7530 15.2). */
#define MIN_COMPOUND_RES 12u
/* An NFSv4 op's result: the op and its status. */
#define MIN_OP_RES 8u

/* The NFSv3 procedures whose count bounds the resok structure. */
enum { NFS3_READDIR = 16, NFS3_READDIRPLUS = 17, NFS4_OP_READDIR = 26 };

/*
 * The smallest reply the largest reply the call allows can be, and the
 * directory bytes asked for; 0 when the call bounds no reply.
 */
static uint64_t largest_reply(const struct rr_message *m, uint64_t *asked)
{
	const struct rr_ulp_info *u = &m->ulp;
	uint64_t need = 0;

	*asked = 0;
	if (ck_is_nfs(m, 3, 3)) {
		if (m->ulp_result != RR_ULP_OK ||
		    (m->call.proc != NFS3_READDIR && m->call.proc != NFS3_READDIRPLUS))
			return 0;
		*asked = u->op_count[0];
		return MIN_RPC_REPLY + 4 + *asked;   /* + nfsstat3 */
	}
	if (!ck_is_nfs(m, 4, 4) || m->call.proc != RR_NFS_PROC_COMPOUND || u->ops_truncated)
		return 0;
	for (uint16_t i = 0; i < u->n_ops; i++)
		if (u->ops[i] == NFS4_OP_READDIR) {
			*asked += u->op_count[i];
			need += MIN_OP_RES + u->op_count[i];
		}
	return need ? MIN_RPC_REPLY + MIN_COMPOUND_RES + need : 0;
}

/* "a Reply chunk of 4096 bytes", "no Reply chunk", then the Write chunks if any. */
static void describe_chunks(const struct rr_hdr *h, uint64_t reply, uint64_t writes, char *buf,
			    size_t len)
{
	size_t at;

	if (h->has_reply)
		at = (size_t)snprintf(buf, len, "a Reply chunk of %" G_GUINT64_FORMAT " bytes", reply);
	else
		at = (size_t)snprintf(buf, len, "no Reply chunk");
	if (h->n_write_chunks && at < len)
		snprintf(buf + at, len - at, ", %u Write chunks of %" G_GUINT64_FORMAT " bytes",
			 h->n_write_chunks, writes);
}

void ck_rr186(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	const struct rr_hdr *h = m->hdr;
	uint64_t asked, need, reply = 0, writes = 0, offered;
	uint32_t t;
	char what[64], chunks[96];

	if (m->dir != RR_DIR_CALL || m->backchannel || !m->has_ulp || m->capture_loss)
		return;
	need = largest_reply(m, &asked);
	if (!need)
		return;
	if (h->has_reply)
		reply = rr_chunk_length(h, &h->reply);
	for (uint32_t k = 0; k < h->n_write_chunks; k++)
		writes += rr_chunk_length(h, &h->writes[k]);
	if (reply + writes >= need)
		return;
	if (!ck_threshold_known(&m->conn) || !m->conn.inline_requester) {
		ck_skip_why(ck, RR_186_MAX_RESOURCES, RR_SKIP_NO_THRESHOLD);
		return;
	}
	t = m->conn.inline_requester;
	offered = MAX((uint64_t)t, reply) + writes;
	if (offered >= need)
		return;
	ck_describe_call(m, what, sizeof(what));
	describe_chunks(h, reply, writes, chunks, sizeof(chunks));
	ck_report(ck, f, RR_186_MAX_RESOURCES, m->send_frame,
		  "%s call XID 0x%08x asks for up to %" G_GUINT64_FORMAT " bytes of directory entries, yet "
		  "offered %" G_GUINT64_FORMAT " bytes of reply resources. Inferred: a reply of at least %"
		  G_GUINT64_FORMAT " bytes, against %s and an inline threshold of %u (%s)",
		  what, m->xid, asked, offered, need, chunks, t, ck_inline_source(m->conn.inline_source));
}
