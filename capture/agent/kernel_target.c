// SPDX-License-Identifier: GPL-2.0-or-later
/* File handles of a real NFS server over TCP: rpcbind, MOUNT v3, LOOKUP (kernel_target.h). */
#include "kernel_target.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <glib.h>

#include <rpcrdma/cursor.h>
#include <rpcrdma/rpc.h>

#include "pg_buf.h"

/* One RPC over TCP (record marking, one fragment); the reply's results in res. */
static bool tcp_rpc(const char *server, uint16_t port, uint32_t prog, uint32_t vers, uint32_t proc,
		    const GByteArray *args, GByteArray *res, char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *ai;
	GByteArray *b = g_byte_array_new();
	pg_nfs_state st;
	char ports[8];
	uint8_t rm[4];
	uint32_t len, xid = (uint32_t)g_random_int();
	struct rr_cursor c;
	struct rr_rpc_reply rep;
	bool ok = false;
	int fd = -1, r;

	pg_nfs_state_init(&st, 1);
	g_strlcpy(st.machine, "rpcrdma-agent", sizeof(st.machine));
	pb_be32(b, 0);                       /* record mark, filled below */
	pg_rpc_call_hdr(b, &st, xid, prog, vers, proc, true);
	g_byte_array_append(b, args->data, args->len);
	pb_put_be32(b, 0, 0x80000000u | (b->len - 4));
	snprintf(ports, sizeof(ports), "%u", port);
	if ((r = getaddrinfo(server, ports, &hints, &ai))) {
		snprintf(err, errlen, "%s: %s", server, gai_strerror(r));
		goto out;
	}
	fd = socket(ai->ai_family, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
		snprintf(err, errlen, "TCP %s port %u: %s", server, port, strerror(errno));
		freeaddrinfo(ai);
		goto out;
	}
	freeaddrinfo(ai);
	{
		struct timeval tv = { 10, 0 };
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	}
	if (write(fd, b->data, b->len) != (ssize_t)b->len ||
	    recv(fd, rm, 4, MSG_WAITALL) != 4) {
		snprintf(err, errlen, "TCP %s port %u: no reply", server, port);
		goto out;
	}
	len = pb_get_be32(rm) & 0x7fffffffu;
	if (len > 65536) {
		snprintf(err, errlen, "TCP %s port %u: a %u-byte reply", server, port, len);
		goto out;
	}
	g_byte_array_set_size(b, len);
	if (recv(fd, b->data, len, MSG_WAITALL) != (ssize_t)len) {
		snprintf(err, errlen, "TCP %s port %u: short reply", server, port);
		goto out;
	}
	rr_cursor_init(&c, b->data, b->len);
	if (!rr_rpc_decode_reply(&c, &rep) || rep.xid != xid || rep.reply_stat || rep.accept_stat) {
		snprintf(err, errlen, "program %u v%u proc %u at %s: the call was not accepted", prog,
			 vers, proc, server);
		goto out;
	}
	g_byte_array_set_size(res, 0);
	g_byte_array_append(res, b->data + rr_cursor_pos(&c), b->len - (guint)rr_cursor_pos(&c));
	ok = true;
out:
	if (fd >= 0)
		close(fd);
	g_byte_array_free(b, TRUE);
	return ok;
}

static bool get_fh(const GByteArray *res, bool v3_status_first, uint8_t *fh, uint32_t *len)
{
	struct rr_cursor c;
	uint32_t st, n;
	rr_cursor_init(&c, res->data, res->len);
	if (v3_status_first && (!rr_get_be32(&c, &st) || st))
		return false;
	if (!rr_get_be32(&c, &n) || n == 0 || n > 64 || rr_cursor_left(&c) < n)
		return false;
	memcpy(fh, res->data + rr_cursor_pos(&c), n);
	*len = n;
	return true;
}

static bool lookup(const char *server, const uint8_t *dir, uint32_t dlen, const char *name,
		   uint8_t *fh, uint32_t *len, char *err, size_t errlen)
{
	GByteArray *a = g_byte_array_new(), *res = g_byte_array_new();
	bool ok;
	pb_xdr_opaque(a, dir, dlen);
	pb_xdr_string(a, name);
	ok = tcp_rpc(server, 2049, 100003, 3, 3, a, res, err, errlen);
	if (ok && !(ok = get_fh(res, true, fh, len)))
		snprintf(err, errlen, "NFSv3 LOOKUP %s on %s failed (is the lab export prepared?)",
			 name, server);
	g_byte_array_free(a, TRUE);
	g_byte_array_free(res, TRUE);
	return ok;
}

bool kt_handles(const char *server, const char *export_path, struct kt_handles *kh, char *err,
		size_t errlen)
{
	GByteArray *a = g_byte_array_new(), *res = g_byte_array_new();
	uint32_t port = 0;
	bool ok = false;

	memset(kh, 0, sizeof(*kh));
	/* rpcbind v2 GETPORT: MOUNT v3 over TCP */
	pb_be32(a, 100005);
	pb_be32(a, 3);
	pb_be32(a, 6);
	pb_be32(a, 0);
	if (!tcp_rpc(server, 111, 100000, 2, 3, a, res, err, errlen))
		goto out;
	if (res->len < 4 || !(port = pb_get_be32(res->data)) || port > 65535) {
		snprintf(err, errlen, "rpcbind on %s: MOUNT v3 over TCP is not registered", server);
		goto out;
	}
	kh->mountd_port = (uint16_t)port;
	g_byte_array_set_size(a, 0);
	pb_xdr_string(a, export_path);
	if (!tcp_rpc(server, (uint16_t)port, 100005, 3, 1, a, res, err, errlen))
		goto out;
	if (!get_fh(res, true, kh->root, &kh->root_len)) {
		snprintf(err, errlen, "MOUNT %s:%s refused", server, export_path);
		goto out;
	}
	if (!lookup(server, kh->root, kh->root_len, KT_FILE, kh->file, &kh->file_len, err, errlen) ||
	    !lookup(server, kh->root, kh->root_len, KT_LINK, kh->link, &kh->link_len, err, errlen))
		goto out;
	kh->valid = true;
	ok = true;
	fprintf(stderr, "rpcrdma-agent: %s:%s root handle %u bytes, %s %u bytes, %s %u bytes\n",
		server, export_path, kh->root_len, KT_FILE, kh->file_len, KT_LINK, kh->link_len);
out:
	g_byte_array_free(a, TRUE);
	g_byte_array_free(res, TRUE);
	return ok;
}

void kt_apply(const struct kt_handles *kh, pg_nfs_state *st)
{
	if (!kh->valid)
		return;
	memcpy(st->root_fh, kh->root, kh->root_len);
	st->root_fh_len = kh->root_len;
	memcpy(st->dir_fh, kh->root, kh->root_len);
	st->dir_fh_len = kh->root_len;
	memcpy(st->file_fh, kh->file, kh->file_len);
	st->file_fh_len = kh->file_len;
	memcpy(st->link_fh, kh->link, kh->link_len);
	st->link_fh_len = kh->link_len;
}

void kt_free(struct kt_handles *kh)
{
	memset(kh, 0, sizeof(*kh));
}
