/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcap_int.h - inside the classic pcap reader: the file's layout (the
 * tcpdump/libpcap savefile format, as libpcap's sf-pcap.c reads it) and
 * the reader's state, shared by pcap_reader.c (a file or a stream) and
 * pcap_memory.c (a file the caller holds in memory).
 */
#ifndef RR_PCAP_INT_H
#define RR_PCAP_INT_H

#include <glib.h>
#include <pcap/pcap.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "capture.h"

#define FILE_HDR_LEN 24
#define REC_HDR_LEN  16
#define MAX_SNAPLEN  262144u          /* libpcap's MAXIMUM_SNAPLEN */
#define READ_BUF     (1u << 20)       /* > MAX_SNAPLEN + REC_HDR_LEN */
#define LINKTYPE_RAW_FILE 101

struct rr_capture {
	pcap_t *p;          /* libpcap reads; NULL when we do */
	char *name;
	/* our own reader */
	int fd;
	bool own_fd;
	bool swapped, nsec;
	int dlt;
	uint32_t snaplen;
	bool regular;       /* a regular file: read ahead by a second thread */
	bool in_memory;     /* buf is the caller's whole capture (rr_capture_open_memory): never read, never freed */
	uint8_t *buf;       /* otherwise: unread bytes are buf[pos, len) */
	size_t pos, len;
	bool eof;
	int err;            /* errno of a failed read */
	struct handback *hb;    /* libpcap's input, for the byte offset */
	FILE *hb_file;          /* the stdio stream libpcap reads hb through */
};

static inline uint32_t rd32(const uint8_t *p, bool swapped)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return swapped ? GUINT32_SWAP_LE_BE(v) : v;
}

static inline uint16_t rd16(const uint8_t *p, bool swapped)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return swapped ? GUINT16_SWAP_LE_BE(v) : v;
}

/* Read until n bytes or end of input; returns how many (errno on -1). */
ssize_t rr_pcap_read_full(int fd, uint8_t *b, size_t n);
/* A file header we read ourselves: which DLT, or -1 to leave it to libpcap. */
int rr_pcap_plain_header(const uint8_t *h, bool *swapped, bool *nsec, uint32_t *snaplen);

#endif
