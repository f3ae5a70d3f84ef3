#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# t30-results: a run on the local site's compute nodes lands in ONE self-describing
# HDF5 file: it validates against the schema, a real client (h5py) finds
# the documented fields incl. per-node hardware and the Ceph pool sizes
# (checked against `ceph osd pool get`), and every iostrata-report command
# renders it (PNGs exist and are non-trivial); a damaged file next to it is
# named and skipped. The run comes from iostrata-bench when it is built,
# else from iostrata-h5synth run inside the job (real node/job/Ceph
# metadata collected on each node by srun, synthetic I/O numbers).
# Credentials in the monitors' config database (a mgr module's secret key,
# RGW's keystone password) never reach the file: /ceph keeps only the
# allow-listed performance options and counts the rest.

set -euo pipefail

T=t30-results
JOB_TIMEOUT=180
PY=/usr/bin/python3

. "$(dirname "$0")/lib.bash"
require_env SLURM_CONF CEPH_CONF IOSTRATA_BENCH_DIR IOSTRATA_LOCAL_DIR \
	IOSTRATA_SLURM_PARTITION

report=$build/report/iostrata-report
synth=$build/tests/tools/iostrata-h5synth
bench=${T30_BENCH:-$build/mpibench/iostrata-bench}
[[ -x $report ]] || skip "$report not built (needs HDF5, jansson, inih)"
[[ -x $synth ]] || skip "$synth not built"
$PY -c 'import h5py' 2>/dev/null || skip "$PY has no h5py (apt-get install python3-h5py)"

make_work
datadir=$IOSTRATA_BENCH_DIR/$T.$$
make_shared "$datadir"
run=$work/run.h5

# every node of the compute partition
NNODES=$(sinfo -h -p "$IOSTRATA_SLURM_PARTITION" -o %D)
[[ $NNODES =~ ^[0-9]+$ ]] || fail "partition $IOSTRATA_SLURM_PARTITION: no node count (\"$NNODES\")"
nodejson=
for ((i = 0; i < NNODES; i++)); do
	nodejson+=" --node-json=\"$work\"/node.$i.json"
done

# the benchmark, once it links the results writer (else the synthetic run)
if [[ -x $bench && -z ${T30_FORCE_SYNTH:-} ]] &&
	[[ $(nm "$bench" 2>/dev/null) == *" T ios_h5_write_run"* ]]; then
	mode=bench
	# a run marked invalid (noisy box) exits non-zero but still writes
	# its file; validity is t1x's business, the file is ours
	body="srun --mpi=pmix --overcommit \"$bench\" --rw=write,read --bs=1M --size=8M --dir=\"$datadir\" --runtime=2 --reps=2 --interval=1 --output=\"$run\" --quiet || echo \"iostrata-bench exit \$?\""
else
	mode=synth
	# each node reports its own hardware; the writer runs inside the job
	# so the Slurm facts and Ceph facts are real
	body="srun --ntasks-per-node=1 bash -c '\"$synth\" --print-node-json \"$datadir\" > \"$work\"/node.\$SLURM_NODEID.json'
\"$synth\" --nodes=$NNODES --ranks-per-node=$((6 / NNODES)) --phases=write,read --reps=3 --straggler=4 --job-name=$T$nodejson --hw-dir=\"$datadir\" \"$run\""
fi
log "producing the run with $mode"

# credentials in the config database, removed again at exit
secrets_rm() {
	ceph config rm mgr mgr/dashboard/RGW_API_SECRET_KEY >/dev/null 2>&1 ||
		late_fail "ceph config rm mgr mgr/dashboard/RGW_API_SECRET_KEY"
	ceph config rm client rgw_keystone_admin_password >/dev/null 2>&1 ||
		late_fail "ceph config rm client rgw_keystone_admin_password"
}
at_exit secrets_rm
# a module option of a module this mgr may not run: --force if refused
ceph config set mgr mgr/dashboard/RGW_API_SECRET_KEY t30-s3cr3t-dash 2>/dev/null ||
	ceph config set mgr mgr/dashboard/RGW_API_SECRET_KEY t30-s3cr3t-dash --force ||
	fail "ceph config set mgr mgr/dashboard/RGW_API_SECRET_KEY"
