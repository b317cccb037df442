#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The call graph between the shipped source files, from the objects' symbol tables.

    callgraph.py [--dot FILE] [--expect-layers] [--nm NM] BUILD_DIR

File A depends on file B when A's object leaves a symbol undefined that B's
object defines.  A folder (a source file's directory: analyzer/lib,
plugin/src, ...) depends on another when one of its files depends on one of
the other's.  The layering holds when neither graph has a cycle and, with
--expect-layers, every folder edge goes down the order in LAYERS.  Exit 0
when it holds, 1 when it does not (every cycle and every edge against the
order is printed, each edge with one symbol that makes it), 2 on a usage
or build problem (no build, an object not built yet).

The shipped targets are found in the build directory: every library target
under analyzer/, and the ones named in SHIPPED.  A target's objects are the
ones its CMakeFiles/<target>.dir/DependInfo.cmake lists (so a stale object
of a removed source does not count); each maps back to its source file.
"""

import argparse
import os
import re
import subprocess
import sys

# The shipped targets outside analyzer/'s libraries.
SHIPPED = ("ulb-lint", "rpcrdma_plugin", "agent_core", "rpcrdma-agent",
           "pcapgen_core", "rpcrdma-pcapgen")

# The intended order of the folders: each may use the folders listed here
# and, transitively, whatever those may use; nothing else.  A folder that
# does not exist (yet) costs nothing; a folder missing from this table is an
# error, so that a new folder gets its place in the order.
LAYERS = {
    "analyzer/lib": (),
    "analyzer/decode": ("analyzer/lib",),
    "analyzer/ulp": ("analyzer/lib",),
    "analyzer/check": ("analyzer/ulp",),
    "analyzer/engine": ("analyzer/check",),
    # The one driver from frames to reports, above the decoder and the engine.
    "analyzer/session": ("analyzer/engine", "analyzer/decode"),
    "analyzer/tools": ("analyzer/session",),
    "plugin/src": ("analyzer/session",),
    "capture/agent": ("analyzer/session", "capture/pcapgen"),
    # The generator is the test oracle: it shares nothing with analyzer/.
    "capture/pcapgen": (),
}

# nm's type letters (POSIX format) of symbols a file offers to others, and
# of symbols it needs.  Lower-case letters are local symbols, except u
# (unique global) and i (GNU indirect function); w and v are weak references.
DEFINED = set("ABCDGIRSTVW") | {"u", "i"}
UNDEFINED = {"U", "w", "v"}


class BuildError(Exception):
    """The build directory cannot answer (not configured, not built)."""


def cache_value(build, key):
    """A value from the build's CMakeCache.txt."""
    path = os.path.join(build, "CMakeCache.txt")
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if line.startswith(key + ":"):
                    return line.split("=", 1)[1].strip()
    except OSError:
        raise BuildError("%s: no CMakeCache.txt: not a configured build directory" % build)
    raise BuildError("%s: %s not in CMakeCache.txt" % (build, key))


def target_dirs(build):
    """Every CMakeFiles/<target>.dir of the build: {target: (dir, build subfolder)}."""
    found = {}
    for root, dirs, _files in os.walk(build):
        dirs.sort()
        if os.path.basename(root) != "CMakeFiles":
            continue
        for d in dirs:
            if d.endswith(".dir"):
                sub = os.path.relpath(os.path.dirname(root), build)
                found[d[:-4]] = (os.path.join(root, d), "" if sub == "." else sub)
        dirs[:] = [d for d in dirs if not d.endswith(".dir")]
    return found


def is_library(tdir):
    """A static library (CMake leaves cmake_clean_target.cmake), a shared library or a module."""
    if os.path.exists(os.path.join(tdir, "cmake_clean_target.cmake")):
        return True
    try:
        with open(os.path.join(tdir, "link.txt"), encoding="utf-8") as fh:
            return " -shared " in fh.read()
    except OSError:
        return False


def shipped_targets(build):
    """{target: (dir, build subfolder)} of the targets whose objects are shipped."""
    out = {}
    for name, (tdir, sub) in sorted(target_dirs(build).items()):
        under_analyzer = sub == "analyzer" or sub.startswith("analyzer/")
        if name in SHIPPED or (under_analyzer and is_library(tdir)):
            out[name] = (tdir, sub)
    return out


DEP_LINE = re.compile(r'^\s*"([^"]+)"\s+"([^"]+\.o(?:bj)?)"\s+"[^"]*"\s+"[^"]*"\s*$')


