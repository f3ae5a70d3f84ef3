#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# t62-bench-meta: iostrata-bench's metadata phases (--meta; mdtest's) on
# the local site, sbatch on the compute nodes (2 ranks per node) with srun
# --mpi=pmix: (1) posix on the ceph-fuse mount, the easy layout (a
# directory per rank), all seven phases, IO500-hard's 3901-byte files, two
# repetitions; (2) the cephfs backend (libcephfs, no mount), the hard
# layout (one shared directory), files of 0 bytes; (3) a stonewall
# (--meta-time=1) on the mount, hard layout.  Asserts exit 0, the file
# validates, every rank's ops of every phase and repetition (the count, or
# under the stonewall: the later phases did exactly what create made, and
# the create phase ended at the stonewall on every rank), no error, the
# parameters in /config, nothing left in the directory, and
# iostrata-report show printing each phase's ops/s recomputed from the
# per-rank rows (all ops / the slowest rank's wall time).  The ops/s are
# logged with the load average.

set -euo pipefail
T=t62-bench-meta
. "$(dirname "$0")/t1x-lib.bash"

ceph_h5_setup
files=40

# check_meta FILE PHASES LAYOUT FILES|stonewall: the record read back
check_meta() {
	/usr/bin/python3 - "$@" <<'PY'
import sys, h5py
path, phases, layout, want = sys.argv[1:]
s = lambda v: v.decode() if isinstance(v, bytes) else str(v)
f = h5py.File(path, "r")
c = f["config"].attrs
assert s(c["meta"]) == phases, c["meta"]
assert s(c["meta_layout"]) == layout, c["meta_layout"]
names = [s(f["meta/%d" % k].attrs["op"]) for k in range(int(f.attrs["nmeta"]))]
assert names == phases.split(","), names
nranks = int(f.attrs["nranks"])
made = {}
for k, op in enumerate(names):
    ph = f["meta/%d" % k]
    assert int(ph.attrs["nreps"]) == int(s(c["reps"])), (op, ph.attrs["nreps"])
    for r in range(int(ph.attrs["nreps"])):
        rep = ph["reps/%d" % r]
        rows = rep["ranks"][:]
        assert len(rows) == nranks, (op, r, len(rows))
        ops = [int(x["ops"]) for x in rows]
        assert all(int(x["errors"]) == 0 for x in rows), (op, r, rows)
        assert int(rep.attrs["lat_n"]) == sum(ops), (op, r)
        assert int(rep["lat_hist"][:].sum()) == sum(ops), (op, r)
        walls = [float(x["wall_s"]) for x in rows]
        if want == "stonewall":
            if op in ("create", "mkdir"):
                assert int(rep.attrs["stonewalled"]) == 1, (op, r)
                # every rank stops at the same time after the same start
                assert min(walls) >= 1.0 and max(walls) < 6.0, (op, r, walls)
                assert all(o > 0 for o in ops), (op, r, ops)
                made[r] = ops
            else:
                assert ops == made[r], (op, r, ops, made[r])
        else:
            assert ops == [int(want)] * nranks, (op, r, ops)
        print("%s rep %d: %d ops, slowest %.3f s: %.0f ops/s" %
              (op, r, sum(ops), max(walls), sum(ops) / max(walls)))
PY
}

