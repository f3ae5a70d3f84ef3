#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# t55-sweep-replication: [sweep] replication = 2, 3 on the real local site
# (3 OSDs): a disk-bw sweep of 2 elements x 2 factors.  Asserts: a failed
# preparation leaves nothing half-made (factor 3 created, factor 2 refused:
# the pool of 3, its data-pool entry and its directory removed again, no
# element submitted); `submit` creates one pool per factor (size read back
# from the cluster), adds it to the CephFS and points a directory's layout
# at it, and records what it made; all 4 elements DONE; every results file
# records the factor in effect (the attachment "replication": requested =
# pool size = the pool a new file landed in; and the file's Ceph facts,
# read by `iostrata-report export`); `iostrata-report show` has a row per
# factor and `efficiency` (Table 4) one per factor; `plot` draws a
# throttle curve per factor (-r2, -r3) and says why a disk-speed sweep
# has no heatmap, without a gnuplot warning;
# `iostrata-campaign clean` removes the pools, data-pool entries and
# directories, each pool and directory marked with the campaign's id; it
# refuses (exit 2, naming replication.tsv's line) a pool without the mark:
# one made by hand with a derived name, one whose mark was stripped.

set -uo pipefail
T=t55-sweep-replication
pfx=t55x$$
# a safety net for a failure half-way (runs last): anything named after
# this run's prefix, in the cluster and on CephFS
t55_exit() {
	local p fs
	fs=$(timeout 60 ceph -c "$CEPH_CONF" fs ls -f json 2>/dev/null |
		/usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["name"])' 2>/dev/null)
	for p in $(timeout 60 ceph -c "$CEPH_CONF" osd pool ls 2>/dev/null | grep -E "^$pfx(bad)?-r[0-9]+$"); do
		rm -rf "${IOSTRATA_BENCH_DIR:?}/$p"
		[[ -n $fs ]] && timeout 60 ceph -c "$CEPH_CONF" fs rm_data_pool "$fs" "$p" >/dev/null 2>&1
		timeout 60 ceph -c "$CEPH_CONF" osd pool rm "$p" "$p" --yes-i-really-really-mean-it >/dev/null 2>&1
		late_fail "pool $p left behind (removed by the test's exit)"
	done
}
# shellcheck source=tests/integration/t5x-lib.bash
source "$(dirname "$0")/t5x-lib.bash"
at_exit t55_exit
t5x_init
t5x_need_real

cephq() { timeout 60 ceph -c "$CEPH_CONF" "$@"; }
pool_size() { cephq osd pool get "$1" size -f json | /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["size"])'; }
layout() { /usr/bin/python3 -c 'import os, sys; print(os.getxattr(sys.argv[1], "ceph.dir.layout.pool").decode())' "$1"; }
in_fs() { cephq fs ls -f json | /usr/bin/python3 -c 'import json, sys; sys.exit(0 if sys.argv[1] in json.load(sys.stdin)[0]["data_pools"] else 1)' "$1"; }

site=$work/site/site.conf
# (no baseline elements: this test is about the factors' pools; t51 and
# t52 run the baselines)
t5x_site "$site" workload.file_size=2M workload.seq_bs=1M workload.runtime=1 workload.reps=1 \
	workload.iodepth=2 'sweep.disk_bw=40MB, 60MB' sweep.baseline=none
sed -i "/^\\[sweep\\]/a replication = 2, 3\\nreplication_pool = $pfx\\nreplication_pg_num = 8" "$site"

# 1. nothing half-made: factor 3 is made first, then factor 2's pool
# exists with size 3 (not 2): submit fails, undoes factor 3, submits nothing
bad=$work/site/bad.conf
sed "s/^replication = 2, 3$/replication = 3, 2/; s/^replication_pool = .*/replication_pool = ${pfx}bad/" "$site" >"$bad"
cephq osd pool create "${pfx}bad-r2" 8 8 >/dev/null 2>&1 || fail "ceph osd pool create ${pfx}bad-r2 failed"
cephq osd pool set "${pfx}bad-r2" size 3 >/dev/null 2>&1 || fail "ceph osd pool set size failed"
"$CAMPAIGN" submit "$bad" sweep-disk-bw --campaign="$work/bad" >"$work/bad.out" 2>&1
rc=$?
cat "$work/bad.out"
[[ $rc -eq 2 ]] || fail "submit with a pool of the wrong size: exit $rc, want 2"
grep -q "pool ${pfx}bad-r2 has size 3, not 2" "$work/bad.out" || fail "submit does not say which pool has the wrong size"
grep -q "created pool ${pfx}bad-r3" "$work/bad.out" || fail "factor 3 was not made first (the undo is not tested)"
cephq osd pool get "${pfx}bad-r3" size >/dev/null 2>&1 && fail "the pool of factor 3 is left half-made after the failure"
[[ ! -e $IOSTRATA_BENCH_DIR/${pfx}bad-r3 ]] || fail "the directory of factor 3 is left after the failure"
[[ ! -e $work/bad/elements.tsv ]] ||
	fail "an element was submitted although the pools were not ready: $(cat "$work/bad/elements.tsv")"
