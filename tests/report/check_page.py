#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""ulb-lint --report without a browser: the page's embedded data and its self-containment.

  - a real capture: the page holds no reference to anything outside it (no script or style by URL),
    holds the vendored uPlot byte for byte, and its data (the JSON the page draws from) has the
    findings of `ulb-lint --format json` (rule, frame) and the calls and replies per connection of
    `--summary --format json`; every finding tied to a connection is marked on an RPC of it;
  - generated scenarios (FILE.scn or FILE.scn@LINK, whose Sends are one frame each): each RPC's RDMA frames on the ladder are those the generator's ground truth
    (rpcrdma-pcapgen --truth) lists for its messages besides their Sends: the Read Responses of a
    call's read chunks, the Writes of its reply's chunks; packets counted once each;
  - misuse: --report with two captures, or to a folder that does not exist, exits 2 and says why (the
    latter before reading the capture);
  - a flood past the page's 50 000 listed findings (the real capture twelve times over, every RoCEv2
    ICRC wrong: a sniffer that writes none) still lists the first findings of every other rule, the
    outcome findings told at the end among them (`--format json` is the oracle for which rules fired);
  - nothing the user had is lost: --report naming the capture being read, or an existing file that is
    not an HTML page (a capture given by mistake as `--report a.pcap b.pcap`), is refused and the file
    kept byte for byte; an earlier page survives a run that fails (the new page is written beside it
    and renamed over it only once whole); a page replaced keeps its file's mode, and through a
    symbolic link the link stays and its target gets the page.
