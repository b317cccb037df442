// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Checks of group N that read rpcbind (program 100000) traffic carried over
 * RPC-over-RDMA: an NFSv4 client asking where NFSv4 listens (RR-201), a
 * server answering that MOUNT, NLM or NSM is not offered over TCP (RR-203).
 * rpcbind over TCP or UDP is not decoded: these see only what crosses RDMA.
 */
#include <string.h>

#include "conn_state.h"
#include "check_int.h"

#define RPCB_PROG 100000u
#define RPCB_GETPORT 3u            /* version 2 PMAPPROC_GETPORT; versions 3, 4 RPCBPROC_GETADDR */
#define IPPROTO_TCP_NUM 6u

static bool word(const struct rr_message *m, size_t off, uint32_t *v)
{
	const uint8_t *p;

	if (off + 4 > m->payload_len)
		return false;
	p = m->payload + off;
	*v = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
	return true;
}

/* A GETPORT or GETADDR call: the program and version it asks for, and whether it asks for TCP. */
static bool rpcb_query(const struct rr_message *m, uint32_t *prog, uint32_t *vers, bool *tcp)
{
	size_t a = m->call.args_off;
	uint32_t w, len;

	if (m->dir != RR_DIR_CALL || !m->has_rpc || !m->complete || m->call.prog != RPCB_PROG ||
	    m->call.proc != RPCB_GETPORT || m->call.vers < 2 || m->call.vers > 4 ||
	    !word(m, a, prog) || !word(m, a + 4, vers))
		return false;
	if (m->call.vers == 2) {   /* struct mapping { prog, vers, prot, port } */
		*tcp = word(m, a + 8, &w) && w == IPPROTO_TCP_NUM;
		return true;
	}
	/* struct rpcb { r_prog, r_vers, string r_netid, ... }: "tcp" or "tcp6" */
	*tcp = word(m, a + 8, &len) && (len == 3 || len == 4) && a + 12 + len <= m->payload_len &&
	       !memcmp(m->payload + a + 12, "tcp6", len);
	return true;
}

static bool aux_program(uint32_t prog)
{
	return prog == 100005u || prog == 100021u || prog == 100024u;
}

/*
 * RFC 8267 6.3: NFSv4 clients "SHOULD connect to this well-known port
 * without consulting the RPC portmapper".  A GETPORT or GETADDR for NFS
 * version 4 is that consultation.  Once per connection.
 */
void ck_rr201(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	struct ck_conn_state *cs;
	uint32_t prog, vers;
	bool tcp;

	if (!rpcb_query(m, &prog, &vers, &tcp) || prog != RR_NFS_PROGRAM || vers != 4)
		return;
	cs = ck_conn(ck, m->conn_id);
	if (cs->rpcb_nfs4_reported)
		return;
	cs->rpcb_nfs4_reported = true;
	ck_report(ck, f, RR_201_NO_PORTMAP, m->send_frame,
		  "rpcbind version %u call XID 0x%08x asks where NFS version 4 listens, though NFSv4 over "
		  "RPC-over-RDMA has its well-known port 20049", m->call.vers, m->xid);
}

/*
 * RFC 8267 5.1: "a Legacy NFS server MUST provide support for these
 * protocols [MOUNT, NLM, NSM] via TCP".  Its rpcbind answering a TCP query
 * for one of them with port 0 (version 2) or an empty address (versions 3
 * and 4) says it does not.  The query is remembered per connection.
 */
void ck_rr203(struct rr_checker *ck, const struct rr_fact *f)
{
	const struct rr_message *m = f->msg;
	struct ck_conn_state *cs = ck_conn(ck, m->conn_id);
	uint32_t prog, vers, v;
	bool tcp;
	uint64_t frames[2];

	if (m->dir == RR_DIR_CALL) {
		if (rpcb_query(m, &prog, &vers, &tcp) && tcp && aux_program(prog)) {
			cs->rpcb_query = true;
			cs->rpcb_xid = m->xid;
			cs->rpcb_prog = prog;
			cs->rpcb_vers = vers;
			cs->rpcb_rpcvers = m->call.vers;
			cs->rpcb_frame = m->send_frame;
		}
		return;
	}
	if (!cs->rpcb_query || m->xid != cs->rpcb_xid || m->backchannel)
		return;
	cs->rpcb_query = false;
	if (!m->has_rpc || !m->complete || m->reply.reply_stat != 0 || m->reply.accept_stat != 0 ||
	    !word(m, m->reply.res_off, &v) || v != 0)
		return;   /* version 2: the port; versions 3 and 4: the length of the universal address */
	frames[0] = m->send_frame;
	frames[1] = cs->rpcb_frame;
	ck_report_full(ck, RR_203_AUX_TCP, m->send_frame, frames, 2, m->conn_id, true, m->xid,
		       "rpcbind reply XID 0x%08x says %s version %u is not offered over TCP (%s); a legacy NFS "
		       "server must offer MOUNT, NLM and NSM over TCP", m->xid,
		       cs->rpcb_prog == 100005u ? "MOUNT" : cs->rpcb_prog == 100021u ? "NLM" : "NSM",
		       cs->rpcb_vers, cs->rpcb_rpcvers == 2 ? "port 0" : "an empty address");
}
