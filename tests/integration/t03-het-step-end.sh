#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# t03-het-step-end: MPI steps across the components of a heterogeneous
# job end when their tasks do.  srun before Slurm 24.05.4 (SchedMD ticket
# 16817) hangs after every task of a `srun --het-group=0,1 --mpi=pmix`
# step has exited when the components end together: two launch threads
# join one mpi/pmix abort agent thread.  On the local site (22.05.8) 7 of
# 60 such steps of smoke_mpi hung, and 4 of 24 of this test's.  Two
# things meet it: iostrata's MPI programs end their components a second
# apart after MPI_Finalize (model/layers.h, lyr_het_exit_wait: 1 of 24
# still hung), and the job scripts launch such steps through ios_het_srun
# (jobscripts/iostrata-jobs.sh), which stops an srun still running
# IOS_HET_GRACE s after all its tasks left their status and returns
# theirs.  One het job (compute c1 c2, storage s1) runs $NSTEPS steps of
# smoke_mpi (12; 24 in the long form, IOSTRATA_LONG=1, as before
# 2026-12-06: at 1 hang in 6 steps without ios_het_srun, 12 steps meet
# one with a chance of 89%) through ios_het_srun, one after the other, each bounded by
# timeout(1).  Asserts: every step exits 0 within $STEP_TIMEOUT s and
# prints SMOKE OK; the job COMPLETED; no node drained.  Says how many
# steps ios_het_srun had to stop.

set -euo pipefail

T=t03-het-step-end
NSTEPS=12
[[ -n ${IOSTRATA_LONG:-} ]] && NSTEPS=24
STEP_TIMEOUT=40
GRACE=5

. "$(dirname "$0")/lib.bash"
require_env SLURM_CONF IOSTRATA_LOCAL_DIR IOSTRATA_RADOS_POOL \
	IOSTRATA_SLURM_PARTITION IOSTRATA_STORAGE_PARTITION

bin=$build/tests/integration/smoke_mpi
[[ -x $bin ]] || skip "$bin not built (needs configure to find MPI and librados, then make in $build)"

make_work
NNODES=$(sinfo -h -p "$IOSTRATA_SLURM_PARTITION" -o %D)
[[ $NNODES =~ ^[0-9]+$ && $NNODES -ge 2 ]] || fail "partition $IOSTRATA_SLURM_PARTITION: \"$NNODES\" nodes, want 2 or more"
data=$work/data
mkdir -p "$data"
chmod 1777 "$data"

# Each step's line: "step I rc RC SECONDS"; timeout(1) exits 124 (137
# after -k) when srun has not ended.
cat >"$work/het.sbatch" <<EOF
#!/bin/bash
#SBATCH --job-name=$T
#SBATCH --time=$(((NSTEPS * (STEP_TIMEOUT + 10)) / 60 + 2))
#SBATCH --partition=$IOSTRATA_SLURM_PARTITION --nodes=$NNODES --ntasks=$NNODES --overcommit
#SBATCH hetjob
#SBATCH --partition=$IOSTRATA_STORAGE_PARTITION --nodes=1 --ntasks=1 --overcommit
set -u
export IOS_JOB=$T IOS_HET_STATE_DIR=$work IOS_HET_GRACE=$GRACE
for i in \$(seq 1 $NSTEPS); do
	t0=\$(date +%s.%N)
	timeout -k 5 $STEP_TIMEOUT bash -c 'source "\$1"; shift; ios_het_srun "\$@"' ios \
		"$top/jobscripts/iostrata-jobs.sh" --het-group=0,1 --mpi=pmix --overcommit -- \
		"$bin" -d "$data" -p "$IOSTRATA_RADOS_POOL" >"$work/step.\$i.out" 2>&1
	rc=\$?
	echo "step \$i rc \$rc \$(awk -v a="\$t0" -v b="\$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')"
done
EOF
limit=$((NSTEPS * (STEP_TIMEOUT + 10) + 60))
jobid=$(submit -o "$work/het.out" "$work/het.sbatch") || fail "sbatch (heterogeneous) failed"
log "submitted heterogeneous job $jobid: $NSTEPS steps across c1 c2 s1"
wait_job "$jobid" "$limit" || fail "heterogeneous job $jobid still queued/running after ${limit}s"
cat "$work/het.out"

states=$(job_state "$jobid" | sort -u | paste -sd' ')
[[ $states == COMPLETED ]] || fail "heterogeneous job $jobid ended $states, expected COMPLETED"
n=$(grep -c '^step [0-9]* rc ' "$work/het.out" || true)
[[ $n == "$NSTEPS" ]] || fail "$n of $NSTEPS steps reported"
bad=$(awk '$1 == "step" && $4 != 0 { print $2 " (rc " $4 ", " $5 " s)" }' "$work/het.out" | paste -sd' ')
if [[ -n $bad ]]; then
	first=$(awk '$1 == "step" && $4 != 0 { print $2; exit }' "$work/het.out")
	echo "---- step $first's output"
	tail -n 20 "$work/step.$first.out"
	fail "steps that did not end cleanly within ${STEP_TIMEOUT}s (124/137: srun still running after its tasks, Slurm ticket 16817, and ios_het_srun did not stop it): $bad"
fi
for i in $(seq 1 "$NSTEPS"); do
	grep -qx "SMOKE OK" "$work/step.$i.out" || fail "step $i: no SMOKE OK line: $(tail -n 3 "$work/step.$i.out" | tr '\n' ' ')"
done
expect_not_drained "after the heterogeneous job"
stopped=$(cat "$work"/step.*.out | grep -c "srun did not end $GRACE s after all" || true)
log "pass: $NSTEPS het steps ended ($stopped stopped by ios_het_srun $GRACE s after their tasks), $(awk '$1 == "step" { s += $5; c++; if ($5 > m) m = $5 } END { printf "%.1f s each on average, longest %.1f s", s / c, m }' "$work/het.out")"
