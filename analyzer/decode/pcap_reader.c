// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pcap_reader.c - pcap and pcapng files (or stdin).
 *
 * Classic pcap files (microsecond or nanosecond, either byte order,
 * version 2.4, a link type we decode) are read here with read(2) into
 * 1 MiB buffers and decoded in place: no stdio, no per-frame copy, memory
 * flat whatever the size of the capture.  A regular file is read ahead by
 * a second thread; a pipe or stdin in this one.  (Measured on a 1.2 GiB
 * capture in the page cache: read(2) into 1-4 MiB buffers costs about as
 * much as cat, mmap(2) of the file 4-5 times more because of page-table
 * work, and libpcap's stdio reads about 8 times more.)
 *
 * Everything else - pcapng, older pcap versions, link-type extension
 * bits, byte-swapped cooked captures, link types we do not decode - goes
 * to libpcap as before, which then reads from the same descriptor (the
 * header bytes already read are handed back first), so its checks and
 * messages stay as they were.
 *
 * Frames are numbered from 1 in file order, as Wireshark does.  The
 * checks on each record and their messages are libpcap's (sf-pcap.c): a
 * file that ends in the middle of a record, or a record longer than any
 * snaplen, stops the run: the events decoded up to then have been
 * delivered, and the error names the file and the last good frame.
 */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <pcap/pcap.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"

#include "pcap_int.h"

/* ---- libpcap, fed from the descriptor we already read from -------------- */

/*
 * libpcap reads a FILE whose cookie reads the descriptor; `consumed` counts
 * what the cookie gave stdio.  With glibc, stdio buffers (libpcap's pcapng
 * reader asks for a block's header and body in small reads, which an
 * unbuffered stream serves ten times slower) and what libpcap has taken is
 * `consumed` less what the stream still holds (pcap_taken): the byte offset
 * an error message can name.  Elsewhere the stream is unbuffered.
 */
#define HB_BUF (64u << 10)

struct handback {
	uint8_t b[HB_BUF];
	size_t n, at;
	int fd;
	bool own_fd;
	uint64_t consumed;
};

static ssize_t hb_read(void *c, char *buf, size_t size)
{
	struct handback *h = c;
	size_t k;

	if (h->at == h->n) {
		ssize_t r;

		do
			r = read(h->fd, h->b, sizeof(h->b));
		while (r < 0 && errno == EINTR);
		if (r <= 0)
			return r;
		h->n = (size_t)r;
		h->at = 0;
	}
	k = h->n - h->at < size ? h->n - h->at : size;
	memcpy(buf, h->b + h->at, k);
	h->at += k;
	h->consumed += k;
	return (ssize_t)k;
}

/* What libpcap has taken from its input so far (see above). */
static uint64_t pcap_taken(const struct rr_capture *cap)
{
	uint64_t held = 0;

#ifdef __GLIBC__
	if (cap->hb_file->_IO_read_end > cap->hb_file->_IO_read_ptr)
		held = (uint64_t)(cap->hb_file->_IO_read_end - cap->hb_file->_IO_read_ptr);
#endif
	return cap->hb->consumed - held;
}

static int hb_close(void *c)
{
	struct handback *h = c;

	if (h->own_fd)
		close(h->fd);
	g_free(h);
	return 0;
}

/* ---- our reader ------------------------------------------------------------ */

/* Read until n bytes or end of input; returns how many (errno on -1). */
ssize_t rr_pcap_read_full(int fd, uint8_t *b, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, b + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/* A file header we read ourselves: which DLT, or -1 to leave it to libpcap. */
int rr_pcap_plain_header(const uint8_t *h, bool *swapped, bool *nsec, uint32_t *snaplen)
{
	uint32_t magic, lt;

	memcpy(&magic, h, 4);
	switch (magic) {
	case 0xa1b2c3d4: *swapped = false; *nsec = false; break;
	case 0xa1b23c4d: *swapped = false; *nsec = true; break;
	case 0xd4c3b2a1: *swapped = true; *nsec = false; break;
	case 0x4d3cb2a1: *swapped = true; *nsec = true; break;
	default:
		return -1;
	}
	if (rd16(h + 4, *swapped) != 2 || rd16(h + 6, *swapped) != 4)
		return -1;
	*snaplen = rd32(h + 16, *swapped);
	if (*snaplen == 0 || *snaplen > MAX_SNAPLEN)
		*snaplen = MAX_SNAPLEN;
	lt = rd32(h + 20, *swapped);
	switch (lt) {
	case DLT_EN10MB:
	case DLT_INFINIBAND:
	case DLT_ERF:
	case DLT_IPV4:
	case DLT_IPV6:
		return (int)lt;
	case DLT_LINUX_SLL:
	case DLT_LINUX_SLL2:
		/* libpcap swaps fields of some cooked headers in swapped files */
		return *swapped ? -1 : (int)lt;
	case LINKTYPE_RAW_FILE:
		return DLT_RAW;
	default:
		return -1;
	}
}

/* Why libpcap would not open the file, in words that say where and what. */
static void open_error(const char *name, const uint8_t *h, size_t n, const char *ebuf, char *err,
		       size_t errlen)
{
	static const uint8_t shb[4] = { 0x0a, 0x0d, 0x0d, 0x0a };

	if (n == 0)
		snprintf(err, errlen, "%s: the file is empty; nothing was analysed", name);
	else if (n < 4)
		snprintf(err, errlen, "%s: the file holds only %zu bytes, too few for any capture header; "
			 "nothing was analysed", name, n);
	else if (memcmp(h, shb, 4) == 0)
		snprintf(err, errlen, "%s: the pcapng section header block at byte offset 0 is damaged, so no "
			 "frame can be read; nothing was analysed (libpcap: %s)", name, ebuf);
	else if (strstr(ebuf, "unknown file format"))
		snprintf(err, errlen, "%s: not a pcap or pcapng capture (it starts with the bytes "
			 "%02x %02x %02x %02x); nothing was analysed", name, h[0], h[1], h[2], h[3]);
	else
		snprintf(err, errlen, "%s: the capture header at byte offset 0 is damaged; nothing was "
			 "analysed (libpcap: %s)", name, ebuf);
}

struct rr_capture *rr_capture_open(const char *path, char *err, size_t errlen)
{
	char ebuf[PCAP_ERRBUF_SIZE] = "";
	bool is_stdin;
	struct rr_capture *cap;
	struct handback *hb;
	uint8_t hdr[FILE_HDR_LEN];
	ssize_t got;
	int fd, dlt;
	pcap_t *p;
	FILE *f;

	if (!path) {
		snprintf(err, errlen, "no capture file given");
		return NULL;
	}
	is_stdin = strcmp(path, "-") == 0;
	fd = is_stdin ? fileno(stdin) : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		/* libpcap's words for it */
		snprintf(err, errlen, "%s: cannot read capture: %s: %s", path, path, g_strerror(errno));
		return NULL;
	}
	{
		struct stat st;

		/* A directory opens, and reads as nothing: "empty" would be the wrong word for it. */
		if (!is_stdin && fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
			snprintf(err, errlen, "%s: cannot read capture: %s is a directory", path, path);
			close(fd);
			return NULL;
		}
	}
	cap = g_new0(struct rr_capture, 1);
	cap->name = g_strdup(is_stdin ? "standard input" : path);
	cap->fd = fd;
	cap->own_fd = !is_stdin;

	got = rr_pcap_read_full(fd, hdr, sizeof(hdr));
	if (got == (ssize_t)sizeof(hdr) &&
	    (dlt = rr_pcap_plain_header(hdr, &cap->swapped, &cap->nsec, &cap->snaplen)) >= 0) {
		struct stat st;

		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
			posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
			cap->regular = true;
		}
#ifdef F_SETPIPE_SZ
		/* A pipe moves 64 KiB per wakeup by default; 1 MiB (the usual
		 * unprivileged limit) costs the writer and us fewer switches. */
		else if (S_ISFIFO(st.st_mode) && fcntl(fd, F_GETPIPE_SZ) < (int)READ_BUF)
			(void)fcntl(fd, F_SETPIPE_SZ, (int)READ_BUF);
#endif
		cap->dlt = dlt;
		return cap;
	}

	/* libpcap reads the rest, starting with the bytes we took. */
	hb = g_new0(struct handback, 1);
	hb->fd = fd;
	hb->own_fd = cap->own_fd;
	hb->n = got > 0 ? (size_t)got : 0;
	memcpy(hb->b, hdr, hb->n);
	cap->own_fd = false;
	cap->fd = -1;
	f = fopencookie(hb, "rb", (cookie_io_functions_t){ .read = hb_read, .close = hb_close });
	if (f)
#ifdef __GLIBC__
		setvbuf(f, NULL, _IOFBF, HB_BUF);
#else
		setvbuf(f, NULL, _IONBF, 0);
#endif
	if (!f) {
		hb_close(hb);
		snprintf(err, errlen, "%s: cannot read capture: %s", cap->name, g_strerror(errno));
		g_free(cap->name);
		g_free(cap);
		return NULL;
	}
	p = pcap_fopen_offline(f, ebuf);
	if (!p) {
		fclose(f);
		open_error(cap->name, hdr, got > 0 ? (size_t)got : 0, ebuf, err, errlen);
		g_free(cap->name);
		g_free(cap);
		return NULL;
	}
	cap->p = p;
	cap->hb = hb;
	cap->hb_file = f;
	return cap;
}

