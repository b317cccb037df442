// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The --dump record.  JSON Lines fields: xid ("0x…"), dir, conn, conn_name,
 * transport, frames, first_frame, last_frame, rdma_proc, rpc_program,
 * rpc_version, rpc_procedure (NFSv4 COMPOUND: the op names), payload_len,
 * payload_sha256, complete, backchannel.
 */
#include <glib.h>
#include <inttypes.h>

#include "dump.h"
#include "lint.h"

static const char *transport_name(uint8_t t)
{
	static const char *const names[] = { "?", "ib", "rocev1", "rocev2", "iwarp" };

	return t < G_N_ELEMENTS(names) ? names[t] : "?";
}

static const char *op_name(uint32_t prog, uint32_t op, char *buf, size_t n)
{
	const char *name = prog == RR_NFS_PROGRAM ? rr_nfs4_op_name(op) : rr_nfs4_cb_op_name(op);

	if (name)
		return name;
	snprintf(buf, n, "OP_%u", op);
	return buf;
}

static void json_procedure(FILE *out, const struct rr_message *m)
{
	const struct rr_msg_view *v = &m->view;
	char buf[32];
	unsigned i;

	if (!v->compound) {
		fprintf(out, "%u", v->rpc_proc);
		return;
	}
	fputc('[', out);
	for (i = 0; i < m->ulp.n_ops; i++)
		fprintf(out, "%s\"%s\"", i ? "," : "", op_name(v->rpc_prog, m->ulp.ops[i], buf, sizeof(buf)));
	fputc(']', out);
}

/* The RPC XID when the message has one; rdma_xid otherwise (RDMA_ERROR, RDMA_DONE). */
static uint32_t msg_xid(const struct rr_message *m)
{
	if (m->has_rpc)
		return m->dir == RR_DIR_CALL ? m->call.xid : m->reply.xid;
	return m->xid;
}

/* The chunk shape of the Send's header: distinct read Positions, write chunks, reply chunk. */
static void json_chunks(FILE *out, const struct rr_hdr *h)
{
	uint32_t i, j;

	fputs(",\"read_positions\":[", out);
	for (i = 0; i < h->n_reads; i++) {
		for (j = 0; j < i && h->reads[j].position != h->reads[i].position; j++)
			;
		if (j == i)
			fprintf(out, "%s%u", i ? "," : "", h->reads[i].position);
	}
	fprintf(out, "],\"write_chunks\":%u,\"reply_chunk\":%s", h->n_write_chunks,
		h->has_reply ? "true" : "false");
}

static void dump_json(FILE *out, const struct rr_message *m)
{
	const struct rr_msg_view *v = &m->view;
	char sha[RR_SHA256_HEX_LEN];
	size_t i;

	rr_message_sha256(m, sha);
	fprintf(out, "{\"xid\":\"0x%08x\",\"dir\":\"%s\",\"conn\":%u,\"conn_name\":", msg_xid(m),
		m->dir == RR_DIR_CALL ? "call" : "reply", m->conn_id);
	lint_json_string(out, m->conn_name);
	fprintf(out, ",\"transport\":\"%s\",\"frames\":[", transport_name(m->transport));
	for (i = 0; i < m->n_frames; i++)
		fprintf(out, "%s%" PRIu64, i ? "," : "", m->frames[i]);
	fprintf(out, "],\"first_frame\":%" PRIu64 ",\"last_frame\":%" PRIu64,
		m->n_frames ? m->frames[0] : 0, m->n_frames ? m->frames[m->n_frames - 1] : 0);
	fprintf(out, ",\"rdma_proc\":\"%s\",\"rdma_hdr_len\":%zu", rr_hdr_proc_name(m->hdr->proc),
		m->hdr->hdr_len);
	json_chunks(out, m->hdr);
	if (v->has_ids) {
		fprintf(out, ",\"rpc_program\":%u,\"rpc_version\":%u,\"rpc_procedure\":", v->rpc_prog, v->rpc_vers);
		json_procedure(out, m);
	} else {
		fprintf(out, ",\"rpc_program\":null,\"rpc_version\":null,\"rpc_procedure\":null");
	}
	fprintf(out, ",\"payload_len\":%zu,\"payload_sha256\":\"%s\",\"complete\":%s,\"backchannel\":%s}\n",
		m->payload_len, sha, m->complete ? "true" : "false", m->backchannel ? "true" : "false");
}

static void dump_text(FILE *out, const struct rr_message *m)
{
	const struct rr_msg_view *v = &m->view;
	char sha[RR_SHA256_HEX_LEN];
	char what[160] = "-";
	char buf[32];

	rr_message_sha256(m, sha);
	if (v->has_ids) {
		const char *pname = rr_rpc_program_name(v->rpc_prog);
		int n = snprintf(what, sizeof(what), "%s v%u ", pname ? pname : "prog", v->rpc_vers);

		if (v->compound) {
			unsigned i;

			for (i = 0; i < m->ulp.n_ops && n > 0 && (size_t)n < sizeof(what); i++)
				n += snprintf(what + n, sizeof(what) - (size_t)n, "%s%s", i ? "," : "",
					      op_name(v->rpc_prog, m->ulp.ops[i], buf, sizeof(buf)));
		} else {
			const char *name = rr_ulp_proc_name(v->rpc_prog, v->rpc_vers, v->rpc_proc);

			if (name)
				snprintf(what + n, sizeof(what) - (size_t)n, "%s", name);
			else
				snprintf(what + n, sizeof(what) - (size_t)n, "proc %u", v->rpc_proc);
		}
	}
	fprintf(out, "%7" PRIu64 "-%-7" PRIu64 " c%-3u %-5s 0x%08x %-10s %8zu %.16s %s%s%s\n",
		m->n_frames ? m->frames[0] : 0, m->n_frames ? m->frames[m->n_frames - 1] : 0, m->conn_id,
		m->dir == RR_DIR_CALL ? "call" : "reply", msg_xid(m), rr_hdr_proc_name(m->hdr->proc),
		m->payload_len, sha, what, m->backchannel ? " [backchannel]" : "",
		m->complete ? "" : " [incomplete]");
}

void dump_header(FILE *out, enum dump_format fmt)
{
	if (fmt == DUMP_TEXT)
		fprintf(out, "%-15s %-4s %-5s %-10s %-10s %8s %-16s %s\n", "frames", "conn", "dir", "xid",
			"rdma_proc", "length", "sha256", "rpc");
}

void dump_message(FILE *out, enum dump_format fmt, const struct rr_message *m)
{
	if (fmt == DUMP_JSON)
		dump_json(out, m);
	else
		dump_text(out, m);
}
