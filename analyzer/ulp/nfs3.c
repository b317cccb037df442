// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nfs3.c - NFS version 3 (RFC 1813) argument and result walkers.
 *
 * DDP-eligible items (RFC 8267 4), each the only one of its procedure, so
 * their ordinal is always 0:
 *   WRITE3args   { nfs_fh3 file; offset3 offset; count3 count; stable_how stable;
 *                  opaque data<>; }                                       -- data
 *   SYMLINK3args { diropargs3 where; symlinkdata3 { sattr3 symlink_attributes;
 *                  nfspath3 symlink_data; } }                             -- symlink_data
 *   READ3res     status; resok { post_op_attr; count3; bool eof; opaque data<>; }
 *                        resfail { post_op_attr; }                        -- data
 *   READLINK3res status; resok { post_op_attr; nfspath3 data; }
 *                        resfail { post_op_attr; }                        -- data
 *
 * Every call's arguments are skipped completely (they are small), so a
 * malformed call is noticed; the first handle and name, READ's and WRITE's
 * offset and the eligible item are kept for rr_ulp_walk_call_args.  Of
 * the other results only the status is read.
 */
#include "ulp_internal.h"

#define NFS3_FHSIZE RR_NFS3_FHSIZE
#define NFS3_FATTR_SIZE 84u        /* fattr3: 5 words, 2 size3, specdata3, fsid, fileid, 3 nfstime3 */
#define NFS3_VERF_SIZE 8u
#define NFS3_OK 0u

enum {
	P3_NULL, P3_GETATTR, P3_SETATTR, P3_LOOKUP, P3_ACCESS, P3_READLINK, P3_READ, P3_WRITE,
	P3_CREATE, P3_MKDIR, P3_SYMLINK, P3_MKNOD, P3_REMOVE, P3_RMDIR, P3_RENAME, P3_LINK,
	P3_READDIR, P3_READDIRPLUS, P3_FSSTAT, P3_FSINFO, P3_PATHCONF, P3_COMMIT,
	P3_COUNT
};

/* nfs_fh3 { opaque data<NFS3_FHSIZE>; } */
static bool skip_fh3(struct rr_cursor *c)
{
	return ulp_skip_opaque_max(c, NFS3_FHSIZE);
}

/* diropargs3 { nfs_fh3 dir; filename3 name; } */
static bool skip_diropargs3(struct rr_cursor *c)
{
	return skip_fh3(c) && ulp_skip_opaque(c);
}

bool rr_nfs3_read_fh(struct rr_cursor *c, const uint8_t **fh, uint32_t *len)
{
	return rr_xdr_opaque(c, NFS3_FHSIZE, fh, len);
}

/* The arguments' first nfs_fh3, kept for rr_ulp_walk_call_args. */
static bool read_fh3(struct ulp_walk *w)
{
	return rr_nfs3_read_fh(w->c, &w->args.fh, &w->args.fh_len);
}

/* The arguments' first diropargs3, kept likewise. */
static bool read_diropargs3(struct ulp_walk *w)
{
	return read_fh3(w) && rr_xdr_opaque(w->c, UINT32_MAX, &w->args.name, &w->args.name_len);
}

/* union switch (bool set_it) { case TRUE: <size octets>; default: void; } */
static bool skip_set_opt(struct rr_cursor *c, size_t size)
{
	bool set;

	return ulp_bool(c, &set) && (!set || rr_skip(c, size));
}

/* union set_atime/set_mtime switch (time_how): SET_TO_CLIENT_TIME 2: nfstime3; default: void */
static bool skip_set_time(struct rr_cursor *c)
{
	uint32_t how;

	if (!ulp_u32(c, &how))
		return false;
	return how != 2 || rr_skip(c, 8);
}

/* sattr3 { set_mode3; set_uid3; set_gid3; set_size3; set_atime; set_mtime; } */
static bool skip_sattr3(struct rr_cursor *c)
{
	return skip_set_opt(c, 4) && skip_set_opt(c, 4) && skip_set_opt(c, 4) &&
	       skip_set_opt(c, 8) && skip_set_time(c) && skip_set_time(c);
}

/* post_op_attr: union switch (bool attributes_follow) { TRUE: fattr3; FALSE: void } */
static bool skip_post_op_attr(struct rr_cursor *c)
{
	return skip_set_opt(c, NFS3_FATTR_SIZE);
}

/* union createhow3 switch (createmode3): UNCHECKED 0, GUARDED 1: sattr3;
 * EXCLUSIVE 2: createverf3.  No default arm. */
static bool skip_createhow3(struct rr_cursor *c)
{
	uint32_t mode;

	if (!ulp_u32(c, &mode))
		return false;
	switch (mode) {
	case 0:
	case 1:
		return skip_sattr3(c);
	case 2:
		return rr_skip(c, NFS3_VERF_SIZE);
	default:
		return false;
	}
}

/* union mknoddata3 switch (ftype3): CHR 4, BLK 3: devicedata3 { sattr3; specdata3; };
 * SOCK 6, FIFO 7: sattr3; default: void */
static bool skip_mknoddata3(struct rr_cursor *c)
{
	uint32_t type;

	if (!ulp_u32(c, &type))
		return false;
	switch (type) {
	case 3:
	case 4:
		return skip_sattr3(c) && rr_skip(c, 8);
	case 6:
	case 7:
		return skip_sattr3(c);
	default:
		return true;
	}
}

