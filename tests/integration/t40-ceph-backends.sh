#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# t40-ceph-backends: the rados and cephfs backends of iostrata-bench write
# and read verified data on the local site's real Ceph: rados on pools of
# size 1, 2 and 3 (created here, deleted after) at queue depth 8, cephfs
# (libcephfs, O_DIRECT, no mount) on a CephFS directory, also at queue
# depth 8 (its thread queue: bytes, file sizes, the engine recorded); a deliberately
# corrupted object is caught by --verify; nothing is left behind.  In the
# shared CephFS directory a stranger's file of a rank's name (and one of
# ours without iostrata's mark) is neither used, overwritten nor removed;
# --reuse-dataset on cephfs lays out and marks, then reuses; on rados the
# same with the mark on each namespace's head object (the second run writes
# no object), another --bs refused with exit 3 naming the field, and a
# namespace whose head iostrata did not make neither written nor removed.
# The Ceph
# facts of the results file connect with the run's --ceph-id and
# --ceph-keyring (not $CEPH_KEYRING), and say "unknown" and why when that
# key is wrong.

set -euo pipefail
T=t40-ceph-backends
. "$(dirname "$0")/t4x-lib.bash"
t4x_require

make_work
client=
delete_client() { [[ -z $client ]] || ceph auth del "client.$client" >/dev/null 2>&1; }
at_exit delete_client

# --reuse-dataset: phase 0 of results file [one] laid out, of [two] reused
# with no byte laid out; prints both as [label] says.
laid_then_reused() { # label one.h5 two.h5
	/usr/bin/python3 - "$@" <<'PY'
import h5py, sys
s = lambda v: v.decode() if isinstance(v, bytes) else str(v)
def ph(p):
    with h5py.File(p, "r") as f:
        a = f["phases/0"].attrs
        return s(a.get("dataset", "?")), int(a.get("layout_bytes", -1))
one, two = ph(sys.argv[2]), ph(sys.argv[3])
assert one[0] == "laid-out" and one[1] > 0 and one[1] % (8 << 20) == 0, one
assert two == ("reused", 0), two
print("%s dataset: %s, then %s" % (sys.argv[1], one, two))
PY
}

common=(--rw=write,read --bs=1M --size=16M --runtime=2 --reps=1 --interval=1
	--verify --output=none --summary=json)

for size in 1 2 3; do
	pool=iostrata-$T-s$size-$$
	t4x_pool "$pool" "$size" || fail "create pool $pool of size $size"
	log "rados backend, pool size $size, iodepth 8"
	out=$work/rados-$size.json
	t4x_srun 120 "$bench" --backend=rados --rados-pool="$pool" \
		--iodepth=8 --ioengine=libaio "${common[@]}" >"$out" 2>"$work/err" ||
		fail "rados run on pool size $size failed: $(tail -3 "$work/err")"
	/usr/bin/python3 - "$out" <<'PY' || fail "rados size $size: summary says not valid/verified"
import json, sys
s = json.load(open(sys.argv[1]))
def walk(o):
    if isinstance(o, dict):
        for k, v in o.items():
            if k in ("verify_errors", "errors") and isinstance(v, int) and v:
                sys.exit("%s=%d" % (k, v))
            walk(v)
    elif isinstance(o, list):
        for v in o:
            walk(v)
walk(s)
if not s.get("valid", False):
    sys.exit("invalid: %s" % s.get("invalid_reasons", s.get("reasons")))
PY
	left=$(t4x_objects "$pool")
	[[ $left == 0 ]] || fail "rados size $size: $left objects left behind (no --keep given)"
done

# --verify catches a corrupted object: write with --keep (fixed seed, so a
# later invocation knows the stamps), read back clean, corrupt one object
# of rank 1's namespace, read again: only rank 1 fails verification.
pool=${T4X_POOLS[0]}
one=(--backend=rados --rados-pool="$pool" --bs=1M --size=4M --runtime=1
	--reps=1 --verify --seed=4242 --output=none)
t4x_srun 120 "$bench" "${one[@]}" --rw=write --keep --summary=none \
	>/dev/null 2>&1 || fail "rados write with --keep failed"
