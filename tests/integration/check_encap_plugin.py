#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The Wireshark plugin on mirrored captures.  Each CASE is a link, an
encapsulation (rpcrdma-pcapgen --encap) and a scenario; the wrapped capture
must hold every message of the generator's truth for ulb-lint (--dump), and
then goes through tests/plugin/check_plugin.py as a capture of its own:
messages rebuilt in one pass, call/reply links, findings equal to
ulb-lint's, with the handshake and with it cut out.

    check_encap_plugin.py --check-plugin PY --ws-user SH --plugin SO --lint L
                          --pcapgen G LINK:SPEC:SCENARIO...
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

from lintjson import Failures, lint_dump, run


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--check-plugin", required=True)
    ap.add_argument("--ws-user", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--lint", required=True)
    ap.add_argument("--pcapgen", required=True)
    ap.add_argument("cases", nargs="+")
    a = ap.parse_args()
    fail = Failures("plugin on mirrored captures")
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)
        caps = []
        for i, case in enumerate(a.cases):
            link, spec, scn = case.split(":", 2)
            cap = os.path.join(tmp, "%d-%s-%s.pcap" % (i, link, spec.replace(",", "-")))
            run([a.pcapgen, "--link", link, "--encap", spec, scn, "-o", cap, "--truth", cap + ".json"])
            with open(cap + ".json") as f:
                want = len(json.load(f)["messages"])
            got = len(lint_dump(a.lint, cap))
            if got != want:
                fail.add("%s: ulb-lint rebuilds %d messages, the truth has %d" % (case, got, want))
            caps.append(cap)
        p = subprocess.run([sys.executable, a.check_plugin, "--ws-user", a.ws_user, "--plugin", a.plugin,
                            "--lint", a.lint] + caps)
        if p.returncode != 0:
            fail.add("check_plugin.py failed (%d) on the mirrored captures" % p.returncode)
    fail.finish(len(a.cases) + 1)


if __name__ == "__main__":
    main()
