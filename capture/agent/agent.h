/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * agent.h - rpcrdma-agent: its name, and the subcommands that have no
 * header of their own (setup and cleanup: setup.h).
 *
 * One file per concern: main.c (dispatch), drive.c (requester), serve.c
 * (responder), proxy*.c (the relay: proxy.h), common.c (what drive and serve share), verbs.c (RDMA-CM
 * and verbs), live_capture.c (libpcap), payload.c (a Payload from the
 * pieces one end holds), kernel_target.c (the kernel NFS server as a
 * target), manifest_write.c and manifest_read.c (what was sent:
 * manifest.h), verify.c (engine against manifest), setup.c (the link
 * subcommands), runscope.c (a run's own links), linkstate.c (the
 * recorded links), netdev.c (device -> netdev, address safety), tool.c
 * (external tools, messages).
 */
#ifndef AGENT_H
#define AGENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define AGENT_NAME "rpcrdma-agent"

int agent_cmd_drive(int argc, char **argv);
int agent_cmd_serve(int argc, char **argv);
int agent_cmd_verify(int argc, char **argv);
int agent_cmd_proxy(int argc, char **argv);

#endif
