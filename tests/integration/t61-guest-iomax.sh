#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# t61-guest-iomax: iostrata-node's disk throttle on a real cgroup v2 kernel.
# This machine's io controller is bound to cgroup v1, so io.max is written
# here only in a guest: user-mode Linux 6.1 (site/local/guest/boot) with a
# UBD disk (a sparse file: /dev/ubdb, 98:16) and cgroup v2 with the io
# controller.  In it, a cephadm-style OSD unit cgroup
# (system.slice/system-ceph\x2d<fsid>.slice/ceph-<fsid>@osd.0.service) with
# a process in it, and a policy naming the disk and that cgroup:
# `iostrata-node apply --disk-bw 7M` writes io.max (7 MiB/s both ways),
# `status --json` shows the throttle (interface v2) and the journal, a
# direct write from the unit cgroup is held to the rate and counted in its
# io.stat (wbytes), one from the root cgroup is not held; `restore` empties
# io.max and the journal (its lock file stays).  The guest runs this tree's iostrata-node through
# hostfs.  After the guest stops: no process of it, nothing in ~/.uml, its
# directory removed.  Needs no site (it runs beside the test site).

set -uo pipefail
T=t61-guest-iomax
. "$(dirname "$0")/lib.bash"

[[ $EUID -eq 0 ]] || skip "needs root"
command -v linux.uml >/dev/null || fail "linux.uml is missing (package user-mode-linux: scripts/install-deps installs it)"
node=$build/spank/iostrata-node
[[ -x $node ]] || fail "no $node (build the tree first)"
boot=$top/site/local/guest/boot
gexec=$top/site/local/guest/exec
d=$(mktemp -d /tmp/iostrata-t61.XXXXXX)
chmod 700 "$d"
uml_before=$(ls -A /root/.uml 2>/dev/null | sort)
guest=
stop_guest() {
	local i
	if [[ -n $guest ]]; then
		kill -TERM "$guest" 2>/dev/null
		for ((i = 0; i < 100; i++)); do
			kill -0 "$guest" 2>/dev/null || break
			sleep 0.05
		done
		kill -0 "$guest" 2>/dev/null && late_fail "linux.uml $guest still runs 5 s after SIGTERM" && kill -KILL "$guest"
		guest=
	fi
	left=$(pgrep -f -- "iostrata_guest=$d" | tr '\n' ' ')
	[[ -z $left ]] || late_fail "processes of the guest left: $left"
	rm -rf -- "$d"
}
at_exit stop_guest

cat >"$d/conf" <<EOF
GUEST_NAME=v1
GUEST_KIND=plain
EOF
truncate -s 256M "$d/disk.img"
t0=$(date +%s%N)
setsid "$boot" "$d" "ubd1=$d/disk.img" </dev/null >"$d/console" 2>&1 &
guest=$!
for ((i = 0; i < 300; i++)); do
	[[ -f $d/box/ready || -f $d/box/failed ]] && break
	kill -0 "$guest" 2>/dev/null || break
	sleep 0.1
done
[[ -f $d/box/ready ]] || fail "the guest did not come up: $(cat "$d/box/failed" 2>/dev/null) $(tail -15 "$d/console")"
log "guest v1 up in $((($(date +%s%N) - t0) / 1000000)) ms (its kernel: $(cut -d' ' -f2 "$d/box/ready") s)"

