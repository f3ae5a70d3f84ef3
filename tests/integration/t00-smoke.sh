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

. "$(dirname "$0")/lib.bash"
require_env SLURM_CONF CEPH_CONF IOSTRATA_BENCH_DIR IOSTRATA_LOCAL_DIR \
	IOSTRATA_RADOS_POOL IOSTRATA_SLURM_PARTITION

# The smoke program, built by `make` when MPI and librados were found.
bin=$build/tests/integration/smoke_mpi
[[ -x $bin ]] || skip "$bin not built (needs configure to find MPI and librados, then make in $build)"

make_work
datadir=$IOSTRATA_BENCH_DIR/$T.$$
make_shared "$datadir"

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
grep -q "^smoke: $NTASKS ranks on 3 nodes: O_DIRECT .*: verified$" "$work/job.out" ||
	fail "the CephFS O_DIRECT data was not verified by $NTASKS ranks on 3 nodes"
grep -q "^smoke: rados object .*: verified$" "$work/job.out" ||
	fail "the rados object was not verified"
grep -qx "SMOKE OK" "$work/job.out" || fail "no SMOKE OK line"
left=$(find "$datadir" -mindepth 1 | head -n 5)
[[ -z $left ]] || fail "smoke files left on CephFS: $left"
log "pass"
