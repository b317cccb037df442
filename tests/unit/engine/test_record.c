// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The message record: what the rules need (the call's header and Send
 * frame for a reply, where each DDP-eligible item went, the bytes seen per
 * segment, the connection's roles), and the view reporters read
 * (struct rr_msg_view): kept by value, it stays whole after the engine is
 * gone; its bytes are those seen, split inline / DDP / Long by each
 * segment's role; a call sent again with its XID is a retry.
 */
#include "engine_fixture.h"

#define MAX_KEPT 8

struct kept {
	struct rr_msg_view v;
	struct rr_msg_seg segs[4];
	size_t n_segs;
	char sha[RR_SHA256_HEX_LEN];
};

static struct kept kept[MAX_KEPT];
static int n_kept;
static void (*inspect)(const struct rr_message *m);
static int sink_091;
static uint64_t sink_091_frame;
static int msgp_seen;
static enum rr_severity msgp_sev;

static void keep(void *ctx, const struct rr_message *m)
{
	struct kept *k = &kept[n_kept];
	size_t i;

	(void)ctx;
	assert_true(n_kept < MAX_KEPT);
	assert_true(m->n_segs <= 4);
	k->v = m->view;
	for (i = 0; i < m->n_segs; i++)
		k->segs[i] = m->segs[i];
	k->n_segs = m->n_segs;
	rr_message_sha256(m, k->sha);
	if (inspect)
		inspect(m);
	n_kept++;
}

static void count(void *ctx, const struct rr_diag *d)
{
	(void)ctx;
	if (d->id == RR_130_MSGP) {
		msgp_seen++;
		msgp_sev = d->severity;
	}
	if (d->id == RR_091_WRITE_COUNT) {
		sink_091++;
		sink_091_frame = d->frame;
	}
}

static void start(void)
{
	struct rr_diag_sink sink = { count, NULL };

	memset(kept, 0, sizeof(kept));
	n_kept = 0;
	sink_091 = msgp_seen = 0;
	eng = rr_engine_new(NULL, keep, NULL, &sink);
}

static void stop_engine(void)
{
	rr_engine_finish(eng);
	rr_engine_free(eng);
	eng = NULL;
	inspect = NULL;
}

/* What the rules read of the READ reply below, during the callback. */
static void reply_record(const struct rr_message *r)
{
	if (r->dir != RR_DIR_REPLY)
		return;
	assert_int_equal(r->send_frame, 3);
	assert_non_null(r->call_hdr);
	assert_int_equal(r->call_hdr->n_write_chunks, 1);
	assert_int_equal(rr_hdr_wseg(r->call_hdr, &r->call_hdr->writes[0], 0)->length, 8192);
	assert_int_equal(r->call_send_frame, 1);
	assert_true(r->conn.roles_known);
	assert_int_equal(r->conn.inline_source, RR_INLINE_DEFAULT);
	assert_int_equal(r->conn.inline_requester, RR_DEFAULT_INLINE_THRESHOLD);
	assert_non_null(r->seg_bytes);
	assert_int_equal(r->seg_bytes[0], 100);
	/* The Write in frame 2 carried the segment's bytes. */
	assert_non_null(r->seg_frames);
	assert_int_equal(r->seg_frames[0].n_frames, 1);
	assert_int_equal(r->seg_frames[0].frames[0], 2);
	assert_int_equal(r->n_items, 1);
	assert_int_equal(r->items[0].op, 6);
	assert_int_equal(r->items[0].length, 96);
	assert_int_equal(r->items[0].chunk, 0);
	/* The data the Write carried sits right after the length word. */
	assert_true(r->items[0].data_pos + 96 <= r->payload_len);
}

