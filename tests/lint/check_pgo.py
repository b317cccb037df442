# SPDX-License-Identifier: GPL-2.0-or-later
"""A profile-guided build used its profile.

GCC names each profile file after its object's path below the build tree
(-fprofile-prefix-path), and with -Wno-missing-profile an object whose
name found no file is built as if there were no profile, silently.  So,
when the tree was configured with RR_PGO_USE: ulb-lint --version must say
"profile-guided", and every object of ulb-lint's hot path (the decoder,
the engine, the checks, the session, the RPC walkers and ulb-lint's own)
must have its profile file in the folder; the folder must also hold no file
that names no object of this tree (a profile of another layout).  Without
RR_PGO_USE, --version must not claim it (exit 77: skipped).
"""
import argparse
import os
import subprocess
import sys

HOT = ("analyzer/decode/", "analyzer/engine/", "analyzer/check/", "analyzer/session/", "analyzer/ulp/",
       "analyzer/tools/CMakeFiles/ulb-lint.dir/")
# Built into rpcrdma_lib or ulb-lint but never linked into it, or data alone (no function, no profile).
NOT_PROFILED = {"hdr_encode.c", "wbuf.c", "client_res.c", "outcome.c", "lint_html_assets.c"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lint", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--profile", default="")
    a = ap.parse_args()
    version = subprocess.run([a.lint, "--version"], capture_output=True, text=True, check=True).stdout
    if not a.profile:
        if "profile-guided" in version:
            sys.exit(f"FAIL: no RR_PGO_USE, but ulb-lint --version says: {version.strip()}")
        print("not a profile-guided build (RR_PGO_USE empty): skipped")
        sys.exit(77)
    if "profile-guided" not in version:
        sys.exit(f"FAIL: RR_PGO_USE is set, but ulb-lint --version says: {version.strip()}")
    have = set(os.listdir(a.profile))
    expect, missing = set(), []
    for root, _, files in os.walk(os.path.join(a.build, "analyzer")):
        for f in files:
            if not f.endswith(".c.o"):
                continue
            rel = os.path.relpath(os.path.join(root, f), a.build)
            name = rel.replace(os.sep, "#")[:-2] + ".gcda"
            expect.add(name)
            if rel.startswith(HOT) and f[:-2] not in NOT_PROFILED and name not in have:
                missing.append(rel)
    if not expect:
        sys.exit(f"FAIL: no objects under {a.build}/analyzer (not built?)")
    stray = sorted(have - expect)
    if missing:
        sys.exit(f"FAIL: {len(missing)} objects of ulb-lint's hot path have no profile in {a.profile}, "
                 f"e.g. {missing[:3]}: the profile's names do not match this tree")
    if stray:
        sys.exit(f"FAIL: {len(stray)} profile files name no object of this tree, e.g. {stray[:3]}")
    print(f"ok: {version.strip()}; {len(have)} profile files, every hot object has one")


if __name__ == "__main__":
    main()
