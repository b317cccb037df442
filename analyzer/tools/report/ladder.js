// SPDX-License-Identifier: GPL-2.0-or-later
// ulb-lint --report: the ladder of one connection's RPCs (an SVG drawn for a window of them) and the
// minimap of the whole connection under it (response time per column, findings, RPCs never answered).
"use strict";

RR.Ladder = function (d, box, minimap) {
	this.d = d;
	this.box = box;
	this.map = minimap;
	this.size = 25;
	this.pos = 0;
	this.hlFrame = 0;
	this.conn = null;
};

RR.Ladder.ROW = 18;

// The arrows of one RPC, top to bottom: its call, its RDMA runs, its reply.
RR.Ladder.prototype.arrows = function (i) {
	var r = this.d.rpc, out = [], rd = r.rd[i], k, back = r.flags[i] & RR.F.BACK;
	var cp = r.proc[i] & 7, rp = r.proc[i] >> 3;
	if (r.cf[i]) out.push({cls: "call", toResp: !back, first: r.cf[i], last: r.cf[i], n: 1,
		text: (back ? "Backchannel call " : "Call ") + (RR.PROCS[cp] || "") +
			(r.cin[i] ? ", " + RR.int(r.cin[i]) + " B inline" : "") + ", credits asked " + r.creq[i]});
	for (k = 0; k < rd.length; k += 4) {
		var kind = rd[k];
		out.push({cls: ["write", "rreq", "rresp"][kind], toResp: kind === 2 ? !back : !!back,
			first: rd[k + 1], last: rd[k + 2], n: rd[k + 3], text: RR.KINDS[kind]});
	}
	if (r.more[i]) out.push({cls: "more", toResp: false, first: 0, last: 0, n: r.more[i],
		text: "and " + RR.int(r.more[i]) + " more RDMA packets"});
	if (r.rf[i]) {
		var rt = r.rt[i] >= 0 && r.ct[i] >= 0 ? r.rt[i] - r.ct[i] : -1;
		out.push({cls: "reply", toResp: !!back, first: r.rf[i], last: r.rf[i], n: 1,
			text: "Reply " + (RR.PROCS[rp] || "") + (r.rin[i] ? ", " + RR.int(r.rin[i]) + " B inline" : "") +
				", grants " + r.cgr[i] + (rt >= 0 ? ", after " + RR.ms(rt) : "")});
	} else {
		out.push({cls: "noreply", toResp: !!back, first: 0, last: 0, n: 0,
			text: "no reply in the capture"});
	}
	return out;
};

RR.Ladder.prototype.frames = function (a) {
	if (!a.first) return "";
	if (a.first === a.last) return "frame " + a.first;
	return "frames " + a.first + "\u2013" + a.last + " (" + RR.int(a.n) + " packets)";
};

RR.Ladder.prototype.setConn = function (conn) {
	this.conn = conn;
	this.pos = 0;
	this.mapCols = null;
	this.render();
};

RR.Ladder.prototype.show = function (pos) {
	var n = this.conn ? this.conn.rpcs.length : 0;
	this.pos = Math.max(0, Math.min(pos, n - this.size));
	this.render();
};

// Bring RPC i into the window (a third of the way down) and mark the arrow holding frame.
RR.Ladder.prototype.focus = function (i, frame) {
	this.hlFrame = frame || 0;
	this.show(this.d.pos[i] - Math.floor(this.size / 3));
	// Scroll the ladder's own box (not the page) to put the marked arrow a third of the way down.
	var hl = this.box.querySelector(".hl, .mark.hl");
	if (hl) {
		this.box.scrollTop += hl.getBoundingClientRect().top - this.box.getBoundingClientRect().top -
			this.box.clientHeight / 3;
		// The box may reach below the window (a small one, a tall header): the page follows too.
		hl.scrollIntoView({block: "nearest"});
	}
};

