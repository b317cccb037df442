#!/bin/bash
# prepare-export.sh DIR : the tree the server exports.
set -euo pipefail
e=$1
mkdir -p "$e/bigdir"
chmod 1777 "$e"
# a large directory (2000 entries) for READDIR/READDIRPLUS
(cd "$e/bigdir" && seq -f 'entry-%04g-with-a-somewhat-longer-name' 1 2000 | xargs touch)
echo "hello from the lab server" >"$e/small.txt"
# one delegation target per mount: nfsd briefly refuses delegations on a file it
# has just recalled one for, so the mounts must not share a file
for t in rxe siw; do for v in 4.0 4.1 4.2; do echo "delegation target" >"$e/deleg-$t$v.txt"; done; done
# a file with a large POSIX ACL (400 named users), read back as NFSv3 GETACL / NFSv4 ACL
: >"$e/acl-file"
seq -f 'u:%g:r' 3000 3399 | setfacl -M - "$e/acl-file"
getfacl -n "$e/acl-file" | grep -c '^user:[0-9]'
# the live agent's objects (rpcrdma-agent drive --target kernel): a 1 MiB file with
# the same 400-entry ACL (NFSACL GETACL/SETACL), and a symlink for READLINK
head -c 1048576 /dev/zero | tr '\0' 'a' >"$e/agent-file"
# the agent's WRITEs come as uid 1000: the file is theirs to write
chmod 666 "$e/agent-file"
seq -f 'u:%g:r' 3000 3399 | setfacl -M - "$e/agent-file"
ln -sfn agent-file-target-of-a-symbolic-link "$e/agent-link"