int rr_capture_linktype(const struct rr_capture *cap)
{
	if (!cap)
		return -1;
	return cap->p ? pcap_datalink(cap->p) : cap->dlt;
}

/* ---- the bytes of a classic pcap ----------------------------------------- */

/*
 * A regular file is read ahead by a second thread into RA_SLOTS buffers of
 * RA_SLOT bytes, filled and handed over in file order, so that reading
 * (the kernel's copy out of the page cache: about what cat costs) overlaps
 * decoding.  A record that straddles two buffers is put together in
 * stitch (at most one record per buffer).  Pipes and terminals are read
 * in this thread (buf, fill()): a read there may wait for ever, and the
 * read-ahead thread must always be joinable.
 */
#define RA_SLOTS 3
#define RA_SLOT  (1u << 20)           /* > MAX_SNAPLEN + REC_HDR_LEN */

struct ahead {
	pthread_t th;
	pthread_mutex_t mu;     /* POSIX, not GMutex: ThreadSanitizer understands it */
	pthread_cond_t to_reader, to_decoder;
	bool reader_waits, decoder_waits;   /* wake-ups (futex calls) only when needed */
	int fd;
	uint8_t *slot[RA_SLOTS];
	size_t len[RA_SLOTS];
	bool ready[RA_SLOTS];   /* filled, not yet given back by the decoder */
	bool last[RA_SLOTS];    /* nothing after this one (end of file or error) */
	int err;                /* errno of the read that ended the file */
	bool stop;              /* the decoder is done */
	/* decoder side */
	int cur;                /* slot being decoded (ready) */
	size_t pos;
	uint8_t *stitch;
};

