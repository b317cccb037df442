#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""`rpcrdma-agent list-injections` against the generator's own list
(`rpcrdma-pcapgen --list-injectors`, the oracle): every injector the
generator has appears, with the first rule it breaks, either once per role
that can inject it live (with its hook stage) or once with
"not injectable live: <reason>"; the agent's own entries say so."""
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generator_injectors import generator_injectors  # noqa: E402


def main():
    agent, pcapgen = sys.argv[1], sys.argv[2]
    gen = generator_injectors(pcapgen)
    out = subprocess.run([agent, "list-injections"], capture_output=True, text=True, check=True).stdout
    rows = {}
    bad = []
    for line in out.splitlines():
        if line.startswith("#"):
            continue
        f = line.split("\t")
        if len(f) != 5:
            bad.append(f"not 5 tab-separated columns: {line!r}")
            continue
        rows.setdefault(f[1], []).append(f)
    for name, rules in gen.items():
        if name not in rows:
            bad.append(f"{name}: missing from list-injections")
            continue
        for rule, _, role, stage, text in rows[name]:
            if rule != (rules[0] if rules else "-"):
                bad.append(f"{name}: rule {rule}, the generator says {rules[:1] or '-'}")
            if role == "-":
                if stage != "-" or not re.match(r"not injectable live: \S", text) or len(rows[name]) != 1:
                    bad.append(f"{name}: neither a role nor a reason: {text!r}")
            elif role not in ("requester", "responder") or not re.fullmatch(r"[a-z+]+", stage):
                bad.append(f"{name}: role {role!r} stage {stage!r}")
    for name, fs in rows.items():
        if name not in gen and not all(f[4].startswith("(agent only)") for f in fs):
            bad.append(f"{name}: not in the generator's table and not marked agent only")
    live = {r: sum(1 for fs in rows.values() for f in fs if f[2] == r) for r in ("requester", "responder")}
    dead = sum(1 for fs in rows.values() for f in fs if f[2] == "-")
    print(f"{len(gen)} generator injectors; live: {live['requester']} requester, "
          f"{live['responder']} responder; {dead} not injectable live")
    for b in bad:
        print("FAIL:", b)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
