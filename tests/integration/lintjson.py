# SPDX-License-Identifier: GPL-2.0-or-later
"""Shared helpers for the integration checks: run ulb-lint and tshark, read their output."""
import glob
import json
import struct
import os
import subprocess
import sys


def run(cmd, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    if p.returncode != 0:
        sys.stderr.write("command failed (%d): %s\n%s\n" % (p.returncode, " ".join(cmd), p.stderr.decode(errors="replace")[-4000:]))
        raise SystemExit(1)
    return p.stdout.decode()


def rebuild_scenarios(folder):
    """The scenarios that test rebuilding: inject-*.scn carry deliberate
    violations and are the lint's business."""
    return sorted(s for s in glob.glob(os.path.join(folder, "*.scn"))
                  if not os.path.basename(s).startswith("inject"))


def lint_dump(lint, capture):
    """ulb-lint --dump --format json: a list of message records."""
    out = run([lint, "--dump", "--format", "json", "--quiet", capture])
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def lint_findings(lint, capture):
    """ulb-lint --format json: (the findings, the statistics line); exits on
    a status other than 0 or 1."""
    p = subprocess.run([lint, "--format", "json", capture], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if p.returncode not in (0, 1):
        sys.stderr.write("ulb-lint failed (%d) on %s:\n%s\n" % (p.returncode, capture, p.stderr.decode()))
        raise SystemExit(1)
    out = [json.loads(l) for l in p.stdout.decode().splitlines() if l.strip()]
    err = p.stderr.decode().strip().splitlines()
    return [d for d in out if "rule" in d], err[-1] if err else ""


def cut_pcap(src, dst, snaplen):
    """Write src with every record cut to snaplen bytes (the original length
    kept, as tcpdump -s writes it).  Returns how many records were cut, or
    None when src is not a classic pcap."""
    with open(src, "rb") as f:
        data = f.read()
    e = {b"\xd4\xc3\xb2\xa1": "<", b"\x4d\x3c\xb2\xa1": "<",
         b"\xa1\xb2\xc3\xd4": ">", b"\xa1\xb2\x3c\x4d": ">"}.get(data[:4])
    if not e:
        return None
    hdr = bytearray(data[:24])
    struct.pack_into(e + "I", hdr, 16, snaplen)
    out, pos, ncut = [bytes(hdr)], 24, 0
    while pos + 16 <= len(data):
        sec, frac, caplen, wirelen = struct.unpack_from(e + "IIII", data, pos)
        keep = min(caplen, snaplen)
        ncut += keep < caplen
        out.append(struct.pack(e + "IIII", sec, frac, keep, wirelen) + data[pos + 16:pos + 16 + keep])
        pos += 16 + caplen
    with open(dst, "wb") as f:
        f.write(b"".join(out))
    return ncut


def tshark(args):
    env = dict(os.environ)
    # Never read a user's preferences or plugins: the built-in dissectors only.
    env["WIRESHARK_CONFIG_DIR"] = "/nonexistent"
    return run(["tshark"] + args, env=env)


class Failures:
    def __init__(self, name):
        self.name = name
        self.items = []

    def add(self, msg):
        self.items.append(msg)

    def finish(self, checked):
        if self.items:
            for m in self.items[:60]:
                print("FAIL %s: %s" % (self.name, m))
            if len(self.items) > 60:
                print("... and %d more" % (len(self.items) - 60))
            print("%s: %d problems in %d checks" % (self.name, len(self.items), checked))
            sys.exit(1)
        print("%s: %d checks passed" % (self.name, checked))