t4x_srun 120 "$bench" "${one[@]}" --rw=read --keep --summary=json \
	>"$work/clean.json" 2>"$work/err" ||
	fail "clean re-read in a second invocation failed: $(tail -3 "$work/err")"
obj=$(rados -p "$pool" -N iostrata-bench.1 ls | head -n 1)
[[ -n $obj ]] || fail "no object in namespace iostrata-bench.1 after --keep"
head -c 1048576 /dev/urandom >"$work/junk"
rados -p "$pool" -N iostrata-bench.1 put "$obj" "$work/junk"
set +e
t4x_srun 120 "$bench" "${one[@]}" --rw=read --summary=json \
	>"$work/corrupt.json" 2>"$work/err"
rc=$?
set -e
[[ $rc != 0 ]] || fail "a corrupted object was read without error"
grep -q 'rank 1 ([^)]*) failed --verify' "$work/corrupt.json" ||
	fail "corruption not reported as rank 1's verify error (rc $rc): $(head -c 400 "$work/corrupt.json")"
if grep -Eq 'rank [02] \([^)]*\) failed --verify' "$work/corrupt.json"; then
	fail "clean ranks reported as corrupt"
fi
log "corrupted object caught on rank 1 only (exit $rc)"
left=$(t4x_objects "$pool")
[[ $left == 0 ]] || fail "$left objects left after the last run without --keep"

# A read with nothing written before lays the objects out itself, one
# object (= one block) per backend write, although the lay-out hands the
# backend 8 MiB chunks (before the fix: "lay out ... at offset 0: short
# write", exit 3; a layered run whose time-based write phase had not
# covered the file failed the same way over a slow link).
t4x_srun 120 "$bench" --backend=rados --rados-pool="$pool" --bs=1M --size=12M \
	--runtime=1 --reps=1 --verify --rw=read --output=none --summary=json \
	>"$work/fresh.json" 2>"$work/err" ||
	fail "rados read with nothing written before failed: $(grep -m1 'lay out' "$work/err" || tail -3 "$work/err")"
grep -q '"valid": *true' "$work/fresh.json" || fail "rados read after its own lay-out not valid"
left=$(t4x_objects "$pool")
[[ $left == 0 ]] || fail "$left objects left after the fresh read (no --keep given)"
log "rados read lays out its own objects (12 x 1 MiB per rank, verified)"

# --reuse-dataset on rados: the first run lays out and marks each
# namespace's head object, the second reuses without writing an object
# (every object's size and mtime unchanged), another --bs is refused with
# exit 3 naming the field and writes nothing either.
rstat() { # every object of the pool with its size and mtime, sorted
	local ns obj
	rados -p "$pool" ls --all | sort | while IFS=$'\t' read -r ns obj; do
		printf '%s %s ' "$ns" "$obj"
		rados -p "$pool" -N "$ns" stat "$obj" | sed 's/^.* mtime //'
	done
}
rds=(--backend=rados --rados-pool="$pool" --rw=read --bs=1M --size=8M
	--runtime=1 --reps=1 --reuse-dataset --seed=77 --summary=none --quiet)
t4x_srun 120 "$bench" "${rds[@]}" --output="$work/rds1.h5" 2>"$work/err" ||
	fail "rados --reuse-dataset (1) failed: $(tail -3 "$work/err")"
rstat >"$work/rstat1"
mark=$(rados -p "$pool" -N iostrata-bench.0 getxattr 0000000000000000 user.iostrata.dataset) ||
	fail "rados: no dataset mark on the head of iostrata-bench.0"
[[ $mark == "iostrata-dataset v=1 size=8388608 bs=1048576 "*" pool=$pool "* ]] ||
	fail "rados: dataset mark '$mark'"
sleep 1.1 # an object written again would show a later mtime
t4x_srun 120 "$bench" "${rds[@]}" --output="$work/rds2.h5" 2>"$work/err" ||
	fail "rados --reuse-dataset (2) failed: $(tail -3 "$work/err")"
rstat >"$work/rstat2"
diff "$work/rstat1" "$work/rstat2" >&2 ||
	fail "rados --reuse-dataset (2) wrote objects of the dataset (above)"
