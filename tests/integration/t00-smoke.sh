#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# t00-smoke: the local site works end to end. An sbatch job on 3 nodes runs
# smoke_mpi with `srun --mpi=pmix`: every rank writes a file with O_DIRECT
# on CephFS and reads it back verified, rank 0 writes/reads one rados
# object with librados. Asserts: the job COMPLETED with exit 0, no node is
# drained or down, both checks verified. Run by tests/integration/run with
# the site env sourced.

set -euo pipefail

T=t00-smoke
JOB_TIMEOUT=180
NTASKS=6

log() { printf '%s: %s\n' "$T" "$*"; }
fail() {
	printf '%s: FAIL: %s\n' "$T" "$*" >&2
	exit 1
}
skip() {
	printf '%s: SKIP: %s\n' "$T" "$*"
	exit 77
}

for v in SLURM_CONF CEPH_CONF IOSTRATA_BENCH_DIR IOSTRATA_LOCAL_DIR \
	IOSTRATA_RADOS_POOL IOSTRATA_SLURM_PARTITION; do
	[[ -n ${!v:-} ]] || skip "$v is not set: run me through tests/integration/run (or source a site env)"
done

top=$(cd "$(dirname "$0")/../.." && pwd)
build=${IOSTRATA_BUILD_DIR:-$top/build}
work=$(mktemp -d "$IOSTRATA_LOCAL_DIR/$T.XXXXXX")
chmod 755 "$work"
jobid=
datadir=

cleanup() {
	local rc=$?
	if [[ -n $jobid && -n $(squeue -h -j "$jobid" 2>/dev/null) ]]; then
		scancel "$jobid" 2>/dev/null || true
	fi
	[[ -n $datadir ]] && rm -rf -- "$datadir"
	rm -rf -- "$work"
	exit "$rc"
}
trap cleanup EXIT

# The smoke program, built by `make` when MPI and librados were found.
bin=$build/tests/integration/smoke_mpi
[[ -x $bin ]] || skip "$bin not built (needs configure to find MPI and librados, then make in $build)"

datadir=$IOSTRATA_BENCH_DIR/$T.$$
mkdir -p "$datadir"
chmod 1777 "$datadir"

cat >"$work/job.sbatch" <<EOF
#!/bin/bash
#SBATCH --job-name=$T
#SBATCH --nodes=3
#SBATCH --ntasks=$NTASKS
#SBATCH --overcommit
#SBATCH --time=5
set -eu
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST"
srun --mpi=pmix --overcommit "$bin" -d "$datadir" -p "$IOSTRATA_RADOS_POOL"
EOF

jobid=$(sbatch --parsable -p "$IOSTRATA_SLURM_PARTITION" -o "$work/job.out" \
	"$work/job.sbatch") || fail "sbatch failed"
jobid=${jobid%%;*}
log "submitted job $jobid"

# Poll squeue: faster than sbatch -W.
deadline=$((SECONDS + JOB_TIMEOUT))
while [[ -n $(squeue -h -j "$jobid" 2>/dev/null) ]]; do
	((SECONDS < deadline)) || fail "job $jobid still queued/running after ${JOB_TIMEOUT}s: $(squeue -h -j "$jobid" -o '%T %R')"
	sleep 0.2
done

info=$(scontrol -o show job "$jobid") || fail "scontrol show job $jobid failed"
state=$(sed -n 's/.*JobState=\([^ ]*\).*/\1/p' <<<"$info")
exitcode=$(sed -n 's/.* ExitCode=\([^ ]*\).*/\1/p' <<<"$info")
nodes=$(sed -n 's/.* NodeList=\([^ ]*\).*/\1/p' <<<"$info")
log "job $jobid: JobState=$state ExitCode=$exitcode NodeList=$nodes"
echo "---- job output"
cat "$work/job.out" || true
echo "----"

[[ $state == COMPLETED ]] || fail "job $jobid ended in state $state, expected COMPLETED"
[[ $exitcode == 0:0 ]] || fail "job $jobid exit code $exitcode, expected 0:0"
drained=$(sinfo -h -t drain,drng,down -o %N)
[[ -z $drained ]] || fail "nodes drained or down after the job: $drained ($(sinfo -h -R -o '%n: %E' | tr '\n' ';'))"
grep -q "^smoke: $NTASKS ranks on 3 nodes: O_DIRECT .*: verified$" "$work/job.out" ||
	fail "the CephFS O_DIRECT data was not verified by $NTASKS ranks on 3 nodes"
grep -q "^smoke: rados object .*: verified$" "$work/job.out" ||
	fail "the rados object was not verified"
grep -qx "SMOKE OK" "$work/job.out" || fail "no SMOKE OK line"
left=$(find "$datadir" -mindepth 1 | head -n 5)
[[ -z $left ]] || fail "smoke files left on CephFS: $left"
log "pass"
