// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_netdev.c - the agent's netdev safety check and device -> netdev
 * lookup.  Addresses: both sides of every range boundary.  Lookup: a fake
 * sysfs tree (RPCRDMA_AGENT_SYSFS) shaped like rxe's and siw's, and the
 * fake rdma(8) given as argv[1] for the `rdma -j link show` fallback.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "agent.h"
#include "netdev.h"

static const char *fake_rdma;
static char root[] = "/tmp/agent-netdev-XXXXXX";

struct addr_case {
	const char *text;
	bool test;
};

static const struct addr_case v4_cases[] = {
	{ "10.0.0.0", true }, { "10.255.255.255", true }, { "9.255.255.255", false }, { "11.0.0.1", false },
	{ "172.16.0.0", true }, { "172.31.255.255", true },
	{ "172.15.255.255", false }, { "172.32.0.0", false },
	{ "192.168.0.1", true }, { "192.168.255.255", true },
	{ "192.167.255.255", false }, { "192.169.0.0", false },
	{ "192.0.2.0", true }, { "192.0.2.255", true }, { "192.0.1.255", false }, { "192.0.3.0", false },
	{ "198.51.100.0", true }, { "198.51.100.255", true },
	{ "198.51.99.255", false }, { "198.51.101.0", false },
	{ "203.0.113.0", true }, { "203.0.113.255", true },
	{ "203.0.112.255", false }, { "203.0.114.0", false },
	{ "198.18.0.0", true }, { "198.19.255.255", true },
	{ "198.17.255.255", false }, { "198.20.0.0", false },
	{ "169.254.0.0", true }, { "169.254.255.255", true },
	{ "169.253.255.255", false }, { "169.255.0.0", false },
	{ "127.0.0.1", true }, { "127.255.255.255", true },
	{ "126.255.255.255", false }, { "128.0.0.0", false },
	/* Not test ranges, though special: CGNAT, public DNS, multicast, any, broadcast. */
	{ "100.64.0.1", false }, { "8.8.8.8", false }, { "224.0.0.1", false },
	{ "0.0.0.0", false }, { "255.255.255.255", false },
};

static const struct addr_case v6_cases[] = {
	{ "fc00::", true }, { "fd12:3456::1", true }, { "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", true },
	{ "fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", false }, { "fe00::", false },
	{ "fe80::1", true }, { "febf:ffff::1", true }, { "fe7f:ffff::1", false }, { "fec0::1", false },
	{ "2001:db8::", true }, { "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff", true },
	{ "2001:db7:ffff:ffff:ffff:ffff:ffff:ffff", false }, { "2001:db9::1", false },
	{ "::1", true }, { "::", false }, { "::2", false },
	{ "::ffff:10.1.2.3", true }, { "::ffff:127.0.0.1", true }, { "::ffff:8.8.8.8", false },
	{ "::ffff:172.32.0.0", false },
	{ "2001:4860:4860::8888", false }, { "ff02::1", false }, { "2002::1", false },
	{ "64:ff9b::a00:1", false },
};

static void test_addr_ranges(void **state)
{
	unsigned char buf[16];
	size_t i;

	for (i = 0; i < sizeof(v4_cases) / sizeof(v4_cases[0]); i++) {
		assert_int_equal(inet_pton(AF_INET, v4_cases[i].text, buf), 1);
		if (agent_addr_is_test(AF_INET, buf) != v4_cases[i].test)
			fail_msg("%s: want %s", v4_cases[i].text, v4_cases[i].test ? "test" : "not test");
	}
	for (i = 0; i < sizeof(v6_cases) / sizeof(v6_cases[0]); i++) {
		assert_int_equal(inet_pton(AF_INET6, v6_cases[i].text, buf), 1);
		if (agent_addr_is_test(AF_INET6, buf) != v6_cases[i].test)
			fail_msg("%s: want %s", v6_cases[i].text, v6_cases[i].test ? "test" : "not test");
	}
	memset(buf, 0, sizeof(buf));
	buf[0] = 10;
	assert_false(agent_addr_is_test(AF_UNIX, buf));
	assert_false(agent_addr_is_test(AF_INET, NULL));
}

