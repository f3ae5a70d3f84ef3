#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# t15-bench-shared: iostrata-bench --file-layout=shared (N-to-1: every rank
# on one file, IOR's segmented layout with -F off) on the local site's
# CephFS mount, sbatch on the compute nodes (2 ranks per node) with srun
# --mpi=pmix: (1) --once write, read (--reorder: another node's blocks)
# and randread with --verify and --keep, segments of 128 KiB over 64 KiB
# I/Os; (2) a time-based libaio randwrite over the kept file (reused: it is
# ours), removed at the end; (3) the cephfs backend on one shared file,
# write then --reorder read with --verify; (4) a time-based write then a
# verified read (the lay-out fills what the write left).  Asserts exit 0 and valid repetitions, the
# config's file_layout and shared_block, one file of ranks x size bytes and
# no rank file, every 64 KiB block of that file stamped by the rank that
# owns it at its own offset (read back here, outside the benchmark), each
# rank's bytes equal to its share, the file gone after (2), and
# iostrata-report show naming the phases write:shared.

set -euo pipefail
T=t15-bench-shared
. "$(dirname "$0")/t1x-lib.bash"

ceph_h5_setup
size=$((4 << 20)) bs=65536 block=131072

# (1) size-based, stamped and checked, the file kept
pats=write,read,randread
run_job once "$ntasks" 180 "$bench" --once --file-layout=shared \
	--shared-block=$block --rw="$pats" --reorder --verify --keep \
	--bs=$bs --size="$size" --dir="$cephdir" --reps=1 --interval=100ms \
	--output="$work/once.h5" --summary=json --quiet --seed=15
[[ $(job_rc once) == 0 ]] || fail "shared --once run exited $(job_rc once): $(tail -20 "$work/once.out")"
json_of once >"$work/once.json"
/usr/bin/python3 - "$work/once.json" "$ntasks" <<'PY' || fail "summary: $(cat "$work/once.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["valid"] is True, d["reasons"]
assert d["ranks"] == int(sys.argv[2]), d["ranks"]
for p in d["phases"]:
    assert p["nvalid"] == 1, p
PY
files=$(cd "$cephdir" && ls)
[[ $files == iostrata-bench.shared ]] || fail "expected only iostrata-bench.shared in $cephdir, found: $files"
"$report" validate "$work/once.h5" >"$work/once.validate" 2>&1 ||
	fail "once.h5 does not validate: $(cat "$work/once.validate")"
/usr/bin/python3 - "$work/once.h5" "$cephdir/iostrata-bench.shared" \
	"$ntasks" "$size" "$bs" "$block" "$pats" <<'PY' || fail "shared file or results"
import struct, sys, h5py
path, data, n, size, bs, block, pats = sys.argv[1:]
n, size, bs, block = int(n), int(size), int(bs), int(block)
s = lambda v: v.decode() if isinstance(v, bytes) else str(v)
f = h5py.File(path, "r")
c = f["config"].attrs
assert s(c["file_layout"]) == "shared", c["file_layout"]
assert int(s(c["shared_block"])) == block, c["shared_block"]
names = [s(f["phases/%d" % k].attrs["name"]) for k in range(int(f.attrs["nphases"]))]
assert names == pats.split(","), names
for k, name in enumerate(names):
    rep = f["phases/%d/reps/0" % k]
    assert int(rep.attrs["valid"]) == 1, (name, s(rep.attrs["invalid_reason"]))
    for i, x in enumerate(rep["ranks"][:]):
        moved = int(x["bytes_read"]) + int(x["bytes_write"])
        assert moved == size, (name, "rank", i, moved, size)
        assert int(x["verify_errors"]) == 0, (name, i)
# the file itself: ranks x size bytes, block b of the file written by
# rank (b / (block / bs)) % n at its own offset (the verify stamp: magic,
# rank, rep, offset)
raw = open(data, "rb").read()
assert len(raw) == n * size, (len(raw), n * size)
owners = [0] * n
for off in range(0, len(raw), bs):
    magic, rank, rep, o = struct.unpack_from("<QIIQ", raw, off)
    assert magic == 0x31534f4954534f49, ("no stamp at", off)
    want = (off // block) % n
    assert rank == want, ("offset", off, "rank", rank, "expected", want)
    assert o == off, ("offset", off, "stamped", o)
    owners[rank] += bs
assert owners == [size] * n, owners
print("ok", len(raw), "bytes,", len(raw) // bs, "blocks")
PY

# (2) time-based random writes through libaio on the kept file (reused),
# which rank 0 then removes
run_job aio "$ntasks" 120 "$bench" --file-layout=shared --rw=randwrite \
	--bs=16k --size="$size" --dir="$cephdir" --ioengine=libaio \
	--iodepth=4 --runtime=1 --reps=1 --interval=100ms \
	--output="$work/aio.h5" --summary=none --quiet
[[ $(job_rc aio) == 0 ]] || fail "shared libaio run exited $(job_rc aio): $(tail -20 "$work/aio.out")"
left=$(find "$cephdir" -name 'iostrata-bench*' | wc -l)
[[ $left == 0 ]] || fail "$left benchmark files left in $cephdir: $(ls -la "$cephdir")"

# (4) time-based: a 1 s write covers part of each rank's share, each rank
# as far as its speed took it; the read's lay-out must fill every rank's
# blocks (not only those past the file's end), or --verify finds holes
run_job timed "$ntasks" 120 "$bench" --file-layout=shared --rw=write,read \
	--verify --bs=$bs --size=16M --dir="$cephdir" --runtime=1 --reps=1 \
	--interval=100ms --output=none --summary=json --quiet
[[ $(job_rc timed) == 0 ]] || fail "time-based shared write,read exited $(job_rc timed): $(tail -20 "$work/timed.out")"
json_of timed | grep -q '"valid": *true' || fail "time-based shared run not valid: $(json_of timed)"

# (3) the cephfs backend (libcephfs, no mount) on one shared file: rank 0
# creates it, the others open it; the reads of another node's blocks
# verify every stamp
rel=${cephdir#"${IOSTRATA_CEPHFS_MOUNT:-}"}
if [[ -n ${IOSTRATA_CEPHFS_MOUNT:-} && $rel != "$cephdir" ]] &&
	"$bench" --help | grep -q '^  cephfs '; then
	run_job ceph "$ntasks" 120 "$bench" --backend=cephfs --file-layout=shared \
		--once --rw=write,read --reorder --verify --bs=$bs --size=1M \
		--dir="$rel" --reps=1 --output=none --summary=json --quiet
	[[ $(job_rc ceph) == 0 ]] || fail "cephfs shared run exited $(job_rc ceph): $(tail -20 "$work/ceph.out")"
	json_of ceph | grep -q '"valid": *true' || fail "cephfs shared run not valid: $(json_of ceph)"
	left=$(find "$cephdir" -name 'iostrata-bench*' | wc -l)
	[[ $left == 0 ]] || fail "cephfs: $left benchmark files left in $cephdir"
else
	log "cephfs backend not built or no CephFS mount: its shared run skipped"
fi

"$report" show "$work/once.h5" "$work/aio.h5" >"$work/show.out" 2>&1 ||
	fail "iostrata-report show: $(cat "$work/show.out")"
for m in write:shared read:shared randread:shared randwrite:shared; do
	grep -q "^| $m " "$work/show.out" || fail "show has no row $m: $(cat "$work/show.out")"
done
expect_not_drained "at the end"
log "PASS"
