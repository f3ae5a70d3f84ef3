# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# site/local/lib/slurm.bash: munge, the SPANK plugin (policies, plugstacks,
# health check), slurm.conf, slurmctld and slurmd.
# Sourced by site/local/localsite, not run on its own.

# ---------------------------------------------------------------- munge

start_munge() {
	mkdir -p "$MUNGE_SOCK_DIR" "$MUNGE_KEY_DIR" "$BASE/munge/lib"
	chmod 755 "$RUN" "$MUNGE_SOCK_DIR"
	chmod 700 "$MUNGE_KEY_DIR" "$BASE/munge/lib"
	mungekey --create --keyfile="$MUNGE_KEY" >/dev/null
	chmod 600 "$MUNGE_KEY"
	# munged stays in the root namespace: its socket is a file, reachable
	# from every host's network namespace.
	spawn munged "$LOG/munged.out" "" "" munged --foreground --force \
		--socket="$MUNGE_SOCK" --key-file="$MUNGE_KEY" \
		--pid-file="$RUN/munged.pid" --log-file="$LOG/munged.log" \
		--seed-file="$BASE/munge/lib/munged.seed"
}

wait_munge() {
	local i
	for ((i = 0; i < 100; i++)); do
		[[ -S $MUNGE_SOCK ]] && return 0
		rec_alive munged || fail_daemon munged "$LOG/munged.log"
		sleep 0.05
	done
	fail_daemon munged "$LOG/munged.log"
}

# ---------------------------------------------------------------- SPANK plugin