static void *ahead_main(void *data)
{
	struct ahead *a = data;

	for (int i = 0;; i = (i + 1) % RA_SLOTS) {
		size_t got = 0;
		int err = 0;

		bool stop;

		pthread_mutex_lock(&a->mu);
		while (a->ready[i] && !a->stop) {
			a->reader_waits = true;
			pthread_cond_wait(&a->to_reader, &a->mu);
			a->reader_waits = false;
		}
		stop = a->stop;
		pthread_mutex_unlock(&a->mu);
		if (stop)
			return NULL;
		while (got < RA_SLOT) {
			ssize_t r = read(a->fd, a->slot[i] + got, RA_SLOT - got);

			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0)
				err = errno;
			if (r <= 0)
				break;
			got += (size_t)r;
		}
		pthread_mutex_lock(&a->mu);
		a->len[i] = got;
		a->last[i] = got < RA_SLOT;
		a->err = err;
		a->ready[i] = true;
		if (a->decoder_waits)
			pthread_cond_signal(&a->to_decoder);
		pthread_mutex_unlock(&a->mu);
		if (got < RA_SLOT)
			return NULL;
	}
}

static void wait_ready(struct ahead *a, int i)
{
	pthread_mutex_lock(&a->mu);
	while (!a->ready[i]) {
		a->decoder_waits = true;
		pthread_cond_wait(&a->to_decoder, &a->mu);
		a->decoder_waits = false;
	}
	pthread_mutex_unlock(&a->mu);
}

