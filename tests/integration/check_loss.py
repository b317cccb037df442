# SPDX-License-Identifier: GPL-2.0-or-later
"""Captures that lost packets: no false finding, and the loss is counted.

Host captures lose packets without saying so (ibdump drops bursts, a busy
sniffer reports 0 drops).  From whole captures this script makes ones that
lost packets (pcapdrop.py): at random (1 %, several seeds) and in bursts of
100 consecutive frames at several places.  Then:

 - ulb-lint must report no error or warning finding that the whole capture
   does not report at the same frame: the whole capture's findings are the
   oracle.  Capture conditions (CAP-*) and what the engine says of messages
   it could not rebuild whole (ENG-INCOMPLETE) are what a loss brings.
 - The summary must give the loss: on IB/RoCE, per connection and
   direction, packets missing from the PSN sequences, counted from the
   construction (the PSNs the dropped frames took, read from their BTH); on
   iWARP, the connection is marked as having lost bytes.

A generated capture (rpcrdma-pcapgen, --pcapgen) is cut by role instead:
the first call, a Read Request, one packet of a Read Response, a reply;
each lost count follows from the generator's PSNs, and the generator's truth
(a clean scenario) says no finding is due.

--long runs every capture given with ten seeds and nine burst places.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pcapdrop  # noqa: E402
from lintjson import Failures, run  # noqa: E402

EXPECTED = re.compile(r"^(CAP-|ENG-INCOMPLETE$|ENG-LIMIT$|ENG-UNMATCHED-RDMA$|ENG-NOT-V1$)")
SENDS = {0, 1, 2, 3, 4, 5, 0x16, 0x17}
REQUESTS = SENDS | {6, 7, 8, 9, 10, 11, 12}     # Sends, Writes, Read Requests (IBTA 9.7)
READ_RESPONSES = {13, 14, 15, 16}
READ_REQUEST = 12
PSN_MASK = 0xFFFFFF


def dist(a, b):
    return (b - a) & PSN_MASK


def lint(lint_path, cap):
    """ulb-lint --summary --format json: (its findings, the summary's connections)."""
    p = subprocess.run([lint_path, "--summary", "--format", "json", cap], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if p.returncode not in (0, 1):
        raise SystemExit("ulb-lint failed on %s: %s" % (cap, p.stderr.decode()[-2000:]))
    findings, conns = [], None
    for line in p.stdout.decode().splitlines():
        d = json.loads(line)
        if "summary" in d:
            conns = d["summary"]["connections"]
        elif "rule" in d:
            findings.append(d)
    if conns is None:
        raise SystemExit("no summary from ulb-lint on %s" % cap)
    return findings, conns


def oracle(whole):
    """What the whole capture reports: (rule, frame), and (rule, XID) for the
    findings that conclude a call's attempts (their frame is the first attempt
    the capture still holds)."""
    return ({(d["rule"], d["frame"]) for d in whole} |
            {(d["rule"], d["xid"]) for d in whole if d.get("xid") is not None})


def new_findings(got, base, keep):
    """Error and warning findings of the cut capture the whole one lacks, at its frame numbers."""
    out = []
    for d in got:
        if d["severity"] not in ("error", "warning") or EXPECTED.match(d["rule"]):
            continue
        frame = keep[d["frame"] - 1] + 1 if d.get("frame") else 0
        if (d["rule"], frame) not in base and (d["rule"], d.get("xid", -1)) not in base:
            out.append("%s at frame %d: %s" % (d["rule"], frame, d["message"]))
    return out


class RoceStreams:
    """What each frame of a RoCEv2 capture is in its flow's sequence, from its BTH."""

    def __init__(self, recs):
        self.pkt = [pcapdrop.roce_packet(r) for r in recs]
        self.span = {}                  # index of a request packet -> PSNs it took
        self.request_of = {}            # index of a Read Response packet -> its Read Request's
        last = {}                       # flow -> index of its newest request packet
        reads = []                      # (reader, PSN, index) of the Read Requests, oldest first
        for i, p in enumerate(self.pkt):
            if p and p[3] in READ_RESPONSES:
                # It carries a PSN of the reader's stream: the newest Read Request at or before it.
                for reader, psn, j in reversed(reads):
                    if reader != p[0] and dist(psn, p[2]) < 0x10000:
                        self.request_of[i] = j
                        break
            if not p or p[3] not in REQUESTS:
                continue
            if p[3] == READ_REQUEST:
                reads.append((p[0], p[2], i))
            flow = p[:2]
            j = last.get(flow)
            if j is not None:
                d = dist(self.pkt[j][2], p[2])
                if d == 0 or d >= 0x800000:
                    continue            # a retransmission: not a new PSN
                self.span[j] = d
            last[flow] = i
            self.span[i] = 1

    def lost(self, keep):
        """Per flow: (PSNs the dropped frames took that a later kept packet of
        the flow reveals and a later Send reports, PSNs of all dropped frames)."""
        kept = set(keep)
        n = len(self.pkt)
        # The next kept packet of the same stream: requests, or Read Responses (IBTA 9.7.5).
        later_req = [None] * n
        seen = {}
        for i in range(n - 1, -1, -1):
            p = self.pkt[i]
            later_req[i] = dict(seen)
            if i in kept and p and p[3] in REQUESTS:
                seen[p[:2]] = i
            elif i in kept and p and p[3] in READ_RESPONSES and self.request_of.get(i) in kept:
                seen[p[:2] + ("responses",)] = i
        lastsend = max((i for i in kept if self.pkt[i] and self.pkt[i][3] in SENDS), default=-1)
        out, watched = {}, set()        # flows with a kept request packet so far
        for i, p in enumerate(self.pkt):
            if p and i in kept and p[3] in REQUESTS:
                watched.add(p[:2])
            if i in kept or not p:
                continue
            if p[3] in REQUESTS and i in self.span:
                n_psn = self.span[i]
            elif p[3] in READ_RESPONSES and self.request_of.get(i) in kept:
                n_psn = 1               # (a lost Read Request's span counts its responses)
            else:
                continue
            low, high = out.get(p[:2], (0, 0))
            q = later_req[i].get(p[:2] if p[3] in REQUESTS else p[:2] + ("responses",))
            # A stream whose start the capture lost looks like one the capture started late on.
            if q is not None and q <= lastsend and (p[3] in READ_RESPONSES or p[:2] in watched):
                low += n_psn
            out[p[:2]] = (low, high + n_psn)
        return out


class TcpStreams:
    """The TCP segments of a capture (iWARP), by direction."""

    def __init__(self, recs):
        self.seg = [pcapdrop.tcp_segment(r) for r in recs]

    def lost(self, keep):
        """The directions that lost payload which a later kept segment of theirs
        reveals (a sequence gap), before the connection's last kept payload."""
        kept = set(keep)
        last_any = {}
        for i in keep:
            g = self.seg[i]
            if g and g[1]:
                key = frozenset((g[0][:2], g[0][2:]))
                last_any[key] = i
        out, pending = set(), {}
        for i, g in enumerate(self.seg):
            if not g or not g[1]:
                continue
            if i not in kept:
                pending[g[0]] = True
            elif pending.pop(g[0], False) and i < last_any.get(frozenset((g[0][:2], g[0][2:])), -1):
                out.add(g[0])
        return out


def iwarp_names(conns):
    """The connection of each TCP direction: "iwarp A:p <-> B:q" (IPv6: "A port p")."""
    out = {}
    for c in conns:
        m = re.match(r"^iwarp (\S+)(?::| port )(\d+) <-> (\S+)(?::| port )(\d+)$", c["name"])
        if m:
            a, p, b, q = m.group(1), int(m.group(2)), m.group(3), int(m.group(4))
            out[(a, p, b, q)] = out[(b, q, a, p)] = c
    return out


def conn_dirs(conns):
    """(sender address, destination QP) -> (connection, direction 0 requester / 1 responder),
    from the summary's names: "rocev2 A qp X <-> B qp Y", requester first; A's packets go to QP Y."""
    out = {}
    for c in conns:
        m = re.match(r"^rocev2 (\S+) qp (0x[0-9a-f]+|\?) <-> (\S+) qp (0x[0-9a-f]+|\?)$", c["name"])
        if not m:
            continue
        a, x, b, y = m.groups()
        if y != "?":
            out[(a, int(y, 16))] = (c, 0)
        if x != "?":
            out[(b, int(x, 16))] = (c, 1)
    return out


def check_roce_loss(fail, name, conns, streams, keep):
    dirs = conn_dirs(conns)
    for flow, (low, high) in streams.lost(keep).items():
        if flow not in dirs:
            continue                     # not an RPC-over-RDMA connection (no message, no summary line)
        c, d = dirs[flow]
        if "lost_packets" not in c:
            fail.add("%s: the summary gives no loss for %s" % (name, c["name"]))
            continue
        got = c["lost_packets"][d]
        if not low <= got <= high:
            fail.add("%s: %s sent by %s to QP 0x%x: %d packets counted lost, %d..%d dropped"
                     % (name, c["name"], flow[0], flow[1], got, low, high))
        if low and not c.get("capture_cut"):
            fail.add("%s: %s lost packets but is not marked" % (name, c["name"]))


def variants(n, long_run):
    seeds = range(1, 11) if long_run else (1, 2)
    # Not at the very start: a capture that lost its first frames is one that started later.
    places = [k / 10 for k in range(1, 10)] if long_run else (0.25, 0.5, 0.75)
    for s in seeds:
        yield "1%% dropped (seed %d)" % s, pcapdrop.drop_random(n, 0.01, s)
    for at in places:
        start = int(n * at)
        yield "100 frames dropped from frame %d" % (start + 1), pcapdrop.drop_bursts(n, 100, [start])


def check_real(a, fail, tmp):
    checked = 0
    for cap in a.captures:
        parsed = pcapdrop.records(cap)
        if not parsed:
            raise SystemExit("%s: not a classic pcap file" % cap)
        hdr, _, recs = parsed
        whole, _ = lint(a.lint, cap)
        base = oracle(whole)
        streams, tcp = RoceStreams(recs), TcpStreams(recs)
        roce = any(streams.pkt)
        for label, keep in variants(len(recs), a.long):
            name = "%s, %s" % (os.path.basename(cap), label)
            out = os.path.join(tmp, "lost.pcap")
            pcapdrop.write(out, hdr, [recs[i] for i in keep])
            got, conns = lint(a.lint, out)
            for msg in new_findings(got, base, keep):
                fail.add("%s: %s" % (name, msg))
            if roce:
                check_roce_loss(fail, name, conns, streams, keep)
            names = iwarp_names(conns)
            for way in tcp.lost(keep):
                c = names.get(way)
                if c and not c.get("capture_cut"):
                    fail.add("%s: %s lost bytes sent by %s:%d, yet is not marked" % (name, c["name"], *way[:2]))
                elif c and not any(c.get("lost_bytes", ())):
                    fail.add("%s: %s lost bytes sent by %s:%d, yet the summary counts none" %
                             (name, c["name"], *way[:2]))
            checked += 1
    return checked


def generated_cuts(streams, truth):
    """The frames to drop, by role, from the generator's capture: name -> indices."""
    client = truth["connections"][0]["client"]
    pkt = streams.pkt
    roles = {}
    for i, p in enumerate(pkt):
        if not p:
            continue
        mine = p[0] == client
        if mine and p[3] in SENDS and "first call" not in roles:
            roles["first call"] = i
        elif not mine and p[3] in SENDS and "a reply" not in roles and "first call" in roles:
            roles["a reply"] = i
        elif not mine and p[3] == READ_REQUEST and i > roles.get("a reply", len(pkt)):
            roles.setdefault("a Read Request", i)
        elif mine and p[3] == 14:          # a Read Response MIDDLE packet
            roles.setdefault("a Read Response packet", i)
    return roles


def check_generated(a, fail, tmp):
    checked = 0
    for scn in a.scenario:
        cap, tru = os.path.join(tmp, "gen.pcap"), os.path.join(tmp, "gen.json")
        run([a.pcapgen, "--link", "rocev2", "--handshake", scn, "-o", cap, "--truth", tru])
        with open(tru) as f:
            truth = json.load(f)
        hdr, _, recs = pcapdrop.records(cap)
        streams = RoceStreams(recs)
        whole, _ = lint(a.lint, cap)
        base = oracle(whole)
        client = truth["connections"][0]["client"]
        for role, i in sorted(generated_cuts(streams, truth).items()):
            keep = [k for k in range(len(recs)) if k != i]
            name = "%s without %s (frame %d)" % (os.path.basename(scn), role, i + 1)
            out = os.path.join(tmp, "gen-lost.pcap")
            pcapdrop.write(out, hdr, [recs[k] for k in keep])
            got, conns = lint(a.lint, out)
            for msg in new_findings(got, base, keep):
                fail.add("%s: %s" % (name, msg))
            p = streams.pkt[i]
            want = [0, 0]
            want[0 if p[0] == client else 1] = streams.span.get(i, 1)
            lost = [c.get("lost_packets") for c in conns]
            if lost != [want]:
                fail.add("%s: lost packets %s, expected [%s] (the PSNs it took)" % (name, lost, want))
            checked += 1
    return checked


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lint", required=True)
    ap.add_argument("--pcapgen")
    ap.add_argument("--scenario", action="append", default=[], help="clean scenario to cut by role")
    ap.add_argument("--long", action="store_true", help="ten seeds and nine burst places")
    ap.add_argument("captures", nargs="*")
    a = ap.parse_args()
    if a.scenario and not a.pcapgen:
        ap.error("--scenario needs --pcapgen")
    fail = Failures("loss")
    with tempfile.TemporaryDirectory() as tmp:
        checked = check_real(a, fail, tmp)
        if a.scenario:
            checked += check_generated(a, fail, tmp)
    fail.finish(checked)


if __name__ == "__main__":
    main()
