# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# site/local/lib/ceph.bash: the Ceph cluster: ceph.conf, keys, mon, mgr, MDS,
# the OSDs, health, the CephFS mounts (ceph-fuse).
# Sourced by site/local/localsite, not run on its own.

# ---------------------------------------------------------------- ceph

write_ceph_conf() {
	local head i h
	head=$(host_addr head)
	cat >"$CEPH_CONF_FILE" <<EOF
# Written by site/local/localsite for instance $INSTANCE ($BASE).
# mon, mgr and mds run on the head ($head, the root namespace); osd.I on
# storage host s(I+1) at that host's address; clients anywhere on $SUBNET.
[global]
fsid = $FSID
mon host = [v2:$head:$MON_PORT,v1:$head:$MON_V1_PORT]
mon initial members = a
public network = $SUBNET
cluster network = $SUBNET
# Daemons bind the first free port of this range on their own address.
ms bind port min = 7000
ms bind port max = 7999
auth cluster required = cephx
auth service required = cephx
auth client required = cephx
auth allow insecure global id reclaim = false
# Replicas on distinct hosts (chooseleaf type 1 = host, Ceph's default):
# size 3 over the 3 storage hosts, like a real site.
osd crush chooseleaf type = 1
osd pool default size = 3
osd pool default min size = 1
osd pool default pg autoscale mode = off
mon allow pool size one = true
mon allow pool delete = true
mon warn on pool no redundancy = false
mon warn on insecure global id reclaim allowed = false
mon data avail warn = 2
mon data avail crit = 1
paxos propose interval = 0.1
paxos min wait = 0.01
mgr initial modules = iostat
mgr stats period = 1
mgr tick period = 1
osd scrub min interval = 31536000
osd scrub max interval = 31536000
osd deep scrub interval = 31536000
# The OSD files sit on a disk the kernel calls rotational: no HDD recovery
# pauses (0.1 s per op) while PGs settle at start-up.
osd recovery sleep hdd = 0
osd recovery sleep hybrid = 0
osd objectstore = bluestore
bluestore block create = true
bluestore block size = 10G
bluestore fsck on mkfs = false
bluestore fsck on mount = false
mds beacon grace = 15
# Faster MDS state changes (boot -> creating -> active) at start-up.
mds beacon interval = 1
[mon]
public addr = $head
mon data = $CEPH_DIR/\$name
keyring = $CEPH_DIR/\$name/keyring
log file = $LOG/ceph-\$name.log
admin socket = $RUN/ceph/\$name.asok
[mgr]
public addr = $head
mgr data = $CEPH_DIR/\$name
mgr module path = $CEPH_DIR/mgr-modules
keyring = $CEPH_DIR/\$name/keyring
log file = $LOG/ceph-\$name.log
admin socket = $RUN/ceph/\$name.asok
[osd]
osd data = $CEPH_DIR/\$name
keyring = $CEPH_DIR/\$name/keyring
log file = $LOG/ceph-\$name.log
admin socket = $RUN/ceph/\$name.asok
osd crush update on start = true
[mds]
public addr = $head
mds data = $CEPH_DIR/\$name
keyring = $CEPH_DIR/\$name/keyring
log file = $LOG/ceph-\$name.log
admin socket = $RUN/ceph/\$name.asok
[client]
keyring = $CEPH_ADMIN_KEYRING
[client.admin]
keyring = $CEPH_ADMIN_KEYRING
EOF
	for ((i = 0; i < NOSD; i++)); do
		h=${STORAGE_NODES[$i]}
		printf '[osd.%d]\npublic addr = %s\ncluster addr = %s\ncrush location = root=default host=%s\n' \
			"$i" "$(host_addr "$h")" "$(host_addr "$h")" "$h"
	done >>"$CEPH_CONF_FILE"
	chmod 644 "$CEPH_CONF_FILE"
}

# ceph-mgr imports every module in its module path before it becomes
# available (~10 s of CPU for all 27; 20 s on a loaded machine): give it only
# the always-on modules (a missing one is a health error) and iostat.
MGR_MODULES=(balancer crash devicehealth orchestrator pg_autoscaler progress
	rbd_support status telemetry volumes iostat)