static void give_back(struct ahead *a, int i)
{
	pthread_mutex_lock(&a->mu);
	a->ready[i] = false;
	if (a->reader_waits)
		pthread_cond_signal(&a->to_reader);
	pthread_mutex_unlock(&a->mu);
}

static struct ahead *ahead_start(int fd)
{
	struct ahead *a = g_new0(struct ahead, 1);

	pthread_mutex_init(&a->mu, NULL);
	pthread_cond_init(&a->to_reader, NULL);
	pthread_cond_init(&a->to_decoder, NULL);
	a->fd = fd;
	for (int i = 0; i < RA_SLOTS; i++)
		a->slot[i] = g_malloc(RA_SLOT);
	a->stitch = g_malloc(MAX_SNAPLEN + REC_HDR_LEN);
	if (pthread_create(&a->th, NULL, ahead_main, a) != 0) {
		for (int i = 0; i < RA_SLOTS; i++)
			g_free(a->slot[i]);
		g_free(a->stitch);
		pthread_mutex_destroy(&a->mu);
		pthread_cond_destroy(&a->to_reader);
		pthread_cond_destroy(&a->to_decoder);
		g_free(a);
		return NULL;
	}
	wait_ready(a, 0);
	return a;
}

static void ahead_stop(struct ahead *a)
{
	if (!a)
		return;
	pthread_mutex_lock(&a->mu);
	a->stop = true;
	pthread_cond_signal(&a->to_reader);
	pthread_mutex_unlock(&a->mu);
	pthread_join(a->th, NULL);  /* a read of a regular file always returns */
	for (int i = 0; i < RA_SLOTS; i++)
		g_free(a->slot[i]);
	g_free(a->stitch);
	pthread_mutex_destroy(&a->mu);
	pthread_cond_destroy(&a->to_reader);
	pthread_cond_destroy(&a->to_decoder);
	g_free(a);
}

/*
 * Up to n contiguous bytes at the read position in *p, without consuming
 * them; fewer only at the end of the input.  Valid until the next call.
 */
static size_t ahead_peek(struct ahead *a, size_t n, const uint8_t **p)
{
	size_t have = a->len[a->cur] - a->pos, got;
	int j = a->cur;

	if (have >= n) {
		*p = a->slot[a->cur] + a->pos;
		return n;
	}
	memcpy(a->stitch, a->slot[a->cur] + a->pos, have);
	got = have;
	while (got < n && !a->last[j]) {
		size_t take;

		j = (j + 1) % RA_SLOTS;
		wait_ready(a, j);
		take = n - got < a->len[j] ? n - got : a->len[j];
		memcpy(a->stitch + got, a->slot[j], take);
		got += take;
	}
	*p = a->stitch;
	return got;
}

/* Consume n bytes that ahead_peek() showed. */
static void ahead_skip(struct ahead *a, size_t n)
{
	while (n) {
		size_t have = a->len[a->cur] - a->pos;

		if (n < have || a->last[a->cur]) {
			a->pos += n < have ? n : have;
			return;
		}
		n -= have;
		give_back(a, a->cur);
		a->cur = (a->cur + 1) % RA_SLOTS;
		a->pos = 0;
		wait_ready(a, a->cur);
	}
	/* At the very end of a full slot: move on, so peek sees the next one. */
	if (a->pos == a->len[a->cur] && !a->last[a->cur]) {
		give_back(a, a->cur);
		a->cur = (a->cur + 1) % RA_SLOTS;
		a->pos = 0;
		wait_ready(a, a->cur);
	}
}

