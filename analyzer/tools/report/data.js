// SPDX-License-Identifier: GPL-2.0-or-later
// ulb-lint --report: the page's data (the JSON ulb-lint writes into #rr-data), indexed for drawing.
//
// The JSON (analyzer/tools/lint_html_json.c):
//   capture, read_error (why it was not read to its end, or null), t0 (microseconds of the first Send),
//   skipped[] and skip_reasons[] (by reason),
//   conns[]: id, name, transport, handshake, inline thresholds, calls, replies, backchannel,
//            incomplete, retries, inline_bytes, ddp_bytes, long_bytes (counted as --summary counts);
//   ops[]: operation labels ("NFSv3 READ");
//   findings[]: r rule, s severity, f frame, c connection, x XID, p RPC index (-1 none),
//               fr evidence frames (the first 16), fa how many in all, t text;
//   rules{code}: name, count, severity, group, anchor (its row's in docs/rules.md: the code), section, text, evidence;
//   rpc{column[]}: one entry per RPC in wire order: conn, xid, op, cf/rf call and reply Send
//            frame (0 unseen), ct/rt their times since t0 (-1 unseen), creq/cgr credits asked
//            and granted, out calls outstanding with the call, cin/rin inline bytes, ddp, lng,
//            flags (1 backchannel, 2 retry, 4 call incomplete, 8 call seen, 16 reply seen,
//            32 reply incomplete, 64 capture loss), proc (call | reply << 3; 7 unseen),
//            more (RDMA packets past the runs kept), rd (runs: kind, first, last, packets, ...;
//            kind 0 Write, 1 Read Request, 2 Read Response).
"use strict";

RR.F = {BACK: 1, RETRY: 2, CALL_INC: 4, CALL: 8, REPLY: 16, REPLY_INC: 32, LOSS: 64};
RR.PROCS = ["RDMA_MSG", "RDMA_NOMSG", "RDMA_MSGP", "RDMA_DONE", "RDMA_ERROR", "proc 5", "proc 6", null];
RR.KINDS = ["RDMA Write", "RDMA Read Request", "RDMA Read Response"];

RR.load = function () {
	var d = JSON.parse(document.getElementById("rr-data").textContent), r = d.rpc, n = r.conn.length, i;
	d.n = n;
	d.connOf = {};
	d.conns.forEach(function (c) { d.connOf[c.id] = c; c.rpcs = []; c.findings = 0; });
	for (i = 0; i < n; i++) {
		var c = r.conn[i];
		if (!d.connOf[c]) {
			// An RPC whose messages all went to other connection numbers (see engine.h conn_id).
			d.connOf[c] = {id: c, name: "connection " + c, calls: 0, replies: 0, rpcs: [], findings: 0,
				inline_bytes: 0, ddp_bytes: 0, long_bytes: 0, synthetic: true};
			d.conns.push(d.connOf[c]);
		}
		d.connOf[c].rpcs.push(i);
	}
	d.conns.sort(function (a, b) { return a.id - b.id; });
	d.conns.forEach(function (c) { c.rpcs = Uint32Array.from(c.rpcs); });
	// The position of each RPC in its connection's list (the ladder's row numbers).
	d.pos = new Uint32Array(n);
	d.conns.forEach(function (c) { for (var k = 0; k < c.rpcs.length; k++) d.pos[c.rpcs[k]] = k; });
	// Findings by the RPC they are marked on.
	d.marks = new Map();
	d.findings.forEach(function (f, k) {
		f.k = k;
		if (f.p >= 0) {
			if (!d.marks.has(f.p)) d.marks.set(f.p, []);
			d.marks.get(f.p).push(f);
			if (d.connOf[r.conn[f.p]]) d.connOf[r.conn[f.p]].findings++;
		}
	});
	return d;
};

// The RPC nearest to a frame on a connection (by call frame, else reply frame): for a jump to a frame.
RR.rpcAtFrame = function (d, conn, frame) {
	var list = conn.rpcs, lo = 0, hi = list.length, r = d.rpc;
	while (lo < hi) {
		var mid = (lo + hi) >> 1, i = list[mid], f = r.cf[i] || r.rf[i];
		if (f <= frame) lo = mid + 1; else hi = mid;
	}
	return Math.max(0, lo - 1);
};

// The RPC a frame belongs to (its call or reply Send, or one of its RDMA runs), or -1.
RR.rpcOfFrame = function (d, frame) {
	var r = d.rpc, i, k, rd;
	for (i = 0; i < d.n; i++) {
		if (r.cf[i] === frame || r.rf[i] === frame) return i;
		rd = r.rd[i];
		for (k = 0; k < rd.length; k += 4) if (frame >= rd[k + 1] && frame <= rd[k + 2]) return i;
	}
	return -1;
};

// The RPC a frame carries, else the one nearest to it by frame number (-1: no RPC at all).
RR.findFrame = function (d, frame) {
	var r = d.rpc, i = RR.rpcOfFrame(d, frame);
	if (i >= 0) return i;
	var best = -1, bestGap = Infinity;
	for (i = 0; i < d.n; i++) {
		var g = Math.abs((r.cf[i] || r.rf[i]) - frame);
		if (g < bestGap) { bestGap = g; best = i; }
	}
	return best;
};
