#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t24-spank-slurmd-crash: slurmd of n1 is killed (SIGKILL, only our own
# site's PID) while a shaped job runs; the journal survives; the restarted
# slurmd restores the node at start (slurm_spank_init in S_CTX_SLURMD);
# the job's epilog later finds nothing to do; no node drains.
. "$(dirname "$0")/t2x-lib.bash"

ensure_plugin
snapshot
P=$IOSTRATA_SLURM_PARTITION
pidfile=$IOSTRATA_SITE_BASE/run/slurmd-n1.pid
[ -f "$pidfile" ] || skip "no $pidfile"
bwopt=
[ -n "${IOSTRATA_OSD_CGROUPS:-}" ] && bwopt=--iostrata-disk-bw=50M

pid=$(cat "$pidfile")
mapfile -d '' argv <"/proc/$pid/cmdline"
[[ " ${argv[*]} " == *" -N n1 "* ]] || skip "pid $pid is not slurmd -N n1"
grep -qz "^SLURM_CONF=$SLURM_CONF\$" "/proc/$pid/environ" ||
	[[ " ${argv[*]} " == *" $SLURM_CONF "* ]] || skip "pid $pid is not our site's slurmd"
marker=$(tr '\0' '\n' <"/proc/$pid/environ" | sed -n 's/^IOSTRATA_SITE_DAEMON=//p')
rec=$IOSTRATA_SITE_BASE/run/pids/slurmd-n1
restart_slurmd() {
	# Same argv, SLURM_CONF and site marker as localsite gave it, and
	# recorded where localsite looks, so "localsite down" stops it.
	local np st
	cd / || return
	IOSTRATA_SITE_DAEMON=$marker SLURM_CONF=$SLURM_CONF setsid "${argv[@]}" \
		>>"$IOSTRATA_SITE_BASE/log/slurmd-n1.out" 2>&1 </dev/null &
	np=$!
	disown "$np"
	cd - >/dev/null || true
	st=$(awk '{ sub(/.*\) /, ""); print $20 }' "/proc/$np/stat" 2>/dev/null)
	[ -f "$rec" ] && [ -n "$st" ] && echo "$np $st" >"$rec"
}
t2x_cleanup() {
	if ! kill -0 "$(cat "$pidfile" 2>/dev/null)" 2>/dev/null; then
		restart_slurmd
		sleep 2
	fi
}

id=$(submit -p "$P" -w n1 --exclusive -t 3 --iostrata-cpus=1 $bwopt \
	-o "$T2X_TMP/out" --wrap="touch $T2X_TMP/started.1; sleep 300") || fail "sbatch failed"
wait_running "$id" "$T2X_TMP/started.1" || fail "job $id not running"
[ "$(cat /sys/devices/system/cpu/online)" = 0 ] || fail "job $id running but cpu1 online"
[ -f "$T2X_STATE/journal/$id.state" ] || fail "no journal for job $id"
say "killing slurmd n1 (pid $pid) while job $id runs"
kill -KILL "$pid"
for _ in $(seq 1 50); do
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
kill -0 "$pid" 2>/dev/null && fail "slurmd $pid did not die"
[ -f "$T2X_STATE/journal/$id.state" ] || fail "journal lost with slurmd"
[ "$(cat /sys/devices/system/cpu/online)" = 0 ] || fail "node changed although nobody restored"
restart_slurmd
for _ in $(seq 1 60); do
	[ ! -f "$T2X_STATE/journal/$id.state" ] && break
	sleep 0.5
done
[ ! -f "$T2X_STATE/journal/$id.state" ] || fail "restarted slurmd did not restore the crash journal"
say "restarted slurmd restored the node from the journal"
grep -q "restored after job $id" "$IOSTRATA_SITE_BASE/log/slurmd-n1.log" || fail "no restore line in slurmd-n1.log"
expect_restored "slurmd restart"
scancel "$id"
wait_job "$id" 60 || fail "job $id did not end"
expect_restored "after the epilog"
expect_not_drained "after the epilog"
say "pass"
