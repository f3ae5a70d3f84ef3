# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# t2x-lib.bash: helpers for the spank integration tests (t2x-*.sh), sourced
# by them (not a test itself); on top of lib.bash.  Real kernel, real local
# Slurm: every test takes a snapshot of the machine state first and
# restores + verifies it at exit, also when the test fails.

set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

T2X_NODE=$build/spank/iostrata-node
T2X_SO=$build/spank/.libs/spank_iostrata.so
LOCALSITE=${LOCALSITE:-$top/site/local/localsite}

[ "$(id -u)" = 0 ] || skip "needs root (CPU/memory hotplug, blkio)"
require_env IOSTRATA_SITE_BASE
[ -x "$T2X_NODE" ] && [ -f "$T2X_SO" ] || skip "spank plugin not built in $build"
[ -w /sys/devices/system/cpu/cpu1/online ] || skip "no CPU hotplug for cpu1"

# The storage host the tests shape, and its plugin files (the site gives
# every storage host its own policy and state dir below IOSTRATA_HOSTS_DIR).
T2X_HOST=${IOSTRATA_STORAGE_NODES%%,*}
[ -n "$T2X_HOST" ] && [ -n "${IOSTRATA_HOSTS_DIR:-}" ] || skip "no storage hosts in this site (IOSTRATA_STORAGE_NODES, IOSTRATA_HOSTS_DIR)"
T2X_DIR=$IOSTRATA_HOSTS_DIR/$T2X_HOST/iostrata
T2X_STATE=$T2X_DIR/state
T2X_POLICY=$T2X_DIR/policy.conf
make_work /tmp

# Machine state the plugin may change: online CPUs, offline memory blocks,
# the throttles of the OSD cgroups.
machine_state() {
	echo "cpus $(cat /sys/devices/system/cpu/online)"
	echo "memoff $(grep -l '^0' /sys/devices/system/memory/memory*/online 2>/dev/null | tr '\n' ' ')"
	local cg f
	for cg in ${IOSTRATA_OSD_CGROUPS:-}; do
		for f in "$cg"/blkio.throttle.{read,write}_{bps,iops}_device "$cg"/io.max; do
			[ -f "$f" ] && echo "$f $(tr '\n' ' ' <"$f")"
		done
	done
	# the MDS's own cgroup (--iostrata-mds-cpus, --iostrata-mds-mem)
	if [ -n "${IOSTRATA_MDS_CGROUP:-}" ]; then
		for f in "/sys/fs/cgroup/cpu$IOSTRATA_MDS_CGROUP/cpu.cfs_quota_us" \
			"/sys/fs/cgroup/memory$IOSTRATA_MDS_CGROUP/memory.limit_in_bytes"; do
			[ -f "$f" ] && echo "$f $(cat "$f")"
		done
	fi
}

machine_whole() {
	[ "$(cat /sys/devices/system/cpu/online)" = "$(cat /sys/devices/system/cpu/present)" ] &&
		! grep -qs '^0' /sys/devices/system/memory/memory*/online
}

# The site loads the plugin on its storage hosts (localsite up); a site
# brought up with LOCALSITE_PLUGIN=off gets it now (slurm-restart).
ensure_plugin() {
	local ps=$IOSTRATA_HOSTS_DIR/$T2X_HOST/etc/plugstack.conf
	if grep -qs "^required $(realpath "$T2X_SO") " "$ps" && [ -f "$T2X_POLICY" ]; then
		return 0
	fi
	[ -x "$LOCALSITE" ] || skip "plugin not loaded and no localsite to load it ($LOCALSITE)"
	log "loading the plugin: localsite slurm-restart with LOCALSITE_PLUGIN=$T2X_SO"
	LOCALSITE_PLUGIN=$(realpath "$T2X_SO") "$LOCALSITE" slurm-restart "$IOSTRATA_SITE_BASE" >"$work/restart.log" 2>&1 ||
		{ cat "$work/restart.log"; fail "slurm-restart failed"; }
	grep -qs "^required $(realpath "$T2X_SO") " "$ps" || fail "plugin not in $ps after slurm-restart"
}

# Another site on this machine (another helper's local site, same kernel)
# whose job has the machine shaped right now: "JOB@STATE_DIR", else empty.
other_owner() {
	local a=/run/iostrata-host/active sd job
	[ -f "$a" ] || return 0
	read -r sd job <"$a" || return 0
	[ "$sd" != "$T2X_STATE" ] && [ -e "$sd/journal/$job.state" ] && echo "$job@$sd"
	return 0
}

