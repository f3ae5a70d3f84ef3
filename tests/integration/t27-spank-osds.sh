#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t27-spank-osds: the plugin finds the OSD of its host itself.  s1's
# policy says "osds = auto" (no cgroup, no device by hand); on this site
# every host shares one PID namespace, so all three ceph-osd processes are
# visible from s1.  Checked: iostrata-node status run IN s1 lists exactly
# s1's OSD cgroup (cephadm layout, found through /proc/<pid>/cgroup) with
# the disk under its block file, and from the head (another network
# namespace) none; a job on s1 with --iostrata-disk-bw=50M has that cgroup
# throttled and the other hosts' OSDs not, the journal names it while the
# job runs; a policy naming an OSD of another host (osd.1 on s2) refuses
# the job with the reason, changing nothing; afterwards the node equals
# the snapshot and is not drained.
. "$(dirname "$0")/t2x-lib.bash"

ensure_plugin
[ -n "${IOSTRATA_OSD_CGROUPS:-}" ] || skip "site has no OSD cgroups to throttle"
[ -n "${IOSTRATA_DISK_DEV:-}" ] || skip "site did not find the disk under BASE (IOSTRATA_DISK_DEV)"
grep -qx "osds = auto" "$T2X_POLICY" || fail "$T2X_HOST's policy $T2X_POLICY lacks \"osds = auto\""
! grep -q "^cgroup\|^device" "$T2X_POLICY" || fail "$T2X_HOST's policy names cgroups or devices by hand"
cp -p "$T2X_POLICY" "$work/policy.orig"
t2x_cleanup() { cp -p "$work/policy.orig" "$T2X_POLICY"; }
snapshot

# The OSD of this host and its cgroup (IOSTRATA_OSD_HOSTS, _CGROUPS: in
# the order osd.0, osd.1, ...).
read -r -a hosts <<<"$IOSTRATA_OSD_HOSTS"
read -r -a cgs <<<"$IOSTRATA_OSD_CGROUPS"
mine=
for i in "${!hosts[@]}"; do
	[ "${hosts[$i]}" = "$T2X_HOST" ] && mine=${cgs[$i]} && myid=$i
done
[ -n "$mine" ] || fail "no OSD on $T2X_HOST (IOSTRATA_OSD_HOSTS=$IOSTRATA_OSD_HOSTS)"

# 1. what the plugin's code finds, run where the plugin runs (in s1) and
# from the head
throttles() { # status JSON on stdin -> "cgroup device" lines
	/usr/bin/python3 -c 'import json,sys
for t in json.load(sys.stdin)["applied"]["throttles"]:
    print(t["cgroup"], t["device"])'
}
"$LOCALSITE" exec "$T2X_HOST" --base "$IOSTRATA_SITE_BASE" -- \
	"$T2X_NODE" status --json --state-dir "$T2X_STATE" --policy "$T2X_POLICY" >"$work/status.json" 2>"$work/status.err" ||
	{ cat "$work/status.err"; fail "iostrata-node status in $T2X_HOST failed"; }
found=$(throttles <"$work/status.json") || fail "status JSON unreadable: $(cat "$work/status.json")"
[ "$found" = "$mine $IOSTRATA_DISK_DEV" ] ||
	fail "in $T2X_HOST, osds = auto found \"$found\", want \"$mine $IOSTRATA_DISK_DEV\" (osd.$myid's cgroup, the disk under its block file)"
log "in $T2X_HOST: osds = auto -> $found"
"$T2X_NODE" status --json --state-dir "$T2X_STATE" --policy "$T2X_POLICY" >"$work/head.json" 2>/dev/null ||
	fail "iostrata-node status on the head failed"
[ -z "$(throttles <"$work/head.json")" ] ||
	fail "from the head (another network namespace) osds = auto found OSDs: $(throttles <"$work/head.json")"
log "from the head: no OSD of $T2X_HOST's (other network namespace)"

# 2. a job on s1: its OSD throttled, the others not, journalled
cat >"$work/job.sh" <<JOB
#!/bin/bash
for cg in \$IOSTRATA_OSD_CGROUPS; do
	echo "throttle \$cg \$(tr '\n' ' ' <\$cg/blkio.throttle.write_bps_device 2>/dev/null || tr '\n' ' ' <\$cg/io.max)"
