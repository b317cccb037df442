// SPDX-License-Identifier: GPL-2.0-or-later
/* File handles of a real NFS server over TCP: rpcbind, MOUNT v3, LOOKUP (kernel_target.h).
 * The calls' arguments are the generator's (pg_client.h), their replies the engine's to read
 * (rpc.h, ulp.h); this file carries them over TCP. */
#include "kernel_target.h"

#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <glib.h>

#include <rpcrdma/rpc.h>
#include <rpcrdma/ulp.h>

#include "pg_buf.h"
#include "pg_client.h"
#include "replay.h"

#define KT_MAX_REPLY (1u << 20)

/* Reads one record (RFC 5531 §11: fragments up to the last one) into out. */
static enum kt_tcp_status read_record(int fd, GByteArray *out, char *err, size_t errlen)
{
	bool last = false;
	uint8_t rm[4];
	ssize_t r;

	g_byte_array_set_size(out, 0);
	while (!last) {
		uint32_t n;
		guint at = out->len;
		r = recv(fd, rm, 4, MSG_WAITALL);
		if (r == 0 || (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) {
			snprintf(err, errlen, "the server closed the connection");
			return KT_TCP_CLOSED;
		}
		if (r != 4) {
			snprintf(err, errlen, "no reply");
			return KT_TCP_TIMEOUT;
		}
		n = pb_get_be32(rm) & 0x7fffffffu;
		last = rm[0] & 0x80;
		if (at + (uint64_t)n > KT_MAX_REPLY) {
			snprintf(err, errlen, "a reply of more than %u bytes", KT_MAX_REPLY);
			return KT_TCP_ERROR;
		}
		g_byte_array_set_size(out, at + n);
		if (n && recv(fd, out->data + at, n, MSG_WAITALL) != (ssize_t)n) {
			snprintf(err, errlen, "a short reply");
			return KT_TCP_CLOSED;
		}
	}
	return KT_TCP_OK;
}

enum kt_tcp_status kt_tcp_exchange(const char *server, uint16_t port, const uint8_t *wire,
				   size_t len, GByteArray *reply, int timeout_ms, char *err,
				   size_t errlen)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *ai;
	struct timeval tv = { timeout_ms / 1000, (timeout_ms % 1000) * 1000 };
	enum kt_tcp_status st = KT_TCP_ERROR;
	char ports[8], why[128] = "";
	int fd, r;

	snprintf(ports, sizeof(ports), "%u", port);
	if ((r = getaddrinfo(server, ports, &hints, &ai))) {
		snprintf(err, errlen, "%s: %s", server, gai_strerror(r));
		return KT_TCP_ERROR;
	}
	fd = socket(ai->ai_family, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
		snprintf(err, errlen, "TCP %s port %u: %s", server, port, strerror(errno));
		freeaddrinfo(ai);
		if (fd >= 0)
			close(fd);
		return KT_TCP_ERROR;
	}
	freeaddrinfo(ai);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (write(fd, wire, len) != (ssize_t)len)
		snprintf(why, sizeof(why), "the call could not be written: %s", strerror(errno));
	else
		st = read_record(fd, reply, why, sizeof(why));
	if (st != KT_TCP_OK)
		snprintf(err, errlen, "TCP %s port %u: %s", server, port, why);
	close(fd);
	return st;
}

/* One RPC over TCP (record marking, one fragment); the reply's results in res. */
static bool tcp_rpc(const char *server, uint16_t port, uint32_t prog, uint32_t vers, uint32_t proc,
		    const GByteArray *args, GByteArray *res, char *err, size_t errlen)
{
	GByteArray *b = g_byte_array_new(), *wire;
	pg_nfs_state st;
	uint32_t xid = (uint32_t)g_random_int();
	struct rr_rpc_outcome o;
	bool ok = false;

	pg_nfs_state_init(&st, 1);
	g_strlcpy(st.machine, "rpcrdma-agent", sizeof(st.machine));
	pg_rpc_call_hdr(b, &st, xid, prog, vers, proc, true);
	g_byte_array_append(b, args->data, args->len);
	wire = rp_record_mark(b->data, b->len, 0);
	if (kt_tcp_exchange(server, port, wire->data, wire->len, b, 10000, err, errlen) != KT_TCP_OK)
		goto out;
	rr_rpc_outcome(b->data, b->len, &o);
	if (o.kind != RR_OUTCOME_SUCCESS || o.rpc.xid != xid) {
		snprintf(err, errlen, "program %u v%u proc %u at %s: the call was not accepted", prog,
			 vers, proc, server);
		goto out;
	}
	g_byte_array_set_size(res, 0);
	g_byte_array_append(res, b->data + o.rpc.res_off, b->len - (guint)o.rpc.res_off);
	ok = true;
out:
	g_byte_array_free(wire, TRUE);
	g_byte_array_free(b, TRUE);
	return ok;
}

