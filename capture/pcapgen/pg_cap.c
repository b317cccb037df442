// SPDX-License-Identifier: GPL-2.0-or-later
#include "pg_cap.h"

#include "pg_buf.h"
#include "pg_encap.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define ERF_TYPE_INFINIBAND 21

struct pg_cap {
	FILE *f;
	char *path;
	int format;
	uint32_t dlt, snaplen;
	uint64_t t_ns;
	pg_rng rng;
	uint32_t nframes;
	pg_truth *truth;
	bool replay;
	bool failed;
	GByteArray *rec;
	pg_encap encap;
	GByteArray *wrapped;    /* the frame inside its encapsulation */
	GArray *frame_usec;     /* uint64_t per frame written: its timestamp (the audit's clock) */
};

/* The capture point of the captures opened from now on. */
static pg_encap capture_point;

void pg_cap_set_encap(const pg_encap *e)
{
	capture_point = *e;
}

static void put(pg_cap *c, const void *p, size_t n)
{
	if (!c->failed && fwrite(p, 1, n, c->f) != n)
		c->failed = true;
}

static void le16(GByteArray *b, uint16_t v)
{
	uint8_t t[2] = { (uint8_t)v, (uint8_t)(v >> 8) };
	g_byte_array_append(b, t, 2);
}

static void le32(GByteArray *b, uint32_t v)
{
	pb_le32(b, v);
}

static void flush_rec(pg_cap *c)
{
	put(c, c->rec->data, c->rec->len);
	g_byte_array_set_size(c->rec, 0);
}

/* pcapng option: code, length, value padded to 4 */
static void ng_opt(GByteArray *b, uint16_t code, const void *v, uint16_t len)
{
	le16(b, code);
	le16(b, len);
	pb_bytes(b, v, len);
	pb_pad4(b);
}

static void ng_block_end(GByteArray *b, size_t start)
{
	uint32_t total = (uint32_t)(b->len - start + 4);
	b->data[start + 4] = (uint8_t)total;
	b->data[start + 5] = (uint8_t)(total >> 8);
	b->data[start + 6] = (uint8_t)(total >> 16);
	b->data[start + 7] = (uint8_t)(total >> 24);
	le32(b, total);
}

static void write_header(pg_cap *c)
{
	GByteArray *b = c->rec;
	if (c->format == PG_FMT_PCAP) {
		le32(b, 0xa1b2c3d4u); /* microsecond timestamps */
		le16(b, 2);
		le16(b, 4);
		le32(b, 0);
		le32(b, 0);
		le32(b, c->snaplen);
		le32(b, c->dlt);
	} else {
		static const char app[] = "rpcrdma-pcapgen";
		static const char ifname[] = "pcapgen0";
		size_t at = b->len;
		le32(b, 0x0a0d0d0au);
		le32(b, 0);
		le32(b, 0x1a2b3c4du);
		le16(b, 1);
		le16(b, 0);
		le32(b, 0xffffffffu); /* section length unknown */
		le32(b, 0xffffffffu);
		ng_opt(b, 4, app, sizeof(app) - 1); /* shb_userappl */
		le32(b, 0);                         /* opt_endofopt */
		ng_block_end(b, at);
		at = b->len;
		le32(b, 1); /* IDB */
		le32(b, 0);
		le16(b, (uint16_t)c->dlt);
		le16(b, 0);
		le32(b, c->snaplen);
		ng_opt(b, 2, ifname, sizeof(ifname) - 1); /* if_name */
		le32(b, 0);
		ng_block_end(b, at);
	}
	flush_rec(c);
}

pg_cap *pg_cap_open(const char *path, const pg_scenario *s, pg_truth *t, char **err)
{
	pg_cap *c = g_new0(pg_cap, 1);
	c->f = fopen(path, "wb");
	if (!c->f) {
		*err = g_strdup_printf("%s: %s", path, g_strerror(errno));
		g_free(c);
		return NULL;
	}
	c->path = g_strdup(path);
	c->format = s->format;
	c->dlt = s->link->dlt;
	c->encap = capture_point;
	c->snaplen = s->snaplen + (uint32_t)pg_encap_overhead(&c->encap);
	c->truth = t;
	c->rng = pg_rng_derive(s->seed, 0x54494d45, 0);
	/* A fixed day derived from the seed: reproducible, and plausible. */
	c->t_ns = (1600000000ull + pg_rng_range(&c->rng, 0, 100000000u)) * 1000000000ull +
		  (uint64_t)pg_rng_range(&c->rng, 0, 999999) * 1000ull;
	c->rec = g_byte_array_new();
	c->frame_usec = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	c->wrapped = g_byte_array_new();
	write_header(c);
	return c;
}