pool_size "${pfx}bad-r2" | grep -qx 3 || fail "submit changed a pool it did not make (${pfx}bad-r2)"
# a record claiming the campaign made that pool (its derived name, made by
# hand, no mark): clean refuses it, naming the line, and the pool stays
printf '2\t%s\t1\t-\t0\t%s\t0\n' "${pfx}bad-r2" "$IOSTRATA_BENCH_DIR/${pfx}bad-r2" >"$work/bad/replication.tsv"
"$CAMPAIGN" clean "$bad" sweep-disk-bw --campaign="$work/bad" >"$work/badclean.out" 2>&1
rc=$?
cat "$work/badclean.out"
[[ $rc -eq 2 ]] || fail "clean of a record naming an unmarked pool: exit $rc, want 2"
grep -q "$work/bad/replication.tsv:1: pool ${pfx}bad-r2: not made by this campaign (its iostrata campaign mark is absent): refused" "$work/badclean.out" ||
	fail "clean does not refuse the unmarked pool by file and line"
pool_size "${pfx}bad-r2" | grep -qx 3 || fail "clean removed a pool the campaign did not make (${pfx}bad-r2)"
cephq osd pool rm "${pfx}bad-r2" "${pfx}bad-r2" --yes-i-really-really-mean-it >/dev/null 2>&1 ||
	fail "removing ${pfx}bad-r2 failed"
log "a failed preparation undid what it made (factor 3) and submitted nothing"

# 2. the campaign: pools, data pools, directories made and recorded
"$CAMPAIGN" plan "$site" sweep-disk-bw >"$work/plan.txt" || fail "plan failed"
[[ $(wc -l <"$work/plan.txt") -eq 4 ]] || fail "plan: $(cat "$work/plan.txt") (want 4 elements)"
start=$SECONDS
"$CAMPAIGN" submit "$site" sweep-disk-bw >"$work/submit.out" 2>&1 || fail "submit failed: $(cat "$work/submit.out")"
cat "$work/submit.out"
dir=$work/campaigns/local-sweep-disk-bw
for n in 2 3; do
	p=$pfx-r$n
	[[ $(pool_size "$p") == "$n" ]] || fail "pool $p: size $(pool_size "$p"), want $n"
	in_fs "$p" || fail "pool $p is not a data pool of the CephFS"
	[[ $(layout "$IOSTRATA_BENCH_DIR/$p") == "$p" ]] || fail "$IOSTRATA_BENCH_DIR/$p: layout pool is not $p"
	grep -qP "^$n\t$p\t1\t[^\t]+\t1\t$IOSTRATA_BENCH_DIR/$p\t1$" "$dir/replication.tsv" ||
		fail "replication.tsv does not record pool, data pool and directory of $n as made: $(cat "$dir/replication.tsv")"
	# the marks clean checks: the campaign's id on the pool and the directory
	mark=$(cephq osd pool application get "$p" -f json | /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["iostrata"]["campaign"])')
	[[ -n $mark && $(cut -d' ' -f4 "$dir/campaign.id") == "$mark" ]] ||
		fail "pool $p: its iostrata campaign mark \"$mark\" is not the campaign's id ($(cat "$dir/campaign.id"))"
	[[ $(/usr/bin/python3 -c 'import os, sys; print(os.getxattr(sys.argv[1], "user.iostrata.campaign").decode())' "$IOSTRATA_BENCH_DIR/$p") == "$mark" ]] ||
		fail "$IOSTRATA_BENCH_DIR/$p does not carry the campaign's mark"
done
t5x_wait "$site" sweep-disk-bw 300 || fail "not every element is DONE (see above)"
log "4 elements ran in $((SECONDS - start)) s"
"$CAMPAIGN" collect "$site" sweep-disk-bw || fail "collect: exit $?"
n=$(awk -F'\t' '!/^#/ && $7 == "DONE" && $8 ~ /\.h5$/ && $2 ~ "-r"$10"$"' "$dir/index.tsv" | wc -l)
[[ $n -eq 8 ]] || fail "index lists $n results files with their factor, want 8: $(cat "$dir/index.tsv")"

