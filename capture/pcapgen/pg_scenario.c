// SPDX-License-Identifier: GPL-2.0-or-later
#include "pg_scenario_priv.h"

#include <stdio.h>
#include <string.h>

static const pg_link_info links[] = {
	{ "ib", false, true, false, false, PG_L2_IB, PG_L3_NONE, false, false, 247 },
	{ "ib-grh", false, true, true, false, PG_L2_IB, PG_L3_NONE, false, false, 247 },
	{ "erf-ib", false, true, false, true, PG_L2_IB, PG_L3_NONE, false, false, 197 },
	{ "rocev1", false, false, true, false, PG_L2_ETH, PG_L3_NONE, false, false, 1 },
	{ "rocev2", false, false, false, false, PG_L2_ETH, PG_L3_IPV4, false, false, 1 },
	{ "rocev2-ipv6", false, false, false, false, PG_L2_ETH, PG_L3_IPV6, false, false, 1 },
	{ "rocev2-vlan", false, false, false, false, PG_L2_VLAN, PG_L3_IPV4, false, false, 1 },
	{ "rocev2-sll", false, false, false, false, PG_L2_SLL, PG_L3_IPV4, false, false, 113 },
	{ "rocev2-sll2", false, false, false, false, PG_L2_SLL2, PG_L3_IPV4, false, false, 276 },
	{ "iwarp", true, false, false, false, PG_L2_ETH, PG_L3_IPV4, false, false, 1 },
	{ "iwarp-ipv6", true, false, false, false, PG_L2_ETH, PG_L3_IPV6, false, false, 1 },
	{ "iwarp-crc", true, false, false, false, PG_L2_ETH, PG_L3_IPV4, true, false, 1 },
	{ "iwarp-markers", true, false, false, false, PG_L2_ETH, PG_L3_IPV4, true, true, 1 },
	{ "iwarp-sll", true, false, false, false, PG_L2_SLL, PG_L3_IPV4, false, false, 113 },
};

const pg_link_info *pg_link_by_name(const char *name)
{
	for (size_t i = 0; i < G_N_ELEMENTS(links); i++)
		if (strcmp(links[i].name, name) == 0)
			return &links[i];
	return NULL;
}

const pg_link_info *pg_link_at(int idx)
{
	return (idx >= 0 && idx < (int)G_N_ELEMENTS(links)) ? &links[idx] : NULL;
}

int pg_link_count(void)
{
	return (int)G_N_ELEMENTS(links);
}

bool pg_item_is_v4(const pg_item *it)
{
	return it->nfsver != PG_V3;
}

/* ---------------------------------------------------------------------- */

