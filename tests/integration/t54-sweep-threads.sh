#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# t54-sweep-threads: seeds/001's thread sweep scaled down (ranks 1, 2, 4;
# five modes, 16 KiB blocks, 1 s phases, two repetitions) submitted with
# iostrata-campaign to the real local Slurm: every element is a plain job
# on the compute partition (one node, N ranks, no storage component, no
# --iostrata-* option) running iostrata-bench on the compute host's CephFS
# mount.  Asserts: a bad [sweep] ranks is refused before anything is
# submitted, naming the key and the value; the plan and the sbatch lines
# have the job's shape; all elements DONE; each results file has the
# element's rank count on one host, the five phases, 16 KiB and 60% reads;
# `iostrata-report threads` prints seeds/001's two tables, every mode x
# thread count, and its numbers equal the means recomputed here from
# `iostrata-report export` (per-repetition figures); with [sweep] noscrub
# = 1 every results file carries the scrub record and the OSD flags are as
# before afterwards; afterwards nothing is drained.

set -uo pipefail
T=t54-sweep-threads
# shellcheck source=tests/integration/t5x-lib.bash
source "$(dirname "$0")/t5x-lib.bash"
t5x_init
t5x_need_real

# bad input: refused at plan and at submit, nothing submitted
for bad in '1,,4' '0, 2' '1, 2, 2' 'four'; do
	t5x_site "$work/bad/site.conf" "sweep.ranks=$bad"
	"$CAMPAIGN" plan "$work/bad/site.conf" sweep-threads >"$work/bad.out" 2>"$work/bad.err"
	rc=$?
	[[ $rc -eq 2 ]] || fail "plan with ranks = $bad: exit $rc, want 2: $(cat "$work/bad.out" "$work/bad.err")"
	grep -q "site.conf:[0-9]*: sweep.ranks: " "$work/bad.err" ||
		fail "plan with ranks = $bad: message names no file:line and key: $(cat "$work/bad.err")"
	"$CAMPAIGN" submit "$work/bad/site.conf" sweep-threads --campaign="$work/badc" >/dev/null 2>&1
	rc=$?
	[[ $rc -eq 2 && ! -e $work/badc/elements.tsv ]] ||
		fail "submit with ranks = $bad: exit $rc (want 2) or a campaign was written"
done
log "bad [sweep] ranks refused (empty item, 0, repeated, not a number)"

site=$work/site/site.conf
t5x_site "$site" workload.file_size=2M workload.runtime=1 workload.reps=2 \
	workload.iodepth=2 workload.bs=16K workload.rwmixread=60 'sweep.ranks=1, 2, 4' \
	sweep.noscrub=1
# scrubbing off for the campaign: the threads jobs carry the record too
osdflags() { timeout 60 ceph -c "$CEPH_CONF" osd dump -f json | /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["flags"])'; }
flags0=$(osdflags) || fail "ceph osd dump failed"
for f in noscrub nodeep-scrub; do
	[[ ,$flags0, == *,$f,* ]] || at_exit timeout 60 ceph -c "$CEPH_CONF" osd unset "$f"
done
"$CAMPAIGN" plan "$site" sweep-threads >"$work/plan.txt" || fail "plan failed"
printf '0\tranks1\t--ntasks=1\n1\tranks2\t--ntasks=2\n2\tranks4\t--ntasks=4\n' | diff - "$work/plan.txt" >&2 ||
	fail "plan differs from ranks1 ranks2 ranks4 (above)"
"$CAMPAIGN" submit "$site" sweep-threads --dry-run --campaign="$work/dry" >"$work/dry.txt" 2>&1 ||
	fail "submit --dry-run failed: $(cat "$work/dry.txt")"
n=$(grep -c -- "--partition=compute --nodes=1 --ntasks=4 --overcommit .*sweep-threads.sbatch$" "$work/dry.txt")
[[ $n -eq 1 ]] || fail "no compute-only sbatch line with 4 ranks on one node: $(cat "$work/dry.txt")"
! grep -Eq -- '--iostrata-| : |hetjob|--exclusive' "$work/dry.txt" ||
	fail "sweep-threads submits a storage component or plugin options: $(cat "$work/dry.txt")"

