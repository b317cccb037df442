// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * names.c - names of procedures and ops (RFC 1094, RFC 1813, RFC 7530,
 * RFC 8881, RFC 7862, RFC 8276; NLM and NSM from X/Open XNFS; NFSACL as
 * the Linux and Solaris implementations number it), and of NFSv4 status
 * codes (nfsstat4: RFC 8881 §15.1, RFC 7862 §11.1, RFC 8276 §6).
 */

#include <stdio.h>

#include "ulp_internal.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

static const char *lookup(const char *const *tab, size_t n, uint32_t i)
{
	return i < n ? tab[i] : NULL;
}

static const char *const nfs4_ops[] = {
	[3] = "ACCESS", [4] = "CLOSE", [5] = "COMMIT", [6] = "CREATE",
	[7] = "DELEGPURGE", [8] = "DELEGRETURN", [9] = "GETATTR", [10] = "GETFH",
	[11] = "LINK", [12] = "LOCK", [13] = "LOCKT", [14] = "LOCKU",
	[15] = "LOOKUP", [16] = "LOOKUPP", [17] = "NVERIFY", [18] = "OPEN",
	[19] = "OPENATTR", [20] = "OPEN_CONFIRM", [21] = "OPEN_DOWNGRADE", [22] = "PUTFH",
	[23] = "PUTPUBFH", [24] = "PUTROOTFH", [25] = "READ", [26] = "READDIR",
	[27] = "READLINK", [28] = "REMOVE", [29] = "RENAME", [30] = "RENEW",
	[31] = "RESTOREFH", [32] = "SAVEFH", [33] = "SECINFO", [34] = "SETATTR",
	[35] = "SETCLIENTID", [36] = "SETCLIENTID_CONFIRM", [37] = "VERIFY", [38] = "WRITE",
	[39] = "RELEASE_LOCKOWNER",
	[40] = "BACKCHANNEL_CTL", [41] = "BIND_CONN_TO_SESSION", [42] = "EXCHANGE_ID",
	[43] = "CREATE_SESSION", [44] = "DESTROY_SESSION", [45] = "FREE_STATEID",
	[46] = "GET_DIR_DELEGATION", [47] = "GETDEVICEINFO", [48] = "GETDEVICELIST",
	[49] = "LAYOUTCOMMIT", [50] = "LAYOUTGET", [51] = "LAYOUTRETURN",
	[52] = "SECINFO_NO_NAME", [53] = "SEQUENCE", [54] = "SET_SSV", [55] = "TEST_STATEID",
	[56] = "WANT_DELEGATION", [57] = "DESTROY_CLIENTID", [58] = "RECLAIM_COMPLETE",
	[59] = "ALLOCATE", [60] = "COPY", [61] = "COPY_NOTIFY", [62] = "DEALLOCATE",
	[63] = "IO_ADVISE", [64] = "LAYOUTERROR", [65] = "LAYOUTSTATS",
	[66] = "OFFLOAD_CANCEL", [67] = "OFFLOAD_STATUS", [68] = "READ_PLUS", [69] = "SEEK",
	[70] = "WRITE_SAME", [71] = "CLONE",
	[72] = "GETXATTR", [73] = "SETXATTR", [74] = "LISTXATTRS", [75] = "REMOVEXATTR",
};

static const char *const nfs4_cb_ops[] = {
	[3] = "CB_GETATTR", [4] = "CB_RECALL", [5] = "CB_LAYOUTRECALL", [6] = "CB_NOTIFY",
	[7] = "CB_PUSH_DELEG", [8] = "CB_RECALL_ANY", [9] = "CB_RECALLABLE_OBJ_AVAIL",
	[10] = "CB_RECALL_SLOT", [11] = "CB_SEQUENCE", [12] = "CB_WANTS_CANCELLED",
	[13] = "CB_NOTIFY_LOCK", [14] = "CB_NOTIFY_DEVICEID", [15] = "CB_OFFLOAD",
};

static const char *const nfs3_procs[] = {
	"NULL", "GETATTR", "SETATTR", "LOOKUP", "ACCESS", "READLINK", "READ", "WRITE",
	"CREATE", "MKDIR", "SYMLINK", "MKNOD", "REMOVE", "RMDIR", "RENAME", "LINK",
	"READDIR", "READDIRPLUS", "FSSTAT", "FSINFO", "PATHCONF", "COMMIT",
};

