#!/usr/bin/env bash
# Profile-guided optimisation, its first half: builds an instrumented
# ulb-lint in TREE (default build-pgo), runs it on the bundled captures, one
# thread and --jobs 2, and leaves the profile in TREE/profile.  Configure the
# optimised tree with -DRR_PGO_USE=<that folder> afterwards, from the same
# sources, generator and build type (cmake/RrPgo.cmake says why; scripts/test.sh
# does both).  Prints the folder on stdout; exit 1, saying why on stderr, when
# it could not make a profile (the one there before, if any, is left as it was).
#
#   usage: scripts/pgo-train.sh [--like BUILD] [--generator G] [--build-type T] [TREE]
#
# --like BUILD takes the generator and build type of the tree BUILD when it
# has been configured (else the defaults: $CMAKE_GENERATOR or cmake's, and
# $CMAKE_BUILD_TYPE or RelWithDebInfo); --generator and --build-type set them.
# TREE is this script's alone: it is configured over, from scratch when its
# generator changes.
#
# The training set: every bundled capture of real traffic
# (sample-pcaps/real, Linux NFS over rxe and siw, with the kernel folders),
# every capture of the agent's runs (sample-pcaps/agent: injected faults,
# DDP, the reverse direction) and the traffic that is not RDMA
# (sample-pcaps/other: HTTP cut by a snaplen, UDP).
set -euo pipefail
self=$(realpath "$0")
usage() { echo "pgo-train.sh: $1" >&2; grep -m1 '^#   usage:' "$self" | sed 's/^# *//' >&2; exit 2; }
fail() { echo "pgo-train.sh: $*" >&2; exit 1; }
tree=build-pgo generator=${CMAKE_GENERATOR:-} build_type=${CMAKE_BUILD_TYPE:-RelWithDebInfo}
while [ $# -gt 0 ]; do
  case "$1" in
    --like)
      [ $# -ge 2 ] || usage "--like needs a build tree"
      cache=$2/CMakeCache.txt
      if [ -f "$cache" ]; then
        generator=$(sed -n 's/^CMAKE_GENERATOR:INTERNAL=//p' "$cache")
        build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$cache")
        build_type=${build_type:-RelWithDebInfo}
      elif [ -e "$2" ]; then
        usage "--like $2: not a configured build tree (no CMakeCache.txt)"
      fi
      shift 2 ;;
    --generator) [ $# -ge 2 ] || usage "--generator needs a name"; generator=$2; shift 2 ;;
    --build-type) [ $# -ge 2 ] || usage "--build-type needs a type"; build_type=$2; shift 2 ;;
    -*) usage "unknown option $1" ;;
    *) tree=$1; shift ;;
  esac
done
mkdir -p "$tree"
tree=$(cd "$tree" && pwd)      # as the caller named it, before going to the sources
cd "$(dirname "$self")/.."
if [ -f "$tree/CMakeCache.txt" ]; then
  grep -q '^RR_PGO_GENERATE:PATH=..*' "$tree/CMakeCache.txt" ||
    fail "$tree is a build tree of another kind (no RR_PGO_GENERATE): give the training a tree of its own"
  old=$(sed -n 's/^CMAKE_GENERATOR:INTERNAL=//p' "$tree/CMakeCache.txt")
  if [ -n "$generator" ] && [ "$old" != "$generator" ]; then
    rm -rf "$tree/CMakeCache.txt" "$tree/CMakeFiles"      # cmake keeps a tree's generator for good
  fi
fi
profile=$tree/profile
fresh=$tree/profile.new        # trained here; it replaces $profile only once the training has worked
jobs=$(nproc 2>/dev/null || echo 2)
log=$tree/pgo-train.log

rm -rf "$fresh"
gen=()
[ -n "$generator" ] && gen=(-G "$generator")
{
  cmake "${gen[@]}" -S . -B "$tree" -DCMAKE_BUILD_TYPE="$build_type" -DRR_PGO_GENERATE="$fresh" \
    -DRR_PGO_USE= -DBUILD_TESTING=OFF &&
  cmake --build "$tree" -j"$jobs" --target ulb-lint
} >"$log" 2>&1 || { tail -20 "$log" >&2; fail "the instrumented build failed (log: $log)"; }
"$tree/bin/ulb-lint" --version | grep -q "instrumented for profiling" || {
  grep -A2 "profile-guided optimisation is off" "$log" >&2 || true
  fail "$tree/bin/ulb-lint is not instrumented (the configure log $log says why)"
}

shopt -s nullglob
captures=(sample-pcaps/real/*.pcap sample-pcaps/real/*/*.pcap sample-pcaps/agent/*.pcap
          sample-pcaps/agent/*/*.pcap sample-pcaps/other/*.pcap)
[ ${#captures[@]} -gt 0 ] || fail "no bundled captures under sample-pcaps/"
# Findings (exit 1) and captures it cannot read (exit 2) are no failure:
# only a crash (a signal) is a failure.
run() {
  local rc=0
  "$tree/bin/ulb-lint" "$@" >/dev/null 2>>"$log" || rc=$?
  [ "$rc" -lt 128 ] || fail "ulb-lint $* died of signal $((rc - 128))"
}
for c in "${captures[@]}"; do
  run --no-progress "$c"
done
run --no-progress --format json sample-pcaps/real/*.pcap
for c in sample-pcaps/real/*.pcap sample-pcaps/real/*/*.pcap; do
  run --no-progress -j 2 "$c"
done
n=$(find "$fresh" -name '*.gcda' | wc -l)
[ "$n" -gt 0 ] && [ -f "$fresh/rr-pgo.txt" ] || fail "the training wrote no profile to $fresh"
rm -rf "$profile"
mv "$fresh" "$profile"
echo "pgo-train.sh: ${#captures[@]} captures, $n profile files in $profile ($(sed -n 's/^generator=//p' "$profile/rr-pgo.txt"), $build_type)" >&2
echo "$profile"
