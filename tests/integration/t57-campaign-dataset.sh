#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# t57-campaign-dataset: [workload] reuse_dataset = 1 on the real local site:
# a sweep-threads campaign of two elements (2 ranks, then 1 rank, 256 MiB
# files of 1 MiB blocks) held at submit and released one at a time, the
# CephFS data pool's write counter (`rados df`) read, once settled, before
# and after each.  Asserts: both DONE; the first element laid the dataset
# out (read phase `dataset` laid-out) in the campaign's dataset directory,
# each file carries the mark user.iostrata.dataset; the second reused it
# (every phase that lays out says reused, layout_bytes 0) and the pool took
# no more bytes during it than its own timed writes wrote (its read phase
# wrote nothing: a lay-out would add 256 MiB less what the write phase
# wrote); `status` prints the efficiency and the estimate (plan --estimate)
# with its overhead measured from the 2 elements and them against the
# defaults' prediction; a planted mark with another block
# size is refused by iostrata-bench naming the file and the field, and the
# file is not rewritten; `clean` removes the dataset directory, and
# refuses by line (exit 2) the records a group member could add beside it
# (a directory elsewhere, a trailing '..'), their directories left intact.

set -uo pipefail
T=t57-campaign-dataset
# shellcheck source=tests/integration/t5x-lib.bash
source "$(dirname "$0")/t5x-lib.bash"
t5x_init
t5x_need_real

camp=$work/c57x$$
name=$(basename "$camp")
dsdir=$IOSTRATA_BENCH_DIR/iostrata-datasets/$name/size256M-bs1M-per-rank
at_exit rm -rf "${IOSTRATA_BENCH_DIR:?}/iostrata-datasets/$name"
# the pool a new file in the bench directory lands in
probe=$IOSTRATA_BENCH_DIR/$T.$$.probe
: >"$probe" || fail "cannot create $probe"
pool=$(/usr/bin/python3 -c 'import os, sys; print(os.getxattr(sys.argv[1], "ceph.file.layout.pool").decode())' "$probe")
prc=$?
rm -f "$probe"
[[ $prc -eq 0 && -n $pool ]] || fail "no ceph.file.layout.pool on a file in $IOSTRATA_BENCH_DIR (not CephFS?)"

# the data pool's client write bytes, once two reads 3 s apart agree (the
# OSDs report their stats to the manager every few seconds)
pool_wr() {
	local a b
	a=$(wr_once) || return 1
	for _ in $(seq 1 10); do
		sleep 3
		b=$(wr_once) || return 1
		[[ $a == "$b" ]] && { echo "$a"; return 0; }
		a=$b
	done
	echo "$a"
}
wr_once() {
	timeout 60 rados -c "$CEPH_CONF" df --format=json | /usr/bin/python3 -c '
import json, sys
for p in json.load(sys.stdin)["pools"]:
    if p["name"] == sys.argv[1]:
        print(p.get("write_bytes", p.get("write_kb", 0) * 1024)); break
else:
    sys.exit("pool %s not in rados df" % sys.argv[1])' "$pool"
}

site=$work/site/site.conf
t5x_site "$site" workload.file_size=256M workload.runtime=1 workload.reps=1 \
	workload.iodepth=2 workload.bs=1M 'sweep.ranks=2, 1' workload.reuse_dataset=1