def target_objects(build, src_root, tdir, sub):
    """[(object path, source path relative to src_root)] of one target."""
    pairs = []
    try:
        with open(os.path.join(tdir, "DependInfo.cmake"), encoding="utf-8") as fh:
            for line in fh:
                m = DEP_LINE.match(line)
                if m:
                    pairs.append((os.path.join(build, m.group(2)), m.group(1)))
    except OSError:
        pass
    if not pairs:
        # Generators that do not list them: every object under the target's
        # folder, mapped back as CMake names it (path of the source below the
        # target's source folder, "__" for "..", plus ".o").
        for root, _dirs, files in os.walk(tdir):
            for f in sorted(files):
                if f.endswith(".o"):
                    obj = os.path.join(root, f)
                    rel = os.path.relpath(obj, tdir)[:-2].replace("__", "..")
                    pairs.append((obj, os.path.join(src_root, sub, rel)))
    out = []
    for obj, src in pairs:
        src = os.path.normpath(src)
        if not os.path.exists(obj):
            raise BuildError("%s: not built yet (build the tree first)" % os.path.relpath(obj, build))
        rel = os.path.relpath(src, src_root)
        out.append((obj, rel.replace(os.sep, "/")))
    return out


def symbols(nm, objs):
    """{object: (defined, undefined)}: the global symbols each object offers and needs."""
    res = subprocess.run([nm, "-P", "-A"] + list(objs), stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, universal_newlines=True, check=False)
    if res.returncode != 0:
        raise BuildError("%s -P -A: %s" % (nm, res.stderr.strip()))
    out = {obj: (set(), set()) for obj in objs}
    for line in res.stdout.splitlines():
        # "object: name type [value size]"; names hold no blank.
        obj, _sep, rest = line.rpartition(": ")
        parts = rest.split()
        if obj not in out or len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind in UNDEFINED:
            out[obj][1].add(name)
        elif kind in DEFINED:
            out[obj][0].add(name)
    return out


def build_graph(defs, uses):
    """{file: {file it uses: sorted symbols}} and the used symbols defined more than once.

    defs, uses: {file: set of symbols}.  A file compiled into several
    targets is one file (its symbol sets are merged)."""
    definer = {}
    for f in sorted(defs):
        for s in defs[f]:
            definer.setdefault(s, []).append(f)
    graph = {f: {} for f in defs}
    dup = {}
    for f in sorted(uses):
        for s in sorted(uses[f]):
            found = definer.get(s, ())
            if len(found) > 1:
                dup[s] = found
            for g in found:
                if g != f:
                    graph[f].setdefault(g, []).append(s)
    return graph, dup


def folder_of(path):
    return os.path.dirname(path) or "."


def folder_graph(graph):
    """{folder: {folder: (file, file, symbol)}}: one witness per folder edge."""
    out = {}
    for f in sorted(graph):
        a = folder_of(f)
        out.setdefault(a, {})
        for g in sorted(graph[f]):
            b = folder_of(g)
            out.setdefault(b, {})
            if a != b and b not in out[a]:
                out[a][b] = (f, g, graph[f][g][0])
    return out


