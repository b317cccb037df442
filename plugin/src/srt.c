// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * srt.c - the Service Response Time table: Statistics > Service Response
 * Time > RPC-over-RDMA, and `tshark -z rpcrdma,srt[,FILTER]`.
 *
 * One row per operation (the engine's label, "NFS v3 READ"), the time from
 * the call's Send to the reply's: what the reply shows as rpcrdma.time,
 * counted for the replies ulb-lint --summary times (rrp_reply_time).  The
 * forward channel and the backchannel (NFSv4.1 callbacks) are two tables,
 * so the first matches ulb-lint's per-operation response-time table.
 *
 * Operations are not known in advance: a row is added the first time its
 * label is seen, so row indexes carry no meaning beyond one run, and the
 * table offers no "apply as filter" field (filter on rpcrdma.op instead).
 */
#include "ws_compat.h"

#include <string.h>

#include <epan/srt_table.h>
#include <epan/tap.h>

#include "rpcrdma_plugin.h"

enum { SRT_FORWARD, SRT_BACKCHANNEL, SRT__N };

static void srt_init(struct register_srt *srt, GArray *srt_array)
{
	(void)srt;
	init_srt_table("RPC-over-RDMA", NULL, srt_array, 0, "Operation", NULL, NULL);
	init_srt_table("RPC-over-RDMA backchannel", NULL, srt_array, 0, "Operation", NULL, NULL);
}

/* The row of an operation, added when first seen. */
static int srt_row(srt_stat_table *rst, const char *op)
{
	int i;

	for (i = 0; i < rst->num_procs; i++)
		if (rst->procedures[i].procedure && !strcmp(rst->procedures[i].procedure, op))
			return i;
	init_srt_table_row(rst, rst->num_procs, op);
	return rst->num_procs - 1;
}

static tap_packet_status srt_packet(void *pss, packet_info *pinfo, epan_dissect_t *edt, const void *prv,
				    tap_flags_t flags)
{
	srt_data_t *data = pss;
	const struct rrp_msg *m = ((const struct rrp_tap_info *)prv)->msg;
	srt_stat_table *rst;
	nstime_t rtt, call_time;
	uint64_t us;

	(void)edt;
	(void)flags;
	if (!rrp_reply_time(m, &us) || data->srt_array->len < SRT__N)
		return TAP_PACKET_DONT_REDRAW;
	rst = g_array_index(data->srt_array, srt_stat_table *, m->v.backchannel ? SRT_BACKCHANNEL : SRT_FORWARD);
	/*
	 * add_srt_table_data() measures from a request time to this frame's
	 * time; the reply's time is its Send's, which need not be this frame's
	 * (a message is drawn in the frame that completes it).  The request
	 * time given is set back from this frame by the engine's measure, so
	 * the table holds exactly rpcrdma.time.
	 */
	rtt.secs = (time_t)(us / 1000000u);
	rtt.nsecs = (int)(us % 1000000u) * 1000;
	nstime_delta(&call_time, &pinfo->abs_ts, &rtt);
	add_srt_table_data(rst, srt_row(rst, m->v.op), &call_time, pinfo);
	return TAP_PACKET_REDRAW;
}

void rrp_srt_register(void)
{
	register_srt_table(proto_rpcrdma, "rpcrdma", SRT__N, srt_packet, srt_init, NULL);
}