/* At least n unread bytes in buf, unless the input ends first. */
static size_t fill(struct rr_capture *cap, size_t n)
{
	while (cap->len - cap->pos < n && !cap->eof && !cap->err) {
		ssize_t r;

		if (cap->pos) {     /* less than one record moves */
			memmove(cap->buf, cap->buf + cap->pos, cap->len - cap->pos);
			cap->len -= cap->pos;
			cap->pos = 0;
		}
		r = read(cap->fd, cap->buf + cap->len, READ_BUF - cap->len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			cap->err = errno;
		else if (r == 0)
			cap->eof = true;
		else
			cap->len += (size_t)r;
	}
	return cap->len - cap->pos;
}

static size_t in_peek(struct rr_capture *cap, struct ahead *a, size_t n, const uint8_t **p)
{
	size_t have;

	if (a)
		return ahead_peek(a, n, p);
	have = cap->len - cap->pos;
	if (have < n)
		have = fill(cap, n);
	*p = cap->buf + cap->pos;
	return have < n ? have : n;
}

static void in_skip(struct rr_capture *cap, struct ahead *a, size_t n)
{
	if (a)
		ahead_skip(a, n);
	else
		cap->pos += n;
}

/*
 * Decode every record; 0 at the end, -1 with what is wrong in why and the
 * byte offset of the damaged record in *off (the end of the last good one).
 */
/* Where each frame read goes: the decoder (rr_capture_run) or a caller's first pass (rr_capture_scan). */
struct frame_sink {
	struct rr_frame_decoder *dec;
	rr_raw_frame_fn raw;
	void *raw_ctx;
};

/* false: the first pass's caller wants no more frames. */
static bool to_sink(const struct frame_sink *k, uint64_t frame, uint64_t ts, const uint8_t *p, uint32_t caplen,
		    uint32_t wirelen)
{
	if (!k->dec)
		return k->raw(k->raw_ctx, frame, p, caplen);
	rr_frame_decode(k->dec, frame, ts, p, caplen, wirelen);
	return !rr_frame_decoder_halted(k->dec);
}

/*
 * The bytes buffered at the read position, contiguous, without waiting:
 * most records lie whole inside one buffer, and are taken from there
 * without a call per header and per body.
 */
static size_t in_buffered(const struct rr_capture *cap, const struct ahead *a, const uint8_t **p)
{
	if (a) {
		*p = a->slot[a->cur] + a->pos;
		return a->len[a->cur] - a->pos;
	}
	*p = cap->buf + cap->pos;
	return cap->len - cap->pos;
}

/* The frame in a record whose header is h, to the sink; false: the sink wants no more. */
static bool deliver(const struct rr_capture *cap, const struct frame_sink *k, uint64_t frame, const uint8_t *h,
		    const uint8_t *body, uint32_t caplen)
{
	const bool sw = cap->swapped;
	/* As libpcap hands them out: signed 32-bit fields, microseconds. */
	int64_t sec = (int32_t)rd32(h, sw), frac = (int32_t)rd32(h + 4, sw);

	if (cap->nsec)
		frac /= 1000;
	return to_sink(k, frame, (uint64_t)sec * 1000000u + (uint64_t)frac, body,
		       caplen > cap->snaplen ? cap->snaplen : caplen, rd32(h + 12, sw));
}

/*
 * A capture in memory (a mapped file) was read by nobody yet, or by a
 * thread on another CPU: asking for the bytes a few pages ahead, as many as
 * each record takes, keeps them coming instead of each record waiting on
 * memory (ulb-lint -j 2 on bench/mix.sh's mix: 12 % less CPU).
 */
#define PREFETCH_AHEAD 8192u
static inline void prefetch(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i += 64)
		__builtin_prefetch(p + i);
}

