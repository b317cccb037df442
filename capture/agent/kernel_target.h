/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kernel_target.h - real file handles for `drive --target kernel`: the
 * export's root through MOUNT v3 over TCP (rpcbind first), and the handles
 * of the lab's test file and symlink through NFSv3 LOOKUP over TCP.  The
 * scenario's NFSv3 calls then name objects the server really has; NFSv4
 * calls keep the generator's handles (the server answers them with an NFS
 * error, which is fine for judging its transport).  Also the handle of any
 * path under the export (replay --fh-from), and one RPC exchange over TCP
 * (replay's TCP variation).
 */
#ifndef AGENT_KERNEL_TARGET_H
#define AGENT_KERNEL_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <glib.h>

#include "pg_nfs.h"

#define KT_FILE "agent-file"     /* created by the lab's export preparation */
#define KT_LINK "agent-link"

struct kt_handles {
	bool valid;
	uint8_t root[64], file[64], link[64];
	uint32_t root_len, file_len, link_len;
	uint16_t mountd_port;
};

bool kt_handles(const char *server, const char *export_path, struct kt_handles *kh, char *err,
		size_t errlen);
/* Make the generator's NFS state name the real objects. */
void kt_apply(const struct kt_handles *kh, pg_nfs_state *st);
void kt_free(struct kt_handles *kh);

/*
 * The handle of path on the server: MOUNT of export_path, then one NFSv3
 * LOOKUP per component (path may start with export_path or be relative).
 */
bool kt_path_handle(const char *server, const char *export_path, const char *path, uint8_t *fh,
		    uint32_t *len, char *err, size_t errlen);

enum kt_tcp_status { KT_TCP_OK, KT_TCP_CLOSED, KT_TCP_TIMEOUT, KT_TCP_ERROR };
/*
 * Writes wire (an RPC message already record-marked, RFC 5531 §11) on a new
 * TCP connection to server:port and reads one record back into reply
 * (record marks removed).  CLOSED: the server closed the connection;
 * TIMEOUT: nothing within timeout_ms; ERROR: no connection (err says why).
 */
enum kt_tcp_status kt_tcp_exchange(const char *server, uint16_t port, const uint8_t *wire,
				   size_t len, GByteArray *reply, int timeout_ms, char *err,
				   size_t errlen);

#endif