/* READ reply whose Write chunk returned 100 bytes while its length word says 96 (RR-091). */
static void test_view_outlives_engine(void **state)
{
	struct rr_flow_key c2s = roce(1, 2, 0x12), s2c = roce(2, 1, 0x11);
	struct rr_wbuf rep;
	struct rr_hdr h;
	uint8_t data[100], *b;
	const struct kept *r;
	size_t n, rep_len;

	(void)state;
	start();
	inspect = reply_record;
	read_call_with_write_chunk(c2s, 10, 0x1000, 4096);           /* frame 1 */
	fill(data, sizeof(data), 7);
	ib_write(s2c, 100, 0xabc, 0x7000, data, sizeof(data), 4096);  /* frame 2 */
	rr_wbuf_init(&rep, 0);
	rpc_reply_hdr(&rep, 0x1000);
	rr_put_be32(&rep, 0);      /* NFS3_OK */
	rr_put_be32(&rep, 0);      /* no attributes */
	rr_put_be32(&rep, 96);     /* count */
	rr_put_be32(&rep, 1);      /* eof */
	rr_put_be32(&rep, 96);     /* data length word */
	rep_len = rep.len;
	rr_hdr_init(&h, 0x1000, 32, RR_RDMA_MSG);
	rr_hdr_add_write_chunk(&h);
	rr_hdr_add_wseg(&h, 0xabc, 100, 0x7000);
	b = send_buf(&h, rep.data, rep.len, &n);
	ib_send(s2c, 101, b, n, 4096);                                /* frame 3 */
	free(b);
	rr_wbuf_free(&rep);
	stop_engine();

	assert_int_equal(n_kept, 2);
	assert_int_equal(kept[0].v.dir, RR_DIR_CALL);
	assert_int_equal(kept[0].v.n_write_chunks, 1);
	assert_int_equal(kept[0].n_segs, 0);     /* a call's segments are its read list */
	assert_string_equal(kept[0].v.op, "NFSv3 READ");
	r = &kept[1];
	assert_int_equal(r->v.dir, RR_DIR_REPLY);
	assert_int_equal(r->v.xid, 0x1000);
	assert_int_equal(r->v.rdma_proc, RR_RDMA_MSG);
	assert_true(r->v.has_call);
	assert_int_equal(r->v.call_send_frame, 1);
	assert_int_equal(r->v.send_frame, 3);
	/* A reply's program, version and procedure are its call's. */
	assert_true(r->v.has_ids);
	assert_int_equal(r->v.rpc_prog, 100003);
	assert_int_equal(r->v.rpc_vers, 3);
	assert_int_equal(r->v.rpc_proc, 6);
	assert_false(r->v.compound);
	assert_string_equal(r->v.op, "NFSv3 READ");
	/* Bytes seen: 100 landed of the 8192 the call offered; the Send after its header went inline. */
	assert_int_equal(r->v.inline_bytes, rep_len);
	assert_int_equal(r->v.ddp_bytes, 100);
	assert_int_equal(r->v.long_bytes, 0);
	assert_int_equal(r->n_segs, 1);
	assert_int_equal(r->segs[0].role, RR_ROLE_WRITE);
	assert_int_equal(r->segs[0].chunk, 0);
	assert_int_equal(r->segs[0].index, 0);
	assert_int_equal(r->segs[0].length, 8192);
	assert_int_equal(r->segs[0].bytes, 100);
	assert_false(r->v.retry);
	assert_int_equal(strlen(r->sha), 64);
	/* RR-091 reached the sink, tied to the reply's Send. */
	assert_int_equal(sink_091, 1);
	assert_int_equal(sink_091_frame, 3);
}