make_mgr_module_path() {
	local src=/usr/share/ceph/mgr dst=$CEPH_DIR/mgr-modules f
	mkdir -p "$dst"
	for f in "$src"/*.py "${MGR_MODULES[@]/#/$src/}"; do
		[[ -e $f ]] || die "ceph-mgr module $f is missing (package ceph-mgr-modules-core; scripts/install-deps installs it)"
		ln -s "$f" "$dst/"
	done
	platform_mgr_modules "$dst"
}

gen_key() { # keyring name caps...
	local kr=$1 name=$2
	shift 2
	ceph-authtool --create-keyring "$kr" --gen-key -n "$name" "$@" >/dev/null
}

make_ceph_keys() {
	# Not inside mon.a/: `ceph-mon --mkfs` wants an empty data directory.
	local monkr=$CEPH_DIR/mon.keyring i
	mkdir -p "$CEPH_DIR/mon.a" "$CEPH_DIR/mgr.x" "$CEPH_DIR/mds.a" "$RUN/ceph"
	for ((i = 0; i < NOSD; i++)); do
		mkdir -p "$CEPH_DIR/osd.$i"
	done
	local p=()
	gen_key "$monkr" mon. --cap mon 'allow *' &
	p+=($!)
	gen_key "$CEPH_ADMIN_KEYRING" client.admin --cap mon 'allow *' \
		--cap osd 'allow *' --cap mds 'allow *' --cap mgr 'allow *' &
	p+=($!)
	gen_key "$CEPH_DIR/mgr.x/keyring" mgr.x --cap mon 'allow profile mgr' \
		--cap osd 'allow *' --cap mds 'allow *' &
	p+=($!)
	gen_key "$CEPH_DIR/mds.a/keyring" mds.a --cap mon 'allow profile mds' \
		--cap osd 'allow *' --cap mds 'allow' --cap mgr 'allow profile mds' &
	p+=($!)
	for ((i = 0; i < NOSD; i++)); do
		gen_key "$CEPH_DIR/osd.$i/keyring" "osd.$i" --cap mon 'allow profile osd' \
			--cap mgr 'allow profile osd' --cap osd 'allow *' &
		p+=($!)
	done
	wait_ok ceph-authtool "${p[@]}"
	# The mon's initial keyring seeds its auth database: every daemon's key
	# is known from the start, no `ceph auth` calls needed later.
	for kr in "$CEPH_ADMIN_KEYRING" "$CEPH_DIR/mgr.x/keyring" "$CEPH_DIR/mds.a/keyring" "$CEPH_DIR"/osd.*/keyring; do
		ceph-authtool "$monkr" --import-keyring "$kr" >/dev/null
	done
	# Non-root jobs use the admin key (librados, the ceph CLI).
	chmod 644 "$CEPH_ADMIN_KEYRING"
}

# wait_ok WHAT PID...: wait for these background commands, fail if any did.
# (Never a bare `wait`: the daemons are background jobs of this shell too.)
wait_ok() {
	local what=$1 pid rc=0
	shift
	for pid in "$@"; do
		wait "$pid" || rc=$?
	done
	((rc == 0)) || die "$what failed (exit $rc)"
}

mkfs_mon() {
	local map=$CEPH_DIR/monmap
	monmaptool --create --fsid "$FSID" \
		--addv a "[v2:$(host_addr head):$MON_PORT,v1:$(host_addr head):$MON_V1_PORT]" \
		"$map" >/dev/null
	ceph-mon -c "$CEPH_CONF_FILE" --mkfs -i a --monmap "$map" \
		--keyring "$CEPH_DIR/mon.keyring" >>"$LOG/ceph-mon.a.out" 2>&1 ||
		fail_daemon "ceph-mon --mkfs" "$LOG/ceph-mon.a.log"
}

