#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The Wireshark plugin against independent references (issue: plugin, point 6).

tshark runs as an unprivileged user with the freshly built plugin in its
personal plugin folder (ws-user.sh: tshark run as root ignores personal
plugins).  For one capture, with and without the connection handshake:

  messages  one pass (plain `tshark -r`, no -2): every message of the
            reference is rebuilt in the frame where it completes, with the
            reference's direction and length; every message Wireshark shows
            in a "Rebuilt RPC message" tab has the reference's SHA-256.
            References: the generator's ground truth (--truth) for generated
            captures, ulb-lint --dump for real ones.
  malformed no frame is Malformed.
  rpc       (real captures) every RPC call and reply that the built-in
            dissector finds with -2 on the whole capture, the plugin's one
            pass finds with the handshake cut out: same XID, same type.
  links     (-2) reply_in and request_in point at each other, in frames
            where a call and a reply with one XID were rebuilt.
  findings  (-2) the (frame, rule, severity, text) set equals ulb-lint's;
            one pass shows a subset of it.
With --negative (rping, perftest) the plugin must claim nothing.
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
from lintjson import Failures, lint_dump, lint_findings, run  # noqa: E402


class Plugin:
    def __init__(self, ws_user, plugin):
        self.ws_user = ws_user
        self.plugin = plugin

    def tshark(self, args, plugin=True):
        cmd = [self.ws_user, self.plugin if plugin else "none", "--", "tshark"] + args
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if p.returncode != 0:
            sys.stderr.write("tshark failed (%d): %s\n%s\n" % (p.returncode, " ".join(cmd),
                                                              p.stderr.decode(errors="replace")[-3000:]))
            raise SystemExit(1)
        err = p.stderr.decode(errors="replace")
        if "Couldn't load plugin" in err:
            sys.stderr.write(err)
            raise SystemExit(1)
        return p.stdout.decode(errors="replace")

    def fields(self, cap, fields, two_pass=False, filt=None, plugin=True):
        args = (["-2"] if two_pass else []) + ["-r", cap, "-T", "json"]
        if filt:
            args += ["-Y", filt]
        for f in fields:
            args += ["-e", f]
        out = self.tshark(args, plugin=plugin)
        rows = []
        for pkt in json.loads(out) if out.strip() else []:
            rows.append(pkt["_source"]["layers"])
        return rows

    def rebuilt_tabs(self, cap):
        """{frame: [(len, sha256), ...]} of every "Rebuilt RPC message" tab, one pass."""
        out = self.tshark(["-r", cap, "-P", "-x", "-Y", "rpcrdma.message",
                           "-o", 'gui.column.format:"No.","%m"'])
        tabs, frame, cur = {}, None, None
        for line in out.splitlines():
            m = re.match(r"^\s*(\d+)\s*$", line)
            if m:
                frame, cur = int(m.group(1)), None
                continue
            m = re.match(r"^(.+) \((\d+) bytes\):$", line)
            if m:
                cur = bytearray() if m.group(1) == "Rebuilt RPC message" else None
                if cur is not None:
                    tabs.setdefault(frame, []).append((int(m.group(2)), cur))
                continue
            m = re.match(r"^([0-9a-f]{4,})  (.*)$", line)
            if m and cur is not None:
                hexpart = m.group(2)[:48]
                cur.extend(bytes.fromhex(hexpart.replace(" ", "")))
        return {f: [(n, hashlib.sha256(bytes(b)).hexdigest()) for n, b in v] for f, v in tabs.items()}


def vals(row, field):
    return row.get(field, [])


def readable_copy(src, folder):
    dst = os.path.join(folder, os.path.basename(src))
    shutil.copyfile(src, dst)
    os.chmod(dst, 0o644)
    return dst


ONE_PASS = ["frame.number", "rpcrdma.message.dir", "rpcrdma.message.length", "_ws.malformed",
            "rpcrdma.rule", "rpcrdma.rule.severity", "rpcrdma.rule.text", "rpc.xid", "rpc.msgtyp"]
TWO_PASS = ["frame.number", "rpcrdma.message.dir", "rpcrdma.message.length", "rpcrdma.reply_in", "rpcrdma.request_in", "rpcrdma.rule", "rpcrdma.rule.severity",
            "rpcrdma.rule.text"]


