#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""`rpcrdma-agent verify` against generated captures.

rpcrdma-pcapgen writes a capture and a truth file computed without the
engine; truth2manifest.py turns the truth into the manifest the live agent
would have written.  Then:

  positive: clean scenarios (tests/scenarios) and rule violations
            (tests/rules, with their expected findings as inject lines) on
            RoCEv2 and iWARP verify with exit 0, and the summary counts every
            rebuilt=yes rpc line and every inject line;
  negative: each way of breaking a manifest gives the exit status and the
            report line that names what broke (a flipped SHA-256 digit, a
            length, an XID the capture does not hold, an inject line taken
            away, one added, one moved to another message, dropped packets,
            a garbage line, an unknown rule, an unreadable capture).

The verify command comes after "--" (agent-verify-test, or later
`rpcrdma-agent verify`).

usage: check_verify.py --pcapgen GEN --top SRCDIR [--quick] [--keep DIR] [-v] -- VERIFY...
Exit status: 0 all cases as expected, 1 otherwise, 2 usage.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import truth2manifest  # noqa: E402

# Clean scenarios whose truth has no expect list but whose traffic draws
# findings on purpose (RDMA_MSGP, RDMA_DONE, ...; the inject-* demo): not a
# pair an agent manifest could describe without inject lines.
NOT_CLEAN = {"16-hdr-procs", "inject-basic"}

# Every rule scenario of tests/rules runs (each violation's expected
# findings become inject lines).  These shapes matter most and must stay:
# bad version (the engine rebuilds neither message), rdma_xid != RPC XID, a
# reply no call has, a reused XID, an RDMA Read past a segment, a Read and a
# Write after the reply (findings with no XID, after the reply's Send), a
# Write out of its segment (RDMA op and Send), an info (empty Write chunk),
# ERR_VERS outcomes, and clean twins.
RULES = ["RR-001", "RR-002", "RR-003", "RR-004", "RR-030", "RR-066", "RR-068", "RR-085",
         "RR-092", "RR-111", "RR-163", "RR-116", "RR-068.clean", "RR-085.clean"]
# tests/agent/*.scn: shapes the negative cases need (see each file).
QUICK_SCENARIOS = ["07-write-chunk-read", "15-backchannel"]
QUICK_RULES = ["RR-085", "RR-068"]
LINKS = ["rocev2", "iwarp"]