ceph config set client rgw_keystone_admin_password t30-s3cr3t-keystone ||
	fail "ceph config set client rgw_keystone_admin_password"
ceph config dump 2>/dev/null | grep -q t30-s3cr3t-keystone ||
	fail "the secrets are not in ceph config dump: nothing to test"

cat >"$work/job.sbatch" <<EOF
#!/bin/bash
#SBATCH --job-name=$T
#SBATCH --nodes=$NNODES
#SBATCH --ntasks=6
#SBATCH --overcommit
#SBATCH --time=5
set -eu
$body
EOF
jobid=$(submit -p "$IOSTRATA_SLURM_PARTITION" -o "$work/job.out" \
	"$work/job.sbatch") || fail "sbatch failed"
log "submitted job $jobid"
wait_job "$jobid" "$JOB_TIMEOUT" || fail "job $jobid still running after ${JOB_TIMEOUT}s"
state=$(job_state "$jobid")
[[ $state == COMPLETED ]] || {
	cat "$work/job.out" >&2 || true
	fail "job $jobid ended in state $state"
}
[[ -s $run ]] || fail "no results file $run"
ls "$work" | grep -q '\.tmp\.' && fail "temporary files left next to $run: $(ls "$work")"

# 1. validator
"$report" validate "$run" || fail "iostrata-report validate rejected $run"

# 2. a real client: h5py checks the documented layout and the metadata
ceph_sizes=$(ceph --conf "$CEPH_CONF" osd pool ls detail -f json 2>/dev/null |
	$PY -c 'import json,sys; print(json.dumps({p["pool_name"]: p["size"] for p in json.load(sys.stdin)}))') ||
	fail "ceph osd pool ls detail failed"
RUN=$run JOBID=$jobid CEPH_SIZES=$ceph_sizes NNODES=$NNODES NODES=$IOSTRATA_SLURM_NODES \
	$PY - <<'EOF' || fail "h5py checks failed"
import json, os, sys
import h5py

def check(cond, what):
    if not cond:
        print("h5py check failed:", what, file=sys.stderr)
        sys.exit(1)

f = h5py.File(os.environ["RUN"], "r")
a = f.attrs
check(a["format"] == "iostrata-results", "format attribute")
check(int(a["schema_version"]) == 2, "schema_version")
for k in ("run_id", "created_utc", "tool", "tool_version", "git_revision",
          "build_options", "command_line", "status"):
    check(isinstance(a[k], str) and k in a, "root attribute " + k)
nn = int(os.environ["NNODES"])
check(int(a["nnodes"]) == nn, "%d nodes" % nn)
nranks = int(a["nranks"])
check(f["ranks"].shape == (nranks,), "ranks dataset")
check(set(f["ranks"].dtype.names) >= {"rank", "node", "host", "clock_skew_ns"}, "ranks members")
check(len(f["config/options"]) > 0, "config options")
# per-node hardware, as attributes/groups and raw
hosts = set()
for i in range(nn):
    n = f["nodes/%d" % i]
    raw = json.loads(n["raw_json"][()])
    check(n.attrs["hostname"] == raw["hostname"], "node %d hostname" % i)
    # every host has its own UTS namespace: its hostname is its node name
    check(n.attrs["hostname"] == n.attrs["slurm_node"], "node %d hostname %s vs Slurm node %s" % (i, n.attrs["hostname"], n.attrs["slurm_node"]))
    hosts.add(n.attrs["slurm_node"])
    check(int(n["cpu"].attrs["online_count"]) >= 1, "node %d cpus online" % i)
    check(int(n["memory"].attrs["online_bytes"]) > 0, "node %d memory online" % i)
    check(int(n["memory"].attrs["total_bytes"]) > 0, "node %d memory total" % i)
    check(len(n["block_devices"]) >= 1, "node %d block devices" % i)
    bd = n["block_devices/0"].attrs
    check("rotational" in bd and "scheduler" in bd and "logical_block_size" in bd, "block device fields")
    check("nics" in n or "nics" in n.attrs, "node %d nics" % i)
    check("ceph" in n["filesystem"].attrs["type"], "node %d filesystem under the target is ceph: %s" % (i, n["filesystem"].attrs["type"]))
