// SPDX-License-Identifier: GPL-2.0-or-later
// ulb-lint --report: one connection's charts, drawn by uPlot (third_party/uplot).  Every series is cut
// to at most RR.BUCKETS points by time, so a connection of a million RPCs draws as fast as a small one.
"use strict";

RR.BUCKETS = 600;

RR.Charts = function (d) {
	this.d = d;
	this.plots = [];
	this.op = -1;
};

RR.Charts.prototype.width = function (host) {
	return Math.max(360, host.clientWidth - 8);
};

RR.Charts.prototype.plot = function (host, opts, data) {
	host.textContent = "";
	opts.width = this.width(host);
	opts.height = opts.height || 230;
	opts.scales = opts.scales || {};
	opts.scales.x = {time: false};
	opts.axes = [{label: "seconds since the first Send", size: 44}, {label: opts.ylabel, size: 70}];
	// Counts (credits, calls): from zero, a little room over the highest, ticks on whole numbers.
	if (opts.counts) {
		opts.scales.y = {range: function (u, lo, hi) { return [0, hi > 0 ? hi + Math.max(1, Math.ceil(hi * 0.1)) : 1]; }};
		opts.axes[1].incrs = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000];
	}
	opts.legend = {live: true};
	// The y range drawn, for a reader of the page (and its tests) that cannot see the canvas.
	opts.hooks = {setScale: [function (u, key) {
		if (key !== "y") return;
		host.setAttribute("data-ymin", u.scales.y.min);
		host.setAttribute("data-ymax", u.scales.y.max);
	}]};
	var p = new uPlot(opts, data, host);
	p.rrHost = host;
	this.plots.push(p);
	return p;
};

RR.Charts.prototype.clear = function () {
	this.plots.forEach(function (p) { p.destroy(); });
	this.plots = [];
};

RR.Charts.prototype.resize = function () {
	var self = this;
	this.plots.forEach(function (p) { p.setSize({width: self.width(p.rrHost), height: p.height}); });
};

// Bucket index for a time t in [t0, t1] cut into nb buckets.
function rrBucket(t, t0, t1, nb) {
	return t1 > t0 ? Math.min(nb - 1, Math.floor((t - t0) / (t1 - t0) * nb)) : 0;
}

RR.Charts.prototype.span = function (conn) {
	var r = this.d.rpc, t0 = Infinity, t1 = -Infinity;
	conn.rpcs.forEach(function (i) {
		[r.ct[i], r.rt[i]].forEach(function (t) { if (t >= 0) { t0 = Math.min(t0, t); t1 = Math.max(t1, t); } });
	});
	return t0 <= t1 ? [t0, t1] : [0, 0];
};

// Per time slice of the connection: the lowest credits the responder granted (each reply's rdma_credit)
// and the most calls outstanding as each call went out (the check stage's count; RR-102 leaves out of it
// the calls whose reply it takes the capture to have lost, docs/ulb-lint-report.md).
RR.Charts.prototype.creditSlices = function (conn) {
	var r = this.d.rpc, sp = this.span(conn), nb = Math.min(RR.BUCKETS, Math.max(1, conn.rpcs.length));
	var xs = [], grant = [], out = [], b;
	for (b = 0; b < nb; b++) { xs.push((sp[0] + (b + 0.5) * (sp[1] - sp[0]) / nb) / 1e6); grant.push(null); out.push(null); }
	conn.rpcs.forEach(function (i) {
		if (r.flags[i] & RR.F.BACK) return;
		if (r.ct[i] >= 0 && r.cf[i]) {
			b = rrBucket(r.ct[i], sp[0], sp[1], nb);
			out[b] = Math.max(out[b] || 0, r.out[i]);
		}
		if (r.rt[i] >= 0 && r.rf[i] && (r.proc[i] >> 3) !== 4 && r.cgr[i]) {
			b = rrBucket(r.rt[i], sp[0], sp[1], nb);
			grant[b] = grant[b] === null ? r.cgr[i] : Math.min(grant[b], r.cgr[i]);
		}
	});
	return {xs: xs, grant: grant, out: out};
};

// Two charts, each on its own axis: a grant of 128 credits would flatten a handful of calls outstanding
// to its floor.  Both start at zero, so a slice's height reads the same way on either.
RR.Charts.prototype.credits = function (host, conn) {
	var s = this.creditSlices(conn);
	this.plot(host, {ylabel: "credits", counts: true, series: [{label: "t (s)"},
		{label: "credits granted (lowest)", stroke: "#2b7a3d", width: 2, spanGaps: true,
			paths: uPlot.paths.stepped({align: 1})}]}, [s.xs, s.grant]);
};

