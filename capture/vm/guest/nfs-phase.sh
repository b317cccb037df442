#!/bin/bash
# nfs-phase.sh PHASE VERS SERVER_IP TAG : one bounded workload phase on the client.
# Mount point /mnt/lab; this mount's private work folder is /mnt/lab/w-TAG.
# LAB_LONG=1 (the longer tier, lib/run.sh) keeps rw and readdir light: bigio reads the
# 1 MiB file and manyfiles walks a directory with attributes, within the size budget.
set -euxo pipefail
phase=$1 vers=$2 ip=$3 tag=$4 long=${LAB_LONG:-0}
m=/mnt/lab w=/mnt/lab/w-$tag
drop() { sync; echo 3 >/proc/sys/vm/drop_caches; }
# remount [OPTS]: the same export again with other options (a new transport, so a new handshake)
remount() {
    umount "$m"
    mount -t nfs -o "vers=$vers,proto=rdma,port=20049${1:+,$1}" "$ip:/srv/export" "$m"
    grep " $m " /proc/mounts
}
# bgio_loop SECONDS: O_DIRECT 4 KiB write + read of one file, once a second, until
# /tmp/bgio.stop or SECONDS; one line per round in /tmp/bgio.log (the fault phases)
bgio_loop() {
    local end=$((SECONDS + $1)) i=0
    head -c 4096 /dev/urandom >/tmp/bg4k
    while [ ! -e /tmp/bgio.stop ] && [ "$SECONDS" -lt "$end" ]; do
        i=$((i + 1))
        if dd if=/tmp/bg4k of="$w/bgio.dat" bs=4k count=1 oflag=direct 2>/dev/null &&
           dd if="$w/bgio.dat" of=/tmp/bg4k.back bs=4k count=1 iflag=direct 2>/dev/null &&
           cmp -s /tmp/bg4k /tmp/bg4k.back; then
            echo "$(date +%s) round $i ok"
        else
            echo "$(date +%s) round $i failed"
        fi
        sleep 1
    done >/tmp/bgio.log 2>&1
}

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
    cmp /tmp/4k /tmp/4k.back
    if [ "$long" = 0 ]; then
        dd if="$w/large.dat" of=/tmp/half.back bs=512k count=1 iflag=direct
        cmp -n 524288 /tmp/1m /tmp/half.back
    fi
    drop; cat "$m/small.txt" ;;
readdir)  # 2000-entry directory: names (ls -f), then names + attributes (find -printf:
          # READDIRPLUS attributes, no per-file ACL/xattr look-ups as with ls -l)
    n=$(ls -f "$m/bigdir" | wc -l); echo "entries: $n"; [ "$n" -ge 2000 ]
    [ "$long" = 1 ] || { drop; find "$m/bigdir" -mindepth 1 -printf '%s %m %p\n' | wc -l; } ;;
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
delegw-open)  # hold a new file open for writing (a write delegation; the server reads it to recall)
    setsid bash -c "exec 3>'$w/delegw.txt'; echo written-on-client >&3; touch /tmp/deleg.opened; exec sleep 60" \
        </dev/null >/dev/null 2>&1 &
    echo $! >/tmp/deleg.pid
    for _ in $(seq 1 100); do [ -e /tmp/deleg.opened ] && exit 0; sleep 0.2; done
    exit 1 ;;
deleg-close|delegw-close)
    sleep 2; kill "$(cat /tmp/deleg.pid)" 2>/dev/null || true
    rm -f /tmp/deleg.opened /tmp/deleg.pid
    if [ "$phase" = deleg-close ]; then cat "$m/deleg-$tag.txt"; else cat "$w/delegw.txt"; fi ;;
bigio)  # rsize/wsize 1 MiB (the server's max_block_size is 1 MiB) over nconnect=2: one
        # 1 MiB O_DIRECT READ (a write chunk of many segments) of the file rw wrote
        # (rw's 1 MiB WRITE is one call when the mount negotiated 1 MiB)
    remount rsize=1048576,wsize=1048576,nconnect=2
    dd if="$w/large.dat" of=/tmp/1m.back bs=1M count=1 iflag=direct
    cmp /tmp/1m /tmp/1m.back
    grep -A 40 "mounted on $m " /proc/self/mountstats | grep -E 'opts:|xprt:' || true
    remount ;;
