# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# site/local/lib/checks.bash: what `up` checks before it starts anything: root,
# packages, parent directories, ports, rates, the base directory.
# Sourced by site/local/localsite, not run on its own.

# ---------------------------------------------------------------- checks

need_root() { # command
	[[ $EUID -eq 0 ]] ||
		die "must run as root (builds namespaces and links, starts daemons, mounts CephFS, creates cgroups); try: sudo $0 $1 $BASE"
}

# command -> Debian package that provides it
check_packages() {
	local missing=() c
	local -A pkgof=(
		[munged]=munge [mungekey]=munge
		[slurmctld]=slurmctld [slurmd]=slurmd [slurmstepd]=slurmd
		[sinfo]=slurm-client [scontrol]=slurm-client [squeue]=slurm-client
		[scancel]=slurm-client [sbatch]=slurm-client [srun]=slurm-client
		[ceph-mon]=ceph-mon [ceph-mgr]=ceph-mgr [ceph-osd]=ceph-osd
		[ceph-mds]=ceph-mds [ceph]=ceph-common [ceph-authtool]=ceph-common
		[monmaptool]=ceph-common [ceph-fuse]=ceph-fuse
		[ss]=iproute2 [ip]=iproute2 [tc]=iproute2 [findmnt]=util-linux
		[setsid]=util-linux [mountpoint]=util-linux [unshare]=util-linux
		[nsenter]=util-linux [flock]=util-linux [sha256sum]=coreutils
	)
	for c in "${!pkgof[@]}"; do
		command -v "$c" >/dev/null 2>&1 || missing+=("${pkgof[$c]} (for $c)")
	done
	[[ -x $PY ]] || missing+=("python3 (for $PY)")
	if [[ -x $PY ]] && ! "$PY" -c 'import rados' 2>/dev/null; then
		missing+=("python3-rados (python module rados)")
	fi
	if ! compgen -G '/usr/lib/*/slurm-wlm/mpi_pmix.so' >/dev/null; then
		missing+=("slurm-wlm-basic-plugins (Slurm mpi/pmix plugin)")
	fi
	if ((${#missing[@]})); then
		printf "$PROG: error: missing package: %s\n" "${missing[@]}" | sort -u >&2
		die "install them with scripts/install-deps (as root), then retry"
	fi
	[[ -c /dev/fuse ]] || die "/dev/fuse is missing: ceph-fuse cannot mount CephFS (load the fuse module)"
	[[ -e /proc/self/ns/net && -e /proc/self/ns/mnt && -e /proc/self/ns/uts ]] ||
		die "this kernel has no network, mount or UTS namespaces: the hosts cannot be built"
}

# Every parent of BASE must be searchable by others: munged clients connect
# to a socket below it, and jobs running as other users read the conf.
check_parents() {
	local d=$BASE mode
	while [[ $d != / ]]; do
		d=$(dirname "$d")
		[[ -e $d ]] || continue
		mode=$(stat -c %a "$d")
		(((8#$mode & 1) != 0)) ||
			die "directory \"$d\" (mode $mode) is not searchable by others (o+x): the munge socket and the site's files below it would be unreachable; choose another BASE or chmod o+x it"
	done
}

port_in_use() {
	[[ -n $(ss -Htan "( sport = :$1 )" 2>/dev/null) ]] ||
		[[ -n $(ss -Huan "( sport = :$1 )" 2>/dev/null) ]]
}

port_user() {
	ss -Htanp "( sport = :$1 )" 2>/dev/null | head -n 1
}

check_port_value() { # name value [in-host]
	[[ $2 =~ ^[0-9]+$ ]] && (($2 >= 1024 && $2 <= 65535)) ||
		die "$1=\"$2\": not a port number (accepted: 1024-65535)"
	if (($2 >= 6800 && $2 <= 7999)); then
		die "$1=\"$2\": inside Ceph's messenger ranges 6800-7999; choose another port"
	fi
	# A host's port lives in that host's own namespace: nothing to check here.
	if [[ -z ${3:-} ]] && port_in_use "$2"; then
		die "$1=\"$2\": port already in use: $(port_user "$2")"
	fi
}

declare -A TAKEN_PORTS=()
pick_port() {
	local p i
	for ((i = 0; i < 500; i++)); do
		p=$((PORT_MIN + (RANDOM * 32768 + RANDOM) % (PORT_MAX - PORT_MIN)))
		[[ -z ${TAKEN_PORTS[$p]:-} ]] || continue
		port_in_use "$p" && continue
		TAKEN_PORTS[$p]=1
		echo "$p"
		return 0
	done
	die "no free TCP port found in $PORT_MIN-$PORT_MAX"
}

choose_ports() {
	if [[ -n ${LOCALSITE_SLURMCTLD_PORT:-} ]]; then
		check_port_value LOCALSITE_SLURMCTLD_PORT "$LOCALSITE_SLURMCTLD_PORT"
		CTLD_PORT=$LOCALSITE_SLURMCTLD_PORT
		TAKEN_PORTS[$CTLD_PORT]=1
	fi
	SLURMD_PORT=${LOCALSITE_SLURMD_PORT:-$SLURMD_PORT_DEFAULT}
	check_port_value LOCALSITE_SLURMD_PORT "$SLURMD_PORT" in-host
	if [[ -n ${LOCALSITE_MON_PORT:-} ]]; then
		check_port_value LOCALSITE_MON_PORT "$LOCALSITE_MON_PORT"
		MON_PORT=$LOCALSITE_MON_PORT
		TAKEN_PORTS[$MON_PORT]=1
	fi
	if [[ -n ${LOCALSITE_MON_V1_PORT:-} ]]; then
		check_port_value LOCALSITE_MON_V1_PORT "$LOCALSITE_MON_V1_PORT"
		MON_V1_PORT=$LOCALSITE_MON_V1_PORT
		TAKEN_PORTS[$MON_V1_PORT]=1
	fi
	[[ -n ${CTLD_PORT:-} ]] || CTLD_PORT=$(pick_port)
	TAKEN_PORTS[$CTLD_PORT]=1
	[[ -n ${MON_PORT:-} ]] || MON_PORT=$(pick_port)
	TAKEN_PORTS[$MON_PORT]=1
	[[ -n ${MON_V1_PORT:-} ]] || MON_V1_PORT=$(pick_port)
	TAKEN_PORTS[$MON_V1_PORT]=1
}

# RATE for tc: a number and a unit of bits per second.
check_rate() { # name value
	[[ $2 =~ ^[0-9]+(\.[0-9]+)?(bit|kbit|mbit|gbit|tbit)$ ]] ||
		die "$1 \"$2\": not a link rate (accepted: a number and bit, kbit, mbit, gbit or tbit, e.g. 1gbit, 200mbit; or off)"
	local bps
	bps=$(rate_bps "$2")
	((bps >= 8000)) || die "$1 \"$2\": below 8kbit"
}

# The base directory must be absent or empty, unless it is a running site
# (then `up` is a no-op) or a stale one (then the user runs `down`).
check_base_for_up() {
	if [[ -f $STATE_FILE ]]; then
		if site_healthy_quiet; then
			msg "site already up at $BASE (instance $(state_get instance)); source $ENV_FILE"
			exit 0
		fi
		die "$BASE holds an iostrata site that is not fully running (state \"$(state_get state)\", stale or half-started): run \`$0 down $BASE\` first"
	fi
	if [[ -e $BASE ]]; then
		[[ -d $BASE ]] || die "base \"$BASE\" exists and is not a directory"
		[[ -z $(ls -A "$BASE") ]] ||
			die "base directory \"$BASE\" is not empty and is not an iostrata site: choose another BASE or empty it"
	fi
	# The interface names are derived from BASE: an interface of that
	# name belongs to another site (or to a site in BASE whose state is lost).
	if ip link show dev "$BRIDGE" >/dev/null 2>&1; then
		die "network interface $BRIDGE (this base's bridge name) already exists, but $BASE holds no site: left by a site whose state was removed? delete it with \`ip link del $BRIDGE\` if no site uses it"
	fi
}
