// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NFSv4 status names, against the values RFC 8881 §15.1 (and RFC 7862
 * §11.1, RFC 8276 §6) give them, typed here from the RFCs: every code of
 * the table is found (its binary search needs it ascending), its
 * neighbours that no RFC defines are not, and findings print a code no RFC
 * names as a number.  And the op labels of messages ("NFSv4.1 READ"),
 * typed here, asked in turns (kinds that differ in one field only, again
 * after eight others), and cut to a small buffer as snprintf cuts.
 */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "rpcrdma/engine.h"
#include "rpcrdma/ulp.h"

static const struct {
	uint32_t code;
	const char *name;
} from_rfc[] = {
	{ 0, "NFS4_OK" }, { 1, "NFS4ERR_PERM" }, { 13, "NFS4ERR_ACCESS" }, { 70, "NFS4ERR_STALE" },
	{ 10001, "NFS4ERR_BADHANDLE" }, { 10008, "NFS4ERR_DELAY" }, { 10018, "NFS4ERR_RESOURCE" },
	{ 10030, "NFS4ERR_RESTOREFH" }, { 10052, "NFS4ERR_BADSESSION" }, { 10057, "NFS4ERR_BACK_CHAN_BUSY" },
	{ 10065, "NFS4ERR_REQ_TOO_BIG" }, { 10070, "NFS4ERR_TOO_MANY_OPS" }, { 10078, "NFS4ERR_DEADSESSION" },
	{ 10087, "NFS4ERR_DELEG_REVOKED" }, { 10094, "NFS4ERR_OFFLOAD_NO_REQS" }, { 10096, "NFS4ERR_XATTR2BIG" },
};

static void test_named(void **state)
{
	char buf[48];

	(void)state;
	for (size_t i = 0; i < sizeof(from_rfc) / sizeof(from_rfc[0]); i++)
		assert_string_equal(rr_nfs4_status_name(from_rfc[i].code, buf, sizeof(buf)), from_rfc[i].name);
}

/* Codes no RFC gives (19, 10002, 10073 is named; 10097 is past the last). */
static void test_unnamed(void **state)
{
	char buf[48];

	(void)state;
	assert_string_equal(rr_nfs4_status_name(19, buf, sizeof(buf)), "NFS status 19");
	assert_string_equal(rr_nfs4_status_name(10002, buf, sizeof(buf)), "NFS status 10002");
	assert_string_equal(rr_nfs4_status_name(10097, buf, sizeof(buf)), "NFS status 10097");
	assert_string_equal(rr_nfs4_status_name(4294967295u, buf, sizeof(buf)), "NFS status 4294967295");
}

/*
 * Which codes are named: below 10000 the errno-like ones RFC 8881 §15.1
 * lists; from 10001 to 10096 every one but 10002 (RFC 1813's NOT_SYNC,
 * never NFSv4's) and 10073 ("Error 10073 is unused", RFC 8881's XDR).
 */
static void test_which_codes(void **state)
{
	static const uint32_t low[] = { 0, 1, 2, 5, 6, 13, 17, 18, 20, 21, 22, 27, 28, 30, 31, 63, 66, 69, 70 };
	char buf[48];
	size_t k = 0;

	(void)state;
	for (uint32_t c = 0; c <= 10100; c++) {
		bool want = c < 10000 ? (k < sizeof(low) / sizeof(low[0]) && low[k] == c)
				      : c >= 10001 && c <= 10096 && c != 10002 && c != 10073;
		bool named = strncmp(rr_nfs4_status_name(c, buf, sizeof(buf)), "NFS status ", 11) != 0;

		if (c < 10000 && want)
			k++;
		if (want != named)
			fail_msg("nfsstat4 %u: %s, expected %s", c, buf, want ? "a name" : "none");
	}
}

static struct rr_ulp_info ulp(uint32_t prog, uint32_t vers, uint32_t proc, uint32_t minor, uint16_t n_ops,
			      const uint32_t *ops)
{
	struct rr_ulp_info u;

	memset(&u, 0, sizeof(u));
	u.prog = prog;
	u.vers = vers;
	u.proc = proc;
	u.minorversion = minor;
	u.n_ops = n_ops;
	for (uint16_t i = 0; i < n_ops; i++)
		u.ops[i] = ops[i];
	return u;
}

static void test_op_labels(void **state)
{
	/* SEQUENCE PUTFH READ; SEQUENCE PUTFH GETATTR (all preamble: the last); PUTFH WRITE */
	static const uint32_t seq_read[] = { 53, 22, 25 }, seq_getattr[] = { 53, 22, 9 }, write[] = { 22, 38 };
	const struct {
		struct rr_ulp_info u;
		const char *want;
	} cases[] = {
		{ ulp(100003, 4, 1, 1, 3, seq_read), "NFSv4.1 READ" },
		{ ulp(100003, 4, 1, 2, 3, seq_read), "NFSv4.2 READ" },
		{ ulp(100003, 4, 1, 1, 3, seq_getattr), "NFSv4.1 GETATTR" },
		{ ulp(100003, 4, 1, 0, 2, write), "NFSv4.0 WRITE" },
		{ ulp(100003, 4, 1, 0, 0, NULL), "NFSv4.0 ?" },         /* no ops: op 0, which no RFC names */
		{ ulp(100003, 3, 6, 0, 0, NULL), "NFSv3 READ" },
		{ ulp(100003, 3, 7, 0, 0, NULL), "NFSv3 WRITE" },
		{ ulp(100003, 2, 6, 0, 0, NULL), "NFSv2 READ" },
		{ ulp(100227, 3, 1, 0, 0, NULL), "NFSACL v3 GETACL" },
		{ ulp(100003, 3, 6, 1, 0, NULL), "NFSv3 READ" },
		{ ulp(100003, 4, 0, 0, 0, NULL), "NFSv4 NULL" },
	};
	char buf[RR_OP_LABEL_LEN], small[8];

	(void)state;
	/* Three rounds, so that every label is asked again after eight others. */
	for (int round = 0; round < 3; round++) {
		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			rr_ulp_op_label(&cases[i].u, buf, sizeof(buf));
			assert_string_equal(buf, cases[i].want);
			/* Cut to the buffer as snprintf cuts. */
			rr_ulp_op_label(&cases[i].u, small, sizeof(small));
			assert_int_equal(strlen(small), strlen(cases[i].want) < sizeof(small) ? strlen(cases[i].want) : sizeof(small) - 1);
			assert_memory_equal(small, cases[i].want, strlen(small));
		}
	}
	rr_ulp_op_label(NULL, buf, sizeof(buf));
	assert_string_equal(buf, "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_named),
		cmocka_unit_test(test_unnamed),
		cmocka_unit_test(test_which_codes),
		cmocka_unit_test(test_op_labels),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
