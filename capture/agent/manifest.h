/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * manifest.h - what the agent really sent and received, one line per fact,
 * written next to its capture and read back by `rpcrdma-agent verify`.
 *
 * Format (text, UTF-8, tab-separated key=value fields; docs/rpcrdma-agent.8):
 *
 *   # rpcrdma-agent manifest 1
 *   run      role=drive|serve transport=rxe|siw device=rxe0 netdev=eth0 local=ADDR
 *            remote=ADDR port=N target=agent|kernel scenario=FILE inject=RR-x,RR-y
 *   capture  file=NAME received=N dropped=N ifdropped=N
 *   rpc      xid=0x%08x dir=call|reply proc=RDMA_MSG vers=1 credit=N len=N
 *            sha256=HEX rebuilt=yes|no reads=P:H:L:O,... writes=H:L:O,...;H:L:O,...
 *            reply=H:L:O,... inline=N rdma=N
 *   inject   rule=RR-xxx xid=0x%08x dir=call|reply also=RR-a,RR-b note=TEXT
 *   event    kind=remote-access-error|disconnect|err-chunk|err-vers|garbage-args|
 *                 nfs-error|timeout|reply xid=0x%08x text=TEXT
 *   verdict  rule=RR-xxx xid=0x%08x result=pass|fail|n/a text=TEXT
 *   reaction xid=0x%08x dir=call|reply inject=NAME answer=ANSWER credit=N
 *            reconnects=N retransmits=N elapsed_ms=N error=TEXT
 *
 * "rpc": payload as the engine defines it (engine.h): the RPC message as
 * it would travel on TCP without the record mark, chunk data in place, XDR
 * pads as zeros; RDMA_DONE and RDMA_ERROR have len=0.  rebuilt=no marks a
 * message the engine must not rebuild (a header that is not version 1).
 * Handles are hex, offsets hex, lengths decimal.  An empty list is "-".
 *
 * "inject": the agent broke rule on purpose in that message; verify wants
 * a finding of that rule for it, and tolerates the rules in also=.
 *
 * "reaction": what the peer did after a message the agent broke on purpose
 * (injector NAME, inject.h), one line per broken message, before its
 * verdict line: ANSWER is one of judge.h's (none, reply, nfs-error,
 * garbage-args, rpc-error, err-chunk, err-vers, bad-reply, disconnect,
 * timeout, next-call, retransmit, access-error, refused); credit the answer's grant;
 * reconnects and retransmits what followed; error what the agent, as an
 * application, was told ("-" for nothing).
 *
 * Values never contain tabs or newlines (the writer replaces them).
 */
#ifndef AGENT_MANIFEST_H
#define AGENT_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define MF_MAX_SEGS 64
#define MF_MAX_WCHUNKS 16

struct mf_seg {
	uint32_t position;   /* read segments only */
	uint32_t handle, length;
	uint64_t offset;
};

struct mf_rpc {
	uint32_t xid;
	bool reply;                    /* dir=reply */
	char proc[16];                 /* "RDMA_MSG" ... */
	uint32_t vers, credit;
	uint64_t len;
	char sha256[65];               /* lowercase hex */
	bool rebuilt;                  /* the engine must rebuild it */
	uint32_t n_reads;
	struct mf_seg reads[MF_MAX_SEGS];
	uint32_t n_wchunks;
	uint32_t wchunk_nsegs[MF_MAX_WCHUNKS];
	struct mf_seg wsegs[MF_MAX_SEGS];   /* all write chunks' segments, in order */
	uint32_t n_wsegs;
	uint32_t n_rsegs;                   /* reply chunk segments (-1 style: has_reply) */
	bool has_reply;
	struct mf_seg rsegs[MF_MAX_SEGS];
	uint64_t inline_bytes, rdma_bytes;
};

struct mf_inject {
	char rule[16];                 /* "RR-088" */
	uint32_t xid;
	bool reply;
	char also[128];                /* comma-separated, may be empty */
	char note[256];
	bool send_failed;              /* sent=failed: the Send completed in error at the sender,
					* so it may or may not be on the wire */
};

struct mf_event {
	char kind[32];
	uint32_t xid;
	char text[256];
};

struct mf_verdict {
	char rule[16];
	uint32_t xid;
	char result[8];                /* pass, fail, n/a */
	char text[256];
};

struct mf_reaction {
	uint32_t xid;
	bool reply;                    /* the broken message was a reply */
	char inject[48];               /* the injector */
	char answer[16];
	uint32_t credit, reconnects, retransmits, elapsed_ms;
	char error[128];
};

struct mf_run {
	char role[16], transport[16], device[32], netdev[32];
	char local[64], remote[64], target[16], scenario[256], inject[256];
	uint32_t port;
};

struct mf_capture {
	char file[256];
	uint64_t received, dropped, ifdropped;
	bool present;
};

/* ---- writer ---- */
struct mf_writer;
/* Creates path (refuses to overwrite an existing file unless overwrite). NULL + err on failure. */
struct mf_writer *mf_open(const char *path, bool overwrite, char *err, size_t errlen);
void mf_write_run(struct mf_writer *w, const struct mf_run *r);
void mf_write_capture(struct mf_writer *w, const struct mf_capture *c);
void mf_write_rpc(struct mf_writer *w, const struct mf_rpc *m);
void mf_write_inject(struct mf_writer *w, const struct mf_inject *i);
void mf_write_event(struct mf_writer *w, const struct mf_event *e);
void mf_write_verdict(struct mf_writer *w, const struct mf_verdict *v);
void mf_write_reaction(struct mf_writer *w, const struct mf_reaction *r);
/* Flushes and closes; false (with err) when any write failed. */
bool mf_close(struct mf_writer *w, char *err, size_t errlen);

/* ---- reader ---- */
struct mf_manifest {
	struct mf_run run;
	struct mf_capture capture;
	struct mf_rpc *rpcs; size_t n_rpcs;
	struct mf_inject *injects; size_t n_injects;
	struct mf_event *events; size_t n_events;
	struct mf_verdict *verdicts; size_t n_verdicts;
	struct mf_reaction *reactions; size_t n_reactions;
};
/* Reads a manifest; on error returns false with "FILE:LINE: reason" in err. */
bool mf_read(const char *path, struct mf_manifest *out, char *err, size_t errlen);
void mf_free(struct mf_manifest *m);

#endif
