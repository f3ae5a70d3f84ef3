#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# t11-bench-faults: iostrata-bench under faults, on the local site.
#  1. bad input: exit 2, a message naming the option, nothing created;
#     a foreign file where a rank file would go is left untouched.
#  2. injected I/O error: --dir on a small full tmpfs (ENOSPC; one per
#     compute host, mounted in that host's own mount namespace), sbatch on
#     the compute nodes: invalid run, the error recorded (also in the HDF5 file when the
#     writer is built), exit 1, rank files removed; again through libaio
#     (4 in flight): a short transfer is retried to its errno.
#  3. --verify: a clean write,read passes; a deliberately corrupted block
#     of one rank's kept file is caught (invalid, exit 1, rank named).
#  4. watchdog: a stopped rank 0 (SIGSTOP) does not hang the job: it ends
#     with a non-zero exit within the watchdog bound.
#  5. a crashed rank (SIGSEGV) reports its rank, host, pid and stage with
#     a backtrace, and still dies of the signal.

set -euo pipefail
T=t11-bench-faults
. "$(dirname "$0")/t1x-lib.bash"

full=$work/full
localsite=$top/site/local/localsite
read -r -a chosts <<<"${IOSTRATA_SLURM_NODES//,/ }"
# The jobs see the compute hosts' mounts, not the head's: one small tmpfs
# per compute host (each host's scratch full), unmounted at exit.
mount_full_on_hosts() {
	local h
	mkdir -p "$full"
	for h in "${chosts[@]}"; do
		"$localsite" exec "$h" -- mount -t tmpfs -o size=10M,mode=1777 tmpfs "$full" || return 1
		at_exit umount_full "$h"
	done
}
umount_full() { # host
	if "$localsite" exec "$1" -- mountpoint -q "$full" 2>/dev/null; then
		"$localsite" exec "$1" -- umount "$full" || late_fail "umount $full on $1 failed"
	fi
}
full_left() { # rank files on the full filesystems, all hosts together
	local h n=0 k
	for h in "${chosts[@]}"; do
		k=$("$localsite" exec "$h" -- find "$full" -name 'iostrata-bench.*' | wc -l)
		n=$((n + k))
	done
	echo "$n"
}

# 1. bad input, without MPI launch (singleton MPI).
expect_usage() {
	local want=$1 out rc
	shift
	set +e
	out=$("$bench" "$@" 2>&1)
	rc=$?
	set -e
	[[ $rc == 2 ]] || fail "\"$*\": exit $rc, expected 2: $out"
	[[ $out == *"$want"* ]] || fail "\"$*\": message \"$out\" lacks \"$want\""
}
mkdir -p "$work/bad"
expect_usage '--bs' --dir="$work/bad" --bs=8Q --output=none
expect_usage 'larger than --size' --dir="$work/bad" --bs=8M --size=1M --output=none
expect_usage '--iodepth' --dir="$work/bad" --iodepth=0 --output=none
expect_usage '--dir: missing' --output=none
expect_usage 'unknown option "--nope"' --dir="$work/bad" --nope
expect_usage '--dir: stat' --dir="$work/missing" --size=1M --bs=4k --output=none
expect_usage 'not a multiple of 512' --dir="$work/bad" --bs=1000 --size=1000000 --output=none
echo precious >"$work/bad/iostrata-bench.0"
expect_usage 'not created by iostrata' --dir="$work/bad" --size=1M --bs=4k --runtime=1 --reps=1 --output="$work/bad/out.h5"
[[ $(cat "$work/bad/iostrata-bench.0") == precious ]] || fail "foreign file was modified"
rm "$work/bad/iostrata-bench.0"
expect_usage 'free' --dir="$work/bad" --size=1P --bs=4k --output=none
touch "$work/bad/exists.h5"
expect_usage '--output' --dir="$work/bad" --size=1M --bs=4k --output="$work/bad/exists.h5"
n=$(find "$work/bad" -mindepth 1 | wc -l)
[[ $n == 1 ]] || fail "bad input created files: $(ls "$work/bad")"
log "bad input rejected with exit 2, nothing created"

# enospc_recorded H5 [all-errno]: the results file records the repetition
# invalid with an ENOSPC error among its errors (all-errno: and every
# recorded failure is an errno, no short count left unexplained).
enospc_recorded() {
	/usr/bin/python3 - "$@" <<'PY'
import sys, h5py, errno
f = h5py.File(sys.argv[1], "r")
rep = f["phases/0/reps/0"]
assert int(rep.attrs["valid"]) == 0
errs = rep["errors"][:]
assert len(errs) >= 1
assert any(int(e["result"]) == -errno.ENOSPC for e in errs), errs
if sys.argv[2:] == ["all-errno"]:
    assert all(int(e["result"]) < 0 for e in errs), errs
PY
}