# The ceph CLI is a Python program that takes ~0.4 s per call; this helper
# connects once and sends all mon commands, or polls the cluster state.
ceph_py() { # mode args...
	CEPH_CONF=$CEPH_CONF_FILE timeout "${CEPH_PY_TIMEOUT:-120}" "$PY" - "$@" <<'PYEOF'
import json, os, sys, time, errno
import rados


def done(code):
    # Leave without tearing the client down: librados 16 with OpenSSL 3
    # can abort in a messenger thread during shutdown or interpreter exit
    # ("terminate called ... EVP_DecryptInit_ex failed"), after the answer
    # was printed, turning a good answer into a failed command.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


mode = sys.argv[1]
conf = __import__("os").environ["CEPH_CONF"]
cl = rados.Rados(conffile=conf, name="client.admin",
                 conf={"client_mount_timeout": "30", "rados_mon_op_timeout": "30"})
cl.connect(timeout=30)

def mon(cmd, inbuf=b""):
    ret, out, err = cl.mon_command(json.dumps(cmd), inbuf, timeout=30)
    return ret, out, err

if mode == "cmds":
    # argv[2:]: JSON commands; EEXIST is fine (idempotent).
    for c in sys.argv[2:]:
        cmd = json.loads(c)
        ret, out, err = mon(cmd)
        if ret != 0 and ret != -errno.EEXIST:
            sys.stderr.write("localsite: ceph %s: %s (%d)\n" % (c, err, ret))
            done(1)
elif mode == "wait":
    # argv[2]: timeout s, argv[3]: expected OSDs
    deadline = time.time() + float(sys.argv[2])
    nosd = int(sys.argv[3])
    why = "no status yet"
    start = last = time.time()
    while True:
        ret, out, err = mon({"prefix": "status", "format": "json"})
        if ret == 0:
            s = json.loads(out)
            health = s["health"]["status"]
            osdm = s["osdmap"]
            pgm = s["pgmap"]
            clean = sum(x["count"] for x in pgm.get("pgs_by_state", [])
                        if x["state_name"] == "active+clean")
            fs = s.get("fsmap", {})
            active = [r for r in fs.get("by_rank", []) if r.get("status") == "up:active"]
            why = []
            if osdm["num_up_osds"] != nosd or osdm["num_in_osds"] != nosd:
                why.append("osds up %d in %d of %d" % (osdm["num_up_osds"], osdm["num_in_osds"], nosd))
            if pgm["num_pgs"] == 0 or clean != pgm["num_pgs"]:
                why.append("pgs active+clean %d of %d (%s)" % (clean, pgm["num_pgs"], ", ".join(
                    "%s: %d" % (x["state_name"], x["count"]) for x in pgm.get("pgs_by_state", []))))
            if not active:
                why.append("no MDS up:active")
            if health != "HEALTH_OK":
                checks = s["health"].get("checks", {})
                why.append("%s (%s)" % (health, "; ".join(
                    "%s: %s" % (k, v["summary"]["message"]) for k, v in checks.items())))
            if not why:
                done(0)
            why = ", ".join(why)
        if time.time() > deadline:
            sys.stderr.write("localsite: ceph not healthy: %s\n" % why)
            done(1)
        if time.time() - last >= 5:
            last = time.time()
            print("localsite:   %.0f s: waiting for ceph: %s" % (last - start, why), flush=True)
        time.sleep(0.2)
elif mode == "health":
    ret, out, err = mon({"prefix": "health", "format": "json"})
    if ret != 0:
        print("unknown (%s)" % err)
        done(1)
    h = json.loads(out)
    checks = "; ".join("%s: %s" % (k, v["summary"]["message"]) for k, v in h.get("checks", {}).items())
    # Slow heartbeats / slow ops are 1-15 minute performance averages that a
    # loaded 2-core host (or a test that froze an OSD) raises and that
    # outlive their cause by minutes: reported, but not a broken site.
    transient = {"OSD_SLOW_PING_TIME_BACK", "OSD_SLOW_PING_TIME_FRONT", "SLOW_OPS"}
    only_transient = h["status"] == "HEALTH_WARN" and set(h.get("checks", {})) <= transient
    print(h["status"] + (" (" + checks + ")" if checks else "") +
          (" [transient performance warnings only]" if only_transient else ""))
    done(0 if h["status"] == "HEALTH_OK" or only_transient else 1)
done(0)
PYEOF
}

