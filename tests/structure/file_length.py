#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Every tracked text file is at most LIMIT lines.

    file_length.py [--limit N] SOURCE_DIR

The files are the ones git tracks (git ls-files) whose names end in one of
SUFFIXES or are called CMakeLists.txt.  Prints each file over the limit
with its length; exit 1 if there is one, 0 if not, 77 (skipped) when
SOURCE_DIR is not a git checkout (a source tarball).
"""

import argparse
import os
import subprocess
import sys

LIMIT = 800
SUFFIXES = (".c", ".h", ".py", ".sh", ".cmake", ".md", ".scn", ".def")
NAMES = ("CMakeLists.txt",)


def tracked(root):
    """The tracked files' paths relative to root, or None outside a git checkout."""
    try:
        res = subprocess.run(["git", "-C", root, "ls-files", "-z"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, check=False)
    except OSError:
        return None
    if res.returncode != 0:
        return None
    return [p for p in res.stdout.decode("utf-8", "surrogateescape").split("\0") if p]


def is_text(path):
    return path.endswith(SUFFIXES) or os.path.basename(path) in NAMES


def count_lines(path):
    """Lines as an editor counts them: a last line without its newline counts."""
    with open(path, "rb") as fh:
        data = fh.read()
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("source", help="the repository's top folder")
    ap.add_argument("--limit", type=int, default=LIMIT, help="lines allowed (default %d)" % LIMIT)
    args = ap.parse_args(argv)

    files = tracked(args.source)
    if files is None:
        print("file_length: %s is not a git checkout: skipped" % args.source)
        return 77
    over, checked = [], 0
    for rel in sorted(f for f in files if is_text(f)):
        path = os.path.join(args.source, rel)
        if not os.path.isfile(path):        # deleted in the work tree, not yet in the index
            continue
        checked += 1
        n = count_lines(path)
        if n > args.limit:
            over.append((n, rel))
    for n, rel in over:
        print("%6d %s" % (n, rel))
    print("file_length: %d files checked, %d over %d lines" % (checked, len(over), args.limit))
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
