// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The results a client reads to reach a server's objects (ulp.h): portmap
 * GETPORT (RFC 1833 §3), MOUNT v3 MNT's mountres3 (RFC 1813 Appendix I),
 * NFSv3 LOOKUP3res (RFC 1813 §3.3.3), spelled out word by word and cut
 * short at every length.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include <rpcrdma/ulp.h>

#include "xdr_enc.h"

static void test_getport(void **state)
{
	/* unsigned int port: 20048, then the edges */
	static const uint8_t p20048[] = { 0x00, 0x00, 0x4e, 0x50 };
	static const uint8_t p65535[] = { 0x00, 0x00, 0xff, 0xff };
	static const uint8_t p65536[] = { 0x00, 0x01, 0x00, 0x00 };
	static const uint8_t p0[] = { 0, 0, 0, 0 };
	uint16_t port = 7;

	(void)state;
	assert_true(rr_pmap_getport_res(p20048, 4, &port));
	assert_int_equal(port, 20048);
	assert_true(rr_pmap_getport_res(p65535, 4, &port));
	assert_int_equal(port, 65535);
	port = 7;
	assert_false(rr_pmap_getport_res(p65536, 4, &port));   /* not a port */
	assert_false(rr_pmap_getport_res(p0, 4, &port));       /* not registered */
	for (size_t n = 0; n < 4; n++)
		assert_false(rr_pmap_getport_res(p20048, n, &port));
	assert_int_equal(port, 7);
}

/* status, then on 0 an opaque handle of fh_len bytes 0x10, 0x11 ... and a tail of words */
static void status_fh(struct rr_wbuf *w, uint32_t status, uint32_t fh_len)
{
	x_u32(w, status);
	if (status)
		return;
	x_u32(w, fh_len);
	for (uint32_t i = 0; i < fh_len; i++)
		rr_put_u8(w, (uint8_t)(0x10 + i));
	rr_put_zeros(w, (4 - (fh_len & 3)) & 3);
}

static void assert_fh(const struct rr_fh_result *r, const struct rr_wbuf *w, uint32_t len)
{
	assert_true(r->status_read);
	assert_int_equal(r->status, 0);
	assert_int_equal(r->fh_len, len);
	assert_ptr_equal(r->fh, w->data + 8);   /* after status and length word */
	for (uint32_t i = 0; i < len; i++)
		assert_int_equal(r->fh[i], 0x10 + i);
}

typedef bool (*fh_dec)(const uint8_t *, size_t, struct rr_fh_result *);

/* Cut at every length: no status below 4 bytes, no handle before its pad ends at fh_end. */
static void cut_everywhere(fh_dec dec, const struct rr_wbuf *w, size_t fh_end)
{
	struct rr_fh_result r;

	for (size_t n = 0; n <= w->len; n++) {
		uint8_t *alone = malloc(n ? n : 1);
		memcpy(alone, w->data, n);
		assert_int_equal(dec(w->data, n, &r), n >= fh_end);
		assert_int_equal(r.status_read, n >= 4);
		if (n < fh_end)
			assert_null(r.fh);
		assert_int_equal(dec(alone, n, &r), n >= fh_end);
		free(alone);
	}
}

static void test_mnt(void **state)
{
	struct rr_wbuf w;
	struct rr_fh_result r;

	(void)state;
	rr_wbuf_init(&w, 0);
	status_fh(&w, 0, 28);        /* MNT3_OK, fhandle3 of 28 bytes */
	x_u32(&w, 1);                /* auth_flavors<>: AUTH_SYS */
	x_u32(&w, 1);
	assert_true(rr_mount3_mnt_res(w.data, w.len, &r));
	assert_fh(&r, &w, 28);
	cut_everywhere(rr_mount3_mnt_res, &w, 8 + 28);
	rr_wbuf_free(&w);

	rr_wbuf_init(&w, 0);
	status_fh(&w, 13, 0);        /* MNT3ERR_ACCES: void */
	assert_false(rr_mount3_mnt_res(w.data, w.len, &r));
	assert_true(r.status_read);
	assert_int_equal(r.status, 13);
	assert_null(r.fh);
	rr_wbuf_free(&w);

	/* FHSIZE3 is 64: 65 bytes do not decode; an empty handle names nothing */
	rr_wbuf_init(&w, 0);
	status_fh(&w, 0, 65);
	assert_false(rr_mount3_mnt_res(w.data, w.len, &r));
	assert_null(r.fh);
	rr_wbuf_free(&w);
	rr_wbuf_init(&w, 0);
	status_fh(&w, 0, 64);
	assert_true(rr_mount3_mnt_res(w.data, w.len, &r));
	assert_fh(&r, &w, 64);
	rr_wbuf_free(&w);
	rr_wbuf_init(&w, 0);
	status_fh(&w, 0, 0);
	x_u32(&w, 0);
	assert_false(rr_mount3_mnt_res(w.data, w.len, &r));
	assert_true(r.status_read);
	assert_int_equal(r.status, 0);
	assert_null(r.fh);
	rr_wbuf_free(&w);
}

static void test_lookup(void **state)
{
	struct rr_wbuf w;
	struct rr_fh_result r;

	(void)state;
	rr_wbuf_init(&w, 0);
	status_fh(&w, 0, 30);        /* NFS3_OK, nfs_fh3 of 30 bytes and 2 of pad */
	x_u32(&w, 0);                /* obj_attributes: none */
	x_u32(&w, 0);                /* dir_attributes: none */
	assert_true(rr_nfs3_lookup_res(w.data, w.len, &r));
	assert_fh(&r, &w, 30);
	cut_everywhere(rr_nfs3_lookup_res, &w, 8 + 32);
	rr_wbuf_free(&w);

	rr_wbuf_init(&w, 0);
	status_fh(&w, 2, 0);         /* NFS3ERR_NOENT: LOOKUP3resfail */
	x_u32(&w, 0);                /* dir_attributes: none */
	assert_false(rr_nfs3_lookup_res(w.data, w.len, &r));
	assert_true(r.status_read);
	assert_int_equal(r.status, 2);
	assert_null(r.fh);
	rr_wbuf_free(&w);

	/* LOOKUP3resfail with the directory's attributes: their TRUE and
	 * fattr3 would read as a 1-byte handle to a decoder that skipped the status */
	rr_wbuf_init(&w, 0);
	status_fh(&w, 2, 0);
	x_u32(&w, 1);                /* attributes_follow */
	x_u32(&w, 2);                /* fattr3: type NF3DIR */
	x_u32(&w, 0755);             /* mode */
	x_u32(&w, 2);                /* nlink */
	x_u32(&w, 0);                /* uid */
	x_u32(&w, 0);                /* gid */
	x_u64(&w, 4096);             /* size */
	x_u64(&w, 4096);             /* used */
	x_u64(&w, 0);                /* rdev: specdata3 */
	x_u64(&w, 0x1234);           /* fsid */
	x_u64(&w, 0x100000);         /* fileid */
	for (int i = 0; i < 6; i++)  /* atime, mtime, ctime */
		x_u32(&w, 1600000000u);
	assert_false(rr_nfs3_lookup_res(w.data, w.len, &r));
	assert_int_equal(r.status, 2);
	assert_null(r.fh);
	rr_wbuf_free(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_getport),
		cmocka_unit_test(test_mnt),
		cmocka_unit_test(test_lookup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
