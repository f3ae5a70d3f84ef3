#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_jobs_noscrub.sh: the scrub record ([sweep] noscrub = 1) reaches the
# results of every campaign job, not only the sweeps': ios_bench attaches
# what ios_noscrub_hold recorded (once, nothing when scrubbing was left
# alone), and every campaign job script holds it and hands it to its
# iostrata-bench runs (through ios_bench or by name).  With a fake srun.
set -u

src=${IOSTRATA_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
js=$src/jobscripts
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "1..3"

# run_bench: ios_bench with a fake srun, its argv one per line in $tmp/argv
run_bench() {
	(
		# shellcheck source=jobscripts/iostrata-jobs.sh
		source "$js/iostrata-jobs.sh"
		srun() { [[ " $* " == *" mkdir "* ]] || printf '%s\n' "$@" >"$tmp/argv"; }
		IOS_JOB=test IOS_MPI=pmix BENCH=iostrata-bench IOS_WDIR=$tmp/w
		"$@"
		ios_bench "$tmp/out.h5" --rw=write >/dev/null
	)
}

# 1. held: the record attached, once
: >"$tmp/argv"
run_bench eval 'IOS_NOSCRUB_ATTACH=(--attach=noscrub=/e/noscrub.json)'
n=$(grep -cx -- '--attach=noscrub=/e/noscrub.json' "$tmp/argv")
if [ "$n" = 1 ]; then
	echo "ok 1 - ios_bench attaches the scrub record once"
else
	echo "not ok 1 - ios_bench: --attach=noscrub $n times in: $(paste -sd' ' "$tmp/argv")"
fi

# 2. not held: no attachment, the run's own arguments intact
: >"$tmp/argv"
run_bench true
if ! grep -q -- '--attach=noscrub' "$tmp/argv" && grep -qx -- '--rw=write' "$tmp/argv"; then
	echo "ok 2 - no scrub record when scrubbing was left alone"
else
	echo "not ok 2 - ios_bench without a hold: $(paste -sd' ' "$tmp/argv")"
fi

# 3. every campaign job script holds the record and attaches it
bad=
for s in sweep-disk-bw sweep-cores-mem sweep-threads layered acceptance; do
	f=$js/$s.sbatch
	if grep -q '^ios_sweep_element$' "$f"; then
		continue # ios_sweep_element holds, ios_bench attaches
	fi
	grep -q '^ios_noscrub_hold$' "$f" || bad+=" $s (no ios_noscrub_hold)"
	# its iostrata-bench runs: ios_bench, or srun ... "$BENCH" with the record
	if grep -q '"\$BENCH"' "$f" && ! grep -q 'IOS_NOSCRUB_ATTACH' "$f"; then
		bad+=" $s (runs \$BENCH without IOS_NOSCRUB_ATTACH)"
	fi
done
grep -q '^	ios_noscrub_hold$' "$js/iostrata-jobs.sh" || bad+=" ios_sweep_element (no ios_noscrub_hold)"
if [ -z "$bad" ]; then
	echo "ok 3 - every campaign job script holds and attaches the scrub record"
else
	echo "not ok 3 - scrub record missing:$bad"
fi
