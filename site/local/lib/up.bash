# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# site/local/lib/up.bash: `localsite up`: the env file, the undo of a failed
# `up`, the daemons of a healthy site.
# Sourced by site/local/localsite, not run on its own.

# ---------------------------------------------------------------- env

write_env() {
	local addrs="" gaddrs="" h
	for h in "${NODES[@]}"; do
		addrs+="${addrs:+ }$h=$(host_addr "$h")"
	done
	for h in "${GUESTS[@]}"; do
		gaddrs+="${gaddrs:+ }$h=$(host_addr "$h")"
	done
	cat >"$ENV_FILE.tmp" <<EOF
# iostrata local site $INSTANCE: source this file (written by localsite up).
export IOSTRATA_SITE_BASE=$BASE
export IOSTRATA_SITE_INSTANCE=$INSTANCE
export SLURM_CONF=$SLURM_CONF_FILE
export CEPH_CONF=$CEPH_CONF_FILE
export CEPH_KEYRING=$CEPH_ADMIN_KEYRING
export IOSTRATA_CEPH_FSID=$FSID
export IOSTRATA_CEPH_MON_HOST='[v2:$(host_addr head):$MON_PORT,v1:$(host_addr head):$MON_V1_PORT]'
export IOSTRATA_CEPHFS_NAME=$FSNAME
export IOSTRATA_CEPHFS_MOUNT=$MNT
export IOSTRATA_BENCH_DIR=$BENCH_DIR
export IOSTRATA_LOCAL_DIR=$LOCAL_DIR
export IOSTRATA_RADOS_POOL=$POOL
export IOSTRATA_SLURM_PARTITION=$COMPUTE_PARTITION
export IOSTRATA_SLURM_NODES=$(join_by , "${COMPUTE_NODES[@]}")
export IOSTRATA_COMPUTE_PARTITION=$COMPUTE_PARTITION
export IOSTRATA_COMPUTE_NODES=$(join_by , "${COMPUTE_NODES[@]}")
export IOSTRATA_STORAGE_PARTITION=$STORAGE_PARTITION
export IOSTRATA_STORAGE_NODES=$(join_by , "${STORAGE_NODES[@]}")
export IOSTRATA_OSD_HOSTS='$(join_by ' ' "${STORAGE_NODES[@]}")'
export IOSTRATA_SITE_SUBNET=$SUBNET
export IOSTRATA_SITE_HEAD_ADDR=$(host_addr head)
export IOSTRATA_SITE_ADDRS='$addrs'
export IOSTRATA_SITE_PREFIX=$PREFIX
export IOSTRATA_HOSTS_DIR=$HOSTS_DIR
export IOSTRATA_PLUGIN=$PLUGIN
export IOSTRATA_SLURMCTLD_PORT=$CTLD_PORT
export IOSTRATA_SLURMD_PORT=$SLURMD_PORT
export IOSTRATA_MON_PORT=$MON_PORT
export IOSTRATA_OSD_CGROUPS='${OSD_CGROUPS[*]}'
export IOSTRATA_MDS_CGROUP='${MDS_CGROUP:-}'
export IOSTRATA_DISK_DEV=$DISK_DEV
export IOSTRATA_GUESTS='${GUESTS[*]}'
export IOSTRATA_GUEST_PARTITION=$GUEST_PARTITION
export IOSTRATA_GUEST_ADDRS='$gaddrs'
$(platform_mpi_env)
EOF
	chmod 644 "$ENV_FILE.tmp"
	mv -f "$ENV_FILE.tmp" "$ENV_FILE"
}

# ---------------------------------------------------------------- up

# On a failed `up`, undo everything that was started (unless asked to keep).
on_up_exit() {
	local rc=$?
	trap - EXIT INT TERM
	((rc == 0)) && return 0
	if [[ ${LOCALSITE_KEEP_ON_FAIL:-0} == 1 ]]; then
		state_set state failed 2>/dev/null || true
		printf '%s: up failed; kept %s for inspection (LOCALSITE_KEEP_ON_FAIL=1); clean with: %s down %s\n' \
			"$PROG" "$BASE" "$0" "$BASE" >&2
	else
		printf '%s: up failed; undoing what was started\n' "$PROG" >&2
		do_down quiet || true
	fi
	exit "$rc"
}

