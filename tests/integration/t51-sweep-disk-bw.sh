#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# t51-sweep-disk-bw: a scaled-down disk throttle sweep (three rates, one
# repetition, 2 s phases) submitted with iostrata-campaign to the real local
# Slurm with the real SPANK plugin: every element is a heterogeneous job
# (s1 throttled and exclusive, c1 c2 running iostrata-bench on CephFS).
# Asserts: all elements DONE, the throttle the plugin applied is recorded
# before the run and equals the request, collect indexes two valid results
# files per element, `iostrata-report plot` draws the throttle curves, and
# afterwards the node is whole and nothing is drained.

set -uo pipefail
T=t51-sweep-disk-bw
# shellcheck source=tests/integration/t5x-lib.bash
source "$(dirname "$0")/t5x-lib.bash"
t5x_init
t5x_need_real

site=$work/site/site.conf
t5x_site "$site" workload.file_size=2M workload.seq_bs=1M workload.runtime=2 workload.reps=1 \
	workload.iodepth=2 'sweep.disk_bw=20MB..60MB:20MB'
start=$SECONDS
"$CAMPAIGN" submit "$site" sweep-disk-bw || fail "submit failed"
t5x_wait "$site" sweep-disk-bw 240 || fail "not every element is DONE (see above)"
log "3 elements ran in $((SECONDS - start)) s"
dir=$work/campaigns/local-sweep-disk-bw
"$CAMPAIGN" collect "$site" sweep-disk-bw || fail "collect: exit $?"
n=$(awk -F'\t' '!/^#/ && $7 == "DONE" && $8 ~ /\.h5$/' "$dir/index.tsv" | wc -l)
[[ $n -eq 6 ]] || fail "index lists $n results files, want 6: $(cat "$dir/index.tsv")"
"$REPORT" validate "$dir"/results/*.h5 >"$work/validate.txt" 2>&1 ||
	fail "results files do not validate: $(cat "$work/validate.txt")"

# the throttle the plugin applied (its per-job file, copied before the run)
for k in 0 1 2; do
	want=$(((k + 1) * 20000000))
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
log "PASS (${#pngs[@]} curves)"
