#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# t01-site-shape: the local site is shaped like a cluster.  Every host (s1
# s2 s3 c1 c2) is its own network, UTS and mount namespace with its own
# address on the site's bridge, no default route, only lo and eth0; Slurm
# reaches each slurmd at its host's address; each OSD runs in its storage
# host's namespace bound to that host's address, in its own CRUSH host, in
# a cephadm-style cgroup (found by its unit name ceph-<fsid>@osd.N.service
# below system-ceph\x2d<fsid>.slice, podman's libpod-payload-<id> holding
# the OSD's PID); each compute host has its own ceph-fuse mount (storage
# hosts none); the SPANK plugin sits in each storage host's own plugstack
# with a policy naming that host's OSD only; CephFS traffic of c1 crosses
# c1's link; `localsite link 200mbit c1` holds c1's TCP throughput to the
# rate (iperf3 from c1 to s1), `status` shows it, `link off` removes it.

set -euo pipefail
T=t01-site-shape
. "$(dirname "$0")/lib.bash"

require_env IOSTRATA_SITE_BASE IOSTRATA_STORAGE_NODES IOSTRATA_COMPUTE_NODES \
	IOSTRATA_SITE_ADDRS IOSTRATA_SITE_PREFIX IOSTRATA_CEPH_FSID IOSTRATA_CEPHFS_MOUNT
