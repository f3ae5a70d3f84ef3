#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# t13-bench-straggler: a 2-rank run where one rank sits in a blkio cgroup
# throttled to 20 MB/s of direct writes, the other runs free: the slow rank
# is flagged as a straggler (rate outlier) in the summary and in the results
# file, the fast one is not.  The same with 3 ranks.  With the median of
# all ranks (the rule before), 2 ranks could never be told apart.
# Needs root and cgroup v1 blkio (or skips); no Slurm site (mpirun).

set -euo pipefail
T=t13-bench-straggler
log() { printf '%s: %s\n' "$T" "$*"; }
fail() {
	printf '%s: FAIL: %s\n' "$T" "$*" >&2
	exit 1
}
skip() {
	printf '%s: SKIP: %s\n' "$T" "$*"
	exit 77
}

top=$(cd "$(dirname "$0")/../.." && pwd)
build=${IOSTRATA_BUILD_DIR:-$top/build}
bench=$build/mpibench/iostrata-bench
py=/usr/bin/python3
[[ -x $bench ]] || skip "$bench not built (configure found no MPI?)"
[[ $EUID -eq 0 ]] || skip "needs root (creates a blkio cgroup)"
command -v mpirun >/dev/null || skip "mpirun missing"
"$py" -c 'import h5py' 2>/dev/null || skip "python3-h5py missing"
blkio=/sys/fs/cgroup/blkio
[[ -w $blkio/cgroup.procs ]] || skip "no writable cgroup v1 blkio hierarchy at $blkio"

base=$(mktemp -d /var/tmp/iostrata-t13.XXXXXX)
cg=$blkio/iostrata-t13.${base##*.}
# the whole disk under the directory (throttles take whole disks)
dev=$(lsblk -no PKNAME "$(df --output=source "$base" | tail -1)" 2>/dev/null || true)
[[ -n $dev ]] || dev=$(df --output=source "$base" | tail -1)
majmin=$(lsblk -dno MAJ:MIN "/dev/${dev#/dev/}" 2>/dev/null | tr -d ' ')
[[ $majmin =~ ^[0-9]+:[0-9]+$ ]] || skip "no block device under $base (tmpfs or overlay?)"

cleanup() {
	local rc=$?
	if [[ -d $cg ]]; then
		# move anything left back to the root before removing the cgroup
		while read -r p; do echo "$p" >"$blkio/cgroup.procs" 2>/dev/null || true; done <"$cg/cgroup.procs"
		rmdir "$cg" 2>/dev/null || { echo "$T: could not remove $cg" >&2; rc=1; }
	fi
	rm -rf -- "$base"
	exit "$rc"
}
trap cleanup EXIT
mkdir "$cg"
echo "$majmin 20000000" >"$cg/blkio.throttle.write_bps_device"
grep -q "^$majmin 20000000" "$cg/blkio.throttle.write_bps_device" || fail "throttle not applied: $(cat "$cg/blkio.throttle.write_bps_device")"
log "rank 1 throttled to 20 MB/s on $majmin in $cg"

# wrapper: the throttled rank moves itself into the cgroup, then execs
cat >"$base/wrap" <<WRAP
#!/bin/bash
if [[ \${OMPI_COMM_WORLD_RANK:-} == "\$IOS_SLOW_RANK" ]]; then
	echo \$\$ >"$cg/cgroup.procs"
fi
exec "\$@"
WRAP
chmod +x "$base/wrap"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl=self,vader,tcp

run() { # NRANKS SLOW_RANK OUT
	mkdir -p "$base/d$1"
	IOS_SLOW_RANK=$2 mpirun -np "$1" -x IOS_SLOW_RANK "$base/wrap" "$bench" \
		--dir="$base/d$1" --output="$3" --rw=write --bs=1M --size=64M \
		--runtime=4 --reps=1 >"$base/out$1" 2>&1 ||
		{ cat "$base/out$1" >&2; fail "$1-rank run failed"; }
}

check() { # NRANKS SLOW_RANK FILE
	"$py" - "$@" <<'PY' || fail "$1 ranks: the straggler rule did not flag exactly rank $2"
import sys, h5py
n, slow, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
with h5py.File(path, "r") as f:
    ph = f["phases"][sorted(f["phases"].keys())[0]]
    rep = ph["reps"][sorted(ph["reps"].keys())[0]]
    ranks = rep["ranks"][()]
    rate = {int(r["rank"]): (int(r["bytes_read"]) + int(r["bytes_write"])) / ((r["t_end_ns"] - r["t_start_ns"]) / 1e9) for r in ranks}
    out = {int(r["rank"]): int(r["outlier"]) & 1 for r in ranks}
print("rates MB/s:", {k: round(v / 1e6, 1) for k, v in sorted(rate.items())}, "flagged:", [k for k, v in sorted(out.items()) if v])
assert len(rate) == n, rate
assert rate[slow] < 0.5 * max(rate.values()), "the throttle did not slow the rank down"
assert [k for k, v in out.items() if v] == [slow], out
PY
}

run 2 1 "$base/r2.h5"
grep -E "outlier: rank 1 " "$base/out2" || { cat "$base/out2"; fail "2 ranks: the summary names no outlier rank 1"; }
check 2 1 "$base/r2.h5"
run 3 2 "$base/r3.h5"
check 3 2 "$base/r3.h5"
log "ok"
