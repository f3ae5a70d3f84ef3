#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t20-spank-apply: a job with --iostrata-cpus=1 --iostrata-mem=12G
# --iostrata-disk-bw=50M on n1 sees 1 CPU online (nproc, /sys), MemTotal
# reduced, IOSTRATA_* set, the Ceph OSDs throttled (rados bench inside the
# job); afterwards the node equals the snapshot and is not drained.
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
	id=$(submit -p "$IOSTRATA_SLURM_PARTITION" -w n1 --exclusive -t 5 \
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
mem=12G
run_job $mem
if [ "$(job_state "$id")" = FAILED ] && grep -q "iostrata-mem=$mem not reached.*node restored" <<<"$out"; then
	# Other tenants of this shared machine pin memory: the plugin refused
	# cleanly (checked here); try a target the kernel can still reach.
	expect_restored "refused $mem"
	# 20G, not 22G: with the local policy's 10% tolerance a 22G target is
	# met by 24 GiB online without offlining anything, and the MemTotal
	# check below would fail on a correct plugin.
	log "the kernel could not offline enough memory for $mem now; retrying with 20G"
	mem=20G
	run_job $mem
	if [ "$(job_state "$id")" = FAILED ] && grep -q "iostrata-mem=$mem not reached.*node restored" <<<"$out"; then
		expect_restored "refused $mem"
		skip "not enough offlinable memory on this shared machine now (refused cleanly, node restored)"
	fi
fi
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
bw=$(sed -n 's/^rados_write_MBps=//p' <<<"$out")
[ -n "$bw" ] || fail "rados bench gave no bandwidth"
# 3 replicas on 3 OSDs, each limited to 50 MiB/s of disk writes.
awk -v b="$bw" 'BEGIN { exit !(b > 0 && b <= 60) }' || fail "rados write $bw MB/s not throttled to <= 60"
log "throttled rados write: $bw MB/s (limit 50 MiB/s per OSD)"
expect_restored "after the job"
expect_not_drained "after the job"
"$T2X_NODE" check --state-dir "$T2X_STATE" --policy "$T2X_POLICY" || fail "iostrata-node check says not whole"
log "pass"
