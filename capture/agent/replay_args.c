// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * replay_args.c - NFSACL v3 SETACL arguments cut to fewer ACL entries
 * (replay.h), a call's file handle replaced, and the XID of a call.
 * The engine reads the arguments (rr_nfsacl_setacl_args, rr_nfs3_read_fh:
 * where each part is, which entries close the ACL); the generator's
 * buffer writers write the new count words and handle.  What is left here
 * is copying byte ranges the engine named.
 */
#include <stdio.h>
#include <string.h>

#include <rpcrdma/cursor.h>

#include "pg_buf.h"
#include "replay.h"

bool rp_acl_parse(const uint8_t *args, size_t len, struct rp_acl_args *a, char *err, size_t errlen)
{
	return rr_nfsacl_setacl_args(args, len, a, err, errlen);
}

GByteArray *rp_acl_resize(const GByteArray *msg, size_t args_off, uint32_t n, char *err,
			  size_t errlen)
{
	struct rp_acl_args a;
	const uint8_t *ents;
	uint32_t head;
	GByteArray *out;
	size_t at;

	if (args_off > msg->len) {
		snprintf(err, errlen, "the call ends before its arguments");
		return NULL;
	}
	if (!rp_acl_parse(msg->data + args_off, msg->len - args_off, &a, err, errlen))
		return NULL;
	if (!(a.mask & (RR_NFSACL_MASK_ACL | RR_NFSACL_MASK_ACLCNT))) {
		snprintf(err, errlen, "SETACL carries no access ACL (mask 0x%x)", a.mask);
		return NULL;
	}
	if (n > a.n_acl || n < a.closing) {
		snprintf(err, errlen, "SETACL: %u access ACL entries asked for; the call has %u, "
			 "of which the last %u close the ACL", n, a.n_acl, a.closing);
		return NULL;
	}
	/* [0, aclcnt) | n, n | the first head entries | the closing ones | [dfaclcnt, end) */
	head = n - a.closing;
	at = args_off + a.acl_at;
	ents = msg->data + at + 8;
	out = g_byte_array_sized_new(msg->len);
	g_byte_array_append(out, msg->data, (guint)at);
	pb_be32(out, n);
	pb_be32(out, n);
	g_byte_array_append(out, ents, head * RR_NFSACL_ENTRY_SIZE);
	g_byte_array_append(out, ents + (size_t)(a.n_acl - a.closing) * RR_NFSACL_ENTRY_SIZE,
			    a.closing * RR_NFSACL_ENTRY_SIZE);
	at = args_off + a.dfacl_at;
	g_byte_array_append(out, msg->data + at, (guint)(msg->len - at));
	return out;
}

void rp_set_xid(GByteArray *msg, uint32_t xid)
{
	if (msg->len >= 4)
		pb_put_be32(msg, 0, xid);
}

GByteArray *rp_replace_fh(const GByteArray *msg, size_t args_off, const uint8_t *fh, uint32_t len,
			  char *err, size_t errlen)
{
	struct rr_cursor c;
	const uint8_t *old;
	uint32_t old_len;
	size_t after;
	GByteArray *out;

	rr_cursor_init(&c, msg->data + MIN(args_off, msg->len), msg->len - MIN(args_off, msg->len));
	if (args_off > msg->len || !rr_nfs3_read_fh(&c, &old, &old_len) || len > RR_NFS3_FHSIZE) {
		snprintf(err, errlen, "the call's arguments do not start with an NFSv3 file handle");
		return NULL;
	}
	after = args_off + rr_cursor_pos(&c);
	out = g_byte_array_sized_new(msg->len + RR_NFS3_FHSIZE);
	g_byte_array_append(out, msg->data, (guint)args_off);
	pb_xdr_opaque(out, fh, len);
	g_byte_array_append(out, msg->data + after, (guint)(msg->len - after));
	return out;
}
