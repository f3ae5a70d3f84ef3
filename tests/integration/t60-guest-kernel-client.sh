#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# t60-guest-kernel-client: the CephFS kernel client on a second, real
# kernel.  A second site (its own base, prefix, subnet, ports; no plugin)
# with a guest host (LOCALSITE_GUESTS=k1): user-mode Linux 6.1 joined to
# the site's bridge by a tap device, which loads the ceph module and mounts
# the site's CephFS with `mount -t ceph`.  Checks: `status` shows the guest
# and its kernel mount; the guest runs its own kernel (not this machine's)
# with cgroup v2 and the io controller; the MDS counts a kernel client of
# that kernel among its sessions; iostrata-bench (this tree's binary,
# through hostfs) runs a write,read as a batch job on k1 (a Slurm node:
# partition guests, its own munged and slurmd in its kernel) three times,
# on the kernel mount, on a ceph-fuse mount in k1 and through libcephfs
# (the three clients in the same 1-CPU guest), and once on c1's ceph-fuse
# (this machine's kernel); each record names its client (filesystem.client
# kernel / fuse / libcephfs, the type, the mount point, the kernel mount's
# options with secret=<hidden>) and holds no key; the files the kernel
# client wrote are CephFS's (seen through the head's ceph-fuse).  After `down`: nothing of
# the site left (processes, the tap, interfaces, base), no UML directory
# in ~/.uml.  The test site stays healthy.
# The second site also has a shape of its own (issue 34's small form of
# the reference shape: LOCALSITE_STORAGE=4 LOCALSITE_COMPUTE=3
# LOCALSITE_CPUS=8): Slurm has c1..c3 with 8 CPUs each and s1..s4, Ceph
# four hosts with an OSD each, `localsite link` knows s4, and a
# job of 9 ranks over c1..c3 (sbatch, srun --mpi=pmix, the null backend) runs with
# every rank and host in its record; a shape that cannot be (2 storage
# hosts: the pools keep 3 copies) is refused before anything starts.

set -uo pipefail
T=t60-guest-kernel-client
. "$(dirname "$0")/lib.bash"

[[ $EUID -eq 0 ]] || skip "needs root"
require_env IOSTRATA_SITE_BASE IOSTRATA_LOCAL_DIR
command -v linux.uml >/dev/null || fail "linux.uml is missing (package user-mode-linux: scripts/install-deps installs it)"
bench=$build/mpibench/iostrata-bench
[[ -x $bench ]] || fail "no $bench (build the tree first)"
localsite=$top/site/local/localsite
base=$(mktemp -d /tmp/iostrata-t60.XXXXXX)
rmdir "$base"
prefix=is$(printf '%s' "$base" | sha256sum | cut -c1-6)
make_work
uml_before=$(ls -A /root/.uml 2>/dev/null | sort)
second_down() {
	env -u IOSTRATA_SITE_BASE "$localsite" down "$base" >/dev/null 2>&1 || late_fail "down of the second site failed"
}
at_exit second_down

# 1. up with a guest
bad=$(env -u IOSTRATA_SITE_BASE LOCALSITE_STORAGE=2 "$localsite" up "$base" 2>&1) &&
	fail "a site of 2 storage hosts came up: $bad"
[[ $bad == *'storage hosts "2" (LOCALSITE_STORAGE): accepted 3'* && ! -e $base ]] ||
	fail "LOCALSITE_STORAGE=2: no clear refusal, or $base made: $bad"
t0=$SECONDS
env -u IOSTRATA_SITE_BASE LOCALSITE_GUESTS=k1 LOCALSITE_PLUGIN=off \
	LOCALSITE_STORAGE=4 LOCALSITE_COMPUTE=3 LOCALSITE_CPUS=8 \
	"$localsite" up "$base" >"$work/up.log" 2>&1 ||
	fail "second site with guest k1 did not come up: $(tail -25 "$work/up.log")"
