# SPDX-License-Identifier: GPL-2.0-or-later
"""Decode As (TCP port -> RPC-over-RDMA) tells the capture decoder which
port carries iWARP.

For an iWARP capture of one connection with its MPA exchange cut out (the
decoder finds the framing in the bytes; a later connection's exchange would
still mark it), tshark with the plugin (as an unprivileged user,
ws-user.sh) must rebuild as many messages as ulb-lint (the oracle) both
without Decode As and with the capture's own port given to the plugin; with
another port given, the decoder looks for iWARP there only and rebuilds
nothing.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
sys.path.insert(0, HERE)
from check_plugin import first_builtin_frame, over_captures, readable_copy  # noqa: E402
from lintjson import lint_dump, run  # noqa: E402


def messages(pl, cap, decode_as):
    args = ["-r", cap, "-Y", "rpcrdma.message", "-T", "fields", "-E", "occurrence=a", "-E", "aggregator=,",
            "-e", "rpcrdma.message.dir"]
    if decode_as:
        args += ["-d", "tcp.port==%d,rpcrdma" % decode_as]
    return sum(len(line.split(",")) for line in pl.tshark(args).splitlines() if line.strip())


def check_one(pl, lint, src, tmp, fail):
    name = os.path.basename(src)
    cap = readable_copy(src, tmp)
    cut = os.path.join(tmp, "cut-" + name)
    run(["editcap", "-r", cap, cut, "%d-%d" % (first_builtin_frame(pl, cap), 2**31 - 1)])
    os.chmod(cut, 0o644)
    ref = lint_dump(lint, cut)
    port = int(ref[0]["conn_name"].rsplit(":", 1)[1])
    got = {"none": messages(pl, cut, 0), "its port": messages(pl, cut, port), "another port": messages(pl, cut, 9)}
    want = {"none": len(ref), "its port": len(ref), "another port": 0}
    for k in want:
        if got[k] != want[k]:
            fail.add("%s (handshake cut), Decode As %s: %d messages rebuilt, expected %d" % (name, k, got[k], want[k]))
    print("%s (handshake cut): messages rebuilt by Decode As: %s (ulb-lint: %d)" % (name, got, len(ref)))
    return 1


def main():
    over_captures("plugin_decode_as", check_one)


if __name__ == "__main__":
    main()
