# SPDX-License-Identifier: GPL-2.0-or-later
"""The Markdown form of a conformance document (conformance.py): the runs, then
per role and transport the side-by-side table (a column per kernel), then per
kernel the details of every row (what the peer did, the agent's view, the
kernel's log of that moment)."""
from conformance_read import TRACE_NOTABLE

TRANSPORT = {"rxe": "rxe (RoCEv2)", "siw": "siw (iWARP)"}
ROLE_TITLE = {
    "server": "Server: svcrdma (the agent is the requester, the kernel's NFS server answers)",
    "client": "Client: xprtrdma (the kernel's NFS client is the requester, a proxy breaks the replies)",
}


def esc(s, limit=None):
    s = str(s).replace("\n", " ").replace("|", "\\|")
    if limit and len(s) > limit:
        s = s[:limit - 1] + "…"
    return s


def rule_cell(code, ref, name=""):
    if not code:
        return "-"
    return "%s %s (%s)" % (code, esc(name), esc(ref)) if name else "%s (%s)" % (code, esc(ref))


def verdict_cell(c):
    v = c["verdict"]
    if v == "not run":
        return "not run"
    bad = "" if c.get("verify", "PASS").startswith("PASS") or not c.get("verify") else " (verify %s)" % c["verify"]
    if v == "info":
        return esc(c["answer"], 90) + bad
    return "**%s**: %s%s" % (v, esc(c["answer"], 70), bad)


def klog_short(kl):
    """A few words of the kernel's log for one row: the server's, then the client's."""
    parts = []
    for g in ("server", "client"):
        k = kl.get(g)
        if not k:
            continue
        bits = []
        if k["dmesg"]:
            bits.append("dmesg %d: %s" % (len(k["dmesg"]), esc(k["dmesg"][0].split("] ", 1)[-1], 80)))
        notable = {n: c for n, c in k["trace_events"].items() if TRACE_NOTABLE.search(n)}
        if notable:
            bits.append("trace: " + ", ".join("%s x%d" % (n, c) for n, c in sorted(notable.items())))
        elif k["trace_total"]:
            bits.append("trace: %d events, no error among them" % k["trace_total"])
        if bits:
            parts.append("%s: %s" % (g, "; ".join(bits)))
    return "<br>".join(parts) if parts else ("nothing" if kl else "not recorded")


def _runs(doc):
    out = ["| kernel | server `uname -r` | client `uname -r` | transports | date | lab command |",
           "|---|---|---|---|---|---|"]
    for k in doc["kernels"]:
        out.append("| %s | %s | %s | %s | %s | `%s` |" % (
            esc(k["label"]), esc(k["server_uname"]), esc(k["client_uname"]),
            ", ".join(k.get("transports", [])) or "-", esc(k.get("date", "")) or "?",
            esc(k.get("cmdline", "")) or "?"))
    return out


def _spec(r):
    return r.get("spec") or r["injected"]


def _injected_cell(r):
    if not r["injected"] and not r.get("spec"):
        return "none (baseline)"
    spec = _spec(r)
    if r["injected"] == "-":
        return "%s: no rule (legal on purpose)" % esc(spec)
    if spec.split(":")[0].split("=")[0] == r["injected"] or not r["injected"]:
        return rule_cell(spec, r["injected_ref"])
    return "%s: %s" % (esc(spec), rule_cell(r["injected"], r["injected_ref"]))


def _side_by_side(doc, role):
    kernels = doc["kernels"]
    rows = doc["matrix"][role]["rows"]
    out = []
    for t in sorted({r["transport"] for r in rows}, key=lambda t: ({"rxe": 0, "siw": 1}.get(t, 2), t)):
        mine = [r for r in rows if r["transport"] == t]
        # injectors no kernel ran: one sentence, not a row each (unless nothing ran at all:
        # then the table is these rows, each "not run")
        idle = [r for r in mine if r["run"] == "-" and
                all(c["verdict"] == "not run" for c in r["cells"].values())]
        if len(idle) < len(mine):
            mine = [r for r in mine if r not in idle]
        else:
            idle = []
        out += ["", "### %s" % TRANSPORT.get(t, t), ""]
        if mine:
            head = "| run | injected (RFC section) | rule judged (RFC section) |"
            for k in kernels:
                head += " %s<br>`%s` |" % (esc(k["label"]), esc(k["server_uname"]))
            out += [head, "|---|---|---|" + "---|" * len(kernels)]
        for r in mine:
            line = "| %s | %s | %s |" % (esc(r["run"]), _injected_cell(r), rule_cell(r["judged"], r["judged_ref"]))
            for k in kernels:
                line += " %s |" % verdict_cell(r["cells"][k["label"]])
            out.append(line)
        if idle:
            out += [""] if mine else []
            out += ["Not run on any kernel (%d): %s." % (
                len(idle), ", ".join("%s (%s)" % (esc(_spec(r)), r["injected"]) if _spec(r) != r["injected"]
                                     else esc(_spec(r)) for r in idle))]
    return out


def _peer_short(r):
    p = r["peer"]
    bits = []
    for what, n in (("disconnects", p["disconnects"]), ("reconnects", p["reconnects"]),
                    ("retransmits", p["retransmits"]), ("timeouts", p["timeouts"])):
        if n:
            bits.append("%s %d" % (what, n))
    if r["agent"].get("hang"):
        bits.append("hang (the drive was stopped)")
    return ", ".join(bits) or "none"


def _agent_short(a):
    s = "exit %s" % ("?" if a.get("exit") is None else a["exit"])
    if a.get("errors"):
        s += ": " + esc(a["errors"][0].split(": ", 1)[-1], 80)
    return s


def _details(doc, role):
    out = []
    rows = [r for r in doc["rows"] if r["role"] == role]
    for k in doc["kernels"]:
        mine = [r for r in rows if r["kernel"] == k["label"]]
        if not mine:
            continue
        out += ["", "#### %s (`%s`)" % (esc(k["label"]), esc(k["server_uname"])), "",
                "| transport | run | injected | judged | what the peer did | disc./reconn./retx./timeouts "
                "| the agent | kernel log of that moment | verdict: why |",
                "|---|---|---|---|---|---|---|---|---|"]
        for r in mine:
            out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s: %s |" % (
                r["transport"], esc(r["run"]), esc(_spec(r)) or "-", r["judged"] or "-",
                esc(r["answer"], 100), _peer_short(r), _agent_short(r["agent"]),
                klog_short(r["kernel_log"]), "**%s**" % r["verdict"] if r["verdict"] != "info" else "info",
                esc(r["why"], 120)))
    return out


def render(doc):
    out = ["# Conformance of the Linux kernel's RPC-over-RDMA", "",
           "Written by `capture/vm/conformance.py` from `capture/vm/lab agent` runs; every row is "
           "an injection the agent made (docs/rpcrdma-agent.8, INJECTIONS) or a baseline run "
           "without one, and the RFC sections come from analyzer/include/rpcrdma/rules.def. "
           "The JSON file next to this one has every field (docs/conformance/README.md).", "",
           "## Runs", ""] + _runs(doc)
    for role in ("server", "client"):
        out += ["", "## %s" % ROLE_TITLE[role]]
        if not doc["matrix"][role]["rows"]:
            out += ["", "No run and no injection of this role."]
            continue
        out += _side_by_side(doc, role)
        det = _details(doc, role)
        if det:
            out += ["", "### Details per kernel"] + det
    return "\n".join(out) + "\n"
