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

static const char *transport_name(uint8_t t)
{
	static const char *const names[] = { "?", "ib", "rocev1", "rocev2", "iwarp" };

	return t < G_N_ELEMENTS(names) ? names[t] : "?";
}

static char *sha256_hex(const struct rr_message *m)
{
	return g_compute_checksum_for_data(G_CHECKSUM_SHA256, m->payload ? m->payload : (const guchar *)"",
					   m->payload_len);
}

/* Program/version/procedure of an RPC message; a reply takes them from its call. */
static bool rpc_ids(const struct rr_message *m, uint32_t *prog, uint32_t *vers, uint32_t *proc)
{
	if (!m->has_rpc)
		return false;
	if (m->dir == RR_DIR_CALL) {
		*prog = m->call.prog;
		*vers = m->call.vers;
		*proc = m->call.proc;
		return true;
	}
	if (m->dir == RR_DIR_REPLY && m->call_ulp) {
		*prog = m->call_ulp->prog;
		*vers = m->call_ulp->vers;
		*proc = m->call_ulp->proc;
		return true;
	}
	return false;
}

static bool is_compound(const struct rr_message *m, uint32_t prog, uint32_t vers, uint32_t proc)
{
	return m->has_ulp && proc == 1 &&
	       ((prog == RR_NFS_PROGRAM && vers == 4) || (prog >= 0x40000000u && prog <= 0x5fffffffu));
}

static const char *op_name(uint32_t prog, uint32_t op, char *buf, size_t n)
{
	const char *name = prog == RR_NFS_PROGRAM ? rr_nfs4_op_name(op) : rr_nfs4_cb_op_name(op);

	if (name)
		return name;
	snprintf(buf, n, "OP_%u", op);
	return buf;
}

static void json_procedure(FILE *out, const struct rr_message *m, uint32_t prog, uint32_t vers,
			   uint32_t proc)
{
	char buf[32];
	unsigned i;

	if (!is_compound(m, prog, vers, proc)) {
		fprintf(out, "%u", proc);
		return;
	}
	fputc('[', out);
	for (i = 0; i < m->ulp.n_ops; i++)
		fprintf(out, "%s\"%s\"", i ? "," : "", op_name(prog, m->ulp.ops[i], buf, sizeof(buf)));
	fputc(']', out);
}

static void json_escape(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(out, "\\u%04x", *s);
		else
			fputc(*s, out);
	}
	fputc('"', out);
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
	uint32_t prog, vers, proc;
	char *sha = sha256_hex(m);
	size_t i;

	fprintf(out, "{\"xid\":\"0x%08x\",\"dir\":\"%s\",\"conn\":%u,\"conn_name\":", msg_xid(m),
		m->dir == RR_DIR_CALL ? "call" : "reply", m->conn_id);
	json_escape(out, m->conn_name ? m->conn_name : "");
	fprintf(out, ",\"transport\":\"%s\",\"frames\":[", transport_name(m->transport));
	for (i = 0; i < m->n_frames; i++)
		fprintf(out, "%s%" PRIu64, i ? "," : "", m->frames[i]);
	fprintf(out, "],\"first_frame\":%" PRIu64 ",\"last_frame\":%" PRIu64,
		m->n_frames ? m->frames[0] : 0, m->n_frames ? m->frames[m->n_frames - 1] : 0);
	fprintf(out, ",\"rdma_proc\":\"%s\",\"rdma_hdr_len\":%zu", rr_hdr_proc_name(m->hdr->proc),
		m->hdr->hdr_len);
	json_chunks(out, m->hdr);
	if (rpc_ids(m, &prog, &vers, &proc)) {
		fprintf(out, ",\"rpc_program\":%u,\"rpc_version\":%u,\"rpc_procedure\":", prog, vers);
		json_procedure(out, m, prog, vers, proc);
	} else {
		fprintf(out, ",\"rpc_program\":null,\"rpc_version\":null,\"rpc_procedure\":null");
	}
	fprintf(out, ",\"payload_len\":%zu,\"payload_sha256\":\"%s\",\"complete\":%s,\"backchannel\":%s}\n",
		m->payload_len, sha, m->complete ? "true" : "false", m->backchannel ? "true" : "false");
	g_free(sha);
}

static void dump_text(FILE *out, const struct rr_message *m)
{
	uint32_t prog, vers, proc;
	char *sha = sha256_hex(m);
	char what[160] = "-";
	char buf[32];

	if (rpc_ids(m, &prog, &vers, &proc)) {
		const char *pname = rr_rpc_program_name(prog);
		int n = snprintf(what, sizeof(what), "%s v%u ", pname ? pname : "prog", vers);

		if (is_compound(m, prog, vers, proc)) {
			unsigned i;

			for (i = 0; i < m->ulp.n_ops && n > 0 && (size_t)n < sizeof(what); i++)
				n += snprintf(what + n, sizeof(what) - (size_t)n, "%s%s", i ? "," : "",
					      op_name(prog, m->ulp.ops[i], buf, sizeof(buf)));
		} else {
			const char *name = rr_ulp_proc_name(prog, vers, proc);

			if (name)
				snprintf(what + n, sizeof(what) - (size_t)n, "%s", name);
			else
				snprintf(what + n, sizeof(what) - (size_t)n, "proc %u", proc);
		}
	}
	fprintf(out, "%7" PRIu64 "-%-7" PRIu64 " c%-3u %-5s 0x%08x %-10s %8zu %.16s %s%s%s\n",
		m->n_frames ? m->frames[0] : 0, m->n_frames ? m->frames[m->n_frames - 1] : 0, m->conn_id,
		m->dir == RR_DIR_CALL ? "call" : "reply", msg_xid(m), rr_hdr_proc_name(m->hdr->proc),
		m->payload_len, sha, what, m->backchannel ? " [backchannel]" : "",
		m->complete ? "" : " [incomplete]");
	g_free(sha);
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
