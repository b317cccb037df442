# SPDX-License-Identifier: GPL-2.0-or-later
"""Readers for the conformance table (conformance.py): the rule table
(analyzer/include/rpcrdma/rules.def), the agent's manifests (docs/rpcrdma-agent.8,
MANIFEST), and what `capture/vm/lab agent` leaves next to them (run-info.txt,
versions*.txt, injections.txt, agent.tsv, logs/NAME.drive.log|.drive.rc and the
kernel's logs/NAME.<guest>.dmesg|.trace written by guest/klog.sh).

Every reader is tolerant of what it does not know: records and fields a newer
agent adds are kept as they are, never an error. A file that is there but
malformed is an error naming the file and line (ConformanceInputError).
"""
import os
import re


class ConformanceInputError(Exception):
    """A malformed input, with the place it was found."""


# ---------------------------------------------------------------- rules.def

def _c_args(text, start, path, line):
    """The top-level arguments of the macro call whose '(' is at text[start],
    adjacent string literals joined; (args, end)."""
    args, cur, depth, i = [], [], 0, start + 1
    strs = []
    while i < len(text):
        c = text[i]
        if c == '"':
            j, buf = i + 1, []
            while j < len(text) and text[j] != '"':
                if text[j] == "\\" and j + 1 < len(text):
                    buf.append({"n": "\n", "t": "\t"}.get(text[j + 1], text[j + 1]))
                    j += 2
                    continue
                buf.append(text[j])
                j += 1
            if j >= len(text):
                raise ConformanceInputError("%s:%d: unterminated string" % (path, line))
            strs.append("".join(buf))
            i = j + 1
            continue
        if c == "'":
            j = text.index("'", i + 1)
            cur.append(text[i:j + 1])
            i = j + 1
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                args.append("".join(strs) if strs else "".join(cur).strip())
                return args, i
            depth -= 1
        elif c == "," and depth == 0:
            args.append("".join(strs) if strs else "".join(cur).strip())
            cur, strs = [], []
            i += 1
            continue
        if not c.isspace() or not strs:
            cur.append(c)
        i += 1
    raise ConformanceInputError("%s:%d: macro call not closed" % (path, line))


