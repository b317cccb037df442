# SPDX-License-Identifier: GPL-2.0-or-later
"""Every frame that carries bytes of an RPC-over-RDMA message says so.

For each capture, tshark -2 with the plugin (as an unprivileged user,
ws-user.sh) must show:
  * on every frame ulb-lint --dump lists as carrying bytes of a message
    (the oracle: the engine's record, checked against the generator and
    Wireshark elsewhere), an rpcrdma item that says what it carries: the
    Send, an earlier packet of it, an RDMA operation or the message itself;
    an RDMA operation names the message's XID (rpcrdma.xid), so filtering
    on the XID finds the frames that carried its data;
  * on every RDMA Read Request (Wireshark's own decode without the plugin
    finds them: InfiniBand BTH opcode 12, iWARP RDMAP opcode 1), an
    rpcrdma.rdma item of type Read Request;
  * on every call whose message is rebuilt in a later frame than its Send,
    the call's operation in the Info column of its Send;
  * on every frame where a message is handed to RPC, "rpc" in
    frame.protocols (it is drawn inside the lower layer's dissection);
  * every RDMA operation on a read segment names the segment by its place
    in the call's read list (rpcrdma.rdma.chunk_index, "read[i]" in Info),
    and the handle it used is the one Wireshark's own decode of the call
    (rpcordma.rdma_handle, without the plugin) lists at that place: two
    read chunks of one call were once both "read seg 0".
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
sys.path.insert(0, HERE)
from check_plugin import over_captures, readable_copy, vals  # noqa: E402
from lintjson import lint_dump  # noqa: E402

FIELDS = ["frame.number", "frame.protocols", "INFO", "rpcrdma.send", "rpcrdma.send.completed_in",
          "rpcrdma.rdma", "rpcrdma.rdma.op", "rpcrdma.message", "rpcrdma.xid", "rpc.xid"]
READ_REQUESTS = "infiniband.bth.opcode == 12 || iwarp_rdma.opcode == 1"


ROLE_READ, ROLE_PZRC = "1", "2"


def read_labels(pl, cap, name, rows, info, fail):
    """Each RDMA operation on a read segment, against the call's read list as Wireshark decodes it."""
    lists = {}
    for r in pl.fields(cap, ["rpcordma.xid", "rpcordma.reads_count", "rpcordma.rdma_handle"],
                       filt="rpcordma.reads_count > 0", plugin=False):
        n = int(vals(r, "rpcordma.reads_count")[0])
        # A call re-sent with its XID (on a new connection) advertises new handles: every attempt's list.
        lists.setdefault(int(vals(r, "rpcordma.xid")[0], 16), []).append(
            [int(h, 16) for h in vals(r, "rpcordma.rdma_handle")[:n]])
    carries = pl.fields(cap, ["frame.number", "rpcrdma.rdma.chunk", "rpcrdma.rdma.chunk_index", "rpcrdma.rdma.handle",
                              "rpcrdma.xid", info], filt="rpcrdma.rdma.chunk == 1 || rpcrdma.rdma.chunk == 2",
                        two_pass=True)
    checked = 0
    for r in carries:
        roles, idx, handles = (vals(r, f) for f in ("rpcrdma.rdma.chunk", "rpcrdma.rdma.chunk_index",
                                                     "rpcrdma.rdma.handle"))
        xids = vals(r, "rpcrdma.xid")
        fr = int(vals(r, "frame.number")[0])
        if not (len(roles) == len(idx) == len(handles) == len(xids)):
            continue
        for role, i, h, x in zip(roles, idx, handles, xids):
            if role not in (ROLE_READ, ROLE_PZRC):
                continue
            attempts = lists.get(int(x, 16))
            if attempts is None:
                continue
            checked += 1
            if not any(int(i) < len(want) and want[int(i)] == int(h, 16) for want in attempts):
                fail.add("%s: frame %d: a read segment operation says read list place %s, handle %s; Wireshark "
                         "decodes the call's read list as %s" % (name, fr, i, h,
                                                                 [[hex(w) for w in want] for want in attempts]))
            elif " seg " in " ".join(vals(r, info)) and "[%s] seg" % i not in " ".join(vals(r, info)):
                # (iWARP's own Info on a DDP segment may stand: the tree says it there.)
                fail.add("%s: frame %d: Info %r does not name read list place %s" % (name, fr, vals(r, info), i))
    return checked


