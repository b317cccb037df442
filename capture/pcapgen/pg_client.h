/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pg_client.h - the arguments of the calls a client makes to reach a
 * server's objects: portmap GETPORT (where MOUNT listens), MOUNT v3 MNT
 * (the export's root handle), NFSv3 LOOKUP (a name's handle).  Each
 * appends the procedure's arguments to b; the RPC call header is
 * pg_rpc_call_hdr's (pg_nfs.h).
 */
#ifndef PG_CLIENT_H
#define PG_CLIENT_H

#include "pg_common.h"

/* portmap version 2 (RFC 1833 §3) */
#define PG_PROG_PORTMAP 100000u
#define PG_PMAP_VERS 2u
#define PG_PMAPPROC_GETPORT 3u
#define PG_IPPROTO_TCP 6u
#define PG_PMAP_PORT 111u
/* MOUNT version 3 (RFC 1813 Appendix I) */
#define PG_PROG_MOUNT 100005u
#define PG_MOUNT_V3 3u
#define PG_MOUNTPROC3_MNT 1u

/* GETPORT's mapping { prog, vers, prot, port }; the port is ignored on a call (0). */
void pg_pmap_getport_args(GByteArray *b, uint32_t prog, uint32_t vers, uint32_t prot);
/* MNT's dirpath<MNTPATHLEN = 1024>. */
void pg_mount3_mnt_args(GByteArray *b, const char *dirpath);
/* LOOKUP3args: diropargs3 { nfs_fh3 dir; filename3 name; }. */
void pg_nfs3_lookup_args(GByteArray *b, const uint8_t *dir, uint32_t dir_len, const char *name);

#endif