RR.Ladder.prototype.render = function () {
	var d = this.d, r = d.rpc, conn = this.conn, svg = RR.svg("svg", {id: "ladder"}), ROW = RR.Ladder.ROW;
	var W = Math.max(820, this.box.clientWidth - 4), reqX = 300, respX = W - 250, y = 34, self = this;
	if (!conn) return;
	var end = Math.min(conn.rpcs.length, this.pos + this.size), p, j;
	svg.appendChild(RR.svg("text", {x: reqX, y: 14, class: "lane"}, "requester (client)"));
	svg.appendChild(RR.svg("text", {x: respX, y: 14, class: "lane"}, "responder (server)"));
	svg.appendChild(RR.svg("text", {x: respX + 70, y: 14, class: "lane-l"}, "findings"));
	var lanesTop = 20;
	for (p = this.pos; p < end; p++) {
		var i = conn.rpcs[p], arrows = this.arrows(i), marks = d.marks.get(i) || [];
		var g = RR.svg("g", {class: "rpc", "data-rpc": i, "data-pos": p});
		var flags = r.flags[i], label = "#" + (p + 1) + "  " + RR.hex(r.xid[i]);
		g.appendChild(RR.svg("line", {x1: 0, x2: W, y1: y - 13, y2: y - 13, class: "sep"}));
		var idText = RR.svg("text", {x: 4, y: y, class: "rpc-id"}, label);
		idText.appendChild(RR.svg("tspan", {class: "rpc-t", dx: 8}, RR.secs(r.ct[i] >= 0 ? r.ct[i] : r.rt[i])));
		g.appendChild(idText);
		var opText = RR.svg("text", {x: 4, y: y + ROW - 2, class: "rpc-op"}, d.ops[r.op[i]]);
		[[RR.F.RETRY, "retry"], [RR.F.BACK, "backchannel"], [RR.F.CALL_INC | RR.F.REPLY_INC, "incomplete"],
			[RR.F.LOSS, "bytes lost"]].forEach(function (x) {
			if (flags & x[0]) opText.appendChild(RR.svg("tspan", {class: "flag", dx: 8}, x[1]));
		});
		g.appendChild(opText);
		var rows = Math.max(arrows.length, 2), used = {};
		arrows.forEach(function (a, k) {
			var ay = y + k * ROW, x1 = a.toResp ? reqX : respX, x2 = a.toResp ? respX : reqX;
			var hl = self.hlFrame && a.first && self.hlFrame >= a.first && self.hlFrame <= a.last;
			var ag = RR.svg("g", {class: "arrow " + a.cls + (hl ? " hl" : ""), "data-first": a.first || null,
				"data-last": a.last || null});
			if (a.cls !== "more" && a.cls !== "noreply")
				ag.appendChild(RR.svg("line", {x1: x1, y1: ay - 2, x2: x2, y2: ay + 4, "marker-end": "url(#ah)"}));
			ag.appendChild(RR.svg("text", {x: (reqX + respX) / 2, y: ay - 4, class: "al"},
				a.text + (a.first ? " \u00b7 " + self.frames(a) : "")));
			ag.appendChild(RR.svg("title", {}, a.text + "\n" + self.frames(a) +
				(a.first ? "\nWireshark: frame.number == " + a.first : "")));
			g.appendChild(ag);
			// This arrow's findings, at its height right of the responder's lane.
			var col = 0;
			marks.forEach(function (f) {
				if (used[f.k] || !(f.f >= a.first && f.f <= a.last && a.first)) return;
				used[f.k] = true;
				g.appendChild(self.mark(f, respX + 16 + col++ * 74, ay));
			});
		});
		// Findings that point at no arrow of this RPC (an outcome, a frame elsewhere): on its first row.
		var col2 = 0;
		marks.forEach(function (f) {
			if (!used[f.k]) g.appendChild(self.mark(f, respX + 16 + 74 * (2 + col2++), y));
		});
		svg.appendChild(g);
		y += rows * ROW + 8;
	}
	svg.insertBefore(RR.svg("line", {x1: reqX, x2: reqX, y1: lanesTop, y2: y, class: "laneline"}), svg.firstChild);
	svg.insertBefore(RR.svg("line", {x1: respX, x2: respX, y1: lanesTop, y2: y, class: "laneline"}), svg.firstChild);
	var defs = RR.svg("defs"), m = RR.svg("marker", {id: "ah", viewBox: "0 0 10 10", refX: 9, refY: 5,
		markerWidth: 9, markerHeight: 9, markerUnits: "userSpaceOnUse", orient: "auto-start-reverse"});
	m.appendChild(RR.svg("path", {d: "M0,0 L10,5 L0,10 z", class: "ah"}));
	defs.appendChild(m);
	svg.insertBefore(defs, svg.firstChild);
	svg.setAttribute("width", W);
	svg.setAttribute("height", y);
	svg.setAttribute("viewBox", "0 0 " + W + " " + y);
	if (!conn.rpcs.length)
		svg.appendChild(RR.svg("text", {x: 4, y: 40}, "no RPC on this connection"));
	var old = this.box.querySelector("svg");
	if (old) this.box.replaceChild(svg, old); else this.box.appendChild(svg);
	if (this.onmove) this.onmove(this.pos, end, conn.rpcs.length);
	this.drawMap();
};