T2X_BEFORE=
T2X_EXPECT_DRAIN=
snapshot() {
	local t0=$SECONDS
	# Wait until no other site's job has the machine shaped (older plugin
	# builds do not register in /run/iostrata-host: also wait for every
	# CPU and memory block to be online).
	while { [ -n "$(other_owner)" ] || ! machine_whole; } && [ $((SECONDS - t0)) -lt 120 ]; do
		[ "$t0" = "$SECONDS" ] && log "waiting up to 120 s: machine shaped by someone else: $(other_owner) cpus $(cat /sys/devices/system/cpu/online), $(grep -ls '^0' /sys/devices/system/memory/memory*/online | wc -l) memory blocks offline"
		sleep 2
	done
	[ -z "$(other_owner)" ] && machine_whole ||
		skip "machine shaped by someone else (another site's job?): $(other_owner) cpus $(cat /sys/devices/system/cpu/online), $(grep -ls '^0' /sys/devices/system/memory/memory*/online | wc -l) memory blocks offline"
	T2X_BEFORE=$(machine_state)
	[ -z "$(drained)" ] || fail "nodes drained before the test: $(drained)"
}

# Restore whatever is left, then verify; runs at exit.
t2x_exit() {
	local now
	# test-specific undo first (e.g. permissions a test broke on purpose)
	declare -F t2x_cleanup >/dev/null && t2x_cleanup
	cancel_jobs
	"$T2X_NODE" restore --state-dir "$T2X_STATE" --policy "$T2X_POLICY" >/dev/null 2>&1
	now=$(machine_state)
	if [ -n "$T2X_BEFORE" ] && [ "$now" != "$T2X_BEFORE" ] && [ -n "$(other_owner)" ]; then
		# Not ours to undo: another site's job shaped the machine meanwhile.
		echo "$T: machine shaped by another site's job $(other_owner) meanwhile: cannot compare (skip)" >&2
		[ "$IT_RC" = 0 ] || IT_RC=77
	elif [ -n "$T2X_BEFORE" ] && [ "$now" != "$T2X_BEFORE" ]; then
		echo "$T: machine state differs from the snapshot, forcing it back:" >&2
		diff <(echo "$T2X_BEFORE") <(echo "$now") >&2
		force_restore
		IT_RC=1
	fi
	for n in $(drained); do
		if [ -n "$T2X_EXPECT_DRAIN" ]; then
			scontrol update nodename="$n" state=resume 2>/dev/null
		else
			echo "$T: node $n drained: $(sinfo -h -n "$n" -o %E)" >&2
			scontrol update nodename="$n" state=resume 2>/dev/null
			IT_RC=1
		fi
	done
}

# Last resort: online every CPU and memory block that was online in the
# snapshot and put the snapshotted throttle values back.
force_restore() {
	local line f val
	echo 1 >/sys/devices/system/cpu/cpu1/online 2>/dev/null
	for f in /sys/devices/system/memory/memory*/online; do
		if [ "$(cat "$f")" = 0 ] && ! grep -q "${f%/online} " <<<"$(echo "$T2X_BEFORE" | grep ^memoff)/"; then
			timeout 20 sh -c "echo 1 > $f" 2>/dev/null
		fi
	done
	while read -r f val; do
		case "$f" in
		*/cpu.cfs_quota_us | */memory.limit_in_bytes)
			printf '%s\n' "$val" >"$f" 2>/dev/null
			;;
		*/blkio.throttle.*)
			printf '%s 0\n' "${IOSTRATA_DISK_DEV:-254:0}" >"$f" 2>/dev/null
			[ -n "$val" ] && printf '%s\n' "$val" >"$f" 2>/dev/null
			;;
		esac
	done < <(echo "$T2X_BEFORE" | grep -E 'blkio.throttle|cpu.cfs_quota_us|memory.limit_in_bytes')
}

at_exit t2x_exit

# wait_running ID MARKER: until the job's script runs, i.e. has created
# MARKER.  With PrologFlags=Alloc a job shows RUNNING while its prolog is
# still applying the shape (reason "Prolog"); only the batch script starting
# proves the prolog is done.
wait_running() {
	local id=$1 marker=$2 t=0
	while [ $t -lt 240 ]; do
		[ -e "$marker" ] && [ "$(job_state "$id")" = RUNNING ] && return 0
		sleep 0.5
		t=$((t + 1))
	done
	return 1
}

# The node equals the snapshot again (after the epilog).
expect_restored() {
	local what=$1 now t=0
	while [ $t -lt 30 ]; do
		now=$(machine_state)
		[ "$now" = "$T2X_BEFORE" ] && [ -z "$(ls "$T2X_STATE/journal" | grep -v '^lock$')" ] && return 0
		sleep 1
		t=$((t + 1))
	done
	[ -n "$(other_owner)" ] && skip "$what: another site's job $(other_owner) shaped the machine meanwhile"
	diff <(echo "$T2X_BEFORE") <(echo "$now") >&2
	ls "$T2X_STATE/journal" >&2
	fail "$what: node not restored to the snapshot"
}

