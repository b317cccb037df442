// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_pg_client.c - the arguments of portmap GETPORT (RFC 1833 §3: a
 * mapping of four unsigned ints), MOUNT v3 MNT (RFC 1813 Appendix I: a
 * dirpath string) and NFSv3 LOOKUP (RFC 1813 §3.3.3: diropargs3), each
 * against its bytes written out by hand (RFC 4506 §4.10, §4.11: length,
 * bytes, zeros to a multiple of four).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pg_client.h"

static void assert_bytes(GByteArray *b, const uint8_t *want, size_t n)
{
	assert_int_equal(b->len, n);
	assert_memory_equal(b->data, want, n);
	g_byte_array_free(b, TRUE);
}

static void getport(void **state)
{
	/* prog 100005 (0x000186a5), vers 3, prot IPPROTO_TCP 6, port 0 */
	static const uint8_t want[] = { 0x00, 0x01, 0x86, 0xa5, 0, 0, 0, 3, 0, 0, 0, 6, 0, 0, 0, 0 };
	GByteArray *b = g_byte_array_new();

	(void)state;
	pg_pmap_getport_args(b, PG_PROG_MOUNT, PG_MOUNT_V3, PG_IPPROTO_TCP);
	assert_bytes(b, want, sizeof(want));
}

static void mnt(void **state)
{
	/* dirpath "/srv/export": 11 bytes and one zero */
	static const uint8_t want[] = { 0, 0, 0, 11, '/', 's', 'r', 'v', '/', 'e', 'x', 'p', 'o', 'r', 't', 0 };
	static const uint8_t want4[] = { 0, 0, 0, 4, '/', 'a', 'b', 'c' };   /* no pad */
	GByteArray *b = g_byte_array_new();

	(void)state;
	pg_mount3_mnt_args(b, "/srv/export");
	assert_bytes(b, want, sizeof(want));
	b = g_byte_array_new();
	pg_mount3_mnt_args(b, "/abc");
	assert_bytes(b, want4, sizeof(want4));
}

static void lookup(void **state)
{
	/* dir: a 5-byte handle and 3 zeros; name "agent-file": 10 bytes and 2 zeros */
	static const uint8_t fh[] = { 0x01, 0x00, 0x07, 0x01, 0xee };
	static const uint8_t want[] = { 0, 0, 0, 5, 0x01, 0x00, 0x07, 0x01, 0xee, 0, 0, 0,
					0, 0, 0, 10, 'a', 'g', 'e', 'n', 't', '-', 'f', 'i', 'l', 'e',
					0, 0 };
	GByteArray *b = g_byte_array_new();

	(void)state;
	pg_nfs3_lookup_args(b, fh, sizeof(fh), "agent-file");
	assert_bytes(b, want, sizeof(want));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(getport),
		cmocka_unit_test(mnt),
		cmocka_unit_test(lookup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
