#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The plugin beside Wireshark's built-in RPC-over-RDMA dissector.

The plugin leaves the built-in's heuristics enabled (their state is the
user's, saved in the profile by Analyze > Enabled Protocols) and keeps them
from seeing RPC-over-RDMA frames by claiming those frames first.  For each
capture, tshark running as an unprivileged user with the plugin:

  rpc       every RPC message the engine rebuilt reaches Wireshark's RPC
            dissector once: per (XID, call/reply), the RPC messages in
            frames the plugin drew equal ulb-lint --dump's messages that
            carry RPC; no frame is decoded by the built-in (rpcordma).
  programs  `tshark -z rpc,programs` counts per program and version what
            ulb-lint rebuilt (replies the RPC dissector counts: accepted
            with SUCCESS) plus the RPC over plain TCP the built-in
            dissectors see without the plugin.
  heuristics  the user unticks the plugin's heuristics of a capture's lower
            layer in Enabled Protocols (here tshark --disable-heuristic):
            `tshark -2 -V` is then byte-identical to a run without the
            plugin, postdissector included (it once went on drawing, so
            every message was decoded twice); unticking all four likewise.
  profile   the files of the test HOME's Wireshark profile (one written
            there as the GUI writes it: preferences, disabled_protos,
            heuristic_protos) are byte-identical after the runs.
