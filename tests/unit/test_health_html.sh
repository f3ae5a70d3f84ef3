#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_health_html.sh: the page `iostrata-report health --html` writes
# next to the history, opened in headless Chromium (tests/tools/render-html:
# it renders, shows content, loads nothing from elsewhere).  Six nights of
# three OSDs, two clients and the metadata probe, osd.1 on s2 at 60% on the
# fifth: its plot is marked regressed with a red circle on that night, the
# others are not.  IOSTRATA_KEEP_PNG=DIR keeps the picture there.
set -u

src=$(cd "${IOSTRATA_SRCDIR:-$(dirname "$0")/../..}" && pwd -P)
build=${IOSTRATA_BUILDDIR:-$src/build}
report=$build/report/iostrata-report

echo "1..2"
if [[ ! -x $report ]]; then
	echo "ok 1 # SKIP no $report"
	echo "ok 2 # SKIP no $report"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -m 700 "$tmp/hist"
for n in 1 2 3 4 5 6; do
	s2=$((n == 5 ? 120000000 : 200000000 + n * 1000000))
	args=()
	for o in 0 2; do
		args+=(--figure="osd,osd.$o,s$((o + 1)),write_bw,$((190000000 + o * 3000000 + (n * 7 % 5) * 1000000))")
	done
	"$report" health-record --index="$tmp/hist/index.tsv" --night="2026120${n}T070000Z" \
		--figure="osd,osd.1,s2,write_bw,$s2" "${args[@]}" \
		--figure="client,c1,c1,seq_write_bw,$((80000000 + (n * 3 % 4) * 1000000))" \
		--figure="client,c2,c2,rand_read_iops,$((3000 + (n * 5 % 3) * 40))" \
		--figure="client,c1,c1,seq_write_lat_p99,$((900000 + n * 10000))" \
		--figure="metadata,mds,c1,md_create_rate,$((800 + n * 5))" \
		--figure="metadata,mds,c1,md_stat_lat_p99,$((40000 + n * 300))" >/dev/null
done
"$report" health --index="$tmp/hist/index.tsv" --html="$tmp/hist/health.html" >"$tmp/out.txt"
page=$tmp/hist/health.html
if grep -q '<div class="fig regressed" id="osd-osd.1-s2-write_bw">' "$page" &&
	[[ $(grep -c '<div class="fig regressed"' "$page") -eq 1 ]] &&
	[[ $(grep -o '<circle class="regression"' "$page" | wc -l) -eq 1 ]]; then
	echo "ok 1 - the page marks osd.1 on s2's plot alone, one red night"
else
	echo "not ok 1 - the page does not mark osd.1 on s2 alone"
	grep -o '<div class="fig[^>]*>' "$page" | sed 's/^/# /'
fi
if ! command -v "${CHROMIUM:-chromium}" >/dev/null; then
	echo "ok 2 # SKIP no chromium (scripts/install-deps installs it on the host)"
	exit 0
fi
if out=$(timeout 180 "$src/tests/tools/render-html" "$page" "$tmp/health.png" 2>&1); then
	echo "ok 2 - headless Chromium renders the page: $out"
else
	echo "not ok 2 - render-html: $out"
fi
[[ -z ${IOSTRATA_KEEP_PNG:-} ]] || cp "$tmp/health.png" "$page" "$IOSTRATA_KEEP_PNG/"