streams)  # 8 concurrent streams with rsize/wsize 1 KiB: an O_DIRECT 16 KiB request is 16
          # calls at once, so 4 of them and 4 buffered writers (writeback) fill the
          # connection's 64 credits with little data; then 4 O_DIRECT readers
    remount rsize=1024,wsize=1024
    head -c 16384 /dev/urandom >/tmp/16k
    head -c 8192 /dev/urandom >/tmp/8k
    pids=()
    for i in 1 2 3 4; do dd if=/tmp/16k of="$w/sd$i" bs=16k count=1 oflag=direct 2>&1 & pids+=($!); done
    for i in 1 2 3 4; do dd if=/tmp/8k of="$w/sb$i" bs=8k count=1 conv=fsync 2>&1 & pids+=($!); done
    for p in "${pids[@]}"; do wait "$p"; done
    drop; pids=()
    for i in 1 2 3 4; do dd if="$w/sd$i" of="/tmp/sd$i.back" bs=16k count=1 iflag=direct 2>&1 & pids+=($!); done
    for p in "${pids[@]}"; do wait "$p"; done
    for i in 1 2 3 4; do cmp /tmp/16k "/tmp/sd$i.back"; done
    grep -A 60 "mounted on $m " /proc/self/mountstats | grep -E 'opts:|xprt:' || true
    remount ;;
manyfiles)  # a client-made directory of 150 files with names of 40 characters, listed
            # with and without attributes (READDIR / READDIRPLUS replies of several pages)
    mkdir -p "$w/many"
    (cd "$w/many" && seq -f 'client-made-entry-%04g-of-a-long-listing' 1 150 | xargs touch)
    drop; n=$(ls -f "$w/many" | wc -l); echo "entries: $n"; [ "$n" -ge 150 ]
    drop; find "$w/many" -mindepth 1 -printf '%s %m %p\n' | wc -l ;;
links)  # hard link, rename over a symlink, short symlink (SYMLINK inline), READLINK
    echo target >"$w/lt"; ln "$w/lt" "$w/lt.hard"; ln -s lt "$w/ls"
    ln -s lt.hard "$w/ls2"; mv -f "$w/ls2" "$w/ls"
    drop; [ "$(readlink "$w/ls")" = lt.hard ]; stat -c '%h' "$w/lt" ;;
locks)  # NLM (v3) or NFSv4 LOCK/LOCKU/LOCKT: exclusive, shared, byte-range, and a contended
        # lock (a second process waits while the first holds it for 3 s)
    f=$w/lockfile; echo lock-target >"$f"
    flock -x "$f" -c true
    flock -s "$f" -c true
    perl -MFcntl -e 'open(my $h, "+<", $ARGV[0]) or die; my $l = pack("s s x4 q q i x4", F_WRLCK, 0, 100, 200, 0);
        fcntl($h, F_SETLK, $l) or die "F_SETLK: $!"; $l = pack("s s x4 q q i x4", F_UNLCK, 0, 100, 200, 0);
        fcntl($h, F_SETLK, $l) or die; print "byte-range lock ok\n"' "$f"
    flock -x "$f" -c 'sleep 3' & h=$!
    sleep 1
    timeout 50 flock -x -w 45 "$f" -c 'echo RESULT contended lock: granted' || echo "RESULT contended lock: not granted"
    wait "$h" ;;
bgio-start)  # the fault phases: start the background I/O loop (up to 150 s)
    rm -f /tmp/bgio.stop /tmp/bgio.log
    setsid bash -c "$(declare -f bgio_loop); w='$w'; bgio_loop 150" </dev/null >/dev/null 2>&1 &
    echo $! >/tmp/bgio.pid
    sleep 3; cat /tmp/bgio.log ;;
bgio-stop)  # wait (up to 60 s) until a round after the fault succeeded, then stop the loop
    t=$(date +%s)    # called once the fault is over
    set +x
    for _ in $(seq 1 60); do
        awk -v t="$t" '$1 > t && $4 == "ok"' /tmp/bgio.log | grep -q . && break; sleep 1
    done
    touch /tmp/bgio.stop
    for _ in $(seq 1 30); do kill -0 "$(cat /tmp/bgio.pid)" 2>/dev/null || break; sleep 1; done
    cat /tmp/bgio.log
    awk -v t="$t" '$1 > t && $4 == "ok"' /tmp/bgio.log | grep -q . ;;
umount)
    grep -A 40 "mounted on $m " /proc/self/mountstats || true
    # after a fault phase the transport may not come back: do not hang the lab on it
    timeout 90 umount "$m" || { echo "RESULT umount: timed out, forced"; umount -f -l "$m"; } ;;
*) echo "unknown phase $phase"; exit 2 ;;
esac