class Case:
    def __init__(self, tmp, gen, scn, link):
        self.name = "%s-%s" % (os.path.basename(scn)[:-4], link)
        self.cap = os.path.join(tmp, self.name + ".pcap")
        self.truth_path = os.path.join(tmp, self.name + ".json")
        self.manifest = os.path.join(tmp, self.name + ".manifest")
        p = subprocess.run([gen, scn, "--link", link, "-o", self.cap, "--truth", self.truth_path],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if p.returncode:
            raise RuntimeError("rpcrdma-pcapgen %s --link %s failed: %s" %
                               (scn, link, p.stderr.decode(errors="replace").strip()))
        with open(self.truth_path) as f:
            self.truth = json.load(f)
        # role pcapgen: the generator's truth marks rebuilt=no more freely than a
        # requester does (verify holds a drive manifest's rebuilt=no lines strictly)
        self.text = truth2manifest.convert(self.truth, os.path.basename(self.cap), "pcapgen")
        with open(self.manifest, "w") as f:
            f.write(self.text)
        self.profile = self.truth.get("profile")

    def lines(self, kind):
        return [l for l in self.text.splitlines() if l.split("\t")[0] == kind]


class Runner:
    def __init__(self, verify, tmp, verbose, keep):
        self.verify, self.tmp, self.verbose, self.keep = verify, tmp, verbose, keep
        self.failed = self.passed = 0

    def run(self, args):
        p = subprocess.run(self.verify + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")

    def write(self, name, text):
        path = os.path.join(self.tmp, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def expect(self, tag, args, status, out_re=None, err_re=None, case=None):
        """Run verify; the exit status must be status and the patterns must match."""
        rc, out, err = self.run(args)
        problems = []
        if rc != status:
            problems.append("exit status %d, expected %d" % (rc, status))
        if out_re and not re.search(out_re, out, re.M):
            problems.append("stdout does not match /%s/" % out_re)
        if err_re and not re.search(err_re, err, re.M):
            problems.append("stderr does not match /%s/" % err_re)
        if problems:
            self.failed += 1
            print("FAIL %s: %s" % (tag, "; ".join(problems)))
            print("     command: %s" % " ".join(self.verify + args))
            for l in (out.splitlines() + err.splitlines())[:40]:
                print("     | " + l)
            if self.keep and case:
                os.makedirs(self.keep, exist_ok=True)
                for p in args:
                    if os.path.exists(p):
                        shutil.copy(p, self.keep)
        else:
            self.passed += 1
            if self.verbose:
                print("ok   %s" % tag)
        return rc, out, err


def profile_args(case):
    return ["--profile", case.profile] if case.profile else []


def positive(r, case):
    n_rpc = sum(1 for l in case.lines("rpc") if "\trebuilt=yes" in l)
    n_inj = len(case.lines("inject"))
    if not n_rpc:
        r.failed += 1
        print("FAIL %s: the truth gives no rebuilt message to check" % case.name)
        return
    r.expect("pass %s" % case.name, profile_args(case) + [case.cap, case.manifest], 0,
             r"^verify: PASS \(%d rpcs, %d injected findings found\)$" % (n_rpc, n_inj), case=case)


def replace_line(text, old, new):
    assert old in text
    return text.replace(old, new, 1)


def negatives(r, clean, viol):
    """clean: a case without findings; viol: one with an injected error finding."""
    rpc = next(l for l in clean.lines("rpc") if "\trebuilt=yes" in l and "dir=reply" in l)
    xid = re.search(r"xid=(0x[0-9a-f]{8})", rpc).group(1)
    sha = re.search(r"sha256=([0-9a-f]{64})", rpc).group(1)
    pa = profile_args(clean)

    # A flipped hex digit of one SHA-256.
    flipped = sha[:10] + ("0" if sha[10] != "0" else "1") + sha[11:]
    m = r.write("sha.manifest", replace_line(clean.text, rpc, rpc.replace(sha, flipped)))
    r.expect("flipped sha256", pa + [clean.cap, m], 1,
             r"^FAIL rpc %s reply frame \d+: .*sha256 %s in the manifest, %s rebuilt" % (xid, flipped, sha))
    # --quiet still shows the failure, and nothing that passed.
    _, out, _ = r.expect("flipped sha256 --quiet", pa + ["--quiet", clean.cap, m], 1, r"^FAIL rpc %s reply" % xid)
    if re.search(r"^PASS ", out, re.M):
        r.failed += 1
        print("FAIL --quiet printed PASS lines")

    # Another length.
    ln = re.search(r"\tlen=(\d+)", rpc).group(1)
    m = r.write("len.manifest", replace_line(clean.text, rpc, rpc.replace("\tlen=%s\t" % ln,
                                                                          "\tlen=%d\t" % (int(ln) + 4))))
    r.expect("other length", pa + [clean.cap, m], 1,
             r"^FAIL rpc %s reply frame \d+: length %d in the manifest, %s rebuilt" % (xid, int(ln) + 4, ln))

    # An XID the capture does not hold.
    other = "0x%08x" % (int(xid, 16) ^ 0x40000000)
    m = r.write("xid.manifest", replace_line(clean.text, rpc, rpc.replace("xid=" + xid, "xid=" + other)))
    r.expect("unknown xid", pa + [clean.cap, m], 1, r"^FAIL rpc %s reply: no such message in the capture" % other)

    # The same message listed twice: the capture holds it once.
    m = r.write("twice.manifest", clean.text + rpc + "\n")
    r.expect("listed twice", pa + [clean.cap, m], 1, r"^FAIL rpc %s reply: listed more often" % xid)

    # dropped=3 / ifdropped=1: the capture cannot be trusted.
    cap_line = clean.lines("capture")[0]
    for key in ("dropped", "ifdropped"):
        m = r.write(key + ".manifest", replace_line(clean.text, cap_line,
                                                    cap_line.replace("\t%s=0" % key, "\t%s=3" % key)))
        r.expect("%s=3" % key, pa + [clean.cap, m], 1, r"^FAIL capture: .*dropped")
    # Another capture name: a warning only.
    m = r.write("name.manifest", replace_line(clean.text, cap_line,
                                              re.sub(r"file=[^\t]*", "file=other.pcap", cap_line)))
    r.expect("other capture name", pa + [clean.cap, m], 0, r"^warning: .*other\.pcap")

    # A garbage line: exit 2 with FILE:LINE.
    lines = clean.text.splitlines()
    lines.insert(4, "rpc\txid=0x1\tdir=call\tlen=banana")
    m = r.write("garbage.manifest", "\n".join(lines) + "\n")
    r.expect("garbage line", pa + [clean.cap, m], 2, None, r"%s:5: .*len=banana" % re.escape(m))
    m = r.write("notmanifest.manifest", "hello\n")
    r.expect("not a manifest", pa + [clean.cap, m], 2, None, r"notmanifest\.manifest:1: ")
    # An unreadable capture or manifest: exit 2 naming it.
    r.expect("missing capture", pa + [os.path.join(r.tmp, "nope.pcap"), clean.manifest], 2, None, r"nope\.pcap")
    r.expect("missing manifest", pa + [clean.cap, os.path.join(r.tmp, "nope.manifest")], 2, None,
             r"nope\.manifest")
    trunc = os.path.join(r.tmp, "trunc.pcap")
    with open(clean.cap, "rb") as f:
        data = f.read()
    with open(trunc, "wb") as f:
        f.write(data[:len(data) - 7])
    r.expect("truncated capture", pa + [trunc, clean.manifest], 2, None, r"trunc\.pcap")
    # Usage.
    r.expect("no operands", [], 2, None, r"usage:")
    r.expect("one operand", [clean.cap], 2, None, r"usage:")
    r.expect("bad profile", ["--profile", "rfc1", clean.cap, clean.manifest], 2, None, r"rfc1")
    r.expect("bad threshold", ["--inline-threshold", "12", clean.cap, clean.manifest], 2, None, r"12")
    r.expect("help", ["--help"], 0, r"usage:")

    # Inject lines, on the violation capture.
    pv = profile_args(viol)
    inj = viol.lines("inject")
    assert inj, "the violation case has no inject line"
    first = inj[0]
    rule = re.search(r"rule=(RR-\d+)", first).group(1)
    ixid = re.search(r"xid=(0x[0-9a-f]{8})", first).group(1)
    # Taken away: the finding is an error nobody asked for.
    m = r.write("noinject.manifest", "".join(l + "\n" for l in viol.text.splitlines()
                                             if not (l.startswith("inject\t") and "rule=%s\t" % rule in l)))
    r.expect("inject line removed", pv + [viol.cap, m], 1, r"^FAIL frame \d+ %s error, not injected" % rule)
    # ... unless another inject line tolerates it in also=.
    other_rule = "RR-004" if rule != "RR-004" else "RR-003"
    tol = first.replace("rule=" + rule, "rule=" + other_rule)
    m = r.write("also.manifest", viol.text.replace(first + "\n", "") + tol.replace("also=-", "also=" + rule) + "\n")
    r.expect("tolerated by also=", pv + [viol.cap, m], 1,
             r"^FAIL inject %s %s \w+: the engine reported no %s finding" % (other_rule, ixid, other_rule))
    _, out, _ = r.run(pv + [viol.cap, m])
    if re.search(r"^FAIL frame \d+ %s " % rule, out, re.M):
        r.failed += 1
        print("FAIL also=%s did not tolerate the %s findings" % (rule, rule))
    # Added for a rule that is not in the capture.
    m = r.write("extra.manifest", viol.text + first.replace("rule=" + rule, "rule=RR-004") + "\n")
    r.expect("inject line added", pv + [viol.cap, m], 1,
             r"^FAIL inject RR-004 %s \w+: the engine reported no RR-004 finding" % ixid)
    # Moved to another message (the first exchange, a ping before the violation).
    calls = [l for l in viol.lines("rpc") if "dir=call" in l]
    pxid = re.search(r"xid=(0x[0-9a-f]{8})", calls[0]).group(1)
    assert pxid != ixid
    m = r.write("moved.manifest", viol.text.replace(first, first.replace("xid=" + ixid, "xid=" + pxid)))
    r.expect("inject line moved", pv + [viol.cap, m], 1, r"^FAIL inject %s %s \w+: " % (rule, pxid))
    # A rule the catalogue does not know: the manifest is wrong, exit 2.
    m = r.write("unknown.manifest", viol.text + first.replace("rule=" + rule, "rule=RR-999") + "\n")
    r.expect("unknown rule", pv + [viol.cap, m], 2, None, r"RR-999")

    # Two manifests, the requester's (calls) and the responder's (replies):
    # the inject lines in only one of them still tolerate and are checked once.
    drive = [l for l in viol.text.splitlines() if not (l.startswith("rpc\t") and "dir=reply" in l)
             and not l.startswith("inject\t")]
    serve = [l for l in viol.text.splitlines() if not (l.startswith("rpc\t") and "dir=call" in l)]
    serve = [l.replace("role=drive", "role=serve") for l in serve]
    md = r.write("two.manifest", "\n".join(drive) + "\n")
    ms = r.write("two.serve.manifest", "\n".join(serve) + "\n")
    n_rpc = sum(1 for l in viol.lines("rpc") if "\trebuilt=yes" in l)
    r.expect("two manifests", pv + [viol.cap, md, ms], 0,
             r"^verify: PASS \(%d rpcs, %d injected findings found\)$" % (n_rpc, len(inj)))
    # The same inject lines in both: still checked once.
    md2 = r.write("two-inj.manifest", "\n".join(drive + inj) + "\n")
    r.expect("inject lines in both manifests", pv + [viol.cap, md2, ms], 0,
             r"^verify: PASS \(%d rpcs, %d injected findings found\)$" % (n_rpc, len(inj)))
    # An inject line for a Send that failed at the sender (sent=failed) and is not in the
    # capture: n/a, not a failure; without sent=failed the same line fails; one whose Send is
    # in the capture is still checked (moved to a message without the finding, it fails).
    ghost = "inject\trule=%s\txid=0x0badf00d\tdir=reply\tnote=oversize-send" % rule
    m = r.write("sent-failed.manifest", viol.text + ghost + "\tsent=failed\n")
    r.expect("sent=failed, not in the capture", pv + [viol.cap, m], 0,
             r"^n/a  inject %s 0x0badf00d reply: its Send failed at the sender and is not in the capture"
             % rule)
    m = r.write("sent-ok.manifest", viol.text + ghost + "\tsent=ok\n")
    r.expect("sent=ok, not in the capture", pv + [viol.cap, m], 1, r"^FAIL inject %s 0x0badf00d" % rule)
    m = r.write("sent-bad.manifest", viol.text + ghost + "\tsent=maybe\n")
    r.expect("sent=maybe", pv + [viol.cap, m], 2, None, r"sent=maybe: expected ok or failed")
    # events and verdicts are reported, never judged.
    extra = ("event\tkind=remote-access-error\txid=%s\ttext=the peer saw it\n"
             "verdict\trule=%s\txid=%s\tresult=fail\ttext=the peer did not notice\n" % (ixid, rule, ixid))
    m = r.write("events.manifest", viol.text + extra)
    r.expect("events and verdicts (even --quiet)", pv + ["--quiet", viol.cap, m], 0,
             r"^verdict %s %s fail the peer did not notice" % (rule, ixid))


def move_inject(text, line, new_xid):
    return text.replace(line, re.sub(r"xid=0x[0-9a-f]{8}", "xid=" + new_xid, line))


def placement(r, nox, piped):
    """An inject line is satisfied by a finding of its message only.
    nox: RR-068, whose finding has no XID and follows the reply's Send;
    piped: pipelined-write-beyond, where the RR-085 findings of the second
    call lie inside the first call's exchange and only their XID tells."""
    for case, why in ((nox, "a finding without XID outside that exchange"),
                      (piped, "another XID's finding inside that exchange")):
        inj = case.lines("inject")[0]
        rule = re.search(r"rule=(RR-\d+)", inj).group(1)
        # The second call (not the ping) but not the one the rule is about.
        ixid = re.search(r"xid=(0x[0-9a-f]{8})", inj).group(1)
        calls = [re.search(r"xid=(0x[0-9a-f]{8})", l).group(1) for l in case.lines("rpc") if "dir=call" in l]
        target = calls[1] if calls[1] != ixid else calls[0]
        m = r.write("placed.manifest", move_inject(case.text, inj, target))
        r.expect("inject moved to %s: %s" % (case.name, why), profile_args(case) + [case.cap, m], 1,
                 r"^FAIL inject %s %s \w+: " % (rule, target))


def main(argv):
    if "--" not in argv:
        print(__doc__)
        return 2
    cut = argv.index("--")
    verify = argv[cut + 1:]
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pcapgen", required=True)
    ap.add_argument("--top", required=True, help="the source tree (tests/scenarios, tests/rules)")
    ap.add_argument("--quick", action="store_true", help="a few captures only")
    ap.add_argument("--keep", metavar="DIR", help="copy the files of failing cases into DIR")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args(argv[1:cut])
    if not verify:
        print("check_verify.py: no verify command after --")
        return 2
    sdir = os.path.join(a.top, "tests", "scenarios")
    rdir = os.path.join(a.top, "tests", "rules")
    adir = os.path.join(a.top, "tests", "agent")
    mine = sorted(os.path.join(adir, s) for s in os.listdir(adir) if s.endswith(".scn"))
    if a.quick:
        scns = [os.path.join(sdir, s + ".scn") for s in QUICK_SCENARIOS]
        rules = [os.path.join(rdir, s + ".scn") for s in QUICK_RULES]
    else:
        scns = sorted(os.path.join(sdir, s) for s in os.listdir(sdir)
                      if s.endswith(".scn") and s[:-4] not in NOT_CLEAN)
        rules = sorted(os.path.join(rdir, s) for s in os.listdir(rdir) if s.endswith(".scn"))
        missing = [s for s in RULES if not os.path.exists(os.path.join(rdir, s + ".scn"))]
        if missing:
            print("FAIL rule scenarios the negative cases rely on are gone: %s" % " ".join(missing))
            return 1
    with tempfile.TemporaryDirectory(prefix="agent-verify-") as tmp:
        r = Runner(verify, tmp, a.verbose, a.keep)
        cases = {}
        for link in LINKS:
            for scn in scns + rules + mine:
                try:
                    c = Case(tmp, a.pcapgen, scn, link)
                except (RuntimeError, OSError, ValueError) as e:
                    r.failed += 1
                    print("FAIL %s" % e)
                    continue
                cases[c.name] = c
                positive(r, c)
        for link in LINKS:
            clean = cases.get("07-write-chunk-read-%s" % link)
            viol = cases.get("RR-085-%s" % link)
            nox = cases.get("RR-068-%s" % link)
            piped = cases.get("pipelined-write-beyond-%s" % link)
            if clean and viol and nox and piped:
                negatives(r, clean, viol)
                placement(r, nox, piped)
            else:
                r.failed += 1
                print("FAIL %s: the base captures of the negative cases are missing" % link)
        # The violations must have been exercised at all.
        n_inj = sum(len(c.lines("inject")) for c in cases.values())
        if n_inj == 0:
            r.failed += 1
            print("FAIL no inject line in any case: the rule scenarios expected nothing")
        print("check_verify: %d passed, %d failed (%d captures, %d inject lines)" %
              (r.passed, r.failed, len(cases), n_inj))
    return 1 if r.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