def check_one(pl, lint, src, tmp, fail):
    name = os.path.basename(src)
    cap = readable_copy(src, tmp)
    ref = lint_dump(lint, cap)
    info = pl.column("Info")
    rows = {int(vals(r, "frame.number")[0]): r
            for r in pl.fields(cap, [info if f == "INFO" else f for f in FIELDS], two_pass=True)}
    carried = {}
    for m in ref:
        for fr in m["frames"]:
            carried.setdefault(fr, []).append(m)
    bad = 0
    for fr, ms in sorted(carried.items()):
        r = rows.get(fr, {})
        says = [f for f in ("rpcrdma.send", "rpcrdma.send.completed_in", "rpcrdma.rdma", "rpcrdma.message")
                if vals(r, f)]
        if not says:
            bad += 1
            if bad <= 10:
                fail.add("%s: frame %d carries bytes of XID %s but says nothing of it (Info %r)" %
                         (name, fr, ms[0]["xid"], vals(r, info)))
            continue
        if vals(r, "rpcrdma.rdma"):
            xids = set(int(x, 16) for x in vals(r, "rpcrdma.xid"))
            if not any(int(m["xid"], 16) in xids for m in ms):
                fail.add("%s: frame %d: an RDMA operation of XID %s names XIDs %s" %
                         (name, fr, ms[0]["xid"], sorted(hex(x) for x in xids)))
    out = pl.tshark(["-r", cap, "-Y", READ_REQUESTS, "-T", "fields", "-e", "frame.number"], plugin=False)
    reqs = [int(x) for x in out.split()]
    for fr in reqs:
        if "1" not in vals(rows.get(fr, {}), "rpcrdma.rdma.op"):
            fail.add("%s: frame %d is an RDMA Read Request the plugin does not label" % (name, fr))
    late_calls = 0
    for m in ref:
        if m["dir"] != "call" or m["last_frame"] == m["first_frame"] or m.get("rpc_program") is None:
            continue
        late_calls += 1
        want = "call XID 0x%08x" % int(m["xid"], 16)
        infos = [" ".join(vals(rows.get(fr, {}), info)) for fr in m["frames"][:-1]]
        # The Send names the operation ("NFS v3 WRITE call XID ..."), not only its procedure ("RDMA_MSG call").
        # From Wireshark 4.2 on, a postdissector's Info does not replace what iWARP's reassembly set on
        # an earlier DDP segment of a Send ("Send [more DDP segments]"): the tree says it there.
        if info == "_ws.col.info" and any(vals(rows.get(fr, {}), "rpcrdma.send.completed_in")
                                          for fr in m["frames"][:-1]):
            continue
        if not any(want in i and not i.startswith(("RDMA_", "Segment of")) for i in infos):
            fail.add("%s: no frame of the call XID %s before the one that completes it names its operation: %r" %
                     (name, m["xid"], infos[:3]))
    reads = read_labels(pl, cap, name, rows, info, fail)
    handed = [fr for fr, r in rows.items() if vals(r, "rpcrdma.message") and vals(r, "rpc.xid")]
    for fr in handed:
        if ":rpc" not in " ".join(vals(rows[fr], "frame.protocols")):
            fail.add("%s: frame %d hands a message to RPC, but frame.protocols is %r" %
                     (name, fr, vals(rows[fr], "frame.protocols")))
    print("%s: %d frames carry message bytes, %d say nothing; %d Read Requests; %d call Sends rebuilt "
          "later; %d frames hand RPC a message; %d read segment operations named by their place" %
          (name, len(carried), bad, len(reqs), late_calls, len(handed), reads))
    return 1


def main():
    over_captures("plugin_frame_labels", check_one)


if __name__ == "__main__":
    main()
