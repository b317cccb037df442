#!/usr/bin/env bash
# The whole test suite, from a fresh Debian 12 machine:
#   1. installs the build and test dependencies (scripts/install-deps.sh),
#   2. builds and runs every test (unit, generated-capture ground truth,
#      Wireshark cross-check, real captures, fuzz corpus),
#   3. builds again with AddressSanitizer + UndefinedBehaviorSanitizer and
#      runs the suite again,
#   4. with clang present, runs each libFuzzer harness for a short while,
#   5. as root, runs the live tier: the QEMU lab (rxe, NFSv4.1, reduced
#      workload; ~2 min with its image cached, ~6 min building it) and the
#      real-capture checks on its fresh captures.
# Options: --no-deps (skip step 1), --no-sanitize (skip 3), --no-fuzz (skip 4),
#          --package (also the Debian package test: cpack, installed in a clean
#          Debian 12 chroot; 2-6 min, left out by default to keep CI under 40 min),
#          --no-live (skip 5), --live-full (step 5 with every transport and
#          NFS version, ~15 min more).
set -euo pipefail
cd "$(dirname "$0")/.."
deps=1 sanitize=1 fuzz=1 live=quick package=0
for a in "$@"; do
  case "$a" in
    --no-deps) deps=0 ;;
    --no-sanitize) sanitize=0 ;;
    --no-fuzz) fuzz=0 ;;
    --no-live) live=no ;;
    --package) package=1 ;;
    --live-full) live=full ;;
    *) echo "test.sh: unknown option $a" >&2; exit 2 ;;
  esac
done
jobs=$(nproc 2>/dev/null || echo 2)
if [ "$deps" = 1 ]; then
  if [ "$live" != no ]; then scripts/install-deps.sh --lab; else scripts/install-deps.sh; fi
fi

step() { printf '\n== %s ==\n' "$*"; }
exclude="-LE live"
[ "$package" = 1 ] || exclude="-LE live|package"

step "build (RelWithDebInfo)"
cmake -S . -B build -DRR_WERROR=ON >/dev/null
cmake --build build -j"$jobs"
step "tests"
(cd build && ctest --output-on-failure -j"$jobs" $exclude)

if [ "$sanitize" = 1 ]; then
  step "build with ASan + UBSan"
  cmake -S . -B build-asan -DRR_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
  cmake --build build-asan -j"$jobs"
  step "tests under ASan + UBSan"
  (cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
     ctest --output-on-failure -j"$jobs" -LE "live|tshark|package")
fi

if [ "$fuzz" = 1 ] && command -v clang >/dev/null; then
  step "libFuzzer harnesses (clang, ASan + UBSan, 20 s each)"
  CC=clang cmake -S . -B build-fuzz -DRR_FUZZ=ON -DRR_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
  cmake --build build-fuzz -j"$jobs" --target fuzz-hdr fuzz-ulp fuzz-capture
  (cd build-fuzz && ctest --output-on-failure -R '^fuzz_run_')
fi
if [ "$live" != no ]; then
  if [ "$(id -u)" -ne 0 ]; then
    step "live tier skipped: the QEMU lab needs root"
  else
    step "live tier: QEMU lab ($live) and checks of its fresh captures"
    sel="-R ^live_(lab|agent)_quick$"
    [ "$live" = full ] && sel="-L live"
    (cd build && ctest --output-on-failure $sel)
  fi
fi
step "all test stages passed"
