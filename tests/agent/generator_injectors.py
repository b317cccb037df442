# SPDX-License-Identifier: GPL-2.0-or-later
"""The generator's own list of injectors (`rpcrdma-pcapgen --list-injectors`),
the oracle the agent's injection listings are checked against."""
import re
import subprocess
import sys


def generator_injectors(pcapgen):
    """{injector name: [the rules it breaks]}; exits when the list is not in its format."""
    gen = {}
    for line in subprocess.run([pcapgen, "--list-injectors"], capture_output=True, text=True,
                               check=True).stdout.splitlines():
        m = re.match(r"([a-z0-9-]+)\s+(.*?)(?:\s\[([^\]]*)\])?\s*$", line)
        if m:
            gen[m.group(1)] = (m.group(3) or "").split()
    if len(gen) < 50:
        sys.exit(f"only {len(gen)} injectors in the generator's list: not the format expected")
    return gen
