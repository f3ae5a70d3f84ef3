#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# t31-hosts: every host that took part has its record in the results file,
# collected on that host, with its role.  One heterogeneous job on the
# local site: the compute hosts (component 0; compute first, see t00) and
# the storage host s1 (component 1, exclusive, shaped by the SPANK plugin
# with --iostrata-cpus=1).  The job scripts' ios_host_facts runs
# iostrata-facts on every host; then
#   plain: iostrata-bench on the compute hosts only, --host-facts: /hosts
#          holds c1, c2 (client) and s1 (storage, with the plugin's shape);
#   het:   iostrata-bench over both components (a rank on s1), no
#          --host-facts: s1's record comes from its own rank (mpi_library
#          set), role storage from the plugin's applied file.
# Both files are checked with h5py, independently of the project's reader,
# and pass iostrata-report validate; show --hosts prints the records.

T=t31-hosts
JOB_TIMEOUT=170
PY=/usr/bin/python3

. "$(dirname "$0")/t2x-lib.bash"
require_env SLURM_CONF IOSTRATA_COMPUTE_PARTITION IOSTRATA_STORAGE_PARTITION \
	IOSTRATA_COMPUTE_NODES

bench=$build/mpibench/iostrata-bench
facts=$build/facts/iostrata-facts
report=$build/report/iostrata-report
[[ -x $bench && -x $facts && -x $report ]] || skip "iostrata-bench, iostrata-facts or iostrata-report not built"
$PY -c 'import h5py' 2>/dev/null || skip "$PY has no h5py (apt-get install python3-h5py)"

ensure_plugin
snapshot
NC=$(tr ',' '\n' <<<"$IOSTRATA_COMPUTE_NODES" | wc -l)
chmod 755 "$work"
edir=$work/element
mkdir -p "$edir"
chmod 1777 "$edir"

cat >"$work/job.sbatch" <<EOF
#!/bin/bash
#SBATCH --job-name=$T
#SBATCH --time=5
#SBATCH --partition=$IOSTRATA_COMPUTE_PARTITION --nodes=$NC --ntasks=$NC --overcommit
#SBATCH hetjob
#SBATCH --partition=$IOSTRATA_STORAGE_PARTITION --nodes=1 --ntasks=1 -w $T2X_HOST --exclusive --iostrata-cpus=1
set -u
source "$top/jobscripts/iostrata-jobs.sh"
FACTS="$facts" IOS_EDIR="$edir"
ios_soft_fail() { echo "ios_soft_fail: \$*" >&2; }
# storage component 1, clients component 0
mapfile -t hostf < <(ios_host_facts 1 0)
echo "host facts: \${hostf[*]}"
# a transport variable the record must show as requested (harmless here)
export UCX_WARN_UNUSED_ENV_VARS=n
srun --het-group=0 --mpi=pmix --overcommit "$bench" --backend=null --rw=write \
	--bs=1M --size=4M --runtime=1 --reps=1 --dir="$work" --summary=none \
	--output="$edir/plain.h5" --quiet "\${hostf[@]}" || echo "plain exit \$?"
IOS_HET_STATE_DIR="$work" ios_het_srun --het-group=0,1 --mpi=pmix --overcommit -- "$bench" --backend=null --rw=write \
	--bs=1M --size=4M --runtime=1 --reps=1 --dir="$work" --summary=none \
	--output="$edir/het.h5" --quiet || echo "het exit \$?"
EOF
jobid=$(submit -o "$work/job.out" "$work/job.sbatch") || fail "sbatch failed"
log "submitted heterogeneous job $jobid"
wait_job "$jobid" "$JOB_TIMEOUT" || fail "job $jobid still running after ${JOB_TIMEOUT}s"
echo "---- job output"
cat "$work/job.out" || true
echo "----"
expect_restored "after job $jobid"
ls "$edir"/host-facts-*.json >/dev/null 2>&1 || fail "no host-facts files in $edir"
for h5 in plain het; do
	[[ -s $edir/$h5.h5 ]] || fail "no results file $edir/$h5.h5"
	"$report" validate "$edir/$h5.h5" || fail "iostrata-report validate rejected $h5.h5"
done

EDIR=$edir STORAGE=$T2X_HOST CLIENTS=$IOSTRATA_COMPUTE_NODES $PY - <<'PYEOF' || fail "h5py checks of the host records failed"
import json, os, sys
import h5py

def check(cond, what):
    if not cond:
        print("h5py check failed:", what, file=sys.stderr)
        sys.exit(1)

storage = os.environ["STORAGE"]
clients = os.environ["CLIENTS"].split(",")

def hosts(path):
    f = h5py.File(path, "r")
    check(int(f.attrs["schema_version"]) == 2, path + ": schema_version 2")
    n = int(f.attrs["nhosts"])
    check(len(f["hosts"]) == n, path + ": nhosts %d groups %d" % (n, len(f["hosts"])))
    out = {}
    for i in range(n):
        g = f["hosts/%d" % i]
        raw = json.loads(g["raw_json"][()])
        # the attributes mirror the JSON
        check(g.attrs["role"] == raw["role"], path + ": host %d role attribute" % i)
        name = raw["slurm_node"]
        check(name not in out, path + ": %s recorded twice" % name)
        # collected on the host itself: its own UTS namespace's name
        check(raw["hostname"] == name, path + ": host %s hostname %s" % (name, raw["hostname"]))
        out[name] = raw
    return out

