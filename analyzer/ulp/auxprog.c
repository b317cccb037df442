// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * auxprog.c - the NFS auxiliary programs of RFC 8267 5: MOUNT (100005), NLM
 * (100021), NSM (100024) and NFSACL (100227).  None has a DDP-eligible
 * item (RFC 8267 5, 5.2), so calls are only named (rr_ulp_proc_name) and
 * replies give the procedure's status where it is cheap to find.
 */
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