# check_show NAME PHASES: iostrata-report show prints each phase's ops/s
check_show() {
	"$report" show "$work/$1.h5" >"$work/$1.show" 2>&1 ||
		fail "iostrata-report show $1: $(cat "$work/$1.show")"
	grep -q '^metadata phases (/meta)' "$work/$1.show" ||
		fail "show $1 has no metadata section: $(cat "$work/$1.show")"
	for op in ${2//,/ }; do
		grep -qE "^  .* $op +min / avg / max over [0-9]+ rep\(s\): [0-9]+ / [0-9]+ / [0-9]+ ops/s" \
			"$work/$1.show" || fail "show $1 has no ops/s of $op: $(cat "$work/$1.show")"
	done
	log "load average $(cut -d' ' -f1-3 /proc/loadavg): $(grep -E ' over [0-9]+ rep\(s\): ' "$work/$1.show" | sed 's/  */ /g' | tr '\n' ';')"
}

left_in() {
	find "$1" -mindepth 1 -maxdepth 1 -name 'iostrata-meta.*' | wc -l
}

# (1) posix on the ceph-fuse mount, easy, all seven phases
all=create,stat,read,remove,mkdir,dirstat,rmdir
run_job easy "$ntasks" 120 "$bench" --meta=$all --meta-layout=easy \
	--meta-files=$files --meta-size=3901 --reps=2 --dir="$cephdir" \
	--output="$work/easy.h5" --summary=none
[[ $(job_rc easy) == 0 ]] || fail "posix easy run exited $(job_rc easy): $(job_why easy)"
"$report" validate "$work/easy.h5" >"$work/easy.validate" 2>&1 ||
	fail "easy.h5 does not validate: $(cat "$work/easy.validate")"
check_meta "$work/easy.h5" $all easy $files >"$work/easy.check" 2>&1 ||
	fail "easy record: $(cat "$work/easy.check")"
[[ $(left_in "$cephdir") == 0 ]] || fail "posix easy: the run's directory is left in $cephdir: $(ls -la "$cephdir")"
grep -q "meta create rep 2/2" "$work/easy.out" || fail "no progress line: $(tail "$work/easy.out")"
check_show easy $all

# (2) the cephfs backend, hard layout, empty files
rel=${cephdir#"${IOSTRATA_CEPHFS_MOUNT:-}"}
if [[ -n ${IOSTRATA_CEPHFS_MOUNT:-} && $rel != "$cephdir" ]] &&
	"$bench" --help | grep -q '^  cephfs '; then
	ph=create,stat,read,remove
	run_job ceph "$ntasks" 120 "$bench" --backend=cephfs --meta=$ph \
		--meta-layout=hard --meta-files=$files --meta-size=0 --reps=1 \
		--dir="$rel" --output="$work/ceph.h5" --summary=none
	[[ $(job_rc ceph) == 0 ]] || fail "cephfs hard run exited $(job_rc ceph): $(job_why ceph)"
	"$report" validate "$work/ceph.h5" >"$work/ceph.validate" 2>&1 ||
		fail "ceph.h5 does not validate: $(cat "$work/ceph.validate")"
	check_meta "$work/ceph.h5" $ph hard $files >"$work/ceph.check" 2>&1 ||
		fail "cephfs record: $(cat "$work/ceph.check")"
	[[ $(left_in "$cephdir") == 0 ]] || fail "cephfs: the run's directory is left in $cephdir: $(ls -la "$cephdir")"
	check_show ceph $ph
else
	log "cephfs backend not built or no CephFS mount: its run skipped"
fi

# (3) a stonewall: create stops on every rank after 1 s, the later phases
# work on what each rank made
ph=create,stat,remove
run_job wall "$ntasks" 120 "$bench" --meta=$ph --meta-layout=hard \
	--meta-time=1 --reps=1 --dir="$cephdir" --output="$work/wall.h5" \
	--summary=none
[[ $(job_rc wall) == 0 ]] || fail "stonewall run exited $(job_rc wall): $(job_why wall)"
check_meta "$work/wall.h5" $ph hard stonewall >"$work/wall.check" 2>&1 ||
	fail "stonewall record: $(cat "$work/wall.check")"
grep -q "stonewalled" "$work/wall.out" || fail "no stonewall in the progress: $(tail "$work/wall.out")"
[[ $(left_in "$cephdir") == 0 ]] || fail "stonewall: the run's directory is left in $cephdir"
check_show wall $ph

expect_not_drained "at the end"
log "PASS"
