#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_campaign_estimate.sh: `iostrata-campaign plan --estimate` (the
# arithmetic is test_campaign_estimate.c's).  1: the paper's sweeps on
# site/example: the hours with and without dataset reuse and the defaults'
# sources.  2: with elements' timing records in the campaign directory, the
# per-element overhead is theirs (total - timed), said so.  3: a job it
# does not model is refused with exit 2 naming the job and the accepted
# ones, before the plan is printed; --estimate on another command: exit 2.
set -u

src=$(cd "${IOSTRATA_SRCDIR:-$(dirname "$0")/../..}" && pwd -P)
build=${IOSTRATA_BUILDDIR:-$src/build}
camp=${CAMPAIGN:-$build/jobscripts/iostrata-campaign}

echo "1..3"
if [ ! -x "$camp" ]; then
	for i in 1 2 3; do echo "ok $i # SKIP no $camp"; done
	exit 0
fi
tmp=$(mktemp -d /tmp/test_campaign_estimate.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/lib/tap.bash
source "$src/tests/lib/tap.bash"

# 1: 21 elements (the baseline at 1, then at 2 and 3 the baseline, 8
# throttles, the baseline): 21 x 2 x 2 x 7 x 150 s = 88200 s timed
out=$("$camp" plan "$src/site/example" sweep-disk-bw --estimate --campaign="$tmp/none" 2>&1)
if [[ $? -eq 0 && $out == *'estimate: 21 element(s) x 2 run(s) x 2 phase(s) x 7 repetition(s) x 150 s; lay-out 512 rank(s) x 16 GiB per run'* &&
	$out == *'with dataset reuse: 26.21 h (94354 s: timed 88200 s, per repetition 94 s, lay-out 5871 s in 3 element(s), per element 189 s)'* &&
	$out == *'without dataset reuse: 38.26 h (137719 s: timed 88200 s,'*'lay-out 49235 s in 21 element(s)'* &&
	$out == *"overhead per element: 9.0 s (default: "*"per repetition: 0.16 s (default: gather 0.116 s"* &&
	$out == *"Table 4 write efficiency"* ]]; then
	ok "plan --estimate: the paper's disk sweep"
else
	notok "plan --estimate: the paper's disk sweep" "$out"
fi

# 2: two elements recorded 100 s and 120 s of which 16 s timed: overhead
# (84 + 104) / 2 = 94 s, less the predicted lay-out (64 MiB x 2 ranks at
# GiB/s: ~0) and the defaults' repetition overheads (8 x 0.16 s)
c=$tmp/c
mkdir -p "$c/elements/0" "$c/elements/1"
echo "100.000 16.000" >"$c/elements/0/timing"
echo "120.000 16.000" >"$c/elements/1/timing"
out=$("$camp" plan "$src/site/local" sweep-disk-bw --estimate --campaign="$c" 2>&1)
if [[ $? -eq 0 && $out == *'overhead per element: 92.7 s, measured: mean total - timed - predicted lay-out over 2 element(s)'* &&
	$out == *'with dataset reuse: 0.15 h (543 s: timed 80 s, per repetition 0 s,'*'per element 463 s)'* ]]; then
	ok "plan --estimate: the overhead measured from the timing records"
else
	notok "plan --estimate: the overhead measured from the timing records" "$out"
fi

# 3
out=$("$camp" plan "$src/site/example" layered --estimate 2>&1)
rc=$?
out2=$("$camp" status "$src/site/example" sweep-disk-bw --estimate 2>&1)
rc2=$?
if [[ $rc -eq 2 && $out == 'iostrata-campaign: plan --estimate: job layered: not estimated (accepted: sweep-cores-mem, sweep-disk-bw, sweep-threads)' &&
	$rc2 -eq 2 && $out2 == *'status: --estimate is plan'* ]]; then
	ok "--estimate refused for a job it does not model and on status"
else
	notok "--estimate refused" "rc $rc: $out; rc $rc2: $out2"
fi
