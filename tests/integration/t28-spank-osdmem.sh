#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t28-spank-osdmem: --iostrata-mem sets the osd_memory_target of the
# storage host's own OSD to its share of the memory left (s1's policy:
# osd_memory_target = share, one OSD per host, so the share is the whole
# request), in the monitors' configuration database; checked from the
# head with "ceph config get osd.N osd_memory_target" while the job runs,
# and in the running daemon ("ceph tell osd.N config get"; the other
# hosts' OSDs unchanged), in the job's applied file and in
# iostrata-node status run in s1; the epilog puts it back as it was
# (osd.N had no entry of its own before: the entry is removed again) and
# the node equals the snapshot and is not drained.  Then status with the
# monitors unreachable: one bounded ask, every OSD's line says why, exit 0.
. "$(dirname "$0")/t2x-lib.bash"

ensure_plugin
grep -qx "osd_memory_target = share" "$T2X_POLICY" ||
	fail "$T2X_HOST's policy $T2X_POLICY lacks \"osd_memory_target = share\""
command -v ceph >/dev/null || skip "no ceph CLI"
read -r -a hosts <<<"${IOSTRATA_OSD_HOSTS:-}"
myid=
for i in "${!hosts[@]}"; do
	[ "${hosts[$i]}" = "$T2X_HOST" ] && myid=$i
done
[ -n "$myid" ] || fail "no OSD on $T2X_HOST (IOSTRATA_OSD_HOSTS=${IOSTRATA_OSD_HOSTS:-})"

cephc() { timeout 60 ceph -c "$CEPH_CONF" "$@"; }
omt() { cephc config get "osd.$1" osd_memory_target; }
# what the running daemon uses (a ceph.conf value would win over the
# database): asked of the daemon itself
running() { cephc tell "osd.$1" config get osd_memory_target 2>/dev/null |
	/usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["osd_memory_target"])'; }
# running_is ID VALUE: the daemon takes the value within 15 s
running_is() {
	local k
	for k in $(seq 1 30); do
		[ "$(running "$1")" = "$2" ] && return 0
		sleep 0.5
	done
	return 1
}
# osd.N's own entry in the configuration database ("" when none)
own_entry() { cephc config dump | awk -v w="osd.$1" '$1 == w && $3 == "osd_memory_target" { print $4 }'; }
targets() { for i in "${!hosts[@]}"; do printf 'osd.%s=%s/%s ' "$i" "$(omt "$i")" "$(own_entry "$i")"; done; }

before=$(targets) || fail "ceph config get failed"
log "targets before (value/own entry): $before"
own_before=$(own_entry "$myid")
# Whatever happens, osd.N's entry goes back as it was.
t2x_cleanup() {
	if [ -z "$own_before" ]; then
		cephc config rm "osd.$myid" osd_memory_target >/dev/null 2>&1
	else
		cephc config set "osd.$myid" osd_memory_target "$own_before" >/dev/null 2>&1
	fi
}
snapshot

