/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nfs4_enc.h - NFSv4 XDR builders of the ULP tests, written from the
 * RFC 7530 / RFC 8881 / RFC 7862 / RFC 8276 structure definitions, field
 * by field, with op numbers as the RFCs give them.  (Checked once against
 * Wireshark's NFS dissector: where it decodes an op, it decodes these
 * bytes without error and without leftover bytes.)
 */
#ifndef RR_TEST_NFS4_ENC_H
#define RR_TEST_NFS4_ENC_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "ulp_test.h"
#include "xdr_enc.h"

#define NFS 100003u
#define CB_PROG 0x40000000u

enum {
	ACCESS = 3, CLOSE = 4, COMMIT = 5, CREATE = 6, GETATTR = 9, GETFH = 10, LOOKUP = 15,
	PUTFH = 22, PUTROOTFH = 24, READ = 25, READLINK = 27, SAVEFH = 32, WRITE = 38,
	SEQUENCE = 53, READ_PLUS = 68, ILLEGAL = 10044,
};

static inline void x_stateid(struct rr_wbuf *w)
{
	x_u32(w, 1);
	x_fill(w, 0x5a, 12);
}

static inline void x_sessionid(struct rr_wbuf *w)
{
	x_fill(w, 0x11, 16);
}

static inline void x_verifier(struct rr_wbuf *w)
{
	x_fill(w, 0x22, 8);
}

static inline void x_deviceid(struct rr_wbuf *w)
{
	x_fill(w, 0x33, 16);
}

static inline void x_nfstime(struct rr_wbuf *w)
{
	x_u64(w, 1700000000);
	x_u32(w, 999);
}

/* bitmap4 of two words */
static inline void x_bitmap(struct rr_wbuf *w)
{
	x_u32(w, 2);
	x_u32(w, 0x0010011a);
	x_u32(w, 0x00b0a23a);
}

/* fattr4 { bitmap4 attrmask; attrlist4 attr_vals; }: type (1) and size (4),
 * then mode (33) and owner (36) in the second word. */
static inline void x_fattr(struct rr_wbuf *w)
{
	struct rr_wbuf v;

	rr_wbuf_init(&v, 0);
	x_u32(&v, 1);                 /* fattr4_type: NF4REG */
	x_u64(&v, 123456);            /* fattr4_size */
	x_u32(&v, 0640);              /* fattr4_mode */
	x_str(&v, "nobody");          /* fattr4_owner */
	x_u32(w, 2);
	x_u32(w, (1u << 1) | (1u << 4));
	x_u32(w, (1u << (33 - 32)) | (1u << (36 - 32)));
	x_opaque(w, v.data, (uint32_t)v.len);
	rr_wbuf_free(&v);
}

static inline void x_nfs_fh4(struct rr_wbuf *w, uint32_t len)
{
	uint8_t fh[130];

	memset(fh, 0x44, sizeof(fh));
	x_opaque(w, fh, len);
}

static inline void x_change_info(struct rr_wbuf *w)
{
	x_bool(w, true);
	x_u64(w, 10);
	x_u64(w, 11);
}

static inline void x_owner(struct rr_wbuf *w)
{
	x_u64(w, 0xc11e);
	x_str(w, "open-owner-7");
}

static inline void x_nfsace(struct rr_wbuf *w)
{
	x_u32(w, 0);
	x_u32(w, 0);
	x_u32(w, 0x1f01ff);
	x_str(w, "OWNER@");
}

static inline void x_netaddr(struct rr_wbuf *w)
{
	x_str(w, "rdma");
	x_str(w, "192.168.1.2.78.80");
}

static inline void x_args_hdr(struct rr_wbuf *w, uint32_t minor, uint32_t nops)
{
	x_str(w, "tag");
	x_u32(w, minor);
	x_u32(w, nops);
}

static inline void x_res_hdr(struct rr_wbuf *w, uint32_t status, uint32_t nops)
{
	x_u32(w, status);
	x_str(w, "tag");
	x_u32(w, nops);
}

