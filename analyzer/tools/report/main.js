// SPDX-License-Identifier: GPL-2.0-or-later
// ulb-lint --report: the page put together: the header, the connections, the chosen connection's ladder
// and charts, the findings; #frame=N and #conn=N in the address choose what is shown.
"use strict";

RR.header = function (d) {
	var sev = {error: 0, warning: 0, info: 0}, rpcs = 0, skipped = 0;
	Object.keys(d.rules).forEach(function (c) { sev[d.rules[c].severity] += d.rules[c].count; });
	d.conns.forEach(function (c) { rpcs += c.calls || 0; });
	d.skipped.forEach(function (n) { skipped += n; });
	document.getElementById("capture").textContent = d.capture;
	if (d.read_error) {      /* the page is mailed as it is: it says itself that the capture was not read whole */
		var re = document.getElementById("read-error");
		re.textContent = "Not read to its end: " + d.read_error;
		re.hidden = false;
	}
	var t = document.getElementById("totals");
	t.appendChild(RR.el("span", {class: "total", id: "total-calls", "data-n": rpcs}, RR.int(rpcs) + (rpcs === 1 ? " call" : " calls")));
	t.appendChild(RR.el("span", {class: "total"}, d.conns.length + (d.conns.length === 1 ? " connection" : " connections")));
	["error", "warning", "info"].forEach(function (s) {
		t.appendChild(RR.el("a", {class: "total sev-" + s + (sev[s] ? "" : " zero"), href: "#findings",
			"data-n": sev[s]}, RR.int(sev[s]) + " " + s + (sev[s] === 1 ? "" : "s")));
	});
	var why = d.skipped.map(function (n, i) { return n ? RR.int(n) + " because " + d.skip_reasons[i] : null; })
		.filter(Boolean).join("; ");
	t.appendChild(RR.el("span", {class: "total" + (skipped ? " warn" : ""), title: why || "none"},
		RR.int(skipped) + " checks skipped"));
};

RR.connTable = function (d, select) {
	var tb = document.querySelector("#conns tbody");
	d.conns.forEach(function (c) {
		var moved = c.ddp_bytes + c.inline_bytes + c.long_bytes;
		var cell = function (k, v, txt) { return RR.el("td", {"data-k": k, "data-v": v}, txt === undefined ? RR.int(v) : txt); };
		var tr = RR.el("tr", {"data-conn": c.id, tabindex: 0},
			cell("id", c.id), RR.el("td", {class: "name"}, c.name),
			cell("calls", c.calls), cell("replies", c.replies), cell("backchannel", c.backchannel || 0),
			cell("incomplete", c.incomplete || 0), cell("retries", c.retries || 0),
			cell("ddp", c.ddp_bytes, RR.bytes(c.ddp_bytes)), cell("inline", c.inline_bytes, RR.bytes(c.inline_bytes)),
			cell("long", c.long_bytes, RR.bytes(c.long_bytes)),
			cell("share", moved ? c.ddp_bytes / moved : 0, moved ? (100 * c.ddp_bytes / moved).toFixed(1) + " %" : "\u2013"),
			cell("findings", c.findings),
			RR.el("td", {class: "note"}, [c.handshake ? "handshake" : (c.synthetic ? "" : "no handshake"),
				c.lost_packets ? RR.int(c.lost_packets) + " packets lost" : "",
				c.lost_bytes ? RR.bytes(c.lost_bytes) + " lost" : ""].filter(Boolean).join(", ")));
		tr.onclick = function () { location.hash = "conn=" + c.id; };
		tb.appendChild(tr);
		select.appendChild(RR.el("option", {value: c.id}, "connection " + c.id + ": " + c.name + " (" +
			RR.int(c.rpcs.length) + " RPCs)"));
	});
};

