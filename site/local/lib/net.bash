# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# site/local/lib/net.bash: the hosts (namespaces), the bridge and veth links,
# their mounts, link shaping (tc tbf).
# Sourced by site/local/localsite, not run on its own.

# ---------------------------------------------------------------- hosts, network

subnet_in_use() { # A.B.C: an address or route of the root namespace in A.B.C.0/24
	local re=${1//./\\.}
	ip -4 -o addr show 2>/dev/null | grep -qE "inet $re\." && return 0
	ip -4 route show table all 2>/dev/null | grep -qE "(^|[[:space:]])$re\." && return 0
	return 1
}

# The site's /24: LOCALSITE_SUBNET, else the first free one of NET_POOL
# (198.18.0.0/15: 512 of them), starting at a place derived from BASE.
choose_subnet() {
	local a b c k off start
	if [[ -n ${LOCALSITE_SUBNET:-} ]]; then
		[[ $LOCALSITE_SUBNET =~ ^([0-9]{1,3})\.([0-9]{1,3})\.([0-9]{1,3})\.0/24$ ]] &&
			((BASH_REMATCH[1] <= 255 && BASH_REMATCH[2] <= 255 && BASH_REMATCH[3] <= 255)) ||
			die "LOCALSITE_SUBNET=\"$LOCALSITE_SUBNET\": not a /24 network (accepted: A.B.C.0/24, e.g. 198.18.7.0/24)"
		NET3=${LOCALSITE_SUBNET%.0/24}
		if subnet_in_use "$NET3"; then
			die "LOCALSITE_SUBNET=\"$LOCALSITE_SUBNET\": already in use on this machine: $(ip -4 -o addr show | grep -F " $NET3." | awk '{print $2, $4}' | head -n 1)"
		fi
		SUBNET=$LOCALSITE_SUBNET
		return 0
	fi
	start=$((16#${PREFIX#is} % 512))
	for ((k = 0; k < 512; k++)); do
		off=$(((start + k) % 512))
		a=198
		b=$((18 + off / 256))
		c=$((off % 256))
		subnet_in_use "$a.$b.$c" && continue
		NET3=$a.$b.$c
		SUBNET=$NET3.0/24
		return 0
	done
	die "no free /24 in $NET_POOL for the site's bridge: give one with LOCALSITE_SUBNET=A.B.C.0/24"
}

# Each host: a holder process (sleep) in new network, UTS and mount
# namespaces (mount propagation private: mounts made there stay there, the
# head's CephFS mount does not enter); daemons join it with nsenter.
start_hosts() {
	local h
	local -A want=()
	for h in "${NODES[@]}"; do
		mkdir -p "$HOSTS_DIR/$h"
		spawn "host-$h" "$LOG/host-$h.out" "" "" \
			unshare --net --uts --mount --propagation private -- \
			/bin/sh -c 'hostname "$0" && exec sleep infinity' "$h"
		want[$h]=1
	done
	local i pid self
	self=$(readlink /proc/self/ns/net)
	for ((i = 0; i < 200 && ${#want[@]}; i++)); do
		for h in "${!want[@]}"; do
			rec_alive "host-$h" || fail_daemon "host-$h" "$LOG/host-$h.out"
			pid=$(rec_pid "host-$h")
			[[ $(cat "/proc/$pid/comm" 2>/dev/null) == sleep ]] || continue
			[[ $(readlink "/proc/$pid/ns/net") != "$self" ]] || continue
			state_set "netns_$h" "$(readlink "/proc/$pid/ns/net")"
			unset "want[$h]"
		done
		((${#want[@]})) && sleep 0.02
	done
	((${#want[@]} == 0)) || die "hosts not started in 4 s: ${!want[*]}"
}

no_ipv6() { # dev: the site's links carry only its own IPv4 addresses
	local f=/proc/sys/net/ipv6/conf/$1/disable_ipv6
	[[ -w $f ]] && echo 1 >"$f" || true
}

# The bridge (in the root namespace, the head's address on it) and one veth
# pair per host: <prefix>-<node> on the bridge, eth0 in the host.  No
# default route anywhere, no forwarding: the /24 reaches nothing else.
setup_network() {
	local h hp
	exec 9>"$NET_LOCK"
	flock -w 30 9 || die "another localsite holds $NET_LOCK for more than 30 s"
	choose_subnet
	state_set subnet "$SUBNET"
	state_set bridge "$BRIDGE"
	ip link add "$BRIDGE" type bridge || die "cannot create bridge $BRIDGE"
	no_ipv6 "$BRIDGE"
	ip addr add "$(host_addr head)/24" dev "$BRIDGE"
	ip link set "$BRIDGE" up
	exec 9>&-
	for h in "${NODES[@]}"; do
		hp=$(rec_pid "host-$h")
		ip link add "$PREFIX-$h" type veth peer name eth0 netns "$hp" ||
			die "cannot create the link $PREFIX-$h of host $h"
		no_ipv6 "$PREFIX-$h"
		ip link set "$PREFIX-$h" master "$BRIDGE" up
		nsenter -t "$hp" -n -- /bin/sh -c '
			echo 1 >/proc/sys/net/ipv6/conf/all/disable_ipv6 2>/dev/null
			echo 1 >/proc/sys/net/ipv6/conf/eth0/disable_ipv6 2>/dev/null
			ip link set lo up && ip addr add "$0/24" dev eth0 && ip link set eth0 up' \
			"$(host_addr "$h")" || die "cannot configure eth0 of host $h"
	done
	if [[ -n ${LOCALSITE_LINK:-} ]]; then
		shape_links "$LOCALSITE_LINK" "${NODES[@]}"
	fi
}

# A storage host sees its own plugstack (BASE/hosts/<node>/etc on
# BASE/etc/host) and its own plugin files (BASE/hosts/<node>/iostrata on
# BASE/iostrata), like /etc and /run of a real node.
host_mounts() {
	local h
	# Every host resolves every host's name (its own /etc/hosts).
	{
		cat /etc/hosts
		echo "# the local site's hosts ($BASE)"
		echo "$(host_addr head) ${PREFIX}-head"
		for h in "${NODES[@]}" "${GUESTS[@]}"; do
			echo "$(host_addr "$h") $h"
		done
	} >"$ETC/hosts"
	chmod 644 "$ETC/hosts"
	for h in "${NODES[@]}"; do
		on_host "$h" mount --bind "$ETC/hosts" /etc/hosts || die "cannot mount $ETC/hosts on /etc/hosts of $h"
	done
	for h in "${STORAGE_NODES[@]}"; do
		on_host "$h" mount --bind "$HOSTS_DIR/$h/etc" "$HOST_ETC" &&
			on_host "$h" mount --bind "$HOSTS_DIR/$h/iostrata" "$IOS_DIR" ||
			die "cannot mount the per-host files of $h"
	done
}

remove_network() {
	local br links l i
	br=$(state_get bridge || true)
	[[ -n $br ]] || return 0
	# The veths go with their hosts' namespaces (asynchronously): wait a
	# little, then delete what is left.
	for ((i = 0; i < 100; i++)); do
		links=$(ip -o link show 2>/dev/null | awk -F': ' -v p="$PREFIX-" '{ sub(/@.*/, "", $2) } index($2, p) == 1 && $2 != p "br" { print $2 }')
		[[ -z $links ]] && break
		sleep 0.05
	done
	for l in $links; do
		ip link del "$l" 2>/dev/null || true
	done
	if ip link show dev "$br" >/dev/null 2>&1; then
		ip link del "$br" || warn "cannot delete bridge $br"
	fi
}

# bits per second of a tc rate
rate_bps() {
	awk -v r="$1" 'BEGIN {
		n = r + 0; u = r; sub(/^[0-9.]+/, "", u)
		m = (u == "bit") ? 1 : (u == "kbit") ? 1e3 : (u == "mbit") ? 1e6 : (u == "gbit") ? 1e9 : 1e12
		printf "%.0f", n * m }'
}

# shape_links RATE|off NODE...: a token bucket on both ends of each host's
# link (the bridge side limits what the host receives, eth0 what it sends).
shape_links() {
	local rate=$1 h bps burst
	shift
	if [[ $rate != off ]]; then
		bps=$(rate_bps "$rate")
		# 4 ms worth of tokens, at least 64 KiB (one GSO segment).
		burst=$(awk -v b="$bps" 'BEGIN { x = b / 8 / 250; if (x < 65536) x = 65536; printf "%.0f", x }')
	fi
	for h in "$@"; do
		if [[ $rate == off ]]; then
			tc qdisc del dev "$PREFIX-$h" root 2>/dev/null || true
			on_host "$h" tc qdisc del dev eth0 root 2>/dev/null || true
		else
			tc qdisc replace dev "$PREFIX-$h" root tbf rate "$rate" burst "$burst" latency 50ms ||
				die "tc on $PREFIX-$h failed"
			on_host "$h" tc qdisc replace dev eth0 root tbf rate "$rate" burst "$burst" latency 50ms ||
				die "tc on eth0 of $h failed"
		fi
		state_set "link_$h" "$rate"
	done
}

link_shape_of() { # node -> "tbf 1Gbit" or "unshaped" (read back from the kernel)
	local q
	q=$(tc qdisc show dev "$PREFIX-$1" root 2>/dev/null | head -n 1)
	if [[ $q == "qdisc tbf "* ]]; then
		q=${q#* rate }
		echo "tbf ${q%% *}"
	elif [[ -z $q ]]; then
		echo "missing"
	else
		echo "unshaped"
	fi
}
