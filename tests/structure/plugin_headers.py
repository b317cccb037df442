#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The plugin uses Wireshark's public headers only.

Wireshark installs the headers of its dissectors (epan/dissectors/, e.g.
packet-infiniband.h, packet-iwarp-ddp-rdmap.h, packet-rpcrdma.h) today but
will install only the headers it marks public, which leaves those out: a
plugin that includes one, or reads a struct declared in one, stops building.
The plugin reads what it needs from the frame itself (docs/plugin.md), so it
includes none; this keeps it that way.  Two looks:

  sources  every #include in the plugin's sources (PLUGIN_DIR, *.c and *.h):
           none names epan/dissectors/, and none names a dissector header
           (packet-*.h) that is not one of the plugin's own files;
  build    (when BUILD_DIR is given and the plugin was built) the compiler's
           dependency files of the plugin target: no header the compiler
           read, directly or through another header, lies in an
           epan/dissectors/ folder.

usage: plugin_headers.py PLUGIN_DIR [BUILD_DIR]
Exit 0 when both hold, 1 with one line per offending include otherwise.
"""
import glob
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')
DISSECTOR_DIR = "epan/dissectors/"
DISSECTOR_HEADER = re.compile(r'(^|/)packet-[^/]*\.h$')


def source_findings(plugin_dir):
    own = set()
    files = []
    for dirpath, _, names in os.walk(plugin_dir):
        for n in names:
            if n.endswith((".c", ".h")):
                files.append(os.path.join(dirpath, n))
                own.add(n)
    if not files:
        return ["%s: no .c or .h file: wrong PLUGIN_DIR?" % plugin_dir]
    bad = []
    for path in sorted(files):
        with open(path, encoding="utf-8", errors="replace") as f:
            for lineno, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                inc = m.group(1)
                if DISSECTOR_DIR in inc:
                    bad.append("%s:%d: includes %s, a dissector header Wireshark will stop installing"
                               % (path, lineno, inc))
                elif DISSECTOR_HEADER.search(inc) and os.path.basename(inc) not in own:
                    bad.append("%s:%d: includes %s, a dissector header (packet-*.h) that is not the plugin's"
                               % (path, lineno, inc))
    return bad


def depfile_findings(build_dir):
    target = os.path.join(build_dir, "plugin", "src", "CMakeFiles", "rpcrdma_plugin.dir")
    deps = sorted(glob.glob(os.path.join(target, "*.d")))
    bad = []
    for dep in deps:
        with open(dep, encoding="utf-8", errors="replace") as f:
            text = f.read().replace("\\\n", " ")
        for word in text.split():
            if "/" + DISSECTOR_DIR in word:
                bad.append("%s: the compiler read %s" % (dep, word))
    return bad, len(deps)


def main(argv):
    if len(argv) not in (2, 3):
        sys.stderr.write(__doc__.split("usage: ")[1].split("\n")[0] + "\n")
        return 2
    bad = source_findings(argv[1])
    seen = "no build given"
    if len(argv) == 3 and argv[2]:
        dbad, ndeps = depfile_findings(argv[2])
        bad += dbad
        seen = "%d dependency files of the plugin build" % ndeps
    for b in bad:
        print("plugin_headers: " + b)
    if bad:
        print("plugin_headers: FAIL: %d includes of Wireshark dissector headers (see docs/plugin.md)" % len(bad))
        return 1
    print("plugin_headers: OK: no dissector header in the plugin's sources (%s)" % seen)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