static void test_rdma_json(void **state)
{
	char nd[16];

	assert_true(agent_netdev_from_rdma_json(
		"[{\"ifindex\":3,\"ifname\":\"siw0\",\"port\":1,\"state\":\"ACTIVE\",\"physical_state\":"
		"\"LINK_UP\",\"netdev\":\"eth1\",\"netdev_index\":3}]\n", nd, sizeof(nd)));
	assert_string_equal(nd, "eth1");
	assert_true(agent_netdev_from_rdma_json("[{\"netdev_index\":3, \"netdev\" : \"ens3f0\"}]", nd, sizeof(nd)));
	assert_string_equal(nd, "ens3f0");
	assert_false(agent_netdev_from_rdma_json("[{\"ifname\":\"siw0\",\"netdev_index\":3}]", nd, sizeof(nd)));
	assert_false(agent_netdev_from_rdma_json("[{\"netdev\":\"\"}]", nd, sizeof(nd)));
	assert_false(agent_netdev_from_rdma_json("[{\"netdev\":\"../etc\"}]", nd, sizeof(nd)));
	assert_false(agent_netdev_from_rdma_json("[{\"netdev\":\"a-very-long-netdev\"}]", nd, 8));
	assert_false(agent_netdev_from_rdma_json(NULL, nd, sizeof(nd)));
}

static void put(const char *rel, const char *content)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s/%s')\"", root, rel);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (!content) {
		assert_int_equal(mkdir(path, 0755), 0);
		return;
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

static int make_tree(void **state)
{
	assert_non_null(mkdtemp(root));
	setenv("RPCRDMA_AGENT_SYSFS", root, 1);
	/* rxe: unused GID slots read as nothing; numeric order, not name order. */
	put("class/infiniband/rxe0/ports/1/gid_attrs/ndevs/0", "");
	put("class/infiniband/rxe0/ports/1/gid_attrs/ndevs/1", "\n");
	put("class/infiniband/rxe0/ports/1/gid_attrs/ndevs/10", "eth10\n");
	put("class/infiniband/rxe0/ports/1/gid_attrs/ndevs/2", "eth2\n");
	put("class/infiniband/rxe0/ports/1/gid_attrs/ndevs/3", "eth2.100\n");
	put("class/infiniband/rxe1/ports/1/gid_attrs/ndevs/0", "eth0\n");
	/* siw: no GID netdevs; the parent device's net/, or only rdma(8) knows. */
	put("class/infiniband/siw0/ports/1/gid_attrs/ndevs", NULL);
	put("class/infiniband/siw0/device/net/ens3", NULL);
	put("class/infiniband/siw1/device/net/ens4f0", NULL);
	put("class/infiniband/siw1/device/net/ens4f1", NULL);
	put("class/infiniband/siw2/.netdev", "eth7\n");
	return 0;
}

static int remove_tree(void **state)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_lookup_sysfs(void **state)
{
	char nd[32], err[1024];

	setenv("RPCRDMA_AGENT_RDMA", "/nonexistent/rdma", 1);
	assert_true(agent_netdev_for_device("rxe0", nd, sizeof(nd), err, sizeof(err)));
	assert_string_equal(nd, "eth2");
	assert_true(agent_netdev_for_device("rxe1", nd, sizeof(nd), err, sizeof(err)));
	assert_string_equal(nd, "eth0");
	assert_true(agent_netdev_for_device("siw0", nd, sizeof(nd), err, sizeof(err)));
	assert_string_equal(nd, "ens3");

	/* Two netdevs under the parent and no rdma tool: no guess. */
	assert_false(agent_netdev_for_device("siw1", nd, sizeof(nd), err, sizeof(err)));
	assert_non_null(strstr(err, "siw1"));
	assert_non_null(strstr(err, "several"));
	assert_non_null(strstr(err, "iproute2"));

	assert_false(agent_netdev_for_device("nosuch0", nd, sizeof(nd), err, sizeof(err)));
	assert_non_null(strstr(err, "no RDMA device nosuch0"));
	assert_false(agent_netdev_for_device("../rxe0", nd, sizeof(nd), err, sizeof(err)));
	assert_false(agent_netdev_for_device("", nd, sizeof(nd), err, sizeof(err)));
	/* Too small a buffer is a failure, not a cut name. */
	assert_false(agent_netdev_for_device("rxe0", nd, 4, err, sizeof(err)));
}

