// SPDX-License-Identifier: GPL-2.0-or-later
/* The arguments of portmap GETPORT, MOUNT v3 MNT and NFSv3 LOOKUP (pg_client.h). */
#include "pg_client.h"

#include "pg_buf.h"

void pg_pmap_getport_args(GByteArray *b, uint32_t prog, uint32_t vers, uint32_t prot)
{
	pb_be32(b, prog);
	pb_be32(b, vers);
	pb_be32(b, prot);
	pb_be32(b, 0);
}

void pg_mount3_mnt_args(GByteArray *b, const char *dirpath)
{
	pb_xdr_string(b, dirpath);
}

void pg_nfs3_lookup_args(GByteArray *b, const uint8_t *dir, uint32_t dir_len, const char *name)
{
	pb_xdr_opaque(b, dir, dir_len);
	pb_xdr_string(b, name);
}
