/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * setup.h - the link subcommands of rpcrdma-agent (docs/rpcrdma-agent.8):
 *
 *   setup --rxe NETDEV | --siw NETDEV [--name IBDEV] [--force]
 *       creates a persistent soft-RDMA link on a netdev that carries only
 *       test addresses (unless --force) and prints its name;
 *   cleanup [--all]
 *       removes the links the state file records (linkstate.h), those of
 *       running agents only with --all.  Hidden: --recover (what every
 *       start does) and --reap PID (the reaper, runscope.h).
 *
 * argv[0] is the subcommand's name.  Exit status 0, 1 failure, 2 usage.
 */
#ifndef AGENT_SETUP_H
#define AGENT_SETUP_H

int agent_cmd_setup(int argc, char **argv);
int agent_cmd_cleanup(int argc, char **argv);

#endif