void pg_cap_gap(pg_cap *c, uint32_t usec)
{
	c->t_ns += (uint64_t)usec * 1000ull;
}

uint32_t pg_cap_count(const pg_cap *c)
{
	return c->nframes;
}

uint64_t pg_cap_frame_usec(const pg_cap *c, uint32_t n)
{
	return n >= 1 && n <= c->frame_usec->len ? g_array_index(c->frame_usec, uint64_t, n - 1) : 0;
}

static void erf_header(pg_cap *c, GByteArray *b, uint32_t caplen, uint32_t wirelen)
{
	uint64_t sec = c->t_ns / 1000000000ull, ns = c->t_ns % 1000000000ull;
	uint64_t frac = (ns << 32) / 1000000000ull;
	uint64_t ts = sec << 32 | frac;
	le32(b, (uint32_t)ts);
	le32(b, (uint32_t)(ts >> 32));
	pb_u8(b, ERF_TYPE_INFINIBAND);
	pb_u8(b, 0x04); /* varying record length, interface 0 */
	pb_be16(b, (uint16_t)(16 + caplen));
	pb_be16(b, 0);
	pb_be16(b, (uint16_t)wirelen);
}

void pg_cap_replay(pg_cap *c, bool on)
{
	c->replay = on;
}

uint32_t pg_cap_frame(pg_cap *c, const uint8_t *data, size_t len, const int *owners,
		      size_t nowners)
{
	GByteArray *b = c->rec;
	uint32_t wire = (uint32_t)len, cap = wire, hdr = c->dlt == 197 ? 16 : 0;
	uint32_t frame = ++c->nframes;
	uint64_t usec;
	GString *comment = NULL;

	c->t_ns += (uint64_t)pg_rng_range(&c->rng, 2, 25) * 1000ull;
	usec = c->t_ns / 1000ull;
	g_array_append_val(c->frame_usec, usec);
	for (size_t i = 0; i < nowners; i++) {
		uint32_t snap = pg_truth_snap(c->truth, owners[i]);
		if (!c->replay)
			pg_truth_frame(c->truth, owners[i], frame);
		if (snap && snap < cap + hdr)
			cap = snap > hdr ? snap - hdr : 0;
		if (c->format == PG_FMT_PCAPNG) {
			if (!comment)
				comment = g_string_new(NULL);
			else
				g_string_append(comment, "; ");
			g_string_append(comment, pg_truth_label(c->truth, owners[i]));
		}
	}
	if (c->encap.kind != PG_ENCAP_NONE) {
		/* the mirror wraps the frame; a snaplen cuts the same inner bytes */
		uint32_t oh = (uint32_t)pg_encap_overhead(&c->encap);

		g_byte_array_set_size(c->wrapped, 0);
		pg_encap_wrap(&c->encap, frame, usec, data, len, c->wrapped);
		data = c->wrapped->data;
		wire += oh;
		cap += oh;
	}
	if (c->format == PG_FMT_PCAP) {
		le32(b, (uint32_t)(usec / 1000000ull));
		le32(b, (uint32_t)(usec % 1000000ull));
		le32(b, cap + hdr);
		le32(b, wire + hdr);
		if (hdr)
			erf_header(c, b, cap, wire);
		pb_bytes(b, data, cap);
	} else {
		size_t at = b->len;
		le32(b, 6); /* EPB */
		le32(b, 0);
		le32(b, 0); /* interface 0 */
		le32(b, (uint32_t)(usec >> 32));
		le32(b, (uint32_t)usec);
		le32(b, cap + hdr);
		le32(b, wire + hdr);
		if (hdr)
			erf_header(c, b, cap, wire);
		pb_bytes(b, data, cap);
		pb_pad4(b);
		if (comment)
			ng_opt(b, 1, comment->str, (uint16_t)MIN(comment->len, 4000));
		if (comment)
			le32(b, 0);
		ng_block_end(b, at);
	}
	if (comment)
		g_string_free(comment, TRUE);
	flush_rec(c);
	return frame;
}

bool pg_cap_close(pg_cap *c, char **err)
{
	bool ok = !c->failed;
	if (fclose(c->f) != 0)
		ok = false;
	if (!ok)
		*err = g_strdup_printf("%s: write failed", c->path);
	g_byte_array_free(c->rec, TRUE);
	g_array_free(c->frame_usec, TRUE);
	g_byte_array_free(c->wrapped, TRUE);
	g_free(c->path);
	g_free(c);
	return ok;
}