static inline enum rr_ulp_result walk_call4(const struct rr_wbuf *w, struct rec *rec,
				     struct rr_ulp_info *info, struct rr_cursor *c)
{
	struct rr_rpc_call call = mk_call(NFS, 4, 1);

	x_cursor(c, w);
	return rr_ulp_walk_call(&call, c, rec_fn, rec, info);
}

static inline enum rr_ulp_result walk_reply4(const struct rr_wbuf *w, struct rec *rec,
				      struct rr_ulp_info *out, struct rr_cursor *c)
{
	struct rr_ulp_info ci;
	struct rr_rpc_reply reply = mk_reply();

	memset(&ci, 0, sizeof(ci));
	ci.prog = NFS;
	ci.vers = 4;
	ci.proc = 1;
	ci.minorversion = 1;
	x_cursor(c, w);
	return rr_ulp_walk_reply(&ci, &reply, c, rec_fn, rec, out);
}

/* SEQUENCE4resok { sessionid4; sequenceid4; slotid4; highest; target_highest; status_flags } */
static inline void x_sequence_res(struct rr_wbuf *w)
{
	x_u32(w, SEQUENCE);
	x_u32(w, 0);
	x_sessionid(w);
	x_u32(w, 7);
	x_u32(w, 0);
	x_u32(w, 63);
	x_u32(w, 63);
	x_u32(w, 0);
}

/* SEQUENCE4args { sessionid4; sequenceid4; slotid4; highest_slotid; bool cachethis; } */
static inline void x_sequence_args(struct rr_wbuf *w)
{
	x_u32(w, SEQUENCE);
	x_sessionid(w);
	x_u32(w, 1);
	x_u32(w, 0);
	x_u32(w, 0);
	x_bool(w, false);
}