def sccs(graph):
    """The strongly connected components with more than one node (Tarjan, iterative)."""
    index, low, on_stack, stack, comps = {}, {}, set(), [], []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, it = work[-1]
            child = next(it, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    n = stack.pop()
                    on_stack.discard(n)
                    comp.append(n)
                    if n == node:
                        break
                if len(comp) > 1:
                    comps.append(sorted(comp))
    return sorted(comps)


def layer_closure():
    """{folder: every folder it may use}, from LAYERS."""
    out = {}
    for folder in LAYERS:
        seen, todo = set(), list(LAYERS[folder])
        while todo:
            f = todo.pop()
            if f not in seen:
                seen.add(f)
                todo.extend(LAYERS.get(f, ()))
        out[folder] = seen
    return out


def layer_violations(fgraph):
    """[(message, witness)] for every folder edge against LAYERS."""
    allowed = layer_closure()
    out = []
    for a in sorted(fgraph):
        for b in sorted(fgraph[a]):
            w = fgraph[a][b]
            if a not in LAYERS:
                out.append(("%s is not in the layer table (uses %s)" % (a, b), w))
            elif b not in LAYERS:
                out.append(("%s is not in the layer table (used by %s)" % (b, a), w))
            elif b not in allowed[a]:
                out.append(("%s -> %s is against the layer order" % (a, b), w))
    return out


def print_file_sccs(graph, comps):
    for comp in comps:
        members = set(comp)
        print("file cycle (%d files):" % len(comp))
        for f in comp:
            print("    %s" % f)
        for f in comp:
            for g in sorted(graph[f]):
                if g in members:
                    print("  %s -> %s  (%s)" % (f, g, graph[f][g][0]))


def print_folder_sccs(fgraph, comps):
    for comp in comps:
        members = set(comp)
        print("folder cycle (%d folders): %s" % (len(comp), " ".join(comp)))
        for a in comp:
            for b in sorted(fgraph[a]):
                if b in members:
                    f, g, s = fgraph[a][b]
                    print("  %s -> %s  (%s -> %s: %s)" % (a, b, f, g, s))


def write_dot(path, graph, fgraph):
    """Files clustered by folder; the folder graph drawn beside them."""
    def q(s):
        return '"%s"' % s.replace('"', '\\"')
    lines = ["digraph callgraph {", "  rankdir=LR;", "  node [shape=box, fontsize=10];"]
    by_folder = {}
    for f in sorted(graph):
        by_folder.setdefault(folder_of(f), []).append(f)
    for i, (folder, files) in enumerate(sorted(by_folder.items())):
        lines.append("  subgraph cluster_%d {" % i)
        lines.append("    label=%s;" % q(folder))
        for f in files:
            lines.append("    %s [label=%s];" % (q(f), q(os.path.basename(f))))
        lines.append("  }")
    for f in sorted(graph):
        for g in sorted(graph[f]):
            syms = graph[f][g]
            label = syms[0] + (" +%d" % (len(syms) - 1) if len(syms) > 1 else "")
            lines.append("  %s -> %s [tooltip=%s];" % (q(f), q(g), q(label)))
    lines.append("  subgraph cluster_folders {")
    lines.append("    label=\"folders\";")
    for a in sorted(fgraph):
        lines.append("    %s [shape=folder];" % q("folder:" + a))
    for a in sorted(fgraph):
        for b in sorted(fgraph[a]):
            lines.append("    %s -> %s;" % (q("folder:" + a), q("folder:" + b)))
    lines.append("  }")
    lines.append("}")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")


def collect(build, nm):
    """({file: defined}, {file: undefined}, [target names]) of the shipped objects."""
    src_root = cache_value(build, "CMAKE_HOME_DIRECTORY")
    targets = shipped_targets(build)
    if not targets:
        raise BuildError("%s: no shipped target found" % build)
    defs, uses = {}, {}
    for name, (tdir, sub) in targets.items():
        objs = target_objects(build, src_root, tdir, sub)
        if not objs:
            raise BuildError("%s: no object files (build the tree first)" % name)
        syms = symbols(nm, [obj for obj, _src in objs])
        for obj, src in objs:
            d, u = syms[obj]
            defs.setdefault(src, set()).update(d)
            uses.setdefault(src, set()).update(u)
    return defs, uses, sorted(targets)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("build", help="the build directory (after a full build)")
    ap.add_argument("--dot", metavar="FILE", help="write the graph (Graphviz) to FILE")
    ap.add_argument("--expect-layers", action="store_true",
                    help="also fail on a folder edge against the order in LAYERS")
    ap.add_argument("--nm", default=os.environ.get("NM", "nm"), help="the nm to run (default nm)")
    args = ap.parse_args(argv)

    try:
        defs, uses, targets = collect(args.build, args.nm)
    except BuildError as e:
        print("callgraph: %s" % e, file=sys.stderr)
        return 2
    graph, dup = build_graph(defs, uses)
    fgraph = folder_graph(graph)
    file_comps = sccs(graph)
    folder_comps = sccs({a: set(b) for a, b in fgraph.items()})
    violations = layer_violations(fgraph) if args.expect_layers else []

    n_edges = sum(len(v) for v in graph.values())
    print("callgraph: %d files, %d file edges, %d folders, %d folder edges (targets: %s)"
          % (len(graph), n_edges, len(fgraph), sum(len(v) for v in fgraph.values()),
             " ".join(targets)))
    for s in sorted(dup):
        print("warning: %s is defined in %s" % (s, ", ".join(dup[s])))
    print_file_sccs(graph, file_comps)
    print_folder_sccs(fgraph, folder_comps)
    for msg, (f, g, s) in violations:
        print("layer: %s  (%s -> %s: %s)" % (msg, f, g, s))
    if args.dot:
        write_dot(args.dot, graph, fgraph)

    failed = bool(file_comps or folder_comps or violations)
    print("callgraph: %s: %d file cycle(s), %d folder cycle(s)%s"
          % ("FAIL" if failed else "OK", len(file_comps), len(folder_comps),
             ", %d layer violation(s)" % len(violations) if args.expect_layers else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
