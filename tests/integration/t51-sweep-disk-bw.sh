#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# t51-sweep-disk-bw: a scaled-down disk throttle sweep (three rates, two
# repetitions, 2 s phases) submitted with iostrata-campaign to the real local
# Slurm with the real SPANK plugin: every element is a heterogeneous job
# (s1 throttled and exclusive, c1 c2 running iostrata-bench on CephFS).
# The sweep runs between its unconstrained baseline (s1 whole, no option),
# measured first and last.  Asserts: all elements DONE, the throttle the
# plugin applied is recorded before the run and equals the request,
# collect indexes two valid results files per element, `iostrata-report
# plot` draws the throttle curves and prints them normalised to the
# baseline with its drift, `iostrata-report advise` over the campaign
# (relative to the same baseline, named) advises a node of the site's
# catalogue with its basis and interval and draws its plot without a gnuplot
# complaint, and afterwards the node is whole and nothing is drained.

set -uo pipefail
T=t51-sweep-disk-bw
# shellcheck source=tests/integration/t5x-lib.bash
source "$(dirname "$0")/t5x-lib.bash"
t5x_init
t5x_need_real

site=$work/site/site.conf
t5x_site "$site" workload.file_size=2M workload.seq_bs=1M workload.runtime=2 workload.reps=2 \
	workload.iodepth=2 'sweep.disk_bw=20MB..60MB:20MB' sweep.noscrub=1
