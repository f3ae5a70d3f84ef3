#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t22-spank-jobend: however a shaped job ends -- its script fails, it is
# scancel'ed, it hits its time limit -- the epilog restores the node to the
# snapshot and no node drains.
. "$(dirname "$0")/t2x-lib.bash"

ensure_plugin
snapshot
P=$IOSTRATA_STORAGE_PARTITION
bwopt=
[ -n "${IOSTRATA_OSD_CGROUPS:-}" ] && bwopt=--iostrata-disk-bw=50M

# start_shaped N LIMIT SLEEP: submit a job shaped to 1 CPU with a time limit
# of LIMIT minutes whose script sleeps SLEEP s; returns (with its id in
# $id) once the script runs on the shaped node.
start_shaped() {
	id=$(submit -p "$P" -w s1 --exclusive -t "$2" --iostrata-cpus=1 $bwopt \
		-o /dev/null --wrap="touch $work/started.$1; sleep $3") || fail "sbatch failed"
	wait_running "$id" "$work/started.$1" || fail "job $id not running"
	[ "$(cat /sys/devices/system/cpu/online)" = 0 ] || fail "job $id running but cpu1 online"
}

# 1. the job script fails (with memory offlined too)
id=$(submit -p "$P" -w s1 --exclusive -t 3 --iostrata-cpus=1 --iostrata-mem=20G $bwopt \
	-o "$work/fail.out" --wrap='nproc; exit 3') || fail "sbatch failed"
wait_job "$id" 150 || fail "failing job $id did not end"
[ "$(job_state "$id")" = FAILED ] || fail "job $id: $(job_state "$id"), want FAILED"
grep -qx 1 "$work/fail.out" || fail "failing job did not see 1 CPU"
expect_restored "failing job"
expect_not_drained "failing job"
log "failing job: restored"

# 2. scancel while running
start_shaped 1 3 300
scancel "$id"
wait_job "$id" 60 || fail "cancelled job $id did not end"
expect_restored "scancel"
expect_not_drained "scancel"
log "scancel: restored"

# 3. time limit (1 minute; slurmctld checks limits every ~30 s)
start_shaped 2 1 600
wait_job "$id" 150 || fail "job $id not ended by its time limit"
[ "$(job_state "$id")" = TIMEOUT ] || fail "job $id: $(job_state "$id"), want TIMEOUT"
expect_restored "time limit"
expect_not_drained "time limit"
log "time limit: restored"
log "pass"
