#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t63-spank-mds: the metadata server as a component to size (issue 32).
# The local site runs ceph-mds in its own cgroup (cpu and memory
# hierarchies, IOSTRATA_MDS_CGROUP) and s1's policy names it (mds = a,
# mds_cgroup =).  A job on s1 with --iostrata-mds-cpus=0.5
# --iostrata-mds-mem=1G --iostrata-mds-cache=64M: inside the job the MDS
# cgroup's cpu.cfs_quota_us is half its period, its memory limit 1 GiB,
# "ceph config get mds.a mds_cache_memory_limit" 64 MiB, the running MDS
# uses it, the tasks' IOSTRATA_APPLIED_MDS_* say so and the applied file
# has requested, applied and before; after the epilog everything is as
# before (mds.a had no cache entry of its own: it has none again) and
# nothing drains.  A cache below the site's floor is refused at sbatch,
# naming the option, the value and the floor.  Then a journal of a job
# that does not run (an admin apply) is restored by slurmd's start.
. "$(dirname "$0")/t2x-lib.bash"

ensure_plugin
[ -n "${IOSTRATA_MDS_CGROUP:-}" ] || skip "the site's MDS has no cgroup of its own (IOSTRATA_MDS_CGROUP empty: no cgroup v1 cpu and memory hierarchies)"
grep -qx "mds = a" "$T2X_POLICY" || fail "$T2X_HOST's policy $T2X_POLICY lacks \"mds = a\""
command -v ceph >/dev/null || skip "no ceph CLI"
CPU=/sys/fs/cgroup/cpu$IOSTRATA_MDS_CGROUP
MEM=/sys/fs/cgroup/memory$IOSTRATA_MDS_CGROUP
mdspid=$(cat "$IOSTRATA_SITE_BASE/run/pids/mds.a" 2>/dev/null | awk '{print $1}')
[ -n "$mdspid" ] || mdspid=$(pgrep -f "ceph-mds -c $CEPH_CONF" | head -1)
grep -qx "$mdspid" "$CPU/cgroup.procs" || fail "ceph-mds (pid $mdspid) not in $CPU"
grep -qx "$mdspid" "$MEM/cgroup.procs" || fail "ceph-mds (pid $mdspid) not in $MEM"

cephc() { timeout 60 ceph -c "$CEPH_CONF" "$@"; }
cache() { cephc config get mds.a mds_cache_memory_limit; }
own_entry() { cephc config dump | awk '$1 == "mds.a" && $3 == "mds_cache_memory_limit" { print $4 }'; }
running() { cephc tell mds.a config get mds_cache_memory_limit 2>/dev/null |
	/usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["mds_cache_memory_limit"])'; }
rss() { awk '/^VmRSS/ {print $2 " kB"}' "/proc/$mdspid/status"; }
shape() { echo "quota $(cat "$CPU/cpu.cfs_quota_us")/$(cat "$CPU/cpu.cfs_period_us") mem $(cat "$MEM/memory.limit_in_bytes") cache $(cache)/$(own_entry)"; }

before=$(shape) || fail "cannot read the MDS's shape"
own_before=$(own_entry)
log "MDS before: $before, RSS $(rss), cgroup usage $(cat "$MEM/memory.usage_in_bytes")"
t2x_cleanup() {
	if [ -z "$own_before" ]; then
		cephc config rm mds.a mds_cache_memory_limit >/dev/null 2>&1
	else
		cephc config set mds.a mds_cache_memory_limit "$own_before" >/dev/null 2>&1
	fi
	if ! kill -0 "$(cat "$pidfile" 2>/dev/null)" 2>/dev/null; then
		restart_slurmd
		sleep 2
	fi
}
snapshot

# Below the floor (site policy min_mds_cache = 16M): refused at sbatch.
if out=$(submit -p "$IOSTRATA_STORAGE_PARTITION" -w "$T2X_HOST" --exclusive -t 1 \
	--iostrata-mds-cache=1M --wrap=true 2>&1); then
	fail "--iostrata-mds-cache=1M accepted (job $out)"
fi
grep -q -- "--iostrata-mds-cache=1M is below the site minimum min_mds_cache 16" <<<"$out" ||
	fail "refusal does not name the option, value and floor: $out"
log "below the floor: $(grep -o 'iostrata: --iostrata-mds-cache.*' <<<"$out" | head -1)"

cat >"$work/job.sh" <<JOB
#!/bin/bash
{
	echo "quota \$(cat '$CPU/cpu.cfs_quota_us') period \$(cat '$CPU/cpu.cfs_period_us')"
	echo "mem \$(cat '$MEM/memory.limit_in_bytes')"
	echo "cache \$(timeout 60 ceph -c '$CEPH_CONF' config get mds.a mds_cache_memory_limit)"
	env | grep '^IOSTRATA_.*MDS' | sort
} >"$work/inside"
touch "$work/running"
for _ in \$(seq 1 240); do [ -e "$work/release" ] && break; sleep 0.5; done
JOB
t0=$SECONDS
id=$(submit -p "$IOSTRATA_STORAGE_PARTITION" -w "$T2X_HOST" --exclusive -t 5 \
	--iostrata-mds-cpus=0.5 --iostrata-mds-mem=1G --iostrata-mds-cache=64M \
	-o "$work/out" "$work/job.sh") || fail "sbatch failed"