static bool global_directive(pctx *c, char **argv, int argc, bool *handled)
{
	pg_scenario *s = c->s;
	const char *d = argv[0];
	*handled = true;
	if (!strcmp(d, "link") || !strcmp(d, "mtu") || !strcmp(d, "handshake") ||
	    !strcmp(d, "format") || !strcmp(d, "seed") || !strcmp(d, "psn-start") ||
	    !strcmp(d, "credits") || !strcmp(d, "inline") || !strcmp(d, "remote-invalidate") ||
	    !strcmp(d, "mpa-rev") || !strcmp(d, "mss") || !strcmp(d, "fpdu-max") ||
	    !strcmp(d, "tcp-seg") || !strcmp(d, "snaplen") || !strcmp(d, "disconnect") ||
	    !strcmp(d, "inline-check") || !strcmp(d, "expect") || !strcmp(d, "profile") ||
	    !strcmp(d, "port")) {
		if (argc != 2)
			return pg_fail(c, "%s: expected exactly one value", d);
	} else {
		*handled = false;
		return true;
	}
	if (!strcmp(d, "link")) {
		s->link = pg_link_by_name(argv[1]);
		if (!s->link)
			return pg_fail(c, "unknown link type '%s'", argv[1]);
		return true;
	}
	if (!strcmp(d, "mtu")) {
		s->mtu_line = c->line;
		return pg_num32(c, d, argv[1], 256, 9216, &s->mtu);
	}
	if (!strcmp(d, "handshake"))
		return pg_onoff(c, d, argv[1], &s->handshake);
	if (!strcmp(d, "disconnect"))
		return pg_onoff(c, d, argv[1], &s->disconnect);
	if (!strcmp(d, "remote-invalidate"))
		return pg_onoff(c, d, argv[1], &s->remote_inv);
	if (!strcmp(d, "inline-check"))
		return pg_onoff(c, d, argv[1], &s->inline_check);
	if (!strcmp(d, "port")) {
		uint32_t v;
		if (!pg_num32(c, d, argv[1], 1, 65535, &v))
			return false;
		s->port = (uint16_t)v;
		return true;
	}
	if (!strcmp(d, "profile")) {
		if (strcmp(argv[1], "rfc8166") && strcmp(argv[1], "rfc5666"))
			return pg_fail(c, "profile: expected rfc8166 or rfc5666");
		s->rfc5666 = !strcmp(argv[1], "rfc5666");
		return true;
	}
	if (!strcmp(d, "expect")) {
		if (!strcmp(argv[1], "auto")) {
			s->expect_always = false;
			return true;
		}
		return pg_onoff(c, d, argv[1], &s->expect_always);
	}
	if (!strcmp(d, "format")) {
		if (!strcmp(argv[1], "pcap"))
			s->format = PG_FMT_PCAP;
		else if (!strcmp(argv[1], "pcapng"))
			s->format = PG_FMT_PCAPNG;
		else
			return pg_fail(c, "format: expected pcap or pcapng");
		return true;
	}
	if (!strcmp(d, "seed"))
		return pg_num(c, d, argv[1], 0, UINT64_MAX, &s->seed);
	if (!strcmp(d, "psn-start")) {
		if (!strcmp(argv[1], "random")) {
			s->psn_mode = PG_PSN_RANDOM;
			return true;
		}
		if (!strcmp(argv[1], "wrap")) {
			s->psn_mode = PG_PSN_WRAP;
			return true;
		}
		s->psn_mode = PG_PSN_FIXED;
		return pg_num32(c, d, argv[1], 0, 0xffffff, &s->psn);
	}
	if (!strcmp(d, "credits"))
		return pg_num32(c, d, argv[1], 1, 65535, &s->credits);
	if (!strcmp(d, "inline")) {
		/* RFC 8797 encodes sizes in 1 KiB units, 1..256 KiB. */
		if (!pg_num32(c, d, argv[1], 1024, 262144, &s->inline_max))
			return false;
		if (s->inline_max % 1024)
			return pg_fail(c, "inline: must be a multiple of 1024 (RFC 8797 encoding)");
		return true;
	}
	if (!strcmp(d, "mpa-rev")) {
		uint32_t v;
		if (!pg_num32(c, d, argv[1], 1, 2, &v))
			return false;
		s->mpa_rev = (int)v;
		return true;
	}
	if (!strcmp(d, "mss"))
		return pg_num32(c, d, argv[1], 64, 9000, &s->mss);
	if (!strcmp(d, "fpdu-max"))
		return pg_num32(c, d, argv[1], 64, 65000, &s->fpdu_max);
	if (!strcmp(d, "snaplen"))
		return pg_num32(c, d, argv[1], 64, 262144, &s->snaplen);
	if (!strcmp(d, "tcp-seg")) {
		if (!strcmp(argv[1], "stream"))
			s->tcp_seg = PG_SEG_STREAM;
		else if (!strcmp(argv[1], "aligned"))
			s->tcp_seg = PG_SEG_ALIGNED;
		else
			return pg_fail(c, "tcp-seg: expected stream or aligned");
		return true;
	}
	return pg_fail(c, "unhandled directive '%s'", d);
}

/* Connection-level lines: "reconnect" and "pause MS". They are no target
 * for "inject", which keeps aiming at the message line before them. */
static bool parse_conn_line(pctx *c, char **argv, int argc)
{
	pg_item *it;
	bool recon = !strcmp(argv[0], "reconnect");
	if (recon && argc != 1)
		return pg_fail(c, "reconnect takes no arguments");
	if (!recon && argc != 2)
		return pg_fail(c, "usage: pause MS");
	it = pg_item_new(c->line, recon ? PG_ITEM_RECONNECT : PG_ITEM_PAUSE);
	if (!recon && !pg_num32(c, "pause", argv[1], 0, 3600000, &it->pause_ms)) {
		pg_item_free(it);
		return false;
	}
	c->s->reconnects += recon;
	g_ptr_array_add(c->s->items, it);
	return true;
}

