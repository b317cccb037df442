#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The Wireshark plugin against independent references.

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
With --pcapgen every scenario of a folder is generated on one link, and
the scenarios of one handshake setting are read joined end to end in one
capture (tests/integration/pcapjoin.py), each part analysed as if alone:
the messages are the generator's ground truth moved to the joined frame
numbers, and must complete within their own part.
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
from pcapjoin import join_groups  # noqa: E402


class Plugin:
    def __init__(self, ws_user, plugin, home):
        """home: the unprivileged user's HOME, kept for every run with the
        plugin (ws-user.sh then finds the plugin in place)."""
        self.ws_user = ws_user
        self.plugin = plugin
        self.home = home

    def tshark(self, args, plugin=True):
        who = [self.plugin, "--home", self.home] if plugin else ["none"]
        cmd = [self.ws_user] + who + ["--", "tshark"] + args
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

    def column(self, name):
        """A column's field: `_ws.col.info` from Wireshark 4.2 on (where `_ws.col.Info` stays empty
        with -2), `_ws.col.Info` before."""
        if not hasattr(self, "lower_columns"):
            self.lower_columns = "\t_ws.col.info\t" in self.tshark(["-G", "fields"], plugin=False)
        return "_ws.col." + (name.lower() if self.lower_columns else name)

    def fields(self, cap, fields, two_pass=False, filt=None, plugin=True, tap=None):
        """The fields of every frame (rows of {field: [values]}); with tap,
        (rows, the text tshark -z TAP prints after them) from the same run."""
        args = (["-2"] if two_pass else []) + ["-r", cap, "-T", "json"]
        if filt:
            args += ["-Y", filt]
        for f in fields:
            args += ["-e", f]
        if tap:
            args += ["-z", tap]
        out = self.tshark(args, plugin=plugin)
        rows, end = [], 0
        if out.lstrip().startswith("["):
            pkts, end = json.JSONDecoder().raw_decode(out, len(out) - len(out.lstrip()))
            rows = [pkt["_source"]["layers"] for pkt in pkts]
        return (rows, out[end:]) if tap else rows

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


# Value-string fields print their numbers (rpcrdma/engine.h, rules.h).
NAMES = {"rpcrdma.message.dir": {"0": "call", "1": "reply"},
         "rpcrdma.rule.severity": {"0": "info", "1": "warning", "2": "error"}}


def vals(row, field):
    return [NAMES.get(field, {}).get(v, v) for v in row.get(field, [])]


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
    """What tshark with the plugin shows of one capture: one pass, -2 with
    the -z rpcrdma,stat report of that run, and the rebuilt tabs."""

    def __init__(self, pl, cap):
        self.one = pl.fields(cap, ONE_PASS)
        self.two, self.stats = pl.fields(cap, TWO_PASS, two_pass=True, tap="rpcrdma,stat")
        self.tabs = pl.rebuilt_tabs(cap)


def fits(g, m):
    """Is g, a message the plugin rebuilt ([frame, dir, length, taken]), the
    reference message m?  Within a joined capture m may complete no later
    than the first frame of the next part (m["until"]), where the engine
    closes what the part left open.  RPC is never handed a call and its
    reply in one frame (docs/plugin.md): a reply delivered with its call
    waits one frame more."""
    until = m.get("until", g[0]) + (1 if m["dir"] == "reply" and "until" in m else 0)
    return (not g[3] and m["last_frame"] <= g[0] <= until and g[1] == m["dir"]
            and g[2] == m["payload_len"])


def frame_name(fr):
    return "frame %d" % fr