class Passes:
    """What tshark with the plugin shows of one capture: one pass, -2, and the rebuilt tabs."""

    def __init__(self, pl, cap, two_pass=True):
        self.one = pl.fields(cap, ONE_PASS)
        self.two = pl.fields(cap, TWO_PASS, two_pass=True) if two_pass else []
        self.tabs = pl.rebuilt_tabs(cap)


def check_messages(pl, cap, ref, fail, label, ps, strict=True, hashes=None, malformed_ok=False):
    """ref: messages with xid, dir, payload_len, payload_sha256, last_frame.
    A message is rebuilt in the frame that completes it: its last frame,
    or later when the decoder held its bytes (iWARP framing found
    mid-stream).  Returns {frame: {(xid, dir)}} of what the plugin rebuilt."""
    got, later = [], []
    malformed = 0
    for r in ps.one:
        fr = int(vals(r, "frame.number")[0])
        if vals(r, "_ws.malformed"):
            malformed += 1
            if not malformed_ok:
                fail.add("%s: frame %d is Malformed" % (label, fr))
        for d, n in zip(vals(r, "rpcrdma.message.dir"), vals(r, "rpcrdma.message.length")):
            got.append([fr, d, int(n), False])
    for r in ps.two:
        fr = int(vals(r, "frame.number")[0])
        for d, n in zip(vals(r, "rpcrdma.message.dir"), vals(r, "rpcrdma.message.length")):
            later.append([fr, d, int(n), False])
    got.sort()
    later.sort()
    only_later = 0
    tabs = ps.tabs
    at = {}
    matched = hashed = 0
    for m in sorted(ref, key=lambda m: m["last_frame"]):
        hit = next((g for g in got if not g[3] and g[0] >= m["last_frame"] and g[1] == m["dir"]
                    and g[2] == m["payload_len"]), None)
        if not hit and not strict:
            # Delivered only when the engine ended (after the first pass): a
            # stream too short for its framing to be found before its end.
            hit = next((g for g in later if not g[3] and g[0] >= m["last_frame"] and g[1] == m["dir"]
                        and g[2] == m["payload_len"]), None)
            if hit:
                hit[3] = True
                only_later += 1
                matched += 1
                continue
        if not hit:
            fail.add("%s: %s XID %s (%d bytes, last frame %d) not rebuilt" %
                     (label, m["dir"], m["xid"], m["payload_len"], m["last_frame"]))
            continue
        hit[3] = True
        matched += 1
        at.setdefault(hit[0], []).append(m)
    for fr, ts in tabs.items():
        for n, sha in ts:
            if any(m["payload_len"] == n and m["payload_sha256"] == sha
                   for m in at.get(fr, []) + (hashes or {}).get(fr, [])):
                hashed += 1
            else:
                fail.add("%s: frame %d: a rebuilt tab of %d bytes matches no reference payload" % (label, fr, n))
    extra = sum(1 for g in got if not g[3])
    if extra:
        fail.add("%s: the plugin rebuilt %d messages the reference does not have" % (label, extra))
    print("%s: %d/%d messages rebuilt in one pass%s, %d payload hashes equal, %d Malformed%s" %
          (label, matched, len(ref), " (%d of them only with -2)" % only_later if only_later else "",
           hashed, malformed, " (deliberately broken messages)" if malformed_ok else ""))
    return {fr: set((m["xid"].lower(), m["dir"]) for m in ms) for fr, ms in at.items()}


def check_findings(pl, lint, cap, fail, label, ps):
    ref, _ = lint_findings(lint, cap)
    want = set((d["frame"], d["rule"], d["severity"], d["message"]) for d in ref)
    def collect(two_pass):
        s = set()
        for r in (ps.two if two_pass else ps.one):
            fr = int(vals(r, "frame.number")[0])
            for rule, sev, text in zip(vals(r, "rpcrdma.rule"), vals(r, "rpcrdma.rule.severity"),
                                       vals(r, "rpcrdma.rule.text")):
                s.add((fr, rule, sev, text))
        return s
    two, one = collect(True), collect(False)
    # A finding tied to no frame is shown where the engine raised it.
    zero = set(w for w in want if w[0] == 0)
    for w in zero:
        hit = [g for g in two if g[1:] == w[1:]]
        if hit:
            two.discard(hit[0])
    for w in sorted(want - zero - two):
        fail.add("%s: ulb-lint finding missing from the plugin (-2): %s" % (label, w))
    for g in sorted(two - want):
        fail.add("%s: plugin finding ulb-lint does not report: %s" % (label, g))
    for g in sorted(one - two):
        fail.add("%s: one-pass finding not in the -2 set: %s" % (label, g))
    print("%s: findings: ulb-lint %d, plugin -2 %d, one pass %d" % (label, len(want), len(two), len(one)))


