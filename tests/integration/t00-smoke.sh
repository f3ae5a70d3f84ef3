#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# t00-smoke: the local site works end to end. (1) An sbatch job on the
# compute partition (c1 c2, each with its own ceph-fuse mount) runs
# smoke_mpi with `srun --mpi=pmix`: every rank writes a file with O_DIRECT
# on CephFS and reads it back verified, rank 0 writes/reads one rados
# object with librados. (2) A heterogeneous job, both compute hosts and
# one storage host (s1), runs smoke_mpi across all three hosts' namespaces
# (MPI and PMIx over the bridge; files on the local disk). Asserts: both jobs COMPLETED with exit 0, no node is drained
# or down, every check verified. Run by tests/integration/run with the
# site env sourced.

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
	IOSTRATA_RADOS_POOL IOSTRATA_SLURM_PARTITION IOSTRATA_STORAGE_PARTITION; do
	[[ -n ${!v:-} ]] || skip "$v is not set: run me through tests/integration/run (or source a site env)"
done

top=$(cd "$(dirname "$0")/../.." && pwd)
build=${IOSTRATA_BUILD_DIR:-$top/build}
work=$(mktemp -d "$IOSTRATA_LOCAL_DIR/$T.XXXXXX")
chmod 755 "$work"
jobid=
hetid=
datadir=

cleanup() {
	local rc=$?
	local j
	for j in $jobid $hetid; do
		if [[ -n $(squeue -h -j "$j" 2>/dev/null) ]]; then
			scancel "$j" 2>/dev/null || true
		fi
	done
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

# every node of the compute partition
NNODES=$(sinfo -h -p "$IOSTRATA_SLURM_PARTITION" -o %D)
[[ $NNODES =~ ^[0-9]+$ && $NNODES -ge 2 ]] || fail "partition $IOSTRATA_SLURM_PARTITION: \"$NNODES\" nodes, want 2 or more"

cat >"$work/job.sbatch" <<EOF
#!/bin/bash
#SBATCH --job-name=$T
#SBATCH --nodes=$NNODES
#SBATCH --ntasks=$NTASKS
#SBATCH --overcommit
#SBATCH --time=5
set -eu
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST"
srun --mpi=pmix --overcommit "$bin" -d "$datadir" -p "$IOSTRATA_RADOS_POOL"
EOF

# wait_job ID: poll squeue (faster than sbatch -W), then JobState/ExitCode.
wait_job() {
	local id=$1 deadline info
	deadline=$((SECONDS + JOB_TIMEOUT))
	while [[ -n $(squeue -h -j "$id" 2>/dev/null) ]]; do
		((SECONDS < deadline)) || fail "job $id still queued/running after ${JOB_TIMEOUT}s: $(squeue -h -j "$id" -o '%T %R')"
		sleep 0.2
	done
	info=$(scontrol -o show job "$id") || fail "scontrol show job $id failed"
	state=$(sed -n 's/.*JobState=\([^ ]*\).*/\1/p' <<<"$info" | head -n 1)
	exitcode=$(sed -n 's/.* ExitCode=\([^ ]*\).*/\1/p' <<<"$info" | head -n 1)
	nodes=$(sed -n 's/.* NodeList=\([^ ]*\).*/\1/p' <<<"$info" | paste -sd' ')
	log "job $id: JobState=$state ExitCode=$exitcode NodeList=$nodes"
}

jobid=$(sbatch --parsable -p "$IOSTRATA_SLURM_PARTITION" -o "$work/job.out" \
	"$work/job.sbatch") || fail "sbatch failed"
jobid=${jobid%%;*}
log "submitted job $jobid"
wait_job "$jobid"
echo "---- job output"
cat "$work/job.out" || true
echo "----"

[[ $state == COMPLETED ]] || fail "job $jobid ended in state $state, expected COMPLETED"
[[ $exitcode == 0:0 ]] || fail "job $jobid exit code $exitcode, expected 0:0"
drained=$(sinfo -h -t drain,drng,down -o %N)
[[ -z $drained ]] || fail "nodes drained or down after the job: $drained ($(sinfo -h -R -o '%n: %E' | tr '\n' ';'))"
grep -q "^smoke: $NTASKS ranks on $NNODES nodes: O_DIRECT .*: verified$" "$work/job.out" ||
	fail "the CephFS O_DIRECT data was not verified by $NTASKS ranks on $NNODES nodes"
grep -q "^smoke: rados object .*: verified$" "$work/job.out" ||
	fail "the rados object was not verified"
grep -qx "SMOKE OK" "$work/job.out" || fail "no SMOKE OK line"
left=$(find "$datadir" -mindepth 1 | head -n 5)
[[ -z $left ]] || fail "smoke files left on CephFS: $left"

# (2) MPI across the compute hosts and a storage host: a heterogeneous job,
# one srun over both components.  The compute component comes first: with
# Slurm 22.05's mpi/pmix a het step whose first component's node names sort
# after the others' ("s1" : "c1,c2") mixes up the nodes' identities (each
# stepd takes another node's name and TmpFS, "Cannot establish direct
# connection"), so storage-first fails here and on any cluster named so.
localdata=$work/het
mkdir -p "$localdata"
chmod 1777 "$localdata"
cat >"$work/het.sbatch" <<EOF
#!/bin/bash
#SBATCH --job-name=$T-het
#SBATCH --time=5
#SBATCH --partition=$IOSTRATA_SLURM_PARTITION --nodes=$NNODES --ntasks=$NNODES --overcommit
#SBATCH hetjob
#SBATCH --partition=$IOSTRATA_STORAGE_PARTITION --nodes=1 --ntasks=1 --overcommit
set -eu
echo "job \$SLURM_JOB_ID: compute \$SLURM_JOB_NODELIST_HET_GROUP_0 storage \$SLURM_JOB_NODELIST_HET_GROUP_1"
srun --het-group=0,1 --mpi=pmix --overcommit "$bin" -d "$localdata" -p "$IOSTRATA_RADOS_POOL"
EOF
hetid=$(sbatch --parsable -o "$work/het.out" "$work/het.sbatch") || fail "sbatch (heterogeneous) failed"
hetid=${hetid%%;*}
log "submitted heterogeneous job $hetid"
wait_job "$hetid"
echo "---- heterogeneous job output"
cat "$work/het.out" || true
echo "----"
[[ $state == COMPLETED && $exitcode == 0:0 ]] ||
	fail "heterogeneous job $hetid: $state $exitcode, expected COMPLETED 0:0"
want=$((NNODES + 1))
grep -q "^smoke: $want ranks on $want nodes: O_DIRECT .*: verified$" "$work/het.out" ||
	fail "MPI across the storage and compute hosts: no $want ranks on $want nodes verified"
grep -qx "SMOKE OK" "$work/het.out" || fail "heterogeneous job: no SMOKE OK line"
drained=$(sinfo -h -t drain,drng,down -o %N)
[[ -z $drained ]] || fail "nodes drained or down after the heterogeneous job: $drained"
log "pass"