start=$SECONDS
"$CAMPAIGN" submit "$site" sweep-threads --campaign="$camp" -- --hold >/dev/null || fail "submit failed"
mapfile -t ids < <(awk -F'\t' '!/^#/ && $3 > 0 { print $3 }' "$camp/elements.tsv")
[[ ${#ids[@]} -eq 2 ]] || fail "submit made ${#ids[@]} jobs, want 2: $(cat "$camp/elements.tsv")"
w=()
w[0]=$(pool_wr) || fail "rados df failed"
for k in 0 1; do
	scontrol release "${ids[$k]}" || fail "scontrol release ${ids[$k]} failed"
	wait_job "${ids[$k]}" 90 || fail "element $k (job ${ids[$k]}) still running after 90 s"
	w[k + 1]=$(pool_wr) || fail "rados df failed"
	log "element $k: the pool took $((w[k + 1] - w[k])) bytes"
done
"$CAMPAIGN" status "$site" sweep-threads --campaign="$camp" --wait=30 >"$work/status.txt"
rc=$?
cat "$work/status.txt"
[[ $rc -eq 0 ]] || fail "status: exit $rc, want 0 (every element DONE): $(tail -n 25 "$camp"/elements/*/slurm-*.out)"
log "2 elements ran in $((SECONDS - start)) s"
grep -E '^efficiency: measured [0-9]+ s of [0-9]+ s \([0-9.]+%\) over 2 element\(s\)$' "$work/status.txt" ||
	fail "status prints no efficiency over 2 elements"
# the estimate (plan --estimate) against the two elements done, its
# per-element overhead measured from their timing records
grep -E '^  overhead per element: [0-9.]+ s, measured: .* over 2 element\(s\)' "$work/status.txt" &&
	grep -E '^  done: 2 element\(s\) took [0-9]+ s, predicted [0-9]+ s by the defaults \([0-9.]+x\); left: 0 element\(s\), 0\.00 h predicted$' "$work/status.txt" ||
	fail "status prints no estimate against the 2 elements done"

/usr/bin/python3 - "$camp" "$dsdir" "${w[0]}" "${w[1]}" "${w[2]}" <<'PY' || fail "the second element did not reuse the first's dataset (above)"
import os, sys, h5py
camp, dsdir, w0, w1, w2 = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:])
def s(v):
    return v.decode() if isinstance(v, bytes) else str(v)
def run(k):
    with h5py.File("%s/elements/%d/threads.h5" % (camp, k), "r") as f:
        out = []
        for i in range(int(f.attrs["nphases"])):
            ph = f["phases/%d" % i]
            wr = sum(int(x) for r in ph["reps"].values() if isinstance(r, h5py.Group)
                     for x in r["ranks"]["bytes_write"])
            out.append((s(ph.attrs["name"]), s(ph.attrs.get("dataset", "?")),
                        int(ph.attrs.get("layout_bytes", -1)), wr))
        return out
r0, r1 = run(0), run(1)
print("element 0:", r0)
print("element 1:", r1)
written1 = sum(p[3] for p in r1)
laid0 = sum(p[2] for p in r0)
written0 = sum(p[3] for p in r0)
d0, d1 = w1 - w0, w2 - w1
slack = 16 << 20
print("pool: element 0 +%d (timed writes %d, lay-out %d), element 1 +%d (timed writes %d)"
      % (d0, written0, laid0, d1, written1))
# the counter method sees a lay-out: element 0's bytes are all there
assert d0 >= written0 + laid0 - slack, ("element 0: the pool counted less than written", d0)
# element 1: its timed writes, nothing more (a lay-out of its file would
# add 256 MiB less what its write phase wrote)
assert d1 <= written1 + slack, ("element 1 wrote more than its timed writes", d1, written1)
assert (256 << 20) - r1[0][3] > 2 * slack, ("the write phase filled the file: the test cannot see a lay-out", r1[0])
lays = [p for p in r0 if p[0] != "write"]
assert lays[0][0] == "read" and lays[0][1] == "laid-out", lays[0]
for p in r1:
    if p[0] != "write":
        assert p[1] == "reused" and p[2] == 0, ("element 1 did not reuse", p)
for k in (0, 1):
    m = os.getxattr(os.path.join(dsdir, "iostrata-bench.%d" % k), "user.iostrata.dataset").decode()
    assert m.startswith("iostrata-dataset v=1 size=268435456 bs=1048576 ") and " layout=per-rank " in m, m
PY

grep -qxF "size256M-bs1M-per-rank	$dsdir" "$camp/datasets.tsv" || fail "datasets.tsv does not list $dsdir: $(cat "$camp/datasets.tsv" 2>&1)"

# a planted mark of another layout is refused by name and field, the file
# not rewritten
f=$dsdir/iostrata-bench.0
/usr/bin/python3 -c '
import os, sys
m = os.getxattr(sys.argv[1], "user.iostrata.dataset").decode().replace(" bs=1048576 ", " bs=4194304 ")
os.setxattr(sys.argv[1], "user.iostrata.dataset", m.encode())' "$f" || fail "cannot plant a mark on $f"
before=$(stat -c '%s %Y' "$f")
seed=$(cksum <<<"$name" | cut -d' ' -f1)
{
	printf '#!/bin/bash\n#SBATCH --job-name=%s\n#SBATCH --nodes=1\n#SBATCH --ntasks=1\n#SBATCH --time=2\n' "$T-planted"
	printf 'srun --mpi=pmix %q --dir=%q --rw=read --bs=1M --size=256M --runtime=1 --reps=1 --reuse-dataset --seed=%s --output=none --quiet\n' \
		"$BENCH" "$dsdir" "$seed"
	printf 'echo $? >%q\n' "$work/planted.rc"
} >"$work/planted.sbatch"
id=$(submit -p compute -o "$work/planted.out" "$work/planted.sbatch") || fail "sbatch failed"
wait_job "$id" 60 || fail "the planted-mark run (job $id) still running after 60 s"
[[ $(cat "$work/planted.rc" 2>/dev/null) == 3 ]] || fail "a planted mismatching mark: exit $(cat "$work/planted.rc" 2>/dev/null), want 3: $(cat "$work/planted.out")"
grep -q "dataset iostrata-bench.0: another layout: bs marked 4194304, this run 1048576: not reused and not rewritten" "$work/planted.out" ||
	fail "the refusal does not name the file and the field: $(cat "$work/planted.out")"
[[ $(stat -c '%s %Y' "$f") == "$before" ]] || fail "$f was rewritten after its mark was refused"
log "a planted mark with another bs: refused, file untouched"

# hostile lines beside the campaign's own (as a group member of a team's
# campaign directory could add): a directory elsewhere with an
# iostrata-datasets component, and one ending in '/..': both refused by
# line, their directories intact, the campaign's dataset removed
mkdir -p "$work/victim/iostrata-datasets/x" "$work/victim2/iostrata-datasets" || fail "mkdir failed"
echo precious >"$work/victim/iostrata-datasets/x/data"
echo precious >"$work/victim2/data"
printf 'x\t%s\nk\t%s\n' "$work/victim/iostrata-datasets/x" "$work/victim2/iostrata-datasets/.." >>"$camp/datasets.tsv"
"$CAMPAIGN" clean "$site" sweep-threads --campaign="$camp" >"$work/clean.txt" 2>&1
rc=$?
cat "$work/clean.txt"
[[ $rc -eq 2 ]] || fail "clean with hostile dataset records: exit $rc, want 2"
grep -q "dataset size256M-bs1M-per-rank: removed $dsdir" "$work/clean.txt" || fail "clean does not say it removed the dataset: $(cat "$work/clean.txt")"
grep -q "$camp/datasets.tsv:2: not a dataset directory of this campaign: .*: refused" "$work/clean.txt" || fail "clean does not refuse datasets.tsv:2"
grep -q "$camp/datasets.tsv:3: a '..' component: .*: refused" "$work/clean.txt" || fail "clean does not refuse datasets.tsv:3"
[[ $(cat "$work/victim/iostrata-datasets/x/data" "$work/victim2/data" 2>/dev/null) == "precious"$'\n'"precious" ]] ||
	fail "clean removed a directory a hostile record named"
[[ ! -e $dsdir && -e $camp/datasets.tsv ]] || fail "clean left $dsdir, or removed datasets.tsv although records were refused"
log "ok"
