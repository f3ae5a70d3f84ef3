#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# t46-layers-bottleneck: the layered verdict is validated, not asserted.
# One bottleneck is injected at a time on the cluster-shaped site and the
# verdict must name that layer (seeds/003's order):
#   network  every host's link shaped to 200 Mbit/s with tc (localsite
#            link): protocol >= 80% of the network ceiling, far below the
#            device ceiling -> "the network is the limit", both directions;
#   device   s1's OSD throttled to 20 MiB/s by the SPANK plugin
#            (--iostrata-disk-bw on the storage component): the job's own
#            device test on s1 runs in the job's blkio cgroup with the same
#            throttle (policy throttle_job), so the device ceiling is the
#            emulated disk's, and every replicated write lands on osd.0 ->
#            "the devices are the limit" for writes; afterwards s1 is
#            whole (no job cgroup left, the OSD's throttle gone);
#   client   the compute hosts' ceph-fuse remounted with fuse_max_write =
#            4096 (every 1 MiB write through FUSE in 4 KiB pieces): full
#            stack < 10% of protocol for writes -> "the client path" (reads
#            are not shaped by it: their verdict is printed, not asserted).
# Each case prints its four numbers per direction and the verdict's line.

set -euo pipefail
T=t46-layers-bottleneck
. "$(dirname "$0")/t4x-lib.bash"
t4x_require
require_env IOSTRATA_STORAGE_PARTITION IOSTRATA_COMPUTE_PARTITION IOSTRATA_SITE_BASE
command -v /usr/bin/python3 >/dev/null && /usr/bin/python3 -c 'import h5py' 2>/dev/null ||
	skip "no python3 h5py"
localsite=$top/site/local/localsite
base=$IOSTRATA_SITE_BASE
pool=${IOSTRATA_RADOS_POOL:-bench}
hosts=(s1 s2 s3 c1 c2)

make_work
chmod 755 "$work"

# layered TAG HET_STORAGE_LINE ARGS...: one heterogeneous layered job
# (clients c1 c2 first, then the storage component given), its results
# in $work/TAG.h5, the JSON summary in $work/TAG.json.
layered() {
	local tag=$1 storage=$2 cdir jobid
	shift 2
	cdir=$T.$tag.$$
	make_shared "$IOSTRATA_CEPHFS_MOUNT/$cdir"
	mkdir -p "$work/dev.$tag"/{0,1,2}
	chmod 1777 "$work/dev.$tag"/{0,1,2}
	cat >"$work/$tag.sbatch" <<EOF
#!/bin/bash
#SBATCH --job-name=$T-$tag
#SBATCH --time=6
#SBATCH --partition=$IOSTRATA_COMPUTE_PARTITION --nodelist=c1,c2 --nodes=2 --ntasks=2 --overcommit
#SBATCH hetjob
#SBATCH --partition=$IOSTRATA_STORAGE_PARTITION $storage --overcommit
# srun before Slurm 24.05.4 can hang after every task of a het step had
# ended (SchedMD ticket 16817): ios_het_srun stops it, the tasks' status
source "$top/jobscripts/iostrata-jobs.sh"
IOS_JOB=$T IOS_HET_STATE_DIR=$work ios_het_srun --het-group=0,1 --mpi=pmix --overcommit -- "$bench" --layers \\
	--layers-device-dir="$work/dev.$tag/%n" --rados-pool="$pool" \\
	--dir="$IOSTRATA_CEPHFS_MOUNT/$cdir" --size=16M --reps=1 --interval=1 \\
	--layers-net-time=0.5 --summary=json \\
	--output="$work/$tag.h5" $* >"$work/$tag.json" 2>"$work/$tag.err"
echo "exit \$?"
EOF
	jobid=$(submit -o "$work/$tag.out" "$work/$tag.sbatch") || fail "$tag: sbatch failed"
	log "$tag: submitted layered job $jobid"
	wait_job "$jobid" 300 || fail "$tag: layered job $jobid still queued/running after 300 s"
	grep -Eq '^exit [01]$' "$work/$tag.out" ||
		fail "$tag: layered run $(grep '^exit' "$work/$tag.out" || echo 'has no exit line'), want 0 or 1: $(tail -5 "$work/$tag.err")"
	[[ -s $work/$tag.h5 ]] || fail "$tag: no results file"
}

# verdict TAG DIR WANT...: the verdict's DIR ("Write" or "Read") block
# names each WANT; prints the block (its four numbers) either way.
verdict() {
	/usr/bin/python3 - "$work/$1.json" "$2" "${@:3}" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
v = j.get("verdict") or ""
d, want = sys.argv[2], sys.argv[3:]
lines = v.splitlines()
block = []
for i, l in enumerate(lines):
    if l.startswith(d + ":"):
        block = [l]
        for m in lines[i + 1:]:
            if not m.startswith("  "):
                break
            block.append(m)
        break
print("\n".join(block))
text = "\n".join(block)
miss = [w for w in want if w not in text]
if not block or miss:
    sys.exit("%s verdict does not say %r" % (d, miss or want))
PY
}

# The fullstack / protocol share of [dir] in TAG's results file.
share() {
	/usr/bin/python3 - "$work/$1.h5" "$2" <<'PY'
import sys, h5py
f = h5py.File(sys.argv[1], "r")
bw = {}
for row in f["layers"][()]:
    name = row["name"].decode() if isinstance(row["name"], bytes) else str(row["name"])
    bw[name] = float(row[sys.argv[2] + "_bw"])
print("%.3f" % (bw["fullstack"] / bw["protocol"]))
PY
}