# A target the node can reach and whose floor it is above: 1 GiB below
# what is online (within the policy's 10% tolerance without taking a
# block offline where the kernel refuses).
online_g=$(($(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 / 1024))
mem=$((online_g - 1))G
want=$(((online_g - 1) * 1024 * 1024 * 1024))

cat >"$work/job.sh" <<JOB
#!/bin/bash
touch "$work/running"
for _ in \$(seq 1 240); do [ -e "$work/release" ] && break; sleep 0.5; done
JOB
sync
echo 3 >/proc/sys/vm/drop_caches
id=$(submit -p "$IOSTRATA_STORAGE_PARTITION" -w "$T2X_HOST" --exclusive -t 5 \
	--iostrata-mem="$mem" -o "$work/out" "$work/job.sh") || fail "sbatch failed"
if ! wait_running "$id" "$work/running"; then
	cat "$work/out" 2>/dev/null
	fail "job $id (--iostrata-mem=$mem) did not start: $(job_state "$id")"
fi
during=$(targets)
log "targets during job $id (--iostrata-mem=$mem): $during"
[ "$(omt "$myid")" = "$want" ] ||
	fail "osd.$myid osd_memory_target is $(omt "$myid") during the job, want $want (--iostrata-mem=$mem over 1 OSD)"
running_is "$myid" "$want" ||
	fail "the running osd.$myid uses osd_memory_target $(running "$myid"), want $want (a ceph.conf value wins over the database?)"
for i in "${!hosts[@]}"; do
	[ "$i" = "$myid" ] && continue
	[ "$(omt "$i")/$(own_entry "$i")" = "$(sed -n "s/.*osd\.$i=\([^ ]*\).*/\1/p" <<<"$before")" ] ||
		fail "osd.$i (on ${hosts[$i]}) changed by a job on $T2X_HOST: $during (before: $before)"
done
applied=$T2X_STATE/$id.applied.json
/usr/bin/python3 - "$applied" "$myid" "$want" <<'PY' || fail "applied file $applied: $(cat "$applied")"
import json, sys
a = json.load(open(sys.argv[1]))["osd_memory_target"]
osd, want = "osd." + sys.argv[2], int(sys.argv[3])
assert a["policy"] == "share", a
assert a["osds"] == 1 and a["share_bytes"] == want, a
assert a["targets"][osd]["new"] == want, a
PY
"$LOCALSITE" exec "$T2X_HOST" --base "$IOSTRATA_SITE_BASE" -- \
	"$T2X_NODE" status --json --state-dir "$T2X_STATE" --policy "$T2X_POLICY" >"$work/status.json" 2>"$work/status.err" ||
	{ cat "$work/status.err"; fail "iostrata-node status in $T2X_HOST failed"; }
/usr/bin/python3 -c 'import json, sys
t = json.load(open(sys.argv[1]))["osd_memory_target"]["targets"]
assert t == {"osd." + sys.argv[2]: int(sys.argv[3])}, t' "$work/status.json" "$myid" "$want" ||
	fail "status in $T2X_HOST does not show osd.$myid at $want: $(cat "$work/status.json")"
touch "$work/release"
wait_job "$id" 120 || fail "job $id did not end"
[ "$(job_state "$id")" = COMPLETED ] || fail "job $id: $(job_state "$id"): $(cat "$work/out")"
expect_restored "after job $id"
after=$(targets)
log "targets after the epilog: $after"
[ "$after" = "$before" ] || fail "targets not restored by the epilog: $after (before: $before)"
running_is "$myid" "$(omt "$myid")" ||
	fail "the running osd.$myid uses osd_memory_target $(running "$myid") after the epilog, want $(omt "$myid")"
[ ! -e "$applied" ] || fail "$applied left after the epilog"
expect_not_drained "after job $id"

# Ceph unreachable (a conf whose monitor does not answer): status asks the
# cluster once and says so on each OSD's line, exit 0, within about one
# ceph_timeout (3 s here) rather than one per OSD
down=$work/ceph-down
mkdir -p "$down"
sed -E 's/^mon host = .*/mon host = [v2:198.19.254.254:3300,v1:198.19.254.254:6789]/' "$CEPH_CONF" >"$down/ceph.conf"
grep -q '^mon host = \[v2:198.19.254.254' "$down/ceph.conf" || fail "no 'mon host =' line to replace in $CEPH_CONF"
{
	sed -E "s|^ceph_conf = .*|ceph_conf = $down/ceph.conf|; /^ceph_timeout *=/d" "$T2X_POLICY"
	echo "ceph_timeout = 3s"
} >"$down/policy.conf"
chmod 0644 "$down/policy.conf" "$down/ceph.conf"
t0=$SECONDS
"$LOCALSITE" exec "$T2X_HOST" --base "$IOSTRATA_SITE_BASE" -- \
	"$T2X_NODE" status --json --state-dir "$T2X_STATE" --policy "$down/policy.conf" >"$work/down.json" 2>"$work/down.err" ||
	fail "status in $T2X_HOST with Ceph unreachable: exit $?: $(cat "$work/down.err")"
dt=$((SECONDS - t0))
/usr/bin/python3 -c 'import json, sys
t = json.load(open(sys.argv[1]))["osd_memory_target"]["targets"]
assert t and all(isinstance(v, str) and v.startswith("Ceph unreachable: ") for v in t.values()), t
print("t28: Ceph down: %s" % t)' "$work/down.json" ||
	fail "status with Ceph unreachable: $(cat "$work/down.json")"
[ "$dt" -le 15 ] || fail "status with Ceph unreachable took ${dt}s (ceph_timeout 3 s)"
log "status with Ceph unreachable: ${dt}s, every OSD line says why"
log "ok: osd.$myid osd_memory_target $want during the job, back to $before after"
