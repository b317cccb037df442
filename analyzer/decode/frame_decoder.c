// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * frame_decoder.c - one frame of a given link type in, events out.
 *
 * This file owns the decoder object, picks the first layer from the DLT,
 * and ends a capture, or a part of one, by flushing TCP reassembly.
 * Events and diagnostics leave through emit.h.
 */
#include <pcap/pcap.h>
#include <string.h>

#include "emit.h"
#include "ib.h"
#include "link.h"
#include "tcp.h"
#include "tcp_table.h"

/* LINKTYPE_RAW is 101 in files; libpcap maps it to DLT_RAW, but fuzzers
 * and tests may hand us the file value. */
#define LINKTYPE_RAW_FILE 101

bool rr_frame_decoder_supports(int dlt)
{
	switch (dlt) {
	case DLT_EN10MB:
	case DLT_LINUX_SLL:
	case DLT_LINUX_SLL2:
	case DLT_INFINIBAND:
	case DLT_ERF:
	case DLT_RAW:
	case LINKTYPE_RAW_FILE:
	case DLT_IPV4:
	case DLT_IPV6:
		return true;
	default:
		return false;
	}
}

struct rr_frame_decoder *rr_frame_decoder_new(int dlt, const struct rr_decode_opts *opts,
					      rr_event_fn ev_fn, void *ev_ctx,
					      const struct rr_diag_sink *diag)
{
	struct rr_frame_decoder *d;

	if (!rr_frame_decoder_supports(dlt))
		return NULL;
	d = g_new0(struct rr_frame_decoder, 1);
	d->dlt = dlt;
	if (opts)
		d->opts = *opts;
	d->ev_fn = ev_fn;
	d->ev_ctx = ev_ctx;
	if (diag)
		d->diag = *diag;
	d->tcp = tcp_table_new();
	d->scratch = g_byte_array_new();
	d->held = g_array_new(FALSE, FALSE, sizeof(struct held_cond));
	return d;
}

/*
 * How far time may step back before the file is taken for several captures
 * joined (mergecap -a, cat of pcapng files): frames from several CPUs or
 * ports come a little out of order, a whole second never does.
 */
#define JOIN_BACKSTEP_USEC 1000000u

/*
 * Time went back: what the previous part left is finished, and forgotten.
 * What finishing says is about streams already held as iWARP (or about the
 * capture), hence .rdma.
 */
static void new_part(struct rr_frame_decoder *d, uint64_t frame_no, uint64_t ts_usec)
{
	struct rr_frame_ctx fx = { .d = d, .frame = d->last_frame, .ts = d->last_ts, .rdma = true };
	struct rr_event ev;

	if (d->opts.flushing)
		d->opts.flushing(d->opts.take_ctx);
	tcp_finish(&fx);
	tcp_table_clear(d->tcp);
	d->stats.parts++;
	fx.frame = frame_no;
	fx.ts = ts_usec;
	if (d->stats.parts == 2 && !d->opts.joins_told_elsewhere)
		dec_report(&fx, CAP_JOINED,
			   "frame %" PRIu64 " is %.3f s older than frame %" PRIu64 ": time went backwards, so this file "
			   "seems to hold several captures joined end to end; each part is analysed on its own "
			   "(connections, XIDs and retries do not carry over; later joins are counted, not told)",
			   frame_no, (double)(d->last_ts - ts_usec) / 1e6, d->last_frame);
	memset(&ev, 0, sizeof(ev));
	ev.kind = RR_EV_CAPTURE_PART;
	ev.frame = frame_no;
	ev.ts_usec = ts_usec;
	dec_emit(&fx, &ev);
}

bool rr_frame_decoder_halted(const struct rr_frame_decoder *d)
{
	return d && d->halted;
}

void rr_frame_decode(struct rr_frame_decoder *d, uint64_t frame_no, uint64_t ts_usec,
		     const uint8_t *pkt, uint32_t caplen, uint32_t wirelen)
{
	enum rr_take take;
	struct rr_frame_ctx fx = { .d = d, .frame = frame_no, .ts = ts_usec };
	struct rr_cursor cur;

	if (!d)
		return;
	if (wirelen < caplen)       /* a broken writer; trust what we hold */
		wirelen = caplen;
	fx.cut = caplen < wirelen;
	if (d->stats.frames && ts_usec + JOIN_BACKSTEP_USEC < d->last_ts)
		new_part(d, frame_no, ts_usec);
	else if (!d->stats.frames)
		d->stats.parts = 1;
	d->stats.frames++;
	d->last_frame = frame_no;
	d->last_ts = ts_usec;
	if (d->opts.take && (take = d->opts.take(d->opts.take_ctx, frame_no, pkt, pkt ? caplen : 0)) != RR_TAKE_DECODE) {
		d->halted |= take == RR_TAKE_STOP;
		d->stats.others++;
		d->last = (struct rr_frame_report){ .frame = frame_no };
		return;
	}
	rr_cursor_init(&cur, pkt, pkt ? caplen : 0);

	switch (d->dlt) {
	case DLT_EN10MB:
		link_ethernet(&fx, &cur, wirelen);
		break;
	case DLT_LINUX_SLL:
		link_sll(&fx, &cur, wirelen);
		break;
	case DLT_LINUX_SLL2:
		link_sll2(&fx, &cur, wirelen);
		break;
	case DLT_INFINIBAND:
		ib_native(&fx, &cur, wirelen);
		break;
	case DLT_ERF:
		erf_record(&fx, &cur, wirelen);
		break;
	case DLT_RAW:
	case LINKTYPE_RAW_FILE:
		link_raw(&fx, &cur, wirelen, 0);
		break;
	case DLT_IPV4:
		link_raw(&fx, &cur, wirelen, 4);
		break;
	case DLT_IPV6:
		link_raw(&fx, &cur, wirelen, 6);
		break;
	}
	dec_frame_end(&fx);
	d->last.frame = frame_no;
	d->last.produced = fx.produced;
	d->last.iwarp_tcp = fx.iwarp_tcp;
	if (fx.produced)
		d->stats.rdma_frames++;
}

void rr_frame_decoder_finish(struct rr_frame_decoder *d)
{
	struct rr_frame_ctx fx;

	if (!d)
		return;
	/* Events flushed now belong to the last frame that was read; what is
	 * said is about streams held as iWARP (see new_part). */
	fx = (struct rr_frame_ctx){ .d = d, .frame = d->last_frame, .ts = d->last_ts, .rdma = true };
	if (d->opts.flushing)
		d->opts.flushing(d->opts.take_ctx);
	tcp_finish(&fx);
}

const struct rr_decode_stats *rr_frame_decoder_stats(const struct rr_frame_decoder *d)
{
	return d ? &d->stats : NULL;
}

void rr_decode_stats_add(struct rr_decode_stats *to, const struct rr_decode_stats *from)
{
	to->frames += from->frames;
	to->rdma_frames += from->rdma_frames;
	to->truncated += from->truncated;
	to->icrc_bad += from->icrc_bad;
	to->mpa_crc_bad += from->mpa_crc_bad;
	to->malformed += from->malformed;
	to->tcp_gaps += from->tcp_gaps;
	to->parts += from->parts;
	to->others += from->others;
}

void rr_frame_decoder_free(struct rr_frame_decoder *d)
{
	if (!d)
		return;
	tcp_table_free(d->tcp);
	g_byte_array_free(d->scratch, TRUE);
	g_array_free(d->held, TRUE);
	g_free(d);
}

const struct rr_frame_report *rr_frame_decoder_last(const struct rr_frame_decoder *d)
{
	return &d->last;
}
