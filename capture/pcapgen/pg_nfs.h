/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RPC and NFS message encoders: build the full (unreduced) Payload stream of
 * a call and its reply and record where the DDP-eligible items sit. */
#ifndef PG_NFS_H
#define PG_NFS_H

#include "pg_scenario.h"

#define PG_PROG_NFS 100003u
#define PG_PROG_NFS_CB 0x40000000u
#define PG_PROG_NFSACL 100227u
/* NFSv3 LOOKUP (RFC 1813 3.3.3): encoded for the live responder; scenarios do not name it */
#define PG_NFS3_LOOKUP 3u

typedef struct {
	size_t off;   /* offset of the first data byte in the message */
	uint32_t len; /* data length, without the XDR pad */
	int slot;     /* reply items: the Write chunk (request ordinal) it pairs with */
} pg_ddp;

typedef struct {
	GByteArray *msg; /* complete RPC message, pads as zeros */
	GArray *ddp;     /* pg_ddp, in stream order */
	/* pg_ddp: opaque or counted-array items that are NOT DDP-eligible
	 * (file handles, bitmaps, names, ACL entries), in stream order: what the
	 * eligibility injectors reduce */
	GArray *bulk;
} pg_rpcmsg;

/* What became of the result a Write chunk slot pairs with. */
enum { PG_SLOT_DATA, PG_SLOT_FAILED, PG_SLOT_NOT_RUN };

typedef struct {
	pg_rpcmsg call, reply;
	/* One entry per DDP-eligible result the request asks for (NFSv3 READ or
	 * READLINK, each NFSv4 READ/READLINK op in order): the largest data
	 * item the reply may carry, i.e. the size of the Write chunk to offer. */
	GArray *slots; /* uint32_t */
	GArray *slot_state; /* int PG_SLOT_*, one per slot */
	size_t minorversion_off; /* COMPOUND call: offset of minorversion, else 0 */
	uint32_t program, version, procedure;
	GPtrArray *opnames; /* COMPOUND operation names, else NULL */
	uint32_t reply_nops; /* COMPOUND: results in the reply (it stops at the first error) */
	bool backchannel;
} pg_rpc_pair;

/* Per-connection NFS state that makes consecutive messages look like one
 * client session: file handles, session id, slot sequence numbers. */
typedef struct {
	pg_rng rng;
	/* handles: invented ones (16/28 bytes), or a real server's (the live agent) */
	uint8_t root_fh[64], dir_fh[64], file_fh[64], link_fh[64];
	uint32_t root_fh_len, dir_fh_len, file_fh_len, link_fh_len;
	uint8_t sessionid[16];
	uint8_t stateid_other[12];
	uint8_t verifier[8];
	uint32_t seqid, cb_seqid;
	/* READ and WRITE carry the special stateids (RFC 8881 8.2.3): all ones
	 * (READ bypass) and all zeros (anonymous); set by a live requester that
	 * holds no OPEN state */
	bool special_stateids;
	uint64_t fileid_base;
	uint32_t time_base;
	char machine[32];
} pg_nfs_state;

void pg_nfs_state_init(pg_nfs_state *st, uint64_t seed);
/* Build call and reply for an rpc/cb item. rng drives the data bytes. */
void pg_nfs_build(pg_nfs_state *st, const pg_item *it, uint32_t xid, pg_rng *rng,
		  pg_rpc_pair *out);
void pg_rpc_pair_clear(pg_rpc_pair *p);

/* ---- shared by the v3 and v4 encoders (pg_rpcmsg.c) ---- */
enum { PG_NF_REG = 1, PG_NF_DIR = 2, PG_NF_LNK = 5 };
void pg_rpc_call_hdr(GByteArray *b, const pg_nfs_state *st, uint32_t xid, uint32_t prog,
		     uint32_t vers, uint32_t proc, bool auth_sys);
void pg_rpc_reply_hdr(GByteArray *b, uint32_t xid);
void pg_rand_name(pg_rng *r, char *out, uint32_t len);
void pg_rand_path(pg_rng *r, char *out, uint32_t len);
uint8_t *pg_rand_data(pg_rng *r, uint32_t len);
void pg_ddp_add(pg_rpcmsg *m, size_t off, uint32_t len, int slot);
void pg_bulk_add(pg_rpcmsg *m, size_t off, uint32_t len);
void pg_slot_add(pg_rpc_pair *out, uint32_t max, int state);

/* ---- the NFSv4 COMPOUND and CB_COMPOUND encoders (pg_nfs4.c) ---- */
void pg_nfs4_build(pg_nfs_state *st, const pg_item *it, pg_rng *r, pg_rpc_pair *out);
void pg_nfs4_cb_build(pg_nfs_state *st, const pg_item *it, pg_rng *r, pg_rpc_pair *out);

#endif
