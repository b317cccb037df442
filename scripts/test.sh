#!/usr/bin/env bash
# The whole test suite, from a fresh Debian 12 machine (docs/testing.md):
#   1. installs the build and test dependencies (scripts/install-deps.sh),
#   2. builds ulb-lint profile-guided (scripts/pgo-train.sh trains an
#      instrumented one on the bundled captures first), builds everything,
#      and runs every test but the live, package and lab-kernels ones,
#   3. builds again with AddressSanitizer + UndefinedBehaviorSanitizer and
#      runs the sample labelled `asan` there: every unit test, every rule on
#      one InfiniBand, one RoCE and one iWARP link, every link type's ground
#      truth, the short hostile campaign, the fuzz seed replays, the agent's
#      verify (with --full: every test the release build ran but those that
#      run tshark); then builds ulb-lint with ThreadSanitizer and runs the
#      tests labelled `tsan` (ulb-lint --jobs, whose workers are threads),
#   4. with clang present, runs each libFuzzer harness for 15 s,
#   5. as root, runs the live tier on one boot of three QEMU guests (~6 min
#      with the image cached, ~4 min more building it): the lab's NFS capture
#      (rxe, NFSv4.1, reduced workload) with the real-capture checks, the live
#      agent's quick runs and the proxy's relay check.
# Each stage prints its wall time as it ends; a table of every stage and the
# total ends the run, a failed one too (as far as it got).
# Options: --no-deps (skip 1), --no-pgo (2 without the profile: a faster
#          build, a slower ulb-lint), --no-sanitize (skip 3), --full (3 on the whole
#          suite, ~8 min more), --no-fuzz (skip 4), --no-live (skip 5),
#          --live-full (5 with every transport and NFS version, ~15 min more),
#          --package (also the Debian package test: cpack, installed in a
#          clean Debian 12 chroot; 2-6 min).
set -euo pipefail
cd "$(dirname "$0")/.."
deps=1 pgo=1 sanitize=1 full=0 fuzz=1 live=quick package=0
for a in "$@"; do
  case "$a" in
    --no-deps) deps=0 ;;
    --no-pgo) pgo=0 ;;
    --no-sanitize) sanitize=0 ;;
    --full) full=1 ;;
    --no-fuzz) fuzz=0 ;;
    --no-live) live=no ;;
    --package) package=1 ;;
    --live-full) live=full ;;
    *) echo "test.sh: unknown option $a" >&2; exit 2 ;;
  esac
done
jobs=$(nproc 2>/dev/null || echo 2)

# Stage bookkeeping: stage NAME starts a stage and ends the one before it.
names=() secs=() states=()
current="" t_stage=0 t_start=$(date +%s)
mmss() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }
end_stage() {
  [ -n "$current" ] || return 0
  local s=$(($(date +%s) - t_stage))
  names+=("$current") secs+=("$s") states+=("$1")
  printf '== %s: %s (%s)\n' "$current" "$(mmss "$s")" "$1"
  current=""
}
stage() { end_stage passed; current=$1; t_stage=$(date +%s); printf '\n== %s ==\n' "$1"; }
note() { end_stage passed; names+=("$1") secs+=(0) states+=(skipped); printf '\n== %s: skipped\n' "$1"; }
summary() {
  local rc=$? i
  end_stage "$([ "$rc" = 0 ] && echo passed || echo FAILED)"
  printf '\n%-48s %8s  %s\n' "stage" "time" "result"
  for i in "${!names[@]}"; do
    printf '%-48s %8s  %s\n' "${names[$i]}" \
      "$([ "${states[$i]}" = skipped ] && echo - || mmss "${secs[$i]}")" "${states[$i]}"
  done
  printf '%-48s %8s  %s\n' "total" "$(mmss $(($(date +%s) - t_start)))" \
    "$([ "$rc" = 0 ] && echo "all stages passed" || echo "FAILED (exit $rc)")"
}
trap summary EXIT

