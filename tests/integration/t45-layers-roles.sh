#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# t45-layers-roles: a layered run as a heterogeneous job of two clients
# (c1 c2, the compute component, first) and two storage hosts (s1 s2): the
# roles come from the job.  The results file (read with h5py) names which
# host ran which layer: the device layer on s1 and s2 only (its phases'
# ranks are the storage hosts' ranks), protocol and full stack on c1 and c2
# only, the network between storage hosts and between clients and storage
# hosts (no client-client pair); the ceilings count 2 device targets, 2
# clients and the 3 OSD hosts; --summary=json prints one JSON object with
# the same; the file passes iostrata-report validate.

set -euo pipefail
T=t45-layers-roles
. "$(dirname "$0")/t4x-lib.bash"
t4x_require
require_env IOSTRATA_STORAGE_PARTITION IOSTRATA_COMPUTE_PARTITION

make_work
chmod 755 "$work"
cdir=$T.$$
make_shared "$IOSTRATA_CEPHFS_MOUNT/$cdir"
devdir=$work/dev
mkdir -p "$devdir"/{0,1}
chmod 1777 "$devdir"/{0,1}
h5=$work/layers.h5
pool=${IOSTRATA_RADOS_POOL:-bench}

cat >"$work/layers.sbatch" <<EOF
#!/bin/bash
#SBATCH --job-name=$T
#SBATCH --time=5
#SBATCH --partition=$IOSTRATA_COMPUTE_PARTITION --nodelist=c1,c2 --nodes=2 --ntasks=2 --overcommit
#SBATCH hetjob
#SBATCH --partition=$IOSTRATA_STORAGE_PARTITION --nodelist=s1,s2 --nodes=2 --ntasks=2 --overcommit
# srun before Slurm 24.05.4 can hang after every task of a het step had
# ended (SchedMD ticket 16817): ios_het_srun stops it, the tasks' status
source "$top/jobscripts/iostrata-jobs.sh"
IOS_JOB=$T IOS_HET_STATE_DIR=$work ios_het_srun --het-group=0,1 --mpi=pmix --overcommit -- "$bench" --layers \\
	--layers-device-dir="$devdir/%n" --rados-pool="$pool" \\
	--dir="$IOSTRATA_CEPHFS_MOUNT/$cdir" --bs=1M --size=16M --runtime=1 \\
	--reps=1 --interval=1 --layers-net-time=0.3 --summary=json \\
	--output="$h5" >"$work/json" 2>"$work/err"
echo "exit \$?"
EOF
jobid=$(submit -o "$work/job.out" "$work/layers.sbatch") || fail "sbatch (heterogeneous layered job) failed"
log "submitted heterogeneous layered job $jobid"
wait_job "$jobid" 240 || fail "layered job $jobid still queued/running after 240 s"
cat "$work/job.out"
echo "---- stderr"
cat "$work/err" || true
echo "---- stdout"
cat "$work/json" || true
echo "----"
grep -Eq '^exit [01]$' "$work/job.out" || fail "layered run: $(grep '^exit' "$work/job.out" || echo 'no exit line'), want 0 or 1"
[[ -s $h5 ]] || fail "no results file $h5"

/usr/bin/python3 - "$h5" "$work/json" <<'PY' || fail "the results file or the JSON summary does not say who ran which layer"
import json, os, sys, h5py
f = h5py.File(sys.argv[1], "r")
cfg = {k: (v.decode() if isinstance(v, bytes) else str(v)) for k, v in f["config"].attrs.items()}
def want(key, value):
    if cfg.get(key) != value:
        sys.exit("config %s = %r, want %r" % (key, cfg.get(key), value))
want("layers.roles", "hetjob")
want("layers.roles_known", "1")
want("layers.device.hosts", "s1,s2")
want("layers.protocol.hosts", "c1,c2")
want("layers.fullstack.hosts", "c1,c2")
want("layers.network.hosts", "c1,c2,s1,s2")
want("layers.device_ranks", "2")
want("layers.clients", "2")
want("layers.storage_nodes", "3")  # the OSD hosts (osd metadata)
want("layers.osds_per_host", "s1=1,s2=1,s3=1")
# the phases' ranks are the hosts' ranks (world ranks into /ranks)
host = {int(r["rank"]): r["host"].decode() for r in f["ranks"][:]}
ran = {}
for k in f["phases"]:
    ph = f["phases"][k]
    layer = ph.attrs["layer"]
    layer = layer.decode() if isinstance(layer, bytes) else str(layer)
    for r in ph["reps"]:
        for row in ph["reps"][r]["ranks"][:]:
            ran.setdefault(layer, set()).add(host[int(row["rank"])])
