# SPDX-License-Identifier: GPL-2.0-or-later
"""The rows of the conformance table from one `capture/vm/lab agent` output
directory: one row per injection of every run against a kernel (and one per run
without injection, a baseline), with what the peer did, what the agent saw, the
kernel's log of that moment and the verdict. The row format is described in
docs/conformance/README.md."""
import glob
import os
import re

import conformance_read as cr

VERDICT_RANK = {"fail": 3, "pass": 2, "n/a": 1}


def _rule(rules, code):
    """(ref, name) of a rule code in rules.def."""
    r = rules.get(code)
    if code and not r:
        return "?", "(not in rules.def)"
    return (r or {}).get("ref", ""), (r or {}).get("name", "")


def split_spec(spec):
    """An --inject ITEM, NAME[=ARG][:WHEN...] (or the older RULE[:when]): (NAME, the rest)."""
    m = re.match(r"^([^=:]+)(.*)$", spec)
    return (m.group(1), m.group(2)) if m else (spec, "")


def kernel_info(d):
    """What the run says of itself: the label of its kernel column and the exact
    uname -r of each guest."""
    info = cr.read_keyvals(os.path.join(d, "run-info.txt"))
    vers = cr.read_keyvals(os.path.join(d, "versions.txt"))
    svers = cr.read_keyvals(os.path.join(d, "versions-server.txt"))

    def uname(v):
        return v.get("uname-r") or v.get("kernel", "").split(" ")[0]
    server = info.get("server-kernel") or uname(svers) or uname(vers)
    client = info.get("client-kernel") or uname(vers) or server
    label = info.get("lab-kernel")
    if not label:
        m = re.match(r"^(\d+\.\d+)", server or "")
        label = m.group(1) if m else os.path.basename(os.path.normpath(d))
    inj = cr.read_injections(os.path.join(d, "injections.txt"))
    return {
        "label": label,
        "server_uname": server or "?",
        "client_uname": client or "?",
        "date": info.get("date", ""),
        "cmdline": info.get("cmdline", ""),
        "transports": [t for t in info.get("transports", "").split(",") if t],
        "source": os.path.basename(os.path.normpath(d)),
        # the injections the agent had: drive-side ones judge a server, serve-side a client
        "planned": {role: [{"injector": i["injector"], "rule": i["rule"]} for i in inj if i["role"] == role]
                    for role in ("server", "client")},
    }


def _answer_of(records, xids):
    """What came back for these XIDs: event texts, else the replies' procedures."""
    texts, procs = [], []
    for kw, f in records:
        if f.get("xid") not in xids:
            continue
        if kw == "event" and f.get("text"):
            t = f["text"]
            if t not in texts:
                texts.append(t)
        elif kw == "rpc" and f.get("dir") == "reply":
            procs.append(f.get("proc", "?"))
    if texts:
        return "; ".join(texts)
    if procs:
        return "a normal reply (%s)" % ", ".join(sorted(set(procs)))
    return "no answer recorded"


def _baseline_answer(records):
    """A run without injection: what came back that was not a normal reply."""
    seen = {}
    for kw, f in records:
        if kw == "event":
            k = "%s (%s)" % (f.get("kind", "?"), f.get("text", ""))
            seen[k] = seen.get(k, 0) + 1
    if not seen:
        return "normal replies only"
    return "; ".join("%s x%d" % (k, n) for k, n in sorted(seen.items()))


def _peer(records, log):
    """Counts over the whole run: disconnects, reconnects, retransmissions, timeouts,
    and the records a newer agent adds (kept as they are)."""
    events, calls, retx, other = {}, set(), 0, []
    for kw, f in records:
        if kw == "event":
            events[f.get("kind", "?")] = events.get(f.get("kind", "?"), 0) + 1
        elif kw == "rpc" and f.get("dir") == "call":
            if f.get("xid") in calls:
                retx += 1
            calls.add(f.get("xid"))
        elif kw not in ("rpc", "inject", "verdict", "reaction"):
            other.append(dict(f, record=kw))
    connects = len(re.findall(r"^\S+: connected to ", log or "", re.M))
    return {
        "events": dict(sorted(events.items())),
        "disconnects": events.get("disconnect", 0),
        "reconnects": events.get("reconnect", 0) + max(connects - 1, 0),
        "retransmits": retx + events.get("retransmit", 0),
        "timeouts": events.get("timeout", 0),
        "other": other,
        "reactions": [],
    }


