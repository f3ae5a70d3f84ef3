#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_jobs_srcrace.sh: the job scripts' helpers (iostrata-jobs.sh) are
# found once and opened once.  A stranger (nobody) owns a world-writable
# submit directory whose `jobscripts` is a symlink that a loop swaps
# between a root-owned copy of the helpers and the stranger's own copy;
# the victim (daemon) runs the start of the real job scripts from there,
# directly (bash with SLURM_SUBMIT_DIR set, as Slurm would, not through
# sbatch), 20 times each.  Both copies are stubs that leave a mark and
# exit, so each run stops right after the scripts' own block.  A check by
# path and a `source` by path resolve the name twice: the stranger's copy
# ran 19 times of 120 in issue 27.  Wanted: never the stranger's, and the
# root-owned copy still sourced when it is the only one there.
set -u

src=${IOSTRATA_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
js=$src/jobscripts
# shellcheck source=tests/unit/users.bash
source "$src/tests/unit/users.bash"
tmp=$(mktemp -d /tmp/test_jobs_srcrace.XXXXXX)
chmod 755 "$tmp"
swapper=
cleanup() {
	[ -z "$swapper" ] || kill "$swapper" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
scripts=$(cd "$js" && ls ./*.sbatch | sed 's|^\./||')
runs=20

echo "1..2"

marks=$tmp/marks
mkdir -m 755 "$marks" && chown "$victim" "$marks"
# the root-owned copy, and the stranger's
mkdir -m 755 "$tmp/legit" "$tmp/evil"
echo "echo legit >>\"$marks/legit.\$IOS_SCRIPT\"; exit 0" >"$tmp/legit/iostrata-jobs.sh"
echo "echo evil >>\"$marks/evil.\$IOS_SCRIPT\"; exit 42" >"$tmp/evil/iostrata-jobs.sh"
chmod 644 "$tmp/legit/iostrata-jobs.sh" "$tmp/evil/iostrata-jobs.sh"
chown -R "$stranger:$stranger" "$tmp/evil"
sub=$tmp/submit
mkdir -m 777 "$sub" && chown "$stranger:$stranger" "$sub"
ln -s "$tmp/legit" "$sub/jobscripts" && chown -h "$stranger:$stranger" "$sub/jobscripts"

# run_all N: every job script N times as the victim from the submit directory
run_all() {
	local s i
	rm -f "$marks"/*
	for s in $scripts; do
		for ((i = 0; i < $1; i++)); do
			(cd / && as "$victim" env -u IOSTRATA_JOBSCRIPTS IOS_SCRIPT="$s" SLURM_SUBMIT_DIR="$sub" \
				bash "$js/$s" >/dev/null 2>&1 </dev/null)
		done
	done
}
count() { cat "$marks"/"$1".* 2>/dev/null | wc -l; }

# 1. the root-owned copy alone (the link not swapped): sourced by each script
run_all 1
got=$(ls "$marks" | sed -n 's/^legit\.//p' | sort | paste -sd' ')
if [ "$got" = "$(echo $scripts)" ] && [ "$(count evil)" = 0 ]; then
	echo "ok 1 - each job script sources the root-owned copy behind the stranger's link"
else
	echo "not ok 1 - root-owned copy sourced by: ${got:-none} (of $(echo $scripts)); the stranger's: $(count evil)"
fi

# 2. the link swapped in a loop: never the stranger's copy
# (setpriv itself, not the function `as`: its pid is then the loop's)
# shellcheck disable=SC2016
setpriv --reuid="$stranger" --regid="$stranger" --clear-groups -- /usr/bin/python3 -c '
import os, sys
sub, a, b = sys.argv[1:4]
t = sub + "/.swap"
while True:
    for x in (a, b):
        try:
            os.unlink(t)
        except FileNotFoundError:
            pass
        os.symlink(x, t)
        os.rename(t, sub + "/jobscripts")
' "$sub" "$tmp/legit" "$tmp/evil" &
swapper=$!
run_all "$runs"
kill "$swapper" 2>/dev/null
wait "$swapper" 2>/dev/null
swapper=
total=$(($(echo $scripts | wc -w) * runs))
if [ "$(count evil)" = 0 ]; then
	echo "ok 2 - the stranger's copy ran 0 times of $total (root-owned copy sourced $(count legit) times, the others refused)"
else
	echo "not ok 2 - the stranger's copy ran $(count evil) times of $total (root-owned copy $(count legit) times)"
fi
