// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * auxprog.c - the NFS auxiliary programs of RFC 8267 5: MOUNT (100005), NLM
 * (100021), NSM (100024) and NFSACL (100227).  None has a DDP-eligible
 * item (RFC 8267 5, 5.2), so calls are only named (rr_ulp_proc_name) and
 * replies give the procedure's status where it is cheap to find.
 * NFSACL's SETACL arguments are read for the agent's replay
 * (rr_nfsacl_setacl_args), in the layout of Linux's nfs_acl.x.
 */
#include <stdio.h>
#include <string.h>

#include "ulp_internal.h"

#define NLM_MAXSTRLEN 1024u

bool aux_program_known(uint32_t prog, uint32_t vers)
{
	switch (prog) {
	case RR_MOUNT_PROGRAM:
		return vers >= 1 && vers <= 3;
	case RR_NLM_PROGRAM:
		return vers == 1 || vers == 3 || vers == 4;
	case RR_NSM_PROGRAM:
		return vers == 1;
	case RR_NFSACL_PROGRAM:
		/* RFC 8267 names version 1; deployments use 2 and 3. */
		return vers >= 1 && vers <= 3;
	default:
		return false;
	}
}

enum rr_ulp_result aux_walk_reply(struct ulp_walk *w, uint32_t prog, uint32_t vers,
				  uint32_t proc)
{
	struct rr_cursor *c = w->c;
	bool first_word = false;

	w->cur_op = proc;
	switch (prog) {
	case RR_MOUNT_PROGRAM:
		/* MNT: fhstatus (v1, v2) / mountres3 (v3) begin with the status. */
		first_word = proc == 1;
		break;
	case RR_NSM_PROGRAM:
		/* SM_STAT, SM_MON: sm_stat_res { res res_stat; int state; } */
		first_word = proc == 1 || proc == 2;
		break;
	case RR_NFSACL_PROGRAM:
		/* GETACL, SETACL, and v2 GETATTR, ACCESS begin with an nfsstat. */
		first_word = proc == 1 || proc == 2 || (vers == 2 && (proc == 3 || proc == 4));
		break;
	case RR_NLM_PROGRAM:
		/* TEST, LOCK, CANCEL, UNLOCK, GRANTED, SHARE, UNSHARE, NM_LOCK:
		 * { netobj cookie; nlm_stats stat; ... } */
		if ((proc >= 1 && proc <= 5) || (proc >= 20 && proc <= 22)) {
			if (!ulp_skip_opaque_max(c, NLM_MAXSTRLEN) || !ulp_u32(c, &w->info->status))
				return RR_ULP_MALFORMED;
		}
		return RR_ULP_OK;
	default:
		return RR_ULP_UNKNOWN_PROGRAM;
	}
	if (first_word && !ulp_u32(c, &w->info->status))
		return RR_ULP_MALFORMED;
	return RR_ULP_OK;
}

/* One ACL: count word, array length, entries.  false with err when it does not fit. */
static bool one_acl(struct rr_cursor *c, const char *which, uint32_t *cnt, uint32_t *n,
		    char *err, size_t errlen)
{
	if (!rr_get_be32(c, cnt) || !rr_get_be32(c, n)) {
		snprintf(err, errlen, "SETACL arguments end inside the %s ACL's counts", which);
		return false;
	}
	if (*n > RR_NFSACL_MAX_ENTRIES || (size_t)*n * RR_NFSACL_ENTRY_SIZE > rr_cursor_left(c)) {
		snprintf(err, errlen, "SETACL %s ACL: %u entries do not fit in the %zu bytes left",
			 which, *n, rr_cursor_left(c));
		return false;
	}
	return true;
}

/* The access ACL's entries: how many name a user or group, how many close it. */
static void count_entries(struct rr_cursor *c, struct rr_nfsacl_setacl *a)
{
	uint32_t type = 0, id = 0, perm = 0;

	for (uint32_t i = 0; i < a->n_acl; i++) {
		rr_get_be32(c, &type);
		rr_get_be32(c, &id);
		rr_get_be32(c, &perm);
		if (type == RR_NFSACL_USER || type == RR_NFSACL_GROUP) {
			a->named++;
			a->closing = 0;
		} else {
			a->closing++;
		}
	}
}

bool rr_nfsacl_setacl_args(const uint8_t *args, size_t len, struct rr_nfsacl_setacl *a,
			   char *err, size_t errlen)
{
	struct rr_cursor c;

	const uint8_t *fh;

	memset(a, 0, sizeof(*a));
	rr_cursor_init(&c, args, len);
	if (!rr_nfs3_read_fh(&c, &fh, &a->fh_len) || !rr_get_be32(&c, &a->mask)) {
		snprintf(err, errlen, "SETACL arguments: no NFSv3 file handle (at most 64 bytes) and mask");
		memset(a, 0, sizeof(*a));
		return false;
	}
	a->acl_at = rr_cursor_pos(&c);
	if (!one_acl(&c, "access", &a->aclcnt, &a->n_acl, err, errlen))
		return false;
	count_entries(&c, a);
	a->dfacl_at = rr_cursor_pos(&c);
	if (!one_acl(&c, "default", &a->dfaclcnt, &a->n_dfacl, err, errlen))
		return false;
	rr_skip(&c, (size_t)a->n_dfacl * RR_NFSACL_ENTRY_SIZE);
	a->end = rr_cursor_pos(&c);
	if (a->end != len) {
		snprintf(err, errlen, "SETACL arguments: %zu bytes after the ACLs", len - a->end);
		return false;
	}
	return true;
}
