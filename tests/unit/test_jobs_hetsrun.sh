#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_jobs_hetsrun.sh: ios_het_srun (jobscripts/iostrata-jobs.sh) returns
# srun's status when srun ends, and stops an srun that is still running
# IOS_HET_GRACE s after every task left its status (Slurm < 24.05.4,
# SchedMD ticket 16817), returning the tasks' largest status.  Bad input
# (no program, a bad grace) is refused; a state directory it cannot make
# leaves srun unguarded.  With a fake srun that runs the tasks here, one
# after the other, then exits or hangs.
set -u

src=${IOSTRATA_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
js=$src/jobscripts
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/lib/tap.bash
source "$src/tests/lib/tap.bash"

echo "1..6"

# hs NTASKS HANG STATUSES -- PROGRAM...: ios_het_srun with a fake srun of
# NTASKS tasks (task i exits with the i-th of STATUSES) that hangs after
# them when HANG is 1; prints "rc=RC" and the warnings.
hs() {
	(
		# shellcheck source=jobscripts/iostrata-jobs.sh
		source "$js/iostrata-jobs.sh"
		ntasks=$1 hang=$2 statuses=$3
		shift 3
		srun() {
			local i st max=0
			while [[ $1 != bash ]]; do shift; done
			for ((i = 0; i < ntasks; i++)); do
				st=$(cut -d, -f$((i + 1)) <<<"$statuses")
				SLURM_PROCID=$i SLURM_STEP_NUM_TASKS=$ntasks ST=$st "$@"
				((st > max)) && max=$st
			done
			if [[ $hang == 1 ]]; then
				# a real srun's stdio: nothing of it outlives srun
				sleep 300 >/dev/null 2>&1 &
				echo $! >"$tmp/sleep.pid"
				trap 'kill $(cat "$tmp/sleep.pid"); exit 143' TERM
				wait $!
			fi
			return "$max"
		}
		IOS_JOB=test IOS_HET_GRACE=${GRACE:-1} IOS_HET_STATE_DIR=${STATE:-$tmp}
		ios_het_srun --het-group=0,1 --mpi=pmix "$@" 2>&1
		echo "rc=$?"
	)
}
task='exit $ST'
# alive PID: running (a zombie no one reaps is not).  The stat file is
# read once: a process reaped between a test of the file and its read made
# awk fail, and an empty state counted as alive (seen inside the Debian 13
# root under load).
alive() {
	local st
	st=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
	[[ -n $st && $(awk '{ print $3 }' <<<"$st") != Z ]]
}
# gone PID: not alive within 2 s (a killed process takes a moment to end)
gone() {
	local i
	for ((i = 0; i < 20; i++)); do
		alive "$1" || return 0
		sleep 0.1
	done
	return 1
}

out=$(hs 3 0 0,0,0 -- bash -c "$task")
[[ $out == rc=0 ]] && ok "srun ends: its status, no warning" || notok "srun ends: got: $out"

out=$(hs 3 0 0,3,0 -- bash -c "$task")
[[ $out == rc=3 ]] && ok "srun ends with a task's status 3: 3" || notok "status 3: got: $out"

t0=$SECONDS
out=$(hs 2 1 0,5 -- bash -c "$task")
if [[ $out == *"did not end 1 s after all 2 tasks"*"status is 5"*rc=5 && $((SECONDS - t0)) -lt 15 ]] &&
	gone "$(cat "$tmp/sleep.pid")" && [[ -z $(ls -A "$tmp" | grep -v sleep.pid) ]]; then
	ok "srun hangs after its tasks: stopped, the tasks' status 5, state removed"
else
	notok "hang: got: $out ($((SECONDS - t0)) s; left: $(ls -A "$tmp"))"
fi
kill "$(cat "$tmp/sleep.pid" 2>/dev/null)" 2>/dev/null

out=$(hs 1 0 0 --)
[[ $out == *'no program after "--"'*rc=2 ]] && ok "no program: refused" || notok "no program: got: $out"

out=$(GRACE=0x hs 1 0 0 -- bash -c "$task")
[[ $out == *'IOS_HET_GRACE="0x"'*rc=2 ]] && ok "bad grace: refused" || notok "bad grace: got: $out"

out=$(STATE=$tmp/none hs 2 0 0,4 -- bash -c "$task")
[[ $out == *"cannot make a state directory in \"$tmp/none\""*rc=4 ]] &&
	ok "no state directory: srun unguarded, its status" || notok "no state dir: got: $out"

((tap_fails == 0))