log "second site with guest k1 up in $((SECONDS - t0)) s; $(grep -o 'guest k1: .*' "$work/up.log")"
subnet=$(sed -n 's/^subnet=//p' "$base/.iostrata-site")
inodes=$(sed -n 's/^netns_[a-z0-9]*=//p' "$base/.iostrata-site" | tr '\n' ' ')
fsid=$(sed -n 's/^export IOSTRATA_CEPH_FSID=//p' "$base/env")
mnt=$base/mnt/cephfs
grep -qx "export IOSTRATA_GUESTS='k1'" "$base/env" || fail "env does not name the guest: $(grep GUEST "$base/env")"
ip -o link show dev "$prefix-k1" | grep -q "master $prefix-br" || fail "no tap $prefix-k1 on the bridge"

"$localsite" status "$base" >"$work/status.txt" 2>&1 || fail "status of the second site: $(cat "$work/status.txt")"
grep -qE "guest k1 +kernel-client +${subnet%.0/24}\.31 " "$work/status.txt" &&
	grep -qF "cephfs: mounted on $mnt (k1, kernel client)" "$work/status.txt" &&
	grep -q "k1 guests idle" "$work/status.txt" ||
	fail "status does not show guest k1, its kernel mount and its Slurm node: $(cat "$work/status.txt")"

ex() { "$localsite" exec "$1" --base "$base" -- "${@:2}"; }

# 2. its own kernel, cgroup v2 with io, the kernel client's mount
krel=$(ex k1 uname -r) || fail "exec in k1 failed"
[[ $krel == 6.1.* && $krel != "$(uname -r)" ]] || fail "k1 runs kernel \"$krel\" (this machine: $(uname -r))"
ctl=$(ex k1 cat /sys/fs/cgroup/cgroup.controllers)
[[ " $ctl " == *" io "* ]] || fail "k1's cgroup v2 controllers: \"$ctl\""
fs=$(ex k1 findmnt -n -o FSTYPE,OPTIONS "$mnt") || fail "nothing mounted on $mnt in k1"
[[ $fs == "ceph "* && $fs == *mds_namespace=cephfs* ]] || fail "k1's mount on $mnt: $fs"
log "k1: kernel $krel, controllers \"$ctl\", $mnt: $fs"
sessions=$(env -u CEPH_ARGS ceph -c "$base/etc/ceph.conf" -k "$base/etc/ceph.client.admin.keyring" \
	tell mds.a session ls 2>/dev/null)
/usr/bin/python3 -c '
import json, sys
s = json.load(sys.stdin)
k = [x for x in s if x.get("client_metadata", {}).get("kernel_version") == sys.argv[1]]
assert len(k) == 1, [x.get("client_metadata") for x in s]
' "$krel" <<<"$sessions" || fail "the MDS has no kernel client session of $krel: $sessions"

# 3. iostrata-bench as batch jobs: in k1 on the kernel mount, on a
# ceph-fuse mount of its own and through libcephfs (the three clients in
# the same 1-CPU guest); on c1's ceph-fuse (this machine's kernel)
dir=$mnt/bench/$T
mkdir -p "$dir"/{k1,k1fuse,k1lib,c1}
key=$(ceph-authtool -p -n client.admin "$base/etc/ceph.client.admin.keyring")
[[ -n $key ]] || fail "no admin key"
fusemnt=$work/k1-fuse
mkdir -p "$fusemnt"
ex k1 bash -c 'modprobe -d /run/modules fuse && ceph-fuse -c "$1" --id admin "$2"' \
	_ "$base/etc/ceph.conf" "$fusemnt" >"$work/k1-fuse.log" 2>&1 ||
	fail "ceph-fuse in k1: $(cat "$work/k1-fuse.log")"
