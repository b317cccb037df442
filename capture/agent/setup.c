// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * setup.c - the subcommands `setup` (a persistent soft-RDMA link) and
 * `cleanup` (remove the links the state file records), setup.h.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "linkstate.h"
#include "netdev.h"
#include "runscope.h"
#include "setup.h"

/*
 * "--opt VALUE" or "--opt=VALUE" at argv[*i]: 1 (and *val), 0 not this
 * option, -1 the value is missing.
 */
static int opt_value(int argc, char **argv, int *i, const char *opt, const char **val)
{
	size_t len = strlen(opt);

	if (strncmp(argv[*i], opt, len) != 0)
		return 0;
	if (argv[*i][len] == '=') {
		*val = argv[*i] + len + 1;
		return **val ? 1 : -1;
	}
	if (argv[*i][len] != '\0')
		return 0;
	if (*i + 1 >= argc)
		return -1;
	*val = argv[++*i];
	return 1;
}

static void setup_usage(FILE *f)
{
	fprintf(f, "usage: " AGENT_NAME " setup --rxe NETDEV | --siw NETDEV [--name IBDEV] [--force]\n"
		   "Creates a soft-RDMA link on NETDEV with `rdma link add`, records it in %s\n"
		   "and prints its name; `" AGENT_NAME " cleanup` removes it.  NETDEV must carry only test\n"
		   "addresses (RFC 1918/5737/2544, loopback, link-local, ULA) unless --force.\n",
		agent_state_path());
}

int agent_cmd_setup(int argc, char **argv)
{
	const char *kind = NULL, *netdev = NULL, *name = NULL, *v;
	char ibdev[LS_NAME_LEN], err[1024];
	bool force = false;
	int i, m;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			setup_usage(stdout);
			return 0;
		}
		if (strcmp(a, "--force") == 0) {
			force = true;
			continue;
		}
		if ((m = opt_value(argc, argv, &i, "--rxe", &v)) != 0 ||
		    (m = opt_value(argc, argv, &i, "--siw", &v)) != 0) {
			const char *k = strncmp(a, "--rxe", 5) == 0 ? "rxe" : "siw";

			if (m < 0) {
				fprintf(stderr, AGENT_NAME " setup: --%s needs a NETDEV\n", k);
				return 2;
			}
			if (kind) {
				fprintf(stderr, AGENT_NAME " setup: give one of --rxe and --siw, once\n");
				return 2;
			}
			kind = k;
			netdev = v;
			continue;
		}
		if ((m = opt_value(argc, argv, &i, "--name", &v)) != 0) {
			if (m < 0) {
				fprintf(stderr, AGENT_NAME " setup: --name needs an RDMA device name\n");
				return 2;
			}
			name = v;
			continue;
		}
		fprintf(stderr, AGENT_NAME " setup: %s \"%s\"\n",
			a[0] == '-' ? "unknown option" : "unexpected argument", a);
		setup_usage(stderr);
		return 2;
	}
	if (!kind) {
		fprintf(stderr, AGENT_NAME " setup: say which link to make: --rxe NETDEV or --siw NETDEV\n");
		setup_usage(stderr);
		return 2;
	}

	agent_recover_stale();
	if (!force && !agent_netdev_is_test(netdev, err, sizeof(err))) {
		fprintf(stderr, AGENT_NAME " setup: refusing: %s\n", err);
		return 1;
	}
	if (!ls_link_create(kind, netdev, name, false, ibdev, sizeof(ibdev), err, sizeof(err))) {
		fprintf(stderr, AGENT_NAME " setup: %s\n", err);
		return 1;
	}
	printf("%s\n", ibdev);
	return fflush(stdout) == 0 ? 0 : 1;
}


/* The reaper (runscope.h): its pid argument. */
static int reap(const char *pidtext)
{
	char *end;
	long pid = strtol(pidtext, &end, 10);

	if (*end || pid <= 0) {
		fprintf(stderr, AGENT_NAME " cleanup: --reap needs a pid\n");
		return 2;
	}
	return agent_reap(pid);
}

