# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# site/local/lib/guest.bash: the guest hosts: user-mode Linux kernels
# (Debian's user-mode-linux, Linux 6.1 as a process) joined to the site's
# bridge by a tap device, each with its own kernel: the CephFS kernel
# client (`mount -t ceph`), which this machine's kernel cannot load.
# Sourced by site/local/localsite, not run on its own.

# ---------------------------------------------------------------- guests

UML=linux.uml
# guest/boot runs a guest (linux.uml and its PID 1, guest/init), guest/exec
# a command in one.
GUEST_BOOT=$LOCALSITE_LIB/../guest/boot
GUEST_EXEC=$LOCALSITE_LIB/../guest/exec
# Seconds a guest may take from its start to a mounted CephFS.
GUEST_UP_TIMEOUT=90
# Each guest is a Slurm node of this partition, with this memory (MB)
# (read by slurm.bash and up.bash).
# shellcheck disable=SC2034
{
	GUEST_PARTITION=guests
	GUEST_SLURM_MEM=512
}
# The guest hosts of this site (none unless LOCALSITE_GUESTS names them).
GUESTS=()

# The guests this site runs: from the state file once `up` wrote them.
load_guests() {
	local g
	g=$(state_get guests || true)
	read -r -a GUESTS <<<"$g"
}