RR.Ladder.prototype.mark = function (f, x, y) {
	var g = RR.svg("g", {class: "mark sev-" + f.s + (this.hlFrame === f.f ? " hl" : ""), "data-rule": f.r,
		"data-frame": f.f, "data-finding": f.k, tabindex: 0});
	g.appendChild(RR.svg("rect", {x: x, y: y - 13, width: 70, height: 16, rx: 3}));
	g.appendChild(RR.svg("text", {x: x + 35, y: y - 1}, f.r));
	g.appendChild(RR.svg("title", {}, f.r + " " + f.s + " at frame " + f.f + ": " + f.t));
	g.addEventListener("click", function () { RR.showFinding(f.k); });
	return g;
};

// Per pixel column of the minimap: the slowest response, whether an RPC went unanswered, the worst finding.
RR.Ladder.prototype.columns = function (W) {
	var d = this.d, r = d.rpc, list = this.conn.rpcs, n = list.length, cols = [], c, p;
	var sevRank = {info: 1, warning: 2, error: 3};
	for (c = 0; c < W; c++) cols.push({rt: 0, lost: false, sev: 0});
	var maxRt = 1;
	for (p = 0; p < n; p++) {
		var i = list[p], col = cols[Math.min(W - 1, Math.floor(p * W / n))];
		if (r.rt[i] >= 0 && r.ct[i] >= 0) {
			col.rt = Math.max(col.rt, r.rt[i] - r.ct[i]);
			maxRt = Math.max(maxRt, col.rt);
		} else if (!r.rf[i]) {
			col.lost = true;
		}
		(d.marks.get(i) || []).forEach(function (f) { col.sev = Math.max(col.sev, sevRank[f.s] || 1); });
	}
	return {cols: cols, maxRt: maxRt};
};

RR.Ladder.prototype.drawMap = function () {
	var cv = this.map, W = Math.max(200, cv.parentNode.clientWidth), H = 44, n = this.conn.rpcs.length;
	if (cv.width !== W) { cv.width = W; this.mapCols = null; }
	cv.height = H;
	if (!this.mapCols) this.mapCols = this.columns(W);
	var ctx = cv.getContext("2d"), cols = this.mapCols.cols, maxRt = this.mapCols.maxRt, x;
	var colors = ["", "#7a8594", "#d08700", "#c8102e"];
	ctx.clearRect(0, 0, W, H);
	ctx.fillStyle = "#f3f5f8";
	ctx.fillRect(0, 0, W, H);
	for (x = 0; x < W; x++) {
		var c = cols[x], h = Math.round((H - 12) * Math.sqrt(c.rt / maxRt));
		if (h) { ctx.fillStyle = "#9fb3c8"; ctx.fillRect(x, H - h, 1, h); }
		if (c.lost) { ctx.fillStyle = "#c8102e"; ctx.fillRect(x, H - 6, 1, 6); }
		if (c.sev) { ctx.fillStyle = colors[c.sev]; ctx.fillRect(Math.max(0, x - 1), 0, 3, 9); }
	}
	if (n) {
		var x0 = Math.floor(this.pos * W / n), x1 = Math.ceil(Math.min(n, this.pos + this.size) * W / n);
		ctx.strokeStyle = "#1f4e79";
		ctx.lineWidth = 2;
		ctx.strokeRect(x0 + 1, 1, Math.max(3, x1 - x0 - 2), H - 2);
	}
};

// Click or drag on the minimap moves the window there.
RR.Ladder.prototype.bindMap = function () {
	var self = this, down = false;
	var move = RR.throttle(function (ev) {
		var rect = self.map.getBoundingClientRect(), n = self.conn.rpcs.length;
		self.hlFrame = 0;
		self.show(Math.round((ev.clientX - rect.left) / rect.width * n - self.size / 2));
	});
	this.map.addEventListener("mousedown", function (ev) { down = true; move(ev); });
	window.addEventListener("mousemove", function (ev) { if (down) move(ev); });
	window.addEventListener("mouseup", function () { down = false; });
};
