# SPDX-License-Identifier: GPL-2.0-or-later
"""Wireshark's own RPC statistics see every RPC-over-RDMA message once, at
the time it was sent.

For each capture, whole and with its handshake cut out (iWARP found
mid-stream: the first messages come out of the engine together), in one
pass and with -2, tshark with the plugin (as an unprivileged user,
ws-user.sh) must give:
  * `-z rpc,programs`: per RPC program and version, as many calls as the
    whole capture holds answered calls of it (ulb-lint --dump of the whole
    capture is the oracle: replies whose call it saw), less the replies RPC
    does not time: those whose RPC reply is not accepted with SUCCESS
    (Wireshark's RPC dissector taps no others, over TCP too; which they are
    is read from its decode);
  * `-z rpc,srt,100003,V`: per NFS procedure, as many calls as that oracle;
  * every reply's `rpc.time` equal to its `rpcrdma.time` (RPC is shown each
    message at the time it was sent, so a call with read chunks is timed
    from its Send, not from its last Read Response).
ulb-lint's response times (--summary) of the cut capture equal those of the
whole capture: the capture decoder times each message from the frames that
carried it, also those it held until it found the iWARP framing.
Where Wireshark's built-in rpcordma dissector (-2, whole capture, no
plugin) answers every call, its counts must be the same as well.  Programs
carried over plain TCP (the lab's MOUNT, portmap) are the same with and
without the plugin and are left out.
"""
import collections
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
sys.path.insert(0, HERE)
from check_plugin import over_captures, first_builtin_frame, readable_copy  # noqa: E402
from lintjson import lint_dump, run  # noqa: E402


def oracle(lint, cap):
    """({(prog, vers): answered calls}, {(prog, vers, proc): answered calls}) of ulb-lint's dump."""
    progs, procs = collections.Counter(), collections.Counter()
    for m in lint_dump(lint, cap):
        if m["dir"] == "reply" and "rpc_program" in m:
            progs[(m["rpc_program"], m["rpc_version"])] += 1
            # A COMPOUND's procedure is listed by its operations (NFSv4 procedure 1).
            proc = m["rpc_procedure"] if isinstance(m["rpc_procedure"], int) else 1
            procs[(m["rpc_program"], m["rpc_version"], proc)] += 1
    return progs, procs


def untimed(pl, cap):
    """({(prog, vers): n}, {(prog, vers, proc): n}) of the RPC replies not accepted with SUCCESS."""
    out = pl.tshark(["-2", "-r", cap, "-Y", "rpc.msgtyp == 1", "-T", "fields", "-E", "occurrence=a",
                     "-E", "aggregator=,", "-e", "rpc.program", "-e", "rpc.programversion",
                     "-e", "rpc.procedure", "-e", "rpc.replystat", "-e", "rpc.state_accept"])
    progs, procs = collections.Counter(), collections.Counter()
    for line in out.splitlines():
        cols = [c.split(",") if c else [] for c in line.split("\t")]
        if len(cols) != 5:
            continue
        # A denied reply has no accept state: one message per frame is read as such.
        accepted = cols[4] + ["-"] * (len(cols[0]) - len(cols[4]))
        for prog, vers, proc, rs, acc in zip(cols[0], cols[1], cols[2], cols[3], accepted):
            if rs != "0" or acc != "0":
                progs[(int(prog), int(vers))] += 1
                procs[(int(prog), int(vers), int(proc))] += 1
    return progs, procs


def parse_programs(out):
    got = {}
    for line in out.splitlines():
        m = re.match(r"^.+?\((\d+)\)\s+(\d+)\s+(\d+)\s", line)
        if m:
            got[(int(m.group(1)), int(m.group(2)))] = int(m.group(3))
    return got


def parse_srt(out):
    """{(vers, procedure name): calls} of every RPC SRT table printed."""
    got, vers = {}, None
    for line in out.splitlines():
        m = re.match(r"^Filter: nfs\.procedure_v(\d+)", line)
        if m:
            vers = int(m.group(1))
            continue
        m = re.match(r"^\s+(\d+)\s+(\S+)\s+(\d+)\s", line)
        if m and vers is not None:
            got[(vers, int(m.group(1)))] = int(m.group(3))
    return got


def nfs_versions(progs):
    return sorted(v for p, v in progs if p == 100003)


def run_stats(pl, cap, two_pass, versions, plugin=True):
    args = (["-2"] if two_pass else []) + ["-r", cap, "-q", "-z", "rpc,programs"]
    for v in versions:
        args += ["-z", "rpc,srt,100003,%d" % v]
    out = pl.tshark(args, plugin=plugin)
    return parse_programs(out), parse_srt(out)