def check_links(pl, cap, ref, xids, fail, label, ps):
    rows = ps.two
    calls, replies = {}, {}
    for r in rows:
        fr = int(vals(r, "frame.number")[0])
        for x in vals(r, "rpcrdma.reply_in"):
            calls[fr] = calls.get(fr, set()) | {int(x)}
        for x in vals(r, "rpcrdma.request_in"):
            replies[fr] = replies.get(fr, set()) | {int(x)}
    pairs = 0
    for c, rs in calls.items():
        for r in rs:
            pairs += 1
            if c not in replies.get(r, set()):
                fail.add("%s: call in %d says reply in %d, which does not point back" % (label, c, r))
            if not any((x, "reply") in xids.get(r, set()) for x, d in xids.get(c, set()) if d == "call"):
                fail.add("%s: call in %d and reply in %d share no XID" % (label, c, r))
    for r, cs in replies.items():
        for c in cs:
            if r not in calls.get(c, set()):
                fail.add("%s: reply in %d says request in %d, which does not point back" % (label, r, c))
    n_replies = sum(1 for m in ref if m["dir"] == "reply")
    if pairs < n_replies * 0.99:
        fail.add("%s: only %d of %d replies linked to their call" % (label, pairs, n_replies))
    print("%s: %d call/reply links, both ways" % (label, pairs))


def builtin_rpcs(pl, cap):
    rows = pl.fields(cap, ["rpc.xid", "rpc.msgtyp"], two_pass=True,
                     filt="rpc && (infiniband || iwarp_ddp_rdmap || rpcordma)", plugin=False)
    out = set()
    for r in rows:
        for x, t in zip(vals(r, "rpc.xid"), vals(r, "rpc.msgtyp")):
            out.add((int(x, 16), int(t)))
    return out


def plugin_rpcs(ps):
    out = set()
    for r in ps.one:
        if not vals(r, "rpcrdma.message.dir"):
            continue          # RPC over plain TCP (the lab's MOUNT and portmap)
        for x, t in zip(vals(r, "rpc.xid"), vals(r, "rpc.msgtyp")):
            out.add((int(x, 16), int(t)))
    return out


def check_stats(pl, cap, ref, fail, label):
    """tshark -z rpcrdma,stat counts what ulb-lint rebuilt: messages, and calls per operation."""
    out = pl.tshark(["-2", "-q", "-r", cap, "-z", "rpcrdma,stat"])
    m = re.search(r"RPC-over-RDMA statistics \(rpcrdma-toolkit\): (\d+) messages", out)
    if not m:
        fail.add("%s: -z rpcrdma,stat printed no report" % label)
        return
    total = int(m.group(1))
    types = 0
    section = None
    calls = 0
    for line in out.splitlines():
        if not line.startswith("  "):
            section = line.strip()
            continue
        f = line.split()
        if section == "Messages by type":
            types += int(f[-1])
        elif section == "Chunk usage per operation (calls)" and f[0] != "operation":
            calls += int(f[-6])
    want_calls = sum(1 for x in ref if x["dir"] == "call")
    if total != types or total != len(ref) or calls != want_calls:
        fail.add("%s: -z rpcrdma,stat: %d messages, %d by type, %d calls; ulb-lint: %d messages, %d calls" %
                 (label, total, types, calls, len(ref), want_calls))
    print("%s: -z rpcrdma,stat: %d messages (%d calls); ulb-lint %d" % (label, total, calls, len(ref)))