static const char *const nfs2_procs[] = {
	"NULL", "GETATTR", "SETATTR", "ROOT", "LOOKUP", "READLINK", "READ", "WRITECACHE",
	"WRITE", "CREATE", "REMOVE", "RENAME", "LINK", "SYMLINK", "MKDIR", "RMDIR",
	"READDIR", "STATFS",
};

static const char *const mount_procs[] = {
	"NULL", "MNT", "DUMP", "UMNT", "UMNTALL", "EXPORT", "EXPORTALL", "PATHCONF",
};

static const char *const nlm_procs[] = {
	[0] = "NULL", [1] = "TEST", [2] = "LOCK", [3] = "CANCEL", [4] = "UNLOCK",
	[5] = "GRANTED", [6] = "TEST_MSG", [7] = "LOCK_MSG", [8] = "CANCEL_MSG",
	[9] = "UNLOCK_MSG", [10] = "GRANTED_MSG", [11] = "TEST_RES", [12] = "LOCK_RES",
	[13] = "CANCEL_RES", [14] = "UNLOCK_RES", [15] = "GRANTED_RES", [16] = "NSM_NOTIFY",
	[20] = "SHARE", [21] = "UNSHARE", [22] = "NM_LOCK", [23] = "FREE_ALL",
};

static const char *const nsm_procs[] = {
	"NULL", "STAT", "MON", "UNMON", "UNMON_ALL", "SIMU_CRASH", "NOTIFY",
};

static const char *const nfsacl_v2_procs[] = {
	"NULL", "GETACL", "SETACL", "GETATTR", "ACCESS",
};

static const char *const nfsacl_v3_procs[] = {
	"NULL", "GETACL", "SETACL",
};

const char *rr_nfs4_op_name(uint32_t op)
{
	if (op == RR_NFS4_OP_ILLEGAL)
		return "ILLEGAL";
	return lookup(nfs4_ops, N_ELEMS(nfs4_ops), op);
}

const char *rr_nfs4_cb_op_name(uint32_t op)
{
	if (op == RR_NFS4_OP_ILLEGAL)
		return "CB_ILLEGAL";
	return lookup(nfs4_cb_ops, N_ELEMS(nfs4_cb_ops), op);
}

