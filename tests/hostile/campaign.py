#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The hostile-input campaign: ulb-lint on thousands of damaged captures.

With --plugin the reader is tshark with the Wireshark plugin instead
(run as an unprivileged user through tests/plugin/ws-user.sh, one pass and
-2 in turn, every tree drawn with -V): the same mutants, the same verdicts,
except that peak RSS is Wireshark's own and is capped, not budgeted.
With --agent the reader is `rpcrdma-agent verify` on mutants of the captures
the live agent recorded (sample-pcaps/agent), each with its own manifests:
it must exit 0, 1 (a failed verification) or 2, within the same budgets.

For every input capture (every capture under sample-pcaps/, and with
--pcapgen a generated scenario on every link type, with and without the
connection handshake) make --per-sample mutants with mutate.py, run
ulb-lint on each under a wall-time limit and a memory cap, and fail on
anything but an orderly exit:

  signal     killed by a signal (SIGSEGV, SIGABRT, GLib's SIGTRAP, ...)
  sanitizer  an AddressSanitizer / UndefinedBehaviorSanitizer /
             LeakSanitizer report on stderr (UBSan with halt_on_error
             exits 1, which would otherwise look like "findings")
  timeout    still running after --timeout seconds (a hang)
  cap        the memory cap was hit (prlimit --as for a plain binary,
             ASan's hard_rss_limit_mb / malloc_limit_mb for a sanitizer one)
  rss        peak RSS (wait4 ru_maxrss) above --max-rss-mb; plain binaries
             only, since ASan's shadow memory and quarantine inflate RSS
  exit       an exit status other than 0, 1 or 2 (tshark: also 3, which
             Wireshark 4.4 gives a file it cannot open, and 14, which 4.6
             gives a file damaged after its start)

Every failing mutant is copied to the seeds directory (tests/hostile/seeds/
by default) with a .txt beside it saying what failed and how to make it
again; every run first replays every seed there, so a seed fails the run
until the bug is fixed.

Everything is deterministic from --seed: mutant i of input X has seed
derive_seed(seed, X, i) and the mutator at position i of X's cycle.

Exit status: 0 all passed, 1 failures, 2 usage or setup error, 77 editcap or
mergecap missing (ctest's SKIP_RETURN_CODE).
"""
import argparse
import collections
import concurrent.futures
import glob
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

# No __pycache__ in the source tree (ctest runs this from there).
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mutate  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SKIP = 77
KINDS = ("signal", "sanitizer", "timeout", "cap", "rss", "exit")   # and "harness", "mutator-error"
CAPTURE_EXTS = (".pcap", ".pcapng", ".cap", ".ntar")

# Scenarios for the generated inputs: short ones that between them cover
# inline, read/write/reply chunks, backchannel, retransmission/reordering,
# TCP segmentation (iWARP) and deliberate protocol violations.  Link i with
# handshake h uses GEN_SCENARIOS[(2*i + h) % len] so each link gets two.
GEN_SCENARIOS = ["01-inline-basic.scn", "07-write-chunk-read.scn", "11-reply-chunk.scn",
                 "15-backchannel.scn", "14-dup-reorder.scn", "inject-basic.scn",
                 "04-read-chunk-v4-write.scn", "19-tcp-segmentation.scn", "06-pzrc.scn"]
# These links are also generated as pcapng by pcapgen itself (its own writer).
GEN_PCAPNG_LINKS = ["rocev2", "ib", "iwarp"]
# ERF is the only link type whose own record header we mutate (the erf_*
# mutators apply to nothing else), so it gets more inputs than the others.
GEN_ERF_EXTRA = ["15-backchannel.scn", "inject-basic.scn", "02-multipkt-send.scn"]
# Switch mirrors (pcapgen --encap): ERSPAN, GRE and VXLAN headers to mutate.
GEN_ENCAP = (("rocev2", "erspan2"), ("rocev2-vlan", "erspan3,subhdr,ipv6"),
             ("iwarp", "gre,csum,key,seq,vlan"), ("iwarp", "vxlan,ipv6"))

# Substrings of stderr that mean the memory cap was hit rather than a bug
# report: GLib's g_malloc failing under prlimit --as, ASan's own limits.
CAP_PATTERNS = ("failed to allocate", "hard rss limit exhausted", "malloc limit",
                "allocator is out of memory", "out of memory", "Cannot allocate memory")
SANITIZER_PATTERNS = ("ERROR: AddressSanitizer", "runtime error:", "LeakSanitizer",
                      "ERROR: UndefinedBehaviorSanitizer", "SUMMARY: AddressSanitizer",
                      "SUMMARY: UndefinedBehaviorSanitizer")

# How ulb-lint is run: the summary and plain reports alternate, one run in
# four reads the capture from standard input ('-') fed through a pipe,
# the summary runs ignore the IB/RoCE ICRC (--icrc ignore: a mutated header
# reaches the engine, as a hostile peer that computes its ICRCs sends it;
# the plain runs set such packets aside as damaged),
# which is a different reader path (no read-ahead thread, short reads), and
# one plain run in four splits it with -j 2 (a first pass over the mapped
# file, then two worker threads that read it in place: a crash in one is
# ulb-lint's own signal).
MODES = ("plain", "summary", "plain-stdin", "summary-stdin", "plain-jobs")
TSHARK_MODES = ("tshark", "tshark-2")
AGENT_MODES = ("verify",)


# Peak RSS needs care: Linux carries ru_maxrss across exec(), so a child
# spawned straight from this Python process (tens of MiB, holding mutants)
# would report this process's peak as its own.  So ulb-lint is spawned by
# small helper interpreters (python -I -S, a few MiB, one per job slot,
# started once): each spawns ulb-lint from its own small address space in a
# session of its own, reports "pid N", waits with wait4() and reports
# "done STATUS MAXRSS_KIB".  The floor of the measurement is the helper's own
# size (about 8-10 MiB), far below the 64 MiB budget.
SPAWNER = r"""
import os, signal, sys
out = sys.stdout.buffer
for line in sys.stdin.buffer:
    f = [os.fsdecode(x) for x in line.rstrip(b"\n").split(b"\0")]
    feed, stderr_path, argv = f[0], f[1], f[2:]
    fa = [(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
          (os.POSIX_SPAWN_OPEN, 2, stderr_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)]
    if feed:
        # Standard input is a pipe (the reader's non-regular-file path);
        # both ends are close-on-exec, dup2 gives the child fd 0 only.
        rfd, wfd = os.pipe()
        fa.append((os.POSIX_SPAWN_DUP2, rfd, 0))
    else:
        fa.append((os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0))
    try:
        # Python ignores SIGPIPE; ulb-lint gets the default dispositions back.
        pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=fa, setsid=True,
                              setsigdef=(signal.SIGPIPE, signal.SIGXFSZ))
    except OSError as e:
        out.write(b"error %s\n" % str(e).encode())
        out.flush()
        continue
    out.write(b"pid %d\n" % pid)
    out.flush()
    if feed:
        os.close(rfd)
        try:
            with os.fdopen(wfd, "wb") as w, open(feed, "rb") as src:
                while True:
                    chunk = src.read(1 << 16)
                    if not chunk:
                        break
                    w.write(chunk)
        except BrokenPipeError:
            pass              # ulb-lint stopped reading (an error, or killed at the timeout)
    _, st, ru = os.wait4(pid, 0)
    out.write(b"done %d %d\n" % (st, ru.ru_maxrss))
    out.flush()
"""


class Spawner:
    """One helper interpreter (see SPAWNER); used by one thread at a time."""

    def __init__(self, env):
        self.env = env
        self.p = None

    def start(self):
        self.p = subprocess.Popen([sys.executable, "-I", "-S", "-c", SPAWNER], env=self.env,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def run(self, argv, stdin_path, stderr_path, timeout):
        """(wait status, maxrss KiB, timed out) or None if the helper failed."""
        if self.p is None or self.p.poll() is not None:
            self.start()
        req = b"\0".join(os.fsencode(x) for x in [stdin_path or "", stderr_path] + argv) + b"\n"
        try:
            self.p.stdin.write(req)
            self.p.stdin.flush()
            first = self.p.stdout.readline().split()
            if len(first) != 2 or first[0] != b"pid":
                return None
            pid = int(first[1])
            timed_out = threading.Event()

            def kill():
                timed_out.set()
                try:
                    os.killpg(pid, signal.SIGKILL)     # its own session: lint and anything it started
                except ProcessLookupError:
                    pass
            timer = threading.Timer(timeout, kill)
            timer.start()
            done = self.p.stdout.readline().split()
            timer.cancel()
        except (BrokenPipeError, ValueError):
            self.p = None
            return None
        if len(done) != 3 or done[0] != b"done":
            return None
        return int(done[1]), int(done[2]), timed_out.is_set()

    def close(self):
        if self.p is not None:
            self.p.stdin.close()
            self.p.wait()


def mode_for(i, tshark=False, agent=False, asan=False):
    if agent:
        return AGENT_MODES[0]
    if tshark:
        return TSHARK_MODES[i % 2]
    summary = i % 2 == 1
    stdin = (i // 2) % 4 == 3
    # ulb-lint -j 2: the split's first pass and its workers read the mutant.  Not under ASan, where
    # three instrumented reads of each mutant cost the sample its time; findings_identity_jobs_shared
    # runs the split there.
    if not summary and not asan and (i // 2) % 4 == 1:
        return "plain-jobs"
    return ("summary" if summary else "plain") + ("-stdin" if stdin else "")


def is_asan(binary):
    """An ASan binary has __asan_init in its symbols (dynamic or static);
    reading the file avoids depending on binutils."""
    with open(binary, "rb") as f:
        return b"__asan_init" in f.read()


class Runner:
    def __init__(self, a, tmpdir, jobs):
        self.lint = os.path.abspath(a.lint)
        self.plugin = os.path.abspath(a.plugin) if a.plugin else None
        self.agent = os.path.abspath(a.agent) if a.agent else None
        self.ws_user = os.path.abspath(a.ws_user)
        self.asan = False if self.plugin else (a.asan if a.asan is not None else is_asan(self.lint))
        self.timeout = a.timeout if a.timeout else (60.0 if self.asan else 20.0)
        self.max_rss_kb = a.max_rss_mb * 1024
        self.as_bytes = a.as_limit_mb << 20
        if self.plugin:
            # Wireshark maps hundreds of MiB of libraries and keeps every
            # frame's data: its size is its own.  The cap still stops a
            # runaway allocation.
            self.max_rss_kb = 1 << 62
            self.as_bytes = max(self.as_bytes, 8 << 30)
            if not a.timeout:
                self.timeout = 60.0
        self.env = dict(os.environ)
        if self.asan:
            # prlimit --as cannot work: ASan reserves terabytes of address
            # space.  Its own limits instead; abort_on_error turns a report
            # into SIGABRT so nothing is mistaken for a clean exit.
            self.env["ASAN_OPTIONS"] = ":".join([
                "abort_on_error=1", "hard_rss_limit_mb=%d" % a.as_limit_mb,
                "malloc_limit_mb=%d" % a.as_limit_mb, "detect_leaks=1",
                "allocator_may_return_null=0", "symbolize=1"])
            self.env["UBSAN_OPTIONS"] = "halt_on_error=1:print_stacktrace=1"
            self.prefix = []
        else:
            # A generous address-space cap so a runaway allocation fails
            # fast instead of swapping; the real budget is the RSS check.
            self.prefix = ["prlimit", "--as=%d" % self.as_bytes, "--"]
        self.tmpdir = tmpdir
        if self.plugin:
            # One HOME for every tshark run, the plugin put in place once:
            # ws-user.sh then skips its own tshark start per run.
            self.ws_home = os.path.join(tmpdir, "ws-home")
            subprocess.run([self.ws_user, self.plugin, "--home", self.ws_home, "--", "true"], check=True)
        self.spawners = queue.Queue()
        for _ in range(max(1, jobs)):
            self.spawners.put(Spawner(self.env))

    def run(self, path, mode, manifests=()):
        """Run ulb-lint on one capture; returns a dict with rc (negative =
        signal), rss_kb, wall, stderr and the failure kind (or None)."""
        args = [self.lint] + (["--summary", "--icrc", "ignore"] if mode.startswith("summary") else [])
        stdin_path = None
        if mode == "verify":
            # rpcrdma-agent verify: the mutant against the unmutated manifests
            args = [self.agent, "verify", "--quiet", path] + list(manifests)
        elif mode.startswith("tshark"):
            if not os.stat(path).st_mode & 0o004:
                os.chmod(path, 0o644)    # read by the unprivileged user
            args = [self.ws_user, self.plugin, "--home", self.ws_home, "--", "tshark", "-V", "-r", path] + (
                ["-2"] if mode == "tshark-2" else [])
        elif mode.endswith("-stdin"):
            args.append("-")
            stdin_path = path
        elif mode == "plain-jobs":
            args += ["-j", "2", path]
        else:
            args.append(path)
        sp = self.spawners.get()
        fd, errpath = tempfile.mkstemp(prefix="stderr-", dir=self.tmpdir)
        os.close(fd)
        t0 = time.monotonic()
        try:
            got = sp.run(self.prefix + args, stdin_path, errpath, self.timeout)
        finally:
            self.spawners.put(sp)
        wall = time.monotonic() - t0
        with open(errpath, "rb") as f:
            err = f.read(1 << 20).decode(errors="replace")
        os.unlink(errpath)
        kind = None
        if got is None:
            rc, rss_kb, kind = 255, 0, "harness"       # the helper failed, not ulb-lint
        else:
            rc, rss_kb = os.waitstatus_to_exitcode(got[0]), got[1]
            if got[2]:
                kind = "timeout"
            elif any(s in err for s in CAP_PATTERNS):
                kind = "cap"
            elif any(s in err for s in SANITIZER_PATTERNS):
                kind = "sanitizer"
            elif rc < 0:
                kind = "signal"
            elif rc not in ((0, 1, 2, 3, 14) if mode.startswith("tshark") else (0, 1, 2)):
                kind = "exit"
            elif not self.asan and rss_kb > self.max_rss_kb:
                kind = "rss"
        return {"rc": rc, "rss_kb": rss_kb, "wall": wall, "stderr": err, "kind": kind,
                "cmd": ("cat %s | " % path if stdin_path else "") + " ".join(self.prefix + args)}

    def close(self):
        while not self.spawners.empty():
            self.spawners.get().close()


# ---------------------------------------------------------------------------
# Inputs

class Input:
    def __init__(self, name, path, how):
        self.name, self.path, self.how = name, path, how
        self.views = None


def sample_inputs(samples_dir):
    out = []
    for p in sorted(glob.glob(os.path.join(samples_dir, "**", "*"), recursive=True)):
        if os.path.isfile(p) and p.lower().endswith(CAPTURE_EXTS):
            rel = os.path.relpath(p, samples_dir)
            name = os.path.splitext(rel)[0].replace(os.sep, "-")
            out.append(Input(name, p, "sample-pcaps/" + rel))
    return out


def generated_inputs(pcapgen, scen_dir, outdir):
    """One or two scenarios on every link pcapgen knows, with and without the
    handshake, plus a few written as pcapng by pcapgen itself."""
    links = subprocess.run([pcapgen, "--list-links"], check=True, stdout=subprocess.PIPE,
                           universal_newlines=True).stdout.split()
    scns = [s for s in GEN_SCENARIOS if os.path.exists(os.path.join(scen_dir, s))]
    if not scns:
        raise SystemExit("campaign: no scenarios found in %s" % scen_dir)
    jobs = []
    for i, link in enumerate(links):
        for h, hs in enumerate(("hs", "nohs")):
            jobs.append((link, hs, scns[(2 * i + h) % len(scns)], "pcap", ""))
    for j, link in enumerate(l for l in GEN_PCAPNG_LINKS if l in links):
        jobs.append((link, "hs", scns[(j * 3 + 1) % len(scns)], "pcapng", ""))
    if "erf-ib" in links:
        for scn in GEN_ERF_EXTRA:
            if os.path.exists(os.path.join(scen_dir, scn)) and ("erf-ib", "hs", scn, "pcap", "") not in jobs:
                jobs.append(("erf-ib", "hs", scn, "pcap", ""))
    # Switch mirrors: the byte mutators also reach the tunnel headers.
    for k, (link, spec) in enumerate(l for l in GEN_ENCAP if l[0] in links):
        jobs.append((link, "hs", scns[k % len(scns)], "pcap", spec))
    out = []
    for link, hs, scn, fmt, spec in jobs:
        name = "gen-%s-%s-%s%s%s" % (link, hs, os.path.splitext(scn)[0], "-ng" if fmt == "pcapng" else "",
                                   "-" + spec.split(",")[0] if spec else "")
        path = os.path.join(outdir, name + "." + fmt)
        cmd = [pcapgen, "--link", link, "--handshake" if hs == "hs" else "--no-handshake",
               "--format", fmt, os.path.join(scen_dir, scn), "-o", path, "--truth", path + ".json"]
        if spec:
            cmd += ["--encap", spec]
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if p.returncode != 0:
            raise SystemExit("campaign: %s failed: %s" % (" ".join(cmd), p.stderr.decode(errors="replace")))
        how = "rpcrdma-pcapgen --link %s %s --format %s%s tests/scenarios/%s" % (
            link, "--handshake" if hs == "hs" else "--no-handshake", fmt, " --encap " + spec if spec else "", scn)
        out.append(Input(name, path, how))
    return out


# ---------------------------------------------------------------------------
# Seeds

def seed_files(seeds_dir):
    if not os.path.isdir(seeds_dir):
        return []
    return sorted(p for p in glob.glob(os.path.join(seeds_dir, "*"))
                  if os.path.isfile(p) and not p.endswith((".txt", ".md")))


def seed_modes(path):
    """The mode recorded in a seed's .txt, else both report styles."""
    try:
        with open(path + ".txt") as f:
            for line in f:
                if line.startswith("mode:"):
                    m = line.split(":", 1)[1].strip()
                    if m in MODES + TSHARK_MODES:
                        return [m]
    except OSError:
        pass
    return ["plain", "summary"]


def save_seed(seeds_dir, data_path, inp, mut, seed, mode, res, notes, fmt):
    os.makedirs(seeds_dir, exist_ok=True)
    base = "%s__%s__s%d.%s" % (inp.name, mut, seed, fmt)
    dst = os.path.join(seeds_dir, base)
    shutil.copyfile(data_path, dst)
    with open(dst + ".txt", "w") as f:
        f.write("failure: %s\n" % res["kind"])
        f.write("mode: %s\n" % mode)
        f.write("input: %s (%s)\n" % (inp.name, inp.how))
        f.write("mutator: %s\nseed: %d\n" % (mut, seed))
        f.write("exit: %d%s\n" % (res["rc"], " (signal %d)" % -res["rc"] if res["rc"] < 0 else ""))
        f.write("peak RSS: %.1f MiB\nwall: %.2f s\n" % (res["rss_kb"] / 1024.0, res["wall"]))
        f.write("command: %s\n" % res["cmd"].replace(data_path, base))
        f.write("remake: tests/hostile/mutate.py INPUT --mutator %s --seed %d -o %s\n" % (mut, seed, base))
        f.write("what the mutator did:\n")
        for n in notes[:60]:
            f.write("  %s\n" % n)
        f.write("stderr:\n")
        err = res["stderr"]
        if len(err) > 16000:
            err = err[:8000] + "\n[... %d bytes ...]\n" % (len(err) - 16000) + err[-8000:]
        f.write(err)
    return dst


# ---------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lint", required=True, help="ulb-lint binary")
    ap.add_argument("--pcapgen", help="rpcrdma-pcapgen binary: also mutate generated captures")
    ap.add_argument("--plugin", help="the Wireshark plugin (rpcrdma.so): read with tshark and it instead")
    ap.add_argument("--agent", help="rpcrdma-agent: read mutants of the agent's recorded captures "
                    "with `rpcrdma-agent verify` and their manifests instead")
    ap.add_argument("--ws-user", default=os.path.join(ROOT, "tests", "plugin", "ws-user.sh"),
                    help="runs tshark as an unprivileged user with the plugin (tests/plugin/ws-user.sh)")
    ap.add_argument("--scenarios", default=os.path.join(ROOT, "tests", "scenarios"))
    ap.add_argument("--samples", default=os.path.join(ROOT, "sample-pcaps"),
                    help="every capture under this folder (recursively) is an input")
    ap.add_argument("--per-sample", type=int, default=8, help="mutants per input")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep", help="keep every mutant in this folder")
    ap.add_argument("--seeds-dir", default=os.path.join(HERE, "seeds"),
                    help="regression seeds: replayed first, failures saved here")
    ap.add_argument("--no-save", action="store_true", help="do not add failing mutants to the seeds")
    ap.add_argument("--max-saved", type=int, default=40, help="save at most this many new seeds per run")
    ap.add_argument("--timeout", type=float, help="seconds per run (default 20, 60 for ASan)")
    ap.add_argument("--max-rss-mb", type=int, default=64, help="peak RSS budget (plain binaries)")
    ap.add_argument("--as-limit-mb", type=int, default=1024, help="memory cap (prlimit --as, or ASan's limits)")
    ap.add_argument("--asan", dest="asan", action="store_true", default=None,
                    help="treat the binary as ASan-instrumented (default: detect)")
    ap.add_argument("--no-asan", dest="asan", action="store_false")
    ap.add_argument("--only-input", action="append", help="only inputs whose name contains this")
    ap.add_argument("--only-mutator", action="append", help="only these mutators")
    ap.add_argument("--work", help="scratch folder (default: a temporary one, removed)")
    ap.add_argument("--editcap", default="editcap")
    ap.add_argument("--mergecap", default="mergecap")
    ap.add_argument("--log", help="write one tab-separated line per mutant here")
    ap.add_argument("--progress", type=int, default=0, help="print a progress line every N mutants")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="a line per mutant, and exit codes per mutator at the end")
    a = ap.parse_args()

    for tool in (a.editcap, a.mergecap):
        if shutil.which(tool) is None:
            print("campaign: SKIP: %s not found (Wireshark command-line tools)" % tool)
            return SKIP
    if not os.access(a.lint, os.X_OK):
        print("campaign: %s is not an executable" % a.lint)
        return 2
    t0 = time.monotonic()
    work = a.work or tempfile.mkdtemp(prefix="hostile-")
    os.makedirs(work, exist_ok=True)
    if a.plugin:
        os.chmod(work, 0o755)
    runner = Runner(a, work, a.jobs)
    if not runner.asan and shutil.which("prlimit") is None:
        print("campaign: prlimit (util-linux) not found")
        return 2
    if a.keep:
        os.makedirs(a.keep, exist_ok=True)
    fails = collections.Counter()
    failures = []
    rcs = collections.Counter()
    stats = {"max_rss": (0, "-"), "max_wall": (0.0, "-"), "runs": 0}
    replays = [0]
    lock = threading.Lock()
    log = open(a.log, "w") if a.log else None
    if log:
        log.write("input\tmutator\tseed\tmode\trc\trss_kib\twall_s\tkind\n")

    def record(label, res):
        with lock:
            stats["runs"] += 1
            rcs[res["rc"]] += 1
            if res["rss_kb"] > stats["max_rss"][0]:
                stats["max_rss"] = (res["rss_kb"], label)
            if res["wall"] > stats["max_wall"][0]:
                stats["max_wall"] = (res["wall"], label)

    try:
        # 1. Replay the regression seeds: each must pass once its bug is fixed.
        seeds = seed_files(a.seeds_dir)
        for s in ([] if a.agent else seeds):
            for mode in (TSHARK_MODES if a.plugin else seed_modes(s)):
                res = runner.run(s, mode)
                record(os.path.basename(s), res)
                replays[0] += 1
                if res["kind"]:
                    fails["replay-" + res["kind"]] += 1
                    failures.append("seed %s (%s): %s, exit %d" % (s, mode, res["kind"], res["rc"]))
                    print("FAIL seed %s [%s]: %s, exit %d\n%s" % (s, mode, res["kind"], res["rc"],
                                                                  indent(res["stderr"], 40)))
        # 2. Inputs and their views.
        inputs = sample_inputs(a.samples) if a.samples else []
        if a.agent:
            # captures the agent recorded, each read with its own manifests
            kept = []
            for inp in inputs:
                mf = [inp.path + ".manifest", os.path.splitext(inp.path)[0] + ".serve.manifest"]
                inp.manifests = [m for m in mf if os.path.exists(m)]
                if inp.manifests:
                    kept.append(inp)
            inputs = kept
        if a.pcapgen:
            gen_dir = os.path.join(work, "gen")
            os.makedirs(gen_dir, exist_ok=True)
            inputs += generated_inputs(a.pcapgen, a.scenarios, gen_dir)
        if a.only_input:
            inputs = [i for i in inputs if any(s in i.name for s in a.only_input)]
        if not inputs:
            print("campaign: no inputs")
            return 2
        views_dir = os.path.join(work, "views")
        os.makedirs(views_dir, exist_ok=True)
        for inp in inputs:
            inp.views = mutate.Views(inp.path, views_dir, a.editcap, name=inp.name)
        # 3. The mutants, in a deterministic order.
        tasks = []
        for inp in inputs:
            cycle = mutate.schedule(inp.views)
            if a.only_mutator:
                cycle = [m for m in cycle if m in a.only_mutator]
            if not cycle:
                continue
            start = mutate.derive_seed(a.seed, inp.name, "cycle") % len(cycle)
            for i in range(a.per_sample):
                tasks.append((inp, cycle[(start + i) % len(cycle)],
                              mutate.derive_seed(a.seed, inp.name, i),
                              mode_for(i, bool(a.plugin), bool(a.agent), runner.asan)))
        mut_dir = os.path.join(work, "mutants")
        os.makedirs(mut_dir, exist_ok=True)
        os.chmod(mut_dir, 0o755)
        saved = [0]
        done = [0]
        per_mutator = collections.Counter()

        def one(task):
            inp, mut, seed, mode = task
            try:
                data, fmt, notes = mutate.make_mutant(inp.views, mut, seed, mut_dir, a.editcap, a.mergecap)
            except Exception as e:    # a mutator bug is ours, not ulb-lint's: report, go on
                with lock:
                    fails["mutator-error"] += 1
                    failures.append("mutator %s on %s seed %d raised %r" % (mut, inp.name, seed, e))
                return
            path = os.path.join(a.keep or mut_dir, "%s__%s__s%d.%s" % (inp.name, mut, seed, fmt))
            with open(path, "wb") as f:
                f.write(data)
            del data
            res = runner.run(path, mode, getattr(inp, "manifests", ()))
            label = "%s %s seed %d (%s)" % (inp.name, mut, seed, mode)
            record(label, res)
            with lock:
                per_mutator[(mut, res["rc"])] += 1
                done[0] += 1
                if log:
                    log.write("%s\t%s\t%d\t%s\t%d\t%d\t%.3f\t%s\n" % (
                        inp.name, mut, seed, mode, res["rc"], res["rss_kb"], res["wall"], res["kind"] or "-"))
                if a.progress and done[0] % a.progress == 0:
                    print("progress: %d/%d mutants, %d failures, max RSS %.1f MiB, %.0f s" % (
                        done[0], len(tasks), sum(fails.values()), stats["max_rss"][0] / 1024.0,
                        time.monotonic() - t0))
                    sys.stdout.flush()
            if a.verbose:
                print("%-60s rc %d %.1f MiB %.2f s" % (label, res["rc"], res["rss_kb"] / 1024.0, res["wall"]))
            if res["kind"]:
                dst = None
                with lock:
                    fails[res["kind"]] += 1
                    if not a.no_save and saved[0] < a.max_saved:
                        saved[0] += 1
                        dst = save_seed(a.seeds_dir, path, inp, mut, seed, mode, res, notes, fmt)
                    failures.append("%s: %s, exit %d%s" % (label, res["kind"], res["rc"],
                                                           " -> " + dst if dst else ""))
                    print("FAIL %s: %s, exit %d, %.1f MiB%s\n%s" % (
                        label, res["kind"], res["rc"], res["rss_kb"] / 1024.0,
                        " -> " + dst if dst else "", indent(res["stderr"], 40)))
                    sys.stdout.flush()
            if not a.keep:
                os.unlink(path)

        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
            list(ex.map(one, tasks))
    finally:
        runner.close()
        if log:
            log.close()
        if not a.work:
            shutil.rmtree(work, ignore_errors=True)

    wall = time.monotonic() - t0
    nfail = sum(fails.values())
    if failures:
        print("failures:")
        for f in failures:
            print("  " + f)
    if a.verbose:
        # Which mutators get past the reader (0/1) and which it rejects (2).
        for mut in sorted(set(m for m, _ in per_mutator)):
            print("  %-24s %s" % (mut, " ".join("rc%d:%d" % (rc, n) for (m, rc), n in
                                               sorted(per_mutator.items()) if m == mut)))
    extra = tuple(sorted(set(fails) - set(KINDS)))
    kinds = ", ".join("%s %d" % (k, fails[k]) for k in KINDS + extra)
    print("hostile: %d mutants of %d inputs + %d seed replays (%s, %s); exit codes %s; "
          "failures %d (%s); max RSS %.1f MiB [%s]; slowest %.2f s [%s]; %.0f s" % (
              len(tasks), len(inputs), replays[0],
              "tshark + " + os.path.basename(a.plugin) if a.plugin else
              (os.path.basename(a.agent) + " verify") if a.agent else os.path.basename(a.lint),
              "ASan" if runner.asan else "plain",
              " ".join("%d:%d" % (k, v) for k, v in sorted(rcs.items())),
              nfail, kinds, stats["max_rss"][0] / 1024.0, stats["max_rss"][1],
              stats["max_wall"][0], stats["max_wall"][1], wall))
    return 1 if nfail else 0


def indent(text, maxlines):
    lines = text.rstrip("\n").split("\n")
    if len(lines) > maxlines:
        lines = lines[:maxlines] + ["[... %d more lines]" % (len(lines) - maxlines)]
    return "\n".join("    | " + l for l in lines)


if __name__ == "__main__":
    sys.exit(main())
