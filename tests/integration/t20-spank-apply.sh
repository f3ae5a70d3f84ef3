#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t20-spank-apply: a job with --iostrata-cpus=1 --iostrata-mem=20G
# --iostrata-disk-bw=50M on s1 sees 1 CPU online (nproc, /sys), MemTotal
# reduced, IOSTRATA_* set, s1's own OSD throttled -- exactly the cgroup
# that OSD runs in, found by its cephadm name (ceph-<fsid>@osd.N.service/
# libpod-payload-<id> in system-ceph\x2d<fsid>.slice), the other storage
# hosts' OSDs not -- and rados writes (3 replicas, one on s1) held to the
# limit (rados bench inside the job); the per-job applied file as the job
# reads it, removed by the restore; afterwards the node equals the
# snapshot and is not drained.
. "$(dirname "$0")/t2x-lib.bash"

ensure_plugin
[ -n "${IOSTRATA_OSD_CGROUPS:-}" ] || skip "site has no OSD cgroups to throttle"
snapshot
memtotal=$(awk '/MemTotal/ {print $2}' /proc/meminfo)

cat >"$work/job.sh" <<'JOB'
#!/bin/bash
echo "nproc=$(nproc)"
echo "online=$(cat /sys/devices/system/cpu/online)"
echo "memtotal=$(awk '/MemTotal/ {print $2}' /proc/meminfo)"
env | grep -E '^IOSTRATA_(REQ|APPLIED)_' | sort
# the per-job applied file, while the job runs (the epilog's restore removes it)
echo "applied_json=$(tr -d '\n' <"$IOSTRATA_APPLIED_FILE")"
for cg in $IOSTRATA_OSD_CGROUPS; do
	echo "throttle $cg $(cat $cg/blkio.throttle.write_bps_device 2>/dev/null || cat $cg/io.max)"
done
bw=$(timeout 60 rados -c "$CEPH_CONF" -p "$IOSTRATA_RADOS_POOL" bench 5 write -b 4M -t 8 2>&1 |
	awk '/^Bandwidth \(MB\/sec\)/ {print $3}')
echo "rados_write_MBps=$bw"
JOB
# run_job MEM: submit, wait, leave the output in $out.
run_job() {
	local t0=$(date +%s)
	id=$(submit -p "$IOSTRATA_STORAGE_PARTITION" -w s1 --exclusive -t 5 \
		--iostrata-cpus=1 --iostrata-mem="$1" --iostrata-disk-bw=50M \
		-o "$work/out" "$work/job.sh") || fail "sbatch failed"
	wait_job "$id" 170 || fail "job $id did not finish"
	log "job $id (--iostrata-mem=$1) done in $(($(date +%s) - t0)) s"
	cat "$work/out"
	out=$(cat "$work/out")
	if [ "$(job_state "$id")" = FAILED ] && grep -q "already reconfigured for job" <<<"$out"; then
		expect_restored "refused (machine busy)"
		skip "another site's job shaped this shared machine first (refused cleanly)"
	fi
}
# Slab caches (dentries, inodes) are unmovable: after hours of builds they
# pin pages in every memory block, and the kernel refuses to offline any.
# Give them back and compact before asking for a memory shape.
sync
echo 3 >/proc/sys/vm/drop_caches
echo 1 >/proc/sys/vm/compact_memory
# 20G: a target this machine reaches every time (about 3 GiB of its 24 to
# offline: 12 to 24 blocks of 128 MiB).  Not 22G: with the local policy's
# 10% tolerance 24 GiB online already meets it and nothing is offlined,
# so the MemTotal check below would pass on a plugin that did nothing.
# Not 12G, which this test asked first until 2026-12-06: half the memory
# is more than the kernel can free here (unmovable slab and page tables
# in most Normal-zone blocks after a few hours of builds), so that request
# was refused cleanly in every CI run and the test then retried with 20G,
# a second shape on every run (issue 28).  The clean refusal of a target
# the kernel cannot reach is t23's to show (8G, restored, not drained).
mem=20G
run_job $mem
[ "$(job_state "$id")" = COMPLETED ] || fail "job $id state $(job_state "$id")"
grep -qx "nproc=1" <<<"$out" || fail "nproc is not 1"
grep -qx "online=0" <<<"$out" || fail "/sys/devices/system/cpu/online is not 0"
jm=$(sed -n 's/^memtotal=//p' <<<"$out")
[ "$jm" -lt $((memtotal - 1024 * 1024)) ] || fail "MemTotal not reduced: $jm kB in the job, $memtotal kB before"
lim=$(( ${mem%G} * 1024 * 1024 * 11 / 10 ))
[ "$jm" -le "$lim" ] || fail "MemTotal $jm kB above $lim kB for --iostrata-mem=$mem (10% tolerance)"
grep -qx "IOSTRATA_APPLIED_CPUS=1" <<<"$out" || fail "IOSTRATA_APPLIED_CPUS missing"
grep -qx "IOSTRATA_APPLIED_DISK_BW=52428800,52428800" <<<"$out" || fail "IOSTRATA_APPLIED_DISK_BW missing"
grep -qx "IOSTRATA_REQ_MEM=$mem" <<<"$out" || fail "IOSTRATA_REQ_MEM missing"
file=$(sed -n 's/^IOSTRATA_APPLIED_FILE=//p' <<<"$out")
sed -n 's/^applied_json=//p' <<<"$out" >"$work/applied.json"
/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["applied"]["cpus_online"]==1, d; assert len(d["applied"]["throttles"])>=1' "$work/applied.json" ||
	fail "applied file $file wrong (as the job read it): $(cat "$work/applied.json")"
