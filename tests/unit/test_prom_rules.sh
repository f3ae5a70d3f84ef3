#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_prom_rules.sh: the Prometheus side of the nightly health.
# 1. jobscripts/iostrata-health.rules.yml passes `promtool check rules`.
# 2. `promtool test rules` (tests/unit/prom_rules_test.yml): osd.1 on s2
#    at 60% of its baseline with iostrata_regression 1 fires
#    IostrataOsdRegression with its labels and "60%"; osd.0 (gauge 0)
#    fires nothing; a failed night fires IostrataNightlyHealthFailed.
# 3. The textfile `iostrata-report health --prometheus` writes for four
#    nights of an index (osd.1 slow the last night) passes `promtool check
#    metrics`, and its iostrata_regression series carry the labels the
#    rules match on (layer, osd, host, client, metric).
# promtool is Debian's prometheus package (scripts/install-deps, TESTS).
set -u

src=$(cd "${IOSTRATA_SRCDIR:-$(dirname "$0")/../..}" && pwd -P)
build=${IOSTRATA_BUILDDIR:-$src/build}
report=$build/report/iostrata-report
rules=$src/jobscripts/iostrata-health.rules.yml

echo "1..3"
if ! command -v promtool >/dev/null; then
	for i in 1 2 3; do echo "ok $i # SKIP no promtool (Debian's prometheus package: scripts/install-deps)"; done
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if out=$(promtool check rules "$rules" 2>&1); then
	echo "ok 1 - promtool check rules $rules"
else
	echo "not ok 1 - promtool check rules $rules"
	sed 's/^/# /' <<<"$out"
fi

sed "s|RULES|$rules|" "$src/tests/unit/prom_rules_test.yml" >"$tmp/test.yml"
if out=$(promtool test rules "$tmp/test.yml" 2>&1); then
	echo "ok 2 - promtool test rules: the OSD regression alert names osd.1 on s2 at 60%, a failed night alerts"
else
	echo "not ok 2 - promtool test rules"
	sed 's/^/# /' <<<"$out"
fi

if [[ ! -x $report ]]; then
	echo "ok 3 # SKIP no $report"
	exit 0
fi
mkdir -m 700 "$tmp/hist"
for n in 1 2 3 4; do
	s2=$((n == 4 ? 120000000 : 200000000 + n * 1000000))
	"$report" health-record --index="$tmp/hist/index.tsv" --night="2026120${n}T070000Z" \
		--figure="osd,osd.0,s1,write_bw,$((190000000 + n * 1000000))" \
		--figure="osd,osd.1,s2,write_bw,$s2" \
		--figure="client,c1,c1,seq_write_lat_p99,$((900000 + n * 1000))" >/dev/null
done
"$report" health --index="$tmp/hist/index.tsv" --prometheus="$tmp/iostrata.prom" >"$tmp/out.txt"
rc=$?
want='iostrata_regression{layer="osd",osd="osd.1",host="s2",client="",metric="write_bw"} 1'
if [[ $rc -ne 1 ]]; then
	echo "not ok 3 - health exit $rc on a slow osd.1, want 1"
	sed 's/^/# /' "$tmp/out.txt"
elif ! grep -qxF "$want" "$tmp/iostrata.prom"; then
	echo "not ok 3 - the textfile lacks $want"
	sed 's/^/# /' "$tmp/iostrata.prom"
elif ! out=$(promtool check metrics <"$tmp/iostrata.prom" 2>&1); then
	echo "not ok 3 - promtool check metrics on the textfile"
	sed 's/^/# /' <<<"$out"
else
	echo "ok 3 - the textfile passes promtool check metrics, osd.1 on s2's gauge 1"
fi
