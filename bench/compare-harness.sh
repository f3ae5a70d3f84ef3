#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/compare-harness.sh: what a harness that times every operation
# costs, side by side in one run: a loop doing nothing but one
# clock_gettime(CLOCK_MONOTONIC) per iteration (bench/clock-loop.c, built
# here: the limit), iostrata-bench's null backend with its defaults (fresh
# buffers, a latency histogram per operation), fio's null engine and, when
# IOR is there (-i, or `ior` in PATH; see compare-ior.sh), IOR's DUMMY
# backend; 4 KiB writes, one rank, time-based, interleaved rounds (the
# order rotates), the 1-minute load average before each round.  Per tool
# the median rate per rank and its ratio to the clock loop, by wall time
# and by the process's CPU time (ops per CPU second: what holds on a busy
# machine, where wall rates fall with the share of the CPU a run gets;
# IOR reports no CPU time).  Run by hand, as root, on an idle machine;
# never part of the timed tests.
#
# Usage: bench/compare-harness.sh [-b BUILD] [-i IOR] [-n ROUNDS] [-r RUNTIME]
# Output: a table on stdout; raw rows in /var/tmp/iostrata-compare-harness.tsv
# (round, load, tool, ops/s, ops per CPU s).

set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$here/../build
ior=$(command -v ior || true)
rounds=5
runtime=5
while getopts b:i:n:r: o; do
	case $o in
	b) build=$OPTARG ;;
	i) ior=$OPTARG ;;
	n) rounds=$OPTARG ;;
	r) runtime=$OPTARG ;;
	*) exit 2 ;;
	esac
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "compare-harness: -n \"$rounds\": expected a count >= 1" >&2; exit 2; }
[[ $runtime =~ ^[1-9][0-9]*$ ]] || { echo "compare-harness: -r \"$runtime\": expected whole seconds >= 1" >&2; exit 2; }
bench=$build/mpibench/iostrata-bench
[[ -x $bench ]] || { echo "compare-harness: $bench not built" >&2; exit 2; }
command -v fio >/dev/null || { echo "compare-harness: fio not found" >&2; exit 2; }
[[ -z $ior || -x $ior ]] || { echo "compare-harness: -i $ior: not an executable" >&2; exit 2; }
. "$here/lib.bash"
bench_mpi_env
tmp=$(mktemp -d /var/tmp/iostrata-compare-harness.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -Wall -Wextra -o "$tmp/clock-loop" "$here/clock-loop.c"
tsv=/var/tmp/iostrata-compare-harness.tsv
: >"$tsv"

# each prints "OPS_PER_S OPS_PER_CPU_S" (the second "-" when unknown)
run_clock() { "$tmp/clock-loop" "$runtime"; }
run_iostrata() {
	mpirun -n 1 --bind-to none "$bench" --backend=null --rw=write --bs=4k \
		--size=1G --dir="$tmp" --runtime="$runtime" --reps=1 --quiet \
		--summary=json --output=none --seed=1 | grep '^{' |
		/usr/bin/python3 -c '
import json, sys
r = json.load(sys.stdin)["phases"][0]["reps"][0]
# cpu_s_per_gib: the rank CPU seconds (getrusage) per GiB of 4 KiB ops
print(r["sum_rank_iops"], (1 << 30) / 4096 / r["cpu_s_per_gib"])'
}
run_fio() {
	fio --output-format=json --name=fio --directory="$tmp" --rw=write \
		--bs=4k --size=1G --ioengine=null --numjobs=1 --time_based \
		--runtime="$runtime" | /usr/bin/python3 -c '
import json, sys
j = json.load(sys.stdin)["jobs"][0]
cpu = (j["usr_cpu"] + j["sys_cpu"]) / 100
print(j["write"]["iops"], j["write"]["iops"] / cpu if cpu > 0 else "-")'
}
run_ior() {
	mpirun -n 1 --bind-to none "$ior" -a DUMMY -w -t 4k -b 1024g -D "$runtime" \
		-F -i 1 -o "$tmp/ior" -O summaryFormat=JSON 2>/dev/null |
		/usr/bin/python3 -c '
import json, sys
t = "".join(l for l in sys.stdin if not l.startswith("WARNING"))
d = json.loads(t[t.index("{"):])
print([s["OPsMean"] for s in d["summary"] if s["operation"] == "write"][0], "-")'
}

tools=(clock iostrata fio)
[[ -n $ior ]] && tools+=(ior)
for t in "${tools[@]}"; do run_"$t" >/dev/null; done # warm up
for ((r = 1; r <= rounds; r++)); do
	load=$(cut -d' ' -f1 /proc/loadavg)
	n=${#tools[@]}
	for ((k = 0; k < n; k++)); do
		t=${tools[$(((k + r) % n))]}
		read -r ops cpu <<<"$(run_"$t")"
		printf '%d\t%s\t%s\t%s\t%s\n' "$r" "$load" "$t" "$ops" "$cpu" >>"$tsv"
		echo "compare-harness: round $r (load $load): $t $ops ops/s, $cpu per CPU s" >&2
	done
done

/usr/bin/python3 - "$tsv" <<'PY'
import sys, statistics as st
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
by = {}
for r, load, t, ops, cpu in rows:
    by.setdefault(t, {})[r] = (float(ops), None if cpu == "-" else float(cpu))
loads = sorted({(r, float(l)) for r, l, *_ in rows})
print("rounds %d, load average before each: %s" % (len(loads), " ".join("%.2f" % l for _, l in loads)))
print("%-9s %14s %9s %16s %9s" % ("tool", "M ops/s/rank", "/ clock", "M ops/CPU s", "/ clock"))
clock = by["clock"]
for t in by:
    w = [by[t][r][0] / clock[r][0] for r in by[t] if r in clock]
    c = [by[t][r][1] / clock[r][1] for r in by[t] if r in clock and by[t][r][1] and clock[r][1]]
    cpus = [v[1] for v in by[t].values() if v[1]]
    print("%-9s %14.2f %9s %16s %9s" % (t, st.median(v[0] for v in by[t].values()) / 1e6,
          "%.3f" % st.median(w),
          "%.2f" % (st.median(cpus) / 1e6) if cpus else "-",
          "%.3f" % st.median(c) if c else "-"))
print("(ratios: the median of the per-round ratios to the clock loop of the same round)")
PY
