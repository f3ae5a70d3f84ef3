#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/compare-fio.sh: iostrata-bench side by side with fio, same
# parameters, interleaved (the order alternates per pair), >= 5 pairs; prints
# per case the median of each tool, the median of the per-pair ratios
# (iostrata / fio) and CPU seconds per GiB.  Run by hand, as root, on an idle
# machine; never part of the timed tests.
#
# Usage: bench/compare-fio.sh [-b BUILD] [-d DIR] [-p PAIRS] [-r RUNTIME]
#                             [-s SIZE] [CASE...]
# CASE: null1 null2 seqw-psync1 seqr-psync1 seqw-aio16 seqr-aio16
#       randw-psync1 randr-psync1 randw-aio16 randr-aio16, seqw-paio16
#       seqr-paio16 randw-paio16 randr-paio16 (posixaio), each with the rank
#       count appended after '@' (default: all cases @1 and @2), e.g. randr-aio16@2
# Output: a table on stdout; raw rows in DIR/compare-fio.tsv.

set -euo pipefail
build=$(cd "$(dirname "$0")/.." && pwd)/build
dir=/var/tmp/iostrata-compare
pairs=5
runtime=5
size=1G
while getopts b:d:p:r:s: o; do
	case $o in
	b) build=$OPTARG ;;
	d) dir=$OPTARG ;;
	p) pairs=$OPTARG ;;
	r) runtime=$OPTARG ;;
	s) size=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
bench=$build/mpibench/iostrata-bench
[[ -x $bench ]] || { echo "compare-fio: $bench not built" >&2; exit 2; }
command -v fio >/dev/null || { echo "compare-fio: fio not found" >&2; exit 2; }
. "$(dirname "$0")/lib.bash"
bench_mpi_env
mkdir -p "$dir"
tsv=$dir/compare-fio.tsv
: >"$tsv"

cases=("$@")
if ((${#cases[@]} == 0)); then
	for c in null seqw-psync1 seqr-psync1 seqw-aio16 seqr-aio16 \
		randw-psync1 randr-psync1 randw-aio16 randr-aio16 \
		seqw-paio16 seqr-paio16 randw-paio16 randr-paio16; do
		cases+=("$c@1" "$c@2")
	done
fi

# case -> "rw bs engine depth backend"
params() {
	case ${1%@*} in
	null) echo "write 4k psync 1 null" ;;
	seqw-psync1) echo "write 8M psync 1 posix" ;;
	seqr-psync1) echo "read 8M psync 1 posix" ;;
	seqw-aio16) echo "write 8M libaio 16 posix" ;;
	seqr-aio16) echo "read 8M libaio 16 posix" ;;
	randw-psync1) echo "randwrite 4k psync 1 posix" ;;
	randr-psync1) echo "randread 4k psync 1 posix" ;;
	randw-aio16) echo "randwrite 4k libaio 16 posix" ;;
	randr-aio16) echo "randread 4k libaio 16 posix" ;;
	seqw-paio16) echo "write 8M posixaio 16 posix" ;;
	seqr-paio16) echo "read 8M posixaio 16 posix" ;;
	randw-paio16) echo "randwrite 4k posixaio 16 posix" ;;
	randr-paio16) echo "randread 4k posixaio 16 posix" ;;
	*) echo "compare-fio: unknown case $1" >&2; exit 2 ;;
	esac
}

# run_mb CASE -> "metric cpu_s_per_gib" (metric: B/s, or ops/s for 4k)
run_mb() {
	local rw bs eng depth be n=${1#*@} out
	read -r rw bs eng depth be <<<"$(params "$1")"
	out=$(mpirun -n "$n" --bind-to none "$bench" --backend="$be" --rw="$rw" \
		--bs="$bs" --size="$size" --dir="$dir" --ioengine="$eng" \
		--iodepth="$depth" --runtime="$runtime" --reps=1 --keep \
		--force --quiet --summary=json --output=none --seed=1 |
		grep '^{')
	/usr/bin/python3 -c '
import json, sys
d = json.loads(sys.argv[1]); r = d["phases"][0]["reps"][0]
m = r["sum_rank_iops"] if sys.argv[2] == "4k" else r["sum_rank_bw"]
print(m, r["cpu_s_per_gib"] if r["cpu_s_per_gib"] is not None else "nan")' "$out" "$bs"
}

run_fio() {
	local rw bs eng depth be n=${1#*@} out ioeng
	read -r rw bs eng depth be <<<"$(params "$1")"
	ioeng=$eng
	[[ $be == null ]] && ioeng=null
	out=$(fio --output-format=json --name=fio --directory="$dir" \
		--rw="$rw" --bs="$bs" --size="$size" --ioengine="$ioeng" \
		--iodepth="$depth" --direct=$([[ $be == null ]] && echo 0 || echo 1) \
		--numjobs="$n" --time_based --runtime="$runtime" \
		--filename_format='iostrata-bench.$jobnum' \
		--randrepeat=0 --norandommap)
	/usr/bin/python3 -c '
import json, sys
d = json.loads(sys.argv[1]); rw = sys.argv[3]
m = 0.0; cpu = 0.0; b = 0
for j in d["jobs"]:
    for k in ("read", "write"):
        m += j[k]["iops"] if sys.argv[2] == "4k" else j[k]["bw_bytes"]
        b += j[k]["io_bytes"]
    cpu += (j["usr_cpu"] + j["sys_cpu"]) / 100.0 * j["job_runtime"] / 1000.0
print(m, cpu / (b / 2**30) if b else "nan")' "$out" "$bs" "$rw"
}

for c in "${cases[@]}"; do
	# warm-up (not counted): lays out the files.  fio works on
	# iostrata-bench's own files (filename_format), so both tools read the
	# same blocks through the same page and host caches.
	run_mb "$c" >/dev/null
	run_fio "$c" >/dev/null
	for ((p = 1; p <= pairs; p++)); do
		if ((p % 2)); then
			a=$(run_mb "$c"); b=$(run_fio "$c")
		else
			b=$(run_fio "$c"); a=$(run_mb "$c")
		fi
		printf '%s\t%d\t%s\t%s\n' "$c" "$p" "$a" "$b" | tr ' ' '\t' >>"$tsv"
		echo "compare-fio: $c pair $p: iostrata $a | fio $b" >&2
	done
done

/usr/bin/python3 - "$tsv" <<'PY'
import sys, statistics as st, math
rows = {}
for line in open(sys.argv[1]):
    c, p, m, mc, f, fc = line.split("\t")
    rows.setdefault(c, []).append((float(m), float(mc), float(f), float(fc)))
print("%-16s %5s %14s %14s %8s %12s %12s" % ("case", "pairs", "iostrata", "fio", "ratio", "cpu s/GiB mb", "cpu s/GiB fio"))
for c, r in rows.items():
    unit = "IOPS" if c.startswith(("null", "rand")) else "MB/s"
    scale = 1 if unit == "IOPS" else 1e6
    n = int(c.split("@")[1])
    mb = st.median(x[0] for x in r); fi = st.median(x[2] for x in r)
    ratio = st.median(x[0] / x[2] for x in r if x[2] > 0)
    if c.startswith("null"):
        mb /= n; fi /= n; unit = "IOPS/rank"
    mc = st.median(x[1] for x in r); fc = st.median(x[3] for x in r)
    print("%-16s %5d %10.0f %-4s %10.0f %-4s %7.3f %12.4f %12.4f" % (c, len(r), mb / scale, unit if unit != "IOPS/rank" else "/rk", fi / scale, "", ratio, mc, fc))
PY
