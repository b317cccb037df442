// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * netdev.c - which netdev an RDMA device rides on, and whether that netdev
 * is a lab network.  The agent injects protocol violations and creates
 * soft-RDMA links; both must stay off networks that carry real traffic,
 * so everything it does on a netdev with a routable address needs --force.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <ifaddrs.h>
#include <limits.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "netdev.h"
#include "tool.h"

struct test_prefix {
	uint8_t bytes[16];
	unsigned int bits;
};

static const struct test_prefix test_v4[] = {
	{ { 10 }, 8 },               /* RFC 1918 */
	{ { 172, 16 }, 12 },
	{ { 192, 168 }, 16 },
	{ { 192, 0, 2 }, 24 },       /* RFC 5737 TEST-NET-1..3 */
	{ { 198, 51, 100 }, 24 },
	{ { 203, 0, 113 }, 24 },
	{ { 198, 18 }, 15 },         /* RFC 2544 benchmarking */
	{ { 169, 254 }, 16 },        /* link-local */
	{ { 127 }, 8 },              /* loopback */
};

static const struct test_prefix test_v6[] = {
	{ { 0xfc }, 7 },                                  /* ULA */
	{ { 0xfe, 0x80 }, 10 },                           /* link-local */
	{ { 0x20, 0x01, 0x0d, 0xb8 }, 32 },               /* documentation */
	{ { [15] = 1 }, 128 },                            /* loopback */
};

static bool prefix_match(const uint8_t *a, const struct test_prefix *p)
{
	unsigned int full = p->bits / 8, rest = p->bits % 8;

	if (memcmp(a, p->bytes, full) != 0)
		return false;
	if (rest == 0)
		return true;
	uint8_t mask = (uint8_t)(0xff << (8 - rest));
	return (a[full] & mask) == (p->bytes[full] & mask);
}

bool agent_addr_is_test(int family, const void *addr)
{
	static const uint8_t v4mapped[12] = { [10] = 0xff, [11] = 0xff };
	const uint8_t *a = addr;
	size_t i;

	if (!addr)
		return false;
	if (family == AF_INET6 && memcmp(a, v4mapped, sizeof(v4mapped)) == 0) {
		/* ::ffff:a.b.c.d is the IPv4 address: judge it as one. */
		family = AF_INET;
		a += 12;
	}
	if (family == AF_INET) {
		for (i = 0; i < sizeof(test_v4) / sizeof(test_v4[0]); i++)
			if (prefix_match(a, &test_v4[i]))
				return true;
		return false;
	}
	if (family == AF_INET6) {
		for (i = 0; i < sizeof(test_v6) / sizeof(test_v6[0]); i++)
			if (prefix_match(a, &test_v6[i]))
				return true;
		return false;
	}
	return false;
}

const char *agent_sysfs_root(void)
{
	const char *r = getenv("RPCRDMA_AGENT_SYSFS");

	return r && *r ? r : "/sys";
}

/* A name we may paste into a sysfs path or an rdma command line. */
static bool plain_name(const char *s)
{
	if (!s || !*s || strlen(s) >= 64 || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
		return false;
	for (; *s; s++)
		if (*s == '/' || isspace((unsigned char)*s))
			return false;
	return true;
}

/* First line of a small file, blanks trimmed; false when empty or unreadable. */
static bool read_word(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	bool ok;

	if (!f)
		return false;
	/* Unused GID slots fail to read (EINVAL) on real sysfs. */
	ok = fgets(buf, (int)n, f) != NULL;
	fclose(f);
	if (!ok)
		return false;
	buf[strcspn(buf, " \t\r\n")] = '\0';
	return buf[0] != '\0';
}

static bool copy_name(char *dst, size_t n, const char *src)
{
	if (!plain_name(src) || strlen(src) >= n)
		return false;
	strcpy(dst, src);
	return true;
}

/*
 * rxe: every GID of port 1 names the netdev it came from; the lowest
 * readable slot is the default GID of the netdev the link was made on
 * (higher ones may be VLANs on top of it).
 */
static bool from_gid_ndevs(const char *dev, char *netdev, size_t n)
{
	char dir[PATH_MAX], path[PATH_MAX], name[64], best[64] = "";
	long best_idx = LONG_MAX;
	struct dirent *de;
	DIR *d;

	if (!agent_pathf(dir, sizeof(dir), "%s/class/infiniband/%s/ports/1/gid_attrs/ndevs",
		   agent_sysfs_root(), dev))
		return false;
	d = opendir(dir);
	if (!d)
		return false;
	while ((de = readdir(d)) != NULL) {
		char *end;
		long idx = strtol(de->d_name, &end, 10);

		if (!isdigit((unsigned char)de->d_name[0]) || *end || idx >= best_idx)
			continue;
		if (!agent_pathf(path, sizeof(path), "%s/%s", dir, de->d_name))
			continue;
		if (read_word(path, name, sizeof(name)) && plain_name(name)) {
			best_idx = idx;
			strcpy(best, name);
		}
	}
	closedir(d);
	return best[0] && copy_name(netdev, n, best);
}

/* siw (and hardware): the netdevs of the parent device; only if there is one. */
static bool from_device_net(const char *dev, char *netdev, size_t n, int *count)
{
	char dir[PATH_MAX], only[64] = "";
	struct dirent *de;
	DIR *d;

	*count = 0;
	if (!agent_pathf(dir, sizeof(dir), "%s/class/infiniband/%s/device/net", agent_sysfs_root(), dev))
		return false;
	d = opendir(dir);
	if (!d)
		return false;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (++*count == 1 && strlen(de->d_name) < sizeof(only))
			strcpy(only, de->d_name);
	}
	closedir(d);
	return *count == 1 && copy_name(netdev, n, only);
}

