// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rpcrdma-pcapgen: deterministic RPC-over-RDMA capture generator, the test
 * oracle for the rpcrdma-toolkit decoder. See docs/pcapgen.md.
 */
#include "pg_cap.h"
#include "pg_gen.h"
#include "pg_inject.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DLT_EN10MB_ 1

static void usage(FILE *f)
{
	fputs("usage: rpcrdma-pcapgen [--link TYPE] [--handshake|--no-handshake]\n"
	      "                       [--format pcap|pcapng] [--mtu N] [--seed N]\n"
	      "                       [--encap erspan2|erspan3|gre|vxlan[,OPTION...]]\n"
	      "                       SCENARIO -o OUT.pcap --truth OUT.json\n"
	      "       rpcrdma-pcapgen --list-links | --list-injectors\n"
	      "Command-line options override the scenario's settings.\n", f);
}

static int bad_usage(const char *msg, const char *arg)
{
	fprintf(stderr, "rpcrdma-pcapgen: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
	usage(stderr);
	return 2;
}

int main(int argc, char **argv)
{
	const char *scn = NULL, *out = NULL, *truth = NULL, *link = NULL, *format = NULL;
	const char *mtu = NULL, *seed = NULL, *encap_arg = NULL;
	pg_encap encap = { .kind = PG_ENCAP_NONE };
	int handshake = -1, rc;
	pg_scenario *s;
	char *err = NULL;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool has_next = i + 1 < argc;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--list-links")) {
			for (int k = 0; k < pg_link_count(); k++)
				printf("%s\n", pg_link_at(k)->name);
			return 0;
		} else if (!strcmp(a, "--list-injectors")) {
			for (size_t k = 0; pg_injector_at(k); k++) {
				const pg_injector *in = pg_injector_at(k);
				printf("%-22s %s%s%s%s\n", in->name, in->help, *in->rules ? " [" : "",
				       in->rules, *in->rules ? "]" : "");
			}
			return 0;
		} else if (!strcmp(a, "--handshake")) {
			handshake = 1;
		} else if (!strcmp(a, "--no-handshake")) {
			handshake = 0;
		} else if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && has_next) {
			out = argv[++i];
		} else if (!strcmp(a, "--truth") && has_next) {
			truth = argv[++i];
		} else if (!strcmp(a, "--link") && has_next) {
			link = argv[++i];
		} else if (!strcmp(a, "--format") && has_next) {
			format = argv[++i];
		} else if (!strcmp(a, "--mtu") && has_next) {
			mtu = argv[++i];
		} else if (!strcmp(a, "--seed") && has_next) {
			seed = argv[++i];
		} else if (!strcmp(a, "--encap") && has_next) {
			encap_arg = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			return bad_usage("unknown or incomplete option", a);
		} else if (!scn) {
			scn = a;
		} else {
			return bad_usage("more than one scenario", a);
		}
	}
	if (!scn || !out || !truth)
		return bad_usage("need SCENARIO, -o OUT and --truth OUT.json", NULL);
	if (encap_arg && !pg_encap_parse(encap_arg, &encap, &err)) {
		rc = bad_usage(err, NULL);
		g_free(err);
		return rc;
	}

	s = pg_scenario_load(scn, &err);
	if (!s) {
		fprintf(stderr, "%s\n", err);
		g_free(err);
		return 2;
	}
	if (link && !(s->link = pg_link_by_name(link))) {
		pg_scenario_free(s);
		return bad_usage("unknown link type (see --list-links)", link);
	}
	if (handshake >= 0)
		s->handshake = handshake;
	if (format) {
		if (!strcmp(format, "pcap"))
			s->format = PG_FMT_PCAP;
		else if (!strcmp(format, "pcapng"))
			s->format = PG_FMT_PCAPNG;
		else {
			pg_scenario_free(s);
			return bad_usage("--format must be pcap or pcapng", format);
		}
	}
	if (mtu) {
		char *end;
		unsigned long v = strtoul(mtu, &end, 0);
		if (*end || v < 256 || v > 9216) {
			pg_scenario_free(s);
			return bad_usage("--mtu out of range 256..9216", mtu);
		}
		s->mtu = (uint32_t)v;
		s->mtu_line = 0;
	}
	if (seed) {
		char *end;
		s->seed = strtoull(seed, &end, 0);
		if (*end) {
			pg_scenario_free(s);
			return bad_usage("--seed is not a number", seed);
		}
	}
	if (!pg_scenario_finish(s, &err)) {
		fprintf(stderr, "%s\n", err);
		g_free(err);
		pg_scenario_free(s);
		return 2;
	}
	if (encap.kind != PG_ENCAP_NONE && s->link->dlt != DLT_EN10MB_) {
		rc = bad_usage("--encap wraps Ethernet frames; not a link of this type", s->link->name);
		pg_scenario_free(s);
		return rc;
	}
	pg_cap_set_encap(&encap);
	rc = pg_generate(s, out, truth, &err);
	if (rc)
		fprintf(stderr, "%s\n", err ? err : "rpcrdma-pcapgen: failed");
	g_free(err);
	pg_scenario_free(s);
	return rc;
}