enum rr_ulp_result nfs3_walk_call(struct ulp_walk *w, uint32_t proc)
{
	struct rr_cursor *c = w->c;
	bool ok;

	w->cur_op = proc;
	ulp_args_begin(w, proc);
	switch (proc) {
	case P3_NULL:
		ok = true;
		break;
	case P3_GETATTR:      /* GETATTR3args { nfs_fh3 object; } */
	case P3_READLINK:     /* READLINK3args { nfs_fh3 symlink; } */
	case P3_FSSTAT:
	case P3_FSINFO:
	case P3_PATHCONF:
		ok = read_fh3(w);
		break;
	case P3_SETATTR:      /* { nfs_fh3; sattr3; sattrguard3 (bool; TRUE: nfstime3) } */
		ok = read_fh3(w) && skip_sattr3(c) && skip_set_opt(c, 8);
		break;
	case P3_LOOKUP:       /* { diropargs3 what; } */
	case P3_REMOVE:
	case P3_RMDIR:
		ok = read_diropargs3(w);
		break;
	case P3_ACCESS:       /* { nfs_fh3 object; uint32 access; } */
		ok = read_fh3(w) && rr_skip(c, 4);
		break;
	case P3_READ:         /* { nfs_fh3 file; offset3; count3; } */
		ok = read_fh3(w) && rr_get_be64(c, &w->args.offset) &&
		     ulp_u32(c, &w->info->op_count[0]);
		w->info->op_offset[0] = w->args.offset;
		break;
	case P3_COMMIT:       /* { nfs_fh3 file; offset3; count3; } */
		ok = read_fh3(w) && rr_skip(c, 12);
		break;
	case P3_WRITE:        /* { nfs_fh3; offset3; count3; stable_how; opaque data<>; } */
		ok = read_fh3(w) && rr_get_be64(c, &w->args.offset) && rr_skip(c, 8) &&
		     ulp_ddp_item(w, w->arg_items++, proc, UINT32_MAX);
		break;
	case P3_CREATE:       /* { diropargs3 where; createhow3 how; } */
		ok = read_diropargs3(w) && skip_createhow3(c);
		break;
	case P3_MKDIR:        /* { diropargs3 where; sattr3 attributes; } */
		ok = read_diropargs3(w) && skip_sattr3(c);
		break;
	case P3_SYMLINK:      /* { diropargs3 where; sattr3; nfspath3 symlink_data; } */
		ok = read_diropargs3(w) && skip_sattr3(c) &&
		     ulp_ddp_item(w, w->arg_items++, proc, UINT32_MAX);
		break;
	case P3_MKNOD:        /* { diropargs3 where; mknoddata3 what; } */
		ok = read_diropargs3(w) && skip_mknoddata3(c);
		break;
	case P3_RENAME:       /* { diropargs3 from; diropargs3 to; } */
		ok = read_diropargs3(w) && skip_diropargs3(c);
		break;
	case P3_LINK:         /* { nfs_fh3 file; diropargs3 link; } */
		ok = read_fh3(w) && skip_diropargs3(c);
		break;
	case P3_READDIR:      /* { nfs_fh3 dir; cookie3; cookieverf3; count3; } */
		ok = read_fh3(w) && rr_skip(c, 8 + NFS3_VERF_SIZE) &&
		     ulp_u32(c, &w->info->op_count[0]);
		break;
	case P3_READDIRPLUS:  /* { nfs_fh3 dir; cookie3; cookieverf3; dircount; maxcount; } */
		ok = read_fh3(w) && rr_skip(c, 8 + NFS3_VERF_SIZE + 4) &&
		     ulp_u32(c, &w->info->op_count[0]);
		break;
	default:
		return RR_ULP_UNSUPPORTED;
	}
	if (proc == P3_READ || proc == P3_READLINK)
		w->info->n_ddp_capable = 1;
	if (!ok)
		return RR_ULP_MALFORMED;
	ulp_args_end(w);
	return RR_ULP_OK;
}

enum rr_ulp_result nfs3_walk_reply(struct ulp_walk *w, uint32_t proc)
{
	struct rr_cursor *c = w->c;
	uint32_t status;
	bool eof, ok;

	w->cur_op = proc;
	if (proc == P3_NULL)
		return RR_ULP_OK;
	if (proc >= P3_COUNT)
		return RR_ULP_UNSUPPORTED;
	if (!ulp_u32(c, &status))
		return RR_ULP_MALFORMED;
	w->info->status = status;
	switch (proc) {
	case P3_READ:
		w->info->n_ddp_capable = 1;
		ok = skip_post_op_attr(c);
		if (ok && status == NFS3_OK)   /* count3 count; bool eof; opaque data<> */
			ok = rr_skip(c, 4) && ulp_bool(c, &eof) &&
			     ulp_ddp_item(w, 0, proc, UINT32_MAX);
		break;
	case P3_READLINK:
		w->info->n_ddp_capable = 1;
		ok = skip_post_op_attr(c);
		if (ok && status == NFS3_OK)   /* nfspath3 data */
			ok = ulp_ddp_item(w, 0, proc, UINT32_MAX);
		break;
	default:
		ok = true;   /* the status is all that is needed */
		break;
	}
	return ok ? RR_ULP_OK : RR_ULP_MALFORMED;
}
