#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""What ulb-lint finds in the real Linux captures, asserted exactly.

The captures are real Linux NFS/RDMA traffic from the QEMU lab
(sample-pcaps/real/PROVENANCE.md): Linux 6.1 in sample-pcaps/real, other
kernels in a folder named after the kernel (6.12/, 7/), whose captures are
keyed "FOLDER/NAME" in real_findings.json.  A folder given on the command
line stands for the captures in it.  They must give no error.  Every other
finding is listed in real_findings.json (rule -> frames), both for the
capture as it is and with the connection handshake cut out, and each rule
that appears is explained in WHY below.  Where tshark is installed, every
listed finding is also confirmed from Wireshark's own decode of its frame,
so the list is not only what ulb-lint happened to print.

Cut in the middle of its traffic (editcap -r from the middle frame on), a
capture starts with replies to calls it does not hold: no RR-003 (the whole
capture has none), as the credits granted bound how many such replies there
can be.  (They were told once, as warnings.)

Connections are numbered 1, 2, ... N as a reader counts them: --summary
lists exactly the numbers 1..N, and every finding names one of them.  (The
engine once numbered each direction before pairing them, so a capture's
connections were 1, 3, 5.)
"""
import argparse
import json
import glob
import os
import re
import subprocess
import sys
import tempfile

from lintjson import Failures, run

WHY = {
    # Linux 7's capture ends with the server gone: its last answer is frame
    # 9318, the READ the client sends next (9320) is resent six times by the
    # RC layer (CAP-DUP), then the client's CM ConnectRequests go unanswered
    # for four minutes.  Told once, at the READ.
    "RR-235": "the server fell silent (the capture ends with its client's calls and reconnects unanswered)",
    # Linux xprtrdma always registers the Reply chunk as one segment per page
    # of its receive buffer, so every call that may get a large reply (READDIR,
    # GETACL, NFSv4 GETATTR with ACLs) offers a 3-5 segment Reply chunk.  Legal;
    # the implementation-experience draft notes that implementations use one.
    "RR-029": "Reply chunk of several segments (Linux: one per page)",
    # The SETACL of a 200-entry ACL is a Long Call whose Position-Zero read chunk
    # spans two pages: legal, and the draft's first interop hazard.
    "RR-240": "multi-segment Position-Zero read chunk (large SETACL / SETXATTR)",
    # An unaligned WRITE (O_DIRECT at an offset inside a page) spans two pages,
    # so its read chunk has two segments at one Position.
    "RR-241": "two read segments at one Position (WRITE data spanning two pages)",
    # The NFSv3 failures the lab shows: SETACL of a 400-entry ACL (a Long Call
    # with a multi-segment PZRC) gets GARBAGE_ARGS, and GETACL of it gets
    # SYSTEM_ERR through a Reply chunk, on every connection the client tries.
    # The server limits the ACL's size (the same SETACL fails over TCP), so
    # the finding offers the chunk shape as a possible cause only.
    "RR-230": "NFSACL SETACL rejected (GARBAGE_ARGS) and GETACL failing (SYSTEM_ERR) on every connection: "
              "the server limits the ACL's size; the chunk shape is offered as a possible cause only",
    # rxe under TCG retransmits a few packets with the same PSN.
    "CAP-DUP": "rxe retransmissions",
    # The fault phases of the longer tier (nfsd restarted, the link down and
    # up): a call in flight when the connection broke is sent again with the
    # same XID on the new connection and answered there (RFC 8166 section 4.5.5).
    "RR-231": "call retried with the same XID on a new connection after nfsd restart or link loss",
    # An NFSv4.1+ COMPOUND in flight when nfsd restarted is sent again on the
    # new connection with the same session, slot and sequence ID: the server
    # answers it from its reply cache (RFC 8881 section 2.10.6.2).  Named as a
    # SEQUENCE replay, not as a plain retry.
    "RR-234": "NFSv4.1+ SEQUENCE replay on a new connection after nfsd restart",
    # Without the handshake the inline thresholds are unknown: RFC 8166 says
    # assume 1024, and Linux sends up to 4096 inline, so once per connection.
    "RR-041": "inline Send above the assumed 1024 bytes when the handshake is cut",
}


def findings(lint, cap):
    p = subprocess.run([lint, "--format", "json", cap], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode not in (0, 1):
        raise SystemExit("ulb-lint failed on %s: %s" % (cap, p.stderr.decode()[-2000:]))
    return [json.loads(l) for l in p.stdout.decode().splitlines() if l.strip()]


def numbering(lint, cap):
    """What is wrong with the connection numbers of cap's --summary and findings, or None."""
    p = subprocess.run([lint, "--summary", "--format", "json", cap], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    lines = [json.loads(l) for l in p.stdout.decode().splitlines() if l.strip()]
    ids = [c["id"] for d in lines if "summary" in d for c in d["summary"]["connections"]]
    named = {d["conn"] for d in lines if "rule" in d and d.get("conn") is not None}
    if sorted(ids) != list(range(1, len(ids) + 1)):
        return "connections numbered %s, not 1..%d" % (ids[:12], len(ids))
    if not named <= set(ids):
        return "findings name connections %s that --summary does not list" % sorted(named - set(ids))
    return None


def tshark_frames(cap):
    """Wireshark's decode of each frame: the fields the confirmations need."""
    env = dict(os.environ, WIRESHARK_CONFIG_DIR="/nonexistent")
    fields = ["frame.number", "rpcordma.msg_type", "rpcordma.reads_count", "rpcordma.reply_count",
              "rpcordma.segment_count", "rpcordma.position", "rpc.state_accept", "rpc.program",
              "rpc.procedure", "frame.len", "nfs.open.delegation_type"]
    out = subprocess.run(["tshark", "-2", "-r", cap, "-T", "fields", "-E", "separator=\t"] +
                         sum([["-e", f] for f in fields], []), stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, env=env).stdout.decode()
    frames = {}
    for line in out.splitlines():
        cols = line.split("\t")
        frames[int(cols[0])] = dict(zip(fields[1:], cols[1:]))
    return frames


def ints(s):
    return [int(x, 0) for x in s.replace(",", " ").split()] if s else []


def confirm(rule, f):
    """Does Wireshark's decode of the frame show what the rule says?"""
    if f is None:
        return False
    if rule == "RR-029":   # a call offering a Reply chunk of more than one segment
        return f["rpcordma.reply_count"] == "1" and ints(f["rpcordma.segment_count"])[-1:] and \
            ints(f["rpcordma.segment_count"])[-1] > 1
    if rule == "RR-240":   # RDMA_NOMSG with two or more read segments, all at Position 0
        pos = ints(f["rpcordma.position"])
        return f["rpcordma.msg_type"] == "1" and len(pos) >= 2 and not any(pos)
    if rule == "RR-241":   # two read segments at one non-zero Position
        pos = [p for p in ints(f["rpcordma.position"]) if p]
        return len(pos) != len(set(pos))
    if rule == "RR-230":   # an NFSACL reply with GARBAGE_ARGS (4) or SYSTEM_ERR (5)
        return f["rpc.program"] == "100227" and f["rpc.state_accept"] in ("4", "5")
    if rule == "ENG-ULP":  # an NFSv4 OPEN reply granting a type-5 delegation (RFC 9754)
        return f["nfs.open.delegation_type"] == "5"
    if rule == "RR-235":   # the first call the silent server left unanswered: an RPC call
        return f["rpc.program"] != "" and f["rpc.procedure"] != ""
    if rule == "RR-041":   # the requester's Send is larger than 1024 bytes
        return int(f["frame.len"] or 0) > 1024
    return True            # CAP-DUP: the decoder's own condition, not a decode claim


def expand(paths):
    """(key in real_findings.json, path) of each capture; a folder stands for its captures."""
    out = []
    for p in paths:
        for cap in sorted(glob.glob(os.path.join(p, "*.pcap"))) if os.path.isdir(p) else [p]:
            folder = os.path.basename(os.path.dirname(os.path.abspath(cap)))
            name = os.path.basename(cap)
            out.append(("%s/%s" % (folder, name) if re.match(r"^[0-9]+(\.[0-9]+)*$", folder) else name, cap))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lint", required=True)
    ap.add_argument("--expect", default=os.path.join(os.path.dirname(__file__), "real_findings.json"))
    ap.add_argument("captures", nargs="+")
    a = ap.parse_args()
    expect = json.load(open(a.expect))
    have_tshark = subprocess.run(["which", "tshark"], stdout=subprocess.DEVNULL).returncode == 0
    fail = Failures("real findings")
    checks = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, cap in expand(a.captures):
            want = expect.get(name)
            if want is None:
                fail.add("%s: no expectation recorded in %s" % (name, a.expect))
                continue
            variants = [("captured", cap, 0, want["captured"])]
            if "cut_at" in want:
                cut = os.path.join(tmp, name.replace("/", "_"))
                run(["editcap", "-r", cap, cut, "%d-%d" % (want["cut_at"], 2 ** 31 - 1)])
                exp = {r: list(v) for r, v in want["captured"].items()}
                for r, v in want.get("cut_extra", {}).items():
                    exp.setdefault(r, []).extend(v)
                for r, v in want.get("cut_missing", {}).items():
                    exp[r] = [x for x in exp.get(r, []) if x not in v]
                variants.append(("handshake cut", cut, want["cut_at"] - 1, exp))
            checks += 1
            mid = os.path.join(tmp, "mid-" + name.replace("/", "_"))
            n = int(subprocess.run(["capinfos", "-c", "-M", "-T", cap], stdout=subprocess.PIPE).stdout.decode()
                    .splitlines()[-1].split("\t")[-1])
            run(["editcap", "-r", cap, mid, "%d-%d" % (n // 2, 2 ** 31 - 1)])
            orphans = [d["frame"] for d in findings(a.lint, mid) if d["rule"] == "RR-003"]
            if orphans:
                fail.add("%s cut at frame %d: RR-003 at frames %s of the cut capture" % (name, n // 2, orphans[:5]))
            checks += 1
            wrong = numbering(a.lint, cap)
            if wrong:
                fail.add("%s: %s" % (name, wrong))
            tf = tshark_frames(cap) if have_tshark else None
            for variant, path, shift, exp in variants:
                got = findings(a.lint, path)
                checks += 1
                errors = [d for d in got if d["severity"] == "error"]
                if errors:
                    fail.add("%s (%s): %d error findings, e.g. %s" % (name, variant, len(errors), errors[0]["message"]))
                have = sorted((d["rule"], d["frame"] + shift) for d in got)
                wanted = sorted((r, f) for r, fs in exp.items() for f in fs)
                checks += 1
                if have != wanted:
                    fail.add("%s (%s): findings differ: unexpected %s; missing %s" % (
                        name, variant, sorted(set(have) - set(wanted))[:10], sorted(set(wanted) - set(have))[:10]))
                for r in sorted(set(x for x, _ in have)):
                    checks += 1
                    if r not in WHY:
                        fail.add("%s: rule %s appears but the test does not explain it" % (name, r))
                if tf is not None:
                    for r, f in wanted:
                        checks += 1
                        if not confirm(r, tf.get(f)):
                            fail.add("%s: Wireshark's decode of frame %d does not show %s (%s)" % (name, f, r, WHY.get(r)))
    fail.finish(checks)


if __name__ == "__main__":
    main()