bool agent_netdev_from_rdma_json(const char *json, char *netdev, size_t n)
{
	const char *p = json ? strstr(json, "\"netdev\"") : NULL;
	const char *end;

	if (!p)
		return false;
	p += strlen("\"netdev\"");
	while (isspace((unsigned char)*p))
		p++;
	if (*p++ != ':')
		return false;
	while (isspace((unsigned char)*p))
		p++;
	if (*p++ != '"')
		return false;
	end = strchr(p, '"');
	if (!end || end == p || (size_t)(end - p) >= n)
		return false;
	memcpy(netdev, p, (size_t)(end - p));
	netdev[end - p] = '\0';
	return plain_name(netdev);
}

/* iproute2 knows even when sysfs does not say (siw on a virtual netdev). */
static bool from_rdma_tool(const char *dev, char *netdev, size_t n, char *why, size_t whylen)
{
	char port[80], out[4096], err[256];
	char *argv[] = { (char *)agent_rdma_tool(), "-j", "link", "show", port, NULL };
	int rc;

	agent_msgf(port, sizeof(port), "%s/1", dev);     /* dev is under 64 bytes */
	rc = agent_tool_run(argv, 10000, out, sizeof(out), err, sizeof(err));
	if (rc < 0) {
		agent_msgf(why, whylen, "%s", err);
		return false;
	}
	if (rc != 0) {
		agent_msgf(why, whylen, "`%s -j link show %s` failed (exit %d): %.120s",
			 argv[0], port, rc, out);
		return false;
	}
	if (!agent_netdev_from_rdma_json(out, netdev, n)) {
		agent_msgf(why, whylen, "`%s -j link show %s` names no netdev", argv[0], port);
		return false;
	}
	return true;
}

bool agent_netdev_for_device(const char *ibdev, char *netdev, size_t n, char *err, size_t errlen)
{
	char path[PATH_MAX], why[400];
	struct stat st;
	int count = 0;

	if (!plain_name(ibdev)) {
		agent_msgf(err, errlen, "\"%s\" is not an RDMA device name", ibdev ? ibdev : "");
		return false;
	}
	if (agent_pathf(path, sizeof(path), "%s/class/infiniband", agent_sysfs_root()) &&
	    stat(path, &st) == 0) {
		/* sysfs is there: a device it does not list does not exist. */
		if (!agent_pathf(path, sizeof(path), "%s/class/infiniband/%s", agent_sysfs_root(), ibdev) ||
		    stat(path, &st) != 0) {
			agent_msgf(err, errlen, "no RDMA device %s (%s does not exist; `rdma link show` lists them)",
				 ibdev, path);
			return false;
		}
		if (from_gid_ndevs(ibdev, netdev, n))
			return true;
		if (from_device_net(ibdev, netdev, n, &count))
			return true;
	}
	if (from_rdma_tool(ibdev, netdev, n, why, sizeof(why)))
		return true;
	agent_msgf(err, errlen,
		 "cannot tell which netdev carries RDMA device %s: sysfs names %s (gid_attrs/ndevs of port 1, "
		 "device/net), and %s",
		 ibdev, count > 1 ? "several" : "none", why);
	return false;
}

