# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# shellcheck disable=SC2034 # the constants and paths are read by the other parts
# site/local/lib/common.bash: the constants of a site, messages, process identity,
# the paths of a site and its state file, host names and addresses,
# failing.
# Sourced by site/local/localsite, not run on its own.

# ---------------------------------------------------------------- constants

PROG=localsite
DEFAULT_BASE=/tmp/iostrata-site
MARKER=.iostrata-site
# The site's shape (set_shape below): storage hosts s1..sM, one OSD each,
# and compute hosts c1..cN advertising COMPUTE_CPUS CPUs to Slurm; by
# default 3 and 2 with this machine's CPUs.
STORAGE_NODES=(s1 s2 s3)
COMPUTE_NODES=(c1 c2)
NODES=("${STORAGE_NODES[@]}" "${COMPUTE_NODES[@]}")
COMPUTE_CPUS=
STORAGE_PARTITION=storage
COMPUTE_PARTITION=compute
POOL=bench
FSNAME=cephfs
# One OSD per storage host: osd.I runs on STORAGE_NODES[I].
NOSD=${#STORAGE_NODES[@]}
# The largest shape: addresses (host_addr) and the 15-character interface
# names (PREFIX-s10) have room for 49 hosts of each kind; the reference
# shape is 8 compute hosts x 64 CPUs and 10 storage hosts.
SHAPE_MAX_HOSTS=49
SHAPE_MAX_CPUS=1024
# Every slurmd listens on this port in its own host's network namespace.
SLURMD_PORT_DEFAULT=16818
# The /24 of a site is drawn from this range (RFC 2544's benchmark test
# networks, routed nowhere), unless LOCALSITE_SUBNET names one.
NET_POOL=198.18.0.0/15
# Free ports in the root namespace (slurmctld, mon) are drawn from this
# range: above Slurm's and Ceph's defaults (Ceph's messenger uses
# 6800-7300, here 7000-7999), below the kernel's ephemeral range.
PORT_MIN=20000
PORT_MAX=32000
STOP_GRACE=2    # seconds between SIGTERM and SIGKILL
UP_TIMEOUT=120  # seconds to wait for Slurm nodes idle / Ceph HEALTH_OK
PY=/usr/bin/python3
SRC_TOP=$(cd "$(dirname "$(realpath "$0")")/../.." && pwd)
# Serialises the choice of a subnet between `up`s running at once.
NET_LOCK=/run/lock/iostrata-localsite-net.lock
# Marks a cgroup parent (system.slice) that a local site created.
CG_MARK_DIR=/run/iostrata-localsite

# ---------------------------------------------------------------- helpers

# msg, warn, die, now, elapsed (die exits 1).
# shellcheck source=site/local/lib/msg.bash
source "$(dirname "${BASH_SOURCE[0]}")/msg.bash"
dbg() { [[ ${LOCALSITE_DEBUG:-0} != 1 ]] || printf '%s: debug: %s\n' "$PROG" "$*" >&2; }

# Start time (clock ticks since boot) of a process: with the PID it
# identifies the process even if the PID is reused later. The comm field
# may contain spaces ("slurmstepd: [1.0]"), so cut after the last ')'.
# (Builtins only: these run in tight loops on a possibly loaded machine.)
proc_stat_fields() { # pid -> PROC_FIELDS: the fields after the comm field
	local stat
	{ read -r stat <"/proc/$1/stat"; } 2>/dev/null || return 1
	read -r -a PROC_FIELDS <<<"${stat##*) }"
}

proc_starttime() {
	local PROC_FIELDS
	proc_stat_fields "$1" || return 1
	echo "${PROC_FIELDS[19]}"
}

# pid_alive PID STARTTIME: the very process we started still runs.
pid_alive() {
	local PROC_FIELDS
	proc_stat_fields "$1" || return 1
	[[ ${PROC_FIELDS[19]} == "$2" && ${PROC_FIELDS[0]} != Z ]]
}

# ---------------------------------------------------------------- paths

# set_shape STORAGE COMPUTE [CPUS]: the hosts of this site.  CPUS, the
# CPUs each compute host advertises (Slurm oversubscribes the machine's
# cores: ranks beyond them share them), empty for the machine's own.
set_shape() {
	local ns=$1 nc=$2 cpus=${3:-} i
	[[ $ns =~ ^[1-9][0-9]*$ ]] && ((ns >= 3 && ns <= SHAPE_MAX_HOSTS)) ||
		die "storage hosts \"$ns\" (LOCALSITE_STORAGE): accepted 3 (the pools keep 3 copies) to $SHAPE_MAX_HOSTS"
	[[ $nc =~ ^[1-9][0-9]*$ ]] && ((nc <= SHAPE_MAX_HOSTS)) ||
		die "compute hosts \"$nc\" (LOCALSITE_COMPUTE): accepted 1 to $SHAPE_MAX_HOSTS"
	[[ -z $cpus ]] || { [[ $cpus =~ ^[1-9][0-9]*$ ]] && ((cpus <= SHAPE_MAX_CPUS)); } ||
		die "CPUs per compute host \"$cpus\" (LOCALSITE_CPUS): accepted 1 to $SHAPE_MAX_CPUS, or empty for this machine's"
	STORAGE_NODES=() COMPUTE_NODES=()
	for ((i = 1; i <= ns; i++)); do STORAGE_NODES+=("s$i"); done
	for ((i = 1; i <= nc; i++)); do COMPUTE_NODES+=("c$i"); done
	NODES=("${STORAGE_NODES[@]}" "${COMPUTE_NODES[@]}")
	NOSD=$ns
	COMPUTE_CPUS=$cpus
}

# The shape kept in the state file by `up` (a site of the default shape
# from before it was kept has none: the default).
load_shape() {
	local sh
	sh=$(state_get shape) || return 0
	[[ -n $sh ]] || return 0
	# shellcheck disable=SC2086 # "STORAGE COMPUTE [CPUS]"
	set_shape $sh
}

set_paths() {
	BASE=$1
	ETC=$BASE/etc
	RUN=$BASE/run
	PIDS=$RUN/pids
	LOG=$BASE/log
	MUNGE_SOCK_DIR=$RUN/munge
	MUNGE_SOCK=$MUNGE_SOCK_DIR/munge.socket.2
	MUNGE_KEY_DIR=$BASE/munge/key
	MUNGE_KEY=$MUNGE_KEY_DIR/munge.key
	SLURM_CONF_FILE=$ETC/slurm.conf
	# The per-host configuration directory: on a storage host its own
	# BASE/hosts/<node>/etc is mounted here (plugstack.conf differs per host).
	HOST_ETC=$ETC/host
	PLUGSTACK_FILE=$HOST_ETC/plugstack.conf
	HEALTH_FILE=$ETC/health.conf
	CEPH_CONF_FILE=$ETC/ceph.conf
	CEPH_ADMIN_KEYRING=$ETC/ceph.client.admin.keyring
	CEPH_DIR=$BASE/ceph
	MNT=$BASE/mnt/cephfs
	BENCH_DIR=$MNT/bench
	LOCAL_DIR=$BASE/local
	HOSTS_DIR=$BASE/hosts
	# The node-local view of the plugin's files: the head's own here, a
	# storage host's BASE/hosts/<node>/iostrata mounted over it there.
	IOS_DIR=$BASE/iostrata
	ENV_FILE=$BASE/env
	STATE_FILE=$BASE/$MARKER
	# Per-site prefix of every interface name (at most 15 characters:
	# "is" + 6 hex digits + "-br" / "-s1"), derived from BASE.
	PREFIX=is$(printf '%s' "$BASE" | sha256sum | cut -c1-6)
	BRIDGE=$PREFIX-br
	load_shape
}

resolve_base() {
	local b=${1:-${IOSTRATA_SITE_BASE:-$DEFAULT_BASE}}
	[[ $b == /* ]] || b=$PWD/$b
	[[ $b =~ ^[A-Za-z0-9._/+-]+$ ]] ||
		die "base directory \"$b\": only letters, digits and ._/+- are accepted"
	b=$(realpath -m -- "$b")
	case $b in
	/ | /tmp | /var | /var/tmp | /home | /root | /usr | /etc | /opt | /srv | /run | /dev | /proc | /sys)
		die "base directory \"$b\" is a system directory: give a dedicated directory such as $DEFAULT_BASE" ;;
	esac
	set_paths "$b"
}

state_get() { # key
	[[ -f $STATE_FILE ]] || return 1
	sed -n "s/^$1=//p" "$STATE_FILE" | tail -n 1
}

state_set() { # key value
	local tmp=$STATE_FILE.tmp
	{
		[[ -f $STATE_FILE ]] && grep -v "^$1=" "$STATE_FILE" || true
		echo "$1=$2"
	} >"$tmp"
	mv -f "$tmp" "$STATE_FILE"
}

is_storage() { # node
	local n
	for n in "${STORAGE_NODES[@]}"; do
		[[ $n == "$1" ]] && return 0
	done
	return 1
}

is_node() { # node
	local n
	for n in "${NODES[@]}"; do
		[[ $n == "$1" ]] && return 0
	done
	return 1
}

join_by() { # sep words...
	local IFS=$1
	shift
	echo "$*"
}

# Addresses: the head (root namespace, on the bridge) .1, storage host sK
# .(10+K), compute host cK .(20+K), guest host kK .(30+K) (guest.bash), all
# in the site's /24 (NET3 = "A.B.C").
host_addr() { # head|node
	case $1 in
	head) echo "$NET3.1" ;;
	s[1-9]) echo "$NET3.$((10 + ${1#s}))" ;;
	c[1-9]) echo "$NET3.$((20 + ${1#c}))" ;;
	s[1-4][0-9]) echo "$NET3.$((100 + ${1#s}))" ;; # s10..s49: .110-.149
	c[1-4][0-9]) echo "$NET3.$((150 + ${1#c}))" ;; # c10..c49: .160-.199
	k[1-9]) echo "$NET3.$((30 + ${1#k}))" ;;
	*) die "no address for host \"$1\"" ;;
	esac
}

load_net() { # from the state file: NET3, SUBNET
	SUBNET=$(state_get subnet || true)
	NET3=${SUBNET%.0/24}
}

# ---------------------------------------------------------------- failure

fail_daemon() { # name log
	local log=$2
	{
		printf '%s: error: %s is not running; last lines of %s:\n' "$PROG" "$1" "$log"
		tail -n 15 "$log" 2>/dev/null | sed 's/^/    /'
	} >&2
	die "$1 failed to start"
}

# LOCALSITE_FAIL_AFTER=STEP makes `up` fail on purpose after STEP (hosts,
# slurm, osds, mounts): the tests check that `down` then leaves nothing.
fail_here() { # step
	[[ ${LOCALSITE_FAIL_AFTER:-} != "$1" ]] ||
		die "LOCALSITE_FAIL_AFTER=$1: failing on purpose after step \"$1\" (test hook)"
}
