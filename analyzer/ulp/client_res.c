// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * client_res.c - the results a client reads to reach a server's objects
 * (ulp.h): portmap GETPORT's port, MOUNT v3 MNT's and NFSv3 LOOKUP's
 * handle.  Each reads a status (or the port) and at most one handle
 * through a cursor over the results, so nothing is read past their end.
 */
#include <string.h>

#include "ulp_internal.h"

#define PMAP_MAX_PORT 65535u

bool rr_pmap_getport_res(const uint8_t *res, size_t len, uint16_t *port)
{
	struct rr_cursor c;
	uint32_t p;

	rr_cursor_init(&c, res, len);
	if (!rr_get_be32(&c, &p) || p == 0 || p > PMAP_MAX_PORT)
		return false;   /* 0: not registered (RFC 1833 §3) */
	*port = (uint16_t)p;
	return true;
}

/* A status word, then on 0 (MNT3_OK, NFS3_OK) an opaque handle of at most 64 bytes. */
static bool status_then_fh(const uint8_t *res, size_t len, struct rr_fh_result *out)
{
	struct rr_cursor c;
	const uint8_t *fh;
	uint32_t n;

	memset(out, 0, sizeof(*out));
	rr_cursor_init(&c, res, len);
	if (!rr_get_be32(&c, &out->status))
		return false;
	out->status_read = true;
	/* fhandle3 and nfs_fh3 have the same bound (FHSIZE3, NFS3_FHSIZE); an empty one names nothing */
	if (out->status != 0 || !rr_nfs3_read_fh(&c, &fh, &n) || n == 0)
		return false;
	out->fh = fh;
	out->fh_len = n;
	return true;
}

bool rr_mount3_mnt_res(const uint8_t *res, size_t len, struct rr_fh_result *out)
{
	return status_then_fh(res, len, out);
}

bool rr_nfs3_lookup_res(const uint8_t *res, size_t len, struct rr_fh_result *out)
{
	return status_then_fh(res, len, out);
}
