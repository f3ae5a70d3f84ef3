#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# t14-bench-once: iostrata-bench --once (size-based: each rank moves its
# file exactly once) on the local site's CephFS mount, sbatch on the compute
# nodes with srun --mpi=pmix: (1) every pattern in order, psync, 2
# repetitions, --reorder; (2) random patterns through libaio at iodepth 4.
# Asserts exit 0, every repetition valid and size-based, and in the
# results file (read back by the project's validator and /usr/bin/python3
# h5py) for every pattern: each rank's bytes equal exactly the file size
# and its ops size/bs, no rank ended early, the per-rank time series ends
# at the file size; the config records mode "once" and runtime 0.

set -euo pipefail
T=t14-bench-once
. "$(dirname "$0")/t1x-lib.bash"

ceph_h5_setup
size=$((4 << 20))

# check_file NAME BS PATTERNS REPS: the per-rank bytes of every repetition
check_file() {
	"$report" validate "$work/$1.h5" >"$work/$1.validate" 2>&1 ||
		fail "$1.h5 does not validate: $(cat "$work/$1.validate")"
	/usr/bin/python3 - "$work/$1.h5" "$ntasks" "$size" "$2" "$3" "$4" <<'PY' ||
import sys, h5py
path, n, size, bs, pats, reps = sys.argv[1:]
n, size, bs, reps = int(n), int(size), int(bs), int(reps)
f = h5py.File(path, "r")
s = lambda v: v.decode() if isinstance(v, bytes) else str(v)
assert s(f.attrs["status"]) == "complete", f.attrs["status"]
c = f["config"].attrs
assert s(c["mode"]) == "once", c["mode"]
assert float(s(c["runtime"])) == 0, c["runtime"]
names = [s(f["phases/%d" % k].attrs["name"]) for k in range(int(f.attrs["nphases"]))]
assert names == pats.split(","), (names, pats)
for k, name in enumerate(names):
    ph = f["phases/%d" % k]
    assert int(ph.attrs["nreps"]) == reps, (name, ph.attrs["nreps"])
    for r in range(reps):
        rep = ph["reps/%d" % r]
        where = "%s rep %d" % (name, r)
        assert int(rep.attrs["valid"]) == 1, (where, s(rep.attrs["invalid_reason"]))
        assert int(rep.attrs["size_based"]) == 1, where
        assert rep.attrs["t_end_ns"] == rep.attrs["t_start_ns"], where
        assert rep.attrs["window_bw"] > 0, where
        ranks = rep["ranks"][:]
        assert len(ranks) == n, (where, len(ranks))
        sb = rep["sample_bytes"][:]
        for i, x in enumerate(ranks):
            moved = int(x["bytes_read"]) + int(x["bytes_write"])
            ops = int(x["ops_read"]) + int(x["ops_write"])
            assert moved == size, (where, "rank", i, moved, size)
            assert ops == size // bs, (where, "rank", i, ops, size // bs)
            if name == "read" or name == "randread":
                assert int(x["bytes_write"]) == 0, (where, i)
            if name == "write" or name == "randwrite":
                assert int(x["bytes_read"]) == 0, (where, i)
            assert int(x["ended_early"]) == 0, (where, i)
            assert int(x["errors"]) == 0, (where, i)
            ns = int(x["nsamples"])
            assert ns >= 1 and int(sb[i][ns - 1]) == size, (where, i, ns, sb[i][:ns])
print("ok", path)
PY
		fail "results file $1.h5"
}

# (1) every pattern, psync; the reads read another node's file
pats=write,read,randwrite,randread,randrw
run_job all "$ntasks" 180 "$bench" --once --rw="$pats" --reorder --bs=64k \
	--size="$size" --dir="$cephdir" --reps=2 --interval=100ms \
	--output="$work/all.h5" --summary=json --quiet --seed=14
[[ $(job_rc all) == 0 ]] || fail "--once run exited $(job_rc all): $(tail -20 "$work/all.out")"
json_of all >"$work/all.json"
/usr/bin/python3 - "$work/all.json" "$ntasks" <<'PY' || fail "summary: $(cat "$work/all.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["valid"] is True, d["reasons"]
assert d["ranks"] == int(sys.argv[2]), d["ranks"]
for p in d["phases"]:
    assert p["nvalid"] == 2, p
PY
check_file all 65536 "$pats" 2

# (2) the random patterns through libaio, 4 I/Os in flight
pats=randwrite,randread,randrw
run_job aio "$ntasks" 180 "$bench" --once --rw="$pats" --bs=16k \
	--size="$size" --dir="$cephdir" --ioengine=libaio --iodepth=4 \
	--reps=1 --output="$work/aio.h5" --summary=none --quiet
[[ $(job_rc aio) == 0 ]] || fail "--once libaio run exited $(job_rc aio): $(tail -20 "$work/aio.out")"
check_file aio 16384 "$pats" 1

left=$(find "$cephdir" -name 'iostrata-bench.*' | wc -l)
[[ $left == 0 ]] || fail "$left rank files left in $cephdir"
expect_not_drained "at the end"
log "PASS"
