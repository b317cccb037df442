/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scenario model and the line-oriented parser (format: docs/pcapgen.md). */
#ifndef PG_SCENARIO_H
#define PG_SCENARIO_H

#include "pg_common.h"

enum pg_l2 { PG_L2_IB, PG_L2_ETH, PG_L2_VLAN, PG_L2_SLL, PG_L2_SLL2 };
enum pg_l3 { PG_L3_NONE, PG_L3_IPV4, PG_L3_IPV6 };

typedef struct {
	const char *name;
	bool iwarp;       /* TCP + MPA + DDP/RDMAP; else IB transport (BTH) */
	bool lrh;         /* native IB: LRH first */
	bool grh;         /* GRH (ib-grh, RoCEv1) */
	bool erf;         /* wrapped in ERF records */
	int l2, l3;
	bool mpa_crc, mpa_markers;
	uint32_t dlt;
} pg_link_info;

const pg_link_info *pg_link_by_name(const char *name);
const pg_link_info *pg_link_at(int idx);
int pg_link_count(void);

enum pg_nfsver { PG_V3, PG_V40, PG_V41, PG_V42 };

/* NFSv3 procedures */
enum { NFS3_NULL = 0, NFS3_GETATTR = 1, NFS3_READLINK = 5, NFS3_READ = 6, NFS3_WRITE = 7,
       NFS3_SYMLINK = 10, NFS3_READDIR = 16 };
/* NFSv4 operations */
enum { OP4_CREATE = 6, OP4_GETATTR = 9, OP4_GETFH = 10, OP4_LOOKUP = 15, OP4_PUTFH = 22,
       OP4_PUTROOTFH = 24, OP4_READ = 25, OP4_READDIR = 26, OP4_READLINK = 27, OP4_WRITE = 38,
       OP4_BIND_CONN = 41, OP4_CREATE_SESSION = 43, OP4_SEQUENCE = 53 };
/* NFSACL (program 100227) version 3 procedures */
enum { ACL3_NULL = 0, ACL3_GETACL = 1, ACL3_SETACL = 2 };
/* NFSv4.1 callback operations */
enum { CB_GETATTR = 3, CB_RECALL = 4, CB_SEQUENCE = 11 };

typedef struct {
	uint32_t op;     /* v3 procedure, v4 opcode or callback opcode */
	uint32_t len;    /* data bytes, path length, entries or name length */
	uint32_t count;  /* READ: requested count, >= len */
	uint64_t offset;
	uint32_t status; /* this operation's result status */
	bool eof;
} pg_nfsop;

/* RPCSEC_GSS v1 (RFC 2203): context control procedures and DATA services */
enum { PG_GSS_OFF, PG_GSS_INIT, PG_GSS_CONTINUE, PG_GSS_DESTROY, PG_GSS_NONE, PG_GSS_INTEG,
       PG_GSS_PRIV };

enum pg_err { PG_ERR_NONE, PG_ERR_VERS = 1, PG_ERR_CHUNK = 2 };

/* How one message is reduced. nseg[i] is for the i-th DDP-eligible item
 * (0 leaves it inline); the last given value repeats. */
typedef struct {
	uint8_t nseg[PG_MAX_CHUNKS];
	uint8_t n;
	bool chunked;
	uint8_t long_segs; /* PZRC (call) or Reply chunk (reply) segments */
	int error;         /* reply only: answer with RDMA_ERROR (the call still offers
			    * the chunks given with it) */
	bool none;         /* reply only: the responder never answers */
} pg_shape;

enum pg_cover { PG_COVER_PER_SEG, PG_COVER_COALESCE, PG_COVER_SPLIT };
enum pg_item_kind { PG_ITEM_RPC, PG_ITEM_CB, PG_ITEM_DONE, PG_ITEM_ERROR, PG_ITEM_TERMINATE,
		   PG_ITEM_RECONNECT, PG_ITEM_PAUSE };
#define PG_TGT_CALL 1u
#define PG_TGT_REPLY 2u

typedef struct {
	char *name;
	char *arg;
	unsigned target;
	int line;
} pg_inject_spec;

typedef struct {
	int line;
	int kind;
	int nfsver;
	bool acl;        /* NFSACL v3 (program 100227); nfsver is PG_V3 */
	uint32_t proc;   /* 0 NULL, else v3 procedure / 1 COMPOUND / 1 CB_COMPOUND */
	GArray *ops;     /* pg_nfsop */
	pg_shape call, reply;
	int cover;
	uint32_t split;
	bool pad;
	unsigned dup, reorder;
	bool invalidate, se;
	bool msgp;
	uint32_t align, thresh;
	bool has_xid;
	uint32_t xid;
	uint32_t credits;
	uint32_t repeat; /* emit this many copies (fresh XIDs) */
	bool pipeline;   /* the reply is sent after the next exchange's call */
	uint32_t reply_size; /* total length of the offered Reply chunk, 0: default */
	bool has_prog;   /* prog=: RPC program/version written into the call */
	uint32_t prog, progvers;
	int gss;         /* RPCSEC_GSS (PG_GSS_*), 0: AUTH_SYS */
	int err_code;    /* PG_ITEM_ERROR */
	uint32_t err_low, err_high;
	uint32_t pause_ms; /* PG_ITEM_PAUSE: how far the capture clock moves */
	GPtrArray *injects; /* pg_inject_spec* */
} pg_item;

enum pg_format { PG_FMT_PCAP, PG_FMT_PCAPNG };
enum pg_psn { PG_PSN_RANDOM, PG_PSN_WRAP, PG_PSN_FIXED };
enum pg_tcpseg { PG_SEG_AUTO, PG_SEG_STREAM, PG_SEG_ALIGNED };

typedef struct {
	char *path;
	const pg_link_info *link;
	uint32_t mtu;
	int mtu_line;
	bool handshake, disconnect;
	int format;
	uint64_t seed;
	int psn_mode;
	uint32_t psn;
	uint32_t credits, inline_max;
	bool remote_inv, inline_check;
	int mpa_rev;
	uint32_t mss, fpdu_max;
	int tcp_seg;
	uint32_t snaplen;
	bool expect_always; /* write the truth's "expect" list even without injectors */
	bool rfc5666;
	uint16_t port;      /* the server's port: iWARP TCP port, RDMA-CM service ID port */       /* profile rfc5666: expectations of a checker in the legacy profile */
	uint32_t reconnects; /* "reconnect" lines */
	GPtrArray *items; /* pg_item* */
} pg_scenario;

/* Parse; on failure returns NULL with *err set to "file:line: message". */
pg_scenario *pg_scenario_load(const char *path, char **err);
void pg_scenario_free(pg_scenario *s);
/* Check link-dependent settings after command-line overrides. */
bool pg_scenario_finish(pg_scenario *s, char **err);

const char *pg_nfs_opname(int nfsver, bool cb, uint32_t op);
bool pg_item_is_v4(const pg_item *it);

#endif
