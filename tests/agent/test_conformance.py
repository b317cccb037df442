#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""capture/vm/conformance.py on hand-written lab output directories
(tests/agent/conformance/k61, k7) and a hand-written rule table whose RFC
sections exist nowhere else (conformance/rules.def): the expected tables below
are written by hand from those files, so a break in the parsing of manifests,
logs or rules.def, or in the merge of kernels, changes a line and fails.

usage: test_conformance.py [unittest options]  (run from anywhere)
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", ".."))
TOOL = os.path.join(TOP, "capture", "vm", "conformance.py")
FIX = os.path.join(HERE, "conformance")
RULES = os.path.join(FIX, "rules.def")
K61, K7 = os.path.join(FIX, "k61"), os.path.join(FIX, "k7")

# the side-by-side server table over rxe of 6.1 and 7, written by hand from the fixtures
SERVER_RXE = """\
| run | injected (RFC section) | rule judged (RFC section) | 6.1<br>`6.1.0-56-amd64` | 7<br>`7.0.0-1-amd64` |
|---|---|---|---|---|
| kernel-inj-vers | RR-001 (RFC 8166 §9.1) | RR-110 (RFC 8166 §9.4) | **pass**: RDMA_ERROR ERR_VERS | **fail**: a disconnect |
| kernel-inj-msgp-retry | RR-116 (RFC 8166 §9.5) | RR-116 (RFC 8166 §9.5) | not run | **n/a**: RDMA_ERROR ERR_CHUNK |
| kernel-inj-msgp-retry | RR-130:2 (RFC 8166 §9.6) | RR-131 (RFC 8166 §9.7) | not run | **pass**: RDMA_ERROR ERR_CHUNK |
| kernel-inj-ineligible3 | RR-141 (RFC 8267 §9.8) | RR-065 (RFC 8166 §9.2, §9.3) | **fail**: a normal reply | not run |
| kernel-inj-msgp2 | msgp:nth=2: RR-130 (RFC 8166 §9.6) | RR-131 (RFC 8166 §9.7) | not run | **pass**: RDMA_ERROR ERR_CHUNK |
| kernel-v3 | none (baseline) | - | nfs-error (NFS status 13) x2 (verify FAIL(1)) | not run |

Not run on any kernel (1): RR-002.
"""

CLIENT_RXE = """\
| proxy-credit0 | RR-100 (RFC 8166 §9.10) | - | not run | **n/a**: no answer recorded |

Not run on any kernel (1): bad-vers (RR-001).
"""


def run_tool(*args, rules=RULES):
    return subprocess.run([sys.executable, TOOL, "--rules", rules] + list(args),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)


def build(*inputs, rules=RULES):
    """(markdown, json document) of the tool on INPUTS."""
    with tempfile.TemporaryDirectory() as tmp:
        md, js = os.path.join(tmp, "c.md"), os.path.join(tmp, "c.json")
        p = run_tool("--md", md, "--json", js, *inputs, rules=rules)
        if p.returncode != 0:
            raise AssertionError("conformance.py exited %d: %s" % (p.returncode, p.stderr))
        with open(md, encoding="utf-8") as f, open(js, encoding="utf-8") as g:
            return f.read(), json.load(g)


def row(doc, kernel, run, injected, judged=None):
    hits = [r for r in doc["rows"] if r["kernel"] == kernel and r["run"] == run and
            r["injected"] == injected and (judged is None or r["judged"] == judged)]
    assert len(hits) == 1, "%d rows for %s %s %s" % (len(hits), kernel, run, injected)
    return hits[0]