"""
import hashlib
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

KINDS = {0: "write", 1: "read request", 2: "read response"}


def run(cmd, ok=(0, 1)):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in ok:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(cmd), p.returncode, p.stderr.strip()))
    return p


def page_data(path):
    html = open(path, encoding="utf-8").read()
    m = re.search(r'<script type="application/json" id="rr-data">(.*?)</script>', html, re.S)
    if not m:
        raise RuntimeError("%s: no data element" % path)
    return html, json.loads(m.group(1))


def check_real(args, capture, fails):
    page = os.path.join(args.out, "real.html")
    lines = run([args.lint, "-q", "--summary", "--format", "json", capture]).stdout.splitlines()
    objs = [json.loads(x) for x in lines if x]
    summary = [o for o in objs if "summary" in o][0]["summary"]
    findings = [o for o in objs if "summary" not in o]
    run([args.lint, "-q", "--report", page, capture])
    html, d = page_data(page)
    if re.search(r'<(script|img|iframe)[^>]*\ssrc=|<link[^>]*\shref=|@import|url\(\s*["\']?https?:', html, re.I):
        fails.append("the page loads something by URL: it must hold everything itself")
    uplot = open(args.uplot, encoding="utf-8").read().strip()
    if uplot not in html:
        fails.append("the vendored uPlot is not in the page as it is in third_party/")
    want = sorted((f["rule"], f["frame"]) for f in findings)
    have = sorted((f["r"], f["f"]) for f in d["findings"])
    if want != have:
        fails.append("findings: --format json %s, page %s" % (want, have))
    conns = {c["id"]: (c["calls"], c["replies"]) for c in summary["connections"]}
    got = {c["id"]: (c["calls"], c["replies"]) for c in d["conns"]}
    if conns != got:
        fails.append("calls and replies by connection: summary %s, page %s" % (conns, got))
    for f in d["findings"]:
        if f["c"] and (f["p"] < 0 or d["rpc"]["conn"][f["p"]] != f["c"]):
            fails.append("%s at frame %d (connection %d) is marked on no RPC of its connection" % (f["r"], f["f"], f["c"]))
    print("real %s: %d findings, %d connections, %d RPCs" % (capture, len(have), len(got), len(d["rpc"]["conn"])))


def runs_of(d, i):
    rd, out = d["rpc"]["rd"][i], {}
    for k in range(0, len(rd), 4):
        out.setdefault(rd[k], []).append((rd[k + 1], rd[k + 2], rd[k + 3]))
    return out


def check_scenario(args, spec, fails):
    """spec: a scenario file, or FILE@LINK to generate it on that link type."""
    scn, _, link = spec.partition("@")
    base = os.path.join(args.out, os.path.basename(scn) + (link and "-" + link))
    run([args.pcapgen, scn, "-o", base + ".pcap", "--truth", base + ".json"] + (["--link", link] if link else []),
        ok=(0,))
    truth = json.load(open(base + ".json"))
    run([args.lint, "-q", "--report", base + ".html", base + ".pcap"])
    _, d = page_data(base + ".html")
    r = d["rpc"]
    by_frame = {}
    for i in range(len(r["conn"])):
        by_frame[r["cf"][i]] = i
        by_frame[r["rf"][i]] = i
    checked = 0
    for m in truth["messages"]:
        call = m["dir"] == "call"
        frames = set(m["frames"])
        # The Send: a call's first frame, a reply's last (its Writes go first); on iWARP a frame may
        # hold the end of a Write and the Send both, and a Send may span TCP segments.
        send = m["first_frame"] if call else m["last_frame"]
        i = next((by_frame[f] for f in (m["frames"] if call else reversed(m["frames"])) if f in by_frame), None)
        if i is None:
            fails.append("%s: the %s of XID %s (frames %s) is on no RPC of the page" % (spec, m["dir"], m["xid"],
                                                                                     m["frames"]))
            continue
        kind = 2 if call else 0
        runs = runs_of(d, i).get(kind, [])
        rdma = sorted(frames - {send})
        packets = sum(n for _, _, n in runs)
        inside = all(any(a <= f <= b for a, b, _ in runs) for f in rdma)
        ends = all(a in frames and b in frames for a, b, _ in runs)
        if not inside or not ends or not len(rdma) <= packets <= len(frames):
            fails.append("%s: XID %s %s: the truth's frames %s (Send at %d), the ladder's %s runs %s" % (
                spec, m["xid"], m["dir"], m["frames"], send, KINDS[kind], runs))
        checked += bool(rdma)
    calls = sum(1 for m in truth["messages"] if m["dir"] == "call")
    if sum(c["calls"] for c in d["conns"]) != calls:
        fails.append("%s: %d calls in the truth, %d on the page" % (spec, calls, sum(c["calls"] for c in d["conns"])))
    print("scenario %s: %d messages, %d with RDMA frames checked" % (spec, len(truth["messages"]), checked))


def check_misuse(args, capture, fails):
    p = subprocess.run([args.lint, "-q", "--report", os.path.join(args.out, "x.html"), capture, capture],
                       capture_output=True, text=True)
    if p.returncode != 2 or "one capture" not in p.stderr:
        fails.append("--report with two captures: exit %d, %r" % (p.returncode, p.stderr))
    bad = os.path.join(args.out, "no-such-folder", "x.html")
    p = subprocess.run([args.lint, "-q", "--report", bad, capture], capture_output=True, text=True)
    if p.returncode != 2 or bad not in p.stderr or p.stdout:
        fails.append("--report into a missing folder: exit %d, %r, %d bytes of findings (it should stop before "
                     "reading the capture)" % (p.returncode, p.stderr, len(p.stdout)))
    check_nothing_lost(args, capture, fails)
    check_share(args, capture, fails)


def check_share(args, capture, fails):
    import struct
    with open(capture, "rb") as f:
        raw = f.read()
    body = bytearray(raw[24:])
    off = 0
    while off + 16 <= len(body):
        cl = struct.unpack_from("<I", body, off + 8)[0]
        p = off + 16
        if cl > 60 and body[p + 12:p + 14] == b"\x08\x00" and body[p + 23] == 17 and \
                struct.unpack_from(">H", body, p + 36)[0] == 4791:
            body[p + cl - 1] ^= 0xFF
        off += 16 + cl
    flood = os.path.join(args.out, "flood.pcap")
    with open(flood, "wb") as f:
        f.write(raw[:24])
        for _ in range(12):
            f.write(body)
    page = os.path.join(args.out, "flood.html")
    run([args.lint, "-q", "--report", page, flood])
    _, d = page_data(page)
    told = {}
    for line in run([args.lint, "-q", "--format", "json", flood]).stdout.splitlines():
        r = json.loads(line)["rule"]
        told[r] = told.get(r, 0) + 1
    listed = {}
    for f in d["findings"]:
        listed[f["r"]] = listed.get(f["r"], 0) + 1
    if not d["findings_dropped"]:
        fails.append("the flood (%d findings) did not pass the page's bound" % sum(told.values()))
    short = [r for r, n in told.items() if listed.get(r, 0) < min(n, d.get("rule_share", 100))]
    if short:
        fails.append("the flood: rules with findings not listed on the page: %s" % short)
    print("flood: %d findings, %d listed, %d rules each with its first %d or all" % (
        sum(told.values()), len(d["findings"]), len(told), d.get("rule_share", 100)))


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def check_nothing_lost(args, capture, fails):
    d = os.path.join(args.out, "keep")
    os.makedirs(d)
    mine = os.path.join(d, "mine.pcap")
    with open(capture, "rb") as src, open(mine, "wb") as dst:
        dst.write(src.read())
    before = digest(mine)
    # The capture being read, by its own name and through a link to it.
    link = os.path.join(d, "link.pcap")
    os.symlink(mine, link)
    for target in (mine, link):
        p = subprocess.run([args.lint, "-q", "--report", target, mine], capture_output=True, text=True)
        if p.returncode != 2 or "capture being read" not in p.stderr or digest(mine) != before:
            fails.append("--report %s %s: exit %d, %r; the capture %s" % (
                target, mine, p.returncode, p.stderr.strip(), "kept" if digest(mine) == before else "CHANGED"))
    # `--report a.pcap b.pcap`: a.pcap is an existing file that is no page.
    p = subprocess.run([args.lint, "-q", "--report", mine, capture], capture_output=True, text=True)
    if p.returncode != 2 or "not an HTML page" not in p.stderr or digest(mine) != before:
        fails.append("--report over a capture that is not read: exit %d, %r" % (p.returncode, p.stderr.strip()))
    # An earlier page survives a failed run; a good run replaces it, with the file's mode.
    page = os.path.join(d, "old.html")
    run([args.lint, "-q", "--report", page, capture])
    os.chmod(page, 0o640)
    old = digest(page)
    p = subprocess.run([args.lint, "-q", "--report", page, os.path.join(d, "missing.pcap")],
                       capture_output=True, text=True)
    if p.returncode != 2 or digest(page) != old:
        fails.append("a failed run: exit %d; the earlier page %s" % (
            p.returncode, "kept" if digest(page) == old else "CHANGED"))
    leftovers = [f for f in os.listdir(d) if f.startswith(".")]
    if leftovers:
        fails.append("files left beside the page: %s" % leftovers)
    plink = os.path.join(d, "page-link.html")
    os.symlink(page, plink)
    run([args.lint, "-q", "--report", plink, capture])
    if not os.path.islink(plink) or os.stat(page).st_mode & 0o777 != 0o640:
        fails.append("a page through a link: the link %s, the page's mode %o" % (
            "kept" if os.path.islink(plink) else "REPLACED", os.stat(page).st_mode & 0o777))
    print("nothing lost: the capture, a file that is no page and an earlier page kept")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lint", required=True)
    ap.add_argument("--pcapgen", required=True)
    ap.add_argument("--uplot", required=True, help="third_party/uplot/uPlot.iife.min.js")
    ap.add_argument("--real", required=True, help="a real capture with findings")
    ap.add_argument("scenarios", nargs="+")
    args = ap.parse_args()
    fails = []
    with tempfile.TemporaryDirectory(prefix="rr-report-") as args.out:
        check_real(args, args.real, fails)
        for scn in args.scenarios:
            check_scenario(args, scn, fails)
        check_misuse(args, args.real, fails)
    for f in fails:
        print("FAIL " + f)
    print("all passed" if not fails else "%d failures" % len(fails))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
