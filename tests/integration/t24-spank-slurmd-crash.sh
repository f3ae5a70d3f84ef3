#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t24-spank-slurmd-crash: slurmd of s1 is killed (SIGKILL, only our own
# site's PID) and restarted while a shaped job runs.
#  a) the job's slurmstepd survives: the restarted slurmd keeps the
#     journal and the job keeps its shape (CPUs offline, throttle set)
#     until its epilog, which restores the node; nothing drains.
#  b) a journal whose job is not running (an admin apply under a job id
#     slurmctld does not know) is restored by the restarted slurmd.
. "$(dirname "$0")/t2x-lib.bash"

ensure_plugin
snapshot
P=$IOSTRATA_STORAGE_PARTITION
bwopt=
[ -n "${IOSTRATA_OSD_CGROUPS:-}" ] && bwopt=--iostrata-disk-bw=50M
slurmd_find
t2x_cleanup() {
	if ! kill -0 "$(cat "$pidfile" 2>/dev/null)" 2>/dev/null; then
		restart_slurmd
		sleep 2
	fi
}
throttle_now() {
	local cg
	for cg in ${IOSTRATA_OSD_CGROUPS:-}; do
		cat "$cg"/blkio.throttle.write_bps_device 2>/dev/null || cat "$cg"/io.max
	done | tr '\n' ' '
}

# a) restart under a running shaped job
id=$(submit -p "$P" -w s1 --exclusive -t 3 --iostrata-cpus=1 $bwopt \
	-o "$work/out" --wrap="touch $work/started.1; sleep 300") || fail "sbatch failed"
wait_running "$id" "$work/started.1" || fail "job $id not running"
[ "$(cat /sys/devices/system/cpu/online)" = 0 ] || fail "job $id running but cpu1 online"
[ -f "$T2X_STATE/journal/$id.state" ] || fail "no journal for job $id"
thr=$(throttle_now)
[ -z "$bwopt" ] || grep -q 52428800 <<<"$thr" || fail "job $id running but no throttle: $thr"
pgrep -f "^slurmstepd: \[$id\." >/dev/null || fail "no slurmstepd of job $id"
kill_slurmd " while job $id runs"
[ -f "$T2X_STATE/journal/$id.state" ] || fail "journal lost with slurmd"
[ "$(cat /sys/devices/system/cpu/online)" = 0 ] || fail "node changed although nobody restored"
pgrep -f "^slurmstepd: \[$id\." >/dev/null || fail "slurmstepd of job $id died with slurmd"
restart_slurmd
wait_slurmd_up "journal of job $id kept" ||
	fail "restarted slurmd did not keep the journal of running job $id: $(grep "job $id" "$IOSTRATA_SITE_BASE/log/slurmd-s1.log" | tail -3)"
log "restarted slurmd kept the journal: $(grep "journal of job $id kept" "$IOSTRATA_SITE_BASE/log/slurmd-s1.log" | tail -1 | sed 's/.*iostrata: //')"
# the shape holds while the job runs
for _ in 1 2 3 4 5; do
	[ "$(job_state "$id")" = RUNNING ] || fail "job $id no longer running: $(job_state "$id")"
	[ -f "$T2X_STATE/journal/$id.state" ] || fail "journal of running job $id removed after the restart"
	[ "$(cat /sys/devices/system/cpu/online)" = 0 ] || fail "cpu1 online again under running job $id"
	[ "$(throttle_now)" = "$thr" ] || fail "throttle changed under running job $id: $(throttle_now)"
	sleep 1
done
log "job $id kept its shape after the slurmd restart"
expect_not_drained "after the restart"
scancel "$id"
wait_job "$id" 60 || fail "job $id did not end"
expect_restored "after the epilog"
grep -q "restored after job $id" "$IOSTRATA_SITE_BASE/log/slurmd-s1.log" || fail "no restore line in slurmd-s1.log"
expect_not_drained "after the epilog"
log "the epilog of job $id restored the node"

# b) a journal of a job that does not run: restored at slurmd start
ghost=999999
"$T2X_NODE" apply --cpus 1 --job "$ghost" --node s1 --state-dir "$T2X_STATE" \
	--policy "$T2X_POLICY" >"$work/apply.out" 2>&1 || { cat "$work/apply.out"; fail "iostrata-node apply failed"; }
[ "$(cat /sys/devices/system/cpu/online)" = 0 ] || fail "admin apply did not offline cpu1"
squeue -h -j "$ghost" 2>/dev/null | grep -q . && fail "job $ghost exists"
kill_slurmd " with the journal of job $ghost (not running)"
restart_slurmd
wait_slurmd_up "restored after job $ghost" ||
	fail "restarted slurmd did not restore the journal of job $ghost: $(grep "job $ghost" "$IOSTRATA_SITE_BASE/log/slurmd-s1.log" | tail -3)"
[ ! -f "$T2X_STATE/journal/$ghost.state" ] || fail "journal of job $ghost left"
expect_restored "slurmd start with a stale journal"
expect_not_drained "slurmd start with a stale journal"
log "pass"
