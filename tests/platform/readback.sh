#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# readback: run by tests/integration/run on the second platform's local site
# (tests/run --platform=trixie): one plain iostrata-bench run on the CephFS
# mount (3 nodes, 3 ranks, write + read) into an HDF5 results file, which
# this platform's iostrata-report validates, copied to
# $IOSTRATA_PLATFORM_RESULTS for the first platform's build to read back
# (the files are meant to be portable between the platforms).
set -euo pipefail
T=readback
. "$(dirname "$0")/../integration/t1x-lib.bash"

results=${IOSTRATA_PLATFORM_RESULTS:-}
[[ -n $results ]] || skip "IOSTRATA_PLATFORM_RESULTS is not set"
[[ $H5 == yes ]] || fail "$bench has no results writer (HDF5 not found by configure)"
cephdir=$IOSTRATA_BENCH_DIR/$T.$$
make_shared "$cephdir"
mkdir -p "$results"

run_job ceph 3 150 "$bench" --rw=write,read --bs=1M --size=8M \
	--dir="$cephdir" --runtime=2 --reps=1 --output="$(h5out ceph)" \
	--summary=json --quiet --seed=18
[[ $(job_rc ceph) == 0 ]] || fail "CephFS run exited $(job_rc ceph): $(tail -20 "$work/ceph.out")"
"$build/report/iostrata-report" validate "$work/ceph.h5" ||
	fail "this platform's iostrata-report does not validate its own $work/ceph.h5"
cp "$work/ceph.h5" "$results/cephfs-run.h5"
log "results in $results/cephfs-run.h5 ($(stat -c %s "$results/cephfs-run.h5") bytes)"