if ! wait_running "$id" "$work/running"; then
	cat "$work/out" 2>/dev/null
	fail "job $id did not start: $(job_state "$id")"
fi
log "job $id running after $((SECONDS - t0)) s; inside: $(tr '\n' ' ' <"$work/inside")"
period=$(cat "$CPU/cpu.cfs_period_us")
grep -qx "quota $((period / 2)) period $period" "$work/inside" || fail "MDS CPU quota inside job $id: $(cat "$work/inside")"
grep -qx "mem 1073741824" "$work/inside" || fail "MDS memory limit inside job $id: $(cat "$work/inside")"
grep -qx "cache 67108864" "$work/inside" || fail "mds_cache_memory_limit inside job $id: $(cat "$work/inside")"
grep -qx "IOSTRATA_APPLIED_MDS_CPUS=0.500" "$work/inside" || fail "no IOSTRATA_APPLIED_MDS_CPUS in job $id: $(cat "$work/inside")"
grep -qx "IOSTRATA_APPLIED_MDS_CACHE=67108864" "$work/inside" || fail "no IOSTRATA_APPLIED_MDS_CACHE in job $id: $(cat "$work/inside")"
for _ in $(seq 1 30); do
	[ "$(running)" = 67108864 ] && break
	sleep 0.5
done
[ "$(running)" = 67108864 ] || fail "the running mds.a uses mds_cache_memory_limit $(running), want 67108864"
log "MDS during job $id: $(shape), RSS $(rss), cgroup usage $(cat "$MEM/memory.usage_in_bytes")"
applied=$T2X_STATE/$id.applied.json
/usr/bin/python3 - "$applied" <<'PY' || fail "applied file $applied: $(cat "$applied")"
import json, sys
a = json.load(open(sys.argv[1]))
m = a["mds"]
assert a["requested"]["mds_cpus"] == 0.5 and a["requested"]["mds_cache_bytes"] == 64 << 20, a["requested"]
assert m["id"] == "a", m
assert m["requested"] == {"cpus": 0.5, "mem_bytes": 1 << 30, "cache_bytes": 64 << 20}, m
assert m["applied"]["cpus"] == 0.5 and m["applied"]["mem_bytes"] == 1 << 30, m
assert m["applied"]["cache_bytes"] == 64 << 20, m
assert m["before"]["cpus"] == "unlimited" and m["before"]["mem_bytes"] == "unlimited", m
print("t63: applied file: requested %s applied %s before %s" % (m["requested"], m["applied"], m["before"]))
PY
"$LOCALSITE" exec "$T2X_HOST" --base "$IOSTRATA_SITE_BASE" -- \
	"$T2X_NODE" status --json --state-dir "$T2X_STATE" --policy "$T2X_POLICY" >"$work/status.json" 2>"$work/status.err" ||
	{ cat "$work/status.err"; fail "iostrata-node status in $T2X_HOST failed"; }
/usr/bin/python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))["mds"]
assert m["cpus"] == 0.5 and m["mem_bytes"] == 1 << 30 and m["cache_bytes"] == 64 << 20, m' "$work/status.json" ||
	fail "status in $T2X_HOST does not show the MDS's shape: $(cat "$work/status.json")"
touch "$work/release"
wait_job "$id" 120 || fail "job $id did not end"
[ "$(job_state "$id")" = COMPLETED ] || fail "job $id: $(job_state "$id"): $(cat "$work/out")"
expect_restored "after job $id"
after=$(shape)
[ "$after" = "$before" ] || fail "MDS not restored by the epilog: $after (before: $before)"
[ ! -e "$applied" ] || fail "$applied left after the epilog"
expect_not_drained "after job $id"
log "MDS after the epilog: $after, RSS $(rss)"

# A journal of a job that does not run: restored at slurmd's start.
slurmd_find
ghost=999997
"$T2X_NODE" apply --mds-cpus 0.5 --mds-cache 32M --job "$ghost" --node s1 --state-dir "$T2X_STATE" \
	--policy "$T2X_POLICY" >"$work/apply.out" 2>&1 || { cat "$work/apply.out"; fail "iostrata-node apply failed"; }
[ "$(cat "$CPU/cpu.cfs_quota_us")" = $((period / 2)) ] || fail "admin apply did not set the MDS quota"
[ "$(cache)" = 33554432 ] || fail "admin apply did not set the cache: $(cache)"
kill_slurmd " with the journal of job $ghost (not running)"
restart_slurmd
wait_slurmd_up "restored after job $ghost" ||
	fail "restarted slurmd did not restore the journal of job $ghost: $(grep "job $ghost" "$IOSTRATA_SITE_BASE/log/slurmd-s1.log" | tail -3)"
[ ! -f "$T2X_STATE/journal/$ghost.state" ] || fail "journal of job $ghost left"
[ "$(shape)" = "$before" ] || fail "MDS not restored at slurmd start: $(shape) (before: $before)"
expect_restored "slurmd start with a stale journal"
expect_not_drained "slurmd start with a stale journal"
log "ok: the MDS shaped during job $id and by admin job $ghost, back to \"$before\" after each"
