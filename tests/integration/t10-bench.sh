#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# t10-bench: iostrata-bench on the local site, sbatch on the compute nodes with
# srun --mpi=pmix: (1) write,read with --reorder --verify on the CephFS
# mount, (2) randrw with libaio at iodepth 4 and a psync random read on the
# local disk, (1b) a verified write,read with posixaio at iodepth 8 on the
# CephFS mount.  Asserts exit 0, valid repetitions, every node seen, per-node
# figures, rank files removed, and (when the results writer is built) the
# HDF5 file read back by h5dump and /usr/bin/python3 h5py, every repetition
# with its latency histograms; (3) the progress line counts every rank.

set -euo pipefail
T=t10-bench
. "$(dirname "$0")/t1x-lib.bash"

cephdir=$IOSTRATA_BENCH_DIR/$T.$$
make_shared "$cephdir"
echo '{"note":"attached by t10"}' >"$work/attach.json"

run_job ceph 6 150 "$bench" --rw=write,read --reorder --verify --bs=1M \
	--size=8M --dir="$cephdir" --runtime=2 --reps=2 --interval=500ms \
	--output="$(h5out ceph)" --summary=json --quiet --seed=11 \
	--attach=note="$work/attach.json"
[[ $(job_rc ceph) == 0 ]] || fail "CephFS run exited $(job_rc ceph): $(tail -20 "$work/ceph.out")"
json_of ceph >"$work/ceph.json"
/usr/bin/python3 - "$work/ceph.json" "$NNODES" <<'PY' || fail "CephFS summary: $(cat "$work/ceph.json")"
import json, sys
d = json.load(open(sys.argv[1]))
nn = int(sys.argv[2])
assert d["valid"] is True, d["reasons"]
assert d["ranks"] == 6 and d["nodes"] == nn, (d["ranks"], d["nodes"])
assert [p["name"] for p in d["phases"]] == ["write", "read"]
for p in d["phases"]:
    assert p["nvalid"] == 2, p
    for r in p["reps"]:
        assert r["stonewall_bw"] > 0 and r["window_bw"] > 0
        assert len(r["node_bw"]) == nn and all(x > 0 for x in r["node_bw"])
        assert r["lat_p50_ns"] <= r["lat_p99_ns"] <= r["lat_max_ns"]
    for f in ("stonewall_bw", "window_bw", "sum_rank_bw", "lat_p99_ns"):
        s = p["stats"][f]
        assert s["n"] == 2 and s["min"] <= s["mean"] <= s["max"], (f, s)
PY
left=$(find "$cephdir" -name 'iostrata-bench.*' | wc -l)
[[ $left == 0 ]] || fail "$left rank files left in $cephdir"

# The paper's engine on the paper's filesystem: POSIX AIO (glibc's
# aio_write/aio_read/aio_suspend), 8 in flight, O_DIRECT on the ceph-fuse
# mount, a verified write then read (every block checked), recorded as
# ioengine posixaio at iodepth 8.
run_job paio 6 150 "$bench" --rw=write,read --verify --bs=64k --size=4M \
	--dir="$cephdir" --ioengine=posixaio --iodepth=8 --runtime=2 --reps=1 \
	--output="$(h5out paio)" --summary=json --quiet
[[ $(job_rc paio) == 0 ]] || fail "posixaio run on CephFS exited $(job_rc paio): $(tail -20 "$work/paio.out")"
json_of paio >"$work/paio.json"
/usr/bin/python3 - "$work/paio.json" <<'PY' || fail "posixaio summary: $(cat "$work/paio.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["valid"] is True, d["reasons"]
assert [p["name"] for p in d["phases"]] == ["write", "read"]
for p in d["phases"]:
    assert p["nvalid"] == 1, p
    for r in p["reps"]:
        assert r["stonewall_bw"] > 0, r
PY
if [[ $H5 == yes ]]; then
	/usr/bin/python3 - "$work/paio.h5" <<'PY' || fail "posixaio results file: engine or depth not recorded"
