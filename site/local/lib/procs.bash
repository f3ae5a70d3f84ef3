# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# site/local/lib/procs.bash: the daemons a site starts (spawn, their records,
# stop, marked processes, mounts) and their cgroups.
# Sourced by site/local/localsite, not run on its own.

# ---------------------------------------------------------------- processes

# spawn NAME LOGFILE CGROUPDIRS HOST CMD...: start CMD detached (own
# session, stdin from /dev/null, output to LOGFILE) inside the given cgroup
# directories (space-separated, may be empty) and, when HOST is not empty,
# inside that host's namespaces (network, UTS, mount: nsenter into its
# holder process); record its PID and start time.  Daemons run in the
# foreground and nsenter execs them, so the PID is exactly the daemon's.
# -r keeps the holder's root: entering a mount namespace resets the root to
# the namespace's, which inside a chroot (scripts/platform-root) is the
# machine's real root, not the platform's.
# IOSTRATA_SITE_DAEMON marks the daemons and whatever they fork
# (slurmstepd) so `down` can find leftovers of this instance only.
spawn() {
	local name=$1 log=$2 cgs=$3 host=$4 pid st hp
	local -a pre=()
	shift 4
	if [[ -n $host ]]; then
		rec_alive "host-$host" || die "host $host is not running (its namespace holder, host-$host, is gone): run down, then up"
		hp=$(rec_pid "host-$host")
		pre=(nsenter -t "$hp" -r -n -u -m --)
	fi
	# CEPH_KEYRING/CEPH_ARGS (set when the caller sourced BASE/env) would
	# override the daemons' own keyrings.
	env -u CEPH_KEYRING -u CEPH_ARGS \
		IOSTRATA_SITE_DAEMON=$INSTANCE SLURM_CONF=$SLURM_CONF_FILE \
		CEPH_CONF=$CEPH_CONF_FILE \
		setsid bash -c 'for cg in $0; do echo $$ >"$cg/cgroup.procs" || exit 1; done; exec "$@"' \
		"$cgs" "${pre[@]}" "$@" </dev/null >>"$log" 2>&1 &
	pid=$!
	st=$(proc_starttime "$pid") || die "$name: exited immediately, see $log"
	echo "$pid $st" >"$PIDS/$name"
	# How to start it again (`localsite respawn NAME`).
	mkdir -p "$RUN/cmds"
	{
		printf '%s\0' "$log" "$cgs" "$host"
		printf '%s\0' "$@"
	} >"$RUN/cmds/$name"
	# Not a job of this shell any more: no "Killed" notices from bash.
	disown "$pid"
}

rec_alive() { # name
	local pid st
	[[ -f $PIDS/$1 ]] || return 1
	read -r pid st <"$PIDS/$1" || return 1
	pid_alive "$pid" "$st"
}

rec_pid() { # name
	local pid st
	read -r pid st <"$PIDS/$1"
	echo "$pid"
}

# on_host NODE CMD...: run CMD in host NODE's namespaces (network, UTS,
# mount) in the foreground.
on_host() {
	local h=$1 hp
	shift
	rec_alive "host-$h" || die "host $h is not running (host-$h is gone)"
	hp=$(rec_pid "host-$h")
	nsenter -t "$hp" -r -n -u -m -- "$@"
}