# ---------------------------------------------------------------- network
links_off() { "$localsite" link off "${hosts[@]}" --base "$base" >/dev/null 2>&1 || late_fail "localsite link off failed"; }
at_exit links_off
"$localsite" link 200mbit "${hosts[@]}" --base "$base" >/dev/null ||
	fail "localsite link 200mbit failed"
# 256 KiB objects, 8 in flight per client: the pipeline's fill is a few
# per cent of a 4 s phase at 25 MB/s (4 MiB objects at queue depth 4 held
# the stonewalled protocol write to ~70% of the link: bytes in flight at
# the end are not counted)
layered net "--nodelist=s1,s2,s3 --nodes=3 --ntasks=3" \
	--bs=256K --runtime=4 --iodepth=8 --ioengine=libaio
links_off
log "network injected (200 Mbit/s links):"
verdict net Write "network is the limit" || fail "network injection: write verdict"
verdict net Read "network is the limit" || fail "network injection: read verdict"

# ---------------------------------------------------------------- device
s1_whole() {
	local left
	left=$(find /sys/fs/cgroup/blkio -maxdepth 1 -name 'iostrata.job_*' 2>/dev/null | head -n 3)
	[[ -z $left ]] || { echo "job cgroups left: $left"; return 1; }
	local cg
	for cg in $IOSTRATA_OSD_CGROUPS; do
		[[ -z $(cat "$cg/blkio.throttle.write_bps_device") ]] ||
			{ echo "throttle left in $cg: $(cat "$cg/blkio.throttle.write_bps_device")"; return 1; }
	done
}
layered dev "--nodelist=s1 --nodes=1 --ntasks=1 --exclusive --iostrata-disk-bw=20M" \
	--bs=1M --runtime=4 --iodepth=4 --ioengine=libaio
log "device injected (s1's OSD and the job on s1 at 20 MiB/s):"
verdict dev Write "devices are the limit" || fail "device injection: write verdict"
# (the read block printed for the record: reads come from the primaries,
# two thirds of them on hosts this job neither throttled nor measured)
verdict dev Read "" || true
# the device layer really ran in the throttled job cgroup: about 20 MiB/s
/usr/bin/python3 - "$work/dev.h5" <<'PY' || fail "device injection: the device layer was not throttled"
import sys, h5py
f = h5py.File(sys.argv[1], "r")
w = [float(r["write_bw"]) for r in f["layers"][()]
     if (r["name"].decode() if isinstance(r["name"], bytes) else str(r["name"])) == "device"][0]
print("device layer write %.2f MB/s (throttle 20.97 MB/s)" % (w / 1e6))
if not (10e6 < w < 23e6):
    sys.exit("device write %.2f MB/s, want about 20.97 (the job cgroup's throttle)" % (w / 1e6))
PY
for i in $(seq 1 20); do
	s1_whole >/dev/null && break
	sleep 0.5
done
s1_whole || fail "s1 not whole after the device injection: $(s1_whole)"
expect_not_drained

# ---------------------------------------------------------------- client
remount() { # the compute hosts' ceph-fuse again (reads the client config)
	local h i
	for h in c1 c2; do
		"$localsite" exec "$h" --base "$base" -- umount "$IOSTRATA_CEPHFS_MOUNT" || return 1
	done
	for h in c1 c2; do
		for ((i = 0; i < 40; i++)); do
			"$localsite" respawn "ceph-fuse-$h" "$base" >/dev/null 2>&1 && break
			sleep 0.25
		done
		for ((i = 0; i < 60; i++)); do
			"$localsite" exec "$h" --base "$base" -- mountpoint -q "$IOSTRATA_CEPHFS_MOUNT" && break
			sleep 0.25
		done
		"$localsite" exec "$h" --base "$base" -- mountpoint -q "$IOSTRATA_CEPHFS_MOUNT" || return 1
	done
}
client_back() {
	ceph config rm client fuse_max_write >/dev/null 2>&1 || late_fail "ceph config rm client fuse_max_write"
	remount || late_fail "ceph-fuse not mounted again on c1/c2"
}
ceph config set client fuse_max_write 4096 || fail "ceph config set client fuse_max_write"
at_exit client_back
remount || fail "remount ceph-fuse on c1 c2 with fuse_max_write 4096"
layered client "--nodelist=s1,s2,s3 --nodes=3 --ntasks=3" \
	--bs=1M --runtime=3 --iodepth=4 --ioengine=libaio --layers-skip=device,network
log "client path injected (ceph-fuse fuse_max_write 4096 on c1 c2):"
verdict client Write "far below protocol" "client path" || fail "client injection: write verdict"
# (the read block printed for the record: fuse_max_write splits writes
# only; the read share follows the protocol's read speed instead, 0.16 of
# 768 MB/s in one run and 0.56 of 273 MB/s in another, with the full stack
# at 121 and 154 MB/s both times)
verdict client Read "" || true
sw=$(share client write)
log "full stack / protocol: write $sw, read $(share client read)"
awk -v s="$sw" 'BEGIN { exit !(s < 0.10) }' || fail "client injection: full stack write is $sw of protocol, want < 0.10"
log "PASS"