done
echo "applied_bw=\$IOSTRATA_APPLIED_DISK_BW"
: >"$work/ready"
for i in \$(seq 600); do [ -e "$work/go" ] && break; sleep 0.1; done
JOB
id=$(submit -p "$IOSTRATA_STORAGE_PARTITION" -w "$T2X_HOST" --exclusive -t 5 \
	--iostrata-disk-bw=50M -o "$work/out" "$work/job.sh") || fail "sbatch failed"
wait_running "$id" "$work/ready" || { cat "$work/out" 2>/dev/null; fail "job $id did not start (state $(job_state "$id"))"; }
journal=$T2X_STATE/journal/$id.state
[ -f "$journal" ] || fail "no journal $journal while job $id runs"
# "thr VER MAJ:MIN rbps wbps riops wiops CGROUP"
# (through the environment: awk -v would turn "\x2d" into "-")
D=$IOSTRATA_DISK_DEV C=$mine awk '$1 == "thr" && $3 == ENVIRON["D"] && $8 == ENVIRON["C"] { ok = 1 } END { exit !ok }' "$journal" ||
	{ cat "$journal"; fail "journal of job $id does not name $mine with $IOSTRATA_DISK_DEV"; }
[ "$(grep -c '^thr ' "$journal")" = 1 ] || { cat "$journal"; fail "journal of job $id throttles more than one (cgroup, device)"; }
: >"$work/go"
wait_job "$id" 60 || fail "job $id did not finish"
out=$(cat "$work/out")
echo "$out"
[ "$(job_state "$id")" = COMPLETED ] || fail "job $id state $(job_state "$id")"
grep -qx "applied_bw=52428800,52428800" <<<"$out" || fail "IOSTRATA_APPLIED_DISK_BW wrong"
for i in "${!cgs[@]}"; do
	line=$(grep -F "throttle ${cgs[$i]} " <<<"$out") || fail "osd.$i's cgroup not in the job's output"
	if [ "${cgs[$i]}" = "$mine" ]; then
		grep -qF "$IOSTRATA_DISK_DEV 52428800" <<<"$line" || grep -qF "$IOSTRATA_DISK_DEV rbps=52428800 wbps=52428800" <<<"$line" ||
			fail "osd.$i on $T2X_HOST: not throttled on $IOSTRATA_DISK_DEV: $line"
	else
		grep -q 52428800 <<<"$line" && fail "osd.$i on ${hosts[$i]} throttled by a job on $T2X_HOST: $line"
	fi
done
log "job $id: exactly osd.$myid's cgroup throttled ($mine, $IOSTRATA_DISK_DEV)"
expect_restored "after job $id"
expect_not_drained "after job $id"

# 3. an OSD of another host named: refused, nothing changed
other=$(( (myid + 1) % ${#hosts[@]} ))
sed -i "s/^osds = auto\$/osds = osd.$other/" "$T2X_POLICY"
grep -qx "osds = osd.$other" "$T2X_POLICY" || fail "could not edit $T2X_POLICY"
id=$(submit -p "$IOSTRATA_STORAGE_PARTITION" -w "$T2X_HOST" --exclusive -t 2 \
	--iostrata-disk-bw=50M -o "$work/refused.out" --wrap='echo SCRIPT-RAN') || fail "sbatch failed"
wait_job "$id" 60 || fail "refused job $id did not end"
[ "$(job_state "$id")" = FAILED ] || { cat "$work/refused.out"; fail "job $id with osds = osd.$other is $(job_state "$id"), want FAILED"; }
grep -q "osds: \"osd.$other\" does not run on this host" "$work/refused.out" ||
	{ cat "$work/refused.out"; fail "refused job's output lacks the reason"; }
! grep -q SCRIPT-RAN "$work/refused.out" || fail "the script of refused job $id ran"
[ "$(machine_state)" = "$T2X_BEFORE" ] || fail "refused job $id changed the node"
expect_not_drained "refused job $id"
log "osds = osd.$other (on ${hosts[$other]}): job refused on $T2X_HOST: $(grep -o 'iostrata: osds:.*' "$work/refused.out" | head -1)"
cp -p "$work/policy.orig" "$T2X_POLICY"
log "pass"