/* Long Call (Position-Zero read chunk) and Long Reply (reply chunk): their bytes are Long, not DDP. */
static void test_long_messages(void **state)
{
	struct rr_flow_key c2s = roce(1, 2, 0x12), s2c = roce(2, 1, 0x11);
	struct rr_wbuf call, reply;
	struct rr_hdr h;
	uint8_t *b, big[6000];
	uint32_t psn;
	size_t n;

	(void)state;
	start();
	fill(big, sizeof(big), 3);
	rr_wbuf_init(&call, 0);
	rpc_call_hdr(&call, 0x300, 100003, 3, 16);   /* READDIR, its arguments padded out */
	rr_xdr_put_opaque(&call, big, sizeof(big));
	rr_hdr_init(&h, 0x300, 128, RR_RDMA_NOMSG);
	rr_hdr_add_read(&h, 0, 0x51, 4000, 0x10000);
	rr_hdr_add_read(&h, 0, 0x52, (uint32_t)call.len - 4000, 0x20000);
	rr_hdr_set_reply_chunk(&h);
	rr_hdr_add_wseg(&h, 0x61, 4096, 0x1000);
	rr_hdr_add_wseg(&h, 0x62, 4096, 0x9000);
	b = send_buf(&h, NULL, 0, &n);
	ib_send(c2s, 1, b, n, 4096);
	free(b);
	psn = ib_read(s2c, c2s, 10, 0x51, 0x10000, call.data, 4000, 1024, false);
	psn = ib_read(s2c, c2s, psn, 0x52, 0x20000, call.data + 4000, call.len - 4000, 1024, false);

	rr_wbuf_init(&reply, 0);
	rpc_reply_hdr(&reply, 0x300);
	rr_put_bytes(&reply, big, 5000);
	psn = ib_write(s2c, psn, 0x61, 0x1000, reply.data, 4096, 1024);
	psn = ib_write(s2c, psn, 0x62, 0x9000, reply.data + 4096, reply.len - 4096, 1024);
	rr_hdr_init(&h, 0x300, 32, RR_RDMA_NOMSG);
	rr_hdr_set_reply_chunk(&h);
	rr_hdr_add_wseg(&h, 0x61, 4096, 0x1000);
	rr_hdr_add_wseg(&h, 0x62, (uint32_t)reply.len - 4096, 0x9000);
	b = send_buf(&h, NULL, 0, &n);
	ib_send(s2c, psn, b, n, 4096);
	free(b);
	stop_engine();

	assert_int_equal(n_kept, 2);
	assert_int_equal(kept[0].v.n_pzrc_segs, 2);
	assert_int_equal(kept[0].v.n_read_segs, 0);
	assert_true(kept[0].v.reply_chunk);
	assert_int_equal(kept[0].v.inline_bytes, 0);
	assert_int_equal(kept[0].v.ddp_bytes, 0);
	assert_int_equal(kept[0].v.long_bytes, call.len);
	assert_int_equal(kept[0].n_segs, 2);
	assert_int_equal(kept[0].segs[0].role, RR_ROLE_PZRC);
	assert_int_equal(kept[0].segs[1].role, RR_ROLE_PZRC);
	assert_int_equal(kept[0].segs[1].index, 1);
	assert_int_equal(kept[0].segs[1].bytes, call.len - 4000);

	assert_int_equal(kept[1].v.inline_bytes, 0);
	assert_int_equal(kept[1].v.ddp_bytes, 0);
	assert_int_equal(kept[1].v.long_bytes, reply.len);
	assert_int_equal(kept[1].n_segs, 2);
	assert_int_equal(kept[1].segs[0].role, RR_ROLE_REPLY);
	assert_int_equal(kept[1].segs[1].role, RR_ROLE_REPLY);
	assert_int_equal(kept[1].segs[1].length, 4096);     /* as the call offered it */
	assert_int_equal(kept[1].segs[1].bytes, reply.len - 4096);
	rr_wbuf_free(&call);
	rr_wbuf_free(&reply);
}

/* A call sent again with its XID is a retry; another XID, or a reply, is not. */
static void test_retry(void **state)
{
	struct rr_flow_key c2s = roce(1, 2, 0x12), s2c = roce(2, 1, 0x11);

	(void)state;
	start();
	short_call(c2s, 1, 0x500);
	short_reply(s2c, 1, 0x500);
	short_call(c2s, 2, 0x500);
	short_call(c2s, 3, 0x501);
	stop_engine();
	assert_int_equal(n_kept, 4);
	assert_false(kept[0].v.retry);
	assert_false(kept[1].v.retry);
	assert_true(kept[2].v.retry);
	assert_false(kept[3].v.retry);
	assert_string_equal(kept[0].v.op, "NFSv3 NULL");
	assert_int_equal(kept[0].v.inline_bytes, 40);   /* the RPC call header, after the transport header */
}

