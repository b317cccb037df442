# SPDX-License-Identifier: GPL-2.0-or-later
"""ulb-lint -i's usage errors and failures: exit 2 and a sentence that names the culprit.

Without root only the usage errors are checked (the interface cannot be
opened); as root also an interface that does not exist, a filter that does
not compile, and a capture on lo that ends by --count, --duration and
SIGTERM with its statistics line (libpcap's drop counts on it).
"""
import argparse
import os
import signal
import subprocess
import sys
import time


def run(lint, *args, timeout=20):
    p = subprocess.run([lint] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lint", required=True)
    a = ap.parse_args()
    cases = [
        (("--duration", "3", "x.pcap"), 2, "go with -i"),
        (("-i", "lo", "--duration", "0"), 2, "--duration takes a number of seconds above 0, not '0'"),
        (("-i", "lo", "--count", "1.5"), 2, "--count takes a whole number above 0"),
        (("-i", "lo", "--buffer-size", "4096"), 2, "at most 2047"),
        (("-i", "lo", "--filter", "udp", "tcp"), 2, "either with --filter or after the options"),
    ]
    if os.geteuid() == 0:
        cases += [
            (("-i", "rr-no-such0", "--duration", "1"), 2, "rr-no-such0: cannot capture"),
            (("-i", "lo", "udp", "port"), 2, "lo: the filter 'udp port' does not compile"),
            (("-i", "lo", "--duration", "0.3"), 0, "dropped before analysis: 0 by libpcap"),
            (("-i", "lo", "--count", "1", "--duration", "1", "icmp"), 0, "capturing on lo, link type EN10MB, filter icmp"),
        ]
    bad = 0
    for args, rc, text in cases:
        got, _, err = run(a.lint, *args)
        if got != rc or text not in err:
            print("FAIL: ulb-lint %s: exit %d (want %d), stderr:\n%s" % (" ".join(args), got, rc, err))
            bad += 1
    if os.geteuid() == 0:
        p = subprocess.Popen([a.lint, "--summary", "-i", "lo"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 1.5
        while time.monotonic() < deadline:
            time.sleep(0.2)
            if p.poll() is not None:
                break
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=10)
        if p.returncode != 0 or "summary of lo" not in out.decode() or "dropped before analysis" not in err.decode():
            print("FAIL: SIGTERM did not end the capture with its summary (exit %d):\n%s%s" %
                  (p.returncode, out.decode(), err.decode()))
            bad += 1
    print("%d cases%s; %d failed" % (len(cases) + (os.geteuid() == 0), "" if os.geteuid() == 0 else
                                      " (not root: the interface cases were left out)", bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
