#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t26-spank-soak: shaped jobs back to back on s1 (IOSTRATA_SOAK_JOBS, default
# 20), CPU, memory and throttle options mixed; some fail, some are
# cancelled, some hit their time limit, some are refused in the prolog;
# the health check runs every 10 s meanwhile.  After every job: the node
# is whole and undrained, the state directory holds no file of a finished
# job.  At the end slurmd's RSS has not grown (IOSTRATA_SOAK_RSS_SLACK kB,
# default 2048).  Prints the counts, the state directory size and the RSS
# before and after.
. "$(dirname "$0")/t2x-lib.bash"

N=${IOSTRATA_SOAK_JOBS:-20}
SLACK=${IOSTRATA_SOAK_RSS_SLACK:-2048}
ensure_plugin
snapshot
P=$IOSTRATA_STORAGE_PARTITION
t2x_cleanup() { health_disable; }
health_enable 10
bwopt=--iostrata-cpus=1
[ -n "${IOSTRATA_OSD_CGROUPS:-}" ] && bwopt=--iostrata-disk-bw=50M,80M

sz_before=$(du -sb "$T2X_STATE" | cut -f1)
rss_before=$(slurmd_rss) || fail "no slurmd s1 RSS"
declare -A count
failures=0
t0=$SECONDS

# bad MSG: count a failure, go on (the summary fails the test).
bad() {
	failures=$((failures + 1))
	printf '%s: job %s (%s): %s\n' "$T" "$id" "$kind" "$*" >&2
}

for i in $(seq 1 "$N"); do
	# kinds: mostly quick shaped jobs; every 7th cancelled, every 5th
	# refused in the prolog (2G: below the memory floor of a node that
	# runs Ceph; more CPUs than online), every 50th hits its time limit
	# (1 minute and Slurm's 30 s check: 60-90 s of waiting each, so the
	# CI form of 20 jobs has none: t22 ends a shaped job by its time
	# limit in every run; the long form, tests/run --long, 200 jobs, has 4)
	if [ $((i % 50)) = 0 ]; then
		kind=timeout
	elif [ $((i % 10)) = 5 ]; then
		kind=refused-mem
	elif [ $((i % 10)) = 0 ]; then
		kind=refused-cpus
	elif [ $((i % 7)) = 0 ]; then
		kind=cancel
	else
		case $((i % 4)) in
		0) kind=cpus ;;
		1) kind=mem ;;
		2) kind=throttle ;;
		3) kind=fail ;;
		esac
	fi
	count[$kind]=$((${count[$kind]:-0} + 1))
	out=$work/job.$i.out
	rm -f "$work/started"
	case $kind in
	cpus) args=(--iostrata-cpus=1 --wrap='nproc') ;;
	mem) args=(--iostrata-cpus=1 --iostrata-mem=20G --wrap='true') ;;
	throttle) args=("$bwopt" --iostrata-disk-iops=500 --wrap='true') ;;
	fail) args=(--iostrata-cpus=1 --iostrata-mem=21G --wrap='exit 3') ;;
	refused-mem) args=(--iostrata-mem=2G --wrap='echo SCRIPT-RAN') ;;
	refused-cpus) args=(--iostrata-cpus=64 --wrap='echo SCRIPT-RAN') ;;
	cancel) args=(--iostrata-cpus=1 --wrap="touch $work/started; sleep 300") ;;
	timeout) args=(--iostrata-cpus=1 --wrap="touch $work/started; sleep 600") ;;
	esac
	tl=2
	[ "$kind" = timeout ] && tl=1
	id=$(submit -p "$P" -w s1 --exclusive -t "$tl" -o "$out" "${args[@]}") || {
		bad "sbatch failed"
		continue
	}
	if [ "$kind" = cancel ]; then
		wait_running "$id" "$work/started" || bad "not running"
		scancel "$id"
	fi
	wait_job "$id" 150 || { bad "did not end"; scancel "$id"; wait_job "$id" 30; }
	st=$(job_state "$id")
	case $kind in
	cpus) [ "$st" = COMPLETED ] && grep -qx 1 "$out" || bad "state $st, output $(head -c 200 "$out")" ;;
	mem | throttle) [ "$st" = COMPLETED ] || bad "state $st: $(head -c 300 "$out")" ;;
	fail) [ "$st" = FAILED ] || bad "state $st, want FAILED" ;;
	refused-*) [ "$st" = FAILED ] && grep -q '^iostrata: ' "$out" && ! grep -q SCRIPT-RAN "$out" ||
		bad "state $st, want FAILED with the reason: $(head -c 300 "$out")" ;;
	cancel) [ "$st" = CANCELLED ] || bad "state $st, want CANCELLED" ;;
	timeout) [ "$st" = TIMEOUT ] || bad "state $st, want TIMEOUT" ;;
	esac
	# whole, undrained, nothing of the job left in the state directory
	ok=0
	for _ in $(seq 1 100); do
		if [ "$(machine_state)" = "$T2X_BEFORE" ] && [ -z "$(state_leftovers)" ]; then
			ok=1
			break
		fi
		sleep 0.3
	done
	[ $ok = 1 ] || bad "after the job: $(diff <(echo "$T2X_BEFORE") <(machine_state) | tr '\n' ' ') state dir: $(state_leftovers | tr '\n' ' ')"
	[ -z "$(drained)" ] || {
		bad "node drained: $(sinfo -h -n "$(drained)" -o %E)"
		scontrol update nodename=s1 state=resume
	}
	rm -f "$out"
	[ $((i % 10)) = 0 ] && log "$i/$N jobs, $failures failures, $((SECONDS - t0)) s, slurmd RSS $(slurmd_rss) kB"
done
sz_after=$(du -sb "$T2X_STATE" | cut -f1)
rss_after=$(slurmd_rss)
kinds=$(for k in "${!count[@]}"; do printf '%s=%s ' "$k" "${count[$k]}"; done)
log "$N jobs in $((SECONDS - t0)) s ($kinds), $failures failures, $(health_runs) health checks"
log "state dir $T2X_STATE: $sz_before bytes before, $sz_after after; $(state_leftovers | wc -l) files left"
log "slurmd s1 VmRSS: $rss_before kB before, $rss_after kB after"
[ "$failures" = 0 ] || fail "$failures of $N jobs left the node not as it should be"
[ "$rss_after" -le $((rss_before + SLACK)) ] || fail "slurmd RSS grew from $rss_before to $rss_after kB (slack $SLACK kB)"
log "pass"
