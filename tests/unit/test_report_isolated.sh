#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_report_isolated.sh: iostrata-report show and validate over [good,
# crashing, hanging, good, crashing, hanging] results files: both good
# files are reported, the bad ones are named with what happened, the exit
# code is 1, and the report itself neither crashes nor hangs.  Before the
# isolated reader the report died of SIGSEGV inside libhdf5 (exit 139).
# The first crash and hang are the stand-in's (tests/fakes/h5fault.h,
# preloaded: H5Fopen crashes or spins on every platform), the second the
# real inputs (tests/fuzz/corpus/h5run/regress-gheap-*), which crash and
# loop libhdf5 1.10 and which 1.14 reads as an ordinary bad file.
# Under root, also: the parse ran as the file's owner.
# REPORT=path overrides the binary (to run it against an older build).
set -u

src=${IOSTRATA_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${IOSTRATA_BUILDDIR:-$src/build}
report=${REPORT:-$build/report/iostrata-report}
synth=${SYNTH:-$build/tests/tools/iostrata-h5synth}
corpus=$src/tests/fuzz/corpus/h5run
fault=$build/tests/fakes/.libs/libh5fault.so

echo "1..9"
if [ ! -x "$report" ] || [ ! -x "$synth" ] || [ ! -f "$fault" ]; then
	for i in 1 2 3 4 5 6 7 8 9; do
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
{ cat "$dir/good-a.h5" && printf '\nIOSTRATA-H5FAULT:crash\n'; } >"$dir/crash.h5"
{ cat "$dir/good-a.h5" && printf '\nIOSTRATA-H5FAULT:hang\n'; } >"$dir/hang.h5"
cp "$corpus/regress-gheap-huge-object-segv" "$dir/real-crash.h5"
cp "$corpus/regress-gheap-wrapped-object-hang" "$dir/real-hang.h5"
files=("$dir/good-a.h5" "$dir/crash.h5" "$dir/hang.h5" "$dir/good-b.h5"
	"$dir/real-crash.h5" "$dir/real-hang.h5")
n=0
# the outer timeout only guards the test against the old report hanging
export IOSTRATA_PARSE_CPU_S=1 IOSTRATA_PARSE_TIMEOUT_S=10
# the stand-in under a sanitizer build: it is not instrumented
export LD_PRELOAD=$fault${LD_PRELOAD:+:$LD_PRELOAD}
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0

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
		[[ $all == *"read $dir/crash.h5: the HDF5 library crashed reading it (signal 11"* ]] &&
			[[ $all == *"read $dir/hang.h5: took "*" to parse (IOSTRATA_PARSE_"* ]]
	}
	check "$cmd: the crashing and the hanging file named with the reason" bad
	# the real inputs: crashed or looped (HDF5 1.10), a clean error (1.14
	# reads them), or even read (on 1.10 what they do depends on the heap
	# before the fork): when an error names one, it gives a known reason
	real() {
		local f m
		for f in real-crash real-hang; do
			m="read $dir/$f.h5: "
			[[ $all == *"$m"* ]] || continue
			[[ $all == *"${m}the HDF5 library crashed reading it ("* ||
				$all == *"${m}took "*" to parse (IOSTRATA_PARSE_"* ||
				$all == *"${m}an HDF5 file, but not an iostrata results file"* ||
				$all == *"${m}h5schema: "* ]] || return 1
		done
	}
	check "$cmd: the real inputs named with the reason" real
	[[ $all == *"real-crash.h5: the HDF5 library crashed"* ]] ||
		echo "# this libhdf5 reads $corpus/regress-gheap-huge-object-segv without crashing"
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