def read_rules(path):
    """{code: {"name", "ref", "text"}} of every RR_RULE and RR_NOCHECK in rules.def."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise ConformanceInputError("%s: cannot read the rule table: %s" % (path, e.strerror))
    rules = {}
    for m in re.finditer(r"^(RR_RULE|RR_NOCHECK)\(", text, re.M):
        line = text.count("\n", 0, m.start()) + 1
        args, _ = _c_args(text, m.end() - 1, path, line)
        # RR_RULE(sym, code, name, group, sev, sev5666, facts, check, ref, text, ...)
        # RR_NOCHECK(sym, code, name, group, ref, text, why)
        iref = 8 if m.group(1) == "RR_RULE" else 4
        if len(args) <= iref + 1 or not re.match(r"^RR-\d+$", args[1]):
            raise ConformanceInputError("%s:%d: %s with too few arguments or no RR-nnn code"
                                        % (path, line, m.group(1)))
        rules[args[1]] = {"name": args[2], "ref": args[iref], "text": args[iref + 1]}
    if not rules:
        raise ConformanceInputError("%s: no RR_RULE in it" % path)
    return rules


# ---------------------------------------------------------------- manifests

MANIFEST_MAGIC = "# rpcrdma-agent manifest"


def read_manifest(path):
    """{"run": {..}, "capture": {..}, "records": [(keyword, {fields}), ...]}"""
    out = {"run": {}, "capture": {}, "records": []}
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
    except OSError as e:
        raise ConformanceInputError("%s: cannot read: %s" % (path, e.strerror))
    if not lines or not lines[0].startswith(MANIFEST_MAGIC):
        raise ConformanceInputError("%s:1: not an agent manifest (no '%s' line)" % (path, MANIFEST_MAGIC))
    for n, line in enumerate(lines[1:], start=2):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        fields = {}
        for p in parts[1:]:
            if "=" not in p:
                raise ConformanceInputError("%s:%d: field '%s' is not key=value" % (path, n, p[:40]))
            k, v = p.split("=", 1)
            fields[k] = v
        kw = parts[0]
        if kw == "run":
            out["run"] = fields
        elif kw == "capture":
            out["capture"] = fields
        else:
            out["records"].append((kw, fields))
    if not out["run"]:
        raise ConformanceInputError("%s: no run line" % path)
    return out


def role_of(run):
    """Which kernel implementation a manifest judges: "server" (svcrdma: the agent
    drives the kernel's NFS server, directly or as the proxy's server leg), "client" (xprtrdma: a run whose run line says
    role=proxy, or target=client, in front of the kernel's NFS client), or None (the
    agent against itself)."""
    if run.get("role") == "proxy" or run.get("target") in ("client", "kernel-client"):
        return "client"
    # target=proxy: the proxy's server leg (--inject-server), whose server is the lab's kernel
    if run.get("role") == "drive" and run.get("target") in ("kernel", "proxy"):
        return "server"
    return None


# ---------------------------------------------------------------- what the lab leaves

def _lines(path):
    """The lines of an optional file, without their newlines; none when it is absent."""
    if not os.path.exists(path):
        return
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            yield line.rstrip("\n")


def read_keyvals(path):
    """'key: value' lines (run-info.txt, versions.txt); {} when the file is absent."""
    out = {}
    for line in _lines(path):
        if ": " in line:
            k, v = line.split(": ", 1)
            out.setdefault(k.strip(), v.strip())
    return out


def read_injections(path):
    """[{"rule", "injector", "role"}] from `rpcrdma-agent list-injections`
    (injections.txt): role "server" for what a requester injects (drive, a proxy's
    server leg), "client" for a responder's (serve, a proxy's client leg), None for
    what is not injectable live. Two layouts are read: five tab-separated columns
    (rule, injector, role, stage, what) and the older "RULE side what"."""
    out = []
    roles = {"requester": "server", "drive": "server", "responder": "client", "serve": "client",
             "proxy": "client"}
    for line in _lines(path):
        cols = line.split("\t")
        if line.startswith("#") or cols[0] == "rule":
            continue
        if len(cols) >= 5:
            out.append({"rule": cols[0], "injector": cols[1], "role": roles.get(cols[2])})
            continue
        m = re.match(r"^(RR-\d+)\s+(\S+)\s+(.*)$", line)
        if m:
            out.append({"rule": m.group(1), "injector": m.group(1), "role": roles.get(m.group(2))})
    return out


def read_verify(path):
    """{capture name: "PASS" | "FAIL(n)"} from agent.tsv."""
    out = {}
    for line in _lines(path):
        cols = line.split("\t")
        if len(cols) >= 2 and cols[0] != "capture":
            out[cols[0]] = cols[1]
    return out


def read_text(path):
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


# the kernel's words about RPC-over-RDMA and NFS (a dmesg line is kept if it has one)
KLOG_RELEVANT = re.compile(r"svcrdma|rpcrdma|xprtrdma|rdma|nfsd|NFSD|NFS|RPC:|sunrpc|svc_|xprt|rxe|siw",
                           re.I)
# trace events that say something went wrong, rather than routine traffic
# (not the Receives flushed, nor the transport closed and freed: every run ends so)
TRACE_NOTABLE = re.compile(r"err|bad|short|parse|fail|drop|disconnect|reject|qp_error|sq_full|timeout",
                           re.I)
TRACE_LINE = re.compile(r"^\s*\S.*?\s\[\d+\]\s+(?:\S+\s+)?[\d.]+:\s+([A-Za-z0-9_]+):\s?(.*)$")


def read_dmesg(path):
    """The kernel log lines between the begin and end markers of one run (the
    markers left out): {"lines": relevant, "total": all}; None if absent."""
    text = read_text(path)
    if text is None:
        return None
    lines = [l for l in text.split("\n") if l.strip() and "rr-lab: " not in l]
    return {"lines": [l for l in lines if KLOG_RELEVANT.search(l)], "total": len(lines)}


def read_trace(path, keep=40):
    """A tracefs buffer: {"events": {name: count}, "notable": [lines], "total": n}."""
    text = read_text(path)
    if text is None:
        return None
    events, notable, total = {}, [], 0
    for line in text.split("\n"):
        m = TRACE_LINE.match(line)
        if not m:
            continue
        total += 1
        events[m.group(1)] = events.get(m.group(1), 0) + 1
        if TRACE_NOTABLE.search(m.group(1)) and len(notable) < keep:
            notable.append("%s: %s" % (m.group(1), m.group(2).strip()))
    return {"events": dict(sorted(events.items())), "notable": notable, "total": total}
