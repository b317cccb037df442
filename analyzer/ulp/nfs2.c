// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nfs2.c - NFS version 2 (RFC 1094) argument and result walkers.
 *
 * DDP-eligible items (RFC 8267 4), ordinal always 0:
 *   writeargs   { fhandle file; unsigned beginoffset; unsigned offset;
 *                 unsigned totalcount; nfsdata data; }                    -- data
 *   symlinkargs { diropargs from; path to; sattr attributes; }            -- to
 *                 (the attributes follow the item inline)
 *   readres     NFS_OK: readokres { fattr attributes; nfsdata data; }    -- data
 *   readlinkres NFS_OK: path data                                         -- data
 */
#include "ulp_internal.h"

#define NFS2_FHSIZE 32u
#define NFS2_FATTR_SIZE 68u     /* 11 words and 3 timevals */
#define NFS2_SATTR_SIZE 32u     /* 4 words and 2 timevals */
#define NFS2_MAXDATA 8192u
#define NFS2_MAXPATHLEN 1024u
#define NFS2_MAXNAMLEN 255u
#define NFS2_COOKIESIZE 4u

enum {
	P2_NULL, P2_GETATTR, P2_SETATTR, P2_ROOT, P2_LOOKUP, P2_READLINK, P2_READ,
	P2_WRITECACHE, P2_WRITE, P2_CREATE, P2_REMOVE, P2_RENAME, P2_LINK, P2_SYMLINK,
	P2_MKDIR, P2_RMDIR, P2_READDIR, P2_STATFS,
	P2_COUNT
};

/* diropargs { fhandle dir; filename name; } */
static bool skip_diropargs(struct rr_cursor *c)
{
	return rr_skip(c, NFS2_FHSIZE) && ulp_skip_opaque_max(c, NFS2_MAXNAMLEN);
}

enum rr_ulp_result nfs2_walk_call(struct ulp_walk *w, uint32_t proc)
{
	struct rr_cursor *c = w->c;
	bool ok;

	w->cur_op = proc;
	switch (proc) {
	case P2_NULL:
	case P2_ROOT:
	case P2_WRITECACHE:
		return RR_ULP_OK;
	case P2_GETATTR:
	case P2_READLINK:
	case P2_STATFS:
		ok = rr_skip(c, NFS2_FHSIZE);
		break;
	case P2_SETATTR:     /* { fhandle; sattr; } */
		ok = rr_skip(c, NFS2_FHSIZE + NFS2_SATTR_SIZE);
		break;
	case P2_LOOKUP:
	case P2_REMOVE:
	case P2_RMDIR:
		ok = skip_diropargs(c);
		break;
	case P2_READ:        /* { fhandle; unsigned offset; unsigned count; totalcount; } */
	{
		uint32_t off = 0;

		ok = rr_skip(c, NFS2_FHSIZE) && ulp_u32(c, &off) && ulp_u32(c, &w->info->op_count[0]) &&
		     rr_skip(c, 4);
		w->info->op_offset[0] = off;
		break;
	}
	case P2_WRITE:       /* { fhandle; beginoffset; offset; totalcount; nfsdata data; } */
		ok = rr_skip(c, NFS2_FHSIZE + 12) &&
		     ulp_ddp_item(w, w->arg_items++, proc, NFS2_MAXDATA);
		break;
	case P2_CREATE:      /* { diropargs where; sattr attributes; } */
	case P2_MKDIR:
		ok = skip_diropargs(c) && rr_skip(c, NFS2_SATTR_SIZE);
		break;
	case P2_RENAME:      /* { diropargs from; diropargs to; } */
		ok = skip_diropargs(c) && skip_diropargs(c);
		break;
	case P2_LINK:        /* { fhandle from; diropargs to; } */
		ok = rr_skip(c, NFS2_FHSIZE) && skip_diropargs(c);
		break;
	case P2_SYMLINK:     /* { diropargs from; path to; sattr attributes; } */
		ok = skip_diropargs(c) &&
		     ulp_ddp_item(w, w->arg_items++, proc, NFS2_MAXPATHLEN) &&
		     rr_skip(c, NFS2_SATTR_SIZE);
		break;
	case P2_READDIR:     /* { fhandle dir; nfscookie cookie; unsigned count; } */
		ok = rr_skip(c, NFS2_FHSIZE + NFS2_COOKIESIZE + 4);
		break;
	default:
		return RR_ULP_UNSUPPORTED;
	}
	if (proc == P2_READ || proc == P2_READLINK)
		w->info->n_ddp_capable = 1;
	return ok ? RR_ULP_OK : RR_ULP_MALFORMED;
}

enum rr_ulp_result nfs2_walk_reply(struct ulp_walk *w, uint32_t proc)
{
	struct rr_cursor *c = w->c;
	uint32_t status;
	bool ok = true;

	w->cur_op = proc;
	if (proc == P2_NULL || proc == P2_ROOT || proc == P2_WRITECACHE)
		return RR_ULP_OK;
	if (proc >= P2_COUNT)
		return RR_ULP_UNSUPPORTED;
	if (!ulp_u32(c, &status))
		return RR_ULP_MALFORMED;
	w->info->status = status;
	if (proc == P2_READ) {
		w->info->n_ddp_capable = 1;
		if (status == 0)
			ok = rr_skip(c, NFS2_FATTR_SIZE) && ulp_ddp_item(w, 0, proc, NFS2_MAXDATA);
	} else if (proc == P2_READLINK) {
		w->info->n_ddp_capable = 1;
		if (status == 0)
			ok = ulp_ddp_item(w, 0, proc, NFS2_MAXPATHLEN);
	}
	return ok ? RR_ULP_OK : RR_ULP_MALFORMED;
}
