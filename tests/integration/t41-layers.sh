#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# t41-layers: `iostrata-bench --layers` on the local site, on rados pools of
# size 1, 2 and 3 (created here, deleted after): each run yields the four
# layer numbers (device, network, protocol, full stack), a verdict in words
# with the one-host caveat, and no unexplained ceiling violation (any
# number above its ceiling is labelled "suspected caching"); the results
# file holds the layers and the pool's size, and says the roles were not
# known (a plain srun: all nodes did all layers).  Then `iostrata-report
# efficiency` over the three runs prints one row per replication factor.

set -euo pipefail
T=t41-layers
. "$(dirname "$0")/t4x-lib.bash"
t4x_require

make_work
cdir=$T.$$
make_shared "$IOSTRATA_CEPHFS_MOUNT/$cdir"
devdir=$work/dev
mkdir -p "$devdir"/{0,1,2}

# The device layer writes into a directory per node; on the local site the
# OSDs' files sit on the host's disk like $work does.  The full stack runs
# on the CephFS data pool whatever the rados pool's size: measured once, at
# size 3 (the data pool's size), to keep the test short.
for size in 1 2 3; do
	skip=()
	want=(device network protocol)
	if [[ $size != 3 ]]; then
		skip=(--layers-skip=fullstack,fullstack-lib)
	else
		want+=(fullstack fullstack-lib)
	fi
	pool=iostrata-$T-s$size-$$
	t4x_pool "$pool" "$size" || fail "create pool $pool of size $size"
	out=$work/layers-$size.txt
	h5=$work/layers-$size.h5
	log "layered run, pool size $size"
	set +e
	t4x_srun 170 "$bench" --layers --layers-device-dir="$devdir/%n" \
		--rados-pool="$pool" --dir="$IOSTRATA_CEPHFS_MOUNT/$cdir" \
		--cephfs-dir="/$cdir" --bs=1M --size=32M --runtime=2 --reps=1 \
		--interval=1 --layers-net-time=0.3 --output="$h5" "${skip[@]}" \
		>"$out" 2>"$work/err"
	rc=$?
	set -e
	cat "$out"
	[[ $rc == 0 || $rc == 1 ]] || fail "size $size: exit $rc: $(tail -5 "$work/err")"
	for l in "${want[@]}"; do
		grep -Eq "^  $l +write [0-9.]+ [kMG]?B/s +read [0-9.]+ [kMG]?B/s" "$out" ||
			fail "size $size: no $l numbers in the output"
	done
	grep -q "pool size $size," "$out" || fail "size $size: verdict does not name the pool size"
	grep -q '^Write: device ceiling' "$out" || fail "size $size: no write verdict"
	grep -q '^Read: device ceiling' "$out" || fail "size $size: no read verdict"
	grep -q 'cannot prove' "$out" || fail "size $size: one-host caveat missing"
	# a plain srun over the compute hosts: no het job, no
	# --layers-storage-nodes, so the run must say the roles were unknown
	grep -q '^  roles: not known' "$out" || fail "size $size: the output does not say the roles were not known"
	grep -q '^Roles not known' "$out" || fail "size $size: the verdict does not say the roles were not known"
	grep -q 'fio cross-check of the device layer' "$out" ||
		fail "size $size: no fio cross-check"
	if grep -q EXCEEDS "$out"; then
		# a violation must be labelled, never a clean result
		if grep EXCEEDS "$out" | grep -vq 'suspected caching, not durable throughput'; then
			fail "size $size: unexplained ceiling violation"
		fi
		[[ $rc == 1 ]] || fail "size $size: violation but exit 0"
		log "size $size: a ceiling violation was flagged as suspected caching (noise on this box)"
	fi
	if [[ -s $h5 ]]; then
		/usr/bin/python3 - "$h5" "$size" "${want[*]}" "$NNODES" <<'PY' || fail "size $size: results file lacks the layers"
import sys, h5py
f = h5py.File(sys.argv[1], "r")
names = [r["name"].decode() for r in f["layers"][:]]
for l in sys.argv[3].split():
    if l not in names:
        sys.exit("no %s layer in %s (have %s)" % (l, sys.argv[1], names))
rep = f["config"].attrs["layers.replicas"]
rep = rep.decode() if isinstance(rep, bytes) else str(rep)
if rep != sys.argv[2]:
    sys.exit("layers.replicas %s, want %s" % (rep, sys.argv[2]))
roles = f["config"].attrs["layers.roles"]
roles = roles.decode() if isinstance(roles, bytes) else str(roles)
if roles != "unknown":
    sys.exit("layers.roles %s, want unknown (no het job, no option)" % roles)
nn = int(sys.argv[4])
if f["network"].shape[0] != nn * (nn - 1):
    sys.exit("%d network pairs, want %d" % (f["network"].shape[0], nn * (nn - 1)))
v = f.attrs["verdict"]
v = v.decode() if isinstance(v, bytes) else str(v)
if "Write:" not in v or "cannot prove" not in v:
    sys.exit("verdict missing in the file")
PY
	else
		log "size $size: no results file (build without the HDF5 writer)"
	fi
done
# Table 4 over the three runs (needs the results files).
if compgen -G "$work/layers-*.h5" >/dev/null; then
	report=$build/report/iostrata-report
	[[ -x $report ]] || fail "$report not built"
	"$report" layers --site="$top/site/local" "$work"/layers-*.h5 >"$work/report" 2>&1 ||
		fail "iostrata-report layers failed: $(tail -3 "$work/report")"
	cat "$work/report"
	for size in 1 2 3; do
		grep -Eq "^\| $size \| " "$work/report" || fail "Table 4 lacks replication $size"
	done
	grep -q 'Table 4 (rated peak' "$work/report" || fail "no rated-peak table"
fi
log "PASS"