static int own_run(struct rr_capture *cap, struct ahead *a, const struct frame_sink *k,
		   uint64_t *frame, uint64_t *off, char *why, size_t whylen)
{
	const bool sw = cap->swapped;
	const uint32_t snap = cap->snaplen;

	for (;;) {
		const uint8_t *p;
		uint8_t h[REC_HDR_LEN];
		uint32_t caplen;
		size_t have;
		int err;

		/* A record whole in the buffer: taken in place (the checks below see every other). */
		have = in_buffered(cap, a, &p);
		if (have >= REC_HDR_LEN) {
			caplen = rd32(p + 8, sw);
			if (caplen <= MAX_SNAPLEN && have - REC_HDR_LEN >= caplen) {
				if (cap->in_memory && have > PREFETCH_AHEAD + REC_HDR_LEN + caplen)
					prefetch(p + PREFETCH_AHEAD, REC_HDR_LEN + caplen);
				if (!deliver(cap, k, ++*frame, p, p + REC_HDR_LEN, caplen))
					return 0;
				in_skip(cap, a, REC_HDR_LEN + caplen);
				*off += REC_HDR_LEN + (uint64_t)caplen;
				continue;
			}
		}
		have = in_peek(cap, a, REC_HDR_LEN, &p);
		if (have < REC_HDR_LEN) {
			/* Short only at the end: the reader is done with err. */
			err = a ? a->err : cap->err;
			if (err)
				snprintf(why, whylen, "reading the file failed: %s", g_strerror(err));
			else if (have)
				snprintf(why, whylen,
					 "the file ends inside a record header (%zu of its %u bytes): the capture "
					 "was cut short, as by an interrupted copy or a capture that was killed",
					 have, REC_HDR_LEN);
			else
				return 0;
			return -1;
		}
		memcpy(h, p, REC_HDR_LEN);
		caplen = rd32(h + 8, sw);
		if (caplen > MAX_SNAPLEN) {
			snprintf(why, whylen,
				 "the record header claims %u captured bytes, more than the file's snaplen "
				 "(%u) and the %u any capture tool writes: the file is damaged here",
				 caplen, snap, MAX_SNAPLEN);
			return -1;
		}
		in_skip(cap, a, REC_HDR_LEN);
		have = in_peek(cap, a, caplen, &p);
		if (have < caplen) {
			err = a ? a->err : cap->err;
			if (err)
				snprintf(why, whylen, "reading the file failed: %s", g_strerror(err));
			else
				snprintf(why, whylen,
					 "the file ends inside a frame (%zu of its %u captured bytes): the capture "
					 "was cut short, as by an interrupted copy or a capture that was killed",
					 have, caplen);
			return -1;
		}
		if (!deliver(cap, k, ++*frame, h, p, caplen))
			return 0;
		in_skip(cap, a, caplen);
		*off += REC_HDR_LEN + (uint64_t)caplen;
	}
}

