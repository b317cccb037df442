#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Captures the live agent recorded, verified against its own manifests.

Every NAME.pcap or NAME.pcapng in the folder, or in a folder of it named after a
kernel (6.1/, 6.12/, 7/: the failing rows of docs/conformance), that has a
NAME.pcap.manifest or NAME.manifest (the requester's) is verified with it, and with
NAME.serve.manifest (the responder's) when that exists.  A NAME.profile file, if present, holds the
--profile to use (rfc8166 or rfc5666).

usage: check_samples.py --dir DIR -- VERIFY...
Exit status: 0 every pair verifies, 1 some does not, 77 no pair in DIR
(skipped), 2 usage.
"""
import argparse
import os
import re
import subprocess
import sys

SKIP = 77


def pairs(folder):
    """The pairs of FOLDER, then of its kernel folders."""
    out = []
    if not os.path.isdir(folder):
        return out
    out += pairs_here(folder)
    for sub in sorted(os.listdir(folder)):
        if re.match(r"^[0-9]+(\.[0-9]+)*$", sub) and os.path.isdir(os.path.join(folder, sub)):
            out += pairs_here(os.path.join(folder, sub))
    return out


def pairs_here(folder):
    out = []
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
            print("FAIL %s (exit %d):" % (os.path.relpath(cap, a.dir), p.returncode))
            for line in out.splitlines()[:60]:
                print("     | " + line)
        else:
            print("ok   %s: %s" % (os.path.relpath(cap, a.dir), out.strip().splitlines()[-1]))
    print("check_samples: %d of %d pairs verify" % (len(todo) - failed, len(todo)))
    failed += tampered(a.dir, verify)
    return 1 if failed else 0


def tampered(folder, verify):
    """Recorded runs with their manifests damaged the ways a lax verify would
    let through (review of the agent): each must FAIL (exit 1)."""
    import tempfile
    cases = []

    def mf(name):
        with open(os.path.join(folder, name)) as f:
            return f.read()
    if os.path.exists(os.path.join(folder, "agent-shapes-rxe.pcap.manifest")):
        base = mf("agent-shapes-rxe.pcap.manifest")
        cases.append(("a manifest with nothing in it", "agent-shapes-rxe.pcap",
                      ["# rpcrdma-agent manifest 1\n"]))
        cases.append(("the first lines only (messages unlisted)", "agent-shapes-rxe.pcap",
                      ["".join(base.splitlines(True)[:4])]))
        cases.append(("every rpc line rebuilt=no", "agent-shapes-rxe.pcap",
                      [base.replace("rebuilt=yes", "rebuilt=no")]))
    if os.path.exists(os.path.join(folder, "agent-inj-credit0-rxe.pcap.manifest")):
        # 0 credits change no Payload byte: its hashes are still compared
        cases.append(("a reply hash changed under an RR-100 injection", "agent-inj-credit0-rxe.pcap",
                      [re.sub(r"(dir=reply\t.*?sha256=)([0-9a-f])", lambda m: m.group(1) +
                              ("0" if m.group(2) != "0" else "1"),
                              mf("agent-inj-credit0-rxe.pcap.manifest"), count=1),
                       mf("agent-inj-credit0-rxe.serve.manifest")]))
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for what, cap, texts in cases:
            paths = []
            for i, t in enumerate(texts):
                paths.append(os.path.join(tmp, "m%d.manifest" % i))
                with open(paths[-1], "w") as f:
                    f.write(t)
            p = subprocess.run(verify + ["--quiet", os.path.join(folder, cap)] + paths,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            if p.returncode != 1:
                bad += 1
                print("FAIL tampered (%s): exit %d, expected 1" % (what, p.returncode))
            else:
                print("ok   tampered (%s): %s" % (what, p.stdout.decode().strip().splitlines()[-1]))
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv))