# LOCALSITE_PLUGIN: auto (the built plugin of this tree, if any), off, or
# the absolute path of a spank_iostrata.so.
resolve_plugin() {
	local v=${LOCALSITE_PLUGIN:-auto} c
	PLUGIN=
	case $v in
	off) return 0 ;;
	auto)
		for c in ${IOSTRATA_BUILD_DIR:+"$IOSTRATA_BUILD_DIR/spank/.libs/spank_iostrata.so"} \
			"$SRC_TOP/build/spank/.libs/spank_iostrata.so"; do
			if [[ -f $c ]]; then
				PLUGIN=$(realpath "$c")
				return 0
			fi
		done
		warn "no built SPANK plugin (spank/.libs/spank_iostrata.so below \$IOSTRATA_BUILD_DIR or $SRC_TOP/build): the storage hosts run without it (build it, or give LOCALSITE_PLUGIN=FILE)"
		;;
	/*)
		[[ -f $v && -r $v ]] || die "LOCALSITE_PLUGIN=\"$v\": no such readable file"
		PLUGIN=$v
		;;
	*) die "LOCALSITE_PLUGIN=\"$v\": not a plugin (accepted: auto, off, or an absolute path to spank_iostrata.so)" ;;
	esac
}

check_plugstack_arg() {
	local inc=${IOSTRATA_PLUGSTACK:-}
	[[ -z $inc ]] && return 0
	[[ $inc == /* ]] || die "IOSTRATA_PLUGSTACK=\"$inc\": give an absolute path to a plugstack file"
	[[ -f $inc && -r $inc ]] || die "IOSTRATA_PLUGSTACK=\"$inc\": no such readable file"
}

install_file() { # mode src-content-on-stdin dst: root-owned, atomic
	cat >"$2.tmp"
	chown root:root "$2.tmp"
	chmod "$1" "$2.tmp"
	mv -f "$2.tmp" "$2"
}

# The plugin's policy of one host: site/local/policy.conf, then what the
# disk throttles act on.  "explicit CGROUPS...": the cgroups by hand and
# the disk under the OSD files (the head's: bounds checked at submit).
# "auto": osds = auto, as at a real site; the plugin finds the host's OSD
# itself (the ceph-osd in its network namespace, its cephadm cgroup, its
# data device through BASE/ceph/osd.N/block, a file on IOSTRATA_DISK_DEV).
write_policy() { # file explicit|auto [cgroups...]
	local f=$1 how=$2 cg
	shift 2
	{
		cat "$SRC_TOP/site/local/policy.conf"
		echo
		echo "[global]"
		echo "# appended by localsite for $BASE"
		if [[ $how == auto ]]; then
			echo "osds = auto"
			# shellcheck disable=SC2016 # Ceph's metavariable, literally
			echo "osd_data = $CEPH_DIR/"'$name'
			# --iostrata-mem also gives the host's OSD its share
			# of the memory left as osd_memory_target (spank/README.md)
			echo "osd_memory_target = share"
			echo "ceph = $(command -v ceph)"
			echo "ceph_conf = $CEPH_CONF_FILE"
			# the first storage host also shapes the MDS
			# (--iostrata-mds-*; its own cgroup: setup_mds_cgroups)
			if [[ -n ${POLICY_MDS:-} && -n ${MDS_CGROUP:-} ]]; then
				echo "mds = a"
				echo "mds_cgroup = $MDS_CGROUP"
			fi
		else
			for cg in "$@"; do
				echo "cgroup = $cg"
			done
			[[ -n ${DISK_DEV:-} ]] && echo "device = $DISK_DEV"
		fi
	} | install_file 0644 "$f"
}

# Plugin files: the head's (the submit host: bounds checked at sbatch with
# the site-wide policy, every OSD cgroup by hand) in BASE/iostrata, each
# storage host's in BASE/hosts/<node>/iostrata ("osds = auto": its own OSD
# only; its own state dir).  Without an OSD cgroup (no blkio/io
# controller) a storage host's policy names nothing to throttle.
write_policies() {
	local i h
	install -d -m 0755 -o root -g root "$IOS_DIR" "$IOS_DIR/state"
	write_policy "$IOS_DIR/policy.conf" explicit "${OSD_CGROUPS[@]}"
	for i in "${!STORAGE_NODES[@]}"; do
		h=${STORAGE_NODES[$i]}
		install -d -m 0755 -o root -g root "$HOSTS_DIR/$h/iostrata" "$HOSTS_DIR/$h/iostrata/state"
		if [[ -n ${OSD_CGROUPS[$i]:-} ]]; then
			POLICY_MDS=$( ((i == 0)) && echo yes) write_policy "$HOSTS_DIR/$h/iostrata/policy.conf" auto
		else
			write_policy "$HOSTS_DIR/$h/iostrata/policy.conf" explicit
		fi
	done
}

# plugstack.conf of the head and compute hosts (BASE/etc/host) and of each
# storage host (BASE/hosts/<node>/etc, mounted on BASE/etc/host there).  A
# storage host names its state dir by its real path: the plugin's host
# registry (/run/iostrata-host, one per kernel) must tell the hosts apart.
write_plugstacks() {
	local inc=${IOSTRATA_PLUGSTACK:-} h
	plugstack_text() { # state_dir policy
		echo "# written by localsite; plugin ${PLUGIN:-<off>}; IOSTRATA_PLUGSTACK=${inc:-<unset>}"
		if [[ -n $PLUGIN ]]; then
			echo "required $PLUGIN nodes=$(join_by , "${STORAGE_NODES[@]}") state_dir=$1 policy=$2"
		fi
		[[ -z $inc ]] || echo "include $inc"
	}
	mkdir -p "$HOST_ETC"
	plugstack_text "$IOS_DIR/state" "$IOS_DIR/policy.conf" | install_file 0644 "$PLUGSTACK_FILE"
	for h in "${STORAGE_NODES[@]}"; do
		mkdir -p "$HOSTS_DIR/$h/etc"
		plugstack_text "$HOSTS_DIR/$h/iostrata/state" "$HOSTS_DIR/$h/iostrata/policy.conf" |
			install_file 0644 "$HOSTS_DIR/$h/etc/plugstack.conf"
	done
}

# health.conf (included by slurm.conf): HealthCheckProgram from
# IOSTRATA_HEALTH_CHECK, or nothing.
write_health_conf() {
	local prog=${IOSTRATA_HEALTH_CHECK:-} iv=${IOSTRATA_HEALTH_INTERVAL:-60}
	{
		echo "# written by localsite; IOSTRATA_HEALTH_CHECK=${prog:-<unset>}"
		if [[ -n $prog ]]; then
			echo "HealthCheckProgram=$prog"
			echo "HealthCheckInterval=$iv"
			echo "HealthCheckNodeState=ANY"
		fi
	} >"$HEALTH_FILE.tmp"
	chmod 644 "$HEALTH_FILE.tmp"
	mv -f "$HEALTH_FILE.tmp" "$HEALTH_FILE"
}

check_health_arg() {
	local prog=${IOSTRATA_HEALTH_CHECK:-} iv=${IOSTRATA_HEALTH_INTERVAL:-60}
	[[ -z $prog ]] && return 0
	[[ $prog == /* && -x $prog ]] || die "IOSTRATA_HEALTH_CHECK=\"$prog\": give the absolute path of an executable"
	[[ $iv =~ ^[1-9][0-9]{0,4}$ ]] || die "IOSTRATA_HEALTH_INTERVAL=\"$iv\": give a whole number of seconds from 1 to 99999"
}

# ---------------------------------------------------------------- slurm

write_slurm_conf() {
	local ncpu mem n c
	# Configured, not online, CPUs: a test may have cpu1 offline right now.
	ncpu=$(getconf _NPROCESSORS_CONF)
	mem=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 * 0.8 }' /proc/meminfo)
	mkdir -p "$BASE/slurm/state"
	for n in "${NODES[@]}"; do
		mkdir -p "$BASE/slurm/spool/$n" "$BASE/tmp/$n"
		chmod 1777 "$BASE/tmp/$n"
	done
	chmod 755 "$BASE/tmp"
	cat >"$SLURM_CONF_FILE" <<EOF
# Written by site/local/localsite for instance $INSTANCE ($BASE).
ClusterName=ios$INSTANCE
# slurmctld runs on the head (the root namespace, the bridge's address).
SlurmctldHost=localhost($(host_addr head))
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$MUNGE_SOCK
CredType=cred/munge
StateSaveLocation=$BASE/slurm/state
SlurmdSpoolDir=$BASE/slurm/spool/%n
SlurmctldPidFile=$RUN/slurmctld.pid
SlurmdPidFile=$RUN/slurmd-%n.pid
SlurmctldLogFile=$LOG/slurmctld.log
SlurmdLogFile=$LOG/slurmd-%n.log
PlugStackConfig=$PLUGSTACK_FILE
TmpFS=$BASE/tmp/%n
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerParameters=batch_sched_delay=0,bf_interval=1
PrologFlags=Alloc
ReturnToService=2
# Nodes keep their configured CPUs/memory when a test offlines cpu1 or
# memory blocks, instead of being drained for "low socket*core count".
SlurmdParameters=config_overrides
MpiDefault=none
MailProg=/bin/true
SlurmctldTimeout=60
SlurmdTimeout=120
MessageTimeout=20
InactiveLimit=0
KillWait=5
MinJobAge=600
SlurmctldDebug=info
SlurmdDebug=info
Include $HEALTH_FILE
EOF
	# The compute hosts advertise COMPUTE_CPUS when the shape sets them
	# (the reference shape's 64: Slurm places that many ranks on a host
	# whose processes share this machine's cores).
	for n in "${NODES[@]}"; do
		c=$ncpu
		[[ $n != c* || -z $COMPUTE_CPUS ]] || c=$COMPUTE_CPUS
		echo "NodeName=$n NodeHostname=$n NodeAddr=$(host_addr "$n") CPUs=$c Sockets=1 CoresPerSocket=$c ThreadsPerCore=1 RealMemory=$mem State=UNKNOWN"
	done >>"$SLURM_CONF_FILE"
	# The guests (guest.bash): one CPU, their own kernel's memory.
	for n in "${GUESTS[@]}"; do
		mkdir -p "$BASE/slurm/spool/$n" "$BASE/tmp/$n"
		chmod 1777 "$BASE/tmp/$n"
		echo "NodeName=$n NodeHostname=$n NodeAddr=$(host_addr "$n") CPUs=1 Sockets=1 CoresPerSocket=1 ThreadsPerCore=1 RealMemory=$GUEST_SLURM_MEM State=UNKNOWN"
	done >>"$SLURM_CONF_FILE"
	{
		echo "PartitionName=$STORAGE_PARTITION Nodes=$(join_by , "${STORAGE_NODES[@]}") MaxTime=INFINITE OverSubscribe=YES State=UP"
		echo "PartitionName=$COMPUTE_PARTITION Nodes=$(join_by , "${COMPUTE_NODES[@]}") Default=YES MaxTime=INFINITE OverSubscribe=YES State=UP"
		((${#GUESTS[@]} == 0)) ||
			echo "PartitionName=$GUEST_PARTITION Nodes=$(join_by , "${GUESTS[@]}") MaxTime=INFINITE OverSubscribe=YES State=UP"
	} >>"$SLURM_CONF_FILE"
	chmod 644 "$SLURM_CONF_FILE"
}

start_slurm() {
	local n
	spawn slurmctld "$LOG/slurmctld.out" "" "" slurmctld -D -f "$SLURM_CONF_FILE"
	for n in "${NODES[@]}"; do
		spawn "slurmd-$n" "$LOG/slurmd-$n.out" "" "$n" slurmd -D -N "$n" -f "$SLURM_CONF_FILE"
	done
}

stop_slurm() {
	local names=(slurmctld) n
	for n in "${NODES[@]}"; do
		names+=("slurmd-$n")
	done
	stop_recorded "${names[@]}"
}

# wait_slurm_idle [SINCE]: every node idle (and, with SINCE in epoch seconds,
# its slurmd registered at or after SINCE: after a restart slurmctld reports
# the saved states before the slurmds are back).
wait_slurm_idle() {
	local since=${1:-} deadline states n fresh
	deadline=$(($(date +%s) + UP_TIMEOUT))
	while :; do
		rec_alive slurmctld || fail_daemon slurmctld "$LOG/slurmctld.log"
		for n in "${NODES[@]}"; do
			rec_alive "slurmd-$n" || fail_daemon "slurmd-$n" "$LOG/slurmd-$n.log"
		done
		states=$(SLURM_CONF=$SLURM_CONF_FILE sinfo -h -N -o '%N %t' 2>/dev/null | sort -u || true)
		# (the guests' slurmds run in their own kernels: not recorded here)
		if [[ $(grep -c ' idle$' <<<"$states") -eq $((${#NODES[@]} + ${#GUESTS[@]})) ]]; then
			[[ -z $since ]] && return 0
			fresh=$(SLURM_CONF=$SLURM_CONF_FILE scontrol -o show node 2>/dev/null |
				sed -n 's/.*SlurmdStartTime=\([^ ]*\).*/\1/p' |
				while read -r ts; do
					[[ $ts == None ]] && continue
					(($(date -d "$ts" +%s) >= since)) && echo fresh
				done | grep -c fresh || true)
			((fresh == ${#NODES[@]})) && return 0
		fi
		if (($(date +%s) >= deadline)); then
			die "Slurm nodes not idle after ${UP_TIMEOUT}s: ${states//$'\n'/, }"
		fi
		sleep 0.1
	done
}
