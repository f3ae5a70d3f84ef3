#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# t44-layers-osd-kill: an OSD of the test site killed (SIGKILL, by the PID
# the site recorded) in the middle of a protocol-layer run: the run
# finishes or fails cleanly within its bound, any I/O errors are recorded
# (never a hang), and the OSD is restarted afterwards so the cluster is
# left as it was (3 OSDs up, all PGs active+clean, no objects left).
# Then an OSD stopped (SIGSTOP: hung, not dead) under a size-1 pool whose
# objects only it holds: the operations time out after --ceph-timeout, the
# errors are recorded, the run is invalid (exit 1) in bounded time; the OSD
# is continued and the pool deleted.

set -euo pipefail
T=t44-layers-osd-kill
. "$(dirname "$0")/t4x-lib.bash"
t4x_require

OSD=1
pidfile=$IOSTRATA_SITE_BASE/run/pids/osd.$OSD
[[ -r $pidfile ]] || skip "no recorded PID for osd.$OSD ($pidfile)"
read -r opid ostart <"$pidfile"
[[ -r /proc/$opid/cmdline ]] || skip "osd.$OSD (PID $opid) is not running"
starttime() { local s; s=$(cat "/proc/$1/stat" 2>/dev/null) || return 1; s=${s##*) }; set -- $s; echo "${20}"; }
[[ $(starttime "$opid") == "$ostart" ]] || skip "PID $opid is no longer osd.$OSD"
# started again with `localsite respawn osd.$OSD`: same command line,
# cgroup, site tag and host (its storage host's namespaces)
localsite=$top/site/local/localsite
[[ -x $localsite ]] || skip "no $localsite to restart the OSD with"

make_work
pool=${IOSTRATA_RADOS_POOL:-bench}
killed=0

restart_osd() {
	((killed)) || return 0
	"$localsite" respawn "osd.$OSD" "$IOSTRATA_SITE_BASE" || return 1
	killed=0
}

cluster_ok() {
	local i up total clean pgs
	for ((i = 0; i < 90; i++)); do
		up=$(ceph osd stat -f json 2>/dev/null | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin).get("num_up_osds", 0))' 2>/dev/null || echo 0)
		pgs=$(ceph pg ls 2>/dev/null) || pgs=
		total=$(grep -c '^[0-9]' <<<"$pgs" || true)
		clean=$(grep -c 'active+clean' <<<"$pgs" || true)
		((up == 3 && total > 0 && total == clean)) && return 0
		sleep 1
	done
	return 1
}

stopped=0
t44_exit() {
	((stopped)) && kill -CONT "$opid" 2>/dev/null
	t4x_cleanup_pools
	restart_osd || true
	cluster_ok || late_fail "cluster not back to 3 OSDs up, all PGs active+clean"
}
at_exit t44_exit

cluster_ok || skip "cluster not healthy before the test"
RT=8
TMO=20
BOUND=$((2 * RT + TMO + 60))
log "protocol layer on pool $pool for ${RT}s per phase; killing osd.$OSD (PID $opid) once writes are under way"
t0=$(now)
t4x_srun $((BOUND + 30)) "$bench" --layers \
	--layers-skip=device,network,fullstack,fullstack-lib --rados-pool="$pool" \
	--ceph-timeout=$TMO --bs=1M --size=32M --iodepth=4 --runtime=$RT --reps=1 \
	--output=none >"$work/out" 2>"$work/err" &
job=$!
for ((i = 0; i < 60; i++)); do # writes under way
	[[ $(t4x_objects "$pool") != 0 ]] && break
	sleep 0.5
done
sleep 1
kill -KILL "$opid"
killed=1
set +e
wait "$job"
rc=$?
set -e
dt=$(since "$t0" 0)
cat "$work/out"
log "run ended with exit $rc after $dt s (bound $BOUND s)"
((dt <= BOUND)) || fail "took $dt s, bound $BOUND s"
[[ $rc == 0 || $rc == 1 ]] || fail "exit $rc: not a clean finish or failure: $(tail -5 "$work/err")"
grep -q '^  protocol ' "$work/out" || fail "no protocol line in the output"
if [[ $rc == 1 ]]; then
	grep -Eq 'invalid|failed|error' "$work/out" "$work/err" ||
		fail "exit 1 without the errors recorded"
fi
restart_osd
cluster_ok || fail "cluster did not come back after restarting osd.$OSD"
left=$(t4x_objects "$pool")
[[ $left == 0 ]] || fail "$left objects left in $pool"

# A hung OSD (SIGSTOP) under a pool of size 1.
read -r opid ostart <"$pidfile"
spool=iostrata-$T-s1-$$
t4x_pool "$spool" 1 || fail "create pool $spool"
TMO=8
BOUND=$((RT + 2 * TMO + 60))
log "rados backend on size-1 pool $spool; stopping osd.$OSD (PID $opid) once writes are under way"
t0=$(now)
t4x_srun $((BOUND + 30)) "$bench" --backend=rados --rados-pool="$spool" \
	--ceph-timeout=$TMO --rw=write --bs=1M --size=32M --iodepth=4 \
	--ioengine=libaio --runtime=$RT --reps=1 --output=none --summary=json \
	>"$work/out2" 2>"$work/err2" &
job=$!
# stop it once writes are under way (srun may wait for the last job's
# resources), and only if osd.$OSD holds some of the pool's PGs
for ((i = 0; i < 60; i++)); do
	[[ -n $(rados -p "$spool" ls --all 2>/dev/null | head -n 1) ]] && break
	sleep 0.5
done
ceph pg ls-by-pool "$spool" 2>/dev/null | grep -q "\[$OSD\]p$OSD" ||
	log "note: osd.$OSD holds no PG of $spool (placement); the stop may not be felt"
sleep 1
kill -STOP "$opid"
stopped=1
set +e
wait "$job"
rc=$?
set -e
kill -CONT "$opid"
stopped=0
# The stop leaves "slow OSD heartbeats" in the mon's 1-15 min averages:
# a warning that outlives the fault by minutes.  Mute exactly those codes
# with a TTL (they expire by themselves) so later tests see the cluster as
# it was.
for code in OSD_SLOW_PING_TIME_BACK OSD_SLOW_PING_TIME_FRONT SLOW_OPS; do
	ceph health mute "$code" 15m >/dev/null 2>&1 || true
done
dt=$(since "$t0" 0)
log "run ended with exit $rc after $dt s (bound $BOUND s)"
((dt <= BOUND)) || fail "hung OSD: took $dt s, bound $BOUND s"
[[ $rc == 1 ]] || fail "hung OSD: exit $rc, want 1 (invalid run): $(tail -3 "$work/err2")"
grep -q 'timed out' "$work/out2" || fail "hung OSD: the timeouts are not recorded in the summary"
grep -q '"valid": *false' "$work/out2" || fail "hung OSD: run not marked invalid"
t4x_cleanup_pools
cluster_ok || fail "cluster did not recover after the hung OSD continued"
log "PASS"
