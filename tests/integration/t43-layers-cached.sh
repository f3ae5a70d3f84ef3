#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# t43-layers-cached: a deliberately cached full stack (--buffered: no direct
# I/O on the ceph-fuse mount, so reads come from the page cache) is never
# a clean result: the layered run flags the full-stack numbers as
# "suspected caching, not durable throughput" and exits 1.

set -euo pipefail
T=t43-layers-cached
. "$(dirname "$0")/t4x-lib.bash"
t4x_require

make_work
cdir=$T.$$
make_shared "$IOSTRATA_CEPHFS_MOUNT/$cdir"
pool=${IOSTRATA_RADOS_POOL:-bench}

set +e
t4x_srun 150 "$bench" --layers --layers-skip=device,network,fullstack-lib \
	--rados-pool="$pool" --dir="$IOSTRATA_CEPHFS_MOUNT/$cdir" --buffered \
	--bs=1M --size=16M --runtime=2 --reps=1 --output=none >"$work/out" 2>"$work/err"
rc=$?
set -e
cat "$work/out"
[[ $rc == 1 ]] || fail "buffered full stack: exit $rc, want 1 (suspect): $(tail -3 "$work/err")"
grep -q '^  fullstack .*buffered (no direct I/O)' "$work/out" ||
	fail "full-stack line does not say buffered"
grep -Eq '^  - full stack \(posix on the CephFS mount\) read .*suspected caching, not durable throughput' "$work/out" ||
	fail "the cached full-stack read is not flagged as suspected caching"
grep -q 'suspect: not a clean result' "$work/out" || fail "verdict does not say 'not a clean result'"
log "PASS"
