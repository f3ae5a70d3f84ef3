#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/scale.sh: many ranks on this machine (oversubscribed), null
# backend, N repetitions with 1 s samples: reports per repetition the time
# rank 0 spends gathering (+ figures) and writing the HDF5 file, the file's
# size, and the peak RSS per rank.
#
# Usage: bench/scale.sh [-b BUILD] [-n RANKS] [-r RUNTIME] [-R REPS] [-o OUT.h5]

set -euo pipefail
build=$(cd "$(dirname "$0")/.." && pwd)/build
ranks=64
runtime=150
reps=7
out=/var/tmp/iostrata-scale.h5
while getopts b:n:r:R:o: o; do
	case $o in
	b) build=$OPTARG ;;
	n) ranks=$OPTARG ;;
	r) runtime=$OPTARG ;;
	R) reps=$OPTARG ;;
	o) out=$OPTARG ;;
	*) exit 2 ;;
	esac
done
. "$(dirname "$0")/lib.bash"
bench_mpi_env
rm -f "$out"
json=$(mpirun -n "$ranks" --bind-to none "$build/mpibench/iostrata-bench" \
	--backend=null --bs=4k --size=1G --runtime="$runtime" --reps="$reps" \
	--interval=1 --output="$out" --summary=json --quiet | grep '^{')
/usr/bin/python3 - "$json" "$out" "$ranks" "$runtime" "$reps" <<'PY'
import json, os, sys
d = json.loads(sys.argv[1]); out = sys.argv[2]
reps = d["phases"][0]["reps"]
print("ranks %s, runtime %s s, reps %s, valid %s" % (sys.argv[3], sys.argv[4], sys.argv[5], d["valid"]))
for r in reps:
    print("rep %d: gather+figures %.3f s, HDF5 write %.3f s, total %.3f s, stonewall %.0f IOPS" % (r["rep"], r["gather_s"], r["write_s"], r["gather_s"] + r["write_s"], r["stonewall_iops"]))
print("worst gather+write per rep: %.3f s" % max(r["gather_s"] + r["write_s"] for r in reps))
print("results file %s: %d bytes" % (out, os.path.getsize(out)))
print("peak RSS per rank (VmHWM): max %.1f MiB, median %.1f MiB, rank 0 %.1f MiB" % (d["rss_max_bytes"] / 2**20, d["rss_median_bytes"] / 2**20, d["rss_rank0_bytes"] / 2**20))
PY