check(hosts == set(os.environ["NODES"].split(",")), "Slurm node names %s" % hosts)
# Slurm job facts
check(f["job"].attrs["job_id"] == os.environ["JOBID"], "job id")
check("nodelist" in f["job"].attrs, "job nodelist")
# Ceph facts: pool sizes agree with the cluster
want = json.loads(os.environ["CEPH_SIZES"])
pools = {f["ceph/pools"][p].attrs["name"]: int(f["ceph/pools"][p].attrs["size"]) for p in f["ceph/pools"]}
check(pools == want, "ceph pool sizes %s vs ceph CLI %s" % (pools, want))
check(f["ceph"].attrs["data_pool"] in pools, "data pool of the bench dir")
check(int(f["ceph/osds"].attrs["up"]) == 3, "3 OSDs up")
# the config database: allow-listed options only, the rest counted
raw = f["ceph/raw_json"][()]
raw = raw.decode() if isinstance(raw, bytes) else raw
check("s3cr3t" not in raw and "RGW_API_SECRET_KEY" not in raw and "rgw_keystone_admin_password" not in raw, "a credential in /ceph/raw_json")
cj = json.loads(raw)
check(isinstance(cj["config"], list), "ceph config: a list")
check(int(cj["config_omitted"]) >= 2, "ceph config_omitted %s: the two credentials at least" % cj.get("config_omitted"))
seen = []
def no_secret(name, obj):
    for k, v in obj.attrs.items():
        seen.append(name)
        check("s3cr3t" not in str(v) and "secret" not in k.lower(), "a credential in /ceph/%s attribute %s" % (name, k))
f["ceph"].visititems(no_secret)
check(seen, "no /ceph attributes walked")
# results
nph = int(a["nphases"])
check(nph == 2, "two phases")
for k in range(nph):
    ph = f["phases/%d" % k]
    check(ph.attrs["name"] in ("write", "read"), "phase name")
    for r in range(int(ph.attrs["nreps"])):
        rep = ph["reps/%d" % r]
        check(rep["ranks"].shape == (nranks,), "rep ranks")
        check(rep["lat_hist"].shape == (nranks, 976), "lat_hist shape")
        check(rep["sample_bytes"].shape[0] == nranks, "samples")
        check(rep.attrs["stonewall_bw"] > 0, "stonewall_bw")
        check(int(rep["ranks"]["bytes_write"].sum() + rep["ranks"]["bytes_read"].sum()) == int(rep.attrs["bytes"]), "bytes add up")
print("h5py: %d ranks, %d nodes, pools %s" % (nranks, nn, pools))
EOF

# and not anywhere in the file's bytes either
grep -aq s3cr3t "$run" && fail "a credential of the config database is in $run"

# 3. every report command
"$report" show "$run" >"$work/show.txt" || fail "show failed"
grep -q '^| write ' "$work/show.txt" || fail "show: no write row: $(cat "$work/show.txt")"
grep -q 'stonewall_bw' "$work/show.txt" || fail "show: figure name missing"
"$report" export --format=csv "$run" >"$work/x.csv" || fail "export csv failed"
rows=$(($(wc -l <"$work/x.csv") - 1))
((rows > 0 && rows % 12 == 0)) || fail "export csv: $rows rows"
"$report" export --format=json "$run" | $PY -c 'import json,sys; r=json.load(sys.stdin); assert len(r) > 0 and "stonewall_bw" in {x["figure"] for x in r}' ||
	fail "export json"
