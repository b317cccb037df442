// SPDX-License-Identifier: GPL-2.0-or-later
// ulb-lint --report: the findings, grouped by rule, a page of each at a time.  Every finding links its
// frame (the ladder jumps there), gives the Wireshark display filter for it, and its rule's documentation.
"use strict";

RR.PAGE = 100;
RR.SEV_ORDER = {error: 0, warning: 1, info: 2};

RR.Findings = function (d, host) {
	this.d = d;
	this.host = host;
	this.groups = {};
};

RR.Findings.prototype.render = function () {
	var d = this.d, self = this, byRule = {};
	d.findings.forEach(function (f) { (byRule[f.r] = byRule[f.r] || []).push(f); });
	var codes = Object.keys(d.rules).sort(function (a, b) {
		var x = d.rules[a], y = d.rules[b];
		return (RR.SEV_ORDER[x.severity] - RR.SEV_ORDER[y.severity]) || (a < b ? -1 : a > b);
	});
	this.host.textContent = "";
	if (!codes.length)
		this.host.appendChild(RR.el("p", {class: "none"}, d.conns.length ?
			"No finding: the capture follows every rule checked." :
			"No finding, and nothing to check: the capture holds no RPC-over-RDMA connection."));
	codes.forEach(function (code) {
		var rule = d.rules[code], list = byRule[code] || [];
		list.sort(function (a, b) { return a.f - b.f; });
		var docs = document.body.getAttribute("data-docs");
		var head = RR.el("div", {class: "rule-head"},
			RR.el("span", {class: "sev sev-" + rule.severity}, rule.severity),
			RR.el("span", {class: "code"}, code), " ", rule.name !== code ? RR.el("span", {class: "name"}, rule.name) : null,
			RR.el("span", {class: "count", "data-count": rule.count}, RR.int(rule.count) +
				(rule.count === 1 ? " finding" : " findings")));
		var links = RR.el("div", {class: "rule-links"}, "Rule: ",
			docs ? RR.el("a", {href: docs + "rules.md#" + rule.anchor, target: "_blank", rel: "noopener",
				class: "doc"}, "docs/rules.md \u00a7 " + rule.group) : "docs/rules.md \u00a7 " + rule.group,
			" \u00b7 ", RR.refLinks(rule.section));
		var about = RR.el("details", {class: "rule-about"}, RR.el("summary", {}, "what the rule says and what triggers it"),
			RR.el("p", {}, rule.text), RR.el("p", {class: "evidence"}, rule.evidence));
		var ul = RR.el("ul", {class: "findings", "data-rule": code});
		var more = RR.el("button", {class: "more"});
		var sec = RR.el("section", {class: "rule sev-" + rule.severity, id: "rule-" + code, "data-rule": code},
			head, links, about, ul, more);
		self.groups[code] = {list: list, ul: ul, more: more, shown: 0};
		more.onclick = function () { self.page(code); };
		self.page(code);
		self.host.appendChild(sec);
	});
	if (d.findings_dropped)
		this.host.appendChild(RR.el("p", {class: "dropped"}, RR.int(d.findings_dropped) +
			" further findings are counted above but not listed: the report keeps " +
			RR.int(d.findings.length) + ", the first ones and at least the first " + d.rule_share +
			" of every rule (ulb-lint --format json lists them all)."));
};

// The next page of a rule's findings.
RR.Findings.prototype.page = function (code) {
	var g = this.groups[code], end = Math.min(g.list.length, g.shown + RR.PAGE), k;
	for (k = g.shown; k < end; k++) g.ul.appendChild(this.item(g.list[k]));
	g.shown = end;
	g.more.hidden = g.shown >= g.list.length;
	g.more.textContent = "show " + Math.min(RR.PAGE, g.list.length - g.shown) + " more of " +
		RR.int(g.list.length - g.shown);
};

RR.Findings.prototype.item = function (f) {
	var filter = "frame.number == " + f.f, d = this.d;
	var copy = RR.el("button", {class: "copy", title: "copy the display filter"}, "copy");
	copy.onclick = function () {
		// The clipboard is refused to pages from disk in some browsers: then the filter is selected to copy by hand.
		var refused = function () {
			copy.textContent = "select and copy";
			var code = copy.parentNode.querySelector("code.filter");
			if (code) window.getSelection().selectAllChildren(code);
		};
		if (!navigator.clipboard) return refused();
		navigator.clipboard.writeText(filter).then(function () { copy.textContent = "copied"; }, refused);
	};
	var ev = f.fr.length > 1 ? RR.el("div", {class: "evidence-frames"}, "evidence: ",
		f.fr.map(function (x) { return "frame " + x; }).join(", ") +
		(f.fa > f.fr.length ? " and " + (f.fa - f.fr.length) + " more" : ""),
		" \u00b7 filter ", RR.el("code", {}, f.fr.map(function (x) { return "frame.number == " + x; }).join(" || "))) : null;
	return RR.el("li", {class: "finding sev-" + f.s, id: "finding-" + f.k, "data-rule": f.r, "data-frame": f.f,
		"data-conn": f.c || null, "data-rpc": f.p},
		RR.el("a", {href: "#frame=" + f.f, class: "frame"}, f.f ? "frame " + f.f : "no frame"),
		" ", f.f ? RR.el("code", {class: "filter"}, filter) : null, f.f ? copy : null, " ",
		f.c ? RR.el("span", {class: "where"}, "conn " + f.c) : null,
		f.x !== null ? RR.el("span", {class: "where"}, "XID " + RR.hex(f.x)) : null,
		f.p < 0 ? RR.el("span", {class: "where warn"}, "not on an RPC of the timeline") : null,
		RR.el("div", {class: "text"}, f.t), ev);
};

// Show finding k in the list: its page rendered, scrolled to, highlighted.
RR.Findings.prototype.reveal = function (k) {
	var f = this.d.findings[k], g = this.groups[f.r], li;
	while (g && !(li = document.getElementById("finding-" + k)) && g.shown < g.list.length) this.page(f.r);
	li = document.getElementById("finding-" + k);
	if (!li) return;
	Array.prototype.forEach.call(document.querySelectorAll("li.finding.hl"), function (e) { e.classList.remove("hl"); });
	li.classList.add("hl");
	li.scrollIntoView({block: "center"});
};