/* The XID of the reply whose ulp must read as no program: nothing walked into it. */
static uint32_t unwalked_xid;
static int unwalked_seen;

static void ulp_zero(const struct rr_message *m)
{
	static const struct rr_ulp_info zero;

	if (m->xid != unwalked_xid)
		return;
	unwalked_seen++;
	assert_false(m->has_ulp);
	assert_memory_equal(&m->ulp, &zero, sizeof(zero));
}

/*
 * A reply whose call was never seen is not walked: its ulp reads as zeros,
 * not as what the message before it (an NFSv3 reply, on the same stack)
 * left there.
 */
static void test_unwalked_ulp_is_zero(void **state)
{
	struct rr_flow_key c2s = roce(1, 2, 0x12), s2c = roce(2, 1, 0x11);

	(void)state;
	start();
	inspect = ulp_zero;
	unwalked_xid = 0x777;
	unwalked_seen = 0;
	short_call(c2s, 1, 0x500);
	short_reply(s2c, 1, 0x500);
	short_reply(s2c, 2, 0x777);
	short_call(c2s, 2, 0x501);
	short_reply(s2c, 3, 0x501);
	short_reply(s2c, 4, 0x777);
	stop_engine();
	assert_int_equal(unwalked_seen, 2);
}

static void test_sha256(void **state)
{
	char out[RR_SHA256_HEX_LEN];

	(void)state;
	rr_sha256_hex("abc", 3, out);
	assert_string_equal(out, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	rr_sha256_hex(NULL, 0, out);
	assert_string_equal(out, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

/* The rfc5666 profile lowers RR-130 (RDMA_MSGP) to info; --disable removes it. */
static void test_profiles_and_disable(void **state)
{
	struct rr_check_opts o;
	struct rr_flow_key c2s = roce(1, 2, 0x12);
	struct rr_wbuf call;
	struct rr_hdr h;
	uint8_t *b;
	size_t n, call_len;
	int pass;

	(void)state;
	for (pass = 0; pass < 3; pass++) {
		start();
		rr_check_default_opts(&o);
		if (pass == 1)
			o.profile = RR_PROFILE_RFC5666;
		if (pass == 2)
			o.enabled[RR_130_MSGP] = false;
		rr_engine_set_check_opts(eng, &o);
		rr_wbuf_init(&call, 0);
		rpc_call_hdr(&call, 0x2000, 100003, 3, 0);
		rr_hdr_init(&h, 0x2000, 32, RR_RDMA_MSGP);
		h.align = 4096;
		h.thresh = 1024;
		b = send_buf(&h, call.data, call.len, &n);
		ib_send(c2s, 10, b, n, 4096);
		free(b);
		call_len = call.len;
		rr_wbuf_free(&call);
		stop_engine();
		assert_int_equal(n_kept, 1);
		/* RR-130 is judged at the Send (wire order). */
		assert_int_equal(msgp_seen, pass == 2 ? 0 : 1);
		if (pass < 2)
			assert_int_equal(msgp_sev, pass == 0 ? RR_SEV_ERROR : RR_SEV_INFO);
		/* RDMA_MSGP carries its message inline too. */
		assert_int_equal(kept[0].v.inline_bytes, call_len);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_view_outlives_engine),
		cmocka_unit_test(test_long_messages),
		cmocka_unit_test(test_retry),
		cmocka_unit_test(test_unwalked_ulp_is_zero),
		cmocka_unit_test(test_sha256),
		cmocka_unit_test(test_profiles_and_disable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
