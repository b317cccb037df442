// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pcapcat - concatenate classic pcap files, or repeat them, into one pcap
 * stream whose frame timestamps keep increasing (benchmark helper).
 *
 *   pcapcat [-n PASSES] [-o OUT] FILE...
 *
 * Writes the file header of the first FILE once, then the records of
 * every FILE in order, PASSES times (default 1), to OUT or stdout.  Each
 * file's records are shifted forward in time, when needed, so that its
 * first record comes 1 ms after the last record written before it.  All
 * files must share byte order, timestamp resolution, link type and snap
 * length.  Only the timestamps are rewritten; everything else (XIDs, PSNs,
 * TCP sequence numbers) is repeated as is.
 *
 * Exit status 0, or 1 with a sentence on stderr.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define OUTBUF (1u << 20)

struct in {
	const char *name;
	const uint8_t *p;
	size_t n;
	bool swap, nsec;
	uint32_t linktype, snaplen;
};

static uint8_t out[OUTBUF];
static size_t outn;
static int outfd = 1;

static void die(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "pcapcat: ");
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	exit(1);
}

static void flush_out(void)
{
	size_t off = 0;

	while (off < outn) {
		ssize_t w = write(outfd, out + off, outn - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			die("write: %s%s", strerror(errno), "");
		off += (size_t)w;
	}
	outn = 0;
}

static void put(const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n) {
		size_t k = OUTBUF - outn < n ? OUTBUF - outn : n;

		memcpy(out + outn, b, k);
		outn += k;
		b += k;
		n -= k;
		if (outn == OUTBUF)
			flush_out();
	}
}

static uint32_t rd32(const uint8_t *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return swap ? __builtin_bswap32(v) : v;
}

static void wr32(uint8_t *p, uint32_t v, bool swap)
{
	if (swap)
		v = __builtin_bswap32(v);
	memcpy(p, &v, 4);
}

static void open_in(struct in *f, const char *name)
{
	struct stat st;
	uint32_t magic;
	int fd = open(name, O_RDONLY);

	f->name = name;
	if (fd < 0 || fstat(fd, &st) < 0)
		die("%s: %s", name, strerror(errno));
	f->n = (size_t)st.st_size;
	if (f->n < 24)
		die("%s: %s", name, "shorter than a pcap file header");
	f->p = mmap(NULL, f->n, PROT_READ, MAP_PRIVATE, fd, 0);
	if (f->p == MAP_FAILED)
		die("%s: mmap: %s", name, strerror(errno));
	close(fd);
	madvise((void *)f->p, f->n, MADV_SEQUENTIAL);
	memcpy(&magic, f->p, 4);
	switch (magic) {
	case 0xa1b2c3d4: f->swap = false; f->nsec = false; break;
	case 0xa1b23c4d: f->swap = false; f->nsec = true; break;
	case 0xd4c3b2a1: f->swap = true; f->nsec = false; break;
	case 0x4d3cb2a1: f->swap = true; f->nsec = true; break;
	default:
		die("%s: %s", name, "not a classic pcap file (pcapng is not supported)");
	}
	f->snaplen = rd32(f->p + 16, f->swap);
	f->linktype = rd32(f->p + 20, f->swap);
}

int main(int argc, char **argv)
{
	unsigned long passes = 1;
	const char *outname = NULL;
	struct in *ins;
	int nin, c;
	uint64_t last = 0;     /* last timestamp written, in ticks */
	bool any = false;

	while ((c = getopt(argc, argv, "n:o:")) != -1) {
		switch (c) {
		case 'n':
			passes = strtoul(optarg, NULL, 10);
			break;
		case 'o':
			outname = optarg;
			break;
		default:
			fprintf(stderr, "usage: pcapcat [-n PASSES] [-o OUT] FILE...\n");
			return 1;
		}
	}
	nin = argc - optind;
	if (nin < 1 || passes < 1) {
		fprintf(stderr, "usage: pcapcat [-n PASSES] [-o OUT] FILE...\n");
		return 1;
	}
	ins = calloc((size_t)nin, sizeof(*ins));
	for (int i = 0; i < nin; i++) {
		open_in(&ins[i], argv[optind + i]);
		if (i && (ins[i].swap != ins[0].swap || ins[i].nsec != ins[0].nsec ||
			  ins[i].linktype != ins[0].linktype || ins[i].snaplen != ins[0].snaplen))
			die("%s: byte order, resolution, link type or snaplen differ from %s",
			    ins[i].name, ins[0].name);
	}
	if (outname) {
		outfd = open(outname, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (outfd < 0)
			die("%s: %s", outname, strerror(errno));
	}
	put(ins[0].p, 24);

	for (unsigned long pass = 0; pass < passes; pass++) {
		for (int i = 0; i < nin; i++) {
			const struct in *f = &ins[i];
			const uint64_t tick = f->nsec ? 1000000000u : 1000000u;
			const bool sw = f->swap;
			uint64_t shift = 0;
			size_t off = 24;
			bool first = true;

			while (off < f->n) {
				uint8_t h[16];
				uint32_t incl;
				uint64_t ts;

				if (f->n - off < 16)
					die("%s: %s", f->name, "ends inside a record header");
				memcpy(h, f->p + off, 16);
				incl = rd32(h + 8, sw);
				if (incl > f->n - off - 16)
					die("%s: %s", f->name, "ends inside a record");
				ts = (uint64_t)rd32(h, sw) * tick + rd32(h + 4, sw);
				if (first) {
					/* 1 ms after what was written last, if not already later. */
					uint64_t want = last + tick / 1000;

					if (any && ts < want)
						shift = want - ts;
					first = false;
				}
				ts += shift;
				wr32(h, (uint32_t)(ts / tick), sw);
				wr32(h + 4, (uint32_t)(ts % tick), sw);
				last = ts;
				any = true;
				put(h, 16);
				put(f->p + off + 16, incl);
				off += 16 + (size_t)incl;
			}
		}
	}
	flush_out();
	if (outname && close(outfd) != 0)
		die("%s: %s", outname, strerror(errno));
	return 0;
}
