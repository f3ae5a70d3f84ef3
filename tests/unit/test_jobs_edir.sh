#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_jobs_edir.sh: the directories a job writes into on the batch host
# (ios_init in jobscripts/iostrata-jobs.sh): the element directory,
# default ($PWD/iostrata-<jobid>) or given (IOSTRATA_ELEMENT_DIR), is
# made 0700 by the job or used only when it is the user's own, not a
# link, and neither group nor others can write it; the campaign directory
# (IOSTRATA_CAMPAIGN_DIR) only when it is the user's own, not a link, and
# others cannot write it (a team's 2770 is accepted, as iostrata-campaign
# does).  A refused directory gets no write at all, not even the exit's
# status and timing.  Issue 27 row 2: a stranger's 0777 iostrata-<jobid>
# made first in a sticky directory, with status.tmp, status and timing
# linked to the victim's files, had them overwritten by the exit path.
# The victim is daemon, the stranger nobody (needs root); ios_init runs
# for real outside Slurm (SLURM_JOB_ID set) without a site, so it fails
# right after its directory checks and the exit path runs.
set -u

src=${IOSTRATA_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
js=$src/jobscripts
# shellcheck source=tests/unit/users.bash
source "$src/tests/unit/users.bash"
tmp=$(mktemp -d /tmp/test_jobs_edir.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"

echo "1..6"
# shellcheck source=tests/lib/tap.bash
source "$src/tests/lib/tap.bash"

# the victim's files a stranger would like overwritten
home=$tmp/home
mkdir -m 700 "$home"
for f in authorized_keys .profile keep; do echo "the victim's $f" >"$home/$f"; done
chown -R "$victim:$victim" "$home"
untouched() {
	local f
	for f in authorized_keys .profile keep; do
		[ "$(cat "$home/$f")" = "the victim's $f" ] || return 1
	done
}

# start DIR [VAR=VALUE...]: ios_init as the victim in DIR, job id 4242,
# its messages in $tmp/err
start() {
	local dir=$1
	shift
	(cd "$dir" && as "$victim" env -u IOSTRATA_ELEMENT_DIR -u IOSTRATA_CAMPAIGN_DIR -u IOSTRATA_SITE SLURM_JOB_ID=4242 "$@" \
		bash -c 'source "$1/iostrata-jobs.sh"; ios_init test' _ "$js" >/dev/null 2>"$tmp/err" </dev/null)
}

# 1. a stranger's 0777 iostrata-4242, made first in a sticky scratch, with
# the names the exit path writes linked to the victim's files: refused,
# nothing written through the links, no status
scratch=$tmp/scratch
mkdir -m 1777 "$scratch"
e=$scratch/iostrata-4242
mkdir -m 777 "$e"
ln -s "$home/authorized_keys" "$e/status.tmp"
ln -s "$home/.profile" "$e/status"
ln -s "$home/keep" "$e/timing"
chown -R -h "$stranger:$stranger" "$e"
if ! start "$scratch" && untouched && [ -L "$e/status" ] && [ -L "$e/status.tmp" ] && [ -L "$e/timing" ] &&
	[ "$(ls -A "$e" | wc -l)" = 3 ] &&
	grep -q "element directory: $e belongs to uid $stranger, not to the user running the job" "$tmp/err"; then
	ok "a stranger's iostrata-<jobid> with planted links is refused, nothing written through them"
else
	notok "stranger's element directory: victim's files untouched: $(untouched && echo yes || echo NO); in it: $(ls -lA "$e" | tail -n +2 | awk '{print $1, $NF}' | paste -sd';'); $(cat "$tmp/err")"
fi

# 2. the victim's own element directory, but world-writable: refused, nothing written
w=$scratch/open
mkdir -m 777 "$w" && chown "$victim:$victim" "$w"
if ! start "$scratch" IOSTRATA_ELEMENT_DIR="$w" && [ -z "$(ls -A "$w")" ] &&
	grep -q "element directory: $w is writable by its group or by others (mode 777)" "$tmp/err"; then
	ok "a world-writable element directory is refused, nothing written in it"
else
	notok "world-writable element directory: $(ls -A "$w" | paste -sd' '); $(cat "$tmp/err")"
fi

# 3. IOSTRATA_ELEMENT_DIR a symlink (to a directory of the victim's): refused,
# nothing written behind it
mkdir -m 700 "$tmp/target" && chown "$victim:$victim" "$tmp/target"
ln -s "$tmp/target" "$scratch/linked"
if ! start "$scratch" IOSTRATA_ELEMENT_DIR="$scratch/linked" && [ -z "$(ls -A "$tmp/target")" ] &&
	grep -q "element directory: $scratch/linked is not a directory (a symlink" "$tmp/err"; then
	ok "a symlinked element directory is refused, nothing written behind it"
else
	notok "symlinked element directory: behind it: $(ls -A "$tmp/target" | paste -sd' '); $(cat "$tmp/err")"
fi

# 4. a fresh one: made 0700 by the job and used (the exit's status in it)
rm -rf "$e"
if ! start "$scratch" && [ "$(stat -c '%a %u' "$e" 2>&1)" = "700 $victim" ] && [ ! -L "$e/status" ] &&
	grep -q '^failed: IOSTRATA_SITE is not set' "$e/status" 2>/dev/null && [ -f "$e/timing" ] && untouched; then
	ok "a fresh element directory is made 0700 and used"
else
	notok "fresh element directory: $(stat -c '%a %u' "$e" 2>&1); status: $(cat "$e/status" 2>&1); $(cat "$tmp/err")"
fi

# 5. a stranger's campaign directory (the element's own inside it is the
# victim's): refused, the element gets no write either
camp=$tmp/camp
mkdir -m 755 "$camp" "$camp/el" && chown "$victim:$victim" "$camp/el" && chown "$stranger:$stranger" "$camp"
if ! start "$scratch" IOSTRATA_CAMPAIGN_DIR="$camp" IOSTRATA_ELEMENT_DIR="$camp/el" && [ -z "$(ls -A "$camp/el")" ] &&
	grep -q "campaign directory: $camp belongs to uid $stranger, not to the user running the job" "$tmp/err"; then
	ok "a stranger's campaign directory is refused, nothing written in the element's"
else
	notok "stranger's campaign directory: element's: $(ls -A "$camp/el" | paste -sd' '); $(cat "$tmp/err")"
fi

# 6. a team's campaign directory (the victim's, 2770, group-writable) is
# accepted, as iostrata-campaign accepts it: the element runs (status written)
chown "$victim:$stranger" "$camp" && chmod 2770 "$camp"
if ! start "$scratch" IOSTRATA_CAMPAIGN_DIR="$camp" IOSTRATA_ELEMENT_DIR="$camp/el" &&
	grep -q '^failed: IOSTRATA_SITE is not set' "$camp/el/status" 2>/dev/null; then
	ok "a team's 2770 campaign directory of the user is accepted"
else
	notok "team campaign directory: status: $(cat "$camp/el/status" 2>&1); $(cat "$tmp/err")"
fi