static void test_lookup_rdma_tool(void **state)
{
	char nd[32], err[1024], other[600];

	setenv("RPCRDMA_AGENT_RDMA", fake_rdma, 1);
	setenv("FAKE_RDMA_LOG", "/dev/null", 1);
	assert_true(agent_netdev_for_device("siw2", nd, sizeof(nd), err, sizeof(err)));
	assert_string_equal(nd, "eth7");
	/* The fake knows nothing of siw1: its failure is in the sentence. */
	assert_false(agent_netdev_for_device("siw1", nd, sizeof(nd), err, sizeof(err)));
	assert_non_null(strstr(err, "Wrong device name"));

	/* No class/infiniband at all (sysfs not mounted): rdma(8) is asked. */
	snprintf(other, sizeof(other), "%s/empty", root);
	assert_int_equal(mkdir(other, 0755), 0);
	setenv("RPCRDMA_AGENT_SYSFS", other, 1);
	snprintf(other, sizeof(other), "%s/class/infiniband", root);
	setenv("FAKE_RDMA_DB", other, 1);
	nd[0] = '\0';
	assert_true(agent_netdev_for_device("siw2", nd, sizeof(nd), err, sizeof(err)));
	assert_string_equal(nd, "eth7");
	unsetenv("FAKE_RDMA_DB");
	setenv("RPCRDMA_AGENT_SYSFS", root, 1);
	unsetenv("RPCRDMA_AGENT_RDMA");
}

static void test_netdev_addresses(void **state)
{
	char why[1024];

	setenv("RPCRDMA_AGENT_ADDRS",
	       "t0=10.1.2.3,fe80::1%t0,192.0.2.7/24;t1=172.32.0.1;t2=;t3=garbage;t4=fd00::1,2001:db9::1", 1);
	assert_true(agent_netdev_is_test("t0", why, sizeof(why)));
	assert_false(agent_netdev_is_test("t1", why, sizeof(why)));
	assert_non_null(strstr(why, "t1"));
	assert_non_null(strstr(why, "172.32.0.1"));
	assert_non_null(strstr(why, "--force"));
	assert_true(agent_netdev_is_test("t2", why, sizeof(why)));
	assert_false(agent_netdev_is_test("t3", why, sizeof(why)));
	assert_non_null(strstr(why, "garbage"));
	assert_false(agent_netdev_is_test("t4", why, sizeof(why)));
	assert_non_null(strstr(why, "2001:db9::1"));
	/* Not listed: the real addresses (lo carries loopback ones only). */
	assert_true(agent_netdev_is_test("lo", why, sizeof(why)));
	unsetenv("RPCRDMA_AGENT_ADDRS");
	assert_true(agent_netdev_is_test("lo", why, sizeof(why)));
	assert_false(agent_netdev_is_test("nosuchif9", why, sizeof(why)));
	assert_non_null(strstr(why, "no network interface named nosuchif9"));
	assert_false(agent_netdev_is_test("../lo", why, sizeof(why)));
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_addr_ranges),
		cmocka_unit_test(test_rdma_json),
		cmocka_unit_test(test_lookup_sysfs),
		cmocka_unit_test(test_lookup_rdma_tool),
		cmocka_unit_test(test_netdev_addresses),
	};

	if (argc != 2) {
		fprintf(stderr, "usage: test_agent_netdev FAKE_RDMA\n");
		return 2;
	}
	fake_rdma = argv[1];
	return cmocka_run_group_tests(tests, make_tree, remove_tree);
}
