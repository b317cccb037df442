#!/bin/bash
# nfs-phase.sh PHASE VERS SERVER_IP TAG : one bounded workload phase on the client.
# Mount point /mnt/lab; this mount's private work folder is /mnt/lab/w-TAG.
set -euxo pipefail
phase=$1 vers=$2 ip=$3 tag=$4
m=/mnt/lab w=/mnt/lab/w-$tag
drop() { sync; echo 3 >/proc/sys/vm/drop_caches; }

case $phase in
mount)
    mkdir -p "$m"
    mount -t nfs -o "vers=$vers,proto=rdma,port=20049" "$ip:/srv/export" "$m"
    grep " $m " /proc/mounts
    rm -rf "$w"; mkdir -p "$w" ;;
rw)  # small and large O_DIRECT WRITE and READ, plus a small page-cache READ.
     # Large: one 1 MiB WRITE (4 x 256 KiB, the negotiated wsize) and a 512 KiB READ
     # (2 x 256 KiB rsize) of it: big enough for multi-segment chunks, small enough
     # that 8 captures stay under 30 MB.
    head -c 4096 /dev/urandom >/tmp/4k
    head -c 1048576 /dev/urandom >/tmp/1m
    dd if=/tmp/4k of="$w/small.dat" bs=4k count=1 oflag=direct
    dd if="$w/small.dat" of=/tmp/4k.back bs=4k count=1 iflag=direct
    dd if=/tmp/1m of="$w/large.dat" bs=1M count=1 oflag=direct
    dd if="$w/large.dat" of=/tmp/half.back bs=512k count=1 iflag=direct
    cmp /tmp/4k /tmp/4k.back; cmp -n 524288 /tmp/1m /tmp/half.back
    drop; cat "$m/small.txt" ;;
readdir)  # 2000-entry directory: names (ls -f), then names + attributes (find -printf:
          # READDIRPLUS attributes, no per-file ACL/xattr look-ups as with ls -l)
    n=$(ls -f "$m/bigdir" | wc -l); echo "entries: $n"; [ "$n" -ge 2000 ]
    drop; find "$m/bigdir" -mindepth 1 -printf '%s %m %p\n' | wc -l ;;
symlink)  # SYMLINK and READLINK with a ~3000-character target
    target=$(printf 'component%04d/' $(seq 1 300) | cut -c1-3000)
    ln -s "$target" "$w/longlink"
    drop
    [ "$(readlink "$w/longlink")" = "$target" ] ;;
acl3)  # NFSACL SETACL/GETACL: 400 named users (a long call; seen failing with GARBAGE_ARGS,
       # then EIO after 3 reconnects) and 200; GETACL of both and of the server's 400-entry
       # file (reply chunks). Each step is reported; the phase fails only if none worked.
    set +e; ok=0
    for n in 400 200; do
        : >"$w/acl3-$n"
        setfacl -m "$(seq -f 'u:%g:r' 2000 $((1999 + n)) | paste -sd,)" "$w/acl3-$n" &&
            echo "RESULT setfacl $n: ok" || echo "RESULT setfacl $n: FAILED"
    done
    drop
    for f in "$w/acl3-400" "$w/acl3-200" "$m/acl-file"; do
        if getfacl -n "$f" >/tmp/acl.out; then
            ok=1; echo "RESULT getfacl $f: ok, $(grep -c '^user:[0-9]' /tmp/acl.out) named entries"
        else
            echo "RESULT getfacl $f: FAILED"
        fi
    done
    [ "$ok" = 1 ] ;;
acl4)  # NFSv4 ACL attribute: GETATTR of a large ACL, SETATTR of a 400-ACE ACL
    nfs4_getfacl "$m/acl-file" | wc -l
    : >"$w/acl4"
    { echo 'A::OWNER@:rwatTnNcCy'; echo 'A::GROUP@:rtncy'; echo 'A::EVERYONE@:rtncy'
      seq -f 'A::%g:rtncy' 2000 2399; } >/tmp/acl4.spec
    nfs4_setfacl -S /tmp/acl4.spec "$w/acl4"
    drop; nfs4_getfacl "$w/acl4" | wc -l ;;
smallfiles)  # many small files: CREATE/OPEN, WRITE, GETATTR, READ, REMOVE
    mkdir -p "$w/sf"
    for i in $(seq 1 40); do echo "small file $i" >"$w/sf/f$i"; done
    sync; drop
    cat "$w"/sf/f* | wc -l; ls -l "$w/sf" | wc -l
    rm -rf "$w/sf" ;;
xattr)  # NFSv4.2 user xattrs (RFC 8276): SETXATTR (long), GETXATTR, LISTXATTRS, REMOVEXATTR
    : >"$w/xa"
    setfattr -n user.big -v "$(head -c 3000 /dev/zero | tr '\0' x)" "$w/xa"
    setfattr -n user.small -v hello "$w/xa"
    drop; getfattr -d "$w/xa" | wc -c
    getfattr -n user.big --only-values "$w/xa" | wc -c
    setfattr -x user.small "$w/xa" ;;
copy)  # NFSv4.2 COPY via copy_file_range
    dd if=/dev/urandom of="$w/src" bs=64k count=1 oflag=direct
    xfs_io -f -c "copy_range -l 65536 $w/src" "$w/dst"
    [ "$(stat -c %s "$w/dst")" = 65536 ] ;;
allocate)  # NFSv4.2 ALLOCATE and DEALLOCATE
    fallocate -l 1M "$w/falloc"
    fallocate -p -o 4096 -l 8192 "$w/falloc"
    stat -c '%s %b' "$w/falloc" ;;
seek)  # NFSv4.2 SEEK (data and hole)
    xfs_io -c 'seek -d 0' -c 'seek -h 0' "$w/falloc" ;;
deleg-open)  # hold the file open for reading so the server hands out a read delegation
    setsid bash -c "exec 3<'$m/deleg-$tag.txt'; cat <&3 >/dev/null; touch /tmp/deleg.opened; exec sleep 60" \
        </dev/null >/dev/null 2>&1 &
    echo $! >/tmp/deleg.pid
    for _ in $(seq 1 100); do [ -e /tmp/deleg.opened ] && exit 0; sleep 0.2; done
    exit 1 ;;
deleg-close)
    sleep 2; kill "$(cat /tmp/deleg.pid)" 2>/dev/null || true
    rm -f /tmp/deleg.opened /tmp/deleg.pid
    cat "$m/deleg-$tag.txt" ;;
umount)
    grep -A 40 "mounted on $m " /proc/self/mountstats || true
    umount "$m" ;;
*) echo "unknown phase $phase"; exit 2 ;;
esac