# health_enable INTERVAL: slurmd runs iostrata-node check for s1 (the node
# the plugin acts on) as its HealthCheckProgram every INTERVAL seconds.
# HealthCheckProgram takes no arguments: a wrapper gives the state
# directory and policy and logs each run (epoch time, output) to
# $T2X_HEALTH_LOG.  health_disable restarts Slurm without it (call it
# from t2x_cleanup).
T2X_HEALTH=$T2X_DIR/healthcheck
T2X_HEALTH_LOG=$T2X_DIR/healthcheck.log
health_enable() {
	local iv=$1
	cat >"$T2X_HEALTH.tmp" <<EOS
#!/bin/sh
# written by $T: iostrata health check for node $T2X_HOST only
[ "\$SLURMD_NODENAME" = $T2X_HOST ] || exit 0
{
	echo "run \$(date +%s.%N)"
	SLURM_CONF=$SLURM_CONF "$T2X_NODE" check --state-dir "$T2X_STATE" --policy "$T2X_POLICY" 2>&1
	echo "rc \$?"
} >>"$T2X_HEALTH_LOG"
EOS
	chmod 0755 "$T2X_HEALTH.tmp"
	mv -f "$T2X_HEALTH.tmp" "$T2X_HEALTH"
	: >"$T2X_HEALTH_LOG"
	IOSTRATA_HEALTH_CHECK=$T2X_HEALTH IOSTRATA_HEALTH_INTERVAL=$iv \
		"$LOCALSITE" slurm-restart "$IOSTRATA_SITE_BASE" >"$work/restart.log" 2>&1 ||
		{ cat "$work/restart.log"; fail "slurm-restart with the health check failed"; }
	grep -qx "HealthCheckProgram=$T2X_HEALTH" "$(dirname "$SLURM_CONF")/health.conf" ||
		fail "health.conf does not name $T2X_HEALTH"
}

health_disable() {
	"$LOCALSITE" slurm-restart "$IOSTRATA_SITE_BASE" \
		>"$work/restart.log" 2>&1 || cat "$work/restart.log" >&2
	rm -f "$T2X_HEALTH"
}

health_runs() { grep -c '^run ' "$T2X_HEALTH_LOG" 2>/dev/null || true; }

# Files in the state directory other than journal/ and journal/lock: a
# finished job must leave none.
state_leftovers() {
	(cd "$T2X_STATE" && find . -mindepth 1 ! -path ./journal ! -path ./journal/lock -printf '%P\n')
}

# VmRSS (kB) of slurmd s1.
slurmd_rss() {
	local pid
	read -r pid _ <"$IOSTRATA_SITE_BASE/run/pids/slurmd-$T2X_HOST" || return 1
	sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$pid/status"
}

# slurmd of s1, for the tests that kill and respawn it (t24, t63).
# slurmd_find: its pid and pidfile (skips when the pid is not our site's
# slurmd -N s1).  restart_slurmd: localsite respawn (same argv,
# SLURM_CONF, site marker and host, s1's namespaces, and recorded where
# localsite looks, so "localsite down" stops it).  kill_slurmd WHY:
# SIGKILL it (only our own site's PID).  wait_slurmd_up PATTERN: until the
# restarted slurmd logged PATTERN (only lines written since the kill).
pid= pidfile=$IOSTRATA_SITE_BASE/run/slurmd-s1.pid log_lines=0
slurmd_find() {
	local -a argv
	[ -f "$pidfile" ] || skip "no $pidfile"
	pid=$(cat "$pidfile")
	mapfile -d '' argv <"/proc/$pid/cmdline"
	[[ " ${argv[*]} " == *" -N s1 "* ]] || skip "pid $pid is not slurmd -N s1"
	grep -qz "^SLURM_CONF=$SLURM_CONF\$" "/proc/$pid/environ" ||
		[[ " ${argv[*]} " == *" $SLURM_CONF "* ]] || skip "pid $pid is not our site's slurmd"
}
restart_slurmd() {
	"$LOCALSITE" respawn slurmd-s1 "$IOSTRATA_SITE_BASE" || log "localsite respawn slurmd-s1 failed"
}
kill_slurmd() {
	log_lines=$(wc -l <"$IOSTRATA_SITE_BASE/log/slurmd-s1.log")
	log "killing slurmd s1 (pid $pid)$1"
	kill -KILL "$pid"
	for _ in $(seq 1 50); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$pid" 2>/dev/null && fail "slurmd $pid did not die"
}
wait_slurmd_up() {
	local t=0
	while [ $t -lt 60 ]; do
		pid=$(cat "$pidfile" 2>/dev/null)
		tail -n +$((log_lines + 1)) "$IOSTRATA_SITE_BASE/log/slurmd-s1.log" | grep -q "$1" && return 0
		sleep 0.5
		t=$((t + 1))
	done
	return 1
}
