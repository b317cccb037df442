#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Captures the live agent recorded, verified against its own manifests.

Every NAME.pcap or NAME.pcapng in the folder that has a NAME.pcap.manifest or NAME.manifest (the
requester's) is verified with it, and with NAME.serve.manifest (the
responder's) when that exists.  A NAME.profile file, if present, holds the
--profile to use (rfc8166 or rfc5666).

usage: check_samples.py --dir DIR -- VERIFY...
Exit status: 0 every pair verifies, 1 some does not, 77 no pair in DIR
(skipped), 2 usage.
"""
import argparse
import os
import subprocess
import sys

SKIP = 77


def pairs(folder):
    out = []
    if not os.path.isdir(folder):
        return out
    for name in sorted(os.listdir(folder)):
        stem, ext = os.path.splitext(name)
        if ext not in (".pcap", ".pcapng"):
            continue
        # the agent writes CAPTURE.manifest (agent-x.pcap.manifest); NAME.manifest also counts
        mf = os.path.join(folder, name + ".manifest")
        if not os.path.exists(mf):
            mf = os.path.join(folder, stem + ".manifest")
        if not os.path.exists(mf):
            print("note: %s has no %s.manifest; not verified" % (name, stem))
            continue
        manifests = [mf]
        serve = os.path.join(folder, stem + ".serve.manifest")
        if os.path.exists(serve):
            manifests.append(serve)
        profile = []
        pf = os.path.join(folder, stem + ".profile")
        if os.path.exists(pf):
            with open(pf) as f:
                profile = ["--profile", f.read().strip()]
        out.append((os.path.join(folder, name), manifests, profile))
    return out


def main(argv):
    if "--" not in argv:
        print(__doc__)
        return 2
    cut = argv.index("--")
    verify = argv[cut + 1:]
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", required=True)
    a = ap.parse_args(argv[1:cut])
    if not verify:
        return 2
    todo = pairs(a.dir)
    if not todo:
        print("no capture with a manifest in %s: skipped" % a.dir)
        return SKIP
    failed = 0
    for cap, manifests, profile in todo:
        p = subprocess.run(verify + ["--quiet"] + profile + [cap] + manifests,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        out = p.stdout.decode(errors="replace")
        if p.returncode != 0:
            failed += 1
            print("FAIL %s (exit %d):" % (os.path.basename(cap), p.returncode))
            for line in out.splitlines()[:60]:
                print("     | " + line)
        else:
            print("ok   %s: %s" % (os.path.basename(cap), out.strip().splitlines()[-1]))
    print("check_samples: %d of %d pairs verify" % (len(todo) - failed, len(todo)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
