#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""ulb-lint --report in a real browser.  For each capture: write its report, open it in headless Chromium
(one browser, the DevTools protocol on a pipe: cdp.py), and check, from the page's rendered DOM, against
ulb-lint's own JSON outputs as the oracle:
  - the page loaded with no console error, uncaught exception or error shown on it;
  - the findings listed (rule, frame) are those of `ulb-lint --format json`, and each rule's count is
    the one `--summary --format json` gives;
  - each connection's calls and replies, and the total of calls, are those of the summary;
  - the chosen connection's credits and calls outstanding are each drawn on an axis of their own: the
    chart of calls outstanding shows no other series and its y range fits the most calls outstanding of
    that connection in the page's data (not the credits), the credits chart's covers the largest grant;
  - findings tied to a connection are marked on the timeline: with #frame=N in the address the
    ladder shows a mark of its rule at its frame (up to MAX_MARKS per capture: every finding of the
    --mark CAPTURE:RULE rules, which that capture must have, then one of each rule, then the rest).
Exit 0 all passed, 1 a check failed, 77 no Chromium."""
import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402

EXTRACT = r"""(function () {
  var q = function (s) { return Array.prototype.slice.call(document.querySelectorAll(s)); };
  q("button.more").forEach(function (b) { while (!b.hidden) b.click(); });
  var err = document.getElementById("rr-errors");
  return {
    ready: document.body.getAttribute("data-ready"),
    errors: err ? err.textContent : "no #rr-errors",
    findings: q("li.finding").map(function (e) { return [e.dataset.rule, +e.dataset.frame]; }),
    rules: q("section.rule").map(function (s) { return [s.dataset.rule, +s.querySelector(".count").dataset.count]; }),
    conns: q("#conns tbody tr").map(function (tr) {
      var v = function (k) { return +tr.querySelector('[data-k="' + k + '"]').dataset.v; };
      return [+tr.dataset.conn, v("calls"), v("replies")];
    }),
    total: +document.getElementById("total-calls").dataset.n
  };
})()"""

MARKED = r"""new Promise(function (done) {
  var count = function () { done(document.querySelectorAll('#ladder g.mark[data-rule="%s"][data-frame="%d"]').length); };
  if (location.hash === "#frame=%d") return count();
  window.addEventListener("hashchange", count, {once: true});
  location.hash = "frame=%d";
})"""

CHARTS = r"""new Promise(function (done) {
  var shown = /^connection (\d+):/.exec(document.getElementById("conn-name").textContent);
  var until = performance.now() + 5000;
  if (!shown) return done({conn: null});
  document.getElementById("charts").scrollIntoView();
  (function wait() {
    if (!document.querySelector("#chart-bytes .uplot") && performance.now() < until) return requestAnimationFrame(wait);
    var d = JSON.parse(document.getElementById("rr-data").textContent), r = d.rpc, conn = +shown[1];
    var out = 0, grant = 0, i;
    for (i = 0; i < r.conn.length; i++) {
      if (r.conn[i] !== conn || (r.flags[i] & 1)) continue;
      if (r.cf[i] && r.ct[i] >= 0) out = Math.max(out, r.out[i]);
      if (r.rf[i] && r.rt[i] >= 0) grant = Math.max(grant, r.cgr[i]);
    }
    var chart = function (id) {
      var h = document.getElementById(id);
      return h && h.querySelector(".uplot") ? {ymax: +h.dataset.ymax, series: Array.prototype.slice.call(
        h.querySelectorAll(".u-legend .u-series .u-label")).map(function (e) { return e.textContent; }).slice(1)} : null;
    };
    done({conn: conn, out: out, grant: grant, outstanding: chart("chart-outstanding"), credits: chart("chart-credits")});
  })();
})"""

MAX_MARKS = 10

# Going to a finding's frame: its arrow is on screen; its link clicked again, with the page scrolled
# away and the address unchanged, goes there again; a finding's copy button copies its display filter
# or, where the browser refuses a page from disk the clipboard, selects it and says so; a frame that
# carries no RPC is said to.
NAV = r"""new Promise(function (done) {
  var f = %d, out = {};
  var seen = function () {
    var e = document.querySelector("#ladder .hl, #ladder .mark.hl");
    if (!e) return false;
    var r = e.getBoundingClientRect();
    return r.bottom > 0 && r.top < window.innerHeight;
  };
  var later = function (fn) { setTimeout(fn, 150); };
  var missing = function () {
    location.hash = "frame=999999999";
    later(function () { out.missing = document.getElementById("lad-msg").textContent; done(out); });
  };
  var copied = function () {
    var b = document.querySelector("li.finding button.copy"), li = b && b.closest("li");
    if (!b) return missing();
    b.click();
    later(function () {
      out.copy = b.textContent;
      out.selected = window.getSelection().toString();
      out.filter = li.querySelector("code.filter").textContent;
      missing();
    });
  };
  var again = function () {
    out.visible = seen();
    window.scrollTo(0, 0);
    var a = document.querySelector('li.finding a.frame[href="#frame=' + f + '"]');
    out.link = !!a;
    if (a) a.click();
    later(function () { out.again = seen(); copied(); });
  };
  if (location.hash === "#frame=" + f) return later(again);
  window.addEventListener("hashchange", function () { later(again); }, {once: true});
  location.hash = "frame=" + f;
})"""


def check_charts(got):
    """Calls outstanding and credits, each read on its own axis (see the module's text)."""
    if got["conn"] is None:
        return []
    bad, o, c = [], got["outstanding"], got["credits"]
    if not o:
        return ["connection %d: no chart of calls outstanding of its own" % got["conn"]]
    if o["series"] != ["calls outstanding (highest)"]:
        bad.append("connection %d: the calls outstanding chart draws %s" % (got["conn"], o["series"]))
    if not got["out"] <= o["ymax"] <= 1.5 * max(1, got["out"]) + 1:
        bad.append("connection %d: calls outstanding reach %d, their axis goes to %s" % (got["conn"], got["out"],
                                                                                      o["ymax"]))
    if not c or c["series"] != ["credits granted (lowest)"] or c["ymax"] < got["grant"]:
        bad.append("connection %d: the credits chart (%s) does not cover the largest grant %d" % (
            got["conn"], c, got["grant"]))
    return bad


def lint(binary, *args):
    p = subprocess.run([binary, "-q", "--no-progress", *args], capture_output=True, text=True)
    if p.returncode not in (0, 1):
        raise RuntimeError("ulb-lint %s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr))
    return p.stdout


def page_path(args, capture):
    return os.path.join(args.out, os.path.basename(os.path.dirname(capture)) + "-" + os.path.basename(capture) + ".html")


def prepare(args, capture):
    """The oracle (findings as JSON Lines, then the summary object, from one run) and, apart, the report."""
    findings, summary = [], None
    for line in lint(args.lint, "--summary", "--format", "json", capture).splitlines():
        obj = json.loads(line)
        if "summary" in obj:
            summary = obj["summary"]
        else:
            findings.append(obj)
    lint(args.lint, "--report", page_path(args, capture), capture)
    return findings, summary


def check_capture(browser, page, args, capture, prepared, mark_rules, fails):
    out = page_path(args, capture)
    findings, summary = prepared
    secs = browser.open(page, "file://" + os.path.abspath(out))
    got = browser.evaluate(page, EXTRACT)
    bad = []
    if got["ready"] != "1":
        bad.append("the page never finished drawing (no data-ready)")
    if got["errors"].strip():
        bad.append("errors shown on the page: " + got["errors"].strip())
    want = sorted((f["rule"], f["frame"]) for f in findings)
    have = sorted(tuple(x) for x in got["findings"])
    if want != have:
        bad.append("findings differ: only in --format json %s; only on the page %s" % (
            sorted(set(want) - set(have))[:10], sorted(set(have) - set(want))[:10]))
    if dict(got["rules"]) != summary["rules"]:
        bad.append("counts by rule: page %s, summary %s" % (dict(got["rules"]), summary["rules"]))
    conns = {c["id"]: (c["calls"], c["replies"]) for c in summary["connections"]}
    page_conns = {c[0]: (c[1], c[2]) for c in got["conns"]}
    if page_conns != conns:
        bad.append("calls and replies by connection: page %s, summary %s" % (page_conns, conns))
    if got["total"] != sum(c[0] for c in conns.values()):
        bad.append("total calls: page %d, summary %d" % (got["total"], sum(c[0] for c in conns.values())))
    for rule in mark_rules:
        if not any(f["rule"] == rule for f in findings):
            bad.append("ulb-lint reports no %s finding: the capture was expected to have some" % rule)
    bad += check_charts(browser.evaluate(page, CHARTS))
    t_marks = time.monotonic()
    tied = [f for f in findings if f["conn"] is not None and f["frame"]]
    # The --mark rules first, then one finding of each rule, then the rest, up to MAX_MARKS.
    seen = set()
    for f in tied:
        f["_first"] = f["rule"] not in seen
        seen.add(f["rule"])
    tied.sort(key=lambda f: (f["rule"] not in mark_rules, not f["_first"]))
    for f in tied[:MAX_MARKS]:
        if not browser.evaluate(page, MARKED % (f["rule"], f["frame"], f["frame"], f["frame"])):
            bad.append("%s at frame %d is not marked on the timeline" % (f["rule"], f["frame"]))
    t_marks = time.monotonic() - t_marks
    if tied:
        nav = browser.evaluate(page, NAV % tied[0]["frame"])
        copy_ok = nav.get("copy") == "copied" or (nav.get("copy") == "select and copy" and
                                                  nav.get("selected") == nav.get("filter"))
        if not nav.get("visible") or not nav.get("link") or not nav.get("again") or not copy_ok or \
                "carries no RPC" not in (nav.get("missing") or ""):
            bad.append("going to frame %d: %s" % (tied[0]["frame"], nav))
    bad += browser.errors(page)
    browser.events.clear()
    print("%s %s: %d findings, %d calls, %d connections; loaded in %.2f s, %d marks checked in %.2f s%s" % (
        "FAIL" if bad else "ok", capture, len(have), got["total"], len(page_conns), secs, min(len(tied), MAX_MARKS),
        t_marks,
        "".join("\n    " + b for b in bad)))
    fails += bad


def check_cut_short(browser, page, args, capture, fails):
    """The first capture cut short in a frame: the page says it was not read to its end, as the summary does."""
    with open(capture, "rb") as f:
        data = f.read()
    cut = os.path.join(args.out, "cut-short.pcap")
    with open(cut, "wb") as f:
        f.write(data[:len(data) * 2 // 3])
    html = os.path.join(args.out, "cut-short.html")
    subprocess.run([args.lint, "-q", "--no-progress", "--report", html, cut], capture_output=True)
    browser.open(page, "file://" + os.path.abspath(html))
    shown = browser.evaluate(page, '(function () { var e = document.getElementById("read-error"); '
                                   'return e && !e.hidden ? e.textContent : null; })()')
    if not shown or "byte offset" not in shown:
        fails.append("a capture cut short: the page's banner says %r" % shown)
    print("%s a capture cut short: the banner says it (%s)" % ("FAIL" if fails and not shown else "ok",
                                                             (shown or "nothing")[:70]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lint", required=True, help="the ulb-lint binary")
    ap.add_argument("--out", required=True, help="folder for the pages")
    ap.add_argument("--chromium", default="chromium")
    ap.add_argument("--mark", action="append", default=[], metavar="CAPTURE:RULE",
                    help="a capture (by the end of its path) whose RULE findings must be marked")
    ap.add_argument("captures", nargs="+")
    args = ap.parse_args()
    if not shutil.which(args.chromium):
        print("skipped: no %s (scripts/install-deps.sh installs it)" % args.chromium)
        return 77
    os.makedirs(args.out, exist_ok=True)
    t = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        prepared = list(pool.map(lambda c: prepare(args, c), args.captures))
    browser = cdp.Browser(args.chromium)
    fails = []
    try:
        page = browser.new_page()
        for capture, prep in zip(args.captures, prepared):
            rules = [m.split(":", 1)[1] for m in args.mark if capture.endswith(m.split(":", 1)[0])]
            check_capture(browser, page, args, capture, prep, rules, fails)
        check_cut_short(browser, page, args, args.captures[0], fails)
    finally:
        browser.close()
    print("%d captures in %.1f s: %s" % (len(args.captures), time.monotonic() - t,
                                         "%d failures" % len(fails) if fails else "all passed"))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
