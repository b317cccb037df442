// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Decoder tests: CRC test vectors, reading pcap / pcapng / stdin through
 * libpcap, truncated files, unsupported link types, and a robustness run
 * over random and mutated frames of every link type.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <glib.h>
#include <pcap/pcap.h>

#include "builder.h"

/* Internal to the decoder (analyzer/decode/crc.c), tested directly. */
uint32_t rr_crc32c(const uint8_t *p, size_t n);
uint32_t rr_crc32_update(uint32_t reg, const uint8_t *p, size_t n);
uint32_t rr_crc32c_update(uint32_t reg, const uint8_t *p, size_t n);
uint32_t rr_crc32_update_sw(uint32_t reg, const uint8_t *p, size_t n);
uint32_t rr_crc32c_update_sw(uint32_t reg, const uint8_t *p, size_t n);
uint32_t rr_crc32_update_128(uint32_t reg, const uint8_t *p, size_t n);
uint32_t rr_crc32c_update_128(uint32_t reg, const uint8_t *p, size_t n);
const char *rr_crc_impl(void);

static uint8_t frame[PK_MAX];

static void tmpname(char *buf, size_t len, const char *what)
{
	const char *dir = getenv("DECODE_TEST_TMP");

	snprintf(buf, len, "%s/decode-test-%d-%s", dir ? dir : "/tmp", (int)getpid(), what);
}

/* RFC 3720 B.4 (iSCSI CRC32c examples); the bytes there are the CRC as
 * sent, least significant first, e.g. "aa 36 91 8a" for 32 zero bytes. */
static void test_crc_vectors(void **state)
{
	uint8_t b[48];
	static const uint8_t read_pdu[48] = {
		0x01, 0xc0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0x14, 0, 0, 0, 0, 0, 0x04, 0, 0, 0, 0, 0x14, 0, 0, 0, 0x18,
		0x28, 0, 0, 0, 0, 0, 0, 0, 0x02, 0, 0, 0, 0, 0, 0, 0,
	};

	(void)state;
	memset(b, 0, 32);
	assert_int_equal(rr_crc32c(b, 32), 0x8a9136aa);
	assert_int_equal(ref_crc32c(b, 32), 0x8a9136aa);
	memset(b, 0xff, 32);
	assert_int_equal(rr_crc32c(b, 32), 0x62a8ab43);
	assert_int_equal(ref_crc32c(b, 32), 0x62a8ab43);
	for (int i = 0; i < 32; i++)
		b[i] = (uint8_t)i;
	assert_int_equal(rr_crc32c(b, 32), 0x46dd794e);
	for (int i = 0; i < 32; i++)
		b[i] = (uint8_t)(31 - i);
	assert_int_equal(rr_crc32c(b, 32), 0x113fdb5c);
	assert_int_equal(rr_crc32c(read_pdu, 48), 0xd9963a56);
	assert_int_equal(ref_crc32c(read_pdu, 48), 0xd9963a56);
	/* CRC-32 check value. */
	assert_int_equal(~rr_crc32_update(0xFFFFFFFFu, (const uint8_t *)"123456789", 9), 0xCBF43926);
	assert_int_equal(ref_crc32((const uint8_t *)"123456789", 9), 0xCBF43926);
}

/*
 * The fast CRC paths (VPCLMULQDQ or PCLMULQDQ folding, SSE4.2 crc32;
 * whichever this CPU has, and the 128-bit folding on its own) against the slicing-by-8 tables and the bitwise reference, on
 * random bytes of every length 0..1100 and some up to 9000, at every
 * alignment 0..63, from random registers, and split at random points
 * (a register carried across calls).
 */