"$report" efficiency --site="$top/site/local/site.conf" "$run" >"$work/eff.txt" ||
	fail "efficiency failed: $(cat "$work/eff.txt")"
grep -q 'Replication factor' "$work/eff.txt" || fail "efficiency: no table"
cat >"$work/tiers.conf" <<EOF
[tier "t30 low"]
seq_read_bw = 1MB
seq_write_bw = 1MB

[tier "t30 impossible"]
seq_read_bw = 1000000GB
seq_write_bw = 1000000GB
EOF
# one run on all nodes: every client passes together, none ran alone
# (NOTRUN, exit 3; the acceptance job runs both)
rc=0
"$report" accept --tiers="$work/tiers.conf" --tier="t30 low" "$run" >"$work/acc.txt" || rc=$?
[[ $rc -eq 3 ]] || fail "accept low tier: exit $rc, want 3 (alone not run): $(cat "$work/acc.txt")"
grep -q 'seq_write_bw .*together .*PASS' "$work/acc.txt" || fail "accept: no PASS line"
if "$report" accept --tiers="$work/tiers.conf" --tier="t30 impossible" "$run" >"$work/acc2.txt"; then
	fail "accept passed an impossible tier"
fi
grep -q 'seq_read_bw .*FAIL' "$work/acc2.txt" || fail "accept: no FAIL line"
cp "$run" "$work/run2.h5"
"$report" trend --prometheus="$work/t.prom" "$run" "$work/run2.h5" >"$work/trend.txt" ||
	fail "trend flagged a regression between identical runs: $(cat "$work/trend.txt")"
grep -q '^iostrata_figure{' "$work/t.prom" || fail "trend: no Prometheus textfile"

# plots: timeline of the real run; heatmap and throttle from a small
# synthetic sweep (the local site has no constrained runs to plot yet)
for c in 1 2; do for m in 20G 23G; do
	"$synth" --cpus=$c --mem=$m --seed=$c$RANDOM "$work/hm-$c-$m.h5"
done; done
for d in 20MB 40MB 60MB; do
	"$synth" --disk-bw=$d --phases=write --seed=$RANDOM "$work/th-$d.h5"
done
"$report" plot --kind=timeline --out="$work/p" "$run" >/dev/null || fail "plot timeline"
"$report" plot --kind=heatmap --osds-per-node=3 --out="$work/p" "$work"/hm-*.h5 >/dev/null || fail "plot heatmap"
"$report" plot --kind=throttle --out="$work/p" "$work"/th-*.h5 >/dev/null || fail "plot throttle"
for kind in timeline heatmap throttle; do
	ls "$work"/p-$kind-*.png >/dev/null 2>&1 || fail "no $kind PNG"
	ls "$work"/p-$kind-*.svg >/dev/null 2>&1 || fail "no $kind SVG"
	for png in "$work"/p-$kind-*.png; do
		$PY - "$png" <<'EOF' || fail "$png is not a non-trivial PNG"
import struct, sys, zlib
d = open(sys.argv[1], "rb").read()
assert d[:8] == b"\x89PNG\r\n\x1a\n", "signature"
w, h = struct.unpack(">II", d[16:24])
assert w >= 640 and h >= 480, "size %dx%d" % (w, h)
assert len(d) > 8000, "only %d bytes" % len(d)
EOF
	done
done

# 4. bad input among good: named, skipped, exit code 1
head -c 3000 "$run" >"$work/trunc.h5"
if "$report" show "$run" "$work/trunc.h5" >"$work/show2.txt" 2>"$work/show2.err"; then
	fail "show exited 0 with a truncated file"
fi
grep -q "trunc.h5" "$work/show2.err" || fail "truncated file not named: $(cat "$work/show2.err")"
grep -q '^| write ' "$work/show2.txt" || fail "the good file was not shown next to the bad one"
log "pass ($mode, $(stat -c %s "$run") bytes)"