/* The handle of a successful result (at most 64 bytes, the size of kt_handles' arrays). */
static void take_fh(const struct rr_fh_result *r, uint8_t *fh, uint32_t *len)
{
	memcpy(fh, r->fh, r->fh_len);
	*len = r->fh_len;
}

static bool lookup(const char *server, const uint8_t *dir, uint32_t dlen, const char *name,
		   uint8_t *fh, uint32_t *len, char *err, size_t errlen)
{
	GByteArray *a = g_byte_array_new(), *res = g_byte_array_new();
	struct rr_fh_result r;
	bool ok;

	pg_nfs3_lookup_args(a, dir, dlen, name);
	ok = tcp_rpc(server, 2049, PG_PROG_NFS, 3, PG_NFS3_LOOKUP, a, res, err, errlen);
	if (ok && !(ok = rr_nfs3_lookup_res(res->data, res->len, &r)))
		snprintf(err, errlen, "NFSv3 LOOKUP %s on %s failed (is the lab export prepared?)",
			 name, server);
	if (ok)
		take_fh(&r, fh, len);
	g_byte_array_free(a, TRUE);
	g_byte_array_free(res, TRUE);
	return ok;
}

/* rpcbind v2 GETPORT of MOUNT v3 over TCP, then MNT of export_path: the root handle. */
static bool mount_root(const char *server, const char *export_path, struct kt_handles *kh,
		       char *err, size_t errlen)
{
	GByteArray *a = g_byte_array_new(), *res = g_byte_array_new();
	struct rr_fh_result r;
	bool ok = false;

	pg_pmap_getport_args(a, PG_PROG_MOUNT, PG_MOUNT_V3, PG_IPPROTO_TCP);
	if (!tcp_rpc(server, PG_PMAP_PORT, PG_PROG_PORTMAP, PG_PMAP_VERS, PG_PMAPPROC_GETPORT, a,
		     res, err, errlen))
		goto out;
	if (!rr_pmap_getport_res(res->data, res->len, &kh->mountd_port)) {
		snprintf(err, errlen, "rpcbind on %s: MOUNT v3 over TCP is not registered", server);
		goto out;
	}
	g_byte_array_set_size(a, 0);
	pg_mount3_mnt_args(a, export_path);
	if (!tcp_rpc(server, kh->mountd_port, PG_PROG_MOUNT, PG_MOUNT_V3, PG_MOUNTPROC3_MNT, a, res,
		     err, errlen))
		goto out;
	if (!rr_mount3_mnt_res(res->data, res->len, &r)) {
		snprintf(err, errlen, "MOUNT %s:%s refused", server, export_path);
		goto out;
	}
	take_fh(&r, kh->root, &kh->root_len);
	ok = true;
out:
	g_byte_array_free(a, TRUE);
	g_byte_array_free(res, TRUE);
	return ok;
}

bool kt_handles(const char *server, const char *export_path, struct kt_handles *kh, char *err,
		size_t errlen)
{
	memset(kh, 0, sizeof(*kh));
	if (!mount_root(server, export_path, kh, err, errlen) ||
	    !lookup(server, kh->root, kh->root_len, KT_FILE, kh->file, &kh->file_len, err, errlen) ||
	    !lookup(server, kh->root, kh->root_len, KT_LINK, kh->link, &kh->link_len, err, errlen))
		return false;
	kh->valid = true;
	fprintf(stderr, "rpcrdma-agent: %s:%s root handle %u bytes, %s %u bytes, %s %u bytes\n",
		server, export_path, kh->root_len, KT_FILE, kh->file_len, KT_LINK, kh->link_len);
	return true;
}

bool kt_path_handle(const char *server, const char *export_path, const char *path, uint8_t *fh,
		    uint32_t *len, char *err, size_t errlen)
{
	struct kt_handles kh;
	size_t el = strlen(export_path);
	gchar **parts;
	bool ok = true;

	memset(&kh, 0, sizeof(kh));
	/* a path under the export may be given whole or relative to it */
	while (el > 1 && export_path[el - 1] == '/')
		el--;
	if (!strncmp(path, export_path, el) && (path[el] == '/' || !path[el]))
		path += el;
	if (!mount_root(server, export_path, &kh, err, errlen))
		return false;
	memcpy(fh, kh.root, kh.root_len);
	*len = kh.root_len;
	parts = g_strsplit(path, "/", -1);
	for (gchar **p = parts; ok && *p; p++) {
		uint8_t dir[64];
		uint32_t dl = *len;
		if (!**p || !strcmp(*p, "."))
			continue;
		memcpy(dir, fh, dl);
		ok = lookup(server, dir, dl, *p, fh, len, err, errlen);
	}
	g_strfreev(parts);
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