# 2. ENOSPC on a small tmpfs per compute host: its 3 ranks x 4 MiB do not
# fit in 10 MiB.
mount_full_on_hosts || skip "cannot mount a tmpfs on the compute hosts"
run_job full 6 120 "$bench" --rw=write --bs=1M --size=4M --dir="$full" \
	--runtime=2 --reps=1 --force --output="$(h5out full)" \
	--summary=json --quiet
[[ $(job_rc full) == 1 ]] || fail "full filesystem: exit $(job_rc full), expected 1: $(job_why full)"
json_of full >"$work/full.json"
/usr/bin/python3 - "$work/full.json" <<'PY' || fail "ENOSPC summary: $(cat "$work/full.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["valid"] is False
assert any("No space left on device" in r for r in d["reasons"]), d["reasons"]
assert d["phases"][0]["reps"][0]["errors"] >= 1
PY
left=$(full_left)
[[ $left == 0 ]] || fail "$left rank files left on the full filesystem"
if [[ $H5 == yes ]]; then
	enospc_recorded "$work/full.h5" || fail "ENOSPC not recorded in the HDF5 file"
fi
log "ENOSPC: invalid run, error recorded, exit 1"

# 2b. The same through libaio, 4 in flight: a short transfer is retried
# (synchronously) so that the errno behind it is what gets recorded.
run_job fullaio 6 120 "$bench" --rw=write --bs=1M --size=4M --dir="$full" \
	--ioengine=libaio --iodepth=4 --runtime=2 --reps=1 --force \
	--output="$(h5out fullaio)" --summary=json --quiet
[[ $(job_rc fullaio) == 1 ]] || fail "full filesystem, libaio: exit $(job_rc fullaio), expected 1: $(job_why fullaio)"
left=$(full_left)
[[ $left == 0 ]] || fail "libaio: $left rank files left on the full filesystem"
if [[ $H5 == yes ]]; then
	enospc_recorded "$work/fullaio.h5" all-errno ||
		fail "libaio ENOSPC: short transfers not retried to their errno"
fi
for h in "${chosts[@]}"; do
	umount_full "$h"
done
log "ENOSPC through libaio: short transfers retried, errno recorded"

# 3. --verify: clean, then one corrupted block.
vdir=$work/verify
mkdir -p "$vdir"
run_job vclean 6 120 "$bench" --rw=write,read --verify --reorder --bs=64k \
	--size=1M --dir="$vdir" --runtime=1 --reps=1 --seed=5 --keep \
	--output=none --summary=json --quiet
[[ $(job_rc vclean) == 0 ]] || fail "clean --verify run: exit $(job_rc vclean): $(job_why vclean)"
printf 'CORRUPT' | dd of="$vdir/iostrata-bench.3" bs=1 seek=$((65536 * 7 + 100)) conv=notrunc status=none
run_job vbad 6 120 "$bench" --rw=read --verify --reorder --bs=64k \
	--size=1M --dir="$vdir" --runtime=1 --reps=1 --seed=5 \
	--output=none --summary=json --quiet
[[ $(job_rc vbad) == 1 ]] || fail "corrupted --verify run: exit $(job_rc vbad), expected 1"
# rank 3's file is read by rank 3 - ranks per node (IOR -C shift), which
# runs on node (that rank / ranks per node) of the partition
rpn=$((6 / NNODES))
reader=$(((3 - rpn + 6) % 6))
rnode=${chosts[$((reader / rpn))]}
json_of vbad | grep -q "rank $reader ($rnode) failed --verify" ||
	fail "corruption not reported for rank $reader ($rnode): $(json_of vbad)"
left=$(find "$vdir" -name 'iostrata-bench.*' | wc -l)
[[ $left == 0 ]] || fail "$left rank files left after the verify run (no --keep)"
log "--verify: clean data passes, a corrupted block is caught"

