#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t64-spank-mds-cache: a stat workload over a working set larger than a
# small MDS cache is slower than with a large cache (issue 32).  FILES
# empty files in DIRS directories are made through a ceph-fuse client of
# their own, which then unmounts (it holds no capabilities) and the MDS's
# journal is flushed (nothing pins them: the MDS may trim them).  Then,
# interleaved, with mds_cache_memory_limit set by iostrata-node apply
# --mds-cache (the plugin's code; restored after each pass) to SMALL and
# LARGE: a fresh ceph-fuse client (cold caches) stats
# every file by name (a lookup each, no readdir), once to load the MDS's
# cache, then again with another fresh client, timed.  The median small
# pass must take RATIO times the median large pass.  Long form only (about
# 2.5 minutes; tests/run --long).  Measured 2026-12-06 (400 x 50 files,
# the site's MDS cache 56 MB after making them, trimmed to 16-24 MB with
# 16M), two runs under the site lock with other builds beside them: 13:19
# 16M 6.9 and 9.0 s, 1G 5.5 and 6.6 s (1.32x); 13:25 16M 6.9 and 6.5 s, 1G
# 6.3 and 5.3 s (1.15x).  RATIO 1.1 is below both; two runs do not tell
# how often the machine's noise hides the effect.
. "$(dirname "$0")/t2x-lib.bash"

# About 2.5 minutes: the long form only (tests/run --long).
[ -n "${IOSTRATA_LONG:-}" ] || skip "long form only (tests/run --long or IOSTRATA_LONG=1): about 2.5 minutes"
ensure_plugin
grep -qx "mds = a" "$T2X_POLICY" || fail "$T2X_HOST's policy $T2X_POLICY lacks \"mds = a\""
command -v ceph-fuse >/dev/null || skip "no ceph-fuse"
DIRS=${T64_DIRS:-400}
FILES=${T64_FILES:-50}
SMALL=${T64_SMALL:-16M}
LARGE=${T64_LARGE:-1G}
REPS=${T64_REPS:-2}
RATIO=${T64_RATIO:-1.1}
sub=bench/t64.$$
mnts=()
t2x_cleanup() {
	local m
	for m in "${mnts[@]}"; do
		mountpoint -q "$m" && umount -l "$m" 2>/dev/null
	done
	rm -rf "${IOSTRATA_CEPHFS_MOUNT:?}/$sub"
}
snapshot

# fuse_mount DIR: a ceph-fuse client of its own on DIR (CephFS's /$sub)
fuse_mount() {
	mkdir -p "$1"
	mnts+=("$1")
	timeout 60 ceph-fuse -c "$CEPH_CONF" --id admin -r "/$sub" "$1" >"$work/fuse.log" 2>&1 ||
		fail "ceph-fuse on $1: $(cat "$work/fuse.log")"
}
fuse_umount() { umount "$1" || fail "umount $1"; }
cache_status() { timeout 30 ceph -c "$CEPH_CONF" tell mds.a cache status 2>/dev/null |
	/usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["pool"]["bytes"])' 2>/dev/null; }

mkdir -p "$IOSTRATA_CEPHFS_MOUNT/$sub"
fuse_mount "$work/m0"
t0=$SECONDS
/usr/bin/python3 - "$work/m0" "$DIRS" "$FILES" <<'PY' || fail "creating the files failed"
import os, sys
m, d, f = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for i in range(d):
    os.mkdir("%s/d%d" % (m, i))
    for j in range(f):
        os.close(os.open("%s/d%d/f%d" % (m, i, j), os.O_CREAT | os.O_WRONLY, 0o644))
PY
fuse_umount "$work/m0"
# the new inodes are dirty in the MDS's journal, which pins them in its
# cache: written back, the MDS may trim them
timeout 60 ceph -c "$CEPH_CONF" tell mds.a flush journal >/dev/null 2>&1 || fail "ceph tell mds.a flush journal failed"
log "$((DIRS * FILES)) files in $DIRS directories made in $((SECONDS - t0)) s; MDS cache $(cache_status) bytes"

# stat_pass DIR: a fresh ceph-fuse client on DIR stats every file by
# name; the seconds in $t
stat_pass() {
	fuse_mount "$1"
	t=$(/usr/bin/python3 - "$1" "$DIRS" "$FILES" <<'PY'
import os, sys, time
m, d, f = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
t = time.monotonic()
for i in range(d):
    for j in range(f):
        os.stat("%s/d%d/f%d" % (m, i, j))
print("%.3f" % (time.monotonic() - t))
PY
	) || fail "stat pass on $1 failed"
	fuse_umount "$1"
}

declare -A times
pass=0
for rep in $(seq 1 "$REPS"); do
	for size in "$SMALL" "$LARGE"; do
		pass=$((pass + 1))
		"$T2X_NODE" apply --mds-cache "$size" --job "t64p$pass" --node "$T2X_HOST" --state-dir "$T2X_STATE" \
			--policy "$T2X_POLICY" >"$work/apply.out" 2>&1 || { cat "$work/apply.out"; fail "iostrata-node apply --mds-cache $size failed"; }
		# the MDS trims on its tick: wait until its cache fits or 10 s
		for _ in $(seq 1 20); do
			c=$(cache_status)
			[ -n "$c" ] && [ "$c" -le "$(numfmt --from=iec "$size")" ] && break
			sleep 0.5
		done
		# a first pass loads what the cache can hold, the second is timed
		stat_pass "$work/m${pass}w"
		stat_pass "$work/m$pass"
		times[$size]="${times[$size]:-} $t"
		log "pass $pass: mds_cache_memory_limit $size: $((DIRS * FILES)) stats in $t s; MDS cache $c bytes before the pass, $(cache_status) after"
		"$T2X_NODE" restore --job "t64p$pass" --state-dir "$T2X_STATE" --policy "$T2X_POLICY" >"$work/restore.out" 2>&1 ||
			{ cat "$work/restore.out"; fail "iostrata-node restore failed"; }
	done
done
expect_restored "after the passes"
med() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ms=$(med <<<"${times[$SMALL]}")
ml=$(med <<<"${times[$LARGE]}")
log "median stat pass: cache $SMALL ${ms} s (${times[$SMALL]# }), cache $LARGE ${ml} s (${times[$LARGE]# })"
awk -v s="$ms" -v l="$ml" -v r="$RATIO" 'BEGIN { exit !(s >= r * l) }' ||
	fail "a $SMALL MDS cache is not ${RATIO}x slower than $LARGE: ${ms} s vs ${ml} s"
log "ok: $SMALL cache $(awk -v s="$ms" -v l="$ml" 'BEGIN { printf "%.2f", s / l }')x the time of $LARGE"
