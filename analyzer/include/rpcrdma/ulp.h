/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ulp.h - Upper-Layer Protocol walkers: where the DDP-eligible items of an
 * RPC message are (RFC 8267), and what a message is (procedure, NFSv4 ops).
 *
 * A walker reads the arguments or results of one RPC message through a
 * cursor over the *inline* part of the message: the reduced Payload stream,
 * i.e. with the bytes of any item moved to a chunk absent.  At each
 * DDP-eligible item it has just read the item's length word, and it asks
 * the caller (rr_ddp_fn) whether the item's bytes were moved out of line.
 * If so, it does not skip them; otherwise it skips bytes and pad inline.
 *
 * Coverage today: NFSv2 and NFSv3 (all procedures for naming; READ and
 * READLINK results, WRITE and SYMLINK arguments for DDP), NFSv4.0-4.2
 * COMPOUND with the RFC 8276 xattr ops and RFC 9754's delegation types
 * (op lists; READ/READLINK results and WRITE/CREATE(NF4LNK) arguments;
 * READ counts, GETATTR masks, EXCHANGE_ID, CREATE_SESSION and
 * BIND_CONN_TO_SESSION fields for the checks and the agent's session;
 * the arguments a responder acts on, rr_ulp_walk_call_args), the NFSv4
 * callback program (0x40000000: CB_COMPOUND op lists, nothing eligible),
 * and MOUNT, NLM, NSM and NFSACL (named, reply status, SETACL's
 * arguments; nothing eligible).
 * Ops whose arguments or results the walker cannot skip, and union arms
 * it does not know, end the walk with RR_ULP_UNSUPPORTED naming the item
 * (unknown_what, unknown_value); what was learnt until then stays valid.
 *
 * RPCSEC_GSS (from the call's credential): context creation and
 * destruction carry no ULP body (RR_ULP_OK, nothing walked).  Integrity:
 * the body is unwrapped and walked to list the procedure or ops, but no
 * item is reported to fn, because no reduction is allowed.  Privacy: the
 * body cannot be read; RR_ULP_OK with ops_truncated set.
 *
 * Bounds: COMPOUND op counts above 1000 are RR_ULP_MALFORMED; every count
 * is checked against the bytes left; nothing is allocated; no recursion.
 */
#ifndef RPCRDMA_ULP_H
#define RPCRDMA_ULP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cursor.h"
#include "rpc.h"

#define RR_NFS_PROGRAM 100003u
#define RR_PORTMAP_PROGRAM 100000u
#define RR_MOUNT_PROGRAM 100005u
#define RR_NLM_PROGRAM 100021u
#define RR_NSM_PROGRAM 100024u
#define RR_NFSACL_PROGRAM 100227u
#define RR_NFS4_CB_PROGRAM 0x40000000u   /* the usual NFSv4 callback program */

/* The procedures and ops that carry DDP-eligible items (RFC 8267 4, 6.1). */
enum {
	RR_NFS_PROC_COMPOUND = 1,
	RR_NFS2_PROC_READLINK = 5, RR_NFS2_PROC_READ = 6, RR_NFS2_PROC_WRITE = 8,
	RR_NFS2_PROC_SYMLINK = 13,
	RR_NFS3_PROC_READLINK = 5, RR_NFS3_PROC_READ = 6, RR_NFS3_PROC_WRITE = 7,
	RR_NFS3_PROC_SYMLINK = 10,
	RR_NFS4_OP_CREATE = 6, RR_NFS4_OP_READ = 25, RR_NFS4_OP_READLINK = 27,
	RR_NFS4_OP_WRITE = 38, RR_NFS4_OP_DESTROY_SESSION = 44, RR_NFS4_OP_SEQUENCE = 53,
	RR_NFS4_OP_ILLEGAL = 10044,
};
#define RR_ULP_MAX_OPS 128

/* CREATE_SESSION4_FLAG_CONN_BACK_CHAN (RFC 8881 18.36.3). */
#define RR_NFS4_SESSION_CONN_BACK_CHAN 0x2u
/* channel_dir_from_client4 / channel_dir_from_server4 bit for the back channel (RFC 8881 18.34.3). */
#define RR_NFS4_CHANNEL_DIR_BACK 0x2u

/*
 * NFSv4.1 session setup an op of the message carried (RFC 8881 18.34,
 * 18.36): from the arguments in a call, from the resok arm in a reply.
 */
struct rr_ulp_session {
	bool create_session;      /* a CREATE_SESSION was walked */
	uint32_t cs_flags;        /* csa_flags / csr_flags */
	uint32_t fore_maxrequest, fore_maxresponse;   /* ca_maxrequestsize, ca_maxresponsesize */
	uint32_t back_maxrequest, back_maxresponse;
	bool bind_conn;           /* a BIND_CONN_TO_SESSION was walked */
	uint32_t bind_dir;        /* bctsa_dir / bctsr_dir */
	/* What a requester opening a session needs (RFC 8881 18.35.4, 18.36.4). */
	bool exchange_id;         /* an EXCHANGE_ID4resok was walked */
	uint64_t clientid;        /* eir_clientid; csa_clientid */
	uint32_t sequenceid;      /* eir_sequenceid; csa_sequence / csr_sequence */
	uint32_t eir_flags;
	uint8_t sessionid[16];    /* csr_sessionid */
	uint32_t fore_maxrequests;   /* the fore channel's ca_maxrequests: its slots */
};

enum rr_ulp_result {
	RR_ULP_OK = 0,
	RR_ULP_UNKNOWN_PROGRAM,   /* no walker for this program/version: nothing DDP-eligible known */
	RR_ULP_UNSUPPORTED,       /* an op or procedure the walker cannot skip */
	RR_ULP_MALFORMED,         /* the XDR did not decode */
};

struct rr_ddp_item {
	/*
	 * Which DDP-eligible item this is.  Calls: the count of eligible
	 * argument items before it.  NFSv4 replies: the index, among the
	 * COMPOUND's ops that may return an eligible result (READ, READLINK),
	 * of the op this result belongs to (RFC 8267 6.4.1), counting ops
	 * that returned an error arm too.  NFSv3 replies: 0.
	 */
	unsigned ordinal;
	uint32_t op;              /* NFSv4 op number, or NFSv2/3 procedure */
	uint32_t length;          /* the item's length word */
	size_t data_pos;          /* cursor position just after the length word */
};

/* Return true when the item's bytes are not inline (moved to a chunk). */
typedef bool (*rr_ddp_fn)(void *ctx, const struct rr_ddp_item *item);

struct rr_ulp_info {
	uint32_t prog, vers, proc;
	uint32_t minorversion;    /* NFSv4 COMPOUND */
	uint32_t status;          /* replies: NFS status of the procedure / COMPOUND */
	uint16_t n_ops;           /* NFSv4 COMPOUND: ops in this message */
	uint32_t ops[RR_ULP_MAX_OPS];
	bool ops_truncated;       /* more ops than RR_ULP_MAX_OPS, or walk stopped early */
	unsigned n_ddp_capable;   /* calls: ops/procs that may return an eligible result
				   * (replies: READ-class results in the reply, error arms included) */
	/* RPCSEC_GSS, which moves DDP-eligible data inside a wrap (RFC 8166 §8.2.2.3 does not allow DDP then). */
	bool is_gss;              /* the call used RPCSEC_GSS (walk_call sets; walk_reply reads callinfo) */
	uint32_t gss_proc;        /* RPCSEC_GSS gss_proc of the call */
	uint32_t gss_service;     /* 1 none, 2 integrity, 3 privacy: 2 and 3 allow no reduction */
	unsigned n_ddp_items;     /* eligible items the walk reported to fn (NULL fn: found) */
	/*
	 * Calls: the count argument of READ and READDIR, and READDIRPLUS's maxcount (bytes the requester
	 * asks for), per op (NFSv4, parallel to ops[]) or in [0] (NFSv2/3);
	 * 0 for other ops.  What a responder (the agent) sizes results by.
	 */
	uint32_t op_count[RR_ULP_MAX_OPS];
	uint64_t op_offset[RR_ULP_MAX_OPS];   /* calls: READ's offset argument, likewise */
	/*
	 * RR_ULP_UNSUPPORTED: what the walker met and does not know, e.g.
	 * "NFSv4 op", "open_delegation4 type", and its value; NULL when the
	 * walk stopped at a procedure of a known program it cannot walk.
	 */
	const char *unknown_what;
	uint32_t unknown_value;
	struct rr_ulp_session sess;
	/* NFSv4 calls: the attributes the COMPOUND's GETATTRs ask for, bitmap4 words 0 to 2 OR'ed. */
	uint32_t getattr_mask[3];
	/*
	 * The DDP-eligible item a RR_ULP_MALFORMED walk stopped in: its length
	 * word, or the bytes that word counts, are not in the stream.  Unset
	 * when the walk broke anywhere else.  Lets a check name the item (and
	 * the chunk it pairs with) instead of "does not decode".
	 */
	struct rr_ulp_stop_item {
		bool set;
		uint32_t op;          /* RR_NFS4_OP_READ, READLINK, WRITE ... or the NFSv2/3 procedure */
		unsigned ordinal;     /* NFSv4 replies: its op's place among the READ-class ops */
		uint32_t length;      /* its length word; UINT32_MAX when the stream ends before it */
		size_t pos;           /* offset of the length word in the walked stream */
		size_t left;          /* bytes the stream holds from pos on */
	} stop_item;
};

/*
 * Walk a call's arguments.  info->prog/vers/proc are filled from call.
 * fn may be NULL (nothing is reduced; the walk only describes).
 */
enum rr_ulp_result rr_ulp_walk_call(const struct rr_rpc_call *call, struct rr_cursor *args,
				    rr_ddp_fn fn, void *ctx, struct rr_ulp_info *info);

/*
 * Walk a reply's results.  callinfo is what rr_ulp_walk_call() learnt from
 * the matching call (program, version, procedure, op list); out receives
 * the reply's own status and op list.  out may be callinfo itself.  reply
 * may be NULL (results assumed to follow); a reply that is not accepted
 * SUCCESS has no results: RR_ULP_OK, nothing walked.
 */
enum rr_ulp_result rr_ulp_walk_reply(const struct rr_ulp_info *callinfo,
				     const struct rr_rpc_reply *reply, struct rr_cursor *res,
				     rr_ddp_fn fn, void *ctx, struct rr_ulp_info *out);

/*
 * The arguments of one NFSv3 procedure or NFSv4 op that a responder acts
 * on (RFC 1813 3.3, RFC 8881 18), as rr_ulp_walk_call_args() reports them.
 * Pointers point into the walked stream; what the op has not is 0 or NULL.
 */
struct rr_ulp_op_args {
	uint32_t op;              /* NFSv4 op, or the NFSv3 procedure */
	const uint8_t *fh;        /* NFSv3: the first handle (nfs_fh3, diropargs3's dir); PUTFH's */
	uint32_t fh_len;
	const uint8_t *name;      /* diropargs3's name; LOOKUP's objname, CREATE's objname */
	uint32_t name_len;
	uint64_t offset;          /* READ, WRITE */
	const uint8_t *item;      /* the DDP-eligible argument when inline: WRITE's data,
				   * SYMLINK's symlink_data, CREATE(NF4LNK)'s linkdata */
	uint32_t item_len;        /* its length word */
	const uint8_t *sessionid; /* SEQUENCE: sa_sessionid (16 octets) */
	uint32_t seqid;           /* SEQUENCE: sa_sequenceid */
};

/* Called after each procedure or op whose arguments decoded, index counting from 0. */
typedef void (*rr_ulp_args_fn)(void *ctx, unsigned index, const struct rr_ulp_op_args *a);

/*
 * rr_ulp_walk_call() over a whole call (every item inline: no fn) that
 * also reports the arguments of the NFSv3 procedure, or of each op of an
 * NFSv4 COMPOUND, to afn.  Other programs report nothing.
 */
enum rr_ulp_result rr_ulp_walk_call_args(const struct rr_rpc_call *call, struct rr_cursor *args,
					 rr_ulp_args_fn afn, void *actx, struct rr_ulp_info *info);

/* nfs_fh3 (RFC 1813 2.5): opaque data<NFS3_FHSIZE> at the cursor, its bytes and length. */
#define RR_NFS3_FHSIZE 64u
bool rr_nfs3_read_fh(struct rr_cursor *c, const uint8_t **fh, uint32_t *len);

/*
 * The results a client reads to reach a server's objects (each takes the
 * results of an accepted SUCCESS, i.e. the bytes after the reply header):
 *  - portmap version 2 PMAPPROC_GETPORT (RFC 1833 §3): unsigned int port,
 *    0 when the program is not registered.  True with a port of 1 to
 *    65535; false when the word is missing, 0, or above 65535.
 *  - MOUNT version 3 MNT (RFC 1813 Appendix I): mountres3 { mountstat3
 *    fhs_status; MNT3_OK: fhandle3 fhandle<FHSIZE3 = 64>; int
 *    auth_flavors<>; }.
 *  - NFSv3 LOOKUP (RFC 1813 §3.3.3): LOOKUP3res { nfsstat3 status; NFS3_OK:
 *    nfs_fh3 object; post_op_attr obj_attributes, dir_attributes; }.
 * The handle decoders are true when the status is OK (0) and a handle of 1
 * to 64 bytes follows it (fh points into res); status is set whenever its
 * word is there (status_read).  What follows the handle (auth_flavors, the
 * attributes) is not read: the handle is what the client came for.
 */
struct rr_fh_result {
	bool status_read;
	uint32_t status;          /* mountstat3 or nfsstat3 */
	const uint8_t *fh;        /* the handle when true, else NULL */
	uint32_t fh_len;
};
bool rr_pmap_getport_res(const uint8_t *res, size_t len, uint16_t *port);
bool rr_mount3_mnt_res(const uint8_t *res, size_t len, struct rr_fh_result *out);
bool rr_nfs3_lookup_res(const uint8_t *res, size_t len, struct rr_fh_result *out);

/*
 * NFSACL version 3 SETACL3args, the layout of Linux's nfs_acl.x (RFC 8267
 * 5 names the program): nfs_fh3 fh; secattr { mask; aclcnt; aclent<>;
 * dfaclcnt; dfaclent<>; }, aclent { type, id, perm }.  Both ACLs are on
 * the wire whatever the mask says; the mask says which the server applies.
 */
#define RR_NFSACL_ENTRY_SIZE 12u
#define RR_NFSACL_MAX_ENTRIES 1024u
enum { RR_NFSACL_MASK_ACL = 0x01, RR_NFSACL_MASK_ACLCNT = 0x02 };
/* POSIX ACL entry tags as nfs_acl.x carries them */
enum { RR_NFSACL_USER_OBJ = 0x01, RR_NFSACL_USER = 0x02, RR_NFSACL_GROUP_OBJ = 0x04,
       RR_NFSACL_GROUP = 0x08, RR_NFSACL_MASK = 0x10, RR_NFSACL_OTHER = 0x20 };

struct rr_nfsacl_setacl {
	uint32_t fh_len;
	uint32_t mask;
	size_t acl_at;            /* offset of aclcnt in the arguments */
	uint32_t aclcnt, n_acl;   /* the count word and the array's length */
	uint32_t named;           /* USER and GROUP entries among them */
	uint32_t closing;         /* entries at its end that name no one: they close a sorted ACL */
	size_t dfacl_at;          /* offset of dfaclcnt */
	uint32_t dfaclcnt, n_dfacl;
	size_t end;               /* bytes of arguments */
};

/* SETACL3args filling the whole of args; false, with a sentence in err, otherwise. */
bool rr_nfsacl_setacl_args(const uint8_t *args, size_t len, struct rr_nfsacl_setacl *a,
			   char *err, size_t errlen);

const char *rr_nfs4_op_name(uint32_t op);          /* "READ" ... or NULL */
/* "NFS4_OK", "NFS4ERR_BADSESSION"; "NFS status N" for a code RFC 8881 and its successors do not name.  Returns buf. */
const char *rr_nfs4_status_name(uint32_t status, char *buf, size_t len);
const char *rr_nfs3_proc_name(uint32_t proc);      /* "READ" ... or NULL */
const char *rr_ulp_result_name(enum rr_ulp_result r);
/* NFSv2 procedures and NFSv4 callback ops. */
const char *rr_nfs2_proc_name(uint32_t proc);      /* "READ" ... or NULL */
const char *rr_nfs4_cb_op_name(uint32_t op);       /* "CB_RECALL" ... or NULL */
/* Procedure name of any program the walkers know ("COMPOUND", "MNT", "GETACL"), or NULL. */
const char *rr_ulp_proc_name(uint32_t prog, uint32_t vers, uint32_t proc);
/* "NFSv4.1 READ", "NFSv3 WRITE", "NFSv4 CB_COMPOUND", "MOUNT v3 MNT"; "?" when u is NULL. */
void rr_ulp_op_label(const struct rr_ulp_info *u, char *buf, size_t len);

#endif