RR.Charts.prototype.outstanding = function (host, conn) {
	var s = this.creditSlices(conn);
	this.plot(host, {ylabel: "calls", counts: true, series: [{label: "t (s)"},
		{label: "calls outstanding (highest)", stroke: "#1f4e79", fill: "rgba(31,78,121,0.12)", width: 1.5,
			spanGaps: true}]}, [s.xs, s.out]);
};

// Response time of one operation (or all) per time bucket: median, p99 and the slowest.
RR.Charts.prototype.latency = function (host, conn, op) {
	var r = this.d.rpc, sp = this.span(conn), per = [], n = 0, b;
	conn.rpcs.forEach(function (i) { if (r.rt[i] >= 0 && r.ct[i] >= 0 && (op < 0 || r.op[i] === op)) n++; });
	var nb = Math.max(1, Math.min(RR.BUCKETS / 2, Math.ceil(n / 8)));
	for (b = 0; b < nb; b++) per.push([]);
	conn.rpcs.forEach(function (i) {
		if (r.rt[i] < 0 || r.ct[i] < 0 || (op >= 0 && r.op[i] !== op) || (r.flags[i] & RR.F.BACK)) return;
		per[rrBucket(r.rt[i], sp[0], sp[1], nb)].push((r.rt[i] - r.ct[i]) / 1000);
	});
	var xs = [], p50 = [], p99 = [], max = [];
	per.forEach(function (v, k) {
		if (!v.length) return;
		v.sort(function (a, c) { return a - c; });
		xs.push((sp[0] + (k + 0.5) * (sp[1] - sp[0]) / nb) / 1e6);
		p50.push(RR.pct(v, 0.5));
		p99.push(RR.pct(v, 0.99));
		max.push(v[v.length - 1]);
	});
	this.plot(host, {ylabel: "ms", series: [{label: "t (s)"},
		{label: "median", stroke: "#1f4e79", width: 2},
		{label: "p99", stroke: "#d08700", width: 1.5},
		{label: "slowest", stroke: "#c8102e", width: 1, dash: [4, 3]}]}, [xs, p50, p99, max]);
};

// Bytes per time bucket by how they travelled: inline in Sends, DDP (chunks), Long messages.
RR.Charts.prototype.bytes = function (host, conn) {
	var r = this.d.rpc, sp = this.span(conn), nb = Math.min(RR.BUCKETS / 2, Math.max(1, conn.rpcs.length)), b;
	var xs = [], inl = [], ddp = [], lng = [];
	for (b = 0; b < nb; b++) { xs.push((sp[0] + (b + 0.5) * (sp[1] - sp[0]) / nb) / 1e6); inl.push(0); ddp.push(0); lng.push(0); }
	conn.rpcs.forEach(function (i) {
		var t = r.ct[i] >= 0 ? r.ct[i] : r.rt[i];
		if (t < 0) return;
		b = rrBucket(t, sp[0], sp[1], nb);
		inl[b] += r.cin[i] + r.rin[i];
		ddp[b] += r.ddp[i];
		lng[b] += r.lng[i];
	});
	this.plot(host, {ylabel: "bytes", series: [{label: "t (s)"},
		{label: "DDP (chunks)", stroke: "#7b3fa0", fill: "rgba(123,63,160,0.18)", width: 1.5},
		{label: "inline (Sends)", stroke: "#1f4e79", fill: "rgba(31,78,121,0.12)", width: 1.5},
		{label: "Long messages", stroke: "#2b7a3d", width: 1.5}]}, [xs, ddp, inl, lng]);
};

// Per operation over the whole connection, with --summary's percentile rule.
RR.Charts.prototype.opTable = function (conn) {
	var r = this.d.rpc, by = {}, d = this.d;
	conn.rpcs.forEach(function (i) {
		if (r.rt[i] < 0 || r.ct[i] < 0 || (r.flags[i] & RR.F.BACK)) return;
		(by[r.op[i]] = by[r.op[i]] || []).push(r.rt[i] - r.ct[i]);
	});
	var rows = Object.keys(by).map(function (k) {
		var v = by[k].sort(function (a, b) { return a - b; });
		return {op: +k, name: d.ops[k], n: v.length, p50: RR.pct(v, 0.5), p99: RR.pct(v, 0.99), max: v[v.length - 1]};
	});
	rows.sort(function (a, b) { return a.name < b.name ? -1 : a.name > b.name; });
	return rows;
};
