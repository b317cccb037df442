// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Why a call failed, as far as the capture shows it.  A failed Long Call
 * (or a reply that needed the Reply chunk) matches a known interop hazard
 * by its shape, but a matching shape is not a cause: the server may reject
 * the arguments' size whatever the transport, or a transport fault may
 * pass.  So each possible cause is weighed against what else the capture
 * holds, and the hazard is offered as a possibility only:
 *  - the same server accepted calls of the same chunk shape: against the shape;
 *  - the same procedure succeeded with smaller arguments: for a size limit
 *    (and, when that call had the same shape, against the shape too);
 *  - the failure repeated on several connections: deterministic, not transient;
 *    a later attempt succeeded: transient.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ck_outcome.h"

struct sentences {
	char *buf;
	size_t len, used;
};

static void say(struct sentences *s, const char *fmt, ...) RR_PRINTF(2, 3);
static void say(struct sentences *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (s->used + 3 >= s->len)
		return;
	memcpy(s->buf + s->used, ". ", 3);
	s->used += 2;
	va_start(ap, fmt);
	n = vsnprintf(s->buf + s->used, s->len - s->used, fmt, ap);
	va_end(ap);
	if (n > 0)
		s->used = MIN(s->len - 1, s->used + (size_t)n);
}

/* The implementation-experience draft's hazard that the episode's shape matches. */
static const char *hazard(const struct ck_episode *ep)
{
	if (ep->long_call && ep->pz_segs > 1)
		return "a multi-segment Position-Zero read chunk, which some implementations refuse "
		       "(implementation-experience §3.3)";
	if (ep->long_call && !strstr(ep->what, "WRITE"))
		return "a Long Call for a procedure other than WRITE, which RFC 5667 servers ignore "
		       "(implementation-experience §3.4)";
	if (ep->long_call)
		return NULL;
	if (ep->long_reply || ep->reply_chunk)
		return "a reply that needs the Reply chunk (implementation-experience §4.3; RFC 8267 §3.1)";
	return NULL;
}

static bool reply_side(const struct ck_episode *ep)
{
	return !ep->long_call && (ep->long_reply || ep->reply_chunk);
}

/*
 * A call that went through in the shape the episode's hazard is about: a
 * Position-Zero read chunk of several segments (any number: the hazard is
 * refusing more than one), a Long Call of a procedure other than WRITE, a
 * reply through the Reply chunk.
 */
static bool hazard_shape(const struct ck_success *c, const struct ck_episode *ep)
{
	if (ep->long_call && ep->pz_segs > 1)
		return c->long_call && c->pz_segs > 1;
	if (ep->long_call)
		return c->long_call && !strstr(c->what, "WRITE");
	return c->long_reply;
}

/* Calls of the hazard's shape the same server took: the largest kind, and how many in all. */
static const struct ck_success *same_shape(const struct ck_outlog *log, const struct ck_episode *ep,
					   const struct ck_note *n, uint32_t *count)
{
	const struct ck_success *s = NULL, *all;
	size_t k, ns;

	*count = 0;
	all = ck_outlog_successes(log, &ns);
	for (k = 0; k < ns; k++) {
		const struct ck_success *c = &all[k];

		if (!hazard_shape(c, ep) || c->pair != n->pair)
			continue;
		*count += c->count;
		if (!s || c->size_max > s->size_max)
			s = c;
	}
	return s;
}

/* The same procedure on the same server, answered with smaller arguments: the largest such. */
static const struct ck_success *smaller(const struct ck_outlog *log, const struct ck_note *n, uint64_t *size,
					uint64_t *frame)
{
	const struct ck_success *s = NULL, *all;
	size_t k, ns;

	all = ck_outlog_successes(log, &ns);
	for (k = 0; k < ns; k++) {
		const struct ck_success *c = &all[k];
		uint64_t sz = c->size_max < n->size ? c->size_max : c->size_min;
		uint64_t fr = c->size_max < n->size ? c->frame_max : c->frame_min;

		if (c->pair != n->pair || c->what != n->what || sz >= n->size)
			continue;
		if (!s || sz > *size) {
			s = c;
			*size = sz;
			*frame = fr;
		}
	}
	return s;
}

static void shape_word(const struct ck_success *c, char *buf, size_t len)
{
	if (c->long_call)
		snprintf(buf, len, "as a %u-segment Long Call", c->pz_segs);
	else
		snprintf(buf, len, "inline");
}

void ck_outcome_evidence(const struct ck_outlog *log, const struct ck_episode *ep, char *buf, size_t len,
			 uint64_t *also, unsigned *n_also)
{
	struct sentences s = { buf, len, 0 };
	const struct ck_note *n = ck_outlog_note(log, ep->key);
	const struct ck_success *sh = NULL, *sm = NULL;
	const char *hz = hazard(ep);
	uint32_t n_shape = 0;
	uint64_t sm_size = 0, sm_frame = 0;
	bool against_shape = false;

	buf[0] = 0;
	*n_also = 0;
	if (ep->failures > 1 && ep->n_conns > 1 && !ep->successes)
		say(&s, "Failed alike on %u connections: deterministic, not transient", ep->n_conns);
	else if (ep->successes)
		say(&s, "A later attempt succeeded: the failure passed");
	sh = n ? same_shape(log, ep, n, &n_shape) : NULL;
	sm = n && !reply_side(ep) ? smaller(log, n, &sm_size, &sm_frame) : NULL;
	against_shape = sh != NULL;
	if (sm && hazard_shape(sm, ep)) {
		/* One call says both: the shape went through, only the size differs. */
		say(&s, "The same procedure succeeded with %" PRIu64 " bytes as a %u-segment Long Call (frame %" PRIu64
		    "): for a limit on the arguments' size, against the chunk shape as the cause", sm_size,
		    sm->pz_segs, sm_frame);
		also[(*n_also)++] = sm_frame;
	} else if (sh && reply_side(ep)) {
		say(&s, "The same server answered %u call%s through the Reply chunk (%s, %u segments, frame %" PRIu64
		    "): against it as the cause", n_shape, n_shape > 1 ? "s" : "", sh->what, sh->reply_segs,
		    sh->frame_max);
		also[(*n_also)++] = sh->frame_max;
	} else if (sh) {
		say(&s, "The same server took %u call%s of the same kind (%s as a %u-segment Long Call, %" PRIu64
		    " bytes, frame %" PRIu64 "): against the chunk shape as the cause", n_shape, n_shape > 1 ? "s" : "",
		    sh->what, sh->pz_segs, sh->size_max, sh->frame_max);
		also[(*n_also)++] = sh->frame_max;
	}
	if (sm && !hazard_shape(sm, ep)) {
		char how[96];

		shape_word(sm, how, sizeof(how));
		say(&s, "The same procedure succeeded with %" PRIu64 " bytes sent %s (frame %" PRIu64
		    "): a size limit fits; the shape is not ruled out", sm_size, how, sm_frame);
		also[(*n_also)++] = sm_frame;
	}
	if (!hz)
		return;
	if (against_shape)
		say(&s, "Its shape matches a known hazard, which this argues against: %s", hz);
	else if (s.used)
		say(&s, "Possible cause, not shown by the capture: %s", hz);
	else
		say(&s, "Possible cause (nothing in the capture argues for or against it): %s", hz);
}