set +e
t4x_srun 120 "$bench" "${rds[@]/--bs=1M/--bs=512k}" --output=none \
	2>"$work/err"
rc=$?
set -e
[[ $rc == 3 ]] || fail "rados --reuse-dataset with another --bs exited $rc, want 3: $(tail -3 "$work/err")"
grep -q "dataset iostrata-bench.0: another layout: bs marked 1048576, this run 524288" "$work/err" ||
	fail "rados --reuse-dataset, another --bs: $(tail -3 "$work/err")"
rstat >"$work/rstat3"
diff "$work/rstat1" "$work/rstat3" >&2 ||
	fail "rados --reuse-dataset with another --bs wrote objects (above)"
laid_then_reused rados "$work/rds1.h5" "$work/rds2.h5" ||
	fail "rados --reuse-dataset: not laid out, then reused (above)"
log "rados --reuse-dataset: laid out and marked, reused ($(wc -l <"$work/rstat1") objects untouched), another --bs refused"
# a clean run (no --keep) removes the dataset's objects
t4x_srun 120 "$bench" --backend=rados --rados-pool="$pool" --rw=write \
	--bs=1M --size=4M --runtime=1 --reps=1 --output=none --summary=none \
	2>"$work/err" || fail "rados run after the dataset failed: $(tail -3 "$work/err")"
left=$(t4x_objects "$pool")
[[ $left == 0 ]] || fail "$left objects left after the dataset's removal"

# Never clobber: a namespace of rank 0's name whose head iostrata did not
# make is neither written, read nor removed (exit 3, named).
printf 'not yours\n' >"$work/stranger"
rados -p "$pool" -N iostrata-bench.0 put 0000000000000000 "$work/stranger"
for rw in write read; do
	set +e
	t4x_srun 120 "$bench" --backend=rados --rados-pool="$pool" --rw=$rw \
		--bs=1M --size=4M --runtime=1 --reps=1 --output=none \
		--summary=none 2>"$work/err"
	rc=$?
	set -e
	[[ $rc == 3 ]] || fail "rados $rw over a stranger's namespace exited $rc, want 3"
	grep -q "namespace 'iostrata-bench.0' in pool '$pool' exists and was not created by iostrata" "$work/err" ||
		fail "rados $rw over a stranger's namespace: $(tail -3 "$work/err")"
	rados -p "$pool" -N iostrata-bench.0 get 0000000000000000 "$work/got" ||
		fail "rados: the stranger's object was removed"
	cmp -s "$work/stranger" "$work/got" || fail "rados: the stranger's object was overwritten"
done
rados -p "$pool" -N iostrata-bench.0 rm 0000000000000000
left=$(t4x_objects "$pool")
[[ $left == 0 ]] || fail "$left objects left after the refused runs"
log "rados: a stranger's namespace refused, neither written nor removed"

# The Ceph facts in the results file connect like the backend, with its
# options: a client of its own, its keyring given with --ceph-keyring while
# $CEPH_KEYRING names a wrong key; then a wrong --ceph-keyring.
if ! /usr/bin/python3 -c 'import h5py' 2>/dev/null; then
	log "no h5py: Ceph facts of the results file not checked"
elif [[ -z ${CEPH_KEYRING:-} || ! -r $CEPH_KEYRING ]] ||
	! command -v ceph-authtool >/dev/null; then
	log "no readable CEPH_KEYRING or no ceph-authtool: Ceph facts not checked"