RR.main = function () {
	var d = RR.load(), sel = document.getElementById("conn-select"), cur = null;
	var ladder = new RR.Ladder(d, document.getElementById("ladder-box"), document.getElementById("minimap"));
	var charts = new RR.Charts(d), findings = new RR.Findings(d, document.getElementById("finding-list"));
	var pos = document.getElementById("lad-pos"), opSel = document.getElementById("op-select");
	var chartsDue = null, chartsSeen = false, observer = window.IntersectionObserver ? new IntersectionObserver(function (e) {
		chartsSeen = e.some(function (x) { return x.isIntersecting; });
		if (chartsSeen) drawCharts();
	}) : null;
	if (observer) observer.observe(document.getElementById("charts"));
	RR.data = d;
	RR.header(d);
	RR.connTable(d, sel);
	findings.render();
	RR.showFinding = function (k) { findings.reveal(k); };
	ladder.onmove = function (p, end, n) {
		pos.max = Math.max(0, n - ladder.size);
		pos.value = p;
		document.getElementById("lad-where").textContent = n ? "RPCs " + RR.int(p + 1) + "\u2013" + RR.int(end) +
			" of " + RR.int(n) : "";
	};
	ladder.bindMap();

	function drawLatency() {
		charts.plots = charts.plots.filter(function (p) {
			if (p.rrHost.id !== "chart-rt") return true;
			p.destroy();
			return false;
		});
		charts.latency(document.getElementById("chart-rt"), cur, +opSel.value);
	}
	function setConn(c) {
		if (cur === c) return;
		cur = c;
		sel.value = c.id;
		Array.prototype.forEach.call(document.querySelectorAll("#conns tr.cur"), function (e) { e.classList.remove("cur"); });
		var row = document.querySelector('#conns tr[data-conn="' + c.id + '"]');
		if (row) row.classList.add("cur");
		document.getElementById("conn-name").textContent = "connection " + c.id + ": " + c.name;
		ladder.setConn(c);
		chartsDue = c;
		if (!observer || chartsSeen) drawCharts();
	}
	// The charts of the chosen connection, drawn once their section is on screen (a jump from finding to
	// finding across connections redraws only the ladder).
	function drawCharts() {
		var c = chartsDue;
		if (!c) return;
		chartsDue = null;
		charts.clear();
		charts.credits(document.getElementById("chart-credits"), c);
		charts.outstanding(document.getElementById("chart-outstanding"), c);
		charts.bytes(document.getElementById("chart-bytes"), c);
		var rows = charts.opTable(c), tb = document.querySelector("#ops tbody");
		opSel.textContent = "";
		opSel.appendChild(RR.el("option", {value: -1}, "all operations"));
		tb.textContent = "";
		rows.forEach(function (o) {
			opSel.appendChild(RR.el("option", {value: o.op}, o.name + " (" + RR.int(o.n) + ")"));
			tb.appendChild(RR.el("tr", {"data-op": o.name}, RR.el("td", {}, o.name), RR.el("td", {"data-k": "count"}, RR.int(o.n)),
				RR.el("td", {}, RR.ms(o.p50)), RR.el("td", {}, RR.ms(o.p99)), RR.el("td", {}, RR.ms(o.max))));
		});
		drawLatency();
		document.getElementById("ddp-total").textContent = "DDP " + RR.bytes(c.ddp_bytes) + ", inline " +
			RR.bytes(c.inline_bytes) + ", Long " + RR.bytes(c.long_bytes);
	}
	function route() {
		var m = /^#(frame|conn)=(\d+)$/.exec(location.hash), c;
		if (!m) return false;
		var n = +m[2];
		if (m[1] === "conn") {
			if (d.connOf[n]) setConn(d.connOf[n]);
			document.getElementById("timeline").scrollIntoView();
			return true;
		}
		var f = d.findings.find(function (x) { return x.f === n && x.p >= 0; });
		var i = f ? f.p : RR.findFrame(d, n);
		var msg = document.getElementById("lad-msg");
		msg.textContent = f || RR.rpcOfFrame(d, n) >= 0 ? "" : "frame " + RR.int(n) + " carries no RPC of this capture" +
			(i >= 0 ? "; the nearest one is shown" : "");
		if (i < 0) {
			document.getElementById("timeline").scrollIntoView();
			return true;
		}
		setConn(d.connOf[d.rpc.conn[i]]);
		document.getElementById("timeline").scrollIntoView();
		ladder.focus(i, n);
		return true;
	}
	sel.onchange = function () { location.hash = "conn=" + sel.value; };
	opSel.onchange = drawLatency;
	pos.oninput = RR.throttle(function () { ladder.hlFrame = 0; ladder.show(+pos.value); });
	document.getElementById("lad-size").onchange = function () {
		ladder.size = +this.value;
		ladder.show(ladder.pos);
	};
	var step = function (k) { return function () { ladder.hlFrame = 0; ladder.show(ladder.pos + k * ladder.size); }; };
	document.getElementById("lad-prev").onclick = step(-1);
	document.getElementById("lad-next").onclick = step(1);
	document.getElementById("lad-first").onclick = function () { ladder.show(0); };
	document.getElementById("lad-last").onclick = function () { ladder.show(Infinity); };
	// A link or the form naming the address the page already has: no hashchange, so route here.
	var go = function (hash) {
		if (location.hash === hash) route();
		else location.hash = hash;
	};
	document.getElementById("lad-go").onsubmit = function (ev) {
		ev.preventDefault();
		go("#frame=" + document.getElementById("lad-frame").value);
	};
	document.addEventListener("click", function (ev) {
		var a = ev.target.closest && ev.target.closest("a[href^='#frame='], a[href^='#conn=']");
		if (a && a.getAttribute("href") === location.hash) {
			ev.preventDefault();
			route();
		}
	});
	window.addEventListener("hashchange", route);
	window.addEventListener("resize", RR.throttle(function () { charts.resize(); ladder.mapCols = null; ladder.render(); }));
	var busiest = d.conns.slice().sort(function (a, b) { return b.rpcs.length - a.rpcs.length; })[0];
	if (!route() && busiest) setConn(busiest);
	if (!busiest) {
		document.getElementById("conn-name").textContent = "No RPC-over-RDMA connection in this capture.";
		["charts", "operations", "ladder-box", "conn-select"].forEach(function (id) { document.getElementById(id).hidden = true; });
		Array.prototype.forEach.call(document.querySelectorAll("#timeline .ladder-controls, #timeline .map-wrap, #timeline .legend"),
			function (e) { e.hidden = true; });
	}
	document.body.setAttribute("data-ready", "1");
};

RR.main();
