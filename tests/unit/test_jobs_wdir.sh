#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_jobs_wdir.sh: the job scripts' benchmark directory in shared scratch
# (ios_make_wdir, ios_own_dirs in jobscripts/iostrata-jobs.sh).  A new one
# is made 0700; one already there is used only when it is a directory of
# this user that no one else can write: a symlink, a world-writable one and
# (as root) a stranger's are refused with the reason, and nothing is made
# or written through them.  acceptance.sbatch's fio writes
# DIR/fio-NODE with O_CREAT and follows links: a stranger who made the
# job's directory first could point that name at any file of the user.
set -u

src=${IOSTRATA_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
js=$src/jobscripts
tmp=$(mktemp -d /tmp/test_jobs_wdir.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"

echo "1..6"
# shellcheck source=tests/lib/tap.bash
source "$src/tests/lib/tap.bash"

# wdir DIR: ios_make_wdir on DIR (no Slurm: ios_on_compute runs it here);
# its exit status, its messages in $tmp/err
wdir() {
	(
		# shellcheck source=jobscripts/iostrata-jobs.sh
		source "$js/iostrata-jobs.sh"
		IOS_JOB=test IOS_WDIR=$1
		ios_make_wdir
	) 2>"$tmp/err"
}

# 1. a new directory (and its missing parent): made, 0700, ours
if wdir "$tmp/scratch/1234" && [ "$(stat -c '%a %u' "$tmp/scratch/1234")" = "700 $(id -u)" ]; then
	ok "a new benchmark directory is made 0700"
else
	notok "new directory: exit or mode wrong: $(stat -c '%a %u' "$tmp/scratch/1234" 2>&1) $(cat "$tmp/err")"
fi

# 2. ours already, 0755: used as it is (acceptance makes it once per client)
mkdir -m 755 "$tmp/mine"
if wdir "$tmp/mine" && [ "$(stat -c %a "$tmp/mine")" = 755 ]; then
	ok "an existing directory of ours that no one else can write is used"
else
	notok "existing own directory refused: $(cat "$tmp/err")"
fi

# 3. world-writable: refused, the reason named
mkdir "$tmp/open" && chmod 777 "$tmp/open"
if ! wdir "$tmp/open" && grep -q "$tmp/open is writable by its group or by others (mode 777)" "$tmp/err"; then
	ok "a world-writable directory is refused"
else
	notok "world-writable directory: $(cat "$tmp/err")"
fi

# 4. a symlink to a directory of ours: refused, nothing made behind it
mkdir -m 700 "$tmp/home"
ln -s "$tmp/home" "$tmp/scratch/5678"
if ! wdir "$tmp/scratch/5678" && grep -q "is not a directory (a symlink" "$tmp/err" &&
	[ -z "$(ls -A "$tmp/home")" ]; then
	ok "a symlink in place of the directory is refused"
else
	notok "symlink: $(cat "$tmp/err")"
fi

# 5. a stranger's directory (as root: chown to nobody), not writable by us
# or others: refused by owner
if [ "$(id -u)" = 0 ]; then
	mkdir -m 755 "$tmp/scratch/9999" && chown 65534:65534 "$tmp/scratch/9999"
	if ! wdir "$tmp/scratch/9999" && grep -q "belongs to uid 65534, not to the user running the job" "$tmp/err"; then
		ok "a stranger's directory is refused"
	else
		notok "stranger's directory: $(cat "$tmp/err")"
	fi
else
	skip "a stranger's directory needs root (chown)"
fi

# 6. the failure is the element's: the message names the directory
if ! wdir "$tmp/open" && grep -q "^test: error: benchmark directory: $tmp/open " "$tmp/err"; then
	ok "the element fails with 'benchmark directory: DIR ...'"
else
	notok "element failure message: $(cat "$tmp/err")"
fi