import sys, h5py
f = h5py.File(sys.argv[1], "r")
s = lambda v: v.decode() if isinstance(v, bytes) else str(v)
cfg = {k: s(v) for k, v in f["config"].attrs.items()}
assert cfg.get("ioengine") == "posixaio", cfg.get("ioengine")
assert cfg.get("iodepth") == "8", cfg.get("iodepth")
PY
fi
left=$(find "$cephdir" -name 'iostrata-bench.*' | wc -l)
[[ $left == 0 ]] || fail "$left rank files left in $cephdir after the posixaio run"

run_job local 6 150 "$bench" --rw=randrw,randread --rwmixread=60 --bs=4k \
	--size=4M --dir="$work" --ioengine=libaio --iodepth=4 --runtime=2 \
	--reps=2 --output="$(h5out local)" --summary=json --quiet
[[ $(job_rc local) == 0 ]] || fail "local-disk run exited $(job_rc local): $(tail -20 "$work/local.out")"
json_of local >"$work/local.json"
/usr/bin/python3 - "$work/local.json" <<'PY' || fail "local summary: $(cat "$work/local.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["valid"] is True, d["reasons"]
assert [p["headline"] for p in d["phases"]] == ["stonewall_iops"] * 2
for p in d["phases"]:
    assert p["nvalid"] == 2
    for r in p["reps"]:
        assert r["stonewall_iops"] > 0
PY
left=$(find "$work" -name 'iostrata-bench.*' | wc -l)
[[ $left == 0 ]] || fail "$left rank files left in $work"

if [[ $H5 != yes ]]; then
	log "results writer not built: HDF5 read-back not checked"
else
	for f in ceph local; do
		[[ -s $work/$f.h5 ]] || fail "no results file $work/$f.h5"
		h5dump -H "$work/$f.h5" >"$work/$f.h5dump" ||
			fail "h5dump cannot read $work/$f.h5"
		grep -q 'phases' "$work/$f.h5dump" || fail "h5dump shows no /phases"
	done
	/usr/bin/python3 - "$work/ceph.h5" "$NNODES" <<'PY' || fail "h5py read-back of ceph.h5"
import sys, h5py
f = h5py.File(sys.argv[1], "r")
nn = int(sys.argv[2])
a = f.attrs
s = lambda v: v.decode() if isinstance(v, bytes) else str(v)
assert s(a["format"]) == "iostrata-results", a["format"]
assert s(a["status"]) == "complete", a["status"]
assert int(a["nranks"]) == 6 and int(a["nnodes"]) == nn
assert int(a["nphases"]) == 2
assert "--reorder" in s(a["command_line"])
for k in range(2):
    ph = f["phases/%d" % k]
    assert int(ph.attrs["nreps"]) == 2
    for r in range(2):
        rep = ph["reps/%d" % r]
        assert int(rep.attrs["valid"]) == 1
        assert rep.attrs["stonewall_bw"] > 0
        ranks = rep["ranks"]
        assert len(ranks) == 6
        # every repetition keeps its histograms, also those rank 0 dropped
        # from memory and the writer copied over from the previous file
        h = rep["lat_hist"][:]
        assert h.shape == (6, 976), h.shape
        assert (h.sum(axis=1) == ranks["lat_n"]).all(), (h.sum(axis=1), ranks["lat_n"])
        assert h.sum() > 0
print("h5py ok")
PY
fi

# Progress: not a terminal, so a line every 10 s, and it counts every
# rank (the others report as often as a line is printed), not rank 0 alone.
run_job progress 6 150 "$bench" --backend=null --bs=4k --size=1G \
	--runtime=11 --reps=1 --output=none --summary=json
[[ $(job_rc progress) == 0 ]] || fail "progress run exited $(job_rc progress): $(tail -20 "$work/progress.out")"
json_of progress >"$work/progress.json"
/usr/bin/python3 - "$work/progress.out" "$work/progress.json" <<'PY' || fail "progress line: $(grep 'rep 1/1' "$work/progress.out")"
import json, re, sys
lines = [l for l in open(sys.argv[1]) if "write rep 1/1" in l]
assert len(lines) == 1, lines
m = re.search(r" 10/11 s .* ([0-9]+) IOPS", lines[0])
assert m, lines[0]
iops = float(m.group(1))
d = json.load(open(sys.argv[2]))
total = d["phases"][0]["reps"][0]["window_iops"]
# rank 0 alone would be about a sixth of the total
assert iops > 0.5 * total, (iops, total)
PY
expect_not_drained "at the end"
log "PASS"