start_ceph() {
	local i uuids=() t p=()
	mkdir -p "$BASE/mnt/cephfs"
	write_ceph_conf
	make_ceph_keys
	make_mgr_module_path
	mkfs_mon
	spawn mon.a "$LOG/ceph-mon.a.out" "" "" ceph-mon -c "$CEPH_CONF_FILE" -f -i a
	spawn mgr.x "$LOG/ceph-mgr.x.out" "" "" ceph-mgr -c "$CEPH_CONF_FILE" -f -i x
	# Pools and the filesystem exist before any OSD: PGs are created once,
	# when the OSDs boot, instead of being re-peered.
	local cmds=(
		'{"prefix":"osd pool create","pool":"device_health_metrics","pg_num":1,"pgp_num":1}'
		'{"prefix":"osd pool create","pool":"cephfs_metadata","pg_num":8,"pgp_num":8}'
		'{"prefix":"osd pool create","pool":"cephfs_data","pg_num":32,"pgp_num":32}'
		"{\"prefix\":\"osd pool create\",\"pool\":\"$POOL\",\"pg_num\":32,\"pgp_num\":32}"
		"{\"prefix\":\"osd pool application enable\",\"pool\":\"$POOL\",\"app\":\"rados\"}"
		'{"prefix":"osd pool application enable","pool":"device_health_metrics","app":"mgr_devicehealth"}'
		"{\"prefix\":\"fs new\",\"fs_name\":\"$FSNAME\",\"metadata\":\"cephfs_metadata\",\"data\":\"cephfs_data\"}"
		"{\"prefix\":\"fs set\",\"fs_name\":\"$FSNAME\",\"var\":\"standby_count_wanted\",\"val\":\"0\"}"
		# in the monitors' database, not ceph.conf (a file value would
		# win over `ceph config set osd.N`, and the plugin's per-OSD
		# target would not reach the daemons): 896 MiB, Ceph's minimum
		'{"prefix":"config set","who":"osd","name":"osd_memory_target","value":"939524096"}'
	)
	for ((i = 0; i < NOSD; i++)); do
		uuids+=("$(cat /proc/sys/kernel/random/uuid)")
		cmds+=("{\"prefix\":\"osd new\",\"uuid\":\"${uuids[$i]}\",\"id\":$i}")
	done
	t=$(now)
	# OSD mkfs (BlueStore on a new sparse file, ~2 s) in parallel with the
	# mon commands; only the OSDs' boot must wait for `osd new`.
	for ((i = 0; i < NOSD; i++)); do
		ceph-osd -c "$CEPH_CONF_FILE" -i "$i" --mkfs --osd-uuid "${uuids[$i]}" \
			>>"$LOG/ceph-osd.$i.mkfs.log" 2>&1 &
		p+=($!)
	done
	rec_alive mon.a || fail_daemon mon.a "$LOG/ceph-mon.a.log"
	ceph_py cmds "${cmds[@]}" || die "creating pools, CephFS and OSD ids failed (see $LOG/ceph-mon.a.log)"
	msg "  pools, CephFS, OSD ids ($(elapsed "$t") s)"
	# in its own cgroup (setup_mds_cgroups), which the plugin shapes
	spawn mds.a "$LOG/ceph-mds.a.out" "${MDS_CGROUPS:-}" "" ceph-mds -c "$CEPH_CONF_FILE" -f -i a
	wait_ok "ceph-osd --mkfs (see $LOG/ceph-osd.*.mkfs.log)" "${p[@]}"
	msg "  OSD mkfs ($(elapsed "$t") s)"
	for ((i = 0; i < NOSD; i++)); do
		spawn "osd.$i" "$LOG/ceph-osd.$i.out" "${OSD_CGROUPS[$i]:-}" "${STORAGE_NODES[$i]}" \
			ceph-osd -c "$CEPH_CONF_FILE" -f -i "$i"
	done
	fail_here osds
}

ceph_daemons() {
	local i
	echo mon.a mgr.x mds.a
	for ((i = 0; i < NOSD; i++)); do
		echo "osd.$i"
	done
}

wait_ceph_healthy() {
	local n
	for n in $(ceph_daemons); do
		rec_alive "$n" || fail_daemon "$n" "$LOG/ceph-$n.log"
	done
	ceph_py wait "$UP_TIMEOUT" "$NOSD" || die "Ceph did not become healthy in ${UP_TIMEOUT}s (logs in $LOG)"
}

# The names of the CephFS clients: ceph-fuse (the head) and
# ceph-fuse-<node> (each compute host, in its own mount namespace).
fuse_names() {
	local h
	echo ceph-fuse
	for h in "${COMPUTE_NODES[@]}"; do
		echo "ceph-fuse-$h"
	done
}

fuse_host() { # name -> host ("" for the head)
	case $1 in
	ceph-fuse) echo "" ;;
	*) echo "${1#ceph-fuse-}" ;;
	esac
}

mounted_on() { # host ("" = head): the mount answers there
	if [[ -z $1 ]]; then
		timeout 10 mountpoint -q "$MNT" 2>/dev/null
	else
		rec_alive "host-$1" && on_host "$1" timeout 10 mountpoint -q "$MNT" 2>/dev/null
	fi
}

# CephFS on the head (the login view: tests and users prepare directories
# there) and on every compute host, each its own client.
mount_cephfs() {
	local i n h
	local -A want=()
	for n in $(fuse_names); do
		h=$(fuse_host "$n")
		spawn "$n" "$LOG/$n.out" "" "$h" ceph-fuse -c "$CEPH_CONF_FILE" \
			--id admin -f "$MNT"
		want[$n]=1
	done
	for ((i = 0; i < 300 && ${#want[@]}; i++)); do
		for n in "${!want[@]}"; do
			rec_alive "$n" || fail_daemon "$n" "$LOG/$n.out"
			mounted_on "$(fuse_host "$n")" && unset "want[$n]"
		done
		((${#want[@]})) && sleep 0.05
	done
	((${#want[@]} == 0)) || die "ceph-fuse did not mount $MNT in 15 s: ${!want[*]} (see $LOG/ceph-fuse*.out)"
	mkdir -p "$BENCH_DIR"
	chmod 1777 "$BENCH_DIR"
	fail_here mounts
}