# 3. each file: the factor in effect, read back from the cluster
# factor_files FILE...: each results file records the factor it ran on
# (requested = pool size = the pool a new file landed in), from the -rN
# of its name
factor_files() {
	/usr/bin/python3 - "$pfx" "$@" <<'PY' || fail "a results file does not record the factor it ran on"
import json, re, sys, h5py
pfx = sys.argv[1]
for p in sys.argv[2:]:
    n = int(re.search(r"-r(\d+)-[a-z]+\.h5$", p).group(1))
    with h5py.File(p, "r") as f:
        att = {}
        for d in f["attachments"].values():
            k = d.attrs["name"]
            att[k.decode() if isinstance(k, bytes) else k] = d[()]
        v = att["replication"]
        rec = json.loads(v.decode() if isinstance(v, bytes) else v)
    want = {"requested": n, "pool": "%s-r%d" % (pfx, n), "size": n,
            "file_layout_pool": "%s-r%d" % (pfx, n)}
    assert all(rec[k] == v for k, v in want.items()), (p, rec)
print("replication recorded in %d files" % (len(sys.argv) - 2))
PY
}
factor_files "$dir"/results/*.h5
"$REPORT" export --format=csv "$dir"/results/*.h5 >"$work/export.csv" || fail "export failed"
/usr/bin/python3 - "$work/export.csv" <<'PY' || fail "export: the replication column is not each file's factor (from its Ceph facts)"
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows
for r in rows:
    n = re.search(r"-r(\d+)-[a-z]+\.h5$", r["file"]).group(1)
    assert r["replication"] == n, (r["file"], r["replication"])
print("export: %d rows, replication as recorded" % len(rows))
PY

# 4. the report: a row per factor
"$REPORT" show "$dir"/results/*.h5 >"$work/show.txt" || fail "show failed: $(cat "$work/show.txt")"
cat "$work/show.txt"
grep -q "^\\^mode  *\\^ ranks\\^ replication\\^" "$work/show.txt" || fail "show has no replication column"
for m in write read randwrite randread; do
	for n in 2 3; do
		grep -Eq "^\\| $m +\\| +2\\| +$n\\| +[0-9.]+\\| +[0-9.]+\\|$" "$work/show.txt" ||
			fail "show has no $m row for replication $n with both rates measured"
	done
done
"$REPORT" efficiency --site="$site" "$dir"/results/*.h5 >"$work/eff.txt" || fail "efficiency failed: $(cat "$work/eff.txt")"
cat "$work/eff.txt"
for n in 2 3; do
	grep -Eq "^\\| $n \\| [0-9.]+ \\| [0-9.]+ \\|\$" "$work/eff.txt" || fail "Table 4 has no row for replication $n"
done
# the figures (issue 17): one throttle curve per phase and factor, named
# and titled for its factor, its knee said; no heatmap of a disk-speed
# sweep (said why); no gnuplot warning
"$REPORT" plot --kind=heatmap,throttle --out="$work/plot" "$dir"/results/*.h5 >"$work/plot.txt" 2>&1 ||
	fail "plot failed: $(cat "$work/plot.txt")"
cat "$work/plot.txt"
for n in 2 3; do
	[[ $(stat -c %s "$work/plot-throttle-write-r$n.png" 2>/dev/null || echo 0) -gt 5000 ]] ||
		fail "no throttle curve of write for replication $n: $(cat "$work/plot.txt")"
	grep -q "^throttle write, replication $n: " "$work/plot.txt" ||
		fail "plot said nothing of the knee for replication $n"
	grep -q "^heatmap write, replication $n: not drawn: every run is throttled, at several disk speeds" "$work/plot.txt" ||
		fail "plot did not say why a disk-speed sweep has no heatmap (replication $n)"
done
[[ ! -e $work/plot-throttle-write.png ]] || fail "a throttle curve mixes the factors"
! grep -qi "warning" "$work/plot.txt" || fail "gnuplot warned: $(grep -i warning "$work/plot.txt")"

# 5. clean: what the campaign made goes; a pool whose mark was stripped
# is refused (naming the record's line) and stays, the rest goes
cephq osd pool application rm "$pfx-r3" iostrata campaign >/dev/null 2>&1 || fail "ceph osd pool application rm failed"
"$CAMPAIGN" clean "$site" sweep-disk-bw >"$work/clean.out" 2>&1
rc=$?
cat "$work/clean.out"
[[ $rc -eq 2 ]] || fail "clean with the mark of $pfx-r3 stripped: exit $rc, want 2"
grep -q "$dir/replication.tsv:3: pool $pfx-r3: not made by this campaign (its iostrata campaign mark is absent): refused" "$work/clean.out" ||
	fail "clean does not refuse the unmarked pool $pfx-r3 by file and line"
[[ $(pool_size "$pfx-r3") == 3 ]] && in_fs "$pfx-r3" || fail "clean removed the unmarked pool $pfx-r3 or its CephFS entry"
cephq osd pool get "$pfx-r2" size >/dev/null 2>&1 && fail "clean left pool $pfx-r2"
for n in 2 3; do
	[[ ! -e $IOSTRATA_BENCH_DIR/$pfx-r$n ]] || fail "clean left $IOSTRATA_BENCH_DIR/$pfx-r$n"
done
[[ -e $dir/replication.tsv ]] || fail "clean removed $dir/replication.tsv although a record was refused"
cephq fs rm_data_pool "$(cephq fs ls -f json | /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["name"])')" "$pfx-r3" >/dev/null 2>&1 &&
	cephq osd pool rm "$pfx-r3" "$pfx-r3" --yes-i-really-really-mean-it >/dev/null 2>&1 || fail "removing $pfx-r3 by hand failed"
rm -f "$dir/replication.tsv"
log "clean: the unmarked pool refused and kept, the marked one removed"
log "disk-bw: 2 factors x 2 elements, pools made, recorded, reported per factor and removed"

# 6. the thread sweep with replication: a column per factor
tsite=$work/site/threads.conf
t5x_site "$tsite" workload.file_size=2M workload.runtime=1 workload.reps=1 \
	workload.iodepth=2 workload.bs=16K 'sweep.ranks=1'
sed -i "/^\\[sweep\\]/a replication = 2, 3\\nreplication_pool = $pfx\\nreplication_pg_num = 8" "$tsite"
"$CAMPAIGN" plan "$tsite" sweep-threads >"$work/tplan.txt" || fail "threads plan failed"
printf '0\tranks1-r2\t--ntasks=1\n1\tranks1-r3\t--ntasks=1\n' | diff - <(cut -f1-3 "$work/tplan.txt") >&2 ||
	fail "threads plan differs from ranks1-r2 ranks1-r3 (above)"
"$CAMPAIGN" submit "$tsite" sweep-threads >"$work/tsubmit.out" 2>&1 || fail "threads submit failed: $(cat "$work/tsubmit.out")"
t5x_wait "$tsite" sweep-threads 150 || fail "not every threads element is DONE (see above)"
tdir=$work/campaigns/local-sweep-threads
"$CAMPAIGN" collect "$tsite" sweep-threads >/dev/null || fail "threads collect: exit $?"
"$REPORT" threads "$tdir" >"$work/threads.txt" 2>"$work/threads.err" || fail "threads: exit $?: $(cat "$work/threads.err")"
cat "$work/threads.txt"
factor_files "$tdir"/results/*.h5
/usr/bin/python3 - "$work/threads.txt" "$tdir"/results/*.h5 <<'PY' || fail "the thread tables do not keep the factors apart (above)"
import re, sys
text, files = open(sys.argv[1]).read().splitlines(), sys.argv[2:]
assert sorted(int(re.search(r"-r(\d+)-", p).group(1)) for p in files) == [2, 3], files
assert text.count("^type^threads^local-sweep-threads-r2^local-sweep-threads-r3^") == 5, text
assert "==== local-sweep-threads-r2 ====" in text and "==== local-sweep-threads-r3 ====" in text, text
row = [l for l in text if l.startswith("| seqwr | 1|")]
assert len(row) == 1 and row[0].count("|") == 5, row
assert all(c.strip() not in ("", "-") for c in row[0].split("|")[3:5]), row
print("threads: 2 factors recorded and in their own columns")
PY
"$CAMPAIGN" clean "$tsite" sweep-threads >"$work/tclean.out" 2>&1 || fail "threads clean: exit $?: $(cat "$work/tclean.out")"
for n in 2 3; do
	cephq osd pool get "$pfx-r$n" size >/dev/null 2>&1 && fail "threads clean left pool $pfx-r$n"
done
log "PASS (disk-bw 2 factors x 2 elements; threads 1 rank x 2 factors in a column each; everything removed)"