if [ "$deps" = 1 ]; then
  stage "dependencies"
  if [ "$live" != no ]; then scripts/install-deps.sh --lab; else scripts/install-deps.sh; fi
else
  note "dependencies (--no-deps)"
fi

# lab-kernels: the lab on newer kernels, an hour and more (docs/lab.md).
exclude="live|package|lab-kernels"
[ "$package" = 1 ] && exclude="live|lab-kernels"
if [ "$pgo" = 1 ]; then
  # ulb-lint profile-guided, as its speed figures are measured (README, "Speed"): an
  # instrumented build trained on the bundled captures first; without a profile, a plain one.
  stage "profile for ulb-lint (instrumented, trained)"
  profile=$(scripts/pgo-train.sh --like build build-pgo) ||
    { echo "test.sh: no profile: ulb-lint is built without profile-guided optimisation" >&2; profile=; }
else
  profile=
  note "profile-guided optimisation (--no-pgo)"
fi
stage "build (RelWithDebInfo$([ -n "$profile" ] && echo ", profile-guided"))"
cmake -S . -B build -DRR_WERROR=ON -DRR_PGO_USE="$profile" >/dev/null
cmake --build build -j"$jobs"
stage "tests (release)"
(cd build && ctest --output-on-failure -j"$jobs" -LE "$exclude")

if [ "$sanitize" = 1 ]; then
  stage "build with ASan + UBSan"
  cmake -S . -B build-asan -DRR_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
  cmake --build build-asan -j"$jobs"
  sel=(-L asan)
  # no-sanitize: RSS bounds (the quarantine grows RSS) and helpers built without the sanitizer runtime.
  [ "$full" = 1 ] && sel=(-LE "live|tshark|package|lab-kernels|no-sanitize")
  stage "tests under ASan + UBSan ($([ "$full" = 1 ] && echo "whole suite" || echo "label asan"))"
  (cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
     ctest --output-on-failure -j"$jobs" "${sel[@]}")
  # ulb-lint --jobs runs worker threads: the tests labelled tsan run its splits under ThreadSanitizer
  # (glib's slab allocator hands memory between threads where TSan cannot see it: plain malloc instead).
  stage "build with ThreadSanitizer (ulb-lint, rpcrdma-pcapgen)"
  cmake -S . -B build-tsan -DRR_TSAN=ON >/dev/null
  cmake --build build-tsan -j"$jobs" --target ulb-lint rpcrdma-pcapgen jobs_file_shim
  stage "tests under ThreadSanitizer (label tsan)"
  (cd build-tsan && G_SLICE=always-malloc TSAN_OPTIONS=halt_on_error=1:exitcode=66 \
     ctest --output-on-failure -j"$jobs" -L tsan)
else
  note "ASan + UBSan, ThreadSanitizer (--no-sanitize)"
fi

if [ "$fuzz" = 1 ] && command -v clang >/dev/null; then
  stage "build libFuzzer harnesses (clang, ASan)"
  CC=clang cmake -S . -B build-fuzz -DRR_FUZZ=ON -DRR_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
  cmake --build build-fuzz -j"$jobs" --target fuzz-hdr fuzz-ulp fuzz-capture
  stage "libFuzzer harnesses (15 s each)"
  (cd build-fuzz && ctest --output-on-failure -j"$jobs" -R '^fuzz_run_')
else
  note "libFuzzer harnesses ($([ "$fuzz" = 1 ] && echo "no clang" || echo "--no-fuzz"))"
fi

if [ "$live" != no ]; then
  if [ "$(id -u)" -ne 0 ]; then
    note "live (needs root)"
  elif [ "$live" = full ]; then
    stage "live: lab and agent, every transport"
    (cd build && ctest --output-on-failure -L live)
  else
    stage "live: lab, agent and proxy quick (one boot)"
    (cd build && ctest --output-on-failure -R '^live_quick$')
  fi
else
  note "live (--no-live)"
fi