start=$SECONDS
"$CAMPAIGN" submit "$site" sweep-threads >/dev/null || fail "submit failed"
t5x_wait "$site" sweep-threads 150 || fail "not every element is DONE (see above)"
log "3 elements ran in $((SECONDS - start)) s"
dir=$work/campaigns/local-sweep-threads
"$CAMPAIGN" collect "$site" sweep-threads >/dev/null || fail "collect: exit $?"
mapfile -t files < <(awk -F'\t' '!/^#/ && $7 == "DONE" && $8 ~ /\.h5$/ { print $8 }' "$dir/index.tsv")
[[ ${#files[@]} -eq 3 ]] || fail "index lists ${#files[@]} results files, want 3: $(cat "$dir/index.tsv")"
"$REPORT" validate "$dir"/results/*.h5 >"$work/validate.txt" 2>&1 ||
	fail "results files do not validate: $(cat "$work/validate.txt")"
"$REPORT" export --format=json --output="$work/export.json" "$dir"/results/*.h5 2>"$work/export.err" ||
	fail "export failed: $(cat "$work/export.err")"
"$REPORT" threads "$dir" >"$work/threads.txt" 2>"$work/threads.err"
rc=$?
cat "$work/threads.txt"
[[ $rc -eq 0 && ! -s $work/threads.err ]] || fail "threads: exit $rc: $(cat "$work/threads.err")"

# the runs: ranks on one host, five phases, 16 KiB, 60% reads; and the
# two tables against the per-repetition figures of export
/usr/bin/python3 - "$work/export.json" "$work/threads.txt" "$dir" <<'PY' || fail "threads tables do not match the results (above)"
import json, sys, glob, subprocess, collections, os
rows = json.load(open(sys.argv[1]))
rows = rows["rows"] if isinstance(rows, dict) and "rows" in rows else rows
text = open(sys.argv[2]).read().splitlines()
col = os.path.basename(sys.argv[3].rstrip("/"))
seed = {"randread": "rndrd", "randrw": "rndrw", "randwrite": "rndwr", "read": "seqrd", "write": "seqwr"}
vals = collections.defaultdict(list)
ranks = set()
for r in rows:
    assert str(r["bs"]) == "16384", ("bs", r["bs"])
    assert int(r["nnodes"]) == 1, ("nodes", r["nnodes"])
    ranks.add(int(r["nranks"]))
    if str(r["valid"]) in ("1", "true", "True") and r["value"] not in (None, ""):
        vals[(r["phase"], int(r["nranks"]), r["figure"])].append(float(r["value"]))
assert ranks == {1, 2, 4}, ranks
phases = {k[0] for k in vals}
assert phases == set(seed), phases
mean = lambda k: sum(vals[k]) / len(vals[k])
# table 1: a block per mode in seeds/001's order, rows 1 2 4
hdr = "^type^threads^%s^" % col
assert text.count(hdr) == 5, text
order = [l.split("|")[1].strip() for l in text if l.startswith("| ") and l.count("|") == 4]
assert order == [m for m in ("rndrd", "rndrw", "rndwr", "seqrd", "seqwr") for _ in range(3)], order
def close(printed, want):
    return abs(float(printed) - want) <= 1e-4 * abs(want) + 1e-9
checked = 0
for l in text:
    f = [x.strip() for x in l.split("|")]
    if l.startswith("| ") and l.count("|") == 4:
        ph = [p for p, s in seed.items() if s == f[1]][0]
        assert close(f[3], mean((ph, int(f[2]), "stonewall_bw")) / 1048576), l
        checked += 1
    elif l.startswith("| ") and l.count("|") == 10:
        # | size | type | thr| MiB/s Mb| req/s| mean| p95| p99| valid|
        ph = [p for p, s in seed.items() if s == f[2]][0]
        n = int(f[3])
        assert f[1] == "2M", l
        assert close(f[4][:-2], mean((ph, n, "stonewall_bw")) / 1048576), l
        assert abs(float(f[5]) - mean((ph, n, "stonewall_iops"))) <= 0.006, l
        assert abs(float(f[8]) - mean((ph, n, "lat_p99_ns")) / 1e6) <= 0.006, l
        assert float(f[6]) > 0 and float(f[7]) > 0, l
        assert float(f[7]) <= float(f[8]) + 0.006, ("p95 above p99", l)
        v, t = map(int, f[9].split("/"))
        assert t == 2 and v == len(vals[(ph, n, "stonewall_bw")]) and v >= 1, l
        checked += 1
assert checked == 30, checked
assert "rndrw: 60% reads (rwmixread), block size 16K" in text, text[-1]
print("t54: %d rows checked against export" % checked)
PY
# scrub flags: back as before, and every results file records them
flags1=$(osdflags) || fail "ceph osd dump failed"
for f in noscrub nodeep-scrub; do
	{ [[ ,$flags0, == *,$f,* ]] && [[ ,$flags1, == *,$f,* ]]; } ||
		{ [[ ,$flags0, != *,$f,* ]] && [[ ,$flags1, != *,$f,* ]]; } ||
		fail "OSD flag $f: before \"$flags0\", after \"$flags1\""
done
[[ ! -e $dir/noscrub.state ]] || fail "$dir/noscrub.state left: $(cat "$dir/noscrub.state")"
/usr/bin/python3 - "$dir"/results/*.h5 <<'PY' || fail "the threads results files do not record the scrub flags"
import json, sys, h5py
s = lambda v: v.decode() if isinstance(v, bytes) else v
for p in sys.argv[1:]:
    with h5py.File(p, "r") as f:
        att = {s(d.attrs["name"]): d[()] for d in f["attachments"].values()}
        rec = json.loads(s(att["noscrub"]))
        assert sorted(rec["set_by_campaign"] + rec["already_set"]) == ["nodeep-scrub", "noscrub"], (p, rec)
        assert rec["holders"], (p, rec)
print("t54: scrub record in %d files" % (len(sys.argv) - 1))
PY
# the job never touched the storage hosts' shaping
for k in 0 1 2; do
	[[ ! -e $dir/elements/$k/storage-applied-s1.json ]] || fail "element $k recorded a storage component"
done
log "PASS (3 elements, 30 table rows traced to the per-repetition figures)"
