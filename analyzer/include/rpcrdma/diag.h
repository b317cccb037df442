/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * diag.h - findings: what every layer reports, and how.
 *
 * A finding names an entry of the catalogue (rules.h: RR-xxx rules,
 * CAP-xxx capture conditions, ENG-xxx engine limits), the frame to point
 * at, every frame that is evidence, the connection and XID when known, the
 * severity in the active profile, and its text.  The catalogue entry
 * carries the RFC section and the rule text, so no reporter hard-codes them.
 *
 * Layers report through a struct rr_diag_sink; a sink with fn == NULL drops
 * everything.  A finding and its arrays are valid during the call only
 * (rr_diag_copy() keeps one).
 */
#ifndef RPCRDMA_DIAG_H
#define RPCRDMA_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules.h"

struct rr_diag {
	enum rr_rule_id id;
	enum rr_severity severity; /* in the active profile */
	uint64_t frame;            /* the frame to point at; 0 when none applies */
	const uint64_t *frames;    /* evidence, ascending (may be empty) */
	size_t n_frames;
	uint32_t conn_id;          /* 0: not tied to a connection */
	bool has_xid;
	uint32_t xid;
	/*
	 * The sentence, or a core sentence followed by sentences that explain
	 * it, each after ". " (a sentence has no ". " inside).  The core should
	 * say the finding in about 200 bytes at most; viewers with short lines
	 * (Wireshark cuts labels at 240) show the sentences apart.
	 */
	const char *text;
};

typedef void (*rr_diag_fn)(void *ctx, const struct rr_diag *d);

struct rr_diag_sink {
	rr_diag_fn fn;
	void *ctx;
};

#if defined(__GNUC__)
#define RR_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define RR_PRINTF(a, b)
#endif

/* A finding with the catalogue's default severity, tied to a frame only. */
void rr_diag_report(const struct rr_diag_sink *sink, enum rr_rule_id id,
		    uint64_t frame, const char *fmt, ...) RR_PRINTF(4, 5);
void rr_diag_vreport(const struct rr_diag_sink *sink, enum rr_rule_id id,
		     uint64_t frame, const char *fmt, va_list ap);
void rr_diag_emit(const struct rr_diag_sink *sink, const struct rr_diag *d);

/* A deep copy (text and frames owned), and its release. */
void rr_diag_copy(struct rr_diag *dst, const struct rr_diag *src);
void rr_diag_clear(struct rr_diag *d);

#endif
