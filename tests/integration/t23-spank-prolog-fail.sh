#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t23-spank-prolog-fail: the prolog fails.
#  a) beyond tolerance: memory offlining stops at the policy's deadline far
#     above the request; the prolog restores first, the job fails with the
#     reason in its output, the node is whole and not drained.
#  b) the state directory is unsafe (world-writable): nothing can be
#     journaled, so nothing is changed and the prolog fails: Slurm drains
#     the node (expected here) and holds the job; the test resumes it.
. "$(dirname "$0")/t2x-lib.bash"

ensure_plugin
snapshot
P=$IOSTRATA_STORAGE_PARTITION
cp -p "$T2X_POLICY" "$work/policy.orig"
t2x_cleanup() {
	cp -p "$work/policy.orig" "$T2X_POLICY"
	chmod 0755 "$T2X_STATE"
}

# a) a deadline of 1 ms: at most one block goes offline
sed -i 's/^mem_total_timeout.*/mem_total_timeout = 1ms/' "$T2X_POLICY"
id=$(submit -p "$P" -w s1 --exclusive -t 2 --iostrata-cpus=1 --iostrata-mem=8G \
	-o "$work/a.out" --wrap='echo SCRIPT-RAN') || fail "sbatch failed"
wait_job "$id" 90 || fail "job $id did not end"
cat "$work/a.out"
[ "$(job_state "$id")" = FAILED ] || fail "job $id: $(job_state "$id"), want FAILED"
grep -q "iostrata-mem=8G not reached.*node restored" "$work/a.out" || fail "no tolerance message for the user"
! grep -q SCRIPT-RAN "$work/a.out" || fail "the script ran on a node that missed its shape"
expect_restored "beyond tolerance"
expect_not_drained "beyond tolerance"
cp -p "$work/policy.orig" "$T2X_POLICY"
log "beyond tolerance: restored, job failed with the reason, node up"

# b) unsafe state directory: prolog error, node drained, nothing changed
T2X_EXPECT_DRAIN=1
chmod 0777 "$T2X_STATE"
id=$(submit -p "$P" -w s1 --exclusive -t 2 --iostrata-cpus=1 \
	-o /dev/null --wrap='echo SCRIPT-RAN') || fail "sbatch failed"
for _ in $(seq 1 60); do
	[ -n "$(drained)" ] && break
	sleep 1
done
[ "$(drained)" = s1 ] || fail "s1 not drained after the prolog error (drained: \"$(drained)\")"
log "s1 drained as expected: $(sinfo -h -n s1 -o %E)"
[ "$(machine_state)" = "$T2X_BEFORE" ] || fail "state changed although the prolog could not journal"
chmod 0755 "$T2X_STATE"
scancel "$id"
wait_job "$id" 30
scontrol update nodename=s1 state=resume || fail "cannot resume s1"
T2X_EXPECT_DRAIN=
expect_restored "prolog error"
expect_not_drained "after resume"
# After a prolog error slurmctld may list s1 as not responding ("idle*")
# until its next registration: leave the site only once s1 answers again.
for _ in $(seq 1 60); do
	case "$(sinfo -h -n s1 -o %t)" in
	*'*'*) sleep 1 ;;
	*) break ;;
	esac
done
case "$(sinfo -h -n s1 -o %t)" in
*'*'*) fail "s1 not responding after resume: $(sinfo -h -n s1 -o '%t %E')" ;;
esac
log "pass"
