// SPDX-License-Identifier: GPL-2.0-or-later
/* serve's written data, per file handle and offset, bounded (serve_store.h). */
#include "serve_store.h"

#include <string.h>

#include <glib.h>

struct extent {
	uint64_t off;
	GByteArray *data;
};

struct file {
	GArray *ext;   /* struct extent, ascending and disjoint, never touching */
};

struct ss_store {
	GHashTable *files;   /* GBytes fh -> struct file */
	uint64_t limit, used;
};

static void file_free(gpointer p)
{
	struct file *f = p;
	for (guint i = 0; i < f->ext->len; i++)
		g_byte_array_free(g_array_index(f->ext, struct extent, i).data, TRUE);
	g_array_free(f->ext, TRUE);
	g_free(f);
}

struct ss_store *ss_new(uint64_t limit)
{
	struct ss_store *s = g_new0(struct ss_store, 1);
	s->files = g_hash_table_new_full(g_bytes_hash, g_bytes_equal, (GDestroyNotify)g_bytes_unref,
					 file_free);
	s->limit = limit;
	return s;
}

void ss_free(struct ss_store *s)
{
	if (!s)
		return;
	g_hash_table_destroy(s->files);
	g_free(s);
}

static struct file *find(const struct ss_store *s, const uint8_t *fh, uint32_t fhlen)
{
	GBytes *k = g_bytes_new_static(fh, fhlen);
	struct file *f = g_hash_table_lookup(s->files, k);
	g_bytes_unref(k);
	return f;
}

static uint64_t ext_end(const struct extent *e)
{
	return e->off + e->data->len;
}

bool ss_write(struct ss_store *s, const uint8_t *fh, uint32_t fhlen, uint64_t off,
	      const uint8_t *data, uint32_t len)
{
	struct file *f;
	struct extent merged;
	uint64_t start = off, end = off + len, old = 0;
	guint first, last;

	if (!fhlen || fhlen > SS_MAX_FH || off > UINT64_MAX - len)
		return false;
	if (!len)
		return true;
	f = find(s, fh, fhlen);
	/* the extents the new one overlaps or touches: [first, last) */
	for (first = 0; f && first < f->ext->len; first++)
		if (ext_end(&g_array_index(f->ext, struct extent, first)) >= off)
			break;
	for (last = first; f && last < f->ext->len; last++) {
		const struct extent *e = &g_array_index(f->ext, struct extent, last);
		if (e->off > off + len)
			break;
		start = MIN(start, e->off);
		end = MAX(end, ext_end(e));
		old += e->data->len;
	}
	if (end - start > s->limit || end - start > G_MAXUINT32 || s->used - old + (end - start) > s->limit)
		return false;
	if (!f) {
		f = g_new0(struct file, 1);
		f->ext = g_array_new(FALSE, FALSE, sizeof(struct extent));
		g_hash_table_insert(s->files, g_bytes_new(fh, fhlen), f);
		first = last = 0;
	}
	merged.off = start;
	merged.data = g_byte_array_sized_new((guint)(end - start));
	g_byte_array_set_size(merged.data, (guint)(end - start));
	for (guint i = first; i < last; i++) {
		struct extent *e = &g_array_index(f->ext, struct extent, i);
		memcpy(merged.data->data + (e->off - start), e->data->data, e->data->len);
		g_byte_array_free(e->data, TRUE);
	}
	memcpy(merged.data->data + (off - start), data, len);
	g_array_remove_range(f->ext, first, last - first);
	g_array_insert_val(f->ext, first, merged);
	s->used = s->used - old + (end - start);
	return true;
}

uint64_t ss_read(const struct ss_store *s, const uint8_t *fh, uint32_t fhlen, uint64_t off,
		 uint8_t *buf, uint32_t len)
{
	const struct file *f = fhlen ? find(s, fh, fhlen) : NULL;
	uint64_t n = 0, end = off + len;

	for (guint i = 0; f && i < f->ext->len; i++) {
		const struct extent *e = &g_array_index(f->ext, struct extent, i);
		uint64_t a = MAX(off, e->off), b = MIN(end, ext_end(e));
		if (e->off >= end)
			break;
		if (a >= b)
			continue;
		memcpy(buf + (a - off), e->data->data + (a - e->off), (size_t)(b - a));
		n += b - a;
	}
	return n;
}

uint64_t ss_end(const struct ss_store *s, const uint8_t *fh, uint32_t fhlen)
{
	const struct file *f = fhlen ? find(s, fh, fhlen) : NULL;
	if (!f || !f->ext->len)
		return 0;
	return ext_end(&g_array_index(f->ext, struct extent, f->ext->len - 1));
}

uint64_t ss_used(const struct ss_store *s)
{
	return s->used;
}