# bench_on NAME HOST PARTITION ARG...: a batch job on HOST runs
# iostrata-bench with ARGs, a write then a read of 32 MiB, the file kept.
bench_on() {
	local name=$1 host=$2 part=$3 t=$SECONDS jid st i
	shift 3
	{
		echo '#!/bin/bash'
		echo 'export PATH=/usr/sbin:/usr/bin:/sbin:/bin OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1'
		echo 'export OMPI_MCA_btl=self,vader,tcp OMPI_MCA_pml=ob1'
		printf 'exec timeout 150'
		printf ' %q' "$bench" "$@" --rw=write,read --bs=4M --size=32M --runtime=3 --reps=1 \
			--keep --quiet --summary=json "--output=$work/$name.h5"
		printf ' >%q 2>%q\n' "$work/$name.json" "$work/$name.err"
	} >"$work/$name.sbatch"
	jid=$(SLURM_CONF=$base/etc/slurm.conf sbatch --parsable -p "$part" -w "$host" \
		--export=NONE -o "$work/$name.out" "$work/$name.sbatch") || fail "sbatch on $host failed"
	for ((i = 0; i < 1800; i++)); do
		[[ -z $(SLURM_CONF=$base/etc/slurm.conf squeue -h -j "$jid" 2>/dev/null) ]] && break
		sleep 0.1
	done
	st=$(SLURM_CONF=$base/etc/slurm.conf scontrol -o show job "$jid" | grep -o 'JobState=[A-Z]* .*ExitCode=[0-9:]*' | sed 's/ .*ExitCode=/ /')
	[[ $st == "JobState=COMPLETED 0:0" ]] ||
		fail "the benchmark job $jid ($name) on $host: $st: $(tail -n 20 "$work/$name.err" "$work/$name.out" "$base/log/slurmd-$host.log" 2>&1)"
	log "iostrata-bench $name: job $jid on $host ($part), $((SECONDS - t)) s"
}
bench_on k1 k1 guests --dir="$dir/k1"
bench_on k1fuse k1 guests --dir="$fusemnt/bench/$T/k1fuse"
bench_on k1lib k1 guests --backend=cephfs --ceph-conf="$base/etc/ceph.conf" \
	--ceph-keyring="$base/etc/ceph.client.admin.keyring" --dir="/bench/$T/k1lib"
bench_on c1 c1 compute --dir="$dir/c1"
/usr/bin/python3 - "$work" "$key" "$mnt" "$fusemnt" <<'PY' >"$work/figures.txt" || fail "the results records: $(cat "$work/figures.txt")"
import json, sys
import h5py
work, key, mnt, fusemnt = sys.argv[1:]
want = {"k1": ("kernel", "ceph", mnt), "k1fuse": ("fuse", "fuse.ceph-fuse", fusemnt),
        "k1lib": ("libcephfs", "libcephfs", "none"), "c1": ("fuse", "fuse.ceph-fuse", mnt)}
for name, (client, fstype, mp) in want.items():
    d = json.load(open(f"{work}/{name}.json"))
    assert d["valid"] is True, (name, d["reasons"])
    with h5py.File(f"{work}/{name}.h5", "r") as f:
        assert f.attrs["status"] == "complete", (name, f.attrs["status"])
        rec = json.loads(f["hosts/0/raw_json"][()])
    fs = rec["filesystem"]
    assert fs["client"] == client and fs["type"] == fstype and fs["mount_point"] == mp, (name, fs)
    if client == "kernel":
        assert "secret=<hidden>" in fs["options"], fs
        assert "mds_namespace=cephfs" in fs["options"], fs
    assert rec["kernel"].startswith("6.1.") == name.startswith("k1"), (name, rec["kernel"])
    assert key.encode() not in open(f"{work}/{name}.h5", "rb").read(), name
    bw = {p["name"]: p["stats"]["stonewall_bw"]["mean"] for p in d["phases"]}
    print(f"{name} ({client}, {rec['kernel'].split()[0]}): write {bw['write'] / 1e6:.1f} MB/s, read {bw['read'] / 1e6:.1f} MB/s;", end=" ")
PY
log "$(cat "$work/figures.txt")"
# what the kernel client wrote is in CephFS: the head's ceph-fuse sees it
n=$(find "$dir/k1" -name 'iostrata-bench.*' -size 32M | wc -l)
[[ $n == 1 ]] || fail "the head's ceph-fuse sees $n files of 32 MiB written by k1: $(ls -l "$dir/k1")"

# 4. the shape: Slurm's nodes, Ceph's hosts, a link of s4, 9 ranks on
# three 8-CPU hosts through Slurm
on2() { SLURM_CONF=$base/etc/slurm.conf "$@"; }
nodes=$(on2 sinfo -h -N -o '%N %c %P' | sort -u | paste -sd' ')
ncpu=$(getconf _NPROCESSORS_CONF)
[[ $nodes == "c1 8 compute* c2 8 compute* c3 8 compute* k1 1 guests s1 $ncpu storage s2 $ncpu storage s3 $ncpu storage s4 $ncpu storage" ]] ||
	fail "Slurm's nodes of the shaped site: $nodes"
