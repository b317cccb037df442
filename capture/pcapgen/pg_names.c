// SPDX-License-Identifier: GPL-2.0-or-later
/* Names of NFSv3 procedures, NFSv4 and callback operations and NFSACL
 * procedures, both ways: the scenario names them, and the COMPOUND
 * encoders list them for the truth file. */
#include "pg_nfs.h"
#include "pg_scenario_priv.h"

struct opname {
	uint32_t op;
	const char *name;
};
static const struct opname v3_names[] = {
	{ NFS3_NULL, "NULL" }, { NFS3_GETATTR, "GETATTR" }, { NFS3_READLINK, "READLINK" },
	{ NFS3_READ, "READ" }, { NFS3_WRITE, "WRITE" }, { NFS3_SYMLINK, "SYMLINK" },
	{ NFS3_READDIR, "READDIR" }, { PG_NFS3_LOOKUP, "LOOKUP" },
};
static const struct opname v4_names[] = {
	{ OP4_CREATE, "CREATE" }, { OP4_GETATTR, "GETATTR" }, { OP4_GETFH, "GETFH" },
	{ OP4_LOOKUP, "LOOKUP" }, { OP4_PUTFH, "PUTFH" }, { OP4_PUTROOTFH, "PUTROOTFH" },
	{ OP4_READ, "READ" }, { OP4_READDIR, "READDIR" }, { OP4_READLINK, "READLINK" },
	{ OP4_WRITE, "WRITE" }, { OP4_SEQUENCE, "SEQUENCE" },
	{ OP4_BIND_CONN, "BIND_CONN_TO_SESSION" }, { OP4_CREATE_SESSION, "CREATE_SESSION" },
};
static const struct opname acl_names[] = {
	{ ACL3_NULL, "NULL" }, { ACL3_GETACL, "GETACL" }, { ACL3_SETACL, "SETACL" },
};
static const struct opname cb_names[] = {
	{ CB_GETATTR, "CB_GETATTR" }, { CB_RECALL, "CB_RECALL" }, { CB_SEQUENCE, "CB_SEQUENCE" },
};

static const char *lookup_name(const struct opname *t, size_t n, uint32_t op)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].op == op)
			return t[i].name;
	return "?";
}

static bool lookup_op(const struct opname *t, size_t n, const char *name, uint32_t *op)
{
	for (size_t i = 0; i < n; i++)
		if (g_ascii_strcasecmp(t[i].name, name) == 0) {
			*op = t[i].op;
			return true;
		}
	return false;
}

const char *pg_nfs_opname(int nfsver, bool cb, uint32_t op)
{
	if (cb)
		return lookup_name(cb_names, G_N_ELEMENTS(cb_names), op);
	if (nfsver == PG_V3)
		return lookup_name(v3_names, G_N_ELEMENTS(v3_names), op);
	return lookup_name(v4_names, G_N_ELEMENTS(v4_names), op);
}

bool pg_acl_proclookup(const char *name, uint32_t *proc)
{
	return lookup_op(acl_names, G_N_ELEMENTS(acl_names), name, proc);
}

bool pg_nfs_oplookup(int nfsver, bool cb, const char *name, uint32_t *op)
{
	if (cb)
		return lookup_op(cb_names, G_N_ELEMENTS(cb_names), name, op);
	if (nfsver == PG_V3)
		return lookup_op(v3_names, G_N_ELEMENTS(v3_names), name, op);
	return lookup_op(v4_names, G_N_ELEMENTS(v4_names), name, op);
}