for layer, hosts in (("device", {"s1", "s2"}), ("protocol", {"c1", "c2"}), ("fullstack", {"c1", "c2"})):
    if ran.get(layer) != hosts:
        sys.exit("layer %s ran on %s, want %s" % (layer, sorted(ran.get(layer, ())), sorted(hosts)))
# network: 4 leaders, every ordered pair but c1 <-> c2
names = ["c1", "c2", "s1", "s2"]
pairs = sorted((names[int(p["src_node"])], names[int(p["dst_node"])]) for p in f["network"][:])
wantp = sorted((a, b) for a in names for b in names if a != b and not (a[0] == "c" and b[0] == "c"))
if pairs != wantp:
    sys.exit("network pairs %s, want %s" % (pairs, wantp))
rows = {r["name"].decode(): r for r in f["layers"][:]}
for l in ("device", "network", "network-mpi", "protocol", "fullstack"):
    if l not in rows:
        sys.exit("no %s row in /layers (have %s)" % (l, sorted(rows)))
if not rows["network"]["source"].decode().startswith("TCP"):
    sys.exit("network row source %r, want the TCP stream test" % rows["network"]["source"])
v = f.attrs["verdict"]
v = v.decode() if isinstance(v, bytes) else str(v)
if "device layer ran on 2 storage hosts, protocol and full stack on 2 client hosts" not in v:
    sys.exit("verdict does not name the roles: %s" % v[:400])
# the job record: rank 0 (a client) read SLURM_JOB_PARTITION "storage",
# the last component's; the record names each component's partition
job = json.loads(f["job"]["raw_json"][()])
parts = "%s,%s" % (os.environ["IOSTRATA_COMPUTE_PARTITION"], os.environ["IOSTRATA_STORAGE_PARTITION"])
if job.get("partition") != parts or job.get("het_size") != 2:
    sys.exit("job record: partition %r het_size %r, want %r and 2" % (job.get("partition"), job.get("het_size"), parts))
comp = [(c.get("partition"), c.get("nodelist")) for c in job.get("het_components", [])]
if comp != [(os.environ["IOSTRATA_COMPUTE_PARTITION"], "c[1-2]"), (os.environ["IOSTRATA_STORAGE_PARTITION"], "s[1-2]")]:
    sys.exit("job record: het_components %s" % comp)
# --summary=json: one object, the same roles
j = json.load(open(sys.argv[2]))
if j.get("roles") != "hetjob":
    sys.exit("JSON roles %r" % j.get("roles"))
jl = {l["name"]: l for l in j.get("layers", [])}
if jl.get("device", {}).get("hosts") != "s1,s2" or jl.get("protocol", {}).get("hosts") != "c1,c2":
    sys.exit("JSON layers do not name the hosts: %s" % json.dumps(j.get("layers"))[:400])
if "Roles:" not in j.get("verdict", ""):
    sys.exit("JSON verdict lacks the roles")
print("roles: device %s, protocol %s, network %d pairs" % (cfg["layers.device.hosts"], cfg["layers.protocol.hosts"], len(pairs)))
for l in ("device", "network", "network-mpi", "protocol", "fullstack"):
    print("  %-12s write %8.1f MB/s read %8.1f MB/s" % (l, rows[l]["write_bw"] / 1e6, rows[l]["read_bw"] / 1e6))
PY
report=$build/report/iostrata-report
[[ -x $report ]] || fail "$report not built"
"$report" validate "$h5" || fail "iostrata-report validate rejected $h5"
# the report over the file: its layers on groups of the ranks (storage
# hosts, clients) keep their own per-node rates (it overflowed them once)
"$report" show "$h5" >"$work/show" 2>&1 || fail "iostrata-report show failed on $h5: $(tail -5 "$work/show")"
"$report" layers "$h5" >"$work/layers" 2>&1 || fail "iostrata-report layers failed on $h5: $(tail -5 "$work/layers")"
grep -q '^Roles: the device layer ran on 2 storage hosts, protocol and full stack on 2 client hosts' "$work/layers" ||
	fail "iostrata-report layers does not give the roles: $(head -20 "$work/layers")"
log "PASS"
