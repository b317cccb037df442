/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ulp_internal.h - what the ULP walkers share: the walk state, the XDR
 * skipping helpers and the per-program entry points.
 *
 * Every helper reads through the walk's cursor and returns false when the
 * XDR does not decode (the cursor ran out, or a value is not allowed, e.g.
 * a union discriminant without an arm).  Helpers never recurse on wire
 * data; lists (XDR optional-data chains) are walked in loops, and every
 * count is checked against the bytes left before anything is looped over.
 */
#ifndef RPCRDMA_ULP_INTERNAL_H
#define RPCRDMA_ULP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cursor.h"
#include "rpc.h"
#include "ulp.h"

/* Ops in one COMPOUND or CB_COMPOUND beyond this are malformed (a bomb). */
#define ULP_MAX_COMPOUND_OPS 1000u

/* RFC 5531: opaque_auth body<MAX_AUTH_BYTES>. */
#define ULP_MAX_AUTH_BYTES 400u

struct ulp_walk {
	struct rr_cursor *c;
	rr_ddp_fn fn;             /* NULL: nothing was reduced */
	void *ctx;
	struct rr_ulp_info *info;
	unsigned arg_items;       /* calls: eligible argument items seen so far */
	unsigned read_ops;        /* NFSv4 replies: READ-class ops seen so far */
	unsigned cur_ordinal;     /* NFSv4 replies: ordinal of the op being walked */
	uint32_t cur_op;          /* op or procedure being walked */
	bool no_reduction;        /* RPCSEC_GSS integrity: items are inline and not eligible */
	/* rr_ulp_walk_call_args: the procedure's or op's arguments as they are read */
	rr_ulp_args_fn afn;       /* NULL: nobody asked */
	void *actx;
	struct rr_ulp_op_args args;
	unsigned n_args;          /* procedures or ops reported so far */
};

void ulp_walk_init(struct ulp_walk *w, struct rr_cursor *c, rr_ddp_fn fn, void *ctx,
		   struct rr_ulp_info *info);

/*
 * A DDP-eligible variable opaque: read its length word (<= max), report
 * it to fn, and skip bytes and pad unless fn says they are not inline.
 */
bool ulp_ddp_item(struct ulp_walk *w, unsigned ordinal, uint32_t op, uint32_t max);

/* The arguments of op begin (cleared) and end (reported to afn, if any). */
void ulp_args_begin(struct ulp_walk *w, uint32_t op);
void ulp_args_end(struct ulp_walk *w);

/* Record an op in info->ops (sets ops_truncated past RR_ULP_MAX_OPS). */
void ulp_note_op(struct rr_ulp_info *info, uint32_t op);

/*
 * Something the walker does not know (an op, a union arm): name it in
 * info->unknown_what/unknown_value (the first one met) and return false,
 * so the walk ends with RR_ULP_UNSUPPORTED rather than RR_ULP_MALFORMED.
 */
bool ulp_unknown(struct ulp_walk *w, const char *what, uint32_t value);
/* The result of a walk that stopped in an op: known says the op itself is known. */
enum rr_ulp_result ulp_stop(const struct ulp_walk *w, bool known);

/* Plain XDR. */
bool ulp_u32(struct rr_cursor *c, uint32_t *v);
bool ulp_skip_words(struct rr_cursor *c, size_t words);
bool ulp_skip_opaque(struct rr_cursor *c);                 /* opaque<> / string<> */
bool ulp_skip_opaque_max(struct rr_cursor *c, uint32_t max);
bool ulp_bool(struct rr_cursor *c, bool *v);
/* An array count that the bytes left can hold at min_size octets an element. */
bool ulp_count(struct rr_cursor *c, size_t min_size, uint32_t *n);
/* opaque<> elements: count, then each one. */
bool ulp_skip_opaque_array(struct rr_cursor *c);
/* Fixed-size elements: count (<= max when max != 0), then count * size octets. */
bool ulp_skip_fixed_array(struct rr_cursor *c, size_t size, uint32_t max);

