/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * netdev.h - which netdev an RDMA device rides on, and whether a netdev is
 * a lab network.  The agent injects protocol violations and creates
 * soft-RDMA links; both must stay off networks that carry real traffic.
 * The pure parts (address ranges, rdma(8) output) are here for the unit
 * tests (tests/agent_setup/test_netdev.c) too.
 */
#ifndef AGENT_NETDEV_H
#define AGENT_NETDEV_H

#include <stdbool.h>
#include <stddef.h>

/* The netdev that carries RDMA device ibdev's traffic (sysfs, else `rdma link show`). */
bool agent_netdev_for_device(const char *ibdev, char *netdev, size_t n, char *err, size_t errlen);
/*
 * Whether every address on netdev is a test address (RFC 1918, RFC 5737,
 * RFC 2544, link-local, IPv6 ULA / documentation / link-local).  false
 * with a sentence naming the address otherwise.
 */
bool agent_netdev_is_test(const char *netdev, char *why, size_t whylen);

/*
 * Whether one address (family AF_INET: struct in_addr, AF_INET6: struct
 * in6_addr, both in network byte order) lies in a range that cannot carry
 * anybody's production traffic:
 *   IPv4 10/8, 172.16/12, 192.168/16 (RFC 1918), 192.0.2/24, 198.51.100/24,
 *        203.0.113/24 (RFC 5737), 198.18/15 (RFC 2544), 169.254/16, 127/8;
 *   IPv6 fc00::/7, fe80::/10, 2001:db8::/32, ::1, and ::ffff:a.b.c.d when
 *        the IPv4 address is one of the above.
 * Any other family: false.
 */
bool agent_addr_is_test(int family, const void *addr);

/*
 * The "netdev" of the first object in `rdma -j link show DEV/PORT` output
 * (iproute2), e.g. [{"ifindex":3,"ifname":"siw0","port":1,...,"netdev":
 * "eth1","netdev_index":3}].  false when absent or longer than n - 1.
 */
bool agent_netdev_from_rdma_json(const char *json, char *netdev, size_t n);

/* "/sys", or $RPCRDMA_AGENT_SYSFS (a fake tree for the tests). */
const char *agent_sysfs_root(void);

#endif
