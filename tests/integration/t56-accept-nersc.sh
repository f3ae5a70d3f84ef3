#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# t56-accept-nersc: the acceptance job with [accept] profile = nersc on the
# real local site (iostrata-bench on CephFS from c1 c2): the NERSC-10-style
# tests (sequential N-to-N, sequential N-to-1 on one shared file, random
# 4 KiB N-to-N) at 1 node and all (2) nodes, size-based, write and read in
# the same run, with the local site's documented scaled-down data rule
# (nersc_data_factor 0.0005 x RAM).  Asserts: the job exits 0, every test
# at both levels PASS with its node and process counts, the verdict says
# SCALED DOWN, the JSON's maxima name nodes and processes, the N-to-1 files
# record file_layout shared and carry the plan; the same files judged by
# the rules' own 1.5 x RAM (read from the hardware record) FAIL for too
# little data.  Afterwards nothing is drained.

set -uo pipefail
T=t56-accept-nersc
# shellcheck source=tests/integration/t5x-lib.bash
source "$(dirname "$0")/t5x-lib.bash"
t5x_init
t5x_need_real
/usr/bin/python3 -c 'import h5py' 2>/dev/null || skip "python3-h5py missing"

site=$work/site/site.conf
t5x_site "$site" accept.profile=nersc accept.nersc_data_factor=0.0005 \
	workload.reps=1
"$CAMPAIGN" submit "$site" acceptance --campaign="$work/nersc" >/dev/null ||
	fail "submit (nersc) failed"
"$CAMPAIGN" status "$site" acceptance --campaign="$work/nersc" --wait=400 >"$work/nersc.txt"
rc=$?
cat "$work/nersc.txt"
el=$work/nersc/elements/0
cat "$el/accept.txt" 2>/dev/null
[[ $rc -eq 0 ]] || fail "nersc acceptance: exit $rc, want 0: $(tail -30 "$el"/*.out 2>/dev/null)"
for t in seq-n-to-n seq-n-to-1 rand-n-to-n; do
	for lv in 1 2; do
		grep -Eq "^$t +$lv +$lv +PASS " "$el/accept.txt" ||
			fail "no PASS row for $t on $lv node(s) ($lv processes)"
		[[ -s $el/nersc-$t-$lv.h5 ]] || fail "no results file nersc-$t-$lv.h5: $(ls "$el")"
	done
done
grep -q '^verdict: PASS (scaled down)$' "$el/accept.txt" || fail "the verdict does not say PASS (scaled down)"
grep -q 'SCALED DOWN: data rule 0.0005 x' "$el/accept.txt" || fail "the scaled-down data rule is not stated"
grep -Eq '^max write seq-n-to-1: [0-9.]+ MB/s on [12] node\(s\), [12] processes' "$el/accept.txt" ||
	fail "no max write of the N-to-1 test with node and process counts"
python3 - "$el/accept.json" <<'PY' || fail "accept.json: $(head -c 800 "$el/accept.json")"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["profile"] == "nersc" and j["exit"] == 0 and j["verdict"] == "PASS", j
assert j["levels"] == [1, 2], j["levels"]
assert j["scaled_down"] is True and j["data_factor"] == 0.0005, j
assert len(j["rows"]) == 6, j["rows"]
for r in j["rows"]:
    assert r["status"] == "PASS", r
    assert r["written_bytes"] >= 0.0005 * r["ram_bytes"] > 0, r
for t, b in j["max"].items():
    for k in ("write", "read"):
        assert b[k]["nodes"] in (1, 2) and b[k]["processes"] >= 1, (t, k, b)
PY
/usr/bin/python3 - "$el/nersc-seq-n-to-1-2.h5" "$el/nersc-seq-n-to-n-2.h5" <<'PY' || fail "the results files' layout"
import sys, h5py
s = lambda v: v.decode() if isinstance(v, bytes) else str(v)
a, b = (h5py.File(p, "r") for p in sys.argv[1:])
assert s(a["config"].attrs["file_layout"]) == "shared", a["config"].attrs["file_layout"]
assert s(b["config"].attrs["file_layout"]) == "per-rank", b["config"].attrs["file_layout"]
assert s(a["config"].attrs["mode"]) == "once"
assert "profile=nersc" in s(a["attachments/nersc_plan"][()]), list(a["attachments"])
PY
# the rules' own data factor on the same files: too little data
"$REPORT" accept --profile=nersc "$el"/nersc-*.h5 >"$work/rules.txt"
rc=$?
cat "$work/rules.txt"
[[ $rc -eq 1 ]] || fail "accept --profile=nersc at 1.5 x RAM: exit $rc, want 1"
n=$(grep -Ec '^[a-z0-9-]+ +[12] +[12] +FAIL .*too little data: .* less than 1.5 x the clients. RAM' "$work/rules.txt")
[[ $n -eq 6 ]] || fail "want 6 FAIL rows for too little data, got $n"
log "PASS"