/* nfsstat4, ascending; the names without their "NFS4ERR_" (RFC 8881 §15.1 spells them so). */
static const struct status_name {
	uint32_t code;
	const char *name;
} nfs4_status[] = {
	{ 0, "NFS4_OK" }, { 1, "PERM" }, { 2, "NOENT" }, { 5, "IO" }, { 6, "NXIO" }, { 13, "ACCESS" },
	{ 17, "EXIST" }, { 18, "XDEV" }, { 20, "NOTDIR" }, { 21, "ISDIR" }, { 22, "INVAL" }, { 27, "FBIG" },
	{ 28, "NOSPC" }, { 30, "ROFS" }, { 31, "MLINK" }, { 63, "NAMETOOLONG" }, { 66, "NOTEMPTY" },
	{ 69, "DQUOT" }, { 70, "STALE" }, { 10001, "BADHANDLE" }, { 10003, "BAD_COOKIE" },
	{ 10004, "NOTSUPP" }, { 10005, "TOOSMALL" }, { 10006, "SERVERFAULT" }, { 10007, "BADTYPE" },
	{ 10008, "DELAY" }, { 10009, "SAME" }, { 10010, "DENIED" }, { 10011, "EXPIRED" },
	{ 10012, "LOCKED" }, { 10013, "GRACE" }, { 10014, "FHEXPIRED" }, { 10015, "SHARE_DENIED" },
	{ 10016, "WRONGSEC" }, { 10017, "CLID_INUSE" }, { 10018, "RESOURCE" }, { 10019, "MOVED" },
	{ 10020, "NOFILEHANDLE" }, { 10021, "MINOR_VERS_MISMATCH" }, { 10022, "STALE_CLIENTID" },
	{ 10023, "STALE_STATEID" }, { 10024, "OLD_STATEID" }, { 10025, "BAD_STATEID" },
	{ 10026, "BAD_SEQID" }, { 10027, "NOT_SAME" }, { 10028, "LOCK_RANGE" }, { 10029, "SYMLINK" },
	{ 10030, "RESTOREFH" }, { 10031, "LEASE_MOVED" }, { 10032, "ATTRNOTSUPP" }, { 10033, "NO_GRACE" },
	{ 10034, "RECLAIM_BAD" }, { 10035, "RECLAIM_CONFLICT" }, { 10036, "BADXDR" },
	{ 10037, "LOCKS_HELD" }, { 10038, "OPENMODE" }, { 10039, "BADOWNER" }, { 10040, "BADCHAR" },
	{ 10041, "BADNAME" }, { 10042, "BAD_RANGE" }, { 10043, "LOCK_NOTSUPP" }, { 10044, "OP_ILLEGAL" },
	{ 10045, "DEADLOCK" }, { 10046, "FILE_OPEN" }, { 10047, "ADMIN_REVOKED" }, { 10048, "CB_PATH_DOWN" },
	{ 10049, "BADIOMODE" }, { 10050, "BADLAYOUT" }, { 10051, "BAD_SESSION_DIGEST" },
	{ 10052, "BADSESSION" }, { 10053, "BADSLOT" }, { 10054, "COMPLETE_ALREADY" },
	{ 10055, "CONN_NOT_BOUND_TO_SESSION" }, { 10056, "DELEG_ALREADY_WANTED" },
	{ 10057, "BACK_CHAN_BUSY" }, { 10058, "LAYOUTTRYLATER" }, { 10059, "LAYOUTUNAVAILABLE" },
	{ 10060, "NOMATCHING_LAYOUT" }, { 10061, "RECALLCONFLICT" }, { 10062, "UNKNOWN_LAYOUTTYPE" },
	{ 10063, "SEQ_MISORDERED" }, { 10064, "SEQUENCE_POS" }, { 10065, "REQ_TOO_BIG" },
	{ 10066, "REP_TOO_BIG" }, { 10067, "REP_TOO_BIG_TO_CACHE" }, { 10068, "RETRY_UNCACHED_REP" },
	{ 10069, "UNSAFE_COMPOUND" }, { 10070, "TOO_MANY_OPS" }, { 10071, "OP_NOT_IN_SESSION" },
	{ 10072, "HASH_ALG_UNSUPP" }, { 10074, "CLIENTID_BUSY" }, { 10075, "PNFS_IO_HOLE" },
	{ 10076, "SEQ_FALSE_RETRY" }, { 10077, "BAD_HIGH_SLOT" }, { 10078, "DEADSESSION" },
	{ 10079, "ENCR_ALG_UNSUPP" }, { 10080, "PNFS_NO_LAYOUT" }, { 10081, "NOT_ONLY_OP" },
	{ 10082, "WRONG_CRED" }, { 10083, "WRONG_TYPE" }, { 10084, "DIRDELEG_UNAVAIL" },
	{ 10085, "REJECT_DELEG" }, { 10086, "RETURNCONFLICT" }, { 10087, "DELEG_REVOKED" },
	{ 10088, "PARTNER_NOTSUPP" }, { 10089, "PARTNER_NO_AUTH" }, { 10090, "UNION_NOTSUPP" },
	{ 10091, "OFFLOAD_DENIED" }, { 10092, "WRONG_LFS" }, { 10093, "BADLABEL" },
	{ 10094, "OFFLOAD_NO_REQS" }, { 10095, "NOXATTR" }, { 10096, "XATTR2BIG" },
};

const char *rr_nfs4_status_name(uint32_t status, char *buf, size_t len)
{
	size_t lo = 0, hi = N_ELEMS(nfs4_status);

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (nfs4_status[mid].code == status) {
			snprintf(buf, len, "%s%s", status ? "NFS4ERR_" : "", nfs4_status[mid].name);
			return buf;
		}
		if (nfs4_status[mid].code < status)
			lo = mid + 1;
		else
			hi = mid;
	}
	snprintf(buf, len, "NFS status %u", status);
	return buf;
}

const char *rr_nfs3_proc_name(uint32_t proc)
{
	return lookup(nfs3_procs, N_ELEMS(nfs3_procs), proc);
}

const char *rr_nfs2_proc_name(uint32_t proc)
{
	return lookup(nfs2_procs, N_ELEMS(nfs2_procs), proc);
}

