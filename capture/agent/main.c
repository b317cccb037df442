// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rpcrdma-agent: drive RPC-over-RDMA test transfers over rxe and siw,
 * capture them, and verify the decode against what was really sent.
 * See docs/rpcrdma-agent.8.
 */
#include <stdio.h>
#include <string.h>

#include "agent.h"
#include "common.h"
#include "replay.h"
#include "setup.h"

static void usage(FILE *f)
{
	fputs("usage: rpcrdma-agent COMMAND [OPTIONS]\n"
	      "\n"
	      "Commands:\n"
	      "  drive   SERVER SCENARIO   requester: run a scenario (rpcrdma-pcapgen format) against\n"
	      "                            an RPC-over-RDMA server, capture it, write its manifest\n"
	      "  serve                     responder: in-memory NFSv3/NFSv4.1 server\n"
	      "  proxy   --server ADDR     relay between RPC-over-RDMA clients and a server, both legs captured\n"
	      "  verify  CAPTURE MANIFEST... check a capture against what the agent really sent\n"
	      "  replay  CAPTURE --xid X --target SERVER  send a captured call again, in variations\n"
	      "  setup   --rxe|--siw NETDEV create a soft-RoCE or soft-iWARP link\n"
	      "  cleanup                   remove every link the agent created\n"
	      "  list-injections           every injector --inject can run, its role, or why not live\n"
	      "\n"
	      "Common options (drive, serve):\n"
	      "  -d, --ib-dev DEV          RDMA device (its netdev is captured)\n"
	      "  -p, --port PORT           RDMA-CM port (default 20049)\n"
	      "  -w, --write FILE          capture to FILE (libpcap, started before connecting)\n"
	      "  -F, --format pcap|pcapng  capture file format (default pcap)\n"
	      "  -m, --manifest FILE       manifest (default: the capture's name + .manifest)\n"
	      "  -c, --credits N           credits to grant (serve; default 32)\n"
	      "  --inject NAME[=ARG][:WHEN][,...]  break a rule on the wire; WHEN: every=N, nth=K,\n"
	      "                            op=NAME, xid=0xX (see list-injections)\n"
	      "  --rxe NETDEV, --siw NETDEV create a link for this run, removed at exit\n"
	      "  --netdev IF               capture on IF instead of the device's netdev\n"
	      "  --timeout SEC             wait at most SEC for each completion and reply (30)\n"
	      "  --force                   use a netdev that carries non-test addresses\n"
	      "  --overwrite               replace existing capture and manifest files\n"
	      "  --no-manifest             no manifest and no payload hashes (benchmarks)\n"
	      "\n"
	      "`rpcrdma-agent COMMAND --help` gives each command's own options; man rpcrdma-agent.\n",
	      f);
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;

	if (!cmd) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(cmd, "drive"))
		return agent_cmd_drive(argc - 1, argv + 1);
	if (!strcmp(cmd, "serve"))
		return agent_cmd_serve(argc - 1, argv + 1);
	if (!strcmp(cmd, "proxy"))
		return agent_cmd_proxy(argc - 1, argv + 1);
	if (!strcmp(cmd, "verify"))
		return agent_cmd_verify(argc - 1, argv + 1);
	if (!strcmp(cmd, "replay"))
		return agent_cmd_replay(argc - 1, argv + 1);
	if (!strcmp(cmd, "setup"))
		return agent_cmd_setup(argc - 1, argv + 1);
	if (!strcmp(cmd, "cleanup"))
		return agent_cmd_cleanup(argc - 1, argv + 1);
	if (!strcmp(cmd, "list-injections")) {
		agent_list_injections();
		return 0;
	}
	fprintf(stderr, AGENT_NAME ": unknown command '%s'\n", cmd);
	usage(stderr);
	return 2;
}