def check_messages(pl, cap, ref, fail, label, ps, strict=True, hashes=None, malformed_ok=None,
                   where=frame_name):
    """ref: messages with xid, dir, payload_len, payload_sha256, last_frame
    (and in a joined capture, the scenario they belong to, part, and the
    last frame they may complete in, until).
    malformed_ok(frame): whether that frame may be Malformed (deliberately
    broken messages).  where(frame) names a frame in the failures.
    A message is rebuilt in the frame that completes it: its last frame,
    or later when the decoder held its bytes (iWARP framing found
    mid-stream).  Returns {frame: {(xid, dir)}} of what the plugin rebuilt."""
    got, later = [], []
    malformed = 0
    for r in ps.one:
        fr = int(vals(r, "frame.number")[0])
        if vals(r, "_ws.malformed"):
            malformed += 1
            if not (malformed_ok and malformed_ok(fr)):
                fail.add("%s: %s is Malformed" % (label, where(fr)))
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
        hit = next((g for g in got if fits(g, m)), None)
        if not hit and not strict:
            # Delivered only when the engine ended (after the first pass): a
            # stream too short for its framing to be found before its end.
            hit = next((g for g in later if fits(g, m)), None)
            if hit:
                hit[3] = True
                only_later += 1
                matched += 1
                continue
        if not hit:
            fail.add("%s: %s%s XID %s (%d bytes, last frame %d) not rebuilt" %
                     (label, m["part"] + " " if "part" in m else "", m["dir"], m["xid"],
                      m["payload_len"], m["last_frame"]))
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
                fail.add("%s: %s: a rebuilt tab of %d bytes matches no reference payload" % (label, where(fr), n))
    extra = sum(1 for g in got if not g[3])
    if extra:
        fail.add("%s: the plugin rebuilt %d messages the reference does not have" % (label, extra))
    print("%s: %d/%d messages rebuilt in one pass%s, %d payload hashes equal, %d Malformed%s" %
          (label, matched, len(ref), " (%d of them only with -2)" % only_later if only_later else "",
           hashed, malformed, " (deliberately broken messages)" if malformed and malformed_ok else ""))
    return {fr: set((m["xid"].lower(), m["dir"]) for m in ms) for fr, ms in at.items()}


def check_findings(pl, lint, cap, fail, label, ps, where=frame_name):
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
        fail.add("%s: ulb-lint finding missing from the plugin (-2): %s: %s" % (label, where(w[0]), w))
    for g in sorted(two - want):
        fail.add("%s: plugin finding ulb-lint does not report: %s: %s" % (label, where(g[0]), g))
    for g in sorted(one - two):
        fail.add("%s: one-pass finding not in the -2 set: %s: %s" % (label, where(g[0]), g))
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


def check_stats(ps, ref, fail, label):
    """tshark -z rpcrdma,stat counts what ulb-lint rebuilt: messages, and calls per operation."""
    out = ps.stats
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


def over_captures(test, check_one):
    """The command line of a per-capture plugin check (--ws-user, --plugin,
    --lint, captures): check_one(pl, lint, capture, tmp, fail) on each, in a
    private folder the unprivileged user can read; returns through
    Failures.finish."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--ws-user", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--lint", required=True)
    ap.add_argument("captures", nargs="+")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="rr-%s-" % test)
    os.chmod(tmp, 0o755)
    pl = Plugin(a.ws_user, a.plugin, os.path.join(tmp, "home"))
    fail = Failures(test)
    checks = 0
    try:
        for src in a.captures:
            checks += check_one(pl, a.lint, src, tmp, fail)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    fail.finish(checks)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ws-user", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--lint", required=True)
    ap.add_argument("--negative", action="store_true")
    ap.add_argument("--pcapgen")
    ap.add_argument("--scenarios")
    ap.add_argument("--link")
    ap.add_argument("--last", help="the scenario joined last: what the engine holds until the "
                    "capture ends is delivered only there (after the first pass, so -2 shows it); "
                    "at the other parts' ends it is delivered when the next part starts")
    ap.add_argument("captures", nargs="*")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="rr-plugin-")
    os.chmod(tmp, 0o755)
    pl = Plugin(a.ws_user, a.plugin, os.path.join(tmp, "home"))
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
            check_stats(ps, ref, fail, name)
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


def generate(a, scn, hs, tmp):
    """One scenario with or without the handshake: (label, capture, truth)."""
    base = os.path.splitext(os.path.basename(scn))[0]
    cap = os.path.join(tmp, "%s%s.pcap" % (base, hs))
    truth = cap + ".json"
    run([a.pcapgen, "--link", a.link, hs, scn, "-o", cap, "--truth", truth])
    with open(truth) as f:
        return base, cap, json.load(f)


class Part:
    """One scenario's capture inside a joined one: its frames are shifted by offset."""

    def __init__(self, name, cap, truth, offset, lint):
        self.name, self.offset = name, offset
        self.injected = any(m.get("injected") for m in truth["messages"])
        dump = lint_dump(lint, cap)
        # Deliberate violations: the engine's record of the part alone is the reference.
        ref = dump if self.injected else [m for m in truth["messages"] if not m.get("injected")]
        self.ref = [dict(m, last_frame=m["last_frame"] + offset, part=name) for m in ref]
        # A call whose read chunk was never fetched (its reply an error) is
        # rebuilt incomplete: its bytes are the engine's, not the sender's.
        self.hashes = {}
        for m in dump:
            if not m["complete"]:
                for f in range(m["last_frame"], m["last_frame"] + 64):
                    self.hashes.setdefault(f + offset, []).append(m)


