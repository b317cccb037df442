/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * common.h - what drive and serve share: options in rdma-core/perftest
 * style, the RFC 8797 private message, the run's capture and manifest,
 * and the injections each side can make.
 */
#ifndef AGENT_COMMON_H
#define AGENT_COMMON_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include <rpcrdma/hdr.h>

#include "inject.h"
#include "live_capture.h"
#include "manifest.h"

#define AGENT_INLINE 4096u          /* what we receive and send inline (RFC 8797 sizes) */
#define AGENT_PORT_DEFAULT 20049u   /* nfsrdma */

struct agent_run {
	const char *device, *netdev_opt, *capture, *manifest, *link_kind, *link_netdev;
	const char *bind;               /* serve: address to listen on */
	char netdev[64], device_buf[64];
	bool pcapng, force, overwrite, once;
	bool no_manifest;               /* benchmarks: no manifest, so no payload hashes */
	uint16_t port;
	uint32_t credits;
	int timeout_ms;
	char inject[256];               /* comma list as given */
	struct inj_list inj;            /* ... parsed (inject.h) */
	struct lc_capture *cap;
	struct mf_writer *mf;
	struct mf_run info;
};

/* The signal that stopped the run (0: none); the subcommand exits 128 + it. */
extern volatile sig_atomic_t agent_stop_signal;

/* Parses a shared option at argv[*i]; true when it was one (and *i advanced past its value). */
bool agent_common_opt(struct agent_run *r, int argc, char **argv, int *i, int *bad);
/* Resolve device/netdev, check the netdev is a test one, create a run link if asked,
 * start the capture and open the manifest. */
bool agent_run_begin(struct agent_run *r, const char *role);
/* Stop the capture, write its line, close the manifest. Returns false on any failure. */
bool agent_run_end(struct agent_run *r);
/* Every signal path: drop partial files. */
void agent_run_abort(struct agent_run *r);

/* RFC 8797 message: our send and receive sizes, no Send With Invalidate. */
void agent_rfc8797(uint8_t out[8]);
/* The peer's receive size from its private data (RR_DEFAULT_INLINE_THRESHOLD when absent). */
uint32_t agent_peer_inline(const uint8_t *pd, uint8_t len);

/* --inject for role (INJ_REQ drive, INJ_RESP serve) into r->inj; false and a sentence when an
 * item is not one this side can inject. */
bool agent_inject_parse(struct agent_run *r, int role, char *err, size_t errlen);
void agent_list_injections(void);

/* Manifest helpers: segments of a decoded header into mf lists. */
void agent_mf_from_hdr(struct mf_rpc *m, const struct rr_hdr *h);
struct vb_conn;
/* Send wire's bytes on conn (a Send of its own registered copy); a failure is an event. */
bool agent_send(struct agent_run *r, struct vb_conn *conn, const GByteArray *wire);
/* n (at most 64) messages posted back to back, as one burst on the wire. */
bool agent_send_batch(struct agent_run *r, struct vb_conn *conn, const GByteArray *const *wires, unsigned n);

/* An inject line: rule broken on purpose in message (xid, reply); also: rules it may bring;
 * send_failed: its Send completed in error, so it may not be on the wire (sent=failed). */
void agent_mf_inject(struct agent_run *r, const char *rule, uint32_t xid, bool reply,
		     const char *also, const char *note, bool send_failed);
void agent_mf_event(struct agent_run *r, const char *kind, uint32_t xid, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