# In the guest: the unit cgroup, a stand-in OSD in it, the policy, then
# apply, status, a write from the unit and one from the root cgroup,
# restore.  Prints key=value lines for the checks below.
cat >"$d/in-guest.sh" <<'EOS'
set -u
node=$1 fsid=6f0c0b6e-1111-2222-3333-444455556666 cg=/sys/fs/cgroup esc='\x2d'
echo "kernel=$(uname -r)"
echo "controllers=$(cat $cg/cgroup.controllers)"
echo "disk=$(cat /sys/block/ubdb/dev)"
slice=$cg/system.slice/system-ceph$esc${fsid//-/$esc}.slice
unit=$slice/ceph-$fsid@osd.0.service
echo +io >$cg/cgroup.subtree_control
mkdir -p "$unit"
echo +io >$cg/system.slice/cgroup.subtree_control
echo +io >"$slice/cgroup.subtree_control"
sleep 600 &
osd=$!
echo $osd >"$unit/cgroup.procs"
mkdir -p /run/ios/state
printf 'allow_users = root\nmin_disk_bw = 1M\ndevice = ubdb\ncgroup = %s\n' "$unit" >/run/ios/policy.conf
o=(--state-dir /run/ios/state --policy /run/ios/policy.conf)
"$node" apply --disk-bw 7M "${o[@]}"
echo "apply_rc=$?"
echo "iomax=$(cat "$unit/io.max")"
echo "status=$("$node" status --json "${o[@]}" | tr -d ' \n')"
wbytes() { sed -n 's/^98:16 .*wbytes=\([0-9]*\).*/\1/p' "$1/io.stat"; }
b=$(wbytes "$unit")
# 21 MiB direct from the unit cgroup: about 3 s at 7 MiB/s
t=$(date +%s%N)
(echo $BASHPID >"$unit/cgroup.procs" && exec dd if=/dev/zero of=/dev/ubdb bs=1M count=21 oflag=direct status=none)
echo "unit_ms=$((($(date +%s%N) - t) / 1000000))"
echo "unit_wbytes=$(($(wbytes "$unit") - ${b:-0}))"
t=$(date +%s%N)
dd if=/dev/zero of=/dev/ubdb bs=1M count=21 oflag=direct status=none
echo "root_ms=$((($(date +%s%N) - t) / 1000000))"
"$node" restore "${o[@]}"
echo "restore_rc=$?"
echo "iomax_after=[$(cat "$unit/io.max")]"
echo "status_after=$("$node" status --json "${o[@]}" | tr -d ' \n')"
echo "state_left=$(find /run/ios/state -type f ! -name lock | tr "\n" " ")"
kill $osd
rmdir "$unit" "$slice" $cg/system.slice
EOS
"$gexec" "$d" -t 120 bash "$d/in-guest.sh" "$node" >"$d/out" 2>"$d/err" ||
	fail "the steps in the guest failed ($?): $(cat "$d/out" "$d/err")"
val() { sed -n "s/^$1=//p" "$d/out"; }
[[ $(val kernel) == 6.1.* && " $(val controllers) " == *" io "* && $(val disk) == 98:16 ]] ||
	fail "not the guest expected: $(head -3 "$d/out")"
[[ $(val apply_rc) == 0 ]] || fail "apply --disk-bw 7M failed: $(cat "$d/out" "$d/err")"
[[ $(val iomax) == "98:16 rbps=7340032 wbps=7340032 riops=max wiops=max" ]] ||
	fail "io.max after apply: \"$(val iomax)\""
/usr/bin/python3 - "$(val status)" "$(val status_after)" <<'PY' || fail "status --json: $(val status) / after restore: $(val status_after)"
import json, sys
s = json.loads(sys.argv[1])
t = s["applied"]["throttles"]
assert len(t) == 1, t
t = t[0]
assert (t["interface"], t["device"], t["read_bps"], t["write_bps"]) == ("v2", "98:16", 7340032, 7340032), t
assert t["cgroup"].endswith("@osd.0.service"), t
assert s["journals"] == ["admin"], s["journals"]
a = json.loads(sys.argv[2])
assert a["journals"] == [], a
assert all(x["read_bps"] == x["write_bps"] == x["read_iops"] == x["write_iops"] == 0
           for x in a["applied"]["throttles"]), a
PY
unit_ms=$(val unit_ms) root_ms=$(val root_ms)
# 22020096 bytes at 7340032 B/s: 3.0 s; the first 7 MiB may pass at once
# (the kernel's throttle slice), so at least 2 s
((unit_ms >= 2000 && unit_ms <= 6000)) || fail "21 MiB from the unit cgroup took $unit_ms ms (7 MiB/s: about 3000)"
[[ $(val unit_wbytes) == 22020096 ]] || fail "the unit's io.stat counted $(val unit_wbytes) bytes written, not 22020096"
((root_ms * 3 < unit_ms)) || fail "21 MiB from the root cgroup took $root_ms ms, the unit's $unit_ms: the throttle is not the unit's"
[[ $(val restore_rc) == 0 && $(val iomax_after) == "[]" && $(val state_left) == "" ]] ||
	fail "restore: rc $(val restore_rc), io.max \"$(val iomax_after)\", state dir \"$(val state_left)\""
log "io.max 98:16 rbps=wbps=7340032: 21 MiB from the unit in $unit_ms ms ($((22020096 / unit_ms / 1000)) MB/s; io.stat wbytes 22020096), from the root cgroup in $root_ms ms; restored"
stop_guest
[[ $IT_RC == 0 ]] || exit 1
[[ $(ls -A /root/.uml 2>/dev/null | sort) == "$uml_before" ]] || fail "UML directories left in /root/.uml: $(ls -A /root/.uml)"
log "PASS"