"""
import argparse
import collections
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
from lintjson import Failures, lint_dump  # noqa: E402


class Tshark:
    def __init__(self, ws_user, plugin, home):
        self.ws_user, self.plugin, self.home = ws_user, plugin, home

    def run(self, args, plugin=True):
        who = [self.plugin, "--home", self.home] if plugin else ["none"]
        p = subprocess.run([self.ws_user] + who + ["--", "tshark"] + args, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
        if p.returncode != 0 or "Couldn't load plugin" in p.stderr.decode(errors="replace"):
            sys.stderr.write("tshark failed (%d): %s\n%s\n" % (p.returncode, " ".join(args),
                                                              p.stderr.decode(errors="replace")[-3000:]))
            raise SystemExit(1)
        return p.stdout.decode(errors="replace")

    def rows(self, cap, filt, fields, plugin=True):
        args = ["-r", cap, "-Y", filt, "-T", "fields", "-E", "occurrence=a", "-E", "aggregator=|"]
        for f in fields:
            args += ["-e", f]
        out = self.run(args, plugin=plugin)
        return [[c.split("|") if c else [] for c in l.split("\t")] for l in out.splitlines()]


# A profile as the GUI leaves it after Enabled Protocols is saved with some change.
PROFILE = {
    "preferences": "# Configuration file for Wireshark 4.0\ngui.column.format: \"No.\", \"%m\"\n",
    "disabled_protos": "bfd\n",
    "heuristic_protos": "rtp_udp,1\n",
}


def profile_dir(home):
    return os.path.join(home, ".config", "wireshark")


def snapshot(home):
    out = {}
    for root, _, files in os.walk(profile_dir(home)):
        for f in files:
            p = os.path.join(root, f)
            with open(p, "rb") as fh:
                out[os.path.relpath(p, home)] = hashlib.sha256(fh.read()).hexdigest()
    return out


def rpc_messages(dump):
    """(xid, msgtyp) -> how many messages the engine rebuilt that carry an RPC message."""
    c = collections.Counter()
    for m in dump:
        if m["payload_len"] and m["rdma_proc"] != "RDMA_ERROR":
            c[(int(m["xid"], 16), 0 if m["dir"] == "call" else 1)] += 1
    return c


def check_rpc(ts, cap, dump, fail, name):
    got = collections.Counter()
    for xids, types in ts.rows(cap, "rpcrdma.message && rpc", ["rpc.xid", "rpc.msgtyp"]):
        for x, t in zip(xids, types):
            got[(int(x, 16), int(t))] += 1
    want = rpc_messages(dump)
    bad = [k for k in set(want) | set(got) if want[k] != got[k]]
    for x, t in sorted(bad)[:20]:
        fail.add("%s: XID 0x%08x %s: RPC saw it %d times, ulb-lint rebuilt it %d times" %
                 (name, x, "call" if t == 0 else "reply", got[(x, t)], want[(x, t)]))
    builtin = ts.rows(cap, "rpcordma", ["frame.number"])
    if builtin:
        fail.add("%s: the built-in dissector decoded %d frames beside the plugin (first %s)" %
                 (name, len(builtin), builtin[0][0]))
    print("%s: %d RPC messages reached RPC once each, %d frames of the built-in" %
          (name, sum(got.values()), len(builtin)))


PROG_LINE = re.compile(r"^.*?\((\d+)\)\s+(\d+)\s+(\d+)\s")


def check_programs(ts, cap, dump, fail, name):
    got = collections.Counter()
    for line in ts.run(["-r", cap, "-q", "-z", "rpc,programs"]).splitlines():
        m = PROG_LINE.match(line)
        if m:
            got[(int(m.group(1)), int(m.group(2)))] += int(m.group(3))
    # RPC counts a reply accepted with SUCCESS, on its first sight: the engine's
    # replies, less those RPC found refused or failed.
    want = collections.Counter()
    for m in dump:
        if m["dir"] == "reply" and "rpc_program" in m and m["payload_len"] and m["rdma_proc"] != "RDMA_ERROR":
            want[(m["rpc_program"], m["rpc_version"])] += 1
    failed = ts.rows(cap, "rpcrdma.message && rpc.msgtyp == 1 && (rpc.replystat != 0 || rpc.state_accept != 0)",
                     ["rpc.program", "rpc.programversion", "rpc.replystat", "rpc.state_accept"])
    for p, v, rs, acc in failed:
        for i in range(len(p)):
            if (rs[i] if i < len(rs) else "0") != "0" or (acc[i] if i < len(acc) else "0") != "0":
                want[(int(p[i]), int(v[i]))] -= 1
    tcp = ts.rows(cap, "rpc.msgtyp == 1 && rpc.replystat == 0 && rpc.state_accept == 0 && tcp && "
                  "!rpcordma && !iwarp_ddp_rdmap && !infiniband", ["rpc.program", "rpc.programversion"],
                  plugin=False)
    for p, v in tcp:
        for i in range(max(len(p), 1)):
            want[(int(p[i]) if p else 0, int(v[i]) if v else 0)] += 1
    want = +want
    for k in sorted(set(want) | set(got)):
        if want[k] != got[k]:
            fail.add("%s: -z rpc,programs program %d version %d: %d calls, expected %d" %
                     (name, k[0], k[1], got[k], want[k]))
    print("%s: -z rpc,programs %s" % (name, dict(got)))


HEURISTICS = {"infiniband": ("rpcrdma_tk_infiniband", "rpcrdma_tk_cm"),
              "iwarp": ("rpcrdma_tk_iwarp", "rpcrdma_tk_tcp")}


def check_heuristics_off(ts, cap, fail, name):
    without = ts.run(["-2", "-r", cap, "-V"], plugin=False)
    ib = bool(ts.rows(cap, "infiniband", ["frame.number"], plugin=False))
    sets = [("all four", HEURISTICS["infiniband"] + HEURISTICS["iwarp"]),
            ("its layer's", HEURISTICS["infiniband" if ib else "iwarp"])]
    for what, names in sets:
        off = sum([["--disable-heuristic", h] for h in names], [])
        got = ts.run(["-2", "-r", cap, "-V"] + off)
        if got != without:
            diff = next((i for i, (x, y) in enumerate(zip(got.splitlines(), without.splitlines())) if x != y), None)
            fail.add("%s: %s heuristics off (%s), the decode differs from Wireshark without the plugin, first at "
                     "line %s: %r" % (name, what, " ".join(names), diff,
                                      got.splitlines()[diff] if diff is not None else "(length)"))
    print("%s: heuristics off: decode as without the plugin" % name)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ws-user", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--lint", required=True)
    ap.add_argument("captures", nargs="+")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="rr-builtin-")
    os.chmod(tmp, 0o755)
    home = os.path.join(tmp, "home")
    os.makedirs(profile_dir(home))
    for f, text in PROFILE.items():
        with open(os.path.join(profile_dir(home), f), "w") as fh:
            fh.write(text)
    ts = Tshark(a.ws_user, a.plugin, home)
    ts.run(["-v"])            # ws-user.sh puts the plugin in place (and hands HOME to the user)
    before = snapshot(home)
    fail = Failures("plugin_builtin")
    try:
        for src in a.captures:
            cap = os.path.join(tmp, os.path.basename(src))
            shutil.copyfile(src, cap)
            os.chmod(cap, 0o644)
            name = os.path.basename(src)
            dump = lint_dump(a.lint, cap)
            check_rpc(ts, cap, dump, fail, name)
            check_programs(ts, cap, dump, fail, name)
            check_heuristics_off(ts, cap, fail, name)
            os.unlink(cap)
        after = snapshot(home)
        for f in sorted(set(before) | set(after)):
            if before.get(f) != after.get(f):
                fail.add("profile file %s %s by the runs" % (f, "changed" if f in before and f in after else
                                                            "created" if f in after else "removed"))
        print("profile: %d files, unchanged" % len(before) if before == after else "profile: changed")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    fail.finish(len(a.captures) + 1)


if __name__ == "__main__":
    main()
