// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * setup_main.c - a stand-in for rpcrdma-agent's main() in the agent_setup
 * tests: the setup and cleanup subcommands (cleanup is also what the
 * signal reaper runs, through /proc/self/exe), plus what drive and serve
 * do with a run-scoped link, so that exit, signals and crashes can be
 * tested without RDMA.
 *
 *   setup_main setup ... | cleanup ...
 *   setup_main run KIND NETDEV [--wait | --crash]
 *       recover, install the signal cleanup, create a run-scoped link and
 *       print its name; then exit normally (atexit removes the link),
 *       wait for a signal, or die by SIGKILL (the next start removes it).
 *   setup_main netdev IBDEV          agent_netdev_for_device()
 *   setup_main is-test NETDEV        agent_netdev_is_test(): exit 0 or 1
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "netdev.h"
#include "runscope.h"
#include "setup.h"

static int cmd_run(int argc, char **argv)
{
	char dev[64], err[1024];

	if (argc < 3)
		return 2;
	agent_recover_stale();
	agent_install_signal_cleanup();
	if (!agent_link_create(argv[1], argv[2], true, dev, sizeof(dev), err, sizeof(err))) {
		fprintf(stderr, "setup_main: %s\n", err);
		return 1;
	}
	printf("%s\n", dev);
	fflush(stdout);
	if (argc > 3 && strcmp(argv[3], "--wait") == 0)
		for (;;)
			pause();
	if (argc > 3 && strcmp(argv[3], "--crash") == 0)
		raise(SIGKILL);
	return 0;
}

int main(int argc, char **argv)
{
	char buf[1024];

	if (argc < 2) {
		fprintf(stderr, "usage: setup_main setup|cleanup|run|netdev|is-test ...\n");
		return 2;
	}
	if (strcmp(argv[1], "setup") == 0)
		return agent_cmd_setup(argc - 1, argv + 1);
	if (strcmp(argv[1], "cleanup") == 0)
		return agent_cmd_cleanup(argc - 1, argv + 1);
	if (strcmp(argv[1], "run") == 0)
		return cmd_run(argc - 1, argv + 1);
	if (strcmp(argv[1], "netdev") == 0 && argc == 3) {
		char nd[64];

		if (!agent_netdev_for_device(argv[2], nd, sizeof(nd), buf, sizeof(buf))) {
			fprintf(stderr, "setup_main: %s\n", buf);
			return 1;
		}
		printf("%s\n", nd);
		return 0;
	}
	if (strcmp(argv[1], "is-test") == 0 && argc == 3) {
		if (!agent_netdev_is_test(argv[2], buf, sizeof(buf))) {
			fprintf(stderr, "setup_main: %s\n", buf);
			return 1;
		}
		return 0;
	}
	fprintf(stderr, "setup_main: unknown command %s\n", argv[1]);
	return 2;
}