[ ! -e "$file" ] || fail "applied file $file left after the job (the restore removes it)"
n=$(grep -c "^throttle .* 52428800" <<<"$out")
[ "$n" -ge 1 ] || fail "OSD cgroups not throttled in the job"
# The OSD of this host (IOSTRATA_OSD_HOSTS: the host of osd.0, osd.1, ...)
# and the io cgroup it runs in, from /proc (v1 blkio, else cgroup2).
osd_cgroup() {
	local rel
	rel=$(sed -n 's/^[0-9]*:blkio://p' "/proc/$1/cgroup")
	if [ -n "$rel" ]; then
		echo "$(awk '$3 == "cgroup" && $4 ~ /(^|,)blkio(,|$)/ { print $2; exit }' /proc/mounts)$rel"
	else
		echo "$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)$(sed -n 's/^0:://p' "/proc/$1/cgroup")"
	fi
}
i=0
mine=
esc='\x2d'
for h in $IOSTRATA_OSD_HOSTS; do
	read -r opid _ <"$IOSTRATA_SITE_BASE/run/pids/osd.$i"
	cg=$(osd_cgroup "$opid")
	case $cg in
	*"/system.slice/system-ceph$esc${IOSTRATA_CEPH_FSID//-/$esc}.slice/ceph-$IOSTRATA_CEPH_FSID@osd.$i.service/libpod-payload-"*) ;;
	*) fail "osd.$i (pid $opid) runs in \"$cg\", not in a cephadm-style cgroup" ;;
	esac
	line=$(grep -F "throttle $cg " <<<"$out") || fail "osd.$i's cgroup $cg not in the job's list"
	if [ "$h" = "$T2X_HOST" ]; then
		grep -q 52428800 <<<"$line" || fail "osd.$i on $h (this host): its cgroup is not throttled: $line"
		mine=$cg
	else
		grep -q 52428800 <<<"$line" && fail "osd.$i on $h (another host) throttled by a job on $T2X_HOST: $line"
	fi
	i=$((i + 1))
done
[ -n "$mine" ] || fail "no OSD on $T2X_HOST (IOSTRATA_OSD_HOSTS=$IOSTRATA_OSD_HOSTS)"
log "throttled exactly $T2X_HOST's OSD cgroup $mine"
bw=$(sed -n 's/^rados_write_MBps=//p' <<<"$out")
[ -n "$bw" ] || fail "rados bench gave no bandwidth"
# 3 replicas on 3 hosts: every write waits for this host's OSD, limited to
# 50 MiB/s of disk writes.
awk -v b="$bw" 'BEGIN { exit !(b > 0 && b <= 60) }' || fail "rados write $bw MB/s not throttled to <= 60"
log "throttled rados write: $bw MB/s (limit 50 MiB/s on $T2X_HOST's OSD)"
expect_restored "after the job"
expect_not_drained "after the job"
# in the host, as slurmd runs it: osds = auto finds the host's OSDs there
"$LOCALSITE" exec "$T2X_HOST" --base "$IOSTRATA_SITE_BASE" -- \
	"$T2X_NODE" check --node "$T2X_HOST" --state-dir "$T2X_STATE" --policy "$T2X_POLICY" ||
	fail "iostrata-node check in $T2X_HOST says not whole"
log "pass"
