/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * agent.h - rpcrdma-agent: the subcommands and the services they share.
 *
 * One file per concern: main.c (dispatch), drive.c (requester), serve.c
 * (responder), verbs.c (RDMA-CM and verbs), live_capture.c (libpcap),
 * manifest.c (what was sent), verify.c (engine against manifest),
 * setup.c (rxe/siw links, cleanup), netdev.c (device -> netdev, address
 * safety).
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
int agent_cmd_setup(int argc, char **argv);
int agent_cmd_cleanup(int argc, char **argv);

/* ---- netdev.c ---- */
/* The netdev that carries RDMA device ibdev's traffic (sysfs). */
bool agent_netdev_for_device(const char *ibdev, char *netdev, size_t n, char *err, size_t errlen);
/*
 * Whether every address on netdev is a test address (RFC 1918, RFC 5737,
 * RFC 2544, link-local, IPv6 ULA / documentation / link-local).  false
 * with a sentence naming the address otherwise.
 */
bool agent_netdev_is_test(const char *netdev, char *why, size_t whylen);

/* ---- setup.c ---- */
/*
 * Run-scoped resources: links an agent run created for itself are
 * recorded in a state file (with the owner's pid) and removed at exit, on
 * SIGINT/SIGTERM, and by the next start when the owner died.
 */
void agent_recover_stale(void);          /* call first in every subcommand that touches RDMA */
void agent_install_signal_cleanup(void); /* SIGINT/SIGTERM: clean up, then exit 128+sig */
/* Create an rxe/siw link on netdev for this run (kind "rxe" or "siw"); name out. */
bool agent_link_create(const char *kind, const char *netdev, bool run_scoped,
		       char *ibdev, size_t n, char *err, size_t errlen);
void agent_cleanup_run(void);            /* remove this run's links (atexit-safe) */

#endif
