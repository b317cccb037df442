#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""`rpcrdma-agent proxy --list-injections` (the leg each injection breaks
through the proxy) against the generator's own list (`rpcrdma-pcapgen
--list-injectors`, the oracle) and the agent's table (`list-injections`):
every generator injector appears with its first rule; a "client" row
(--inject) is a responder entry of the table, a "server" row
(--inject-server) a requester entry whose only stages are the header and
the Send; every other entry says why it is not through the proxy.  When
list-injections notes the leg on its rows ("[proxy: ...]"), the notes say
the same."""
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True   # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generator_injectors import generator_injectors  # noqa: E402


def rows(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return [line.split("\t") for line in out.splitlines() if line and not line.startswith("#")]


def main():
    agent, pcapgen = sys.argv[1], sys.argv[2]
    gen = generator_injectors(pcapgen)
    table, notes = {}, {}
    for f in rows([agent, "list-injections"]):
        table.setdefault(f[1], {})[f[2]] = f[3]
        m = re.search(r"\[proxy: ([^\]]*)\]$", f[-1])
        if m:
            notes[(f[1], f[2])] = m.group(1)
    legs, bad = {}, []
    for f in rows([agent, "proxy", "--list-injections"]):
        if len(f) != 5:
            bad.append(f"not 5 tab-separated columns: {f!r}")
            continue
        legs.setdefault(f[1], []).append(f)
    for name, rules in gen.items():
        if name not in legs:
            bad.append(f"{name}: missing from proxy --list-injections")
    for name, fs in legs.items():
        roles = table.get(name, {})
        for rule, _, leg, option, text in fs:
            if name in gen and rule != (gen[name][0] if gen[name] else "-"):
                bad.append(f"{name}: rule {rule}, the generator says {gen[name][:1] or '-'}")
            if leg == "client":
                if option != "--inject" or "responder" not in roles:
                    bad.append(f"{name}: client leg but {option!r}, table roles {sorted(roles)}")
            elif leg == "server":
                st = roles.get("requester", "")
                if option != "--inject-server" or not st or set(st.split("+")) - {"header", "wire"}:
                    bad.append(f"{name}: server leg but {option!r}, requester stages {st!r}")
            elif leg == "-":
                if option != "-" or not text.startswith("not through the proxy: ") or len(fs) != 1:
                    bad.append(f"{name}: neither a leg nor a reason: {text!r}")
            else:
                bad.append(f"{name}: leg {leg!r}")
        if name not in gen and name not in table:
            bad.append(f"{name}: neither the generator's nor the agent's")
    # list-injections' own note of the leg, when it carries one: the same as the proxy's listing
    if notes:
        want = {"responder": ("client", "client leg, --inject"),
                "requester": ("server", "server leg, --inject-server")}
        for name, roles in table.items():
            for role in roles:
                if role not in want:
                    continue
                leg, text = want[role]
                on = any(f[2] == leg for f in legs.get(name, []))
                got = notes.get((name, role))
                if got != (text if on else "not through it"):
                    bad.append(f"{name} ({role}): list-injections says proxy {got!r}, "
                               f"proxy --list-injections {'has' if on else 'lacks'} the {leg} leg")
    # the contract the docs state: the header and version injections on both legs
    for name in ("bad-vers", "zero-credit", "xid-mismatch"):
        if sorted(f[2] for f in legs.get(name, [])) != ["client", "server"]:
            bad.append(f"{name}: not on both legs")
    count = {leg: sum(1 for fs in legs.values() for f in fs if f[2] == leg)
             for leg in ("client", "server", "-")}
    print(f"{len(gen)} generator injectors; through the proxy: {count['client']} client leg, "
          f"{count['server']} server leg; {count['-']} not")
    for b in bad:
        print("FAIL:", b)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
