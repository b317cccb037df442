#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Screenshots and timings of ulb-lint --report pages in headless Chromium (cdp.py), for the docs.

  shots.py --out docs/img PAGE.html[#frame=N]:NAME[:WIDTHxHEIGHT[:SELECTOR]] ...

Each page is opened (timed: navigation to its load event, the page's own script done by then), and
what an operator's actions cost is timed: a jump to a frame, the next window of the ladder, drawing
the charts.  Then it is opened afresh at its address (#frame=N) and a PNG of the viewport, scrolled to
the element SELECTOR if given, written to OUT/NAME.png."""
import argparse
import base64
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402


def timed(browser, page, expr):
    t = time.monotonic()
    browser.evaluate(page, expr)
    return time.monotonic() - t


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("shots", nargs="+")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    b = cdp.Browser()
    try:
        page = b.new_page()
        for spec in args.shots:
            parts = spec.split(":")
            url, name = parts[0], parts[1]
            w, h = (int(x) for x in (parts[2] if len(parts) > 2 else "1400x900").split("x"))
            sel = parts[3] if len(parts) > 3 else None
            b.call("Emulation.setDeviceMetricsOverride", {"width": w, "height": h, "deviceScaleFactor": 1,
                                                          "mobile": False}, page)
            path, _, frag = url.partition("#")
            b.open(page, "about:blank")
            b.call("Performance.disable", {}, page)
            b.call("Performance.enable", {}, page)
            secs = b.open(page, "file://" + os.path.abspath(path) + (("#" + frag) if frag else ""))
            ready = b.evaluate(page, "performance.now()")
            metrics = {m["name"]: m["value"] for m in b.call("Performance.getMetrics", {}, page)["metrics"]}
            jump = nxt = charts = 0
            if b.evaluate(page, "RR.data.n"):  # with no RPC there is nothing to act on
                jump = timed(b, page, "new Promise(function (d) { window.addEventListener('hashchange', function () "
                             "{ d(1); }, {once: true}); location.hash = 'frame=' + (RR.data.rpc.cf[RR.data.n >> 1]); })")
                nxt = timed(b, page, "document.getElementById('lad-next').click()")
                charts = timed(b, page, "new Promise(function (d) { "
                               "document.getElementById('charts').scrollIntoView(); (function wait() { "
                               "if (document.querySelector('#chart-bytes .uplot')) d(1); else requestAnimationFrame(wait); })(); })")
            # The picture: the page opened afresh at its address, scrolled to SELECTOR if given.
            b.open(page, "about:blank")
            b.open(page, "file://" + os.path.abspath(path) + (("#" + frag) if frag else ""))
            if sel:
                b.evaluate(page, "document.querySelector(%r).scrollIntoView({block: 'start'})" % sel)
            time.sleep(0.3)
            png = b.call("Page.captureScreenshot", {"format": "png"}, page)["data"]
            with open(os.path.join(args.out, name + ".png"), "wb") as f:
                f.write(base64.b64decode(png))
            errors = b.errors(page)
            b.events.clear()
            print("%s: %s (%.1f MiB): load event after %.2f s (script done at %.0f ms; the page's own CPU time "
                  "to then: script %.2f s, all tasks %.2f s), jump to a frame %.0f ms, next window %.0f ms, "
                  "charts %.0f ms%s" % (
                      name, path, os.path.getsize(path) / 1048576, secs, ready, metrics.get("ScriptDuration", 0),
                      metrics.get("TaskDuration", 0), jump * 1000, nxt * 1000, charts * 1000,
                      "; ERRORS " + "; ".join(errors) if errors else ""))
    finally:
        b.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
