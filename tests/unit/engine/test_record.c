// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The message record is self-contained: a copy made in the callback stays
 * whole after the engine is gone (the plugin keeps one per frame), and it
 * carries what the rules need - the call's header and Send frame for a
 * reply, where each DDP-eligible item went, the bytes seen per segment, the
 * connection's roles - and the findings the check stage attached.
 */
#include "engine_fixture.h"

static struct rr_message *kept[8];
static int n_kept;
static int sink_091;
static uint64_t sink_091_frame;

static void keep(void *ctx, const struct rr_message *m)
{
	assert_true(n_kept < 8);
	kept[n_kept++] = rr_message_copy(m);
}

static int msgp_seen;
static enum rr_severity msgp_sev;

static void count(void *ctx, const struct rr_diag *d)
{
	if (d->id == RR_130_MSGP) {
		msgp_seen++;
		msgp_sev = d->severity;
	}
	if (d->id == RR_091_WRITE_COUNT) {
		sink_091++;
		sink_091_frame = d->frame;
	}
}

/* READ reply whose Write chunk returned 100 bytes while its length word says 96 (RR-091). */
static void test_copy_outlives_engine(void **state)
{
	struct rr_diag_sink sink = { count, NULL };
	struct rr_flow_key c2s = roce(1, 2, 0x12), s2c = roce(2, 1, 0x11);
	struct rr_wbuf rep;
	struct rr_hdr h;
	uint8_t data[100], *b;
	const struct rr_message *r;
	size_t n, i;
	bool found = false;

	n_kept = 0;
	eng = rr_engine_new(NULL, keep, NULL, &sink);
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
	rr_hdr_init(&h, 0x1000, 32, RR_RDMA_MSG);
	rr_hdr_add_write_chunk(&h);
	rr_hdr_add_wseg(&h, 0xabc, 100, 0x7000);
	b = send_buf(&h, rep.data, rep.len, &n);
	ib_send(s2c, 101, b, n, 4096);                                /* frame 3 */
	free(b);
	rr_wbuf_free(&rep);
	rr_engine_finish(eng);
	rr_engine_free(eng);
	eng = NULL;

	assert_int_equal(n_kept, 2);
	r = kept[1];
	assert_int_equal(r->dir, RR_DIR_REPLY);
	assert_int_equal(r->xid, 0x1000);
	assert_int_equal(r->send_frame, 3);
	assert_non_null(r->call_hdr);
	assert_int_equal(r->call_hdr->n_write_chunks, 1);
	assert_int_equal(rr_hdr_wseg(r->call_hdr, &r->call_hdr->writes[0], 0)->length, 8192);
	assert_int_equal(r->call_send_frame, 1);
	assert_true(r->conn.roles_known);
	assert_int_equal(r->conn.inline_source, RR_INLINE_DEFAULT);
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
	assert_memory_equal(r->payload + r->items[0].data_pos, data, 96);
	for (i = 0; i < r->n_findings; i++)
		if (r->findings[i].id == RR_091_WRITE_COUNT) {
			found = true;
			assert_int_equal(r->findings[i].frame, 3);
			assert_true(r->findings[i].has_xid);
			assert_int_equal(r->findings[i].xid, 0x1000);
			assert_int_equal(r->findings[i].severity, RR_SEV_ERROR);
			assert_non_null(strstr(r->findings[i].text, "96"));
			assert_true(r->findings[i].n_frames >= 2);
		}
	assert_true(found);
	/* The same finding reached the sink, tied to the same frame. */
	assert_int_equal(sink_091, 1);
	assert_int_equal(sink_091_frame, 3);
	assert_int_equal(kept[0]->dir, RR_DIR_CALL);
	assert_int_equal(kept[0]->n_findings, 0);
	for (i = 0; i < (size_t)n_kept; i++)
		rr_message_free(kept[i]);
}

/* The rfc5666 profile lowers RR-130 (RDMA_MSGP) to info; --disable removes it. */
static void test_profiles_and_disable(void **state)
{
	struct rr_check_opts o;
	struct rr_flow_key c2s = roce(1, 2, 0x12);
	struct rr_wbuf call;
	struct rr_hdr h;
	uint8_t *b;
	size_t n;
	int pass;

	struct rr_diag_sink sink = { count, NULL };

	for (pass = 0; pass < 3; pass++) {
		n_kept = 0;
		msgp_seen = 0;
		eng = rr_engine_new(NULL, keep, NULL, &sink);
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
		rr_wbuf_free(&call);
		rr_engine_finish(eng);
		rr_engine_free(eng);
		eng = NULL;
		assert_int_equal(n_kept, 1);
		/* RR-130 is judged at the Send (wire order) and joins the record when it is rebuilt. */
		assert_int_equal(msgp_seen, pass == 2 ? 0 : 1);
		assert_int_equal(kept[0]->n_findings, pass == 2 ? 0 : 1);
		if (pass < 2) {
			assert_int_equal(msgp_sev, pass == 0 ? RR_SEV_ERROR : RR_SEV_INFO);
			assert_int_equal(kept[0]->findings[0].id, RR_130_MSGP);
			assert_int_equal(kept[0]->findings[0].severity, msgp_sev);
		}
		rr_message_free(kept[0]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_copy_outlives_engine),
		cmocka_unit_test(test_profiles_and_disable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
