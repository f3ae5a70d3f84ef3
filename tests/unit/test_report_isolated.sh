#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_report_isolated.sh: iostrata-report show and validate over [good,
# crashing, hanging, good] results files: both good files are reported,
# the bad ones are named with what happened (libhdf5 crashed on one, loops
# on the other: tests/fuzz/corpus/h5run/regress-gheap-*), the exit code
# is 1, and the report itself neither crashes nor hangs.  Before the
# isolated reader the report died of SIGSEGV inside libhdf5 (exit 139).
# Under root, also: the parse ran as the file's owner.
# REPORT=path overrides the binary (to run it against an older build).
set -u

src=${IOSTRATA_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${IOSTRATA_BUILDDIR:-$src/build}
report=${REPORT:-$build/report/iostrata-report}
synth=${SYNTH:-$build/tests/tools/iostrata-h5synth}
corpus=$src/tests/fuzz/corpus/h5run

echo "1..7"
if [ ! -x "$report" ] || [ ! -x "$synth" ]; then
	for i in 1 2 3 4 5 6 7; do
		echo "ok $i # SKIP no $report or $synth"
	done
	exit 0
fi
dir=$(mktemp -d /tmp/test_report_isolated.XXXXXX)
trap 'rm -rf "$dir"' EXIT
chmod 755 "$dir"
"$synth" "$dir/good-a.h5" >/dev/null && "$synth" --seed 7 "$dir/good-b.h5" >/dev/null || {
	echo "Bail out! iostrata-h5synth failed"
	exit 1
}
cp "$corpus/regress-gheap-huge-object-segv" "$dir/crash.h5"
cp "$corpus/regress-gheap-wrapped-object-hang" "$dir/hang.h5"
files=("$dir/good-a.h5" "$dir/crash.h5" "$dir/hang.h5" "$dir/good-b.h5")
n=0
# the outer timeout only guards the test against the old report hanging
export IOSTRATA_PARSE_CPU_S=1 IOSTRATA_PARSE_TIMEOUT_S=10

check() { # check DESCRIPTION CONDITION...
	local what=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $what"
	else
		echo "not ok $n - $what"
		sed 's/^/# /' "$dir/out" "$dir/err" | head -20
	fi
}

for cmd in show validate; do
	timeout 60 "$report" $cmd "${files[@]}" >"$dir/out" 2>"$dir/err"
	rc=$?
	check "$cmd: exit 1, the report did not crash or hang (exit $rc)" test $rc -eq 1
	all="$(cat "$dir/out" "$dir/err")"
	if [ $cmd = validate ]; then
		ok() { grep -q "^OK *$dir/good-a.h5\$" "$dir/out" && grep -q "^OK *$dir/good-b.h5\$" "$dir/out"; }
	else
		# two runs of one configuration: 2 x (2 phases x 2 figures) rows
		ok() { [ "$(grep -c '^c2/m24G ' "$dir/out")" -eq 8 ]; }
	fi
	check "$cmd: both good files reported" ok
	bad() {
		# (signal 11, SIGSEGV), or a sanitizer build's (exit status 1)
		[[ $all == *"read $dir/crash.h5: the HDF5 library crashed reading it ("* ]] &&
			{ [[ $all == *"read $dir/hang.h5: took "*" to parse (IOSTRATA_PARSE_"* ]] ||
				# a sanitizer build: ASan stops the bad memcpy first
				{ [[ $report == *sanitize* ]] &&
					[[ $all == *"read $dir/hang.h5: the HDF5 library crashed reading it"* ]]; }; }
	}
	check "$cmd: the crashing and the hanging file named with the reason" bad
done

n=$((n + 1))
if [ "$(id -u)" != 0 ]; then
	echo "ok $n # SKIP not root: no privilege drop to check"
else
	chown 4242:4242 "$dir/crash.h5"
	"$report" validate "$dir/crash.h5" >"$dir/out" 2>"$dir/err"
	if grep -q "(parsed in a separate process as uid 4242;" "$dir/out"; then
		echo "ok $n - as root, the file of uid 4242 was parsed as uid 4242"
	else
		echo "not ok $n - as root, the file of uid 4242 was parsed as uid 4242"
		sed 's/^/# /' "$dir/out" "$dir/err"
	fi
fi
