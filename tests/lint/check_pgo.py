# SPDX-License-Identifier: GPL-2.0-or-later
"""A profile-guided build used its profile.

GCC names each profile file after its object's path below the build tree
(-fprofile-prefix-path), and with -Wno-missing-profile an object whose
name found no file is built as if there were no profile, silently.  So,
when the tree was configured with a profile (RR_PGO_USE, its folder
present): the profile's rr-pgo.txt must name this tree's generator and
build type, ulb-lint --version must say "profile-guided", and every object
ulb-lint is linked from (its own, read from its link line, and the members
of the engine's archives on it) must have its profile file in the folder,
but those that hold no function (data alone) or that the linker leaves out
of it (NOT_PROFILED).  Without a profile, --version must not claim one
(exit 77: skipped).
"""
import argparse
import os
import shlex
import subprocess
import sys

# Members of the engine's archives that ulb-lint never links, and lint_html_assets.c (data alone).
NOT_PROFILED = {"hdr_encode.c.o", "wbuf.c.o", "client_res.c.o", "outcome.c.o", "lint_html_assets.c.o"}
LINK_DIR = "analyzer/tools"
LINK_TXT = "analyzer/tools/CMakeFiles/ulb-lint.dir/link.txt"   # Makefiles: relative to LINK_DIR


def link_words(build):
    """The words of ulb-lint's link line, and the folder they are relative to (Makefiles or Ninja)."""
    if os.path.exists(os.path.join(build, LINK_TXT)):
        with open(os.path.join(build, LINK_TXT)) as f:
            return shlex.split(f.read()), os.path.join(build, LINK_DIR)
    words = []
    with open(os.path.join(build, "build.ninja")) as f:
        lines = f.read().splitlines()
    for i, line in enumerate(lines):
        if line.startswith("build bin/ulb-lint:"):
            words = line.split("|")[0].split()[3:]
            for more in lines[i + 1:]:
                if not more.startswith("  "):
                    break
                if more.strip().startswith("LINK_LIBRARIES ="):
                    words += more.split("=", 1)[1].split()
            break
    return words, build


def linked_objects(build):
    """Every object ulb-lint's link takes, as paths below the build tree."""
    words, base = link_words(build)
    objs = []
    for w in words:
        path = os.path.normpath(os.path.join(base, w))
        if w.endswith(".o"):
            objs.append(path)
        elif w.endswith(".a") and os.path.relpath(path, build).startswith("analyzer" + os.sep):
            lib = os.path.basename(path)[len("lib"):-len(".a")]
            members = subprocess.run(["ar", "t", path], capture_output=True, text=True, check=True).stdout.split()
            objs += [os.path.join(os.path.dirname(path), "CMakeFiles", lib + ".dir", m) for m in members]
    return [os.path.relpath(o, build) for o in objs]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lint", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--profile", default="")
    ap.add_argument("--generator", default="")
    ap.add_argument("--build-type", default="")
    a = ap.parse_args()
    version = subprocess.run([a.lint, "--version"], capture_output=True, text=True, check=True).stdout
    if not a.profile:
        if "profile-guided" in version:
            sys.exit(f"FAIL: no profile configured, but ulb-lint --version says: {version.strip()}")
        print("not a profile-guided build (no RR_PGO_USE folder): skipped")
        sys.exit(77)
    if "profile-guided" not in version:
        sys.exit(f"FAIL: a profile is configured, but ulb-lint --version says: {version.strip()}")
    if not os.path.isdir(a.profile):
        sys.exit(f"FAIL: the profile folder {a.profile} this tree was configured with is gone")
    want = "generator=%s\nbuild_type=%s" % (a.generator, a.build_type)
    with open(os.path.join(a.profile, "rr-pgo.txt")) as f:
        stamp = f.read().replace("\r", "").strip()     # as RrPgo.cmake compares it
    if stamp != want:
        sys.exit(f"FAIL: the profile was trained for another kind of tree ({stamp!r}), not this one ({want!r})")
    have = set(os.listdir(a.profile))
    objs = linked_objects(a.build)
    if len(objs) < 50:
        sys.exit(f"FAIL: only {len(objs)} objects on ulb-lint's link line (link.txt or build.ninja): not read right")
    missing = [o for o in objs if os.path.basename(o) not in NOT_PROFILED and
               o.replace(os.sep, "#")[:-len(".o")] + ".gcda" not in have]
    if missing:
        sys.exit(f"FAIL: {len(missing)} of ulb-lint's {len(objs)} objects have no profile in {a.profile}, "
                 f"e.g. {missing[:3]}: the profile's names do not match this tree")
    print(f"ok: {version.strip()}; each of ulb-lint's {len(objs)} objects has its profile "
          f"(but {len(NOT_PROFILED)} without code or not linked)")


if __name__ == "__main__":
    main()
