#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A stand-in for iproute2's rdma(8) (and, called as "modprobe", for
# modprobe(8)) in the agent_setup tests: it logs its arguments to
# $FAKE_RDMA_LOG and keeps RDMA devices as folders of the fake sysfs tree
# $RPCRDMA_AGENT_SYSFS, shaped like the kernel's:
#   class/infiniband/NAME/ports/1/gid_attrs/ndevs/0   rxe: the netdev
#   class/infiniband/NAME/.netdev                     siw: only `rdma -j link show` knows it
# FAKE_RDMA_DB: where `-j link show` looks for NAME/.netdev instead (a
# kernel whose sysfs the agent cannot see).
# FAKE_RDMA_FAIL_ADD / FAKE_RDMA_FAIL_DELETE=TEXT: fail with "error: TEXT".
log=${FAKE_RDMA_LOG:-/dev/null}
sys=${RPCRDMA_AGENT_SYSFS:?RPCRDMA_AGENT_SYSFS must name the fake sysfs}
cls=$sys/class/infiniband

if [ "$(basename "$0")" = modprobe ]; then
	echo "modprobe $*" >>"$log"
	mkdir -p "$sys/module/$1"
	exit 0
fi
echo "rdma $*" >>"$log"
case "$1 $2" in
"link add")
	name=$3 type=$5 netdev=$7
	if [ -n "${FAKE_RDMA_FAIL_ADD:-}" ]; then
		echo "error: $FAKE_RDMA_FAIL_ADD" >&2
		exit 255
	fi
	if [ -e "$cls/$name" ]; then
		echo "error: File exists" >&2
		exit 255
	fi
	mkdir -p "$cls/$name"
	if [ "$type" = rxe ]; then
		mkdir -p "$cls/$name/ports/1/gid_attrs/ndevs"
		echo "$netdev" >"$cls/$name/ports/1/gid_attrs/ndevs/0"
	else
		echo "$netdev" >"$cls/$name/.netdev"
	fi
	exit 0 ;;
"link delete")
	if [ -n "${FAKE_RDMA_FAIL_DELETE:-}" ]; then
		echo "error: $FAKE_RDMA_FAIL_DELETE" >&2
		exit 255
	fi
	if [ ! -d "$cls/$3" ]; then
		echo "Wrong device name" >&2
		exit 255
	fi
	rm -rf "${cls:?}/$3"
	exit 0 ;;
"-j link")
	# -j link show DEV/1
	dev=${4%/1}
	db=${FAKE_RDMA_DB:-$cls}
	if [ "$3" = show ] && [ -f "$db/$dev/.netdev" ]; then
		printf '[{"ifindex":7,"ifname":"%s","port":1,"state":"ACTIVE","physical_state":"LINK_UP","netdev":"%s","netdev_index":2}]\n' \
			"$dev" "$(cat "$db/$dev/.netdev")"
		exit 0
	fi
	echo "Wrong device name" >&2
	exit 255 ;;
esac
echo "fake rdma: unexpected arguments: $*" >&2
exit 99
