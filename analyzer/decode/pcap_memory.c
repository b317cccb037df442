// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pcap_memory.c - a classic pcap file that the caller holds in memory
 * (capture.h, rr_capture_open_memory): ulb-lint --jobs maps a file once,
 * and every worker thread reads its records in place, through the same
 * page tables, where workers that each read(2) the file would copy it out
 * of the page cache once each.  The records are read by pcap_reader.c, as
 * its own buffer's, with the same checks and messages.
 */
#include "pcap_int.h"

struct rr_capture *rr_capture_open_memory(const char *name, const uint8_t *bytes, size_t len, char *err,
					  size_t errlen)
{
	struct rr_capture *cap = g_new0(struct rr_capture, 1);
	int dlt = len >= FILE_HDR_LEN ? rr_pcap_plain_header(bytes, &cap->swapped, &cap->nsec, &cap->snaplen) : -1;

	if (dlt < 0) {
		snprintf(err, errlen, "%s: not a classic pcap capture of a link type read here", name);
		g_free(cap);
		return NULL;
	}
	cap->name = g_strdup(name);
	cap->fd = -1;
	cap->dlt = dlt;
	/* The whole capture is buffered and nothing follows it: nothing is read, nothing freed. */
	cap->in_memory = true;
	cap->buf = (uint8_t *)bytes;
	cap->pos = FILE_HDR_LEN;
	cap->len = len;
	cap->eof = true;
	return cap;
}