static void test_crc_fast_paths(void **state)
{
	enum { MAX = 9000 + 64 };
	uint8_t *buf = malloc(MAX);
	uint32_t rnd = 12345;

	(void)state;
	print_message("CRC implementation: %s\n", rr_crc_impl());
	for (size_t i = 0; i < MAX; i++) {
		rnd = rnd * 1103515245u + 12345u;
		buf[i] = (uint8_t)(rnd >> 16);
	}
	for (size_t n = 0; n <= 9000; n = n < 1100 ? n + 1 : n + 97) {
		for (size_t al = 0; al < 64; al += (n < 300 ? 1 : 7)) {
			const uint8_t *p = buf + al;
			uint32_t reg, a, b, c, d;
			size_t cut;

			rnd = rnd * 1103515245u + 12345u;
			reg = rnd ^ (rnd << 7);
			assert_int_equal(rr_crc32_update(reg, p, n), rr_crc32_update_sw(reg, p, n));
			assert_int_equal(rr_crc32_update_128(reg, p, n), rr_crc32_update_sw(reg, p, n));
			assert_int_equal(rr_crc32c_update_128(reg, p, n), rr_crc32c_update_sw(reg, p, n));
			assert_int_equal(rr_crc32c_update(reg, p, n), rr_crc32c_update_sw(reg, p, n));
			if (al == 0 || al == 5) {
				assert_int_equal(~rr_crc32_update(0xFFFFFFFFu, p, n), ref_crc32(p, n));
				assert_int_equal(rr_crc32c(p, n), ref_crc32c(p, n));
			}
			cut = n ? (rnd >> 8) % (n + 1) : 0;
			a = rr_crc32_update(0xFFFFFFFFu, p, cut);
			b = rr_crc32_update(a, p + cut, n - cut);
			c = rr_crc32c_update(0xFFFFFFFFu, p, cut);
			d = rr_crc32c_update(c, p + cut, n - cut);
			assert_int_equal(b, rr_crc32_update_sw(0xFFFFFFFFu, p, n));
			assert_int_equal(d, rr_crc32c_update_sw(0xFFFFFFFFu, p, n));
		}
	}
	/* All-zero and all-ones buffers: no carry mistakes hide in random data. */
	for (int v = 0; v < 2; v++) {
		memset(buf, v ? 0xFF : 0, MAX);
		for (size_t n = 60; n < 300; n++) {
			assert_int_equal(rr_crc32_update(0, buf, n), rr_crc32_update_sw(0, buf, n));
			assert_int_equal(rr_crc32_update(~0u, buf, n), rr_crc32_update_sw(~0u, buf, n));
			assert_int_equal(rr_crc32c_update(~0u, buf, n), rr_crc32c_update_sw(~0u, buf, n));
		}
	}
	free(buf);
}

static size_t rocev2_frame(uint8_t *out, uint32_t psn)
{
	struct pk *t = pk_new();
	size_t n;

	ib_bth(t, 0x04, 0, 0x42, psn);
	ib_payload(t, (const uint8_t *)"0123456789abcdef", 16, 0);
	n = wrap_rocev2(out, 4, t, NULL);
	free(t);
	return n;
}

static void write_pcap(const char *path, int dlt, int frames)
{
	pcap_t *p = pcap_open_dead(dlt, 65535);
	pcap_dumper_t *d = pcap_dump_open(p, path);

	assert_non_null(d);
	for (int i = 0; i < frames; i++) {
		struct pcap_pkthdr h = { .ts = { 100 + i, 5 } };

		h.caplen = h.len = (bpf_u_int32)rocev2_frame(frame, (uint32_t)i);
		pcap_dump((u_char *)d, &h, frame);
	}
	pcap_dump_close(d);
	pcap_close(p);
}

static int run_file(const char *path, struct col *c, struct rr_decode_stats *st, char *err)
{
	struct rr_diag_sink sink = { col_diag, c };
	struct rr_capture *cap = rr_capture_open(path, err, 256);
	int rc;

	if (!cap)
		return -2;
	rc = rr_capture_run(cap, NULL, col_ev, c, &sink, st, err, 256);
	rr_capture_close(cap);
	return rc;
}

static void test_pcap_and_truncated(void **state)
{
	char path[512], err[256] = "";
	struct col *c = calloc(1, sizeof(*c));
	struct rr_decode_stats st;
	FILE *f;
	long size;

	(void)state;
	tmpname(path, sizeof(path), "three.pcap");
	write_pcap(path, DLT_EN10MB, 3);
	assert_int_equal(run_file(path, c, &st, err), 0);
	assert_int_equal(c->n, 3);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(c->ev[i].frame, i + 1);
		assert_int_equal(c->ev[i].psn, i);
		assert_true(c->ev[i].ts_usec == (uint64_t)(100 + i) * 1000000u + 5);
	}
	assert_int_equal(st.frames, 3);
	assert_int_equal(st.rdma_frames, 3);

	/* Cut the file in the middle of the third record. */
	f = fopen(path, "rb+");
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fclose(f);
	assert_int_equal(truncate(path, size - 30), 0);
	col_reset(c);
	assert_int_equal(run_file(path, c, &st, err), -1);
	assert_int_equal(c->n, 2);                  /* what came before stays */
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, "frame 2"));

	/* stdin */
	write_pcap(path, DLT_EN10MB, 2);
	assert_non_null(freopen(path, "rb", stdin));
	col_reset(c);
	assert_int_equal(run_file("-", c, &st, err), 0);
	assert_int_equal(c->n, 2);
	unlink(path);

	/* Missing file: the sentence names it. */
	assert_int_equal(run_file("/nonexistent/x.pcap", c, &st, err), -2);
	assert_non_null(strstr(err, "/nonexistent/x.pcap"));
	col_reset(c);
	free(c);
}