static void not_test(const char *netdev, const char *text, char *why, size_t whylen)
{
	agent_msgf(why, whylen,
		 "netdev %s carries %s, which is not a test address (RFC 1918, RFC 5737, RFC 2544, "
		 "loopback, link-local, IPv6 ULA or documentation prefix), so an RDMA link or injected "
		 "traffic there could reach a real network; pass --force to use it anyway",
		 netdev, text);
}

/*
 * Test-only: RPCRDMA_AGENT_ADDRS="eth0=192.0.2.1,fe80::1;eth1=" replaces
 * getifaddrs() for the netdevs it lists (an empty list: no address), so
 * the refusal can be tested without owning a routable address.
 * 1: listed and all test, 0: listed and refused (why set), -1: not listed.
 */
static int judge_env(const char *netdev, char *why, size_t whylen)
{
	const char *env = getenv("RPCRDMA_AGENT_ADDRS");
	char *copy, *save1 = NULL, *entry;
	int result = -1;

	if (!env || !*env)
		return -1;
	copy = strdup(env);
	if (!copy) {
		agent_msgf(why, whylen, "out of memory");
		return 0;
	}
	for (entry = strtok_r(copy, ";", &save1); entry && result < 0;
	     entry = strtok_r(NULL, ";", &save1)) {
		char *eq = strchr(entry, '='), *save2 = NULL, *a;

		if (!eq)
			continue;
		*eq = '\0';
		if (strcmp(entry, netdev) != 0)
			continue;
		result = 1;
		for (a = strtok_r(eq + 1, ",", &save2); a && result == 1; a = strtok_r(NULL, ",", &save2)) {
			unsigned char buf[16];

			a[strcspn(a, "%/ ")] = '\0';    /* zone and prefix length */
			if (!*a)
				continue;
			if (inet_pton(AF_INET, a, buf) == 1) {
				if (!agent_addr_is_test(AF_INET, buf)) {
					not_test(netdev, a, why, whylen);
					result = 0;
				}
			} else if (inet_pton(AF_INET6, a, buf) == 1) {
				if (!agent_addr_is_test(AF_INET6, buf)) {
					not_test(netdev, a, why, whylen);
					result = 0;
				}
			} else {
				agent_msgf(why, whylen, "RPCRDMA_AGENT_ADDRS: \"%s\" is not an IPv4 or IPv6 address", a);
				result = 0;
			}
		}
	}
	free(copy);
	return result;
}

bool agent_netdev_is_test(const char *netdev, char *why, size_t whylen)
{
	struct ifaddrs *ifa, *i;
	bool ok = true;
	int r;

	if (!plain_name(netdev)) {
		agent_msgf(why, whylen, "\"%s\" is not a netdev name", netdev ? netdev : "");
		return false;
	}
	r = judge_env(netdev, why, whylen);
	if (r >= 0)
		return r == 1;
	if (if_nametoindex(netdev) == 0) {
		agent_msgf(why, whylen, "no network interface named %s (`ip link` lists them)", netdev);
		return false;
	}
	if (getifaddrs(&ifa) != 0) {
		agent_msgf(why, whylen, "cannot list the addresses of %s: getifaddrs: %s", netdev, strerror(errno));
		return false;
	}
	for (i = ifa; i && ok; i = i->ifa_next) {
		char text[INET6_ADDRSTRLEN];
		const void *a;
		int fam;

		if (!i->ifa_addr || !i->ifa_name || strcmp(i->ifa_name, netdev) != 0)
			continue;
		fam = i->ifa_addr->sa_family;
		if (fam == AF_INET)
			a = &((const struct sockaddr_in *)(const void *)i->ifa_addr)->sin_addr;
		else if (fam == AF_INET6)
			a = &((const struct sockaddr_in6 *)(const void *)i->ifa_addr)->sin6_addr;
		else
			continue;
		if (!agent_addr_is_test(fam, a)) {
			if (!inet_ntop(fam, a, text, sizeof(text)))
				strcpy(text, "an address");
			not_test(netdev, text, why, whylen);
			ok = false;
		}
	}
	freeifaddrs(ifa);
	return ok;
}
