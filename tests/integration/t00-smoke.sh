#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# t00-smoke: the local site works end to end. (1) An sbatch job on the
# compute partition (c1 c2, each with its own ceph-fuse mount) runs
# smoke_mpi with `srun --mpi=pmix`: every rank writes a file with O_DIRECT
# on CephFS and reads it back verified, rank 0 writes/reads one rados
# object with librados. (2) A heterogeneous job, both compute hosts and
# one storage host (s1), runs smoke_mpi across all three hosts' namespaces
# (MPI and PMIx over the bridge; files on the local disk). Asserts: both
# jobs COMPLETED with exit 0, no node is drained or down, every check
# verified. Run by tests/integration/run with the site env sourced.

set -euo pipefail

T=t00-smoke
JOB_TIMEOUT=180
NTASKS=6

. "$(dirname "$0")/lib.bash"
require_env SLURM_CONF CEPH_CONF IOSTRATA_BENCH_DIR IOSTRATA_LOCAL_DIR \
	IOSTRATA_RADOS_POOL IOSTRATA_SLURM_PARTITION IOSTRATA_STORAGE_PARTITION

# The smoke program, built by `make` when MPI and librados were found.
bin=$build/tests/integration/smoke_mpi
[[ -x $bin ]] || skip "$bin not built (needs configure to find MPI and librados, then make in $build)"

make_work
datadir=$IOSTRATA_BENCH_DIR/$T.$$
make_shared "$datadir"

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

jobid=$(submit -p "$IOSTRATA_SLURM_PARTITION" -o "$work/job.out" \
	"$work/job.sbatch") || fail "sbatch failed"
log "submitted job $jobid"
wait_job "$jobid" "$JOB_TIMEOUT" ||
	fail "job $jobid still queued/running after ${JOB_TIMEOUT}s: $(squeue -h -j "$jobid" -o '%T %R')"

state=$(job_state "$jobid")
exitcode=$(job_field "$jobid" ExitCode)
nodes=$(job_field "$jobid" NodeList)
[[ -n $state ]] || fail "scontrol show job $jobid failed"
log "job $jobid: JobState=$state ExitCode=$exitcode NodeList=$nodes"
echo "---- job output"
cat "$work/job.out" || true
echo "----"

[[ $state == COMPLETED ]] || fail "job $jobid ended in state $state, expected COMPLETED"
[[ $exitcode == 0:0 ]] || fail "job $jobid exit code $exitcode, expected 0:0"
expect_not_drained "after the job"
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
# srun before Slurm 24.05.4 can hang after the tasks (t03)
source "$top/jobscripts/iostrata-jobs.sh"
IOS_JOB=$T IOS_HET_STATE_DIR=$work ios_het_srun --het-group=0,1 --mpi=pmix --overcommit -- "$bin" -d "$localdata" -p "$IOSTRATA_RADOS_POOL"
EOF
hetid=$(submit -o "$work/het.out" "$work/het.sbatch") || fail "sbatch (heterogeneous) failed"
log "submitted heterogeneous job $hetid"
wait_job "$hetid" "$JOB_TIMEOUT" || fail "heterogeneous job $hetid still queued/running after ${JOB_TIMEOUT}s"
# one line per component
states=$(job_state "$hetid" | sort -u | paste -sd' ')
exitcodes=$(job_field "$hetid" ExitCode | sort -u | paste -sd' ')
log "heterogeneous job $hetid: JobState=$states ExitCode=$exitcodes NodeList=$(job_field "$hetid" NodeList | paste -sd' ')"
echo "---- heterogeneous job output"
cat "$work/het.out" || true
echo "----"
[[ $states == COMPLETED && $exitcodes == 0:0 ]] ||
	fail "heterogeneous job $hetid: $states $exitcodes, expected COMPLETED 0:0"
want=$((NNODES + 1))
grep -q "^smoke: $want ranks on $want nodes: O_DIRECT .*: verified$" "$work/het.out" ||
	fail "MPI across the storage and compute hosts: no $want ranks on $want nodes verified"
grep -qx "SMOKE OK" "$work/het.out" || fail "heterogeneous job: no SMOKE OK line"
expect_not_drained "after the heterogeneous job"
log "pass"
