#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# t21-spank-reject: bad input and refused requests against the real Slurm:
# sbatch/srun exit non-zero with a clear message at submit time; requests
# only the node can judge (non-exclusive job, more CPUs than online, a user
# the policy does not allow) fail the job with the reason in its output;
# nothing changes, no node drains.
. "$(dirname "$0")/t2x-lib.bash"

ensure_plugin
snapshot
P=$IOSTRATA_STORAGE_PARTITION

# Submit time: table of option, value, expected text in the error.
while IFS='|' read -r opt val want; do
	[ -n "$opt" ] || continue
	if out=$(sbatch -p "$P" -w s1 --exclusive "--$opt=$val" --wrap=true 2>&1); then
		record_job "$(grep -Eo '[0-9]+$' <<<"$out")"
		fail "sbatch --$opt=\"$val\" accepted"
	fi
	grep -q -- "$want" <<<"$out" || fail "sbatch --$opt=\"$val\": message lacks \"$want\": $out"
	if out=$(srun -p "$P" -w s1 --exclusive "--$opt=$val" true 2>&1); then
		fail "srun --$opt=\"$val\" accepted"
	fi
	grep -q -- "--$opt" <<<"$out" || fail "srun --$opt=\"$val\": message does not name the option: $out"
done <<'TABLE'
iostrata-cpus|0|--iostrata-cpus
iostrata-cpus|-1|--iostrata-cpus
iostrata-cpus|99999999999999999999|--iostrata-cpus
iostrata-cpus|1x|--iostrata-cpus
iostrata-cpus||--iostrata-cpus
iostrata-mem|12X|unknown unit
iostrata-mem|0|must be above 0
iostrata-mem|1G|below the site minimum
iostrata-mem|99999999999P|--iostrata-mem
iostrata-disk-bw|50M,|--iostrata-disk-bw
iostrata-disk-bw|0|must be above 0
iostrata-disk-bw|100K|below the site minimum
iostrata-disk-iops|1|below the site minimum
iostrata-disk-iops|-5|--iostrata-disk-iops
iostrata-profile|nope|unknown profile
iostrata-profile|../../etc/passwd|invalid value
iostrata-profile|a;reboot|invalid value
iostrata-profile|$(id)|invalid value
TABLE
log "submit-time rejections: ok"
[ "$(machine_state)" = "$T2X_BEFORE" ] || fail "state changed by rejected submissions"

# Node-side refusals: the job fails, its output says why, nothing changes.
refused() {
	local what=$1 want=$2 id
	shift 2
	id=$(submit -p "$P" -w s1 -t 2 -o "$work/$what.out" "$@" --wrap='echo SCRIPT-RAN') ||
		fail "$what: sbatch failed"
	wait_job "$id" 60 || fail "$what: job $id did not end"
	[ "$(job_state "$id")" = FAILED ] || fail "$what: job $id is $(job_state "$id"), want FAILED"
	grep -q -- "$want" "$work/$what.out" || { cat "$work/$what.out"; fail "$what: output lacks \"$want\""; }
	! grep -q SCRIPT-RAN "$work/$what.out" || fail "$what: the script ran on an unshaped node"
	[ "$(machine_state)" = "$T2X_BEFORE" ] || fail "$what: node state changed"
	expect_not_drained "$what"
	log "$what: refused with \"$want\", nothing changed"
}
refused non-exclusive "need an exclusive allocation" --iostrata-cpus=1
refused more-cpus-than-online "more than the" --exclusive --iostrata-cpus=64
if id nobody >/dev/null 2>&1; then
	chmod 1777 "$work"
	id=$(cd "$work" && as_user nobody sbatch --parsable -p "$P" -w s1 --exclusive -t 2 \
		--iostrata-cpus=1 -o "$work/user.out" --wrap='echo SCRIPT-RAN') || fail "sbatch as nobody failed"
	record_job "$id"
	wait_job "$id" 60 || fail "user: job $id did not end"
	grep -q "may not reconfigure" "$work/user.out" || fail "user nobody not refused"
	! grep -q SCRIPT-RAN "$work/user.out" || fail "user: the script ran"
	[ "$(machine_state)" = "$T2X_BEFORE" ] || fail "user: node state changed"
	log "user not allowed: refused"
fi

# Unknown plugstack argument: plugin init fails (srun refuses to run).
bad=$work/bad-plugstack.conf
echo "required $T2X_SO nodes=s1 bogus=1" >"$bad"
out=$(SLURM_CONF=$SLURM_CONF srun --help 2>&1 >/dev/null) || true
cp "$(dirname "$SLURM_CONF")/slurm.conf" "$work/slurm.conf"
sed -i '/^PlugStackConfig=/d' "$work/slurm.conf"
echo "PlugStackConfig=$bad" >>"$work/slurm.conf"
if out=$(SLURM_CONF=$work/slurm.conf srun -p "$P" -w s1 true 2>&1); then
	fail "srun with an unknown plugstack argument ran"
fi
grep -q 'unknown argument "bogus=1"' <<<"$out" || fail "unknown plugstack argument: message: $out"
log "unknown plugstack argument: init fails"
expect_restored "end"
expect_not_drained "end"
log "pass"