static void cleanup_usage(FILE *f)
{
	fprintf(f, "usage: " AGENT_NAME " cleanup [--all]\n"
		   "Removes the RDMA links recorded in %s: those of `setup`, and those of\n"
		   "agent runs that are gone.  --all also removes the links of running agents.\n"
		   "Links not recorded there are never touched.\n",
		agent_state_path());
}

/*
 * Removes the recorded links (the running agents' too when all) from the
 * system and from s; *seen counts the records understood.  0 every one
 * went, 1 some could not be removed.
 */
static int remove_recorded(struct ls_state *s, bool all, size_t *seen)
{
	char msg[512];
	int status = 0;
	size_t k;

	for (k = 0; k < s->n;) {
		struct ls_rec *r = &s->recs[k];

		if (r->raw) {
			fprintf(stderr, AGENT_NAME " cleanup: %s: line not understood, kept: %s\n",
				agent_state_path(), r->raw);
			k++;
			continue;
		}
		(*seen)++;
		if (r->run && !all && !ls_owner_dead(r->pid)) {
			printf("%s: in use by the running agent pid %ld, left (--all removes it)\n",
			       r->name, r->pid);
			k++;
			continue;
		}
		switch (ls_link_delete(r, msg, sizeof(msg))) {
		case LS_DEL_REMOVED:
			printf("removed %s (%s on %s)\n", r->name, r->kind, r->netdev);
			break;
		case LS_DEL_GONE:
			printf("%s: already gone\n", r->name);
			break;
		case LS_DEL_NOT_OURS:
			printf("%s: left alone, forgotten: %s\n", r->name, msg);
			break;
		case LS_DEL_FAILED:
			fprintf(stderr, AGENT_NAME " cleanup: cannot remove %s: %s\n", r->name, msg);
			status = 1;
			k++;
			continue;
		}
		ls_drop(s, k);
	}
	return status;
}

int agent_cmd_cleanup(int argc, char **argv)
{
	bool all = false, recover = false;
	const char *reap_pid = NULL;
	int i, m, status;
	size_t seen = 0;
	struct ls_state s;
	char err[512];

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			cleanup_usage(stdout);
			return 0;
		}
		if (strcmp(argv[i], "--all") == 0) {
			all = true;
			continue;
		}
		/* Hidden: what every start does (tests), and the reaper (runscope.c). */
		if (strcmp(argv[i], "--recover") == 0) {
			recover = true;
			continue;
		}
		if ((m = opt_value(argc, argv, &i, "--reap", &reap_pid)) != 0) {
			if (m < 0) {
				fprintf(stderr, AGENT_NAME " cleanup: --reap needs a pid\n");
				return 2;
			}
			continue;
		}
		fprintf(stderr, AGENT_NAME " cleanup: %s \"%s\"\n",
			argv[i][0] == '-' ? "unknown option" : "unexpected argument", argv[i]);
		cleanup_usage(stderr);
		return 2;
	}
	if (reap_pid)
		return reap(reap_pid);
	if (recover) {
		agent_recover_stale();
		return 0;
	}

	if (!ls_open(&s, false, err, sizeof(err))) {
		fprintf(stderr, AGENT_NAME " cleanup: %s\n", err);
		return 1;
	}
	if (!s.writable && s.n) {
		fprintf(stderr, AGENT_NAME " cleanup: cannot lock %s.lock (run as root)\n", agent_state_path());
		ls_close(&s);
		return 1;
	}
	status = remove_recorded(&s, all, &seen);
	if (seen == 0)
		printf("no RDMA links recorded in %s\n", agent_state_path());
	else if (!ls_save(&s, err, sizeof(err))) {
		fprintf(stderr, AGENT_NAME " cleanup: %s\n", err);
		status = 1;
	}
	ls_close(&s);
	if (fflush(stdout) != 0)
		status = 1;
	return status;
}