/* Shared by NFSv4 forward and callback programs (nfs4_types.c). */
bool nfs4_skip_bitmap(struct rr_cursor *c);
bool nfs4_skip_fattr(struct rr_cursor *c);
bool nfs4_skip_stateid(struct rr_cursor *c);
bool nfs4_skip_fh(struct rr_cursor *c);
bool nfs4_skip_change_info(struct rr_cursor *c);
bool nfs4_skip_state_owner(struct rr_cursor *c);
bool nfs4_skip_netaddr(struct rr_cursor *c);
bool nfs4_skip_netloc(struct rr_cursor *c);
bool nfs4_skip_nfsace(struct rr_cursor *c);
bool nfs4_skip_open_delegation(struct ulp_walk *w);
bool nfs4_skip_write_response(struct rr_cursor *c);
bool nfs4_skip_authsys_parms(struct rr_cursor *c);
bool nfs4_skip_callback_sec_parms(struct rr_cursor *c);
/* channel_attrs4, keeping ca_maxrequestsize, ca_maxresponsesize and ca_maxrequests. */
bool nfs4_read_channel_attrs(struct rr_cursor *c, uint32_t *maxreq, uint32_t *maxresp,
			     uint32_t *maxrequests);
bool nfs4_skip_state_protect_ops(struct rr_cursor *c);
bool nfs4_skip_nfs_impl_id_opt(struct rr_cursor *c);
bool nfs4_skip_layoutupdate(struct rr_cursor *c);

#define NFS4_OK 0u
#define NFS4_SESSIONID_SIZE 16u
#define NFS4_VERIFIER_SIZE 8u
#define NFS4_DEVICEID_SIZE 16u
#define NFS4_STATEID_SIZE 16u
#define NFS4_FHSIZE 128u
#define NFS4_OPAQUE_LIMIT 1024u

/* NFSv4 ops (nfs4_args.c, nfs4_res.c). */
enum rr_ulp_result nfs4_skip_args(struct ulp_walk *w, uint32_t op);
enum rr_ulp_result nfs4_skip_res(struct ulp_walk *w, uint32_t op, uint32_t status);
/* Callback ops (nfs4_cb.c). */
enum rr_ulp_result nfs4_cb_skip_args(struct ulp_walk *w, uint32_t op);
enum rr_ulp_result nfs4_cb_skip_res(struct ulp_walk *w, uint32_t op, uint32_t status);
/* Is this op one that may return an eligible result (RFC 8267 6.4.1)? */
bool nfs4_op_is_read_class(uint32_t op);

/* Program walkers: args/res cursor at the procedure's arguments/results. */
enum rr_ulp_result nfs2_walk_call(struct ulp_walk *w, uint32_t proc);
enum rr_ulp_result nfs2_walk_reply(struct ulp_walk *w, uint32_t proc);
enum rr_ulp_result nfs3_walk_call(struct ulp_walk *w, uint32_t proc);
enum rr_ulp_result nfs3_walk_reply(struct ulp_walk *w, uint32_t proc);
enum rr_ulp_result nfs4_walk_call(struct ulp_walk *w, uint32_t proc);
enum rr_ulp_result nfs4_walk_reply(struct ulp_walk *w, uint32_t proc);
enum rr_ulp_result nfs4_cb_walk_call(struct ulp_walk *w, uint32_t proc);
enum rr_ulp_result nfs4_cb_walk_reply(struct ulp_walk *w, uint32_t proc);
/* MOUNT, NLM, NSM, NFSACL (auxprog.c): nothing eligible; calls only named, replies give status. */
bool aux_program_known(uint32_t prog, uint32_t vers);
enum rr_ulp_result aux_walk_reply(struct ulp_walk *w, uint32_t prog, uint32_t vers,
				  uint32_t proc);

#endif
