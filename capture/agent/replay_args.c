// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * replay_args.c - NFSACL v3 SETACL arguments read and cut to fewer ACL
 * entries (replay.h), and the XID of a call.  The layout is Linux's
 * nfs_acl.x: SETACL3args { nfs_fh3 fh; secattr acl; } with secattr
 * { mask; aclcnt; aclent<>; dfaclcnt; dfaclent<>; }: both ACLs are on the
 * wire whatever the mask says (Linux's encoder writes an empty one, its
 * decoder reads both); the mask says which the server applies.
 */
#include <stdio.h>
#include <string.h>

#include <rpcrdma/cursor.h>

#include "replay.h"

#define NFS_ACL 0x01u
#define NFS_ACLCNT 0x02u
#define ENTRY 12u                 /* { type, id, perm } */
#define MAX_ENTRIES 1024u         /* NFS_ACL_MAX_ENTRIES */

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* One ACL: count word, array length, entries.  false with err when it does not fit. */
static bool one_acl(struct rr_cursor *c, const char *which, uint32_t *cnt, uint32_t *n,
		    char *err, size_t errlen)
{
	if (!rr_get_be32(c, cnt) || !rr_get_be32(c, n)) {
		snprintf(err, errlen, "SETACL arguments end inside the %s ACL's counts", which);
		return false;
	}
	if (*n > MAX_ENTRIES || (size_t)*n * ENTRY > rr_cursor_left(c)) {
		snprintf(err, errlen, "SETACL %s ACL: %u entries do not fit in the %zu bytes left",
			 which, *n, rr_cursor_left(c));
		return false;
	}
	rr_skip(c, (size_t)*n * ENTRY);
	return true;
}

bool rp_acl_parse(const uint8_t *args, size_t len, struct rp_acl_args *a, char *err, size_t errlen)
{
	struct rr_cursor c;
	uint32_t fhl;

	memset(a, 0, sizeof(*a));
	rr_cursor_init(&c, args, len);
	if (!rr_get_be32(&c, &fhl) || fhl > 64 || rr_cursor_left(&c) < ((fhl + 3u) & ~3u) + 4) {
		snprintf(err, errlen, "SETACL arguments: no NFSv3 file handle (at most 64 bytes) and mask");
		return false;
	}
	a->fh_len = fhl;
	rr_skip(&c, (fhl + 3u) & ~3u);
	rr_get_be32(&c, &a->mask);
	a->acl_at = rr_cursor_pos(&c);
	if (!one_acl(&c, "access", &a->aclcnt, &a->n_acl, err, errlen))
		return false;
	for (uint32_t i = 0; i < a->n_acl; i++) {
		uint32_t t = be32(args + a->acl_at + 8 + (size_t)i * ENTRY);
		a->named += t == RP_ACL_USER || t == RP_ACL_GROUP;
	}
	a->dfacl_at = rr_cursor_pos(&c);
	if (!one_acl(&c, "default", &a->dfaclcnt, &a->n_dfacl, err, errlen))
		return false;
	a->end = rr_cursor_pos(&c);
	if (a->end != len) {
		snprintf(err, errlen, "SETACL arguments: %zu bytes after the ACLs", len - a->end);
		return false;
	}
	return true;
}

/* Entries at the end of the access ACL that name no one: they close a sorted POSIX ACL. */
static uint32_t closing_entries(const uint8_t *ents, uint32_t n)
{
	uint32_t k = 0;

	while (k < n) {
		uint32_t t = be32(ents + (size_t)(n - 1 - k) * ENTRY);
		if (t == RP_ACL_USER || t == RP_ACL_GROUP)
			break;
		k++;
	}
	return k;
}

GByteArray *rp_acl_resize(const GByteArray *msg, size_t args_off, uint32_t n, char *err,
			  size_t errlen)
{
	struct rp_acl_args a;
	const uint8_t *args;
	const uint8_t *ents;
	uint32_t tail, head;
	GByteArray *out;
	size_t at;

	if (args_off > msg->len) {
		snprintf(err, errlen, "the call ends before its arguments");
		return NULL;
	}
	args = msg->data + args_off;
	if (!rp_acl_parse(args, msg->len - args_off, &a, err, errlen))
		return NULL;
	if (!(a.mask & (NFS_ACL | NFS_ACLCNT))) {
		snprintf(err, errlen, "SETACL carries no access ACL (mask 0x%x)", a.mask);
		return NULL;
	}
	ents = args + a.acl_at + 8;
	tail = closing_entries(ents, a.n_acl);
	if (n > a.n_acl || n < tail) {
		snprintf(err, errlen, "SETACL: %u access ACL entries asked for; the call has %u, "
			 "of which the last %u close the ACL", n, a.n_acl, tail);
		return NULL;
	}
	head = n - tail;
	out = g_byte_array_sized_new(msg->len);
	at = args_off + a.acl_at;
	g_byte_array_append(out, msg->data, (guint)at);
	{
		uint8_t w[8];
		put32(w, n);
		put32(w + 4, n);
		g_byte_array_append(out, w, 8);
	}
	g_byte_array_append(out, ents, head * ENTRY);
	g_byte_array_append(out, ents + (size_t)(a.n_acl - tail) * ENTRY, tail * ENTRY);
	at = args_off + a.dfacl_at;
	g_byte_array_append(out, msg->data + at, (guint)(msg->len - at));
	return out;
}

void rp_set_xid(GByteArray *msg, uint32_t xid)
{
	if (msg->len >= 4)
		put32(msg->data, xid);
}

GByteArray *rp_replace_fh(const GByteArray *msg, size_t args_off, const uint8_t *fh, uint32_t len,
			  char *err, size_t errlen)
{
	uint32_t old;
	size_t after;
	GByteArray *out;
	uint8_t w[4], pad[4] = { 0 };

	if (args_off + 4 > msg->len || (old = be32(msg->data + args_off)) > 64 ||
	    args_off + 4 + ((old + 3u) & ~3u) > msg->len || len > 64) {
		snprintf(err, errlen, "the call's arguments do not start with an NFSv3 file handle");
		return NULL;
	}
	after = args_off + 4 + ((old + 3u) & ~3u);
	out = g_byte_array_sized_new(msg->len + 64);
	g_byte_array_append(out, msg->data, (guint)args_off);
	put32(w, len);
	g_byte_array_append(out, w, 4);
	g_byte_array_append(out, fh, len);
	g_byte_array_append(out, pad, (4 - (len & 3)) & 3);
	g_byte_array_append(out, msg->data + after, (guint)(msg->len - after));
	return out;
}