def check_storage(path, h, source_word):
    check(h["role"] == "storage", path + ": %s role %s (%s)" % (storage, h["role"], h["role_source"]))
    check(source_word in h["role_source"], path + ": %s role_source %r" % (storage, h["role_source"]))
    shape = h["shape"]
    check(isinstance(shape, dict), path + ": %s shape %r" % (storage, shape))
    check(shape["requested"]["cpus"] in (1, "1"), path + ": requested cpus %r" % shape["requested"])
    check("applied" in shape, path + ": no applied shape")
    for k in ("frequency", "microcode"):
        check(k in h["cpu"], path + ": cpu.%s" % k)
    for k in ("system", "slurm", "infiniband", "block_devices", "nics"):
        check(k in h, path + ": " + k)
    check(h["slurm"]["conf"] == os.environ.get("SLURM_CONF", h["slurm"]["conf"]), "slurm.conf path")
    check(h["slurm"]["SelectType"] not in ("unknown",), path + ": SelectType from slurm.conf")
    check_slurm_running(path, h)

def check_slurm_running(path, h):
    # the running Slurm, asked on the host: one build and one Slurm here
    sl = h["slurm"]
    for k in ("version_slurmctld", "version_slurmd"):
        check(sl[k] != "unknown", path + ": %s %s: %s" % (h["slurm_node"], k, sl.get("why_unknown", {}).get(k)))
    check(h["slurm_node"] in sl["version_slurmd_source"], path + ": version_slurmd_source %r" % sl["version_slurmd_source"])
    if sl["version_built"] != "unknown":
        check(sl["version_mismatch"] == "no", path + ": version_mismatch %r" % sl["version_mismatch"])

plain = hosts(os.environ["EDIR"] + "/plain.h5")
check(set(plain) == set(clients) | {storage}, "plain: hosts %s" % sorted(plain))
for c in clients:
    check(plain[c]["role"] == "client", "plain: %s role %s" % (c, plain[c]["role"]))
    check(plain[c]["mpi_library"] != "unknown", "plain: %s collected by its rank" % c)
    check_slurm_running("plain", plain[c])
    # the transport: what was requested, from the environment and MPI_T
    tr = plain[c]["mpi_transport"]
    check(tr["requested"]["env"].get("UCX_WARN_UNUSED_ENV_VARS") == "n", "plain: %s mpi_transport env %r" % (c, tr["requested"]["env"]))
    check(isinstance(tr["requested"]["cvars"].get("pml"), str) and tr["requested"]["cvars"]["pml"] != "unknown", "plain: %s MPI_T pml %r" % (c, tr["requested"]["cvars"]))
    check(tr["selected"] == "unknown" and "not known reliably" in tr["why_unknown"]["selected"], "plain: %s selected %r" % (c, tr["selected"]))
check_storage("plain", plain[storage], "iostrata-facts")
check(plain[storage]["mpi_library"] == "unknown", "plain: the storage record is iostrata-facts'")
check(plain[storage]["mpi_transport"] == "unknown", "plain: no transport in iostrata-facts' record")

het = hosts(os.environ["EDIR"] + "/het.h5")
check(set(het) == set(clients) | {storage}, "het: hosts %s" % sorted(het))
check_storage("het", het[storage], "IOSTRATA_APPLIED_FILE")
check(het[storage]["mpi_library"] != "unknown", "het: the storage record comes from its rank")
for c in clients:
    check(het[c]["role"] == "unknown", "het: %s role %s without --host-facts" % (c, het[c]["role"]))
# the cluster side of the run: /ceph, read on the head by rank 0
f = h5py.File(os.environ["EDIR"] + "/plain.h5", "r")
if "ceph" in f:
    c = json.loads(f["ceph/raw_json"][()])
    check(c.get("error") is None, "ceph: %s" % c.get("error"))
    check(c["health"]["status"].startswith("HEALTH_"), "ceph health %r" % c["health"])
    check(isinstance(c["osd_flags"]["noscrub"], bool), "ceph osd_flags %r" % c["osd_flags"])
    osds = [n for n in c["osd_tree"] if n.get("type") == "osd"]
    check(len(osds) == len(c["osd_metadata"]) >= 1, "ceph osd_tree / osd_metadata")
    check(all("hostname" in m for m in c["osd_metadata"]), "osd_metadata hostname")
    check(isinstance(c["config"], list), "ceph config dump")
    print("t31: ceph %s, %d OSDs, flags %s" % (c["health"]["status"], len(osds), c["osd_flags"]["flags"]))
else:
    print("t31: no /ceph (no ceph.conf in the job)")
sl = plain[storage]["slurm"]
print("t31: Slurm built %s, slurmctld %s, slurmd on %s %s, mismatch %s" % (sl["version_built"], sl["version_slurmctld"], storage, sl["version_slurmd"], sl["version_mismatch"]))
print("t31: plain and het runs: %d hosts each, %s storage with its shape" % (len(plain), storage))
PYEOF

"$report" show --hosts "$edir/plain.h5" >"$work/show.txt" || fail "show --hosts failed"
grep -q "host [0-9]: $T2X_HOST ($T2X_HOST), role storage" "$work/show.txt" ||
	{ cat "$work/show.txt"; fail "show --hosts does not print $T2X_HOST as storage"; }
grep -q '^    shape    {.*"requested"' "$work/show.txt" || fail "show --hosts prints no shape"
grep -q '^    running  slurmctld [0-9]' "$work/show.txt" || fail "show --hosts prints no running Slurm version"
grep -q '^    mpi req  pml ' "$work/show.txt" || fail "show --hosts prints no requested MPI transport"
grep -E '^  host [0-9]+:|^    (shape|slurm|running|mpi|mpi req) ' "$work/show.txt"
log "ok"
