// SPDX-License-Identifier: GPL-2.0-or-later
/* iWARP connection life cycle: TCP handshake, MPA Request/Reply (RFC 5044
 * 7, enhanced by RFC 6581), FIN exchange. */
#include "pg_iwarp.h"

#include "pg_buf.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#define MPA_FLAG_M 0x80
#define MPA_FLAG_C 0x40
#define IRD_ORD 16

static void syn(pg_iw *w, int from, uint8_t flags)
{
	uint16_t mss = (uint16_t)w->mss;
	const uint8_t opts[12] = { 2, 4, (uint8_t)(mss >> 8), (uint8_t)mss, /* MSS */
				   1, 1, 4, 2,                                /* SACK permitted */
				   1, 3, 3, WSCALE };                         /* window scale */
	pg_iw_tcp_emit(w, from, w->side[from].isn, flags, NULL, 0, opts, sizeof(opts), NULL, 0);
	w->side[from].nxt = w->side[from].isn + 1;
}

static void mpa_frame(pg_iw *w, int from)
{
	pg_xctx *c = w->base.ctx;
	GByteArray *b = g_byte_array_new(), *pd = g_byte_array_new();
	uint8_t flags = (uint8_t)((w->markers ? MPA_FLAG_M : 0) | (w->crc ? MPA_FLAG_C : 0));
	pb_bytes(b, from == PG_CLIENT ? "MPA ID Req Frame" : "MPA ID Rep Frame", 16);
	if (c->s->mpa_rev == 2) {
		/* RFC 6581 IRD/ORD; no peer-to-peer mode, so no RTR message */
		pb_be16(pd, IRD_ORD);
		pb_be16(pd, IRD_ORD);
	}
	pg_cm_private(pd, c);
	pb_u8(b, flags);
	pb_u8(b, (uint8_t)c->s->mpa_rev);
	pb_be16(b, (uint16_t)pd->len);
	pb_bytes(b, pd->data, pd->len);
	pg_cap_gap(c->cap, 30);
	pg_iw_tcp_emit(w, from, w->side[from].nxt, PG_TCP_ACK | PG_TCP_PSH, b->data, b->len, NULL, 0,
		       NULL, 0);
	w->side[from].nxt += b->len;
	g_byte_array_free(b, TRUE);
	g_byte_array_free(pd, TRUE);
}

static void iw_connect(pg_xport *x)
{
	pg_iw *w = (pg_iw *)x;
	if (!x->ctx->s->handshake)
		return;
	syn(w, PG_CLIENT, PG_TCP_SYN);
	pg_cap_gap(x->ctx->cap, 40);
	syn(w, PG_SERVER, PG_TCP_SYN | PG_TCP_ACK);
	pg_iw_pure_ack(w, PG_CLIENT);
	mpa_frame(w, PG_CLIENT);
	mpa_frame(w, PG_SERVER);
	pg_iw_pure_ack(w, PG_CLIENT);
	pg_cap_gap(x->ctx->cap, 200);
}

static void fin(pg_iw *w, int from)
{
	pg_iw_tcp_emit(w, from, w->side[from].nxt, PG_TCP_FIN | PG_TCP_ACK, NULL, 0, NULL, 0, NULL,
		       0);
	w->side[from].nxt += 1;
}

static void iw_disconnect(pg_xport *x)
{
	pg_iw *w = (pg_iw *)x;
	const pg_scenario *s = x->ctx->s;
	/* Without the handshake the capture starts mid-connection; a scenario
	 * that reconnects still shows where each TCP connection ends. */
	if (!s->disconnect || (!s->handshake && !s->reconnects))
		return;
	pg_cap_gap(x->ctx->cap, 1000);
	fin(w, PG_CLIENT);
	fin(w, PG_SERVER);
	pg_iw_pure_ack(w, PG_CLIENT);
}

static void iw_conninfo(pg_xport *x, pg_conninfo *ci)
{
	pg_iw *w = (pg_iw *)x;
	memset(ci, 0, sizeof(*ci));
	ci->name = w->name;
	ci->client = w->client;
	ci->server = w->server;
}

static void iw_destroy(pg_xport *x)
{
	pg_iw *w = (pg_iw *)x;
	g_byte_array_free(w->stream, TRUE);
	g_array_free(w->spans, TRUE);
	g_array_free(w->dup_at, TRUE);
	g_array_free(w->reorder_at, TRUE);
	g_byte_array_free(w->frame, TRUE);
	g_byte_array_free(w->ulpdu, TRUE);
	g_free(w);
}

static void endpoint(const pg_iw *w, int side, char *out, size_t len)
{
	const pg_net *n = &w->base.ctx->net;
	char a[INET6_ADDRSTRLEN];
	if (n->link->l3 == PG_L3_IPV6) {
		inet_ntop(AF_INET6, n->host[side].ip6, a, sizeof(a));
		snprintf(out, len, "[%s]:%u", a, w->side[side].port);
	} else {
		inet_ntop(AF_INET, n->host[side].ip4, a, sizeof(a));
		snprintf(out, len, "%s:%u", a, w->side[side].port);
	}
}

pg_xport *pg_iwarp_new(pg_xctx *ctx)
{
	pg_iw *w = g_new0(pg_iw, 1);
	const pg_scenario *s = ctx->s;
	pg_rng r = pg_rng_derive(ctx->seed, 0x495741, 0);
	uint32_t hdrs = s->link->l3 == PG_L3_IPV6 ? 60 : 40, room;

	w->base.ctx = ctx;
	w->base.connect = iw_connect;
	w->base.burst = pg_iw_burst;
	w->base.terminate = pg_iw_terminate;
	w->base.disconnect = iw_disconnect;
	w->base.conninfo = iw_conninfo;
	w->base.destroy = iw_destroy;
	w->crc = s->link->mpa_crc;
	w->markers = s->link->mpa_markers;
	w->aligned = s->tcp_seg == PG_SEG_ALIGNED || (s->tcp_seg == PG_SEG_AUTO && w->markers);
	w->mss = s->mss ? s->mss : (s->mtu > hdrs + 64 ? s->mtu - hdrs : 64);
	/* MULPDU: what fits one segment with MPA length, pad, CRC and markers */
	room = w->mss - 8 - (w->markers ? 4 * (w->mss / 512 + 2) : 0);
	w->ulpdu_max = room & ~3u;
	if (s->fpdu_max)
		w->ulpdu_max = s->fpdu_max & ~3u;
	if (w->ulpdu_max < 64)
		w->ulpdu_max = 64;
	w->stream = g_byte_array_new();
	w->spans = g_array_new(FALSE, FALSE, sizeof(span_t));
	w->dup_at = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	w->reorder_at = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	w->frame = g_byte_array_new();
	w->ulpdu = g_byte_array_new();
	for (int side = 0; side < 2; side++) {
		w->side[side].isn = pg_rng_u32(&r);
		w->side[side].nxt = w->side[side].isn;
		for (int q = 0; q < 3; q++)
			w->side[side].msn[q] = 1; /* RFC 5041 5.1: MSN starts at 1 */
	}
	w->side[PG_CLIENT].port = (uint16_t)pg_rng_range(&r, 32768, 60999);
	w->side[PG_SERVER].port = s->port;
	endpoint(w, PG_CLIENT, w->client, sizeof(w->client));
	endpoint(w, PG_SERVER, w->server, sizeof(w->server));
	snprintf(w->name, sizeof(w->name), "%s <-> %s", w->client, w->server);
	return &w->base;
}
