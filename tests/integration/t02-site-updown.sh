#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# t02-site-updown: `localsite down` leaves nothing of a site, also after a
# failed `up`.  A second site (its own base, prefix, subnet, ports) beside
# the test site: (1) up, a stray process left running in c1's namespaces
# and c1's link shaped, then down; (2) an up that fails on purpose once
# everything is running and mounted (LOCALSITE_FAIL_AFTER=mounts), (3) one
# that fails right after the hosts are built (LOCALSITE_FAIL_AFTER=hosts).
# After each: no process of the site (recorded, marked, in its hosts'
# namespaces, holding its base), no interface of its prefix (bridge, veths,
# so no qdisc), no address of its subnet, no mount below its base, no
# cgroup of its fsid, no base directory; and `up`'s output says it undid
# what it started.  The test site stays healthy meanwhile.

set -uo pipefail
T=t02-site-updown
. "$(dirname "$0")/lib.bash"

[[ $EUID -eq 0 ]] || skip "needs root"
require_env IOSTRATA_SITE_BASE IOSTRATA_LOCAL_DIR
localsite=$top/site/local/localsite
base=$(mktemp -d /tmp/iostrata-t02.XXXXXX)
rmdir "$base"
prefix=is$(printf '%s' "$base" | sha256sum | cut -c1-6)
make_work
stray=
second_down() {
	[[ -z $stray ]] || kill "$stray" 2>/dev/null
	env -u IOSTRATA_SITE_BASE "$localsite" down "$base" >/dev/null 2>&1 || late_fail "down of the second site failed"
}
at_exit second_down

# What the second site may leave behind (lib.bash site_leftovers).
leftovers() { site_leftovers "$base" "$prefix" "$@"; }

# facts of the running second site, read from its state file
facts() {
	subnet=$(sed -n 's/^subnet=//p' "$base/.iostrata-site")
	inodes=$(sed -n 's/^netns_[a-z0-9]*=//p' "$base/.iostrata-site" | tr '\n' ' ')
	fsid=$(sed -n 's/^export IOSTRATA_CEPH_FSID=//p' "$base/env" 2>/dev/null)
	[[ -n $fsid ]] || fsid=$(sed -n 's/^fsid = //p' "$base/etc/ceph.conf" 2>/dev/null)
}

expect_nothing_left() { # what
	local left
	# shellcheck disable=SC2086 # inodes: one per word
	left=$(leftovers "$subnet" "$fsid" $inodes)
	[[ -z $left ]] || fail "$1: left behind: $(tr '\n' ';' <<<"$left")"
	log "$1: nothing left (base, mounts, interfaces, addresses, routes, cgroups, processes)"
}

up2() { # up of the second site with env... ; output in $work/up.log
	env -u IOSTRATA_SITE_BASE "$@" "$localsite" up "$base" >"$work/up.log" 2>&1
}

# 1. a healthy second site, a stray process in c1, c1's link shaped; down
t0=$SECONDS
up2 || fail "second site did not come up: $(tail -20 "$work/up.log")"
log "second site up in $((SECONDS - t0)) s: $(grep -o 'hosts .* on [^ ]*' "$work/up.log" | head -n 1)"
facts
[[ -n $subnet && -n $fsid && -n $inodes ]] || fail "no facts of the second site: subnet \"$subnet\" fsid \"$fsid\" netns \"$inodes\""
[[ $subnet != "$(. "$IOSTRATA_SITE_BASE/env" && echo "$IOSTRATA_SITE_SUBNET")" ]] ||
	fail "both sites on subnet $subnet"
setsid "$localsite" exec c1 --base "$base" -- sleep 600 </dev/null >/dev/null 2>&1 &
stray=$!
"$localsite" link 100mbit c1 --base "$base" >/dev/null || fail "link 100mbit on the second site failed"
tc qdisc show dev "$prefix-c1" root | grep -q tbf || fail "no qdisc on $prefix-c1"
sleep 0.3
[[ $(readlink "/proc/$stray/ns/net") != "$(readlink /proc/self/ns/net)" ]] || fail "the stray process is not in c1's namespace"
t0=$SECONDS
env -u IOSTRATA_SITE_BASE "$localsite" down "$base" >"$work/down.log" 2>&1 || fail "down failed: $(cat "$work/down.log")"
log "down in $((SECONDS - t0)) s: $(tail -n 1 "$work/down.log")"
kill -0 "$stray" 2>/dev/null && fail "the stray process in c1 survived down"
stray=
expect_nothing_left "up, then down"

# Namespaces in use and Ceph slices present: after a failed up (whose
# state went with its base) nothing may be added to either.
netns_in_use() { readlink /proc/[0-9]*/ns/net 2>/dev/null | sort -u; }
ceph_slices() {
	local r
	for r in $(awk '($3 == "cgroup" && $4 ~ /(^|,)blkio(,|$)/) || $3 == "cgroup2" { print $2 }' /proc/mounts); do
		ls -d "$r"/system.slice/system-ceph* 2>/dev/null
	done | sort
}

# 2. and 3. failed ups: everything running, or only the hosts built
for step in mounts hosts; do
	t0=$SECONDS
	ns_before=$(netns_in_use)
	cg_before=$(ceph_slices)
	if up2 LOCALSITE_FAIL_AFTER=$step; then
		fail "up with LOCALSITE_FAIL_AFTER=$step succeeded"
	fi
	grep -q "failing on purpose after step \"$step\"" "$work/up.log" ||
		fail "up with LOCALSITE_FAIL_AFTER=$step failed otherwise: $(tail -20 "$work/up.log")"
	grep -q 'up failed; undoing what was started' "$work/up.log" || fail "up did not say it undid its work"
	# the facts are gone with the base: take them from up's own output
	subnet=$(grep -o 'on [a-z0-9]*-br ([0-9.]*/24' "$work/up.log" | head -n 1 | sed 's/.*(//')
	inodes=
	fsid=
	[[ -n $subnet ]] || fail "up's output names no subnet: $(head -5 "$work/up.log")"
	expect_nothing_left "up failing after \"$step\" ($((SECONDS - t0)) s)"
	added=$(comm -13 <(echo "$ns_before") <(netns_in_use))
	[[ -z $added ]] || fail "after the failed up ($step): network namespaces still in use: $added"
	added=$(comm -13 <(echo "$cg_before") <(ceph_slices))
	[[ -z $added ]] || fail "after the failed up ($step): cgroups left: $added"
done
"$localsite" status "$IOSTRATA_SITE_BASE" >"$work/status.txt" || fail "the test site is not healthy: $(cat "$work/status.txt")"
log "PASS"
