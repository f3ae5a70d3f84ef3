#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# t53-acceptance: the acceptance job on the real local site (iostrata-bench
# on CephFS from c1 c2, seeds/002's method: 4 MiB throughput, 4 KiB IOPS)
# against two tiers: a floor the site meets (the job exits 0, the element is
# DONE) and a tier it cannot meet (the job fails, the element is FAILED
# with the reason, the PASS/FAIL table is kept).  Also the nightly-health
# job twice (history, trend, Prometheus textfile).  Afterwards the node is
# whole and nothing is drained.

set -uo pipefail
T=t53-acceptance
# shellcheck source=tests/integration/t5x-lib.bash
source "$(dirname "$0")/t5x-lib.bash"
t5x_init
t5x_need_real

t5x_tiers "$work/tiers.conf" 10K
site=$work/site/site.conf
t5x_site "$site" workload.file_size=4M workload.runtime=2 workload.reps=1 \
	workload.iodepth=2 accept.tiers="$work/tiers.conf" accept.tier=Floor \
	health.file_size=2M health.runtime=1 health.history="$work/history" \
	health.textfile="$work/prom/iostrata.prom"
sed -i 's/^seq_bs = .*/seq_bs = 1M/' "$site"

"$CAMPAIGN" submit "$site" acceptance --campaign="$work/floor" >/dev/null || fail "submit (Floor) failed"
IOSTRATA_TIER=Impossible "$CAMPAIGN" submit "$site" acceptance --campaign="$work/impossible" >/dev/null ||
	fail "submit (Impossible) failed"
"$CAMPAIGN" status "$site" acceptance --campaign="$work/floor" --wait=180 >"$work/floor.txt"
rc=$?
cat "$work/floor.txt"
[[ $rc -eq 0 ]] || fail "acceptance against a tier the site meets: exit $rc, want 0"
grep -q PASS "$work"/floor/elements/0/accept.txt || fail "no PASS table kept"
"$CAMPAIGN" status "$site" acceptance --campaign="$work/impossible" --wait=180 >"$work/imp.txt"
rc=$?
cat "$work/imp.txt"
[[ $rc -eq 1 ]] || fail "acceptance against an impossible tier: exit $rc, want 1"
grep -q 'tier "Impossible" not met' "$work/imp.txt" || fail "the failure does not name the tier"
grep -q FAIL "$work"/impossible/elements/0/accept.txt || fail "no FAIL table kept"

# nightly health, twice: the second run is compared with the first
for i in 1 2; do
	"$CAMPAIGN" submit "$site" nightly-health --campaign="$work/health$i" >/dev/null ||
		fail "submit nightly-health failed"
	"$CAMPAIGN" status "$site" nightly-health --campaign="$work/health$i" --wait=180 >"$work/h$i.txt"
	rc=$?
	cat "$work/h$i.txt"
	# a regression beyond 50% on this noisy box is possible but rare:
	# exit 1 must then come with the trend table saying so
	if [[ $rc -ne 0 ]]; then
		grep -q "regression" "$work/h$i.txt" || fail "nightly-health $i failed without a regression: $(cat "$work/h$i.txt")"
	fi
done
grep -q "no history" "$work"/health2/elements/0/trend.txt &&
	fail "the second nightly run was not compared with the first: $(cat "$work"/health2/elements/0/trend.txt)"
n=$(ls "$work"/history/*.h5 2>/dev/null | wc -l)
[[ $n -eq 4 ]] || fail "history holds $n files, want 4"
grep -q '^iostrata_' "$work/prom/iostrata.prom" || fail "no Prometheus textfile written"
log "PASS"
