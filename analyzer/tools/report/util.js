// SPDX-License-Identifier: GPL-2.0-or-later
// ulb-lint --report: small helpers every part of the page uses (the RR namespace starts here).
"use strict";
var RR = {};

// A script error shows on the page itself (and the tests read it from there).
window.addEventListener("error", function (ev) {
	var box = document.getElementById("rr-errors");
	if (!box) return;
	box.hidden = false;
	box.appendChild(document.createTextNode("script error: " + ev.message + " (" + ev.filename + ":" + ev.lineno + ")\n"));
});

// An element: el("a", {href: "#x", class: "y"}, "text", otherNode, ...).
RR.el = function (tag, attrs) {
	var e = document.createElement(tag), k, i, c;
	for (k in attrs || {}) {
		if (attrs[k] === null || attrs[k] === undefined) continue;
		if (k === "onclick" || k === "onchange" || k === "oninput") e[k] = attrs[k];
		else e.setAttribute(k, attrs[k]);
	}
	for (i = 2; i < arguments.length; i++) {
		c = arguments[i];
		if (c === null || c === undefined) continue;
		e.appendChild(typeof c === "object" ? c : document.createTextNode(String(c)));
	}
	return e;
};

RR.svg = function (tag, attrs, text) {
	var e = document.createElementNS("http://www.w3.org/2000/svg", tag), k;
	for (k in attrs || {}) if (attrs[k] !== null && attrs[k] !== undefined) e.setAttribute(k, attrs[k]);
	if (text !== undefined) e.textContent = text;
	return e;
};

RR.hex = function (x) {
	return x === null || x === undefined ? "" : "0x" + (x >>> 0).toString(16).padStart(8, "0");
};

RR.bytes = function (n) {
	if (n < 1024) return n + " B";
	if (n < 1048576) return (n / 1024).toFixed(1) + " KiB";
	if (n < 1073741824) return (n / 1048576).toFixed(1) + " MiB";
	return (n / 1073741824).toFixed(2) + " GiB";
};

RR.ms = function (us) {
	return us < 0 ? "?" : (us / 1000).toFixed(3) + " ms";
};

RR.secs = function (us) {
	return us < 0 ? "?" : "+" + (us / 1e6).toFixed(6) + " s";
};

RR.int = function (n) {
	return Number(n).toLocaleString("en-US");
};

// As ulb-lint --summary takes a percentile of sorted values: the value at round(p * (n - 1)).
RR.pct = function (sorted, p) {
	return sorted.length ? sorted[Math.round(p * (sorted.length - 1))] : 0;
};

// "RFC 8166 §4.2.2, §4.5.1; RFC 8167 §2.4" -> text and links to each section.
RR.refLinks = function (section) {
	var span = RR.el("span", {class: "ref"}), parts = section.split(/(;\s*)/), i;
	for (i = 0; i < parts.length; i++) {
		var p = parts[i], m = /^(RFC\s*(\d+)|(draft-[a-z0-9-]+)|IBTA)(.*)$/.exec(p);
		if (!m) { span.appendChild(document.createTextNode(p)); continue; }
		var base = m[2] ? "https://www.rfc-editor.org/rfc/rfc" + m[2] + ".html" :
			m[3] ? "https://datatracker.ietf.org/doc/html/" + m[3] : null;
		if (base) span.appendChild(RR.el("a", {href: base, target: "_blank", rel: "noopener"}, m[1]));
		else span.appendChild(document.createTextNode(m[1]));
		m[4].split(/(§[\d.]+|Appendix [A-Z])/).forEach(function (t) {
			var s = /^§([\d.]+)$/.exec(t);
			if (s && base) span.appendChild(RR.el("a", {href: base + "#section-" + s[1], target: "_blank",
				rel: "noopener"}, t));
			else if (t) span.appendChild(document.createTextNode(t));
		});
	}
	return span;
};

// Run fn at most once per animation frame (scroll, wheel, drag).
RR.throttle = function (fn) {
	var pending = false, args;
	return function () {
		args = arguments;
		if (pending) return;
		pending = true;
		requestAnimationFrame(function () { pending = false; fn.apply(null, args); });
	};
};