/* Events of the read-ahead test: PSN, frame and payload of each. */
struct seen {
	int n;
	uint32_t psn[64];
	uint64_t frame[64];
	bool data_ok;
};

static void seen_ev(void *ctx, const struct rr_event *ev)
{
	struct seen *s = ctx;

	if (s->n < 64) {
		s->psn[s->n] = ev->psn;
		s->frame[s->n] = ev->frame;
	}
	s->n++;
	if (ev->caplen != 16 || memcmp(ev->data, "0123456789abcdef", 16) != 0)
		s->data_ok = false;
}

static void put_rec(FILE *f, const uint8_t *p, uint32_t caplen, long *pos)
{
	uint32_t h[4] = { 1000, 0, caplen, caplen };

	fwrite(h, 4, 4, f);
	fwrite(p, 1, caplen, f);
	*pos += 16 + (long)caplen;
}

static int run_seen(const char *path, struct seen *s, char *err)
{
	struct rr_capture *cap = rr_capture_open(path, err, 256);
	int rc;

	memset(s, 0, sizeof(*s));
	s->data_ok = true;
	if (!cap)
		return -2;
	rc = rr_capture_run(cap, NULL, seen_ev, s, NULL, NULL, err, 256);
	rr_capture_close(cap);
	return rc;
}

/* The same file held in memory (rr_capture_open_memory(), as ulb-lint --jobs maps a file). */
static int run_seen_memory(const char *path, struct seen *s, char *err)
{
	gchar *bytes = NULL;
	gsize len = 0;
	struct rr_capture *cap;
	int rc;

	memset(s, 0, sizeof(*s));
	s->data_ok = true;
	assert_true(g_file_get_contents(path, &bytes, &len, NULL));
	cap = rr_capture_open_memory(path, (const uint8_t *)bytes, len, err, 256);
	if (!cap) {
		g_free(bytes);
		return -2;
	}
	rc = rr_capture_run(cap, NULL, seen_ev, s, NULL, NULL, err, 256);
	rr_capture_close(cap);
	g_free(bytes);
	return rc;
}

/*
 * Records that straddle the reader's 1 MiB buffers (a regular file is
 * read ahead into them; file offset 24 + 1 MiB is the first boundary),
 * with the record header itself cut by the boundary at every offset, and
 * files that end inside such a header: the same events and the same
 * error as through stdin (read without read-ahead), as libpcap, and as
 * the whole file held in memory.
 */