# 4. A stopped rank: the watchdog ends the job (bound: runtime + 30 s).
{
	printf '#!/bin/bash\n#SBATCH --nodes=%s\n#SBATCH --ntasks=%s\n#SBATCH --overcommit\n#SBATCH --time=5\n' "$NNODES" "$NNODES"
	printf 'srun --mpi=pmix --overcommit %q --backend=null --bs=4k --size=1M --runtime=2 --reps=3 --output=none --quiet --summary=none &\nspid=$!\n' "$bench"
	printf 'sleep 3\n'
	printf 'pid=$(scontrol listpids "$SLURM_JOB_ID" 2>/dev/null | awk '"'"'$3 == 0 && $5 == 0 {print $1; exit}'"'"')\n'
	printf 'echo "stopping rank 0: pid $pid"\n'
	printf '[[ -n $pid ]] && kill -STOP "$pid"\n'
	printf 'start=$SECONDS\nwait $spid\necho $? > %q\necho "ended after $((SECONDS - start)) s"\n' "$work/wd.rc"
	printf '[[ -n $pid ]] && kill -CONT "$pid" 2>/dev/null; kill -KILL "$pid" 2>/dev/null\ntrue\n'
} >"$work/wd.sbatch"
jobid=$(submit -p "$IOSTRATA_SLURM_PARTITION" -o "$work/wd.out" "$work/wd.sbatch") ||
	fail "sbatch wd failed"
wait_job "$jobid" 120 || fail "watchdog job still running after 120 s: $(cat "$work/wd.out")"
grep -q 'stopping rank 0: pid [0-9]' "$work/wd.out" || skip "could not find rank 0's pid (scontrol listpids): $(cat "$work/wd.out")"
[[ -f $work/wd.rc && $(cat "$work/wd.rc") != 0 ]] || fail "stopped rank: job exit $(cat "$work/wd.rc" 2>/dev/null), expected non-zero: $(cat "$work/wd.out")"
grep -q 'watchdog' "$work/wd.out" || fail "no watchdog message: $(cat "$work/wd.out")"
log "watchdog: a stopped rank ends the job ($(grep 'ended after' "$work/wd.out"))"

# 5. A crashing rank says which rank, host and stage, with a backtrace,
# and still dies of the signal (srun: "Segmentation fault").
{
	printf '#!/bin/bash\n#SBATCH --nodes=%s\n#SBATCH --ntasks=%s\n#SBATCH --overcommit\n#SBATCH --time=5\n' "$NNODES" "$NNODES"
	printf 'echo "batch host $(hostname)"\n'
	printf 'srun --mpi=pmix --overcommit %q --backend=null --bs=4k --size=1M --runtime=3 --reps=3 --output=none --quiet --summary=none &\nspid=$!\n' "$bench"
	printf 'sleep 3\n'
	printf 'pid=$(scontrol listpids "$SLURM_JOB_ID" 2>/dev/null | awk '"'"'$3 == 0 && $5 == 0 {print $1; exit}'"'"')\n'
	printf 'echo "crashing rank 0: pid $pid"\n'
	printf '[[ -n $pid ]] && kill -SEGV "$pid"\n'
	printf 'wait $spid\necho $? > %q\ntrue\n' "$work/crash.rc"
} >"$work/crash.sbatch"
jobid=$(submit -p "$IOSTRATA_SLURM_PARTITION" -o "$work/crash.out" "$work/crash.sbatch") ||
	fail "sbatch crash failed"
wait_job "$jobid" 120 || fail "crash job still running after 120 s: $(cat "$work/crash.out")"
grep -q 'crashing rank 0: pid [0-9]' "$work/crash.out" || fail "could not find rank 0's pid (scontrol listpids): $(cat "$work/crash.out")"
bhost=$(sed -n 's/^batch host //p' "$work/crash.out")
crashpid=$(sed -n 's/^crashing rank 0: pid //p' "$work/crash.out")
grep -q "^iostrata-bench: rank 0 on $bhost (pid $crashpid): SIGSEGV during \".*\"; backtrace:\$" "$work/crash.out" ||
	fail "no crash report naming rank 0 on $bhost (pid $crashpid): $(cat "$work/crash.out")"
grep -q 'iostrata-bench(' "$work/crash.out" || fail "no backtrace frame of iostrata-bench: $(cat "$work/crash.out")"
grep -q 'Segmentation fault' "$work/crash.out" || fail "srun does not report the rank's SIGSEGV: $(cat "$work/crash.out")"
[[ -f $work/crash.rc && $(cat "$work/crash.rc") != 0 ]] || fail "crashed rank: job exit $(cat "$work/crash.rc" 2>/dev/null), expected non-zero"
log "a crashed rank: $(grep -m1 '^iostrata-bench: rank 0 on' "$work/crash.out")"

expect_not_drained "at the end"
log "PASS"
