#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_jobs_source.sh: where the job scripts find their shared helpers
# (iostrata-jobs.sh).  Slurm runs a copy of the batch script from its spool,
# so each script searches $IOSTRATA_JOBSCRIPTS, the submit directory
# (and its jobscripts/), then the installed copies.  A user who submits an
# installed script from a shared directory must not run a stranger's
# iostrata-jobs.sh planted there: a copy is sourced only when it and its
# directory belong to the user (or root) and others cannot write them.
# Each job script is run by bash outside Slurm with SLURM_SUBMIT_DIR set.
# The block that does it is one checked copy: every job script carries
# jobscripts/source-helpers.block byte for byte (Slurm spools the script
# alone, so each must hold it).  `test_jobs_source.sh --sync` writes the
# block into every script that has one.  test_jobs_srcrace.sh races it.
set -u

src=${IOSTRATA_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
js=$src/jobscripts
tmp=$(mktemp -d /tmp/test_jobs_source.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
scripts=$(cd "$js" && ls ./*.sbatch | sed 's|^\./||')
block=$js/source-helpers.block

# the script FILE with its block (from "# >>> iostrata-jobs.sh" to "# <<<
# end of the block") replaced by jobscripts/source-helpers.block
with_block() {
	awk -v blk="$block" '
		/^# >>> iostrata-jobs.sh/ { while ((getline l < blk) > 0) print l; skip = 1; next }
		skip && /^# <<< end of the block$/ { skip = 0; next }
		!skip' "$1"
}
if [ "${1:-}" = --sync ]; then
	for s in $scripts; do
		with_block "$js/$s" >"$tmp/new" && cat "$tmp/new" >"$js/$s"
	done
	exit 0
fi

echo "1..4"
# shellcheck source=tests/lib/tap.bash
source "$src/tests/lib/tap.bash"

# plant DIR: an iostrata-jobs.sh in DIR that leaves a mark and stops the job
plant() {
	mkdir -p "$1"
	cat >"$1/iostrata-jobs.sh" <<PL
echo sourced >>"$tmp/mark.\$IOS_SCRIPT"
exit 42
PL
}

# run_all SUBMITDIR: every job script with that submit directory; the
# scripts whose planted helper ran, in $tmp/ran
run_all() {
	rm -f "$tmp"/mark.* "$tmp/ran"
	for s in $scripts; do
		(cd / && env -u IOSTRATA_JOBSCRIPTS IOS_SCRIPT="$s" SLURM_SUBMIT_DIR="$1" \
			bash "$js/$s" >"$tmp/out.$s" 2>&1 </dev/null)
		[ -e "$tmp/mark.$s" ] && echo "$s" >>"$tmp/ran"
	done
}

# 1. the user's own submit directory: its helper is used
plant "$tmp/own"
run_all "$tmp/own"
if [ "$(wc -l <"$tmp/ran" 2>/dev/null)" = "$(echo "$scripts" | wc -l)" ]; then
	ok "each job script sources iostrata-jobs.sh from the user's own submit directory"
else
	notok "own submit directory: sourced by $(cat "$tmp/ran" 2>/dev/null | tr '\n' ' ') of $(echo $scripts)"
fi

# 2. a world-writable (sticky) submit directory, as /tmp: not sourced, said
mkdir -p "$tmp/shared" && chmod 1777 "$tmp/shared"
plant "$tmp/shared"
run_all "$tmp/shared"
said=$(grep -l "iostrata-jobs.sh not sourced: $tmp/shared is writable by its group or others (mode 1777; accepted: " "$tmp"/out.* 2>/dev/null | wc -l)
if [ ! -s "$tmp/ran" ] && [ "$said" = "$(echo "$scripts" | wc -l)" ]; then
	ok "no job script sources a helper from a world-writable submit directory, and each says so"
else
	notok "world-writable submit directory: sourced by $(cat "$tmp/ran" 2>/dev/null | tr '\n' ' '); said by $said"
fi

# 3. (root) a stranger's file in a directory only the stranger can write
if [ "$(id -u)" = 0 ]; then
	plant "$tmp/stranger/jobscripts"
	chown -R 65534:65534 "$tmp/stranger"
	run_all "$tmp/stranger"
	if [ ! -s "$tmp/ran" ]; then
		ok "no job script sources a stranger's iostrata-jobs.sh"
	else
		notok "a stranger's helper was sourced by $(cat "$tmp/ran" | tr '\n' ' ')"
	fi
else
	skip "a stranger's file needs root (chown)"
fi

# 4. one block, carried byte for byte by every job script
bad=
for s in $scripts; do
	if ! grep -q '^# >>> iostrata-jobs.sh' "$js/$s"; then
		bad+=" $s (no block)"
	elif ! cmp -s <(with_block "$js/$s") "$js/$s"; then
		bad+=" $s ($(diff <(with_block "$js/$s") "$js/$s" | grep -c '^[<>]') lines differ)"
	fi
done
if [ -z "$bad" ]; then
	ok "every job script carries jobscripts/source-helpers.block byte for byte"
else
	notok "the block differs from jobscripts/source-helpers.block in:$bad (edit the block, then tests/unit/test_jobs_source.sh --sync)"
fi