static void test_read_ahead_boundaries(void **state)
{
	const long boundary = 24 + (1L << 20);
	static uint8_t zeros[65536];
	char path[512], err[256], err2[256];
	struct seen a, b;

	(void)state;
	tmpname(path, sizeof(path), "ahead.pcap");
	for (int x = 0; x <= 16; x += 2) {
		size_t n = rocev2_frame(frame, 0);
		long pos = 24, at;
		uint32_t psn = 0;
		uint64_t nrec = 0, before;
		FILE *f = fopen(path, "wb");
		uint32_t fh[6] = { 0xa1b2c3d4, 0x00040002, 0, 0, 262144, DLT_EN10MB };

		assert_non_null(f);
		fwrite(fh, 4, 6, f);
		for (int i = 0; i < 3; i++, nrec++) {
			rocev2_frame(frame, psn++);
			put_rec(f, frame, (uint32_t)n, &pos);
		}
		/* Zero frames (no ethertype of ours) up to the boundary, then
		 * the next record header begins x bytes before it. */
		for (; boundary - x - pos > 16 + 60000 + 16; nrec++)
			put_rec(f, zeros, 60000, &pos);
		put_rec(f, zeros, (uint32_t)(boundary - x - pos - 16), &pos);
		nrec++;
		at = pos;
		before = nrec;
		for (int i = 0; i < 3; i++, nrec++) {
			rocev2_frame(frame, psn++);
			put_rec(f, frame, (uint32_t)n, &pos);
		}
		for (int i = 0; i < 20; i++, nrec++)
			put_rec(f, zeros, 60000, &pos);
		for (int i = 0; i < 3; i++, nrec++) {
			rocev2_frame(frame, psn++);
			put_rec(f, frame, (uint32_t)n, &pos);
		}
		fclose(f);
		assert_int_equal(at, boundary - x);

		assert_int_equal(run_seen(path, &a, err), 0);
		assert_int_equal(a.n, 9);
		assert_true(a.data_ok);
		for (int i = 0; i < 9; i++)
			assert_int_equal(a.psn[i], i);
		assert_int_equal(a.frame[3], before + 1);
		assert_int_equal(a.frame[8], nrec);
		assert_non_null(freopen(path, "rb", stdin));
		assert_int_equal(run_seen("-", &b, err), 0);
		assert_int_equal(b.n, 9);
		assert_memory_equal(a.frame, b.frame, sizeof(a.frame));
		assert_int_equal(run_seen_memory(path, &b, err), 0);
		assert_int_equal(b.n, 9);
		assert_memory_equal(a.frame, b.frame, sizeof(a.frame));
		assert_memory_equal(a.psn, b.psn, sizeof(a.psn));

		/* The file ends just after the straddling header, or inside it
		 * (shorter each time: truncate() would grow it with zeros). */
		for (int cut = 17; cut > 0; cut -= 8) {
			assert_int_equal(truncate(path, at + cut), 0);
			assert_int_equal(run_seen(path, &a, err), -1);
			assert_int_equal(a.n, 3);
			assert_non_null(freopen(path, "rb", stdin));
			assert_int_equal(run_seen("-", &b, err2), -1);
			assert_int_equal(b.n, 3);
			snprintf(err2, sizeof(err2), "frame %" PRIu64 " (the last good frame)", before);
			assert_non_null(strstr(err, err2));
			assert_non_null(strstr(err, cut < 16 ? "of its 16 bytes" : "captured bytes"));
			/* The damaged record starts where the last good one ended. */
			snprintf(err2, sizeof(err2), "byte offset %" PRIu64 ",", (uint64_t)at);
			assert_non_null(strstr(err, err2));
			/* Held in memory: the same frames, the same words. */
			assert_int_equal(run_seen_memory(path, &b, err2), -1);
			assert_int_equal(b.n, 3);
			assert_string_equal(err, err2);
		}
	}
	unlink(path);
}

static void put_le32(FILE *f, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };

	fwrite(b, 1, 4, f);
}

static void put_le16(FILE *f, uint16_t v)
{
	uint8_t b[2] = { (uint8_t)v, (uint8_t)(v >> 8) };

	fwrite(b, 1, 2, f);
}

/* pcapng: Section Header, Interface Description (SLL2), two Enhanced
 * Packet Blocks, written by hand. */
static void test_pcapng_sll2(void **state)
{
	char path[512], err[256] = "";
	struct col *c = calloc(1, sizeof(*c));
	struct rr_decode_stats st;
	FILE *f;

	(void)state;
	tmpname(path, sizeof(path), "two.pcapng");
	f = fopen(path, "wb");
	put_le32(f, 0x0A0D0D0A);
	put_le32(f, 28);
	put_le32(f, 0x1A2B3C4D);
	put_le16(f, 1);
	put_le16(f, 0);
	put_le32(f, 0xFFFFFFFF);
	put_le32(f, 0xFFFFFFFF);
	put_le32(f, 28);
	put_le32(f, 1);
	put_le32(f, 20);
	put_le16(f, DLT_LINUX_SLL2);
	put_le16(f, 0);
	put_le32(f, 0);
	put_le32(f, 20);
	for (int i = 0; i < 2; i++) {
		size_t n = rocev2_frame(frame, 7 + (uint32_t)i) - 14 + 20;
		size_t padded = (n + 3) & ~(size_t)3;
		uint8_t sll2[20] = { 0x08, 0x00 };

		put_le32(f, 6);
		put_le32(f, (uint32_t)(32 + padded));
		put_le32(f, 0);
		put_le32(f, 0);
		put_le32(f, (uint32_t)i);
		put_le32(f, (uint32_t)n);
		put_le32(f, (uint32_t)n);
		fwrite(sll2, 1, 20, f);
		fwrite(frame + 14, 1, n - 20, f);
		fwrite("\0\0\0", 1, padded - n, f);
		put_le32(f, (uint32_t)(32 + padded));
	}
	fclose(f);
	assert_int_equal(run_file(path, c, &st, err), 0);
	assert_int_equal(c->n, 2);
	assert_int_equal(c->ev[1].psn, 8);
	assert_int_equal(c->ev[1].frame, 2);
	assert_int_equal(c->nd, 0);
	/*
	 * A second interface with another snapshot length: a valid pcapng that
	 * libpcap reads no further.  The two frames before it are analysed, and
	 * the file is said to be unreadable there, not damaged.
	 */
	f = fopen(path, "ab");
	put_le32(f, 1);
	put_le32(f, 20);
	put_le16(f, DLT_LINUX_SLL2);
	put_le16(f, 0);
	put_le32(f, 200);
	put_le32(f, 20);
	fclose(f);
	col_reset(c);
	assert_int_equal(run_file(path, c, &st, err), -1);
	assert_int_equal(c->n, 2);
	assert_non_null(strstr(err, "unreadable at byte offset"));
	assert_non_null(strstr(err, "differs from the first in snapshot length"));
	assert_null(strstr(err, "damaged at"));
	unlink(path);
	col_reset(c);
	free(c);
}

