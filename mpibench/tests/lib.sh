# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the t1x-bench integration tests (sourced; needs $T set).
# Jobs: run_job NAME NTASKS SCRIPT_BODY -> runs an sbatch job on 3 nodes,
# waits, leaves its output in $work/NAME.out and srun's exit code in
# $work/NAME.rc.

log() { printf '%s: %s\n' "$T" "$*"; }
fail() {
	printf '%s: FAIL: %s\n' "$T" "$*" >&2
	exit 1
}
skip() {
	printf '%s: SKIP: %s\n' "$T" "$*"
	exit 77
}

for v in SLURM_CONF IOSTRATA_BENCH_DIR IOSTRATA_LOCAL_DIR \
	IOSTRATA_SLURM_PARTITION; do
	[[ -n ${!v:-} ]] || skip "$v is not set: run me through tests/integration/run (or source a site env)"
done
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${IOSTRATA_BUILD_DIR:-$top/build}
bench=$build/mpibench/iostrata-bench
[[ -x $bench ]] || skip "$bench not built (configure found no MPI?)"
H5=no
"$bench" --version | grep -q 'results writer: yes' && H5=yes
work=$(mktemp -d "$IOSTRATA_LOCAL_DIR/$T.XXXXXX")
chmod 755 "$work"
jobids=()
cephdir=

# lib_cephfs_dir: $cephdir, a fresh directory on the CephFS mount that every
# rank may write (1777); lib_cleanup removes it.
lib_cephfs_dir() {
	cephdir=$IOSTRATA_BENCH_DIR/$T.$$
	mkdir -p "$cephdir"
	chmod 1777 "$cephdir"
}

lib_cleanup() {
	local j
	[[ -z $cephdir ]] || rm -rf -- "$cephdir"
	for j in "${jobids[@]}"; do
		if squeue -h -j "$j" 2>/dev/null | grep -q .; then
			scancel "$j" 2>/dev/null || true
		fi
	done
	[[ -n ${IOSTRATA_KEEP_WORK:-} ]] || rm -rf -- "$work"
}

# run_job NAME NTASKS TIMEOUT COMMAND... (COMMAND runs under srun)
run_job() {
	local name=$1 ntasks=$2 timeout=$3 jobid deadline
	shift 3
	{
		printf '#!/bin/bash\n#SBATCH --job-name=%s\n#SBATCH --nodes=3\n#SBATCH --ntasks=%s\n#SBATCH --overcommit\n#SBATCH --time=5\n' "$T-$name" "$ntasks"
		printf 'srun --mpi=pmix --overcommit'
		printf ' %q' "$@"
		printf '\necho $? > %q\n' "$work/$name.rc"
	} >"$work/$name.sbatch"
	jobid=$(sbatch --parsable -p "$IOSTRATA_SLURM_PARTITION" \
		-o "$work/$name.out" "$work/$name.sbatch") ||
		fail "sbatch $name failed"
	jobid=${jobid%%;*}
	jobids+=("$jobid")
	deadline=$((SECONDS + timeout))
	while squeue -h -j "$jobid" 2>/dev/null | grep -q .; do
		((SECONDS < deadline)) || fail "job $name ($jobid) still running after ${timeout}s"
		sleep 0.3
	done
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

# The JSON summary is the only stdout line starting with '{'.
json_of() { grep '^{' "$work/$1.out" | tail -1; }

check_no_drain() {
	local bad
	bad=$(sinfo -h -t drain,drng,down -o %N)
	[[ -z $bad ]] || fail "nodes drained or down: $bad"
}
