#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_jobs_campfiles.sh: the files the job scripts write into a campaign
# directory (jobscripts/iostrata-jobs.sh), which a team's group members may
# write (2770, as iostrata-campaign accepts): a link planted at
# noscrub.state, noscrub.lock or datasets.tsv is never written through,
# and the flags noscrub.state says the campaign set are only noscrub and
# nodeep-scrub (a planted `set noout` is not unset).  Each case failed on
# the code before: noscrub.state's link target copied into the directory,
# a file made through noscrub.lock's link, datasets.tsv's target appended
# to, `ceph osd unset noout` run.  With fake ceph and
# squeue, no Slurm.
set -u

src=${IOSTRATA_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
js=$src/jobscripts
tmp=$(mktemp -d /tmp/test_jobs_campfiles.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

echo "1..4"
# shellcheck source=tests/lib/tap.bash
source "$src/tests/lib/tap.bash"

camp=$tmp/camp
fresh() {
	rm -rf "$camp" "$tmp/victim" "$tmp/ceph" "$tmp/err"
	mkdir -m 2770 "$camp"
	echo "the user's file" >"$tmp/victim"
}
victim_ok() { [ "$(cat "$tmp/victim" 2>&1)" = "the user's file" ]; }

# in_job CMD...: CMD after the helpers are sourced, as in a campaign's
# element (fake ceph and squeue); messages in $tmp/err
in_job() {
	(
		# shellcheck source=jobscripts/iostrata-jobs.sh
		source "$js/iostrata-jobs.sh"
		ios_ceph() { echo "$*" >>"$tmp/ceph"; [[ $* != "osd dump -f json" ]] || echo '{"flags": ""}'; }
		squeue() { :; }
		IOS_JOB=test IOS_EDIR=$tmp/e IOS_CAMP=$camp IOSTRATA_CAMPAIGN_DIR=$camp SLURM_JOB_ID=7
		IOS_SWEEP_NOSCRUB=1 IOS_WORKLOAD_REUSE_DATASET=1 IOS_WORKLOAD_DIR=$tmp/w IOS_WDIR=$tmp/w/7
		mkdir -p "$IOS_EDIR"
		"$@"
	) >/dev/null 2>"$tmp/err"
}

# 1. noscrub.state a link to a file of the user: neither written through
# nor read (its text copied into the team's directory)
fresh
ln -s "$tmp/victim" "$camp/noscrub.state"
in_job ios_noscrub_hold
if victim_ok && [ -L "$camp/noscrub.state" ] && ! grep -rqs "the user's file" "$camp" &&
	grep -q "noscrub.state is not a regular file" "$tmp/err"; then
	ok "a link planted at noscrub.state is refused, not written or read through"
else
	notok "noscrub.state link: the user's file now: $(cat "$tmp/victim"); copied into: $(grep -rls "the user's file" "$camp"); $(cat "$tmp/err")"
fi

# 2. noscrub.lock a link to a name the user could write: nothing made there
fresh
ln -s "$tmp/made" "$camp/noscrub.lock"
rm -f "$tmp/made"
in_job ios_noscrub_hold
if [ ! -e "$tmp/made" ] && grep -q "noscrub.lock is not a regular file" "$tmp/err"; then
	ok "a link planted at noscrub.lock is refused, nothing made through it"
else
	notok "noscrub.lock link: made through it: $([ -e "$tmp/made" ] && echo yes || echo no); $(cat "$tmp/err")"
fi

# 3. datasets.tsv a link to a file of the user: not appended to
fresh
ln -s "$tmp/victim" "$camp/datasets.tsv"
in_job ios_dataset_dir --bs=1M
if victim_ok && [ -L "$camp/datasets.tsv" ] && grep -q "datasets.tsv is not a regular file" "$tmp/err"; then
	ok "a link planted at datasets.tsv is refused, not appended through"
else
	notok "datasets.tsv link: the user's file now: $(cat "$tmp/victim"); $(cat "$tmp/err")"
fi

# 4. a planted `set noout` in noscrub.state: only the campaign's flags unset
fresh
printf 'set noout\nset nodeep-scrub\nholder 7\n' >"$camp/noscrub.state"
in_job eval 'exec {IOS_NOSCRUB_FD}<"$camp/noscrub.state"; IOS_NOSCRUB_HELD=1; ios_noscrub_release'
if [ "$(cat "$tmp/ceph" 2>/dev/null)" = "osd unset nodeep-scrub" ]; then
	ok "only noscrub and nodeep-scrub are unset from noscrub.state"
else
	notok "flags unset from a planted noscrub.state: $(paste -sd';' "$tmp/ceph" 2>/dev/null); $(cat "$tmp/err")"
fi