# LOCALSITE_GUESTS=NAME...: the guest hosts `up` starts (spaces or commas
# between names).  kN (1-9) is a compute host whose CephFS is the kernel
# client's.
check_guests_arg() {
	local g
	local -A seen=()
	GUESTS=()
	[[ -n ${LOCALSITE_GUESTS:-} ]] || return 0
	for g in ${LOCALSITE_GUESTS//,/ }; do
		[[ $g =~ ^k[1-9]$ ]] ||
			die "LOCALSITE_GUESTS: \"$g\" is not a guest host name (accepted: k1 .. k9, kernel-client compute hosts; e.g. LOCALSITE_GUESTS=k1)"
		[[ -z ${seen[$g]:-} ]] || die "LOCALSITE_GUESTS: \"$g\" given twice"
		seen[$g]=1
		GUESTS+=("$g")
	done
	command -v "$UML" >/dev/null 2>&1 ||
		die "LOCALSITE_GUESTS=$LOCALSITE_GUESTS: $UML is missing (package user-mode-linux; install with scripts/install-deps)"
	command -v cc >/dev/null 2>&1 ||
		die "LOCALSITE_GUESTS=$LOCALSITE_GUESTS: cc is missing (package gcc; install with scripts/install-deps)"
	[[ -c /dev/net/tun ]] ||
		die "LOCALSITE_GUESTS=$LOCALSITE_GUESTS: /dev/net/tun is missing: the guests' tap devices cannot be made"
	[[ -x /sbin/mount.ceph || -x /usr/sbin/mount.ceph ]] ||
		die "LOCALSITE_GUESTS=$LOCALSITE_GUESTS: mount.ceph is missing (package ceph-common)"
}

is_guest() { # name: one of this site's guests
	local g
	for g in "${GUESTS[@]}"; do
		[[ $g == "$1" ]] && return 0
	done
	return 1
}

guest_dir() { echo "$BASE/guests/$1"; }
guest_tap() { echo "$PREFIX-$1"; }

# start_guests: for each guest a tap device on the bridge, its directory
# (configuration, the admin secret, the mailbox), and linux.uml.  The
# guests then boot, load the ceph module and mount CephFS while the rest
# of the site comes up; wait_guests waits for them.
start_guests() {
	local g d tap secret
	((${#GUESTS[@]})) || return 0
	state_set guests "${GUESTS[*]}"
	mkdir -p "$BASE/guests"
	chmod 700 "$BASE/guests"
	secret=$(ceph-authtool -p -n client.admin "$CEPH_ADMIN_KEYRING") ||
		die "cannot read the admin key from $CEPH_ADMIN_KEYRING"
	for g in "${GUESTS[@]}"; do
		d=$(guest_dir "$g")
		tap=$(guest_tap "$g")
		mkdir -p "$d"
		(umask 077 && echo "$secret" >"$d/secret")
		cat >"$d/conf" <<EOF
# Written by localsite for guest $g of site $INSTANCE (read by guest/init).
GUEST_NAME=$g
GUEST_KIND=kernel-client
GUEST_ADDR=$(host_addr "$g")
GUEST_HOSTS_FILE=$ETC/hosts
GUEST_MNT=$MNT
GUEST_MON=$(host_addr head):$MON_V1_PORT
GUEST_FSNAME=$FSNAME
GUEST_SECRETFILE=$d/secret
GUEST_MOUNT_OPTS=mds_namespace=$FSNAME
GUEST_MOUNT_TIMEOUT=$GUEST_UP_TIMEOUT
GUEST_SLURM_CONF=$SLURM_CONF_FILE
GUEST_MUNGE_SOCK=$MUNGE_SOCK
GUEST_MUNGE_KEY=$MUNGE_KEY
GUEST_SLURMD_OUT=$LOG/slurmd-$g.out
EOF
		ip tuntap add dev "$tap" mode tap || die "cannot create the tap device $tap of guest $g"
		no_ipv6 "$tap"
		ip link set "$tap" master "$BRIDGE" up || die "cannot put $tap on $BRIDGE"
		spawn "uml-$g" "$LOG/guest-$g.out" "" "" \
			"$GUEST_BOOT" "$d" "eth0=tuntap,$tap"
	done
}

# wait_guests: every guest wrote box/ready (its CephFS mounted).
wait_guests() {
	local g d i t0
	local -A want=()
	((${#GUESTS[@]})) || return 0
	t0=$(now)
	for g in "${GUESTS[@]}"; do
		want[$g]=1
	done
	for ((i = 0; i < GUEST_UP_TIMEOUT * 10 && ${#want[@]}; i++)); do
		for g in "${!want[@]}"; do
			d=$(guest_dir "$g")
			rec_alive "uml-$g" || fail_daemon "uml-$g" "$LOG/guest-$g.out"
			[[ ! -f $d/box/failed ]] ||
				fail_daemon "guest $g ($(cat "$d/box/failed"))" "$LOG/guest-$g.out"
			[[ -f $d/box/ready ]] && unset "want[$g]"
		done
		((${#want[@]})) && sleep 0.1
	done
	((${#want[@]} == 0)) ||
		die "guests not up in $GUEST_UP_TIMEOUT s: ${!want[*]} (see $LOG/guest-*.out)"
	for g in "${GUESTS[@]}"; do
		read -r _ i <"$(guest_dir "$g")/box/ready"
		msg "  guest $g: kernel CephFS client on $MNT (its kernel up ${i} s; $(elapsed "$t0") s waited)"
	done
}

# guest_exec [-t SECONDS] GUEST CMD...: run CMD in the guest (its kernel,
# its mounts) through its mailbox, in the current directory, with the
# caller's exported environment (guest/exec); print its output, return its
# status (124 when SECONDS passed first: CMD keeps running in the guest).
guest_exec() {
	local -a t=()
	if [[ $1 == -t ]]; then
		t=(-t "$2")
		shift 2
	fi
	rec_alive "uml-$1" || die "guest $1 is not running (uml-$1 is gone)"
	"$GUEST_EXEC" "$(guest_dir "$1")" "${t[@]}" -- "${@:2}"
}

# guest_mount_kind GUEST: the type of the filesystem on MNT in the guest
# ("ceph": the kernel client), empty when it does not answer in 10 s.
guest_mount_kind() {
	guest_exec -t 10 "$1" findmnt -n -o FSTYPE "$MNT" 2>/dev/null || true
}

# stop_guests: each running guest powers itself off (sysrq o through its
# mailbox: no unmount, no sync, its data goes with the site); linux.uml
# then exits with every process it made.  A guest that does not is left
# to stop_recorded (SIGTERM, then SIGKILL).
stop_guests() {
	local g i
	local -a pids=() starts=()
	load_guests
	for g in "${GUESTS[@]}"; do
		rec_alive "uml-$g" || continue
		"$GUEST_EXEC" "$(guest_dir "$g")" -t 2 -- sh -c 'echo o >/proc/sysrq-trigger' >/dev/null 2>&1 || true
		read -r i _ <"$PIDS/uml-$g"
		pids+=("$i")
		starts+=("$(proc_starttime "$i" || echo gone)")
	done
	((${#pids[@]} == 0)) || wait_pids_gone 2 pids starts || true
}

# The taps stay after their linux.uml is gone (they are persistent).
remove_guest_taps() {
	local g
	load_guests
	for g in "${GUESTS[@]}"; do
		ip link del "$(guest_tap "$g")" 2>/dev/null || true
	done
}