/* Every frame of the capture to k: 0 at its end, -1 with a sentence in err. */
static int read_all(struct rr_capture *cap, const struct frame_sink *k, bool ahead, char *err, size_t errlen)
{
	uint64_t frame = 0, off = FILE_HDR_LEN;
	char why[PCAP_ERRBUF_SIZE + 256] = "";
	bool unreadable = false;        /* libpcap stopped at what it cannot read, not at damage */
	int rc, ret = 0;

	if (cap->p) {
		struct pcap_pkthdr *h;
		const u_char *data;

		while ((rc = pcap_next_ex(cap->p, &h, &data)) == 1) {
			uint64_t ts = (uint64_t)h->ts.tv_sec * 1000000u + (uint64_t)h->ts.tv_usec;

			if (!to_sink(k, ++frame, ts, data, h->caplen, h->len))
				return 0;
			off = pcap_taken(cap);
		}
		if (!frame)
			off = pcap_taken(cap);
		if (rc == PCAP_ERROR) {
			const char *e = pcap_geterr(cap->p);

			if (strstr(e, "truncated"))
				snprintf(why, sizeof(why), "the file ends inside a block: the capture was cut short, "
					 "as by an interrupted copy or a capture that was killed (libpcap: %s)", e);
			else if ((unreadable = strstr(e, "different from the") && strstr(e, "of the first interface")))
				/* Not damage: a valid pcapng that libpcap 1.10 does not read past. */
				snprintf(why, sizeof(why), "an interface there differs from the first in snapshot length "
					 "or link type, past which libpcap reads no pcapng (libpcap: %s); the file is not "
					 "damaged: 'editcap -F pcap IN OUT' makes it one snapshot length", e);
			else
				snprintf(why, sizeof(why), "the block there is damaged (libpcap: %s)", e);
			ret = -1;
		}
	} else {
		struct ahead *a = cap->regular && ahead ? ahead_start(cap->fd) : NULL;

		if (!a && !cap->buf)
			cap->buf = g_malloc(READ_BUF);
		ret = own_run(cap, a, k, &frame, &off, why, sizeof(why));
		ahead_stop(a);
	}
	if (ret) {
		const char *what = unreadable ? "unreadable" : "damaged";

		if (frame)
			snprintf(err, errlen,
				 "%s: %s at byte offset %" PRIu64 ", after frame %" PRIu64 " (the last good "
				 "frame): %s. Frames 1 to %" PRIu64 " were analysed; the rest of the file was not read",
				 cap->name, what, off, frame, why, frame);
		else
			snprintf(err, errlen,
				 "%s: %s at byte offset %" PRIu64 ", before the first frame: %s. Nothing was analysed",
				 cap->name, what, off, why);
	}
	return ret;
}

int rr_capture_scan(struct rr_capture *cap, rr_raw_frame_fn fn, void *ctx, char *err, size_t errlen)
{
	struct frame_sink k = { .raw = fn, .raw_ctx = ctx };

	return cap ? read_all(cap, &k, true, err, errlen) : -1;
}

int rr_capture_run(struct rr_capture *cap, const struct rr_decode_opts *opts,
		   rr_event_fn ev_fn, void *ev_ctx, const struct rr_diag_sink *diag,
		   struct rr_decode_stats *stats, char *err, size_t errlen)
{
	struct frame_sink k = { 0 };
	struct rr_frame_decoder *d;
	int dlt, ret;

	if (!cap)
		return -1;
	dlt = rr_capture_linktype(cap);
	d = rr_frame_decoder_new(dlt, opts, ev_fn, ev_ctx, diag);
	if (!d) {
		const char *name = pcap_datalink_val_to_name(dlt);
		const char *desc = pcap_datalink_val_to_description(dlt);

		rr_diag_report(diag, CAP_LINKTYPE, 0,
			       "%s: link type %d (%s%s%s) is not supported; supported are EN10MB, LINUX_SLL, LINUX_SLL2, INFINIBAND, ERF, RAW, IPV4, IPV6",
			       cap->name, dlt, name ? name : "unknown", desc ? ", " : "",
			       desc ? desc : "");
		snprintf(err, errlen, "%s: unsupported link type %d (%s)", cap->name, dlt,
			 name ? name : "unknown");
		return -1;
	}
	k.dec = d;
	ret = read_all(cap, &k, !(opts && opts->no_read_ahead), err, errlen);
	/* Flush TCP streams even after an error: what was read still counts. */
	rr_frame_decoder_finish(d);
	if (stats)
		*stats = *rr_frame_decoder_stats(d);
	rr_frame_decoder_free(d);
	return ret;
}

void rr_capture_close(struct rr_capture *cap)
{
	if (!cap)
		return;
	if (cap->p)
		pcap_close(cap->p);
	if (cap->own_fd)
		close(cap->fd);
	if (!cap->in_memory)
		g_free(cap->buf);
	g_free(cap->name);
	g_free(cap);
}