static void test_unsupported_linktype(void **state)
{
	char path[512], err[256] = "";
	struct col *c = calloc(1, sizeof(*c));
	struct rr_decode_stats st;

	(void)state;
	tmpname(path, sizeof(path), "wifi.pcap");
	write_pcap(path, DLT_IEEE802_11, 1);
	assert_int_equal(run_file(path, c, &st, err), -1);
	assert_int_equal(col_count(c, CAP_LINKTYPE), 1);
	assert_non_null(strstr(c->text[0], "IEEE802_11"));
	assert_non_null(strstr(err, path));
	assert_int_equal(c->n, 0);
	unlink(path);
	col_reset(c);
	free(c);
}

/* Random and mutated frames: every length from the wire is checked. */
static void test_robustness(void **state)
{
	static const int dlts[] = { DLT_EN10MB, DLT_LINUX_SLL, DLT_LINUX_SLL2, DLT_INFINIBAND,
				    DLT_ERF, DLT_RAW, DLT_IPV4, DLT_IPV6 };
	uint8_t seed[3][PK_MAX];
	size_t seedlen[3];
	uint32_t rnd = 12345;
	struct pk *u = pk_new();

	(void)state;
	seedlen[0] = rocev2_frame(seed[0], 1);
	ib_bth(u, 0x0A, 0, 7, 1);
	pk_be64(u, 1);
	pk_be32(u, 2);
	pk_be32(u, 3);
	pk_fill(u, 7, 64);
	seedlen[1] = wrap_rocev1(seed[1], u);
	u->n = 0;
	ddp_untagged(u, 3, true, 0, 0, 1, 0);
	pk_fill(u, 9, 40);
	{
		struct mstream *ms = calloc(1, sizeof(*ms));

		ms->crc = true;
		ms_fpdu(ms, u->b, u->n);
		ms_fpdu(ms, u->b, u->n);
		seedlen[2] = tcp_frame(seed[2], 1, 2, 20049, 5000, 1000, 0, 0x18, ms->out.b, ms->out.n);
		free(ms);
	}
	for (size_t d = 0; d < sizeof(dlts) / sizeof(dlts[0]); d++) {
		struct tdec *t = tdec_new(dlts[d], NULL);

		for (int i = 0; i < 6000; i++) {
			size_t n;
			int s = i % 3;

			rnd = rnd * 1103515245u + 12345u;
			if (i & 1) {
				n = (rnd >> 8) % 300;
				for (size_t k = 0; k < n; k++) {
					rnd = rnd * 1103515245u + 12345u;
					frame[k] = (uint8_t)(rnd >> 16);
				}
			} else {
				n = seedlen[s];
				memcpy(frame, seed[s], n);
				for (int k = 0; k < 4; k++) {
					rnd = rnd * 1103515245u + 12345u;
					frame[(rnd >> 8) % n] = (uint8_t)(rnd >> 20);
				}
				if (dlts[d] == DLT_RAW || dlts[d] == DLT_IPV4 || dlts[d] == DLT_IPV6) {
					memmove(frame, frame + 14, n - 14);
					n -= 14;
				}
			}
			rnd = rnd * 1103515245u + 12345u;
			tdec_feed(t, frame, (rnd & 3) ? n : n / 2, n + ((rnd >> 4) & 7));
		}
		rr_frame_decoder_finish(t->d);
		assert_int_equal(rr_frame_decoder_stats(t->d)->frames, 6000);
		tdec_free(t);
	}
	free(u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc_vectors),
		cmocka_unit_test(test_crc_fast_paths),
		cmocka_unit_test(test_pcap_and_truncated),
		cmocka_unit_test(test_read_ahead_boundaries),
		cmocka_unit_test(test_pcapng_sll2),
		cmocka_unit_test(test_unsupported_linktype),
		cmocka_unit_test(test_robustness),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