class Joined:
    """The parts of one capture (several scenarios joined, or one alone):
    the reference messages, the hashes of incomplete ones and which frames
    may be Malformed, all in the capture's own frame numbers."""

    def __init__(self, parts):
        self.parts = parts
        self.ref, self.hashes, self.broken = [], {}, []
        for k, p in enumerate(parts):
            nxt = parts[k + 1].offset if k + 1 < len(parts) else None
            for m in p.ref:
                if nxt is not None:
                    m["until"] = nxt + 1
                self.ref.append(m)
            for f, ms in p.hashes.items():
                self.hashes.setdefault(f, []).extend(ms)
            if p.injected:
                self.broken.append((p.offset, 2**31 if nxt is None else nxt))

    def malformed_ok(self, fr):
        return any(lo < fr <= hi for lo, hi in self.broken)

    def where(self, fr):
        p = ([p for p in self.parts if p.offset < fr] or self.parts)[-1]
        return "frame %d (%s frame %d)" % (fr, p.name, fr - p.offset)


def joined_groups(made, tmp, stem, lint):
    """made: (name, capture, truth) of each scenario.  Yields (capture,
    Joined) for each capture to read (pcapjoin.join_groups)."""
    for cap, members in join_groups([c for _, c, _ in made], os.path.join(tmp, stem + ".pcap")):
        yield cap, Joined([Part(made[i][0], made[i][1], made[i][2], off, lint) for i, off in members])


def run_generated(pl, a, tmp, fail):
    """Every scenario with and without the handshake.  The scenarios of one
    handshake setting are read in one joined capture, so tshark starts a
    few times per link instead of a few times per scenario; each message is
    looked for at its truth frame moved by its part's offset."""
    import glob
    scns = sorted(glob.glob(os.path.join(a.scenarios, "*.scn")),
                  key=lambda s: (os.path.basename(s) == a.last, s))
    for hs in ("--handshake", "--no-handshake"):
        made = [generate(a, scn, hs, tmp) for scn in scns]
        for cap, j in joined_groups(made, tmp, "joined" + hs, a.lint):
            os.chmod(cap, 0o644)
            names = [p.name for p in j.parts]
            label = "%s %s (%s)" % (a.link, hs[2:], ", ".join(names) if len(names) < 3
                                    else "%d scenarios joined" % len(names))
            ps = Passes(pl, cap)
            check_messages(pl, cap, j.ref, fail, label, ps, strict=False, hashes=j.hashes,
                           malformed_ok=j.malformed_ok, where=j.where)
            check_findings(pl, a.lint, cap, fail, label, ps, where=j.where)


if __name__ == "__main__":
    main()
