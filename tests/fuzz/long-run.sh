#!/usr/bin/env bash
# The long libFuzzer run: each harness until it has used CPU_SECONDS of CPU
# (default one hour), all harnesses side by side at low priority, then what the
# run found that adds coverage merged (minimised) into tests/fuzz/corpus/<harness>/.
#
#   tests/fuzz/long-run.sh [CPU_SECONDS] [harness ...]
#
# Builds build-fuzzlong/ (clang, ASan + UBSan, libFuzzer).  Prints, per
# harness: runs, coverage edges and features, CPU time.  Crashes, leaks,
# timeouts and OOMs are kept in build-fuzzlong/work-<h>/artifacts/ and fail
# the run.
set -euo pipefail
cd "$(dirname "$0")/../.."
cpu=${1:-3600}
shift || true
harnesses=${*:-"hdr ulp capture"}
out=build-fuzzlong
CC=clang cmake -S . -B $out -DRR_FUZZ=ON -DRR_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
for h in $harnesses; do cmake --build $out -j"$(nproc)" --target fuzz-$h >/dev/null; done

cpu_of() {   # user+system seconds of a pid (and its threads)
	awk -v hz="$(getconf CLK_TCK)" '{ print int(($14 + $15) / hz) }' /proc/"$1"/stat 2>/dev/null || echo 0
}

declare -A pid
for h in $harnesses; do
	w=$out/work-$h
	mkdir -p "$w/corpus" "$w/artifacts"
	nice -n 19 $out/bin/fuzz-$h -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
		-artifact_prefix="$w/artifacts/" "$w/corpus" tests/fuzz/corpus/$h >"$w/log" 2>&1 &
	pid[$h]=$!
done
start=$(date +%s)
while :; do
	alive=0
	for h in $harnesses; do
		p=${pid[$h]}
		[ -d /proc/$p ] || continue
		alive=1
		[ "$(cpu_of "$p")" -ge "$cpu" ] && kill -INT "$p"
	done
	[ $alive = 1 ] || break
	sleep 10
done
status=0
for h in $harnesses; do
	w=$out/work-$h
	wait "${pid[$h]}" || true
	if ls "$w/artifacts/" | grep -q .; then
		echo "fuzz-$h: FINDINGS in $w/artifacts/"; status=1
	fi
	runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$w/log" | awk '{print $2}')
	cov=$(grep -oE '#[0-9]+.*cov: [0-9]+ ft: [0-9]+' "$w/log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+')
	echo "fuzz-$h: runs ${runs:-?}, ${cov:-?}, CPU ${cpu}s target, wall $(( $(date +%s) - start ))s"
	# Keep the named seeds; add what the run found that covers more.
	$out/bin/fuzz-$h -merge=1 -rss_limit_mb=2048 -timeout=10 tests/fuzz/corpus/$h \
		"$w/corpus" >"$w/merge.log" 2>&1
	echo "fuzz-$h: minimised corpus $(ls tests/fuzz/corpus/$h | wc -l) files, $(du -sk tests/fuzz/corpus/$h | cut -f1) KiB"
done
exit $status