def times(pl, cap):
    """[(frame, rpc.time values, rpcrdma.time values)] of the replies, -2."""
    out = pl.tshark(["-2", "-r", cap, "-Y", "rpc.time && rpcrdma.time", "-T", "fields", "-E", "occurrence=a",
                     "-E", "aggregator=,", "-e", "frame.number", "-e", "rpc.time", "-e", "rpcrdma.time"])
    rows = []
    for line in out.splitlines():
        f = line.split("\t")
        if len(f) == 3:
            rows.append((int(f[0]), sorted(float(x) for x in f[1].split(",") if x),
                         sorted(float(x) for x in f[2].split(",") if x)))
    return rows


def response_ms(lint, cap):
    """ulb-lint --summary's response times: {(connection name, operation): (count, median, p99)}."""
    out = run([lint, "--summary", "--format", "json", "--quiet", cap])
    last = json.loads(out.strip().splitlines()[-1])
    return {(c["name"], op): (t["count"], t["median"], t["p99"])
            for c in last["summary"]["connections"] for op, t in c.get("response_ms", {}).items()}


def check_one(pl, lint, src, tmp, fail):
    name = os.path.basename(src)
    cap = readable_copy(src, tmp)
    progs, procs = oracle(lint, cap)
    not_timed, not_timed_procs = untimed(pl, cap)
    progs.subtract(not_timed)
    procs.subtract(not_timed_procs)
    versions = nfs_versions(progs)
    want_srt = {(v, p): n for (prog, v, p), n in procs.items() if prog == 100003}
    builtin_progs, _ = run_stats(pl, cap, True, [], plugin=False)
    variants = [("whole", cap)]
    first = first_builtin_frame(pl, cap)
    if first > 1:
        cut = os.path.join(tmp, "cut-" + name)
        run(["editcap", "-r", cap, cut, "%d-%d" % (first, 2**31 - 1)])
        os.chmod(cut, 0o644)
        variants.append(("handshake cut", cut))
        whole_ms, cut_ms = response_ms(lint, cap), response_ms(lint, cut)
        for k in sorted(set(whole_ms) & set(cut_ms)):
            if whole_ms[k] != cut_ms[k]:
                fail.add("%s: ulb-lint's %s response time %s without the handshake, %s with it" %
                         (name, k[1], cut_ms[k], whole_ms[k]))
    for label, c in variants:
        tcp_only, _ = run_stats(pl, c, True, [], plugin=False)
        for two_pass in (False, True):
            what = "%s (%s, %s)" % (name, label, "-2" if two_pass else "one pass")
            got_progs, got_srt = run_stats(pl, c, two_pass, versions)
            for key, n in progs.items():
                if got_progs.get(key, 0) != n:
                    fail.add("%s: -z rpc,programs counts %d calls of program %d version %d; the capture "
                             "holds %d" % (what, got_progs.get(key, 0), key[0], key[1], n))
            for key, n in got_progs.items():
                if key not in progs and n != tcp_only.get(key, 0):
                    fail.add("%s: -z rpc,programs counts %d calls of program %d version %d, which the "
                             "capture carries over RDMA 0 times" % (what, n, key[0], key[1]))
            for key in set(want_srt) | set(got_srt):
                if got_srt.get(key, 0) != want_srt.get(key, 0):
                    fail.add("%s: -z rpc,srt,100003,%d procedure %d: %d calls; the capture holds %d" %
                             (what, key[0], key[1], got_srt.get(key, 0), want_srt.get(key, 0)))
            print("%s: %d RPC calls answered over RDMA, as the capture holds" %
                  (what, sum(got_progs.get(k, 0) for k in progs)))
        rows = times(pl, c)
        bad = [r for r in rows if len(r[1]) != len(r[2]) or
               any(abs(x - y) > 2e-6 for x, y in zip(r[1], r[2]))]
        for fr, rpc, rr in bad[:10]:
            fail.add("%s (%s): frame %d: rpc.time %s, rpcrdma.time %s" % (name, label, fr, rpc, rr))
        if len(rows) < sum(progs.values()) * 0.99:
            fail.add("%s (%s): only %d replies have both rpc.time and rpcrdma.time" % (name, label, len(rows)))
        print("%s (%s): rpc.time equals rpcrdma.time on %d of %d replies" %
              (name, label, len(rows) - len(bad), len(rows)))
    # The programs the oracle counts travel over RDMA only in these captures.
    rdma_builtin = builtin_progs
    if all(rdma_builtin.get(k, 0) == n for k, n in progs.items()):
        print("%s: the built-in dissector (-2) answers every call, with the same counts" % name)
    else:
        print("%s: the built-in dissector (-2) misses some (%s): not compared" %
              (name, ", ".join("%d/%d: %d of %d" % (k[0], k[1], rdma_builtin.get(k, 0), n)
                               for k, n in sorted(progs.items()) if rdma_builtin.get(k, 0) != n)))
    return 1


def main():
    over_captures("plugin_rpc_stats", check_one)


if __name__ == "__main__":
    main()
