# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# t1x-lib.bash: helpers of the benchmark's integration tests (t1x-*.sh) on
# the local site, sourced, not run; on top of lib.bash.  Sets bench (the
# built iostrata-bench), H5 (yes when it has the results writer) and work.
# Jobs: run_job NAME NTASKS TIMEOUT COMMAND... runs an sbatch job on every
# node of the site's compute partition ($NNODES), waits, leaves its output
# in $work/NAME.out and srun's exit code in $work/NAME.rc.

. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

require_env SLURM_CONF IOSTRATA_BENCH_DIR IOSTRATA_LOCAL_DIR IOSTRATA_SLURM_PARTITION
bench=$build/mpibench/iostrata-bench
[[ -x $bench ]] || skip "$bench not built (configure found no MPI?)"
# the nodes of the (compute) partition the jobs run on
NNODES=$(sinfo -h -p "$IOSTRATA_SLURM_PARTITION" -o %D 2>/dev/null) || NNODES=
[[ $NNODES =~ ^[0-9]+$ ]] || skip "no nodes in partition $IOSTRATA_SLURM_PARTITION (sinfo: \"$NNODES\")"
H5=no
"$bench" --version | grep -q 'results writer: yes' && H5=yes
make_work

# run_job NAME NTASKS TIMEOUT COMMAND... (COMMAND runs under srun)
run_job() {
	local name=$1 ntasks=$2 timeout=$3
	shift 3
	{
		printf '#!/bin/bash\n#SBATCH --job-name=%s\n#SBATCH --nodes=%s\n#SBATCH --ntasks=%s\n#SBATCH --overcommit\n#SBATCH --time=5\n' "$T-$name" "$NNODES" "$ntasks"
		printf 'srun --mpi=pmix --overcommit'
		printf ' %q' "$@"
		printf '\necho $? > %q\n' "$work/$name.rc"
	} >"$work/$name.sbatch"
	submit_wait "$name" "$timeout"
	# Open MPI 4.1 on this loaded 2-core machine: now and then one rank
	# crashes inside MPI_Init, before any benchmark code runs (SIGSEGV at
	# address 0: a call through a null function pointer; 2 in about 800
	# jobs at load 5-7 on 2026-12-06, 0 in a 195-job probe), and its peers
	# then report "failed to TCP connect" (the real so_error is 111, the
	# dead peer's refused connection; 4.1 prints a stale errno 115).  That
	# failure is the launcher's, not the benchmark's: the job runs once
	# more, said in the log; any other failure stands as it is.
	if [[ $(job_rc "$name") != 0 ]] &&
		grep -q -e 'Open MPI failed to TCP connect to a peer MPI process' \
			-e ') during "MPI_Init"; backtrace:' "$work/$name.out"; then
		log "job $name: a rank died in Open MPI's start-up (its output kept in $name.out.1): run once more"
		mv "$work/$name.out" "$work/$name.out.1"
		rm -f "$work/$name.rc" "$work/$name.h5"
		submit_wait "$name" "$timeout"
	fi
}

# submit_wait NAME TIMEOUT: submit $work/NAME.sbatch, wait, check it left
# its exit code.
submit_wait() {
	local name=$1 timeout=$2 jobid
	jobid=$(submit -p "$IOSTRATA_SLURM_PARTITION" -o "$work/$name.out" \
		"$work/$name.sbatch") || fail "sbatch $name failed"
	wait_job "$jobid" "$timeout" || fail "job $name ($jobid) still running after ${timeout}s"
	[[ -f $work/$name.rc ]] || fail "job $name ($jobid) left no exit code: $(cat "$work/$name.out" 2>/dev/null)"
	log "job $name ($jobid): exit $(cat "$work/$name.rc")"
}

# --output value: a file in $work, or none without a results writer.
h5out() {
	if [[ $H5 == yes ]]; then
		echo "$work/$1.h5"
	else
		echo none
	fi
}

job_rc() { cat "$work/$1.rc"; }

# job_why NAME: what a failure message shows of job NAME's output: the
# crash report of any rank that died of a signal (crashlog.c: rank, host,
# pid, stage, backtrace; Open MPI's own "Process received signal" one),
# which the last lines alone miss when the other ranks' teardown (srun,
# Open MPI) prints after it, then the last lines.
job_why() {
	grep -A16 -e '^iostrata-bench: .*backtrace:$' -e 'Process received signal' \
		"$work/$1.out" 2>/dev/null | head -60
	tail "$work/$1.out"
}

# The JSON summary is the only stdout line starting with '{'.
json_of() { grep '^{' "$work/$1.out" | tail -1; }

# ceph_h5_setup: what a test that reads its results file back with h5py
# and runs on CephFS needs: skips without the results writer or h5py;
# sets report (the built iostrata-report), cephdir (a fresh shared
# directory under $IOSTRATA_BENCH_DIR, removed at exit) and ntasks (2 ranks
# per node).
ceph_h5_setup() {
	[[ $H5 == yes ]] || skip "the results writer is not built"
	/usr/bin/python3 -c 'import h5py' 2>/dev/null || skip "python3-h5py missing"
	report=$build/report/iostrata-report
	cephdir=$IOSTRATA_BENCH_DIR/$T.$$
	make_shared "$cephdir"
	ntasks=$((2 * NNODES))
}
