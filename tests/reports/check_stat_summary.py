#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""ulb-lint --summary and tshark -z rpcrdma,stat report the same numbers.

Both read the engine's description of each message (struct rr_msg_view);
this holds them to it on every capture given.  For each: one ulb-lint run
(--summary --format json) and one tshark run (-2 -q -z rpcrdma,stat, the
plugin loaded as an unprivileged user, tests/plugin/ws-user.sh), then per
connection (by the engine's number) and in total: calls, replies,
backchannel messages, incomplete messages, retries, inline / DDP / Long
bytes, the connection's name and the credits its latest call requested.

The comparison is checked too, on every run: the same two reports with one
number changed must be told apart (so a checker that compares nothing
cannot pass).
"""
import argparse
import copy
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
from lintjson import Failures, run  # noqa: E402

FIELDS = ("calls", "replies", "backchannel", "incomplete", "retries", "inline_bytes", "ddp_bytes", "long_bytes")


def summary_of(lint, cap):
    """{"connections": {id: {...}}, "total": {...}} from ulb-lint --summary --format json."""
    p = subprocess.run([lint, "--summary", "--format", "json", "--quiet", cap],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode not in (0, 1):
        raise SystemExit("ulb-lint failed (%d) on %s:\n%s" % (p.returncode, cap, p.stderr.decode()))
    line = [l for l in p.stdout.decode().splitlines() if l.startswith('{"file"') and '"summary"' in l]
    if len(line) != 1:
        raise SystemExit("ulb-lint --summary printed %d summaries for %s" % (len(line), cap))
    conns = {}
    for c in json.loads(line[0])["summary"]["connections"]:
        conns[c["id"]] = {f: c[f] for f in FIELDS}
        conns[c["id"]]["name"] = c["name"]
        if "credits_requested" in c:
            conns[c["id"]]["requested"] = c["credits_requested"]
    return {"connections": conns, "total": {f: sum(c[f] for c in conns.values()) for f in FIELDS}}


CONN = re.compile(r"^  connection (\d+): (.*)$")
COUNTS = re.compile(r"^    calls (\d+), replies (\d+), backchannel (\d+), incomplete (\d+), retries (\d+)$")
BYTES = re.compile(r"^    bytes: inline (\d+), DDP (\d+), Long (\d+)$")
CREDITS = re.compile(r"^    credits granted \(latest reply\) (\d+), requested \(latest call\) (\d+);")


def stat_of(text):
    """The same shape from the text of tshark -z rpcrdma,stat."""
    m = re.search(r"RPC-over-RDMA statistics \(rpcrdma-toolkit\): (\d+) messages", text)
    if not m:
        return None
    total = {f: 0 for f in FIELDS}
    total["messages"] = int(m.group(1))
    conns, section, cur = {}, None, None
    for line in text.splitlines():
        if line and not line.startswith(" "):
            section = line.strip()
            continue
        f = line.split()
        if section == "Messages by type" and len(f) >= 3:
            n = int(f[-1])
            total["calls" if f[-2] == "call" else "replies"] += n
            total["backchannel"] += n if "backchannel" in f else 0
        elif section and section.startswith("Bytes:") and f and f[0] == "all":
            total["inline_bytes"], total["ddp_bytes"], total["long_bytes"] = (int(x) for x in f[1:4])
        elif section == "Per connection":
            m = CONN.match(line)
            if m:
                cur = conns.setdefault(int(m.group(1)), {"name": m.group(2)})
                continue
            for rx, keys in ((COUNTS, FIELDS[:5]), (BYTES, FIELDS[5:]), (CREDITS, ("granted", "requested"))):
                m = rx.match(line)
                if m and cur is not None:
                    cur.update(zip(keys, (int(x) for x in m.groups())))
    return {"connections": conns, "total": total}


def compare(label, summ, stat, fail):
    """Adds a failure for every number the two reports give differently; returns how many."""
    before = len(fail.items)
    if stat is None:
        fail.add("%s: -z rpcrdma,stat printed no report" % label)
        return 1
    t, s = summ["total"], stat["total"]
    if s["messages"] != s["calls"] + s["replies"]:
        fail.add("%s: -z rpcrdma,stat: %d messages, but %d calls and %d replies by type" %
                 (label, s["messages"], s["calls"], s["replies"]))
    for f in FIELDS:
        if f in ("incomplete", "retries"):
            continue        # not in the stat's totals; compared per connection below
        if t[f] != s[f]:
            fail.add("%s: total %s: ulb-lint --summary %d, -z rpcrdma,stat %d" % (label, f, t[f], s[f]))
    a, b = summ["connections"], stat["connections"]
    if set(a) != set(b):
        fail.add("%s: connections: ulb-lint --summary %s, -z rpcrdma,stat %s" % (label, sorted(a), sorted(b)))
    for cid in sorted(set(a) & set(b)):
        x, y = a[cid], b[cid]
        for f in FIELDS + ("name",):
            if x.get(f) != y.get(f):
                fail.add("%s: connection %d %s: ulb-lint --summary %s, -z rpcrdma,stat %s" %
                         (label, cid, f, x.get(f), y.get(f)))
        if "requested" in x and x["requested"] != y.get("requested"):
            fail.add("%s: connection %d credits requested: ulb-lint --summary %d, -z rpcrdma,stat %s" %
                     (label, cid, x["requested"], y.get("requested")))
    return len(fail.items) - before


def comparison_bites(summ, stat):
    """One number changed in the stat's report (a connection's, or the total) must fail the comparison."""
    if stat is None:
        return True
    bent = copy.deepcopy(stat)
    if bent["connections"]:
        c = bent["connections"][min(bent["connections"])]
        c["inline_bytes"] = c.get("inline_bytes", 0) + 1
    else:
        bent["total"]["calls"] += 1
    probe = Failures("probe")
    return compare("probe", summ, bent, probe) > 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ws-user", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--lint", required=True)
    ap.add_argument("captures", nargs="+")
    a = ap.parse_args()
    fail = Failures("reports")
    tmp = tempfile.mkdtemp(prefix="rr-reports-")
    home = os.path.join(tmp, "home")      # one Wireshark home (the plugin copied once) for every run
    os.chmod(tmp, 0o755)
    checks = 0
    try:
        for src in a.captures:
            # tshark runs as an unprivileged user, who may not reach the source tree.
            cap = os.path.join(tmp, os.path.basename(src))
            shutil.copyfile(src, cap)
            os.chmod(cap, 0o644)
            name = os.path.basename(src)
            summ = summary_of(a.lint, cap)
            # The first run puts the plugin in the home's personal plugin folder,
            # where later runs find it: ws-user.sh need not look for it again.
            plugin = a.plugin if not checks else "none"
            stat = stat_of(run([a.ws_user, plugin, "--home", home, "--",
                                "tshark", "-2", "-q", "-r", cap, "-z", "rpcrdma,stat"]))
            checks += 1
            if not compare(name, summ, stat, fail):
                t = summ["total"]
                print("%s: %d connections, %d calls, %d replies, bytes inline %d, DDP %d, Long %d: the same in both" %
                      (name, len(summ["connections"]), t["calls"], t["replies"], t["inline_bytes"],
                       t["ddp_bytes"], t["long_bytes"]))
            if not comparison_bites(summ, stat):
                fail.add("%s: the comparison does not notice a changed number" % name)
            os.unlink(cap)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    fail.finish(checks)


if __name__ == "__main__":
    main()