# stop_recorded NAME...: SIGTERM each recorded daemon still alive, wait up to
# STOP_GRACE s, SIGKILL what remains, then wait until all are gone. With
# KILL_CEPH=1 the Ceph daemons get SIGKILL at once: `down` deletes their data
# anyway, and ceph-mds alone needs ~8 s to honour SIGTERM.
stop_recorded() {
	local n pid st sig
	local -a pids=() starts=()
	for n in "$@"; do
		[[ -f $PIDS/$n ]] || continue
		read -r pid st <"$PIDS/$n" || continue
		sig=TERM
		if [[ ${KILL_CEPH:-0} == 1 && $n =~ ^(mon|mgr|osd|mds|host)[.-] ]]; then
			sig=KILL
		fi
		if pid_alive "$pid" "$st"; then
			kill -"$sig" "$pid" 2>/dev/null || true
			pids+=("$pid")
			starts+=("$st")
		fi
	done
	((${#pids[@]})) || return 0
	wait_pids_gone "$STOP_GRACE" pids starts && return 0
	for i in "${!pids[@]}"; do
		pid_alive "${pids[$i]}" "${starts[$i]}" && kill -KILL "${pids[$i]}" 2>/dev/null || true
	done
	wait_pids_gone 10 pids starts ||
		warn "processes still alive after SIGKILL: ${pids[*]}"
}

wait_pids_gone() { # seconds pids-array-name starts-array-name
	local -n _p=$2 _s=$3
	local deadline i left
	deadline=$(($(date +%s%N) + $1 * 1000000000))
	while :; do
		left=0
		for i in "${!_p[@]}"; do
			pid_alive "${_p[$i]}" "${_s[$i]}" && left=1 && break
		done
		((left)) || return 0
		(($(date +%s%N) < deadline)) || return 1
		sleep 0.05
	done
}

# Processes this instance's daemons forked carry IOSTRATA_SITE_DAEMON=<instance>
# in their environment, slurmstepd only SLURM_CONF; job tasks neither, so
# take the descendants of marked processes too (jobs left by a dead
# slurmctld, where scancel cannot work).
marked_pids() { # instance
	local -A marked=() children=()
	local pid ppid comm f
	local -a cand=()
	# Reading /proc/PID/environ waits for the target's mm lock, slow on a
	# loaded machine: look only at orphans (whose parent daemon is gone)
	# and slurmstepd processes, then add the descendants of the marked ones.
	while read -r pid ppid comm; do
		children[$ppid]+=" $pid"
		if [[ $ppid == 1 || $comm == slurmstepd ]] && [[ $pid != "$$" ]]; then
			cand+=("/proc/$pid/environ")
		fi
	done < <(ps -e -o pid=,ppid=,comm=)
	((${#cand[@]})) || return 0
	while IFS= read -r f; do
		pid=${f#/proc/}
		marked[${pid%%/*}]=1
	done < <(grep -lzxE "IOSTRATA_SITE_DAEMON=$1|SLURM_CONF=$SLURM_CONF_FILE" "${cand[@]}" 2>/dev/null || true)
	local -a todo=("${!marked[@]}")
	while ((${#todo[@]})); do
		pid=${todo[-1]}
		unset 'todo[-1]'
		for f in ${children[$pid]:-}; do
			[[ -n ${marked[$f]:-} || $f == "$$" ]] && continue
			marked[$f]=1
			todo+=("$f")
		done
	done
	((${#marked[@]})) && printf '%s\n' "${!marked[@]}"
	return 0
}

# Processes inside this site's host namespaces other than the holders:
# whatever runs there is this site's by construction (a job task, a
# `localsite exec` left running).
in_host_namespaces() {
	local -A ns=() holder=()
	local n f pid inode
	for n in "${NODES[@]}"; do
		inode=$(state_get "netns_$n" || true)
		[[ -n $inode ]] && ns[$inode]=1
		[[ -f $PIDS/host-$n ]] && holder[$(rec_pid "host-$n")]=1
	done
	((${#ns[@]})) || return 0
	for f in /proc/[0-9]*/ns/net; do
		inode=$(readlink "$f" 2>/dev/null) || continue
		[[ -n ${ns[$inode]:-} ]] || continue
		pid=${f#/proc/}
		pid=${pid%%/*}
		[[ -n ${holder[$pid]:-} || $pid == "$$" ]] || echo "$pid"
	done
}

kill_pids_list() { # what pids...
	local what=$1 pid st
	shift
	local -a pids=() starts=()
	for pid in "$@"; do
		st=$(proc_starttime "$pid") || continue
		kill -TERM "$pid" 2>/dev/null || true
		pids+=("$pid")
		starts+=("$st")
	done
	((${#pids[@]})) || return 0
	msg "stopping ${#pids[@]} leftover process(es) $what: ${pids[*]}"
	wait_pids_gone 2 pids starts && return 0
	for i in "${!pids[@]}"; do
		pid_alive "${pids[$i]}" "${starts[$i]}" && kill -KILL "${pids[$i]}" 2>/dev/null || true
	done
	wait_pids_gone 5 pids starts || warn "leftover processes still alive: ${pids[*]}"
}

kill_marked() { # instance
	local -A holder=()
	local n p
	local -a left=()
	# The hosts' holders are marked too: `down` stops them last, itself.
	for n in "${NODES[@]}"; do
		[[ -f $PIDS/host-$n ]] && holder[$(rec_pid "host-$n")]=1
	done
	for p in $(marked_pids "$1"); do
		[[ -n ${holder[$p]:-} ]] || left+=("$p")
	done
	kill_pids_list "of this site" "${left[@]}"
	# shellcheck disable=SC2046
	kill_pids_list "in this site's hosts" $(in_host_namespaces)
}

mounts_under() { # dir: mount points at or below dir (from /proc/mounts)
	awk -v b="$1" '$2 == b || index($2, b "/") == 1 { print $2 }' /proc/mounts
}

# ---------------------------------------------------------------- cgroups

# Where the OSDs' disk I/O can be throttled: cgroup v1 blkio, else a
# cgroup2 mount with the io controller (not on this VM, but elsewhere).
find_io_cgroup_root() {
	local root
	root=$(awk '$3 == "cgroup" && $4 ~ /(^|,)blkio(,|$)/ { print $2; exit }' /proc/mounts)
	if [[ -n $root ]]; then
		echo "v1 $root"
		return 0
	fi
	root=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	if [[ -n $root ]] && grep -qw io "$root/cgroup.controllers" 2>/dev/null; then
		echo "v2 $root"
		return 0
	fi
	return 1
}

cg_mark() { # root -> the marker file of a system.slice a local site created
	echo "$CG_MARK_DIR/system.slice$(tr / _ <<<"$1")"
}

# The OSDs' cgroups as a cephadm deployment lays them out: systemd's unit
# ceph-<fsid>@osd.N.service inside system-ceph\x2d<fsid>.slice (systemd
# escapes every '-' of the template prefix "ceph-<fsid>" as \x2d), podman's
# container cgroup libpod-payload-<id> below it; the OSD process runs in
# the payload cgroup.
setup_cgroups() {
	local kind root i slice unit dir esc='\x2d' cid
	local -a made=()
	OSD_CGROUPS=()
	if ! read -r kind root < <(find_io_cgroup_root); then
		warn "no blkio (cgroup v1) or io (cgroup v2) controller: OSD disk I/O cannot be throttled (IOSTRATA_OSD_CGROUPS empty)"
		return 0
	fi
	v2_io() { # dir: let the children of dir use the io controller
		[[ $kind == v2 ]] || return 0
		grep -qw io "$1/cgroup.subtree_control" || echo +io >"$1/cgroup.subtree_control"
	}
	v2_io "$root" || { warn "cannot enable the io controller in $root"; return 0; }
	if [[ ! -d $root/system.slice ]]; then
		mkdir "$root/system.slice"
		mkdir -p "$CG_MARK_DIR"
		: >"$(cg_mark "$root")"
	fi
	state_set cgroup_root "$root"
	v2_io "$root/system.slice"
	slice=$root/system.slice/system-ceph$esc${FSID//-/$esc}.slice
	mkdir "$slice"
	made+=("$slice")
	state_set cgroup_dirs "${made[*]}"
	v2_io "$slice"
	for ((i = 0; i < NOSD; i++)); do
		unit=$slice/ceph-$FSID@osd.$i.service
		mkdir "$unit"
		made+=("$unit")
		v2_io "$unit"
		cid=$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')
		dir=$unit/libpod-payload-$cid
		mkdir "$dir"
		made+=("$dir")
		OSD_CGROUPS+=("$dir")
		state_set cgroup_dirs "${made[*]}"
	done
}

# The MDS's own cgroup, as cephadm lays it out (its unit
# ceph-<fsid>@mds.a.service in system-ceph\x2d<fsid>.slice), in the cgroup
# v1 cpu and memory hierarchies: the SPANK plugin's --iostrata-mds-cpus and
# --iostrata-mds-mem shape the MDS there, not the whole machine (s1's
# policy names it: write_policies).  MDS_CGROUP: its path in the
# hierarchy ("" when the hierarchies are missing); MDS_CGROUPS: the
# directories ceph-mds joins.  The directories made are kept in the
# state (mds_cgroup_dirs) for remove_cgroups.
setup_mds_cgroups() {
	local esc='\x2d' rel h p c
	local -a made=()
	# shellcheck disable=SC2034 # read by write_policy and write_env
	MDS_CGROUP=''
	MDS_CGROUPS=''
	for h in /sys/fs/cgroup/cpu /sys/fs/cgroup/memory; do
		if [[ ! -f $h/cgroup.procs ]]; then
			warn "no cgroup v1 hierarchy $h: the MDS shares the head's cgroup (--iostrata-mds-cpus and --iostrata-mds-mem cannot shape it)"
			return 0
		fi
	done
	rel=/system.slice/system-ceph$esc${FSID//-/$esc}.slice/ceph-$FSID@mds.a.service
	for h in /sys/fs/cgroup/cpu /sys/fs/cgroup/memory; do
		p=$h
		for c in ${rel//\// }; do
			p=$p/$c
			[[ -d $p ]] && continue
			mkdir "$p"
			made+=("$p")
			state_set mds_cgroup_dirs "${made[*]}"
		done
		MDS_CGROUPS+="${MDS_CGROUPS:+ }$p"
	done
	# shellcheck disable=SC2034 # read by write_policy and write_env
	MDS_CGROUP=$rel
	state_set mds_cgroup "$rel"
}

remove_cgroups() {
	local dirs root i
	local -a d
	# the MDS's first (its slice in the cpu and memory hierarchies)
	if dirs=$(state_get mds_cgroup_dirs); then
		read -r -a d <<<"$dirs"
		for ((i = ${#d[@]} - 1; i >= 0; i--)); do
			[[ -d ${d[$i]} ]] || continue
			# system.slice may hold another site's slice
			if [[ ${d[$i]} == */system.slice ]]; then
				rmdir "${d[$i]}" 2>/dev/null || true
				continue
			fi
			rmdir "${d[$i]}" 2>/dev/null || warn "cannot remove cgroup ${d[$i]} (processes left in it?)"
		done
	fi
	dirs=$(state_get cgroup_dirs) || return 0
	read -r -a d <<<"$dirs"
	for ((i = ${#d[@]} - 1; i >= 0; i--)); do
		[[ -d ${d[$i]} ]] || continue
		rmdir "${d[$i]}" 2>/dev/null || warn "cannot remove cgroup ${d[$i]} (processes left in it?)"
	done
	root=$(state_get cgroup_root || true)
	# system.slice goes when a local site made it and nobody uses it now
	# (rmdir fails while another site's slice is inside it).
	if [[ -n $root && -f $(cg_mark "$root") ]] && rmdir "$root/system.slice" 2>/dev/null; then
		rm -f "$(cg_mark "$root")"
		rmdir "$CG_MARK_DIR" 2>/dev/null || true
	fi
}

# maj:min of the whole disk holding BASE (throttles apply to disks, not
# partitions).
disk_dev_of() {
	local dev sys
	dev=$(findmnt -n -o MAJ:MIN -T "$1" | head -n 1 | tr -d ' ')
	sys=/sys/dev/block/$dev
	if [[ -e $sys/partition ]]; then
		dev=$(cat "$(realpath "$sys")/../dev")
	fi
	echo "$dev"
}
