#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_campaign_dir.sh: iostrata-campaign acts only on a campaign directory
# of the caller's.  The directory holds what `clean` removes with the
# caller's Ceph key (replication.tsv: pools and directories;
# datasets.tsv: directories) and the default is ./campaigns/SITE-JOB, in
# whatever directory the user stands in: a stranger who made it first in a
# shared directory could plant those records.  status, collect, clean and
# submit refuse a symlink, a world-writable directory and (as root) a
# stranger's, with exit 2 and the reason, before reading any record; a
# directory of the caller's (group-writable too) is used.  6-7: the paths
# submit hands to sbatch: a ',' (sbatch --export splits its list there) is
# refused, a '%' reaches --output doubled (sbatch expands %j, %N, ...).
set -u

src=$(cd "${IOSTRATA_SRCDIR:-$(dirname "$0")/../..}" && pwd -P)
build=${IOSTRATA_BUILDDIR:-$src/build}
camp=${CAMPAIGN:-$build/jobscripts/iostrata-campaign}

echo "1..7"
if [ ! -x "$camp" ]; then
	for i in 1 2 3 4 5 6 7; do echo "ok $i # SKIP no $camp"; done
	exit 0
fi
tmp=$(mktemp -d /tmp/test_campaign_dir.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); echo "not ok $n - $*"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $*"; }
site=$src/site/example/site.conf

# cmds DIR: every command that acts on the directory, with DIR; the exit
# codes, space-separated, in $tmp/rcs, stderr in $tmp/err.  A planted
# replication.tsv names a pool; no ceph call may happen (PATH has none).
cmds() {
	local c rcs=
	: >"$tmp/err"
	for c in status collect clean; do
		env PATH=/nonexistent "$camp" "$c" --campaign="$1" "$site" \
			sweep-disk-bw </dev/null >/dev/null 2>>"$tmp/err"
		rcs+="$? "
	done
	"$camp" submit --dry-run --campaign="$1" "$site" sweep-disk-bw \
		</dev/null >/dev/null 2>>"$tmp/err"
	rcs+="$?"
	echo "$rcs" >"$tmp/rcs"
}
plant() { # DIR: the records a stranger would leave
	printf 'pool\tvictim-pool\t3\tmade\n' >"$1/replication.tsv"
	printf 'k\t/victim/iostrata-datasets/x/k\n' >"$1/datasets.tsv"
}

# 1. world-writable
mkdir "$tmp/open" && chmod 777 "$tmp/open" && plant "$tmp/open"
cmds "$tmp/open"
if [ "$(cat "$tmp/rcs")" = "2 2 2 2" ] &&
	[ "$(grep -c "campaign directory $tmp/open is writable by others (mode 0777): refused" "$tmp/err")" = 4 ]; then
	ok "a world-writable campaign directory is refused by status, collect, clean and submit"
else
	notok "world-writable: exits $(cat "$tmp/rcs"): $(head -c 600 "$tmp/err")"
fi

# 2. a symlink to a directory of ours
mkdir -m 700 "$tmp/real" && plant "$tmp/real"
ln -s "$tmp/real" "$tmp/link"
cmds "$tmp/link"
if [ "$(cat "$tmp/rcs")" = "2 2 2 2" ] &&
	[ "$(grep -c "campaign directory $tmp/link is not a directory (a symlink?)" "$tmp/err")" = 4 ]; then
	ok "a symlink in place of the campaign directory is refused"
else
	notok "symlink: exits $(cat "$tmp/rcs"): $(head -c 600 "$tmp/err")"
fi

# 3. (root) a stranger's, not writable by others
if [ "$(id -u)" = 0 ]; then
	mkdir -m 755 "$tmp/theirs" && plant "$tmp/theirs" && chown -R 65534:65534 "$tmp/theirs"
	cmds "$tmp/theirs"
	if [ "$(cat "$tmp/rcs")" = "2 2 2 2" ] &&
		[ "$(grep -c "campaign directory $tmp/theirs belongs to uid 65534, not to you (uid 0): refused" "$tmp/err")" = 4 ]; then
		ok "a stranger's campaign directory is refused"
	else
		notok "stranger's: exits $(cat "$tmp/rcs"): $(head -c 600 "$tmp/err")"
	fi
else
	skip "a stranger's directory needs root (chown)"
fi

# 4. ours, group-writable (a team's): used (status reads it: no elements)
mkdir -m 775 "$tmp/team"
"$camp" status --campaign="$tmp/team" "$site" sweep-disk-bw >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc != 2 ] && ! grep -q "campaign directory" "$tmp/err"; then
	ok "a group-writable campaign directory of the caller's is used (status: exit $rc)"
else
	notok "own group-writable directory: exit $rc: $(cat "$tmp/err")"
fi

# 5. plan touches no directory: it runs whatever is there
if "$camp" plan --campaign="$tmp/open" "$site" sweep-disk-bw >/dev/null 2>"$tmp/err"; then
	ok "plan does not look at the campaign directory"
else
	notok "plan with a world-writable --campaign: $(cat "$tmp/err")"
fi

# 6. a ',' in the campaign directory: refused before anything is made
"$camp" submit --dry-run --campaign="$tmp/a,b" "$site" sweep-disk-bw >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 2 ] && grep -q "campaign directory \"$tmp/a,b\" has a ',', where sbatch --export splits its list: refused" "$tmp/err" &&
	[ ! -e "$tmp/a,b" ] && [ ! -s "$tmp/out" ]; then
	ok "a campaign directory with a ',' is refused before any sbatch line"
else
	notok "',' in the campaign directory: exit $rc: $(cat "$tmp/err" "$tmp/out" | head -c 400)"
fi

# 7. a '%' in it: --output gets it doubled, the exported path keeps it
"$camp" submit --dry-run --campaign="$tmp/100%x" "$site" sweep-disk-bw >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 0 ] && grep -q -- "--output=$tmp/100%%x/elements/0/slurm-%j.out" "$tmp/out" &&
	grep -q -- "IOSTRATA_CAMPAIGN_DIR=$tmp/100%x," "$tmp/out"; then
	ok "a '%' in the campaign directory is doubled in sbatch's --output only"
else
	notok "'%' in the campaign directory: exit $rc: $(cat "$tmp/err" "$tmp/out" | head -c 600)"
fi