/* Encode the arguments of one op (after its argop word). */
static inline void x_op_args(struct rr_wbuf *w, uint32_t op)
{
	switch (op) {
	case 3: x_u32(w, 0x3f); break;
	case 4: x_u32(w, 2); x_stateid(w); break;
	case 5: x_u64(w, 0); x_u32(w, 0); break;
	case 6: x_u32(w, 4); x_u32(w, 1); x_u32(w, 2); x_str(w, "chr"); x_fattr(w); break;
	case 7: x_u64(w, 1); break;
	case 8: x_stateid(w); break;
	case 9: x_bitmap(w); break;
	case 10: break;
	case 11: x_str(w, "newname"); break;
	case 12: /* LOCK, new lock owner */
		x_u32(w, 2); x_bool(w, false); x_u64(w, 0); x_u64(w, ~0ull);
		x_bool(w, true); x_u32(w, 3); x_stateid(w); x_u32(w, 0); x_owner(w);
		break;
	case 13: x_u32(w, 1); x_u64(w, 0); x_u64(w, 10); x_owner(w); break;
	case 14: x_u32(w, 1); x_u32(w, 4); x_stateid(w); x_u64(w, 0); x_u64(w, 10); break;
	case 15: x_str(w, "name"); break;
	case 16: break;
	case 17: x_fattr(w); break;
	case 18: /* OPEN: CREATE with EXCLUSIVE4_1, CLAIM_DELEGATE_CUR */
		x_u32(w, 0); x_u32(w, 3); x_u32(w, 0); x_owner(w);
		x_u32(w, 1); x_u32(w, 3); x_verifier(w); x_fattr(w);
		x_u32(w, 2); x_stateid(w); x_str(w, "file");
		break;
	case 19: x_bool(w, true); break;
	case 20: x_stateid(w); x_u32(w, 5); break;
	case 21: x_stateid(w); x_u32(w, 5); x_u32(w, 1); x_u32(w, 0); break;
	case 22: x_nfs_fh4(w, 40); break;
	case 23: case 24: break;
	case 25: x_stateid(w); x_u64(w, 4096); x_u32(w, 4096); break;
	case 26: x_u64(w, 0); x_verifier(w); x_u32(w, 8192); x_u32(w, 32768); x_bitmap(w); break;
	case 27: break;
	case 28: x_str(w, "x"); break;
	case 29: x_str(w, "old"); x_str(w, "new"); break;
	case 30: x_u64(w, 77); break;
	case 31: case 32: break;
	case 33: x_str(w, "n"); break;
	case 34: x_stateid(w); x_fattr(w); break;
	case 35: /* SETCLIENTID */
		x_verifier(w); x_str(w, "Linux NFSv4.0 client"); x_u32(w, 0x40000000);
		x_netaddr(w); x_u32(w, 1);
		break;
	case 36: x_u64(w, 77); x_verifier(w); break;
	case 37: x_fattr(w); break;
	case 39: x_owner(w); break;
	case 40: /* BACKCHANNEL_CTL: three security parameter arms */
		x_u32(w, 0x40000000); x_u32(w, 3);
		x_u32(w, 0);
		x_u32(w, 1); x_u32(w, 1234); x_str(w, "machine"); x_u32(w, 0); x_u32(w, 0);
		x_u32(w, 2); x_u32(w, 10); x_u32(w, 11);
		x_u32(w, 6); x_u32(w, 3); x_str(w, "hs"); x_str(w, "hc");
		break;
	case 41: x_sessionid(w); x_u32(w, 3); x_bool(w, true); break;
	case 42: /* EXCHANGE_ID with SP4_SSV and an implementation id */
		x_verifier(w); x_str(w, "owner"); x_u32(w, 0x103);
		x_u32(w, 2); x_bitmap(w); x_bitmap(w);
		x_u32(w, 1); x_opaque(w, "\x06\x09\x60\x86\x48\x01\x65\x03\x04", 9);
		x_u32(w, 0);
		x_u32(w, 16); x_u32(w, 2);
		x_u32(w, 1); x_str(w, "kernel.org"); x_str(w, "Linux 6.1"); x_nfstime(w);
		break;
	case 43: /* CREATE_SESSION */
		x_u64(w, 77); x_u32(w, 1); x_u32(w, 3);
		for (int i = 0; i < 6; i++)
			x_u32(w, 1024 * (i + 1));
		x_u32(w, 1); x_u32(w, 16);
		for (int i = 0; i < 6; i++)
			x_u32(w, 4096);
		x_u32(w, 0);
		x_u32(w, 0x40000000); x_u32(w, 1);
		x_u32(w, 1); x_u32(w, 0); x_str(w, "m"); x_u32(w, 0); x_u32(w, 0); x_u32(w, 0);
		break;
	case 44: x_sessionid(w); break;
	case 45: x_stateid(w); break;
	case 46: x_bool(w, false); x_bitmap(w); x_nfstime(w); x_nfstime(w); x_bitmap(w); x_bitmap(w); break;
	case 47: x_deviceid(w); x_u32(w, 1); x_u32(w, 4096); x_bitmap(w); break;
	case 48: x_u32(w, 1); x_u32(w, 16); x_u64(w, 0); x_verifier(w); break;
	case 49: /* LAYOUTCOMMIT */
		x_u64(w, 0); x_u64(w, 4096); x_bool(w, false); x_stateid(w);
		x_bool(w, true); x_u64(w, 4095); x_bool(w, true); x_nfstime(w);
		x_u32(w, 0x1000); x_opaque(w, "lou", 3);
		break;
	case 50: x_bool(w, false); x_u32(w, 1); x_u32(w, 2); x_u64(w, 0); x_u64(w, ~0ull);
		x_u64(w, 0); x_stateid(w); x_u32(w, 4096); break;
	case 51: x_bool(w, false); x_u32(w, 1); x_u32(w, 3);
		x_u32(w, 1); x_u64(w, 0); x_u64(w, ~0ull); x_stateid(w); x_opaque(w, "b", 1);
		break;
	case 52: x_u32(w, 1); break;
	case 53: x_sessionid(w); x_u32(w, 1); x_u32(w, 0); x_u32(w, 0); x_bool(w, true); break;
	case 54: x_opaque(w, "ssv", 3); x_opaque(w, "digest", 6); break;
	case 55: x_u32(w, 2); x_stateid(w); x_stateid(w); break;
	case 56: x_u32(w, 0x300); x_u32(w, 1); x_u32(w, 1); break;
	case 57: x_u64(w, 77); break;
	case 58: x_bool(w, false); break;
	case 59: case 62: x_stateid(w); x_u64(w, 0); x_u64(w, 1 << 20); break;
	case 60: /* COPY with two source servers */
		x_stateid(w); x_stateid(w); x_u64(w, 0); x_u64(w, 0); x_u64(w, 100);
		x_bool(w, true); x_bool(w, false);
		x_u32(w, 2); x_u32(w, 3); x_netaddr(w); x_u32(w, 1); x_str(w, "server");
		break;
	case 61: x_stateid(w); x_u32(w, 2); x_str(w, "nfs://dest/"); break;
	case 63: x_stateid(w); x_u64(w, 0); x_u64(w, 0); x_bitmap(w); break;
	case 64: x_u64(w, 0); x_u64(w, 0); x_stateid(w);
		x_u32(w, 1); x_deviceid(w); x_u32(w, 5); x_u32(w, 25);
		break;
	case 65: x_u64(w, 0); x_u64(w, 0); x_stateid(w);
		x_u64(w, 1); x_u64(w, 2); x_u64(w, 3); x_u64(w, 4); x_deviceid(w);
		x_u32(w, 0x1000); x_opaque(w, "stats", 5);
		break;
	case 66: case 67: x_stateid(w); break;
	case 68: x_stateid(w); x_u64(w, 0); x_u32(w, 100); break;
	case 69: x_stateid(w); x_u64(w, 0); x_u32(w, 1); break;
	case 70: /* WRITE_SAME: app_data_block4 */
		x_stateid(w); x_u32(w, 1);
		x_u64(w, 0); x_u64(w, 512); x_u64(w, 8); x_u64(w, 0); x_u32(w, 0); x_u64(w, 0);
		x_opaque(w, "pattern", 7);
		break;
	case 71: x_stateid(w); x_stateid(w); x_u64(w, 0); x_u64(w, 0); x_u64(w, 0); break;
	case 72: x_str(w, "user.a"); break;
	case 73: x_u32(w, 1); x_str(w, "user.a"); x_opaque(w, "value", 5); break;
	case 74: x_u64(w, 0); x_u32(w, 1024); break;
	case 75: x_str(w, "user.a"); break;
	case ILLEGAL: break;
	default: fail_msg("no encoder for op %u", op);
	}
}

