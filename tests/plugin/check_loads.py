#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The plugin loads for an unprivileged user, with its version, and takes over
from the built-in dissector: its heuristics are on, the built-in ones off,
and the built-in preference gives them back."""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile


def tshark(a, args, plugin=True):
    """tshark as the unprivileged user; every run with the plugin shares one
    HOME (a.home), where the first run puts the plugin."""
    who = [a.plugin, "--home", a.home] if plugin else ["none"]
    p = subprocess.run([a.ws_user] + who + ["--", "tshark"] + args,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def heuristics(a):
    """{(table, protocol): enabled} from tshark -G heuristic-decodes."""
    rc, out, err = tshark(a, ["-G", "heuristic-decodes"])
    return {(f[0], f[1]): f[2] == "T" for f in (l.split("\t") for l in out.splitlines()) if len(f) >= 3}


def count(a, cap, filt, extra=()):
    rc, out, err = tshark(a, list(extra) + ["-r", cap, "-Y", filt])
    if rc:
        return -1
    return len(out.splitlines())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ws-user", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--version", required=True)
    ap.add_argument("--doc", required=True, help="docs/plugin.md")
    ap.add_argument("--capture", required=True, help="a capture RPC-over-RDMA with the handshake")
    a = ap.parse_args()
    # tshark runs as an unprivileged user, who may not reach the source tree.
    tmp = tempfile.mkdtemp(prefix="rr-loads-")
    os.chmod(tmp, 0o755)
    cap = os.path.join(tmp, os.path.basename(a.capture))
    shutil.copyfile(a.capture, cap)
    os.chmod(cap, 0o644)
    a.capture = cap
    a.home = os.path.join(tmp, "home")
    try:
        check(a)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def check(a):
    bad = []
    rc, out, err = tshark(a, ["-G", "plugins"])
    row = [l for l in out.splitlines() if l.startswith("rpcrdma.so")]
    if rc or not row:
        bad.append("tshark -G plugins does not list rpcrdma.so: %s" % (err.strip() or out[-500:]))
    elif a.version not in row[0]:
        bad.append("rpcrdma.so is listed without version %s: %s" % (a.version, row[0]))
    h = heuristics(a)
    for key, want in ((("infiniband.payload", "rpcrdma"), True), (("iwarp_ddp_rdmap", "rpcrdma"), True),
                      (("tcp", "rpcrdma"), True), (("infiniband.mad.cm.private", "rpcrdma"), True),
                      # The built-in's heuristics keep their own (default) state: the plugin's run first.
                      (("infiniband.payload", "rpcordma"), True), (("iwarp_ddp_rdmap", "rpcordma"), True)):
        if key not in h:
            bad.append("no %s heuristic on %s" % (key[1], key[0]))
        elif h[key] != want:
            bad.append("the %s heuristic on %s is %s by default" % (key[1], key[0], "on" if h[key] else "off"))
    ours, builtin = count(a, a.capture, "rpcrdma"), count(a, a.capture, "rpcordma")
    if ours <= 0 or builtin != 0:
        bad.append("by default the plugin should decode (%d frames) and the built-in not (%d)" % (ours, builtin))
    back = ["-o", "rpcrdma.builtin:TRUE"]
    ours, builtin = count(a, a.capture, "rpcrdma", back), count(a, a.capture, "rpcordma", back)
    if ours != 0 or builtin <= 0:
        bad.append("with rpcrdma.builtin:TRUE the built-in should decode (%d frames) and the plugin not (%d)" %
                   (builtin, ours))
    # docs/plugin.md documents every field the plugin registers.
    rc, out, err = tshark(a, ["-G", "fields"])
    fields = [f[2] for f in (l.split("\t") for l in out.splitlines()) if len(f) > 4 and f[0] == "F"
              and f[4] == "rpcrdma"]
    with open(a.doc) as f:
        doc = f.read()
    if len(fields) < 40:
        bad.append("tshark -G fields lists only %d rpcrdma fields" % len(fields))
    for name in fields:
        # One expert info per rule: the docs name them by pattern (`rpcrdma.rule.<code>`).
        if re.match(r"^rpcrdma\.rule\.(rr|cap|eng)_[a-z0-9_]+$", name) and "`rpcrdma.rule.<code>`" in doc:
            continue
        if "`%s`" % name not in doc:
            bad.append("field %s is not documented in %s" % (name, a.doc))
    for b in bad:
        print("FAIL plugin_loads: " + b)
    if bad:
        sys.exit(1)
    print("plugin_loads: %s loaded; takes over by default, gives the built-in back on request" %
          row[0].split("\t")[0].strip())


if __name__ == "__main__":
    main()