hosts=$(env -u CEPH_ARGS ceph -c "$base/etc/ceph.conf" -k "$base/etc/ceph.client.admin.keyring" \
	osd tree --format=json | /usr/bin/python3 -c '
import json, sys
t = json.load(sys.stdin)["nodes"]
print(" ".join(sorted(n["name"] + ":" + str(len(n["children"])) for n in t if n["type"] == "host")),
      sum(1 for n in t if n["type"] == "osd" and n["status"] == "up"))')
[[ $hosts == "s1:1 s2:1 s3:1 s4:1 4" ]] || fail "Ceph's hosts and OSDs up of the shaped site: $hosts"
"$localsite" link 1gbit s4 --base "$base" >"$work/link.log" 2>&1 &&
	"$localsite" link off s4 --base "$base" >>"$work/link.log" 2>&1 || fail "link of s4: $(cat "$work/link.log")"
{
	echo '#!/bin/bash'
	echo 'export PATH=/usr/sbin:/usr/bin:/sbin:/bin'
	grep '^export OMPI_' "$base/env"
	printf 'exec srun --mpi=pmix --overcommit'
	printf ' %q' "$bench" --backend=null --bs=4K --size=4M --runtime=1 --reps=1 --quiet --summary=json \
		"--output=$work/shape9.h5"
	printf ' >%q 2>%q\n' "$work/shape9.json" "$work/shape9.err"
} >"$work/shape9.sbatch"
t=$SECONDS
jid=$(on2 sbatch --parsable -p compute -N 3 -n 9 --overcommit --export=NONE -o "$work/shape9.out" \
	"$work/shape9.sbatch") || fail "sbatch of 9 ranks on c1..c3 failed"
for ((i = 0; i < 1800; i++)); do
	[[ -z $(on2 squeue -h -j "$jid" 2>/dev/null) ]] && break
	sleep 0.1
done
/usr/bin/python3 - "$work/shape9.json" "$work/shape9.h5" <<'PY' >"$work/shape9.txt" ||
import json, sys
import h5py
d = json.load(open(sys.argv[1]))
assert d["ranks"] == 9 and d["nodes"] == 3 and d["valid"] is True, d
assert sorted(d["node_names"]) == ["c1", "c2", "c3"], d["node_names"]
with h5py.File(sys.argv[2], "r") as f:
    assert f.attrs["status"] == "complete", f.attrs["status"]
    assert len(f["hosts"]) == 3, list(f["hosts"])
print("9 ranks on %s: MPI_Init %.2f s (longest), start-up %.2f s" % (" ".join(d["node_names"]), d["mpi_init_max_s"], d["startup_s"]))
PY
	fail "the 9-rank job $jid: $(cat "$work/shape9.txt" "$work/shape9.err" "$work/shape9.out" 2>&1 | tail -n 20)"
log "$(cat "$work/shape9.txt"), job $jid in $((SECONDS - t)) s"

# 5. down leaves nothing
t0=$SECONDS
env -u IOSTRATA_SITE_BASE "$localsite" down "$base" >"$work/down.log" 2>&1 || fail "down failed: $(cat "$work/down.log")"
log "down in $((SECONDS - t0)) s"
# shellcheck disable=SC2086 # inodes: one per word
left=$(site_leftovers "$base" "$prefix" "$subnet" "$fsid" $inodes)
[[ -z $left ]] || fail "after down, left behind: $(tr '\n' ';' <<<"$left")"
[[ $(ls -A /root/.uml 2>/dev/null | sort) == "$uml_before" ]] || fail "down left UML directories in /root/.uml: $(ls -A /root/.uml)"
log "nothing left (base, tap, interfaces, processes, mounts)"
"$localsite" status "$IOSTRATA_SITE_BASE" >"$work/status.txt" || fail "the test site is not healthy: $(cat "$work/status.txt")"
log "PASS"
