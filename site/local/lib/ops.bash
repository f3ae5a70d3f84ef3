# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# site/local/lib/ops.bash: the other commands on a running site: slurm-restart,
# respawn, link, exec.
# Sourced by site/local/localsite, not run on its own.

# ---------------------------------------------------------------- slurm-restart, respawn, link, exec

do_slurm_restart() {
	local t0 p
	need_root slurm-restart
	[[ -f $STATE_FILE ]] || die "no iostrata site at $BASE"
	[[ $(state_get state) == up ]] || die "site at $BASE is not up (state \"$(state_get state)\")"
	check_plugstack_arg
	check_health_arg
	# shellcheck disable=SC2034 # read by the parts that name its daemons
	INSTANCE=$(state_get instance)
	load_net
	load_guests
	if [[ -n ${LOCALSITE_PLUGIN:-} ]]; then
		resolve_plugin
	else
		p=$(state_get plugin || echo off)
		PLUGIN=
		[[ $p == off ]] || PLUGIN=$p
	fi
	t0=$(now)
	stop_slurm
	write_plugstacks
	write_health_conf
	state_set plugin "${PLUGIN:-off}"
	start_slurm
	wait_slurm_idle "${t0%.*}"
	msg "Slurm restarted in $(elapsed "$t0") s (plugin: ${PLUGIN:-off}; plugstack include: ${IOSTRATA_PLUGSTACK:-none}; health check: ${IOSTRATA_HEALTH_CHECK:-none})"
}

# respawn NAME: start a recorded daemon that is no longer running again,
# with the same command line, log, cgroups, host and site marker (for tests
# that kill a daemon on purpose: slurmd, an OSD, ...).
do_respawn() {
	local name=$1 log cgs host
	local -a argv
	need_root respawn
	[[ -f $STATE_FILE ]] || die "no iostrata site at $BASE"
	[[ $name =~ ^[A-Za-z0-9._-]+$ && -f $RUN/cmds/$name ]] ||
		die "unknown daemon \"$name\" (accepted: $(ls "$RUN/cmds" 2>/dev/null | tr '\n' ' '))"
	[[ $name != host-* ]] || die "$name: a host cannot be respawned (its namespaces are gone): run down, then up"
	rec_alive "$name" && die "$name is still running (pid $(rec_pid "$name"))"
	# shellcheck disable=SC2034 # read by the parts that name its daemons
	INSTANCE=$(state_get instance)
	mapfile -d '' argv <"$RUN/cmds/$name"
	log=${argv[0]}
	cgs=${argv[1]}
	host=${argv[2]}
	spawn "$name" "$log" "$cgs" "$host" "${argv[@]:3}"
	msg "$name respawned (pid $(rec_pid "$name")${host:+ on $host})"
}

do_link() { # RATE|off NODE...
	local rate=$1 h
	shift
	need_root link
	[[ -f $STATE_FILE ]] || die "no iostrata site at $BASE"
	[[ $(state_get state) == up ]] || die "site at $BASE is not up (state \"$(state_get state)\")"
	[[ $rate == off ]] || check_rate "link rate" "$rate"
	(($#)) || set -- "${NODES[@]}"
	for h; do
		is_node "$h" || die "unknown host \"$h\" (accepted: ${NODES[*]})"
	done
	shape_links "$rate" "$@"
	for h; do
		msg "link of $h ($PREFIX-$h <-> eth0): $(link_shape_of "$h")"
	done
}

do_exec() { # NODE CMD...
	local h=$1 hp
	shift
	[[ -f $STATE_FILE ]] || die "no iostrata site at $BASE"
	load_guests
	if is_guest "$h"; then
		(($#)) || die "usage: $PROG exec NODE [--base BASE] [--] CMD [ARG...]"
		need_root exec
		local rc=0
		guest_exec "$h" "$@" || rc=$?
		exit "$rc"
	fi
	is_node "$h" || die "unknown host \"$h\" (accepted: ${NODES[*]}${GUESTS[*]:+ ${GUESTS[*]}})"
	(($#)) || die "usage: $PROG exec NODE [--base BASE] [--] CMD [ARG...]"
	need_root exec
	rec_alive "host-$h" || die "host $h is not running"
	hp=$(rec_pid "host-$h")
	exec nsenter -t "$hp" -r -n -u -m --wd="$PWD" -- "$@"
}
