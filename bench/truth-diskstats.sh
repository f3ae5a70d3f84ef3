#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/truth-diskstats.sh: do the bytes iostrata-bench reports agree with
# what the block device saw?  Runs a direct-I/O write and a read phase on
# the local disk and compares the reported bytes with the sectors written /
# read in /proc/diskstats for the disk under DIR over the same runs.  Other
# processes writing to the same disk (other jobs, Ceph OSDs) add to the
# device's count: run on an idle machine.
#
# Usage: bench/truth-diskstats.sh [-b BUILD] [-d DIR] [-n RANKS] [-r RUNTIME]

set -euo pipefail
build=$(cd "$(dirname "$0")/.." && pwd)/build
dir=/var/tmp/iostrata-truth
ranks=2
runtime=10
while getopts b:d:n:r: o; do
	case $o in
	b) build=$OPTARG ;;
	d) dir=$OPTARG ;;
	n) ranks=$OPTARG ;;
	r) runtime=$OPTARG ;;
	*) exit 2 ;;
	esac
done
. "$(dirname "$0")/lib.bash"
bench_mpi_env
mkdir -p "$dir"
dev=$(stat -c '%d' "$dir")
maj=$((dev >> 8)) min=$((dev & 255))
# a partition counts in its own line; use the device that holds DIR
name=$(awk -v a="$maj" -v b="$min" '$1 == a && $2 == b {print $3}' /proc/diskstats)
[[ -n $name ]] || { echo "truth: no /proc/diskstats line for $maj:$min" >&2; exit 2; }
# fields: 6 sectors read, 10 sectors written (512-byte sectors)
snap() { awk -v n="$name" '$3 == n {print $6, $10}' /proc/diskstats; }

run() {
	local rw=$1 out r0 w0 r1 w1
	read -r r0 w0 <<<"$(snap)"
	out=$(mpirun -n "$ranks" --bind-to none "$build/mpibench/iostrata-bench" \
		--rw="$rw" --bs=8M --size=1G --dir="$dir" --ioengine=libaio \
		--iodepth=4 --runtime="$runtime" --reps=1 --keep --fsync \
		--quiet --summary=json --output=none | grep '^{')
	sync
	read -r r1 w1 <<<"$(snap)"
	/usr/bin/python3 -c '
import json, sys
d = json.loads(sys.argv[1]); rw = sys.argv[2]
rep = d["phases"][0]["reps"][0]
w0, w1, r0, r1 = map(int, sys.argv[3:7])
dev = (w1 - w0) * 512 if rw == "write" else (r1 - r0) * 512
rep_b = rep["bytes"]
print("%-6s reported %14d B   device %14d B   device/reported %.4f  (%+.2f%%)" % (rw, rep_b, dev, dev / rep_b, (dev / rep_b - 1) * 100))
' "$out" "$rw" "$w0" "$w1" "$r0" "$r1"
}

# layout first (untimed, not counted): a read run lays the files out
mpirun -n "$ranks" --bind-to none "$build/mpibench/iostrata-bench" --rw=read \
	--bs=8M --size=1G --dir="$dir" --runtime=1 --reps=1 --keep --quiet \
	--summary=none --output=none >/dev/null
echo "device $name ($maj:$min), $ranks ranks, ${runtime}s per run"
run write
run read
rm -f "$dir"/iostrata-bench.*