class Merge(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.md, cls.doc = build(K61, K7)

    def test_side_by_side_server(self):
        self.assertIn("### rxe (RoCEv2)\n\n" + SERVER_RXE, self.md)

    def test_side_by_side_client(self):
        self.assertIn(CLIENT_RXE, self.md)

    def test_kernels_with_their_uname(self):
        ks = [(k["label"], k["server_uname"], k["client_uname"], k["date"]) for k in self.doc["kernels"]]
        self.assertEqual(ks, [("6.1", "6.1.0-56-amd64", "6.1.0-56-amd64", "2026-11-26T11:00:00Z"),
                              ("7", "7.0.0-1-amd64", "7.0.0-1-amd64", "2026-11-26T12:00:00Z")])

    def test_matrix_cells(self):
        m = self.doc["matrix"]["server"]["rows"]
        got = [(r["run"], r["spec"], r["injected"], r["when"], r["judged"], r["cells"]["6.1"]["verdict"],
                r["cells"]["7"]["verdict"]) for r in m]
        self.assertEqual(got, [
            ("kernel-inj-vers", "RR-001", "RR-001", "", "RR-110", "pass", "fail"),
            ("-", "RR-002", "RR-002", "", "", "not run", "not run"),
            ("kernel-inj-msgp-retry", "RR-116", "RR-116", "", "RR-116", "not run", "n/a"),
            ("kernel-inj-msgp-retry", "RR-130:2", "RR-130", "2", "RR-131", "not run", "pass"),
            ("kernel-inj-ineligible3", "RR-141", "RR-141", "", "RR-065", "fail", "not run"),
            ("kernel-inj-msgp2", "msgp:nth=2", "RR-130", "nth=2", "RR-131", "not run", "pass"),
            ("kernel-v3", "", "", "", "", "info", "not run"),
        ])
        # the injectors of list-injections (both layouts) and their sides
        self.assertEqual(self.doc["kernels"][1]["planned"], {
            "server": [{"injector": "msgp", "rule": "RR-130"}, {"injector": "resend-xid", "rule": "RR-116"}],
            "client": [{"injector": "bad-vers", "rule": "RR-001"}]})
        self.assertEqual(self.doc["kernels"][0]["planned"]["client"], [{"injector": "RR-100", "rule": "RR-100"}])

    def test_peer_and_agent(self):
        r = row(self.doc, "7", "kernel-inj-vers", "RR-001")
        self.assertEqual((r["peer"]["disconnects"], r["peer"]["reconnects"], r["peer"]["retransmits"]), (1, 1, 0))
        self.assertEqual(r["agent"]["exit"], 1)
        self.assertEqual(r["agent"]["errors"],
                         ["rpcrdma-agent: error: the connection was closed by the server (RDMA_CM_EVENT_DISCONNECTED)"])
        r = row(self.doc, "7", "kernel-inj-msgp-retry", "RR-130")
        self.assertEqual(r["peer"]["retransmits"], 1)
        self.assertEqual(r["peer"]["events"], {"err-chunk": 2})
        # the reaction line of an injection gives its own counts and the agent's error
        r = row(self.doc, "7", "kernel-inj-msgp2", "RR-130")
        self.assertEqual((r["peer"]["reconnects"], r["peer"]["retransmits"], r["answer"]),
                         (2, 3, "RDMA_ERROR ERR_CHUNK"))
        self.assertEqual(r["agent"]["errors"], ["the call failed with EIO"])
        self.assertEqual(r["why"], "injected RR-130; the server answered with RDMA_ERROR ERR_CHUNK; a responder "
                                   "answers RDMA_MSGP with ERR_CHUNK (RFC 8166 §4.6.1)")
        c = row(self.doc, "7", "proxy-credit0", "RR-100")
        self.assertEqual((c["role"], c["peer"]["reconnects"], c["peer"]["retransmits"]), ("client", 1, 1))

    def test_kernel_log(self):
        kl = row(self.doc, "6.1", "kernel-inj-vers", "RR-001")["kernel_log"]
        self.assertEqual(kl["server"]["dmesg"], ["[  100.600000] svcrdma: unrecognized version 2 from 10.0.0.2"])
        self.assertEqual(kl["server"]["dmesg_total"], 2)
        self.assertEqual(kl["server"]["trace_events"], {"svcrdma_decode_badvers": 1, "svcrdma_err_vers": 1,
                                                        "svcrdma_wc_recv": 1, "svcrdma_wc_send": 1})
        self.assertEqual(kl["server"]["trace_notable"], ["svcrdma_decode_badvers: cq.id=1 cid=2 xid=0x00000a01",
                                                         "svcrdma_err_vers: xid=0x00000a01"])
        self.assertEqual((kl["client"]["dmesg"], kl["client"]["traced"]), ([], False))
        self.assertIn("| server: dmesg 1: svcrdma: unrecognized version 2 from 10.0.0.2; trace: "
                      "svcrdma_decode_badvers x1, svcrdma_err_vers x1 |", self.md)

    def test_added_records_and_fields_are_kept(self):
        r = row(self.doc, "6.1", "kernel-inj-vers", "RR-001")
        self.assertEqual(r["peer"]["other"], [{"record": "surprise", "xid": "0x00000a01", "future": "kept"}])
        self.assertEqual([x["elapsed_ms"] for x in r["peer"]["reactions"]], ["3"])

    def test_agent_against_agent_left_out(self):
        self.assertFalse([r for r in self.doc["rows"] if r["run"] == "shapes"])

    def test_merge_of_json_equals_merge_of_dirs(self):
        with tempfile.TemporaryDirectory() as tmp:
            parts = []
            for d in (K7, K61):
                parts.append(os.path.join(tmp, os.path.basename(d) + ".json"))
                p = run_tool("--json", parts[-1], d)
                self.assertEqual(p.returncode, 0, p.stderr)
            md, doc = build(*parts)
        self.assertEqual(doc, self.doc)
        self.assertEqual(md, self.md)


class Roles(unittest.TestCase):
    """Which kernel implementation a manifest's run line judges (docs/conformance/README.md)."""

    def test_role_of_run_lines(self):
        sys.path.insert(0, os.path.dirname(TOOL))
        import conformance_read as cr
        cases = [({"role": "drive", "target": "kernel"}, "server"),
                 ({"role": "drive", "target": "proxy"}, "server"),   # the proxy's server leg
                 ({"role": "proxy", "target": ""}, "client"),        # the proxy's client leg
                 ({"role": "serve", "target": "client"}, "client"),
                 ({"role": "drive", "target": "agent"}, None),
                 ({"role": "serve", "target": ""}, None)]
        for run, want in cases:
            self.assertEqual(cr.role_of(run), want, run)


class OneKernel(unittest.TestCase):
    def test_client_placeholder(self):
        md, doc = build(K61)
        got = [(r["transport"], r["injected"], r["cells"]["6.1"]["verdict"], r["cells"]["6.1"]["why"])
               for r in doc["matrix"]["client"]["rows"]]
        self.assertEqual(got, [("rxe", "RR-100", "not run", "no xprtrdma run on 6.1 yet (the proxy's manifests)")])
        self.assertTrue(md.endswith("### rxe (RoCEv2)\n\n"
                                    "| run | injected (RFC section) | rule judged (RFC section) | 6.1<br>`6.1.0-56-amd64` |\n"
                                    "|---|---|---|---|\n"
                                    "| - | RR-100 (RFC 8166 §9.10) | - | not run |\n"), md[-300:])


class Errors(unittest.TestCase):
    def test_same_kernel_twice(self):
        p = run_tool(K61, K61)
        self.assertEqual(p.returncode, 2)
        self.assertIn("kernel 6.1 is already given", p.stderr)

    def test_malformed_manifest_named(self):
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "agent-kernel-x-rxe.pcap.manifest"), "w") as f:
                f.write("# rpcrdma-agent manifest 1\nrun\trole=drive\ttarget=kernel\nevent\tkind\n")
            p = run_tool(tmp)
        self.assertEqual(p.returncode, 2)
        self.assertRegex(p.stderr, r"agent-kernel-x-rxe\.pcap\.manifest:3: field 'kind' is not key=value")

    def test_missing_input(self):
        p = run_tool(os.path.join(FIX, "no-such-run"))
        self.assertEqual(p.returncode, 2)
        self.assertIn("no-such-run", p.stderr)


class RealRuleTable(unittest.TestCase):
    def test_sections_from_rules_def(self):
        """With the project's own rules.def, a row's sections are the ref argument of its rule
        there (found here by a plain regex on the RR_RULE line, not by the tool's parser)."""
        real = os.path.join(TOP, "analyzer", "include", "rpcrdma", "rules.def")
        with open(real, encoding="utf-8") as f:
            text = f.read()

        def ref(code):
            m = re.search(r'^RR_(?:RULE|NOCHECK)\([^\n]*"%s"[^\n]*?"((?:RFC|draft)[^"]*)",?\s*$' % code, text, re.M)
            self.assertTrue(m, code)
            return m.group(1)
        _, doc = build(K61, rules=real)
        r = row(doc, "6.1", "kernel-inj-ineligible3", "RR-141")
        self.assertEqual((r["injected_ref"], r["judged_ref"]), (ref("RR-141"), ref("RR-065")))


if __name__ == "__main__":
    unittest.main()
