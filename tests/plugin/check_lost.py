#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The plugin on a capture that lost bytes: RPC decodes only what was captured.

Each capture is cut at several snaplens (tcpdump -s, as lintjson.cut_pcap
writes it).  The bytes of an RPC message that the cut removed are not in
the capture; the plugin hands RPC the rebuilt message with only the bytes
before the first lost one as captured, so RPC and NFS decode those and say
the packet was cut.  The oracle is the plugin on the whole capture (whose
RPC decode other tests hold to Wireshark's own): per XID and direction,
every RPC program, version and procedure decoded from a call in the cut
capture is the one decoded from the whole capture (a reply's are RPC's
memory of its call, not bytes of the reply).  The plugin once decoded the zeros
standing for lost bytes, and a cut NFSv3 NULL call became "NFS V0 proc-0".

Frames dropped from an iWARP capture (editcap -d): a call whose read chunk
never completed is delivered when its reply comes, and belongs to its own
last frame.  In tshark -2, every forward-channel RPC call the plugin hands
RPC is in a packet its requester sent (the host that opened the TCP
connection, from the capture's SYN), never in the responder's; it was drawn
in the reply's frame once, and the reply pushed into the next packet.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
from lintjson import Failures, cut_pcap  # noqa: E402

SNAPLENS = (100, 128, 200)
FIELDS = ["rpc.xid", "rpc.msgtyp", "rpc.program", "rpc.programversion", "rpc.procedure"]


def first(tree, key):
    """The first value of key anywhere in a tshark -T json layer (depth first)."""
    if isinstance(tree, dict):
        if key in tree:
            v = tree[key]
            return v[0] if isinstance(v, list) else v
        for v in tree.values():
            got = first(v, key)
            if got is not None:
                return got
    elif isinstance(tree, list):
        for v in tree:
            got = first(v, key)
            if got is not None:
                return got
    return None


def rpc_messages(ws_user, plugin, home, cap):
    """{xid: set of (program, version, procedure)} of every RPC call tshark -2 decodes, one per RPC layer."""
    cmd = [ws_user, plugin, "--home", home, "--", "tshark", "-2", "-r", cap, "-Y", "rpcrdma.message && rpc",
           "-T", "json", "-j", "rpc"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        raise SystemExit("tshark failed on %s: %s" % (cap, p.stderr.decode(errors="replace")[-2000:]))
    out = {}
    for pkt in json.loads(p.stdout.decode(errors="replace") or "[]"):
        layers = pkt["_source"]["layers"].get("rpc", [])
        for rpc in layers if isinstance(layers, list) else [layers]:
            # A reply carries no program: RPC shows its memory of the call, not bytes of the reply.
            if first(rpc, "rpc.msgtyp") != "0":
                continue
            val = tuple(first(rpc, f) or "" for f in FIELDS[2:])
            out.setdefault(first(rpc, "rpc.xid"), set()).add(val)
    return out


DROPS = ["102", "124", "127", "200-210", "300-305", "1000-1010"]


def calls_in_wrong_direction(ws_user, plugin, home, cap):
    """(frames with an RPC call of the forward channel, those sent by the responder)."""
    run = [ws_user, plugin, "--home", home, "--", "tshark", "-2", "-r", cap]
    syn = subprocess.run(run + ["-Y", "tcp.flags.syn == 1 && tcp.flags.ack == 0", "-T", "fields", "-e", "ip.src"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout.decode().split()
    p = subprocess.run(run + ["-Y", "rpcrdma.message && rpc.msgtyp == 0 && !rpcrdma.backchannel", "-T", "fields",
                              "-e", "frame.number", "-e", "ip.src"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    rows = [l.split("\t") for l in p.stdout.decode().splitlines() if l.strip()]
    return len(rows), [r[0] for r in rows if syn and r[1] not in set(syn)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ws-user", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--lint")
    ap.add_argument("captures", nargs="+")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="rr-lost-")
    os.chmod(tmp, 0o755)
    home = os.path.join(tmp, "home")
    fail = Failures("plugin_lost_bytes")
    checks = 0
    try:
        for src in a.captures:
            name = os.path.basename(src)
            whole = os.path.join(tmp, name)
            shutil.copyfile(src, whole)
            os.chmod(whole, 0o644)
            truth = rpc_messages(a.ws_user, a.plugin, home, whole)
            for snap in SNAPLENS:
                cut = os.path.join(tmp, "cut-%d-%s" % (snap, name))
                if cut_pcap(whole, cut, snap) is None:
                    raise SystemExit("%s: not a pcap file" % src)
                os.chmod(cut, 0o644)
                got = rpc_messages(a.ws_user, a.plugin, home, cut)
                bad = 0
                for key, vals in sorted(got.items()):
                    checks += 1
                    if key not in truth:
                        fail.add("%s cut at %d: RPC call XID %s decoded, which the whole capture does not "
                                 "hold" % (name, snap, key))
                        bad += 1
                        continue
                    for v in sorted(vals - truth[key]):
                        # Cut before the field: RPC shows nothing there (an empty value), never another one.
                        if any(x and x != t for x, t in zip(v, sorted(truth[key])[0])):
                            fail.add("%s cut at %d: RPC call XID %s decoded as program/version/procedure "
                                     "%s; the whole capture says %s" % (name, snap, key, v, sorted(truth[key])))
                            bad += 1
                print("%s cut at %d: %d RPC messages decoded, %d unlike the whole capture's" %
                      (name, snap, len(got), bad))
            if "siw" in name:
                dropped = os.path.join(tmp, "dropped-" + name)
                subprocess.run(["editcap", whole, dropped] + DROPS, check=True)
                os.chmod(dropped, 0o644)
                n, wrong = calls_in_wrong_direction(a.ws_user, a.plugin, home, dropped)
                checks += 1
                if not n or wrong:
                    fail.add("%s with frames %s dropped: %d RPC calls, in responder's packets: %s" %
                             (name, ",".join(DROPS), n, wrong[:10]))
                print("%s with frames dropped: %d RPC calls, all in requester's packets" % (name, n))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    fail.finish(checks)


if __name__ == "__main__":
    main()