[[ $EUID -eq 0 ]] || skip "needs root (nsenter into the site's hosts)"
localsite=$top/site/local/localsite
base=$IOSTRATA_SITE_BASE
read -r -a storage <<<"${IOSTRATA_STORAGE_NODES//,/ }"
read -r -a compute <<<"${IOSTRATA_COMPUTE_NODES//,/ }"
hosts=("${storage[@]}" "${compute[@]}")
declare -A addr=()
for kv in $IOSTRATA_SITE_ADDRS; do
	addr[${kv%%=*}]=${kv#*=}
done
on() { # host cmd...
	local h=$1
	shift
	"$localsite" exec "$h" --base "$base" -- "$@"
}
pidof_rec() { read -r p _ <"$base/run/pids/$1" && echo "$p"; }
netns_of() { readlink "/proc/$1/ns/net"; }
iperf_pid=
stop_iperf() { [[ -z $iperf_pid ]] || kill "$iperf_pid" 2>/dev/null || true; }
links_off() { "$localsite" link off "${hosts[@]}" --base "$base" >/dev/null 2>&1 || late_fail "localsite link off failed"; }
at_exit rm -f -- "$IOSTRATA_CEPHFS_MOUNT/$T.$$"
at_exit links_off
at_exit stop_iperf

# 1. hosts: namespaces, names, addresses, routes
root_ns=$(readlink /proc/self/ns/net)
for h in "${hosts[@]}"; do
	[[ -n ${addr[$h]:-} ]] || fail "no address for $h in IOSTRATA_SITE_ADDRS"
	hp=$(pidof_rec "host-$h")
	[[ $(netns_of "$hp") != "$root_ns" ]] || fail "host $h shares the root network namespace"
	[[ $(readlink "/proc/$hp/ns/mnt") != "$(readlink /proc/self/ns/mnt)" ]] || fail "host $h shares the root mount namespace"
	[[ $(on "$h" hostname) == "$h" ]] || fail "host $h: hostname $(on "$h" hostname)"
	a=$(on "$h" ip -4 -o addr show dev eth0 | awk '{ print $4 }')
	[[ $a == "${addr[$h]}/24" ]] || fail "host $h: eth0 has \"$a\", want ${addr[$h]}/24"
	links=$(on "$h" ip -o link show | awk -F': ' '{ sub(/@.*/, "", $2); print $2 }' | sort | tr '\n' ' ')
	[[ $links == "eth0 lo " ]] || fail "host $h: interfaces \"$links\", want eth0 and lo only"
	[[ -z $(on "$h" ip route show default) ]] || fail "host $h has a default route: $(on "$h" ip route show default)"
	[[ $(on "$h" cat /proc/sys/net/ipv4/ip_forward) == 0 ]] || fail "host $h forwards IPv4"
	ip -o link show "$IOSTRATA_SITE_PREFIX-$h" | grep -q "master $IOSTRATA_SITE_PREFIX-br" ||
		fail "link $IOSTRATA_SITE_PREFIX-$h is not on the bridge $IOSTRATA_SITE_PREFIX-br"
	# its slurmd runs in it, and Slurm reaches it at the host's address
	sp=$(pidof_rec "slurmd-$h")
	[[ $(netns_of "$sp") == "$(netns_of "$hp")" ]] || fail "slurmd of $h is not in $h's network namespace"
	na=$(scontrol -o show node "$h" | sed -n 's/.* NodeAddr=\([^ ]*\).*/\1/p')
	[[ $na == "${addr[$h]}" ]] || fail "Slurm node $h: NodeAddr \"$na\", want ${addr[$h]}"
done
# the hosts reach each other and the head over the bridge
on c1 bash -c "exec 3<>/dev/tcp/${addr[s2]}/$IOSTRATA_SLURMD_PORT" || fail "c1 cannot reach s2's slurmd"
log "hosts ${hosts[*]}: own namespaces, addresses ${IOSTRATA_SITE_ADDRS}, no default route"

# 2. OSDs: host, address, CRUSH host, cephadm-style cgroup
tree=$(ceph osd tree -f json) || fail "ceph osd tree failed"
esc='\x2d'
slice=system-ceph$esc${IOSTRATA_CEPH_FSID//-/$esc}.slice
i=0
declare -A found=()
for h in "${storage[@]}"; do
	op=$(pidof_rec "osd.$i")
	[[ $(netns_of "$op") == "$(netns_of "$(pidof_rec "host-$h")")" ]] || fail "osd.$i is not in $h's network namespace"
	meta=$(ceph osd metadata "$i" -f json) || fail "ceph osd metadata $i"
	/usr/bin/python3 - "$meta" "${addr[$h]}" "$h" "$tree" "$i" <<'PY' || fail "osd.$i: addresses or CRUSH host wrong: $meta"
import json, sys
m, a, h, tree, i = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3], json.loads(sys.argv[4]), int(sys.argv[5])
for k in ("front_addr", "back_addr"):
    assert a + ":" in m[k], (k, m[k], a)
assert m["hostname"] == h, m["hostname"]
hosts = {n["name"]: n.get("children", []) for n in tree["nodes"] if n["type"] == "host"}
assert hosts.get(h) == [i], hosts
PY
	found[$i]=0
	i=$((i + 1))
done
rule=$(ceph osd crush rule dump replicated_rule -f json)
grep -q '"type": *"host"' <<<"$rule" || fail "the replicated rule does not choose leaves per host: $rule"
# OSD discovery as on a cephadm host: the unit cgroups of this cluster's
# fsid name the OSD ids, their libpod-payload child holds the OSD's PID.
roots=$(awk '($3 == "cgroup" && $4 ~ /(^|,)blkio(,|$)/) || $3 == "cgroup2" { print $2 }' /proc/mounts)
n=0
for r in $roots; do
	for unit in "$r/system.slice/$slice/ceph-$IOSTRATA_CEPH_FSID@osd."*.service; do
		[[ -d $unit ]] || continue
		id=${unit##*@osd.}
		id=${id%.service}
		[[ -n ${found[$id]+x} ]] || fail "unit cgroup $unit: no such OSD in this site"
		payload=("$unit"/libpod-payload-*)
		((${#payload[@]} == 1)) && [[ ${payload[0]##*/libpod-payload-} =~ ^[0-9a-f]{64}$ ]] ||
			fail "$unit: want one libpod-payload-<64 hex> child, have ${payload[*]}"
		grep -qx "$(pidof_rec "osd.$id")" "${payload[0]}/cgroup.procs" ||
			fail "osd.$id (pid $(pidof_rec "osd.$id")) is not in ${payload[0]}"
		grep -qF "${payload[0]}" <<<"$IOSTRATA_OSD_CGROUPS" || fail "${payload[0]} not in IOSTRATA_OSD_CGROUPS"
		found[$id]=1
		n=$((n + 1))
	done
done
((n == ${#storage[@]})) || fail "found $n cephadm-style OSD units of fsid $IOSTRATA_CEPH_FSID, want ${#storage[@]}"
log "OSDs: one per storage host, bound to its address, own CRUSH host, found by their units in $slice"

# 3. CephFS: own ceph-fuse per compute host, none on the storage hosts
for h in "${compute[@]}"; do
	fp=$(pidof_rec "ceph-fuse-$h")
	[[ $(netns_of "$fp") == "$(netns_of "$(pidof_rec "host-$h")")" ]] || fail "ceph-fuse of $h is not in $h's namespace"
	[[ $(on "$h" findmnt -n -o FSTYPE "$IOSTRATA_CEPHFS_MOUNT") == fuse.ceph-fuse ]] ||
		fail "$h: no ceph-fuse mount on $IOSTRATA_CEPHFS_MOUNT"
done
for h in "${storage[@]}"; do
	[[ -z $(on "$h" findmnt -n "$IOSTRATA_CEPHFS_MOUNT") ]] || fail "storage host $h has a CephFS mount"
done
# c1 writes through its mount, c2 and the head read it back; the bytes
# cross c1's link (the bridge side counts what c1 sends as received)
dev=$IOSTRATA_SITE_PREFIX-${compute[0]}
rx0=$(cat "/sys/class/net/$dev/statistics/rx_bytes")
on "${compute[0]}" dd if=/dev/urandom of="$IOSTRATA_CEPHFS_MOUNT/$T.$$" bs=1M count=16 conv=fsync status=none ||
	fail "write through ${compute[0]}'s mount failed"
rx1=$(cat "/sys/class/net/$dev/statistics/rx_bytes")
((rx1 - rx0 >= 16 * 1024 * 1024)) || fail "16 MiB written on ${compute[0]}, but only $((rx1 - rx0)) bytes crossed $dev"
sum=$(md5sum "$IOSTRATA_CEPHFS_MOUNT/$T.$$" | cut -d' ' -f1)
other=$(on "${compute[1]}" md5sum "$IOSTRATA_CEPHFS_MOUNT/$T.$$" | cut -d' ' -f1)
[[ $other == "$sum" ]] || fail "${compute[1]} reads other data ($other) than ${compute[0]} wrote ($sum)"
log "CephFS: one ceph-fuse per compute host; 16 MiB from ${compute[0]} crossed its link ($((rx1 - rx0)) bytes)"

# 4. the SPANK plugin on the storage hosts, each its own plugstack + policy
if [[ -n ${IOSTRATA_PLUGIN:-} ]]; then
	[[ $(sbatch --help 2>&1) == *--iostrata-cpus* ]] || fail "sbatch does not know --iostrata-cpus"
	i=0
	for h in "${storage[@]}"; do
		ps=$IOSTRATA_HOSTS_DIR/$h/etc/plugstack.conf
		want="required $IOSTRATA_PLUGIN nodes=$IOSTRATA_STORAGE_NODES state_dir=$IOSTRATA_HOSTS_DIR/$h/iostrata/state policy=$IOSTRATA_HOSTS_DIR/$h/iostrata/policy.conf"
		grep -qxF "$want" "$ps" || fail "$ps lacks \"$want\": $(cat "$ps")"
		# what the host itself reads at the site's PlugStackConfig path
		[[ $(on "$h" cat "$base/etc/host/plugstack.conf") == "$(cat "$ps")" ]] ||
			fail "$h does not see its own plugstack at $base/etc/host/plugstack.conf"
		# "osds = auto": the plugin finds the host's own OSD (t27 checks
		# what it finds); no cgroup by hand
		pol=$IOSTRATA_HOSTS_DIR/$h/iostrata/policy.conf
		cgs=$(sed -n 's/^cgroup = //p' "$pol")
		[[ -z $cgs ]] || fail "$h's policy names cgroups by hand: $cgs"
		if [[ -n ${IOSTRATA_OSD_CGROUPS:-} ]]; then
			grep -qx "osds = auto" "$pol" || fail "$h's policy lacks \"osds = auto\": $(cat "$pol")"
		fi
		i=$((i + 1))
	done
	log "SPANK plugin: in each storage host's own plugstack, policy with osds = auto"
else
	log "SPANK plugin off in this site (not built): plugstack not checked"
fi

# 5. link shaping: 200mbit on c1, measured with iperf3 c1 -> s1
command -v iperf3 >/dev/null || skip "no iperf3 (link shaping not measured)"
srv=${storage[0]}
cli=${compute[0]}
start_iperf() {
	"$localsite" exec "$srv" --base "$base" -- iperf3 -s -1 -p 5201 >/dev/null 2>&1 &
	iperf_pid=$!
	sleep 0.5
}
measure() { # -> Mbit/s from c1 to s1
	start_iperf
	on "$cli" iperf3 -c "${addr[$srv]}" -p 5201 -t 3 -J 2>/dev/null |
		/usr/bin/python3 -c 'import json,sys; print("%.0f" % (json.load(sys.stdin)["end"]["sum_received"]["bits_per_second"] / 1e6))'
	wait "$iperf_pid" 2>/dev/null || true
	iperf_pid=
}
free=$(measure) || fail "iperf3 $cli -> $srv failed (unshaped)"
"$localsite" link 200mbit "$cli" --base "$base" >/dev/null || fail "localsite link 200mbit $cli failed"
st=$("$localsite" status "$base")
grep -Eq "host $cli .* tbf 200Mbit" <<<"$st" || fail "status does not show the shaping: $(grep "host $cli" <<<"$st")"
[[ $(on "$cli" tc qdisc show dev eth0 root) == *"tbf"*"rate 200Mbit"* ]] || fail "eth0 of $cli not shaped"
shaped=$(measure) || fail "iperf3 $cli -> $srv failed (shaped)"
log "iperf3 $cli -> $srv: $free Mbit/s unshaped, $shaped Mbit/s at 200mbit"
((shaped <= 220 && shaped >= 100)) || fail "at 200mbit $cli sent $shaped Mbit/s (want 100-220)"
((free > 2 * shaped)) || fail "unshaped $free Mbit/s is not well above shaped $shaped Mbit/s"
"$localsite" link off "$cli" --base "$base" >/dev/null || fail "localsite link off failed"
[[ $(tc qdisc show dev "$IOSTRATA_SITE_PREFIX-$cli" root) != *tbf* ]] || fail "qdisc left on $IOSTRATA_SITE_PREFIX-$cli after link off"
st=$("$localsite" status "$base")
grep -Eq "host $cli .* unshaped" <<<"$st" || fail "status does not show $cli unshaped: $(grep "host $cli" <<<"$st")"
log "PASS"
