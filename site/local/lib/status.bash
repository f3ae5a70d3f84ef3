# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# site/local/lib/status.bash: `localsite status`: hosts, links, daemons, Slurm
# nodes, Ceph health, mounts.
# Sourced by site/local/localsite, not run on its own.

# ---------------------------------------------------------------- status

site_healthy_quiet() {
	local n
	for n in $(all_daemons); do
		rec_alive "$n" || return 1
	done
	for n in $(fuse_names); do
		mounted_on "$(fuse_host "$n")" || return 1
	done
	load_guests
	for n in "${GUESTS[@]}"; do
		[[ $(guest_mount_kind "$n") == ceph ]] || return 1
	done
	[[ $(state_get state) == up ]]
}

do_status() {
	local bad=0 n states health h
	[[ -f $STATE_FILE ]] || die "no iostrata site at $BASE"
	INSTANCE=$(state_get instance)
	load_net
	echo "site $INSTANCE at $BASE: state $(state_get state), bridge $BRIDGE $SUBNET (head $(host_addr head))"
	for h in "${NODES[@]}"; do
		local role=compute sh
		is_storage "$h" && role=storage
		if rec_alive "host-$h"; then
			sh=$(link_shape_of "$h")
			printf '  host %-3s %-7s %-15s link %s %s\n' "$h" "$role" "$(host_addr "$h")" "$PREFIX-$h" "$sh"
			[[ $sh != missing ]] || bad=1
		else
			printf '  host %-3s %-7s NOT RUNNING\n' "$h" "$role"
			bad=1
		fi
	done
	load_guests
	for h in "${GUESTS[@]}"; do
		if rec_alive "uml-$h"; then
			printf '  guest %-2s kernel-client %-15s tap %s, linux.uml pid %s\n' "$h" "$(host_addr "$h")" "$(guest_tap "$h")" "$(rec_pid "uml-$h")"
		else
			printf '  guest %-2s kernel-client NOT RUNNING\n' "$h"
			bad=1
		fi
	done
	for n in munged slurmctld "${NODES[@]/#/slurmd-}" $(ceph_daemons) $(fuse_names) "${GUESTS[@]/#/uml-}"; do
		if rec_alive "$n"; then
			printf '  %-14s running (pid %s)\n' "$n" "$(rec_pid "$n")"
		else
			printf '  %-14s NOT RUNNING\n' "$n"
			bad=1
		fi
	done
	states=$(SLURM_CONF=$SLURM_CONF_FILE timeout 10 sinfo -h -N -o '%N %P %T' 2>&1 | sort -u) || bad=1
	echo "  slurm nodes: ${states//$'\n'/, }"
	if [[ $(grep -cE ' (idle|mixed|allocated|completing|planned)$' <<<"$states") -ne $((${#NODES[@]} + ${#GUESTS[@]})) ]]; then
		bad=1
	fi
	echo "  SPANK plugin: $(state_get plugin || echo off) (storage hosts)"
	if rec_alive mon.a; then
		health=$(CEPH_PY_TIMEOUT=15 ceph_py health 2>&1) || bad=1
	else
		health="unknown (mon not running)"
		bad=1
	fi
	echo "  ceph: $health"
	for n in $(fuse_names); do
		h=$(fuse_host "$n")
		if mounted_on "$h" && { [[ -n $h ]] || timeout 10 stat "$BENCH_DIR" >/dev/null 2>&1; }; then
			echo "  cephfs: mounted on $MNT (${h:-head})"
		else
			echo "  cephfs: NOT MOUNTED (or not responding) on $MNT (${h:-head})"
			bad=1
		fi
	done
	for h in "${GUESTS[@]}"; do
		if rec_alive "uml-$h" && [[ $(guest_mount_kind "$h") == ceph ]]; then
			echo "  cephfs: mounted on $MNT ($h, kernel client)"
		else
			echo "  cephfs: NOT MOUNTED (or not responding) on $MNT ($h, kernel client)"
			bad=1
		fi
	done
	if ((bad)); then
		echo "status: NOT HEALTHY"
		return 1
	fi
	echo "status: healthy"
}