static bool parse_line(pctx *c, char *line)
{
	char *hash = strchr(line, '#');
	gchar **argv;
	int argc;
	bool ok = true, handled;
	if (hash)
		*hash = '\0';
	g_strstrip(line);
	if (!*line)
		return true;
	argv = g_strsplit_set(line, " \t", 0);
	/* drop empty tokens produced by repeated blanks */
	argc = 0;
	for (int i = 0; argv[i]; i++) {
		if (*argv[i])
			argv[argc++] = argv[i];
		else
			g_free(argv[i]);
	}
	argv[argc] = NULL;
	ok = global_directive(c, argv, argc, &handled);
	if (ok && !handled) {
		if (!strcmp(argv[0], "rpc"))
			ok = pg_parse_rpc(c, argv, argc, false);
		else if (!strcmp(argv[0], "cb"))
			ok = pg_parse_rpc(c, argv, argc, true);
		else if (!strcmp(argv[0], "done"))
			ok = pg_parse_done(c, argv, argc);
		else if (!strcmp(argv[0], "error"))
			ok = pg_parse_error(c, argv, argc);
		else if (!strcmp(argv[0], "terminate"))
			ok = pg_parse_terminate(c, argv, argc);
		else if (!strcmp(argv[0], "inject"))
			ok = pg_parse_inject(c, argv, argc);
		else if (!strcmp(argv[0], "reconnect") || !strcmp(argv[0], "pause"))
			ok = parse_conn_line(c, argv, argc);
		else
			ok = pg_fail(c, "unknown directive '%s'", argv[0]);
	}
	g_strfreev(argv);
	return ok;
}

pg_scenario *pg_scenario_load(const char *path, char **err)
{
	pg_scenario *s = g_new0(pg_scenario, 1);
	pctx c = { path, 0, err, s, NULL };
	gchar *text = NULL;
	gsize len = 0;
	GError *gerr = NULL;
	gchar **lines;
	bool ok = true;

	*err = NULL;
	s->path = g_strdup(path);
	s->link = pg_link_by_name("rocev2");
	s->handshake = true;
	s->disconnect = true;
	s->format = PG_FMT_PCAP;
	s->seed = 1;
	s->credits = 128;
	s->inline_max = 4096;
	s->remote_inv = true;
	s->inline_check = true;
	s->mpa_rev = 2;
	s->port = PG_NFS_RDMA_PORT_DEFAULT;
	s->snaplen = 262144;
	s->items = g_ptr_array_new_with_free_func(pg_item_free);

	if (!g_file_get_contents(path, &text, &len, &gerr)) {
		*err = g_strdup_printf("%s: %s", path, gerr->message);
		g_error_free(gerr);
		pg_scenario_free(s);
		return NULL;
	}
	if (len > 4u * 1024 * 1024 || memchr(text, '\0', len)) {
		*err = g_strdup_printf("%s:1: not a scenario text file", path);
		g_free(text);
		pg_scenario_free(s);
		return NULL;
	}
	lines = g_strsplit(text, "\n", 0);
	for (int i = 0; ok && lines[i]; i++) {
		c.line = i + 1;
		ok = parse_line(&c, lines[i]);
		if (ok && s->items->len > PG_MAX_ITEMS)
			ok = pg_fail(&c, "more than %u messages", PG_MAX_ITEMS);
	}
	g_strfreev(lines);
	g_free(text);
	if (!ok) {
		pg_scenario_free(s);
		return NULL;
	}
	return s;
}

bool pg_scenario_finish(pg_scenario *s, char **err)
{
	*err = NULL;
	if (!s->link->iwarp) {
		if (!s->mtu)
			s->mtu = 1024;
		if (s->mtu != 256 && s->mtu != 512 && s->mtu != 1024 && s->mtu != 2048 &&
		    s->mtu != 4096) {
			if (s->mtu_line)
				*err = g_strdup_printf("%s:%d: mtu %u is not an InfiniBand path MTU "
						       "(256, 512, 1024, 2048 or 4096) for link %s",
						       s->path, s->mtu_line, s->mtu, s->link->name);
			else
				*err = g_strdup_printf("rpcrdma-pcapgen: --mtu %u is not an InfiniBand "
						       "path MTU (256, 512, 1024, 2048 or 4096) for "
						       "link %s", s->mtu, s->link->name);
			return false;
		}
	} else if (!s->mtu) {
		s->mtu = 1500;
	}
	return true;
}

void pg_scenario_free(pg_scenario *s)
{
	if (!s)
		return;
	if (s->items)
		g_ptr_array_free(s->items, TRUE);
	g_free(s->path);
	g_free(s);
}