else
	client=iostrata-$T-$$
	ceph auth get-or-create "client.$client" mon 'allow r' \
		osd "allow rwx pool=$pool" >"$work/client.keyring" ||
		fail "create client.$client"
	sed "s|key = .*|key = $(ceph-authtool --gen-print-key)|" "$CEPH_KEYRING" >"$work/wrong.keyring"
	facts=(--backend=rados --rados-pool="$pool" --rw=write --bs=1M --size=4M
		--runtime=1 --reps=1 --summary=none)
	CEPH_KEYRING=$work/wrong.keyring t4x_srun 120 "$bench" "${facts[@]}" \
		--ceph-id="$client" --ceph-keyring="$work/client.keyring" \
		--output="$work/own.h5" >/dev/null 2>"$work/err" ||
		fail "rados run as client.$client failed: $(tail -3 "$work/err")"
	set +e
	t4x_srun 120 "$bench" "${facts[@]}" --ceph-keyring="$work/wrong.keyring" \
		--output="$work/wrong.h5" >/dev/null 2>"$work/err"
	rc=$?
	set -e
	[[ $rc == 3 ]] || fail "run with a wrong --ceph-keyring exited $rc, want 3: $(tail -3 "$work/err")"
	grep -q 'Permission denied' "$work/err" ||
		fail "wrong --ceph-keyring: backend message: $(tail -3 "$work/err")"
	CLIENT=client.$client /usr/bin/python3 - "$work/own.h5" "$work/wrong.h5" <<'PY' ||
import os, sys
import h5py
own, wrong = (h5py.File(p, "r") for p in sys.argv[1:])
def attrs(f):
    if "ceph" not in f:
        sys.exit("%s: no /ceph facts" % f.filename)
    return {k: (v.decode() if isinstance(v, bytes) else str(v)) for k, v in f["ceph"].attrs.items()}
a = attrs(own)
if a.get("client") != os.environ["CLIENT"] or "error" in a or a.get("fsid", "unknown") == "unknown":
    sys.exit("facts not collected as %s with its keyring: %s" % (os.environ["CLIENT"], a))
if len(own["ceph/pools"]) == 0:
    sys.exit("no pools in the facts of %s" % own.filename)
b = attrs(wrong)
if b.get("fsid") != "unknown" or "Permission denied" not in b.get("error", "") or "wrong.keyring" not in b.get("error", "") or b.get("client") != "client.admin":
    sys.exit("a wrong --ceph-keyring: facts %s (want fsid unknown and the reason)" % b)
print("facts as %s: fsid %s; with a wrong key: %s" % (a["client"], a["fsid"], b["error"]))
PY
		fail "Ceph facts of the results files"
	ceph auth del "client.$client" >/dev/null 2>&1 || fail "remove client.$client"
	client=
fi

# cephfs backend: libcephfs, no mount, O_DIRECT
cdir=$T.$$
make_shared "$IOSTRATA_CEPHFS_MOUNT/$cdir"
log "cephfs backend on /$cdir"
t4x_srun 120 "$bench" --backend=cephfs --dir="/$cdir" "${common[@]}" \
	>"$work/cephfs.json" 2>"$work/err" ||
	fail "cephfs run failed: $(tail -3 "$work/err")"
grep -q '"valid": *true' "$work/cephfs.json" || fail "cephfs run not valid"
left=$(find "$IOSTRATA_CEPHFS_MOUNT/$cdir" -type f | wc -l)
[[ $left == 0 ]] || fail "cephfs: $left files left behind"

# cephfs at --iodepth=8: the thread queue (libcephfs has no non-blocking
# file I/O before Squid).  A size-based verified write then read of 16
# MiB per rank: the bytes written are the files' sizes, the read checks
# every block, the results file says ioengine threads and iodepth 8.
q=(--backend=cephfs --dir="/$cdir" --bs=1M --size=16M --once --reps=1
	--iodepth=8 --verify --seed=88 --keep --summary=json --quiet)
log "cephfs backend at iodepth 8 (thread queue): write, then read"
t4x_srun 120 "$bench" "${q[@]}" --rw=write --output="$work/q-write.h5" \
	>"$work/q-write.json" 2>"$work/err" ||
	fail "cephfs iodepth 8 write failed: $(tail -3 "$work/err")"
t4x_srun 120 "$bench" "${q[@]}" --rw=read --output="$work/q-read.h5" \
	>"$work/q-read.json" 2>"$work/err" ||
	fail "cephfs iodepth 8 read failed: $(tail -3 "$work/err")"
