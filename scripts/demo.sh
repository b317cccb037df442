#!/usr/bin/env bash
# The main job on a bundled sample capture, from a fresh Debian 12 machine:
# installs the dependencies, builds, and rebuilds every RPC message of
# sample-pcaps/nfs41-rxe.pcap (real Linux NFSv4.1 over soft-RoCE) with
# ulb-lint --dump.  Pass another capture and/or --format json to change it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build >/dev/null
cmake --build build -j"$(nproc 2>/dev/null || echo 2)" --target ulb-lint >/dev/null
capture=sample-pcaps/real/nfs41-rxe.pcap
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --format) args+=("$1" "${2:?--format needs text or json}"); shift 2 ;;
    -*) args+=("$1"); shift ;;
    *) capture="$1"; shift ;;
  esac
done
exec build/bin/ulb-lint --dump "${args[@]}" "$capture"