# Scrubbing off for the campaign: noscrub already set by hand (the campaign
# must leave it set), nodeep-scrub set by the campaign and unset after it.
osdflags() { timeout 60 ceph -c "$CEPH_CONF" osd dump -f json | /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["flags"])'; }
timeout 60 ceph -c "$CEPH_CONF" osd set noscrub >/dev/null 2>&1 || fail "ceph osd set noscrub failed"
at_exit timeout 60 ceph -c "$CEPH_CONF" osd unset noscrub
flags0=$(osdflags) || fail "ceph osd dump failed"
[[ ,$flags0, == *,noscrub,* && ,$flags0, != *,nodeep-scrub,* ]] || fail "OSD flags before: $flags0 (want noscrub, not nodeep-scrub)"
start=$SECONDS
"$CAMPAIGN" submit "$site" sweep-disk-bw || fail "submit failed"
t5x_wait "$site" sweep-disk-bw 240 || fail "not every element is DONE (see above)"
log "5 elements (baseline, 3 speeds, baseline) ran in $((SECONDS - start)) s"
dir=$work/campaigns/local-sweep-disk-bw
"$CAMPAIGN" collect "$site" sweep-disk-bw || fail "collect: exit $?"
n=$(awk -F'\t' '!/^#/ && $7 == "DONE" && $8 ~ /\.h5$/' "$dir/index.tsv" | wc -l)
[[ $n -eq 10 ]] || fail "index lists $n results files, want 10: $(cat "$dir/index.tsv")"
"$REPORT" validate "$dir"/results/*.h5 >"$work/validate.txt" 2>&1 ||
	fail "results files do not validate: $(cat "$work/validate.txt")"

# scrubbing: back as it was, and every results file says what the campaign set
flags1=$(osdflags) || fail "ceph osd dump failed"
[[ ,$flags1, == *,noscrub,* ]] || fail "the campaign unset noscrub, which it did not set: flags $flags1"
[[ ,$flags1, != *,nodeep-scrub,* ]] || fail "nodeep-scrub still set after the campaign: flags $flags1"
[[ ! -e $dir/noscrub.state ]] || fail "$dir/noscrub.state left: $(cat "$dir/noscrub.state")"
/usr/bin/python3 - "$dir"/results/*.h5 <<'PY' || fail "the results files do not record the scrub flags the campaign set"
import json, sys, h5py
for p in sys.argv[1:]:
    with h5py.File(p, "r") as f:
        att = {d.attrs["name"].decode() if isinstance(d.attrs["name"], bytes) else d.attrs["name"]: d[()]
               for d in f["attachments"].values()}
        rec = json.loads(att["noscrub"].decode() if isinstance(att["noscrub"], bytes) else att["noscrub"])
        assert rec["set_by_campaign"] == ["nodeep-scrub"], (p, rec)
        assert rec["already_set"] == ["noscrub"], (p, rec)
        assert rec["holders"], (p, rec)
print("scrub flags recorded in %d files" % (len(sys.argv) - 1))
PY
log "scrubbing: nodeep-scrub set for the campaign and unset after it, noscrub (set before) left set"

# the throttle the plugin applied (its per-job file, copied before the run)
for k in 1 2 3; do
	want=$((k * 20000000))
	f=$dir/elements/$k/storage-applied-s1.json
	[[ -s $f ]] || fail "element $k: no storage-node state recorded"
	/usr/bin/python3 - "$f" "$want" <<'PY' || fail "element $k: applied throttle is not $want B/s: $(cat "$f")"
import json, sys
s = json.load(open(sys.argv[1]))
th = s["applied"]["throttles"]
assert th and all(t["write_bps"] == int(sys.argv[2]) for t in th), th
PY
done

"$REPORT" plot --kind=throttle --out="$work/plot" "$dir"/results/*.h5 >"$work/plot.txt" 2>&1 ||
	fail "plot failed: $(cat "$work/plot.txt")"
pngs=("$work"/plot-throttle-*.png)
[[ -e ${pngs[0]} ]] || fail "no throttle curve drawn: $(cat "$work/plot.txt")"
for p in "${pngs[@]}"; do
	[[ $(stat -c %s "$p") -gt 5000 ]] || fail "$p is (nearly) empty"
done
grep -q "^  stonewall_bw normalised to the unconstrained baseline (elements 0, 4) " "$work/plot.txt" &&
	grep -Eq "^  the baseline drifted [-+][0-9]+% during the campaign \(element 0, first: " "$work/plot.txt" ||
	fail "the throttle curves' text is not normalised to the baseline with its drift: $(cat "$work/plot.txt")"
sed -n '/^throttle write:/,/^wrote/p' "$work/plot.txt"

# advise over the real campaign: a disk-speed sweep alone, relative to its
# unconstrained baseline (the installed virtio disk, 2 GB/s); the drive classes of site/local lie between the rates (hdd-5400 36 MB/s,
# hdd-7200 55 MB/s: interpolated) and beyond them (extrapolated)
target=seq-write=0.3
"$REPORT" advise --site="$site" --target=$target --plot="$work/advise" "$dir" \
	>"$work/advise.txt" 2>"$work/advise.err"
rc=$?
cat "$work/advise.txt" "$work/advise.err"
[[ $rc -eq 0 ]] || fail "advise exit $rc, want 0 (a third of the fastest rate is met)"
[[ ! -s $work/advise.err ]] || fail "advise wrote to stderr: $(cat "$work/advise.err")"
grep -q "^Campaign $dir: 5 configuration(s), replication " "$work/advise.txt" ||
	fail "advise did not read the campaign's 5 configurations"
grep -q "1 cores x 1 memory cell(s), 4 disk speed(s)$" "$work/advise.txt" &&
	grep -q "^    baseline (1.00): the unconstrained baseline (element 0, 4 of local-sweep-disk-bw): " "$work/advise.txt" ||
	fail "advise is not relative to the measured baseline, named"
grep -Eq "^Advice: 2 cores, 24 GiB RAM, [^ ]+ disks: [0-9]+ EUR for the storage tier \((measured|interpolated)\)\.$" \
	"$work/advise.txt" || fail "no advice on the full node with a measured or interpolated basis"
# (an interval is never below 0: a clipped one says from where)
grep -Eq "^  seq-write: [0-9.]+ of the baseline \(95% interval [0-9.]+\.\.[0-9.]+(, clipped at 0 from -[0-9.]+)?; (measured|interpolated), target 0\.30\)$" \
	"$work/advise.txt" || fail "the advice has no 95% interval with its basis"
# an interval wider than its value: said, with the measurement that would help
if grep -Eq "^  seq-write: [0-9.]+ of the baseline \(95% interval [0-9.]+\.\.[0-9.]+, clipped at 0" "$work/advise.txt"; then
	grep -q "^  seq-write: the sweep cannot support this recommendation: " "$work/advise.txt" ||
		fail "a clipped interval without the sentence that the sweep cannot support the advice"
fi
grep -q "^Confidence: " "$work/advise.txt" || fail "advise says nothing about confidence"
grep -qx "Plot: $work/advise.png $work/advise.svg" "$work/advise.txt" || fail "advise drew no plot"
[[ $(stat -c %s "$work/advise.png") -gt 5000 ]] || fail "$work/advise.png is (nearly) empty"
[[ -s $work/advise.svg && -s $work/advise.dat && -s $work/advise.gp ]] ||
	fail "advise --plot did not write .svg, .dat and .gp"
log "PASS (${#pngs[@]} curves, advice with its plot)"