def _with_reactions(peer, agent, reactions):
    """A row's counts from the reaction lines of its injection, when the agent wrote them
    (docs/rpcrdma-agent.8, MANIFEST: reaction): they are about that injection alone."""
    if not reactions:
        return peer, agent
    peer = dict(peer, reactions=reactions)
    for k in ("reconnects", "retransmits"):
        peer[k] = sum(int(r.get(k, "0")) for r in reactions if r.get(k, "0").isdigit())
    peer["disconnects"] = sum(1 for r in reactions if r.get("answer") == "disconnect")
    peer["timeouts"] = sum(1 for r in reactions if r.get("answer") == "timeout")
    errs = [r["error"] for r in reactions if r.get("error") not in (None, "", "-")]
    agent = dict(agent, errors=errs + agent["errors"], hang=agent["hang"] or peer["timeouts"] > 0)
    return peer, agent


def _agent(d, cap, log, verify):
    """What the agent itself saw: its exit status, its error lines, verify's verdict."""
    rc = cr.read_text(os.path.join(d, "logs", cap + ".drive.rc"))
    errs = []
    for line in (log or "").split("\n"):
        if re.search(r"error|fail|refused|timed out|cannot", line, re.I) and \
                not re.search(r": (event|verdict|reaction) |\b0 scenario errors", line):
            errs.append(line.strip())
    return {"exit": int(rc) if rc and rc.strip().isdigit() else None,
            "hang": bool(rc and rc.strip() == "124"),
            "errors": errs[:6], "verify": verify.get(cap, "")}


def _klog(d, cap):
    out = {}
    for g in ("server", "client"):
        dm = cr.read_dmesg(os.path.join(d, "logs", "%s.%s.dmesg" % (cap, g)))
        tr = cr.read_trace(os.path.join(d, "logs", "%s.%s.trace" % (cap, g)))
        if dm is None and tr is None:
            continue
        out[g] = {"dmesg": (dm or {}).get("lines", []), "dmesg_total": (dm or {}).get("total", 0),
                  "trace_events": (tr or {}).get("events", {}), "trace_notable": (tr or {}).get("notable", []),
                  "trace_total": (tr or {}).get("total", 0), "traced": tr is not None}
    return out


def _combine(verdicts):
    """One verdict for several verdict lines of one injection and rule: the worst."""
    res = max((v.get("result", "n/a") for v in verdicts), key=lambda r: VERDICT_RANK.get(r, 0))
    texts = []
    for v in verdicts:
        if v.get("text") and v["text"] not in texts:
            texts.append(v["text"])
    return res, "; ".join(texts)


def _spec_rules(injected, recs, injectors):
    """{spec: rule code}: an ITEM named by its rule is that rule; an injector's rule is
    the one of the inject line at the XIDs its reaction lines name, else list-injections'."""
    by_xid = {f.get("xid"): f.get("rule") for kw, f in recs if kw == "inject"}
    out = {}
    for spec in injected:
        name, _ = split_spec(spec)
        if re.match(r"^RR-\d+$", name):
            out[spec] = name
            continue
        xs = [f.get("xid") for kw, f in recs if kw == "reaction" and f.get("inject") in (name, spec)]
        rule = next((by_xid[x] for x in xs if by_xid.get(x)), None)
        # an inject line naming the engine's condition (ENG-NOT-V1: another version) rather
        # than a rule: the injector's own rule, as its verdicts name it
        if rule and not rule.startswith("RR-"):
            rule = injectors.get(name, rule)
        out[spec] = rule or injectors.get(name, "?")
    return out


def _injected_of(v, injected, codes):
    """The --inject ITEM of the run that a verdict line answers ("injected RR-nnn;")."""
    code = split_spec(v.get("inject", ""))[0]
    if not code:
        m = re.search(r"injected (RR-\d+)", v.get("text", ""))
        code = m.group(1) if m else ""
    for spec in injected:
        if code in (spec, split_spec(spec)[0], codes.get(spec)):
            return spec
    if code:
        return code
    return injected[0] if len(injected) == 1 else "?"


