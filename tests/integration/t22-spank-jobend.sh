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

shaped() { [ "$(cat /sys/devices/system/cpu/online)" = 0 ]; }

# 1. the job script fails (with memory offlined too)
id=$(submit -p "$P" -w s1 --exclusive -t 3 --iostrata-cpus=1 --iostrata-mem=20G $bwopt \
	-o "$T2X_TMP/fail.out" --wrap='nproc; exit 3') || fail "sbatch failed"
wait_job "$id" 150 || fail "failing job $id did not end"
[ "$(job_state "$id")" = FAILED ] || fail "job $id: $(job_state "$id"), want FAILED"
grep -qx 1 "$T2X_TMP/fail.out" || fail "failing job did not see 1 CPU"
expect_restored "failing job"
expect_not_drained "failing job"
say "failing job: restored"

# 2. scancel while running
id=$(submit -p "$P" -w s1 --exclusive -t 3 --iostrata-cpus=1 $bwopt \
	-o /dev/null --wrap="touch $T2X_TMP/started.1; sleep 300") || fail "sbatch failed"
wait_running "$id" "$T2X_TMP/started.1" || fail "job $id not running"
shaped || fail "job $id running but cpu1 online"
scancel "$id"
wait_job "$id" 60 || fail "cancelled job $id did not end"
expect_restored "scancel"
expect_not_drained "scancel"
say "scancel: restored"

# 3. time limit (1 minute; slurmctld checks limits every ~30 s)
id=$(submit -p "$P" -w s1 --exclusive -t 1 --iostrata-cpus=1 $bwopt \
	-o /dev/null --wrap="touch $T2X_TMP/started.2; sleep 600") || fail "sbatch failed"
wait_running "$id" "$T2X_TMP/started.2" || fail "job $id not running"
shaped || fail "job $id running but cpu1 online"
wait_job "$id" 150 || fail "job $id not ended by its time limit"
[ "$(job_state "$id")" = TIMEOUT ] || fail "job $id: $(job_state "$id"), want TIMEOUT"
expect_restored "time limit"
expect_not_drained "time limit"
say "time limit: restored"
say "pass"
