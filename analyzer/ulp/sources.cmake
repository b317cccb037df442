# SPDX-License-Identifier: GPL-2.0-or-later
# ULP walkers: RPC headers, NFSv2/v3/v4 and the auxiliary programs.
set(RR_ULP_SOURCES
  ulp/rpc.c
  ulp/xdr.c
  ulp/walk.c
  ulp/names.c
  ulp/auxprog.c
  ulp/nfs2.c
  ulp/nfs3.c
  ulp/nfs4.c
  ulp/nfs4_types.c
  ulp/nfs4_args.c
  ulp/nfs4_res.c
  ulp/nfs4_cb.c
)
