#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/compare-ior.sh: iostrata-bench's null backend against IOR's DUMMY
# backend (no I/O: what each benchmark's own loop costs per operation),
# 4 KiB writes, time-based (iostrata --runtime, IOR -D stonewalling),
# file per process, interleaved pairs (the order alternates), 1 and 2 ranks;
# iostrata with its default fresh buffers (--scramble-buffers=1), so the
# figure includes making every write's content.  Prints per case the
# medians per rank and the median of the per-pair ratios.  Run by hand, as
# root, on an idle machine; never part of the timed tests.
#
# IOR is not a Debian package: build it from its source (github.com/hpc/ior:
# ./bootstrap && ./configure --prefix=DIR && make install) and give -i.
#
# Usage: bench/compare-ior.sh [-b BUILD] [-i IOR] [-p PAIRS] [-r RUNTIME]
#                             [RANKS...]   (default: 1 2)
# Output: a table on stdout; raw rows in /var/tmp/iostrata-compare-ior.tsv.

set -euo pipefail
build=$(cd "$(dirname "$0")/.." && pwd)/build
ior=$(command -v ior || true)
pairs=5
runtime=5
while getopts b:i:p:r: o; do
	case $o in
	b) build=$OPTARG ;;
	i) ior=$OPTARG ;;
	p) pairs=$OPTARG ;;
	r) runtime=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
bench=$build/mpibench/iostrata-bench
[[ -x $bench ]] || { echo "compare-ior: $bench not built" >&2; exit 2; }
[[ -n $ior && -x $ior ]] || { echo "compare-ior: no IOR binary (give -i PATH; IOR is built from github.com/hpc/ior)" >&2; exit 2; }
. "$(dirname "$0")/lib.bash"
bench_mpi_env
tmp=$(mktemp -d /var/tmp/iostrata-compare-ior.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
tsv=/var/tmp/iostrata-compare-ior.tsv
: >"$tsv"
ranks=("$@")
((${#ranks[@]})) || ranks=(1 2)

# run_mb N -> ops/s summed over the ranks
run_mb() {
	mpirun -n "$1" --bind-to none "$bench" --backend=null --rw=write --bs=4k \
		--size=1G --dir="$tmp" --runtime="$runtime" --reps=1 --quiet \
		--summary=json --output=none --seed=1 | grep '^{' |
		/usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["phases"][0]["reps"][0]["sum_rank_iops"])'
}

# run_ior N -> ops/s (IOR's OPsMean of the write, all ranks)
run_ior() {
	mpirun -n "$1" --bind-to none "$ior" -a DUMMY -w -t 4k -b 1024g -D "$runtime" \
		-F -i 1 -o "$tmp/ior" -O summaryFormat=JSON 2>/dev/null |
		/usr/bin/python3 -c '
import json, sys
t = "".join(l for l in sys.stdin if not l.startswith("WARNING"))
d = json.loads(t[t.index("{"):])
print([s["OPsMean"] for s in d["summary"] if s["operation"] == "write"][0])'
}

for n in "${ranks[@]}"; do
	run_mb "$n" >/dev/null
	run_ior "$n" >/dev/null
	for ((p = 1; p <= pairs; p++)); do
		if ((p % 2)); then
			a=$(run_mb "$n"); b=$(run_ior "$n")
		else
			b=$(run_ior "$n"); a=$(run_mb "$n")
		fi
		printf 'null4k@%d\t%d\t%s\t%s\n' "$n" "$p" "$a" "$b" >>"$tsv"
		echo "compare-ior: $n rank(s) pair $p: iostrata $a | IOR DUMMY $b" >&2
	done
done

/usr/bin/python3 - "$tsv" <<'PY'
import sys, statistics as st
rows = {}
for line in open(sys.argv[1]):
    c, p, m, f = line.split("\t")
    rows.setdefault(c, []).append((float(m), float(f)))
print("%-10s %5s %16s %16s %8s %12s" % ("case", "pairs", "iostrata /rank", "IOR DUMMY /rank", "ratio", "ratio range"))
for c, r in rows.items():
    n = int(c.split("@")[1])
    ratios = [m / f for m, f in r if f > 0]
    print("%-10s %5d %14.2fM %14.2fM %8.3f %6.2f-%.2f" % (c, len(r), st.median(m for m, _ in r) / n / 1e6,
          st.median(f for _, f in r) / n / 1e6, st.median(ratios), min(ratios), max(ratios)))
PY
