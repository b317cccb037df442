#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The profile a GUI session with the plugin saved, against one without it.

    compare_profiles.py --reference DIR --plugin DIR --doc docs/plugin.md
                        [--user-disabled PROTO]

Both folders are Wireshark profiles saved by the same actions (profile_gui.sh).
Every file must be in both and equal, except recent and recent_common (the
window layout, written at every exit) and heuristic_protos, which Wireshark
4.0 writes whole ("short_name,0|1" for every heuristic dissector): there the
lines of heuristics both runs know must be equal, and the heuristics only the
plugin run knows must be the plugin's own (the heuristics table of --doc),
enabled.  --user-disabled: the protocol the user switched off, which must be
in both disabled_protos (else the dialog was not driven).
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from lintjson import Failures  # noqa: E402

LAYOUT = {"recent", "recent_common"}


def files(top):
    out = {}
    for d, _, names in os.walk(top):
        for n in names:
            p = os.path.join(d, n)
            with open(p, "rb") as f:
                out[os.path.relpath(p, top)] = f.read()
    return out


def heuristics(data):
    """{short_name: state} of a heuristic_protos file."""
    out = {}
    for line in data.decode(errors="replace").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, state = line.partition(",")
            out[name] = state
    return out


def own_heuristics(doc):
    """The plugin's heuristics as docs/plugin.md lists them: | `name` | `table` | ..."""
    with open(doc) as f:
        names = re.findall(r"^\| `([a-z0-9_]+)` \| `[a-z0-9_.]+` \|", f.read(), re.M)
    if not names:
        raise SystemExit("%s: no heuristics table found" % doc)
    return set(names)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reference", required=True)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--doc", required=True)
    ap.add_argument("--user-disabled")
    a = ap.parse_args()
    ref, got = files(a.reference), files(a.plugin)
    own = own_heuristics(a.doc)
    fails = Failures("profile")
    checks = 0
    print("profile: reference files %s; with the plugin %s" % (sorted(ref), sorted(got)))
    for name in sorted(set(ref) | set(got)):
        if name in LAYOUT:
            continue
        checks += 1
        if name not in got:
            fails.add("%s: the reference run saved it, the plugin run did not" % name)
        elif name not in ref:
            fails.add("%s: saved only with the plugin:\n%s" % (name, got[name].decode(errors="replace")[:2000]))
        elif name == "heuristic_protos":
            r, g = heuristics(ref[name]), heuristics(got[name])
            for h in sorted(set(r) & set(g)):
                if r[h] != g[h]:
                    fails.add("heuristic_protos: %s,%s with the plugin, %s,%s without it: the user did not set it"
                              % (h, g[h], h, r[h]))
            for h in sorted(set(r) - set(g)):
                fails.add("heuristic_protos: %s is missing with the plugin" % h)
            for h in sorted(set(g) - set(r)):
                if h not in own:
                    fails.add("heuristic_protos: %s,%s is not one of the plugin's heuristics %s" % (h, g[h], sorted(own)))
                elif g[h] != "1":
                    fails.add("heuristic_protos: the plugin's %s saved as %s, not enabled" % (h, g[h]))
            print("profile: heuristic_protos %d lines without the plugin, %d with it (%d of its own)"
                  % (len(r), len(g), len(set(g) - set(r))))
        elif ref[name] != got[name]:
            fails.add("%s differs:\n  without the plugin: %r\n  with it:           %r"
                      % (name, ref[name][:400], got[name][:400]))
    if a.user_disabled:
        for label, prof in (("reference", ref), ("plugin", got)):
            checks += 1
            lines = prof.get("disabled_protos", b"").decode(errors="replace").split()
            if a.user_disabled not in lines:
                fails.add("%s run: %s is not in disabled_protos: the dialog was not driven" % (label, a.user_disabled))
    fails.finish(checks)


if __name__ == "__main__":
    main()