def first_builtin_frame(pl, cap):
    out = pl.tshark(["-r", cap, "-Y", "rpcordma", "-T", "fields", "-e", "frame.number"], plugin=False)
    return int(out.split()[0]) if out.strip() else 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ws-user", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--lint", required=True)
    ap.add_argument("--negative", action="store_true")
    ap.add_argument("--pcapgen")
    ap.add_argument("--scenarios")
    ap.add_argument("--link")
    ap.add_argument("captures", nargs="*")
    a = ap.parse_args()
    pl = Plugin(a.ws_user, a.plugin)
    tmp = tempfile.mkdtemp(prefix="rr-plugin-")
    os.chmod(tmp, 0o755)
    fail = Failures("plugin")
    checks = 1
    try:
        if a.pcapgen:
            run_generated(pl, a, tmp, fail)
        for src in a.captures:
            cap = readable_copy(src, tmp)
            name = os.path.basename(src)
            if a.negative:
                rows = pl.fields(cap, ["frame.number"], filt="rpcrdma || rpc")
                if rows:
                    fail.add("%s: the plugin claimed %d frames of plain verbs traffic" % (name, len(rows)))
                print("%s: %d frames claimed" % (name, len(rows)))
                continue
            ref = lint_dump(a.lint, cap)
            ps = Passes(pl, cap)
            xids = check_messages(pl, cap, ref, fail, name, ps)
            check_links(pl, cap, ref, xids, fail, name, ps)
            check_findings(pl, a.lint, cap, fail, name, ps)
            check_stats(pl, cap, ref, fail, name)
            first = first_builtin_frame(pl, cap)
            if first <= 1:
                fail.add("%s: no handshake to cut" % name)
                continue
            cut = os.path.join(tmp, "cut-" + name)
            run(["editcap", "-r", cap, cut, "%d-%d" % (first, 2**31 - 1)])
            os.chmod(cut, 0o644)
            cref = lint_dump(a.lint, cut)
            cps = Passes(pl, cut)
            xids = check_messages(pl, cut, cref, fail, name + " (handshake cut)", cps)
            check_links(pl, cut, cref, xids, fail, name + " (handshake cut)", cps)
            check_findings(pl, a.lint, cut, fail, name + " (handshake cut)", cps)
            want, got = builtin_rpcs(pl, cap), plugin_rpcs(cps)
            missing = want - got
            for x, t in sorted(missing)[:20]:
                fail.add("%s: built-in -2 decodes RPC %s XID 0x%08x; the plugin's one pass on the cut capture does not" %
                         (name, "call" if t == 0 else "reply", x))
            print("%s: built-in -2 (whole capture) %d RPC messages; plugin one pass (handshake cut) %d, %d missing" %
                  (name, len(want), len(got), len(missing)))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    fail.finish(checks)


def run_generated(pl, a, tmp, fail):
    import glob
    for scn in sorted(glob.glob(os.path.join(a.scenarios, "*.scn"))):
        base = os.path.splitext(os.path.basename(scn))[0]
        for hs in ("--handshake", "--no-handshake"):
            cap = os.path.join(tmp, "%s%s.pcap" % (base, hs))
            truth = cap + ".json"
            run([a.pcapgen, "--link", a.link, hs, scn, "-o", cap, "--truth", truth])
            os.chmod(cap, 0o644)
            with open(truth) as f:
                t = json.load(f)
            ref = [m for m in t["messages"] if not m.get("injected")]
            label = "%s %s %s" % (a.link, base, hs[2:])
            injected = any(m.get("injected") for m in t["messages"])
            dump = lint_dump(a.lint, cap)
            if injected:
                ref = dump     # deliberate violations: the engine's record is the reference
            # A call whose read chunk was never fetched (its reply an error) is
            # rebuilt incomplete: its bytes are the engine's, not the sender's.
            hashes = {}
            for m in dump:
                if not m["complete"]:
                    for f in range(m["last_frame"], m["last_frame"] + 64):
                        hashes.setdefault(f, []).append(m)
            ps = Passes(pl, cap)
            check_messages(pl, cap, ref, fail, label, ps, strict=False, hashes=hashes, malformed_ok=injected)
            check_findings(pl, a.lint, cap, fail, label, ps)


if __name__ == "__main__":
    main()
