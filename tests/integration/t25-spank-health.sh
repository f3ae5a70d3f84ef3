#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t25-spank-health: iostrata-node check as slurmd runs it (HealthCheckProgram,
# HealthCheckInterval=5 s; slurmd ignores its exit code, so it must drain
# the node itself): a node left shaped by hand is drained within one
# interval (reason "iostrata: health check: ...") and resumed within one
# interval after `iostrata-node restore`; a node an admin drained is never
# resumed nor re-labelled; a node shaped by a running job is not drained.
. "$(dirname "$0")/t2x-lib.bash"

IV=5
ensure_plugin
snapshot
P=$IOSTRATA_STORAGE_PARTITION
node_args=(--state-dir "$T2X_STATE" --policy "$T2X_POLICY" --node s1)
t2x_cleanup() {
	"$T2X_NODE" restore "${node_args[@]}" >/dev/null 2>&1
	health_disable
}
health_enable "$IV"

reason() { sinfo -h -n s1 -o %E; }
# wait_for SECONDS CMD...: until CMD succeeds; prints the seconds taken.
wait_for() {
	local max=$1 t0
	shift
	t0=$(date +%s.%N)
	while ! "$@"; do
		if awk -v a="$t0" -v b="$(date +%s.%N)" -v m="$max" 'BEGIN { exit !(b - a > m) }'; then
			return 1
		fi
		sleep 0.2
	done
	awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'
}
is_drained() { [ "$(drained)" = s1 ]; }
not_drained() { [ -z "$(drained)" ]; }
ran_since() { [ "$(health_runs)" -gt "$1" ]; }

# 0. whole: the program runs and leaves the node alone
wait_for $((IV * 2 + 10)) ran_since 0 >/dev/null ||
	fail "HealthCheckProgram did not run within $((IV * 2 + 10)) s (log: $(tail -3 "$T2X_HEALTH_LOG"))"
sleep "$IV"
expect_not_drained "whole node"
grep -q '^rc 0$' "$T2X_HEALTH_LOG" || fail "check on a whole node did not exit 0: $(tail -5 "$T2X_HEALTH_LOG")"
log "whole node: $(health_runs) checks, not drained"

# 1. shaped by hand: drained within one interval
"$T2X_NODE" apply --cpus 1 "${node_args[@]}" >"$work/apply.out" 2>&1 ||
	{ cat "$work/apply.out"; fail "iostrata-node apply failed"; }
[ "$(cat /sys/devices/system/cpu/online)" = 0 ] || fail "apply --cpus 1 left cpus $(cat /sys/devices/system/cpu/online) online"
T2X_EXPECT_DRAIN=1
t_drain=$(wait_for $((IV + 5)) is_drained) ||
	fail "s1 shaped by hand not drained within $((IV + 5)) s (drained: \"$(drained)\", log: $(tail -4 "$T2X_HEALTH_LOG"))"
case "$(reason)" in
"iostrata: health check: node s1 not whole:"*) ;;
*) fail "drain reason \"$(reason)\", want \"iostrata: health check: node s1 not whole: ...\"" ;;
esac
log "shaped by hand: drained after $t_drain s: $(reason)"

# 2. restored: resumed within one interval
"$T2X_NODE" restore "${node_args[@]}" || fail "iostrata-node restore failed"
t_resume=$(wait_for $((IV + 5)) not_drained) ||
	fail "s1 not resumed within $((IV + 5)) s after restore (reason: \"$(reason)\")"
T2X_EXPECT_DRAIN=
log "restored: resumed after $t_resume s"

# 3. drained by an admin: never resumed, reason kept, whatever the shape
T2X_EXPECT_DRAIN=1
scontrol update nodename=s1 state=drain reason="t25 admin drain" || fail "scontrol drain failed"
n=$(health_runs)
wait_for $((IV * 2 + 10)) ran_since "$((n + 1))" >/dev/null || fail "health check stopped running"
is_drained && [ "$(reason)" = "t25 admin drain" ] || fail "admin drain changed: drained \"$(drained)\", reason \"$(reason)\""
"$T2X_NODE" apply --cpus 1 "${node_args[@]}" >/dev/null 2>&1 || fail "apply failed"
n=$(health_runs)
wait_for $((IV * 2 + 10)) ran_since "$n" >/dev/null || fail "health check stopped running"
[ "$(reason)" = "t25 admin drain" ] || fail "admin drain relabelled: \"$(reason)\""
"$T2X_NODE" restore "${node_args[@]}" || fail "restore failed"
n=$(health_runs)
wait_for $((IV * 2 + 10)) ran_since "$n" >/dev/null || fail "health check stopped running"
is_drained && [ "$(reason)" = "t25 admin drain" ] || fail "admin-drained node resumed or relabelled by the health check: \"$(drained)\" \"$(reason)\""
scontrol update nodename=s1 state=resume || fail "cannot resume s1"
wait_for 10 not_drained >/dev/null || fail "s1 still drained after resume"
T2X_EXPECT_DRAIN=
log "admin drain: left alone through $(health_runs) checks"

# 4. a shaped job runs across two intervals: not drained
id=$(submit -p "$P" -w s1 --exclusive -t 3 --iostrata-cpus=1 \
	-o /dev/null --wrap="touch $work/started; sleep $((IV * 2 + 5))") || fail "sbatch failed"
wait_running "$id" "$work/started" || fail "job $id not running"
n=$(health_runs)
wait_for $((IV * 2 + 10)) ran_since "$((n + 1))" >/dev/null || fail "health check stopped running"
[ "$(cat /sys/devices/system/cpu/online)" = 0 ] || fail "job $id running but cpu1 online"
expect_not_drained "shaped job running"
wait_job "$id" 90 || fail "job $id did not end"
expect_restored "shaped job"
n=$(health_runs)
wait_for $((IV * 2 + 10)) ran_since "$n" >/dev/null || fail "health check stopped running"
expect_not_drained "after the shaped job"
log "shaped job: not drained through $(health_runs) checks"
log "timings: drained $t_drain s after the shaping, resumed $t_resume s after restore (interval $IV s)"
log "pass"