/* Encode an NFS4_OK result of one op (after resop and status). */
static inline void x_op_res_ok(struct rr_wbuf *w, uint32_t op)
{
	switch (op) {
	case 3: x_u32(w, 0x3f); x_u32(w, 0x1f); break;
	case 4: case 12: case 14: case 20: case 21: x_stateid(w); break;
	case 5: x_verifier(w); break;
	case 6: x_change_info(w); x_bitmap(w); break;
	case 9: x_fattr(w); break;
	case 10: x_nfs_fh4(w, 128); break;
	case 11: case 28: case 73: case 75: x_change_info(w); break;
	case 18: /* OPEN with a write delegation limited by blocks */
		x_stateid(w); x_change_info(w); x_u32(w, 4); x_bitmap(w);
		x_u32(w, 2); x_stateid(w); x_bool(w, false); x_u32(w, 2); x_u32(w, 100);
		x_u32(w, 4096); x_nfsace(w);
		break;
	case 25: x_bool(w, false); x_opaque(w, "readdata", 8); break;
	case 26: /* READDIR with two entries */
		x_verifier(w);
		x_bool(w, true); x_u64(w, 1); x_str(w, "a"); x_fattr(w);
		x_bool(w, true); x_u64(w, 2); x_str(w, "bbbbb"); x_fattr(w);
		x_bool(w, false); x_bool(w, true);
		break;
	case 27: x_str(w, "link/target"); break;
	case 29: x_change_info(w); x_change_info(w); break;
	case 33: /* SECINFO: krb5i, AUTH_SYS */
		x_u32(w, 2);
		x_u32(w, 6); x_opaque(w, "\x2a\x86\x48\x86\xf7\x12\x01\x02\x02", 9); x_u32(w, 0); x_u32(w, 2);
		x_u32(w, 1);
		break;
	case 52: x_u32(w, 0); break;
	case 34: x_bitmap(w); break;
	case 35: x_u64(w, 77); x_verifier(w); break;
	case 38: x_u32(w, 100); x_u32(w, 2); x_verifier(w); break;
	case 41: x_sessionid(w); x_u32(w, 3); x_bool(w, false); break;
	case 42: /* EXCHANGE_ID4resok with SP4_SSV */
		x_u64(w, 77); x_u32(w, 1); x_u32(w, 0x10003);
		x_u32(w, 2); x_bitmap(w); x_bitmap(w); x_u32(w, 1); x_u32(w, 2); x_u32(w, 32); x_u32(w, 16);
		x_u32(w, 2); x_str(w, "h1"); x_str(w, "h22");
		x_u64(w, 5); x_str(w, "major");
		x_str(w, "scope");
		x_u32(w, 0);
		break;
	case 43:
		x_sessionid(w); x_u32(w, 1); x_u32(w, 0);
		for (int i = 0; i < 6; i++)
			x_u32(w, 8);
		x_u32(w, 0);
		for (int i = 0; i < 6; i++)
			x_u32(w, 8);
		x_u32(w, 1); x_u32(w, 4);
		break;
	case 46: x_u32(w, 0); x_verifier(w); x_stateid(w); x_bitmap(w); x_bitmap(w); x_bitmap(w); break;
	case 47: x_u32(w, 0x1000); x_opaque(w, "deviceaddr", 10); x_bitmap(w); break;
	case 48: x_u64(w, 9); x_verifier(w); x_u32(w, 2); x_deviceid(w); x_deviceid(w); x_bool(w, true); break;
	case 49: x_bool(w, true); x_u64(w, 4096); break;
	case 50: /* LAYOUTGET: two layouts */
		x_bool(w, true); x_stateid(w); x_u32(w, 2);
		x_u64(w, 0); x_u64(w, 4096); x_u32(w, 2); x_u32(w, 0x1000); x_opaque(w, "body1", 5);
		x_u64(w, 4096); x_u64(w, 4096); x_u32(w, 1); x_u32(w, 0x1000); x_opaque(w, "b2", 2);
		break;
	case 51: x_bool(w, true); x_stateid(w); break;
	case 53: x_sessionid(w); x_u32(w, 1); x_u32(w, 0); x_u32(w, 9); x_u32(w, 9); x_u32(w, 0); break;
	case 54: x_opaque(w, "dig", 3); break;
	case 55: x_u32(w, 2); x_u32(w, 0); x_u32(w, 10025); break;
	case 56: x_u32(w, 1); x_stateid(w); x_bool(w, false); x_nfsace(w); break;
	case 60: /* COPY: write_response4 with a callback id, then copy_requirements4 */
		x_u32(w, 1); x_stateid(w); x_u64(w, 100); x_u32(w, 2); x_verifier(w);
		x_bool(w, true); x_bool(w, true);
		break;
	case 61: x_nfstime(w); x_stateid(w); x_u32(w, 1); x_u32(w, 1); x_str(w, "src"); break;
	case 63: x_bitmap(w); break;
	case 67: x_u64(w, 100); x_u32(w, 1); x_u32(w, 0); break;
	case 68: /* READ_PLUS: data and hole */
		x_bool(w, true); x_u32(w, 2);
		x_u32(w, 0); x_u64(w, 0); x_opaque(w, "abc", 3);
		x_u32(w, 1); x_u64(w, 3); x_u64(w, 1000);
		break;
	case 69: x_bool(w, false); x_u64(w, 4096); break;
	case 70: x_u32(w, 0); x_u64(w, 4096); x_u32(w, 0); x_verifier(w); break;
	case 72: x_opaque(w, "xattr-value", 11); break;
	case 74: x_u64(w, 0); x_u32(w, 2); x_str(w, "user.a"); x_str(w, "user.bb"); x_bool(w, true); break;
	default: break;   /* the status only */
	}
}

#endif
