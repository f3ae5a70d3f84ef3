#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench_report: time `iostrata-report show` and `export` over N results
# files (default 1000) written by iostrata-h5synth: 3 nodes x 2 ranks,
# write+read, 3 repetitions, 10 samples per rank (like a short campaign).
# Target: each command < 10 s for 1000 files.  Run by hand:
#   bench/bench_report.sh [BUILD_DIR] [N]
set -euo pipefail
build=${1:-$(cd "$(dirname "$0")/.." && pwd)/build}
n=${2:-1000}
synth=$build/tests/tools/iostrata-h5synth
report=$build/report/iostrata-report
# BENCH_DIR=DIR keeps (and reuses) the files there
if [[ -n ${BENCH_DIR:-} ]]; then
	dir=$BENCH_DIR
	mkdir -p "$dir"
else
	dir=$(mktemp -d /tmp/bench_report.XXXXXX)
	trap 'rm -rf -- "$dir"' EXIT
fi

t0=$(date +%s.%N)
for ((i = 0; i < n; i++)); do
	[[ -s $dir/run-$(printf %04d "$i").h5 ]] && continue
	"$synth" --seed=$i --cpus=$((8 << (i % 3))) --mem=$((32 << (i % 2)))G \
		"$dir/run-$(printf %04d "$i").h5"
done
t1=$(date +%s.%N)
size=$(du -sb "$dir" | cut -f1)
echo "wrote $n files ($((size / n)) bytes each) in $(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b-a}') s"

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) (wall time suffers on a shared box; CPU time does not)"
for cmd in "show" "export --format=csv" "export --format=json" "validate"; do
	TIMEFORMAT="%R %U %S"
	# shellcheck disable=SC2086
	t=$({ time "$report" $cmd "$dir/*.h5" >"$dir/out.txt"; } 2>&1)
	read -r wall user sys <<<"$t"
	printf '%-22s wall %6.2f s  cpu %6.2f s  (%d output lines)\n' "$cmd" \
		"$wall" "$(awk -v a="$user" -v b="$sys" 'BEGIN{print a+b}')" \
		"$(wc -l <"$dir/out.txt")"
done
