#!/usr/bin/env bash
# The main job on a bundled sample capture, from a fresh Debian 12 machine:
# installs the dependencies, builds ulb-lint (profile-guided, as scripts/test.sh
# does), and checks sample-pcaps/real/nfs3-rxe.pcap
# (real Linux NFSv3 over soft-RoCE, with its NFSACL failures) against RFC 8166
# and RFC 8267 with ulb-lint --summary.  Pass another capture, --format json,
# or --dump (one record per rebuilt RPC message) to change it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# Built as scripts/test.sh builds it, profile-guided (README, "Layout"); without the profile if its training fails.
profile=$(scripts/pgo-train.sh --like build build-pgo 2>/dev/null) ||
  { echo "demo.sh: no profile: ulb-lint is built without profile-guided optimisation" >&2; profile=; }
cmake -S . -B build -DRR_PGO_USE="$profile" >/dev/null
cmake --build build -j"$(nproc 2>/dev/null || echo 2)" --target ulb-lint >/dev/null
capture=sample-pcaps/real/nfs3-rxe.pcap
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --format) args+=("$1" "${2:?--format needs text or json}"); shift 2 ;;
    -*) args+=("$1"); shift ;;
    *) capture="$1"; shift ;;
  esac
done
[[ " ${args[*]} " == *" --dump "* ]] || args+=(--summary)
exec build/bin/ulb-lint "${args[@]}" "$capture"