def manifest_rows(d, mpath, rules, label, verify, injectors=None):
    """The rows of one manifest against a kernel; [] for agent-against-agent runs."""
    m = cr.read_manifest(mpath)
    role = cr.role_of(m["run"])
    if not role:
        return []
    name = os.path.basename(mpath)
    cap = re.sub(r"\.(pcap|pcapng)?\.?manifest$", "", name)
    cap = re.sub(r"\.(pcap|pcapng)$", "", cap)
    t = m["run"].get("transport", "?")
    run = re.sub(r"^agent-", "", cap)
    run = re.sub(r"-%s$" % re.escape(t), "", run)
    capture = m["capture"].get("file") or name[:-len(".manifest")]
    log = cr.read_text(os.path.join(d, "logs", cap + ".drive.log"))
    recs = m["records"]
    injected = [s for s in m["run"].get("inject", "-").split(",") if s and s != "-"]
    base = {"role": role, "kernel": label, "transport": t, "run": run, "capture": capture,
            "peer": _peer(recs, log), "agent": _agent(d, cap, log, verify),
            "kernel_log": _klog(d, cap)}
    verdicts = [f for kw, f in recs if kw == "verdict"]
    codes = _spec_rules(injected, recs, injectors or {})
    rows = []
    if not injected and not verdicts and m["run"].get("target") == "proxy":
        return []   # a proxy's server leg that broke nothing: the relay's record, no baseline
    if not injected and not verdicts:
        r = dict(base, spec="", injector="", injected="", when="", injected_ref="", injected_name="", judged="",
                 judged_ref="", judged_name="", verdict="info",
                 why="nothing injected: a baseline run", answer=_baseline_answer(recs))
        return [r]
    groups = {}
    for v in verdicts:
        groups.setdefault((_injected_of(v, injected, codes), v.get("rule", "?")), []).append(v)
    for spec in injected:
        if not any(k[0] == spec for k in groups):
            groups[(spec, "")] = []
    order = {s: i for i, s in enumerate(injected)}
    for (spec, judged), vs in sorted(groups.items(), key=lambda kv: (order.get(kv[0][0], 99), kv[0])):
        name, when = split_spec(spec)
        code = codes.get(spec) or (name if re.match(r"^RR-\d+$", name) else "?")
        iref, iname = _rule(rules, code)
        jref, jname = _rule(rules, judged)
        xids = {f.get("xid") for kw, f in recs if kw == "inject" and f.get("rule") == code}
        xids |= {v.get("xid") for v in vs}
        reactions = [f for kw, f in recs if kw == "reaction" and
                     (f.get("inject") in (name, spec) or (not f.get("inject") and f.get("xid") in xids))]
        answer = "; ".join(dict.fromkeys(r["answer"] for r in reactions if r.get("answer")))
        if vs:
            res, why = _combine(vs)
            m_ans = re.search(r"answered with ([^;]*)", vs[-1].get("text", ""))
            answer = m_ans.group(1).strip() if m_ans else answer or _answer_of(recs, xids)
        else:
            res, why = "n/a", "the agent judges no rule of the peer for %s" % code
            answer = answer or _answer_of(recs, xids)
        peer, agent = _with_reactions(base["peer"], base["agent"], reactions)
        rows.append(dict(base, peer=peer, agent=agent, spec=spec, injector=name, injected=code,
                         when=when[1:] if when.startswith(":") else when,
                         injected_ref=iref, injected_name=iname,
                         judged=judged, judged_ref=jref if judged else "", judged_name=jname if judged else "",
                         verdict=res, why=why, answer=answer))
    return rows


def dir_rows(d, rules):
    """(kernel info, rows) of one lab output directory."""
    if not os.path.isdir(d):
        raise cr.ConformanceInputError("%s: not a directory" % d)
    k = kernel_info(d)
    verify = cr.read_verify(os.path.join(d, "agent.tsv"))
    injectors = {i["injector"]: i["rule"] for i in cr.read_injections(os.path.join(d, "injections.txt"))}
    rows = []
    for mp in sorted(glob.glob(os.path.join(d, "*.manifest"))):
        rows += manifest_rows(d, mp, rules, k["label"], verify, injectors)
    if not k["transports"]:
        k["transports"] = sorted({r["transport"] for r in rows})
    return k, rows
