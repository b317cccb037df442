/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * session.h - one path from frames to reports, for every tool.
 *
 *   capture file, or frames one by one
 *     -> the capture decoder (capture.h), one per link type
 *     -> the engine (engine.h) and its check stage
 *     -> the caller's sinks: rebuilt messages, Sends, findings
 *
 * ulb-lint reads whole files, `rpcrdma-agent verify` too, and the
 * Wireshark plugin feeds the frames Wireshark hands it; `ulb-lint -i`
 * feeds the frames of a live interface (live.h).  All three get the
 * same decoders, the same engine, and the same filter on findings: a rule
 * the options disabled, or one the profile turns off, reaches no sink.
 *
 * The options all tools share (--profile, --enable, --disable,
 * --inline-threshold, --credit-slack) are parsed here, once.
 */
#ifndef RPCRDMA_SESSION_H
#define RPCRDMA_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "capture.h"
#include "engine.h"

struct rr_session_opts {
	struct rr_check_opts check;    /* profile, rules, inline threshold, credit slack */
	struct rr_decode_opts decode;
	bool enable_narrowed;          /* an --enable already narrowed the rules to what it named */
};

void rr_session_default_opts(struct rr_session_opts *o);

/* The shared options, by their long name (without the dashes). */
enum rr_session_option {
	RR_OPT_PROFILE,
	RR_OPT_ENABLE,
	RR_OPT_DISABLE,
	RR_OPT_INLINE_THRESHOLD,
	RR_OPT_CREDIT_SLACK,
	RR_OPT_ICRC,
	RR_OPT__COUNT
};

/* getopt_long() returns RR_SESSION_OPT_BASE + enum rr_session_option for a shared option. */
#define RR_SESSION_OPT_BASE 0x5200

struct option;
/*
 * Write the RR_OPT__COUNT getopt_long() entries of the shared options into
 * dst (the caller's table has room for them and its own terminator).
 */
void rr_session_getopt_entries(struct option *dst);
/* The shared options' lines for a usage text, one per option, two spaces in. */
void rr_session_print_options(FILE *out);
/*
 * Apply one shared option.  false when the value is refused, with a sentence
 * naming the option and the value in err.  --enable names the only rules to
 * run (the first one narrows the set, later ones add to it); --disable
 * removes rules; both take rule codes or names, comma-separated.
 * --inline-threshold takes a decimal or 0x-prefixed byte count of at least
 * RR_DEFAULT_INLINE_THRESHOLD, the least RFC 8166 §3.3.3 lets a peer have;
 * --credit-slack a decimal or 0x-prefixed count.
 */
bool rr_session_set_option(struct rr_session_opts *o, enum rr_session_option which, const char *value,
			   char *err, size_t errlen);
/* true when c, from getopt_long(), is a shared option. */
static inline bool rr_session_is_option(int c)
{
	return c >= RR_SESSION_OPT_BASE && c < RR_SESSION_OPT_BASE + RR_OPT__COUNT;
}

/* Where a session's results go.  Any may be NULL. */
struct rr_session_sinks {
	void *ctx;
	rr_message_fn message;         /* every rebuilt message */
	rr_send_fn send;               /* every Send judged RPC-over-RDMA, before its message */
	void (*finding)(void *ctx, const struct rr_diag *d);   /* findings the options let through */
	rr_event_fn event;             /* every event, after the engine took it (progress) */
	rr_rdma_fn rdma;               /* every RDMA operation's packet, as the engine placed it */
	/* A finished session took a new frame (rr_session_keep_frames): what the finish delivered is void. */
	void (*reopen)(void *ctx);
};

struct rr_session;

struct rr_session *rr_session_new(const struct rr_session_opts *o, const struct rr_session_sinks *sinks);
/*
 * Open a capture file ("-": standard input) for rr_session_run().  false,
 * with a sentence naming the file and why in err, when it cannot be read.
 */
bool rr_session_open_file(struct rr_session *s, const char *path, char *err, size_t errlen);
/* The same for a classic pcap file the caller holds in memory (rr_capture_open_memory()). */
bool rr_session_open_memory(struct rr_session *s, const char *name, const uint8_t *bytes, size_t len, char *err,
			    size_t errlen);
/*
 * Read the opened capture to its end and finish the session.  0: read to
 * its end.  1: a read error part way (the events before it were analysed;
 * err says where).
 */
int rr_session_run(struct rr_session *s, char *err, size_t errlen);
/* Both: -1 when the file could not be opened. */
int rr_session_run_file(struct rr_session *s, const char *path, char *err, size_t errlen);
/*
 * One frame of link type dlt (a DLT_* value).  Returns what the decoder
 * found in it, or NULL when the link type is not one the decoder reads.
 */
const struct rr_frame_report *rr_session_feed_frame(struct rr_session *s, int dlt, uint64_t frame_no,
						    uint64_t ts_usec, const uint8_t *pkt, uint32_t caplen,
						    uint32_t wirelen);
/*
 * Frames fed one by one, none for a while: the capture's clock reads
 * ts_usec (the latest frame's time plus the time waited since), so what the
 * engine holds for a bounded time is told now (rr_engine_clock).  Nothing
 * once finished.
 */
void rr_session_clock(struct rr_session *s, uint64_t ts_usec);
/* End of input: what is pending is delivered.  Once; later calls do nothing. */
void rr_session_finish(struct rr_session *s);
bool rr_session_finished(const struct rr_session *s);

/*
 * Frames fed one by one may go on after rr_session_finish(): a live
 * capture, whose viewer asks for the end's outcomes each time it redraws.
 * After this call the session keeps a copy of every frame it is fed, up to
 * max_bytes in all.  A frame fed to a finished session then reopens it: the
 * decoders and the engine are rebuilt by feeding them the kept frames again
 * with every sink silent (the sinks had all of that already), sinks.reopen
 * says that what the finish delivered is void, and the new frame goes on
 * from there, as if the finish had never happened.  Without kept frames, or
 * once they passed max_bytes, a finished session takes no more frames.
 */
void rr_session_keep_frames(struct rr_session *s, size_t max_bytes);
/* A frame fed now would be taken: not finished, or finished and able to reopen. */
bool rr_session_takes_frames(const struct rr_session *s);
/* A finish now could be taken back: frames are kept and none was dropped for max_bytes. */
bool rr_session_can_reopen(const struct rr_session *s);
/* Times the session reopened (each replayed every kept frame). */
unsigned rr_session_reopens(const struct rr_session *s);

const struct rr_decode_stats *rr_session_decode_stats(const struct rr_session *s);
/* Frames fed one by one: the decoders' counts so far (before the finish sums them); otherwise as above. */
void rr_session_decode_stats_now(const struct rr_session *s, struct rr_decode_stats *out);
const struct rr_engine_stats *rr_session_engine_stats(const struct rr_session *s);
/* Checks the check stage skipped for one reason, or for all with RR_SKIP__COUNT. */
uint64_t rr_session_checks_skipped(const struct rr_session *s, enum rr_skip_reason why);
void rr_session_free(struct rr_session *s);

#endif