/usr/bin/python3 - "$work" "$IOSTRATA_CEPHFS_MOUNT/$cdir" "$NNODES" <<'PY' || fail "cephfs iodepth 8: (above)"
import glob, json, os, sys
work, d, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
files = sorted(glob.glob(os.path.join(d, "iostrata-bench.[0-9]*")))
files = [f for f in files if not f.endswith(".iostrata")]
sizes = [os.path.getsize(f) for f in files]
assert len(files) == n and all(s == 16 << 20 for s in sizes), (files, sizes)
for ph in ("write", "read"):
    s = json.load(open(os.path.join(work, "q-%s.json" % ph)))
    assert s["valid"], (ph, s.get("reasons"))
    r = s["phases"][0]["reps"][0]
    assert r["errors"] == 0, (ph, r["errors"])
    assert r["bytes"] == sum(sizes), (ph, r["bytes"], sum(sizes))
try:
    import h5py
except ImportError:
    print("no h5py: the results files' engine not checked")
    sys.exit(0)
for ph in ("write", "read"):
    with h5py.File(os.path.join(work, "q-%s.h5" % ph), "r") as f:
        a = {k: (v.decode() if isinstance(v, bytes) else str(v)) for k, v in f["config"].attrs.items()}
    assert a.get("ioengine") == "threads" and a.get("iodepth") == "8", (ph, a.get("ioengine"), a.get("iodepth"))
print("cephfs iodepth 8: %d files of %d bytes, written and read back verified, ioengine threads" % (len(files), sizes[0]))
PY
rm -f "$IOSTRATA_CEPHFS_MOUNT/$cdir"/iostrata-bench.*

# a file of rank 0's name that iostrata did not make: a stranger's
# (uid 65534, writable by all), then one of ours without the mark
sfile=$IOSTRATA_CEPHFS_MOUNT/$cdir/iostrata-bench.0
for who in stranger unmarked; do
	printf 'not yours\n' >"$sfile"
	chmod 666 "$sfile"
	[[ $who == stranger ]] && chown 65534 "$sfile"
	t4x_srun 120 "$bench" --backend=cephfs --dir="/$cdir" "${common[@]}" \
		>"$work/$who.json" 2>"$work/$who.err" &&
		fail "cephfs backend ran over a $who file $sfile"
	want="is not ours: owner uid 65534"
	[[ $who == unmarked ]] && want="exists and was not created by iostrata (no user.iostrata mark)"
	grep -q "$want" "$work/$who.err" || fail "cephfs, $who file: no \"$want\" in: $(tail -3 "$work/$who.err")"
	[[ $(cat "$sfile") == "not yours" ]] || fail "cephfs: the $who file was overwritten"
	rm -f "$sfile"
done
left=$(find "$IOSTRATA_CEPHFS_MOUNT/$cdir" -type f | wc -l)
[[ $left == 0 ]] || fail "cephfs: $left files left behind after the refused runs"
log "cephfs: a stranger's file and an unmarked one refused, neither written nor removed"

# --reuse-dataset on cephfs: the first run lays out and marks, the second
# reuses without writing
ds=(--backend=cephfs --dir="/$cdir" --rw=read --bs=1M --size=16M --runtime=1
	--reps=1 --reuse-dataset --seed=77 --summary=none --quiet)
t4x_srun 120 "$bench" "${ds[@]}" --output="$work/ds1.h5" 2>"$work/err" ||
	fail "cephfs --reuse-dataset (1) failed: $(tail -3 "$work/err")"
t4x_srun 120 "$bench" "${ds[@]}" --output="$work/ds2.h5" 2>"$work/err" ||
	fail "cephfs --reuse-dataset (2) failed: $(tail -3 "$work/err")"
laid_then_reused cephfs "$work/ds1.h5" "$work/ds2.h5" ||
	fail "cephfs --reuse-dataset: not laid out, then reused (above)"
mark=$(/usr/bin/python3 -c 'import os, sys; print(os.getxattr(sys.argv[1], "user.iostrata.dataset").decode())' \
	"$IOSTRATA_CEPHFS_MOUNT/$cdir/iostrata-bench.0") ||
	fail "cephfs: no dataset mark on iostrata-bench.0"
[[ $mark == "iostrata-dataset v=1 size=16777216 bs=1048576 "* ]] ||
	fail "cephfs: dataset mark '$mark'"
rm -f "$IOSTRATA_CEPHFS_MOUNT/$cdir"/iostrata-bench.*
log "PASS"
