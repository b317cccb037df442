// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * agent-verify-test: `rpcrdma-agent verify` without the rest of the agent
 * (no verbs, no live capture), so that verify can be tested on any
 * machine.  It calls the subcommand the way main.c does, with argv[0]
 * the subcommand's name: `agent-verify-test ARGS` is `rpcrdma-agent verify ARGS`.
 */
#include "agent.h"

int main(int argc, char **argv)
{
	static char name[] = "verify";

	argv[0] = name;
	return agent_cmd_verify(argc, argv);
}