const char *rr_ulp_proc_name(uint32_t prog, uint32_t vers, uint32_t proc)
{
	switch (prog) {
	case RR_NFS_PROGRAM:
		switch (vers) {
		case 2:
			return rr_nfs2_proc_name(proc);
		case 3:
			return rr_nfs3_proc_name(proc);
		case 4:
			return proc == 0 ? "NULL" : proc == 1 ? "COMPOUND" : NULL;
		default:
			return NULL;
		}
	case RR_NFS4_CB_PROGRAM:
		return proc == 0 ? "CB_NULL" : proc == 1 ? "CB_COMPOUND" : NULL;
	case RR_MOUNT_PROGRAM:
		/* EXPORTALL and PATHCONF exist in versions 1 and 2 only. */
		if (vers == 3 && proc > 5)
			return NULL;
		return lookup(mount_procs, N_ELEMS(mount_procs), proc);
	case RR_NLM_PROGRAM:
		return lookup(nlm_procs, N_ELEMS(nlm_procs), proc);
	case RR_NSM_PROGRAM:
		return lookup(nsm_procs, N_ELEMS(nsm_procs), proc);
	case RR_NFSACL_PROGRAM:
		if (vers == 3)
			return lookup(nfsacl_v3_procs, N_ELEMS(nfsacl_v3_procs), proc);
		return lookup(nfsacl_v2_procs, N_ELEMS(nfsacl_v2_procs), proc);
	default:
		return NULL;
	}
}

const char *rr_ulp_result_name(enum rr_ulp_result r)
{
	switch (r) {
	case RR_ULP_OK: return "ok";
	case RR_ULP_UNKNOWN_PROGRAM: return "unknown program";
	case RR_ULP_UNSUPPORTED: return "unsupported";
	case RR_ULP_MALFORMED: return "malformed";
	}
	return "?";
}

/*
 * What a message is, in a word or two, for per-op tables: the NFS procedure,
 * or for a COMPOUND its first op that is not a preamble (SEQUENCE, PUTFH,
 * GETATTR...), which is what the user asked for.  One spelling everywhere
 * (check/util.c describes calls alike): "NFSv3 READ", "NFSv4.1 READ",
 * "NFSv4 CB_COMPOUND" (the NFSv4 callback program), "NFSACL v3 GETACL".
 */
/* A label written piece by piece, cut to the buffer as snprintf cuts (one label per message: no format parsing). */
struct label {
	char *buf;
	size_t len, at;
};

static void put(struct label *l, const char *s)
{
	while (*s && l->at + 1 < l->len)
		l->buf[l->at++] = *s++;
	if (l->len)
		l->buf[l->at] = 0;
}

static void put_uint(struct label *l, uint32_t v)
{
	char d[11];
	int n = (int)sizeof(d) - 1;

	d[n] = 0;
	do {
		d[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	put(l, d + n);
}

void rr_ulp_op_label(const struct rr_ulp_info *u, char *buf, size_t len)
{
	struct label l = { buf, len, 0 };
	const char *name;
	uint16_t i;

	put(&l, "");
	if (!u) {
		put(&l, "?");
		return;
	}
	if (u->prog == RR_NFS_PROGRAM && u->vers == 4 && u->proc == 1) {
		uint32_t pick = u->n_ops ? u->ops[0] : 0;

		for (i = 0; i < u->n_ops; i++) {
			uint32_t op = u->ops[i];

			pick = op;
			/* SEQUENCE PUTFH PUTPUBFH PUTROOTFH SAVEFH RESTOREFH GETFH GETATTR */
			if (op != 53 && op != 22 && op != 23 && op != 24 && op != 32 && op != 31 && op != 10 &&
			    op != 9)
				break;
		}
		name = rr_nfs4_op_name(pick);
		put(&l, "NFSv4.");
		put_uint(&l, u->minorversion);
		put(&l, " ");
		put(&l, name ? name : "?");
		return;
	}
	name = rr_ulp_proc_name(u->prog, u->vers, u->proc);
	if (u->prog == RR_NFS_PROGRAM) {
		put(&l, "NFSv");
		put_uint(&l, u->vers);
	} else if (u->prog == RR_NFS4_CB_PROGRAM) {
		put(&l, "NFSv4");
	} else {
		put(&l, rr_rpc_program_name(u->prog) ? rr_rpc_program_name(u->prog) : "?");
		put(&l, " v");
		put_uint(&l, u->vers);
	}
	put(&l, " ");
	put(&l, name ? name : "?");
}
