#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Every cited section exists.

The oracle is docs/spec/rfc-sections.txt, the section numbers and titles
of the cited documents taken from their texts.  Checked are

  * the ref of every entry of analyzer/include/rpcrdma/rules.def
    (RR_RULE, RR_NOCHECK, RR_COND), which may name several documents
    and sections: "RFC 8166 §3.5.3; §3.3, §3.3.2", "RFC 8267 §4,
    Appendix A", "draft-... Appendix B #8";
  * every "RFC 8166 §x" (8167, 8267, 8797; also "RFC 8166 section x",
    "Section x of RFC 8166" and "implementation-experience §x") in the
    repository's docs, README, sources and tests.

A section missing from a document the file lists completely fails, naming
the rule or the file and line.  A citation of a document the file marks
unverified, or of an unlisted section of a partially listed one, is
printed as unverified.  A document the file does not name fails.
"""
import argparse
import os
import re
import sys

DRAFT_BIS = "draft-ietf-nfsv4-rfc5666bis-04"
DRAFT_IMPL = "draft-ietf-nfsv4-rfc5666-implementation-experience"

RULES_DEF = "analyzer/include/rpcrdma/rules.def"
SCAN_DIRS = ("analyzer", "plugin", "capture", "bench", "tests")
SCAN_EXT = (".c", ".h", ".py", ".sh", ".md", ".txt", ".def", ".cmake",
            ".in", ".lua", ".json")
# tests/agent/conformance and test_conformance.py: a made-up rules table and the
# tables expected from it, whose "sections" only have to be told apart
SKIP_PARTS = ("tests/fuzz/corpus", "tests/rules/RR-", "tests/rules/check_citations.py",
              "tests/agent/conformance/", "tests/agent/test_conformance.py")


def load_sections(path):
    """Return ({doc: kind}, {(doc, section): title})."""
    kinds, sections = {}, {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) == 2 and fields[0] in ("complete", "partial", "unverified"):
                kinds[fields[1]] = fields[0]
            elif len(fields) == 3:
                sections[(fields[0], fields[1])] = fields[2]
            else:
                sys.exit("%s:%d: neither a kind line nor doc<TAB>section<TAB>title" % (path, n))
    for doc, _ in sections:
        if doc not in kinds:
            sys.exit("%s: %s has sections but no complete/partial line" % (path, doc))
    return kinds, sections


def macro_args(src, start):
    """The top-level arguments of the macro call whose '(' ends at start."""
    args, cur, depth, i = [], "", 1, start
    while depth:
        if i >= len(src):
            sys.exit("rules.def: unterminated macro call at offset %d" % start)
        c = src[i]
        if c == '"':
            j = i + 1
            while src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            cur += src[i:j + 1]
            i = j + 1
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if not depth:
                break
        elif c == "," and depth == 1:
            args.append(cur.strip())
            cur = ""
            i += 1
            continue
        cur += c
        i += 1
    args.append(cur.strip())
    return args


def c_string(arg):
    return "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', arg))


REF_INDEX = {"RR_RULE": 8, "RR_NOCHECK": 4, "RR_COND": 3}


def rules_refs(path):
    """[(code, ref, line)] for every entry of rules.def."""
    src = open(path, encoding="utf-8").read()
    src = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), src, flags=re.S)
    out = []
    for m in re.finditer(r"^(RR_RULE|RR_NOCHECK|RR_COND)\(", src, re.M):
        args = macro_args(src, m.end())
        line = src.count("\n", 0, m.start()) + 1
        out.append((c_string(args[1]), c_string(args[REF_INDEX[m.group(1)]]), line))
    return out


DOC_RE = re.compile(r"^\s*(RFC \d+|draft-[a-z0-9-]+)\s*")
SEC_RE = re.compile(r"^\s*(?:§\s*([0-9]+(?:\.[0-9]+)*)|(?:Appendix|App\.)\s+([A-Z](?:\.[0-9]+)*))(?:\s*#\d+)?\s*(?:,|and\b|$)")


def parse_ref(ref):
    """[(doc, section)] of a ref; (None, text) for a part that names no RFC or draft."""
    out, doc = [], None
    for part in ref.split(";"):
        part = part.strip()
        if not part:
            continue
        m = DOC_RE.match(part)
        if m:
            doc = m.group(1)
            part = part[m.end():]
        elif not part.startswith(("§", "Appendix", "App.")):
            out.append((None, part))
            doc = None
            continue
        if doc is None:
            out.append((None, part))
            continue
        while part.strip():
            s = SEC_RE.match(part)
            if not s:
                out.append((doc, "?" + part.strip()))
                break
            out.append((doc, s.group(1) or "Appendix " + s.group(2)))
            part = part[s.end():]
    return out


SEC_LIST = r"((?:\s*(?:,|and)?\s*(?:§\s*|[Ss]ections?\s+|Appendix\s+)[0-9A-Z](?:[0-9.]*[0-9])?)+)"
TEXT_PATTERNS = (
    (re.compile(r"RFC\s?(8166|8167|8267|8797)(?:'s)?" + SEC_LIST), lambda m: "RFC " + m.group(1)),
    (re.compile(r"implementation-experience" + SEC_LIST), lambda m: DRAFT_IMPL),
)
BACKWARD = re.compile(r"Sections?\s+([0-9]+(?:\.[0-9]+)*)\s+of\s+\\?\[?RFC\s?(8166|8167|8267|8797)")
ONE_SEC = re.compile(r"(?:§\s*|[Ss]ections?\s+)([0-9]+(?:\.[0-9]+)*)|Appendix\s+([A-Z](?:\.[0-9]+)*)")


COMMENT_LEAD = re.compile(r"^\s*(?:/\*+|\*+|//+|#+|--|>)?\s*")


def text_citations(text):
    """[(line, doc, section, quoted)] of the citations in a file's text.

    Lines are joined (comment leaders dropped) so that a citation wrapped
    over two lines is read whole; it is told at the line where it starts."""
    starts, parts, pos = [], [], 0
    for line in text.splitlines():
        body = COMMENT_LEAD.sub("", line, count=1)
        starts.append(pos)
        parts.append(body)
        pos += len(body) + 1
    joined = " ".join(parts)

    def line_of(offset):
        lo, hi = 0, len(starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1

    out = []
    for rx, doc_of in TEXT_PATTERNS:
        for m in rx.finditer(joined):
            doc = doc_of(m)
            for s in ONE_SEC.finditer(m.group(m.lastindex)):
                sec = s.group(1) or "Appendix " + s.group(2)
                out.append((line_of(m.start()), doc, sec, m.group(0).strip()))
    for m in BACKWARD.finditer(joined):
        out.append((line_of(m.start()), "RFC " + m.group(2), m.group(1), m.group(0)))
    return out


def scanned_files(root):
    names = [os.path.join("docs", f) for f in sorted(os.listdir(os.path.join(root, "docs")))
             if f.endswith(".md") and f != "rules.md"]
    names.append("README.md")
    for top in SCAN_DIRS:
        for d, subdirs, files in os.walk(os.path.join(root, top)):
            subdirs.sort()
            for f in sorted(files):
                rel = os.path.relpath(os.path.join(d, f), root)
                if rel.endswith(SCAN_EXT) or f == "CMakeLists.txt":
                    if not any(p in rel for p in SKIP_PARTS):
                        names.append(rel)
    return names


class Verdicts:
    def __init__(self, kinds, sections):
        self.kinds, self.sections = kinds, sections
        self.errors, self.unverified, self.checked = [], [], 0

    def judge(self, where, doc, sec, quoted):
        self.checked += 1
        if doc is None:
            self.unverified.append("%s: %r names no RFC or draft" % (where, quoted))
            return
        kind = self.kinds.get(doc)
        if sec.startswith("?"):
            self.errors.append("%s: %r: cannot read %r as a section of %s" % (where, quoted, sec[1:], doc))
        elif kind is None:
            self.errors.append("%s: %r: %s is not in docs/spec/rfc-sections.txt" % (where, quoted, doc))
        elif (doc, sec) in self.sections:
            return
        elif kind == "complete":
            self.errors.append("%s: %r: %s has no section %s" % (where, quoted, doc, sec))
        else:
            self.unverified.append("%s: %s §%s (%s)" % (where, doc, sec, kind))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", required=True, help="the repository's top directory")
    ap.add_argument("--sections", help="default: ROOT/docs/spec/rfc-sections.txt")
    ap.add_argument("--rules-only", action="store_true", help="check rules.def refs only")
    a = ap.parse_args()
    kinds, sections = load_sections(a.sections or os.path.join(a.root, "docs/spec/rfc-sections.txt"))
    v = Verdicts(kinds, sections)
    seen = set()    # a ref is judged as a ref, not again as the file's text
    for code, ref, line in rules_refs(os.path.join(a.root, RULES_DEF)):
        if ref in ("capture", "engine"):
            continue
        for doc, sec in parse_ref(ref):
            seen.add((RULES_DEF, line, doc, sec))
            v.judge("rules.def:%d %s ref %r" % (line, code, ref), doc, sec, ref)
    if not a.rules_only:
        for rel in scanned_files(a.root):
            try:
                text = open(os.path.join(a.root, rel), encoding="utf-8").read()
            except UnicodeDecodeError:
                continue
            for n, doc, sec, quoted in text_citations(text):
                if (rel, n, doc, sec) in seen:
                    continue
                where = "%s:%d" % (rel, n)
                v.judge(where, doc, sec, quoted)
    for u in v.unverified:
        print("unverified: " + u)
    for e in v.errors:
        print("FAIL: " + e)
    print("%d citations checked: %d wrong, %d unverified"
          % (v.checked, len(v.errors), len(v.unverified)))
    return 1 if v.errors else 0


if __name__ == "__main__":
    sys.exit(main())
