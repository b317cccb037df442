#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Run every scenario on every link type, with and without the connection
# handshake. Each run must succeed, write a capture and a truth file, and
# be byte-for-byte reproducible. Also checks that scenario errors exit 2
# with "file:line: message".
# usage: run_matrix.sh PATH/TO/rpcrdma-pcapgen SCENARIO_DIR [LINK...]
# (every link type unless some are given)
set -u
gen=$1
dir=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

links=$("$gen" --list-links) || { echo "FAIL: --list-links"; exit 1; }
[ $# -gt 0 ] && links="$*"
for scn in "$dir"/*.scn; do
	for link in $links; do
		for hs in --handshake --no-handshake; do
			a="$tmp/a.pcap" b="$tmp/b.pcap"
			if ! "$gen" "$scn" --link "$link" $hs -o "$a" --truth "$a.json" 2>"$tmp/err"; then
				bad "$(basename "$scn") $link $hs: $(cat "$tmp/err")"
				continue
			fi
			if [ ! -s "$a" ] || [ ! -s "$a.json" ]; then
				bad "$(basename "$scn") $link $hs: empty output"
				continue
			fi
			# reproducibility: once per scenario and link is enough
			if [ "$hs" = --no-handshake ]; then
				ok
				continue
			fi
			"$gen" "$scn" --link "$link" $hs -o "$b" --truth "$b.json" 2>/dev/null
			if ! cmp -s "$a" "$b" || ! cmp -s "$a.json" "$b.json"; then
				bad "$(basename "$scn") $link $hs: output not deterministic"
			else
				ok
			fi
		done
	done
done

# Scenario errors: exit status 2 and a file:line: prefix.
expect_error() {
	local name=$1 text=$2 line=$3
	printf '%b' "$text" >"$tmp/$name.scn"
	"$gen" "$tmp/$name.scn" -o "$tmp/e.pcap" --truth "$tmp/e.json" 2>"$tmp/err"
	local rc=$?
	if [ $rc -eq 2 ] && grep -q "^$tmp/$name.scn:$line: " "$tmp/err"; then
		ok
	else
		bad "error case $name: rc=$rc, stderr: $(cat "$tmp/err")"
	fi
}
expect_error unknown-directive 'seed 1\nfrobnicate 3\n' 2
expect_error bad-link '\n\nlink token-ring\n' 3
expect_error huge-read 'rpc 3 READ len=999999999\n' 1
expect_error too-many-segs 'rpc 3 WRITE len=100 call=read:65\n' 1
expect_error no-ddp-item 'rpc 3 GETATTR call=read:1\n' 1
expect_error segs-over-data 'rpc 3 SYMLINK len=2 call=read:3\n' 1
expect_error inline-too-big 'rpc 3 READ len=20000\n' 1
expect_error bad-mtu 'mtu 1500\nrpc 3 NULL\n' 1
expect_error seq-v40 'rpc 4.0 COMPOUND ops=SEQUENCE,PUTFH\n' 1
expect_error cb-v3 'cb 3 NULL\n' 1
expect_error cb-seq-v40 'cb 4.0 COMPOUND ops=CB_SEQUENCE,CB_RECALL\n' 1
expect_error bad-profile 'profile rfc1831\n' 1
expect_error inject-first 'inject bad-vers\n' 1
expect_error inject-unknown 'rpc 3 NULL\ninject launch-missiles\n' 2
expect_error none-pipelined 'rpc 3 NULL reply=none pipeline=on\n' 1
expect_error none-and-error 'rpc 3 NULL reply=none+error-chunk\n' 1
expect_error reply-size-no-chunk 'rpc 3 READDIR reply-size=100\n' 1
expect_error reply-size-small 'seed 3\nrpc 3 READDIR len=50 reply=reply:1 reply-size=64\n' 2
expect_error acl-proc 'rpc acl SETATTR\n' 1
expect_error cb-chunks 'cb 4.1 NULL reply=reply:1\n' 1
expect_error bind-v40 'rpc 4.0 COMPOUND ops=BIND_CONN_TO_SESSION\n' 1
expect_error bad-expect 'expect maybe\n' 1

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
