// SPDX-License-Identifier: GPL-2.0-or-later
#include "ws_compat.h"
#include "rpcrdma_plugin.h"
void rrp_stats_register(void)
{
}