# Every daemon a healthy site runs.
all_daemons() {
	local n
	echo munged slurmctld
	for n in "${NODES[@]}"; do
		echo "host-$n" "slurmd-$n"
	done
	ceph_daemons
	fuse_names
	load_guests
	((${#GUESTS[@]} == 0)) || printf 'uml-%s\n' "${GUESTS[@]}"
}

do_up() {
	local t0
	need_root up
	check_packages
	check_base_for_up
	check_parents
	check_plugstack_arg
	check_health_arg
	check_guests_arg
	set_shape "${LOCALSITE_STORAGE:-3}" "${LOCALSITE_COMPUTE:-2}" "${LOCALSITE_CPUS:-}"
	[[ -z ${LOCALSITE_LINK:-} || $LOCALSITE_LINK == off ]] || check_rate LOCALSITE_LINK "$LOCALSITE_LINK"
	[[ ${LOCALSITE_LINK:-} != off ]] || LOCALSITE_LINK=
	resolve_plugin
	choose_ports
	t0=$(now)

	INSTANCE=$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')
	FSID=$(cat /proc/sys/kernel/random/uuid)
	mkdir -p "$BASE"
	# Created exclusively: of two `up` racing for one BASE, one wins.
	if ! (set -o noclobber && echo "instance=$INSTANCE" >"$STATE_FILE") 2>/dev/null; then
		die "another \`$PROG up\` is starting a site in $BASE right now"
	fi
	chmod 755 "$BASE"
	trap on_up_exit EXIT
	trap 'exit 130' INT TERM
	state_set state starting
	state_set starter "$$ $(proc_starttime $$)"
	state_set prefix "$PREFIX"
	state_set ports "$CTLD_PORT $SLURMD_PORT $MON_PORT $MON_V1_PORT"
	state_set plugin "${PLUGIN:-off}"
	state_set shape "$NOSD ${#COMPUTE_NODES[@]} $COMPUTE_CPUS"
	mkdir -p "$ETC" "$HOST_ETC" "$PIDS" "$LOG" "$LOCAL_DIR" "$CEPH_DIR" "$HOSTS_DIR" "$IOS_DIR"
	chmod 755 "$ETC" "$HOST_ETC" "$RUN" "$HOSTS_DIR"
	chmod 1777 "$LOCAL_DIR"
	DISK_DEV=$(disk_dev_of "$BASE")
	setup_cgroups
	setup_mds_cgroups

	start_hosts
	setup_network
	write_policies
	write_plugstacks
	host_mounts
	msg "starting site $INSTANCE in $BASE: hosts ${NODES[*]} on $BRIDGE ($SUBNET, head $(host_addr head)); slurmctld :$CTLD_PORT, mon :$MON_PORT/$MON_V1_PORT ($(elapsed "$t0") s)"
	fail_here hosts
	start_munge
	write_health_conf
	write_slurm_conf
	wait_munge
	start_slurm
	fail_here slurm
	start_ceph
	start_guests
	wait_slurm_idle
	msg "  Slurm nodes idle ($(elapsed "$t0") s)"
	wait_ceph_healthy
	msg "  Ceph HEALTH_OK ($(elapsed "$t0") s)"
	mount_cephfs
	wait_guests
	write_env
	state_set state up
	trap - EXIT INT TERM
	msg "site up in $(elapsed "$t0") s: storage ${STORAGE_NODES[*]}, compute ${COMPUTE_NODES[*]} idle, Ceph HEALTH_OK, CephFS on $MNT${PLUGIN:+, SPANK plugin on the storage hosts}${GUESTS[*]:+, guests ${GUESTS[*]} (kernel CephFS client)}"
	msg "source $ENV_FILE"
}
