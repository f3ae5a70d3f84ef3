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
# 8: every value of the --export list is checked (the workload directory
# through [sweep] replication, the site's path, a quote): exit 2 naming the
# variable, the setting and the value, before anything is made.  9 (root):
# a group member of a team's 2770 campaign directory plants records that
# name the owner's other data (a trailing '..', another campaign's
# dataset, a symlinked component, a pool and directory outside the
# campaign): the owner's clean removes none of it, no ceph command runs,
# and it exits 2 naming each file and line.  10: a campaign submitted
# under another plan (before the unconstrained baseline elements, or
# with another sweep list): status, collect and clean refuse it with exit
# 2 naming the element, and change no file; before, they matched records
# by index and label and silently saw no element, and submit --resume
# would then have put the new plan's elements into the old ones'
# directories.
set -u

src=$(cd "${IOSTRATA_SRCDIR:-$(dirname "$0")/../..}" && pwd -P)
build=${IOSTRATA_BUILDDIR:-$src/build}
camp=${CAMPAIGN:-$build/jobscripts/iostrata-campaign}

echo "1..10"
if [ ! -x "$camp" ]; then
	for i in 1 2 3 4 5 6 7 8 9 10; do echo "ok $i # SKIP no $camp"; done
	exit 0
fi
tmp=$(mktemp -d /tmp/test_campaign_dir.XXXXXX)
grp=
trap 'rm -rf "$tmp"; [ -z "$grp" ] || groupdel "$grp"' EXIT
chmod 755 "$tmp"
# shellcheck source=tests/lib/tap.bash
source "$src/tests/lib/tap.bash"
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
if [ $rc = 2 ] && grep -qF "IOSTRATA_CAMPAIGN_DIR=$tmp/a,b (the campaign directory) has a ',', which sbatch --export cannot carry" "$tmp/err" &&
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

# 8. every value of the export list, refused before anything is made: a
# fake ceph and sbatch on PATH log any call; a slurm.conf for slurm_init
# (no slurmctld: nothing here may need one)
mkdir -p "$tmp/bin"
printf 'ClusterName=t\nSlurmctldHost=localhost\n' >"$tmp/slurm.conf"
export SLURM_CONF=$tmp/slurm.conf
for t in ceph sbatch; do
	printf '#!/bin/sh\necho "%s $*" >>%s/calls\nexit 1\n' "$t" "$tmp" >"$tmp/bin/$t"
	chmod 755 "$tmp/bin/$t"
done
wsite() { # FILE WORKLOAD_DIR [EXTRA SWEEP LINE]: the example site so changed
	mkdir -p "$(dirname "$1")"
	sed "s|^dir = /mnt/cephfs/iostrata\$|dir = $2|" "$site" >"$1"
	# the example's own [sweep] replication (and its baseline's factors)
	# give way to the case's
	[ -z "${3:-}" ] || sed -i -e '/^\[sweep\]/,/^\[/{/^replication = /d;/^baseline_replication = /d}' \
		-e "/^\\[sweep\\]/a $3" "$1"
}
bad=0 cases=0
export8() { # SITE VAR WHAT VALUE: refused with exit 2, nothing made
	local c=$tmp/c8 how rc
	cases=$((cases + 1))
	for how in --dry-run ""; do
		rm -rf "$c" "$tmp/calls"
		env PATH="$tmp/bin:$PATH" "$camp" submit $how --campaign="$c" "$1" sweep-disk-bw \
			</dev/null >"$tmp/out" 2>"$tmp/err"
		rc=$?
		if [ $rc != 2 ] || ! grep -qF -- "$2=$4 ($3) has " "$tmp/err" ||
			[ -s "$tmp/out" ] || [ -e "$c" ] || [ -e "$tmp/calls" ]; then
			echo "# $2 ($3) = $4, submit $how: exit $rc: $(head -c 400 "$tmp/err"; head -c 300 "$tmp/out"; cat "$tmp/calls" 2>/dev/null)"
			bad=$((bad + 1))
		fi
	done
}
wsite "$tmp/s8/comma.conf" "/scratch/x,LD_PRELOAD=/scratch/evil.so,Z=" "replication = 2"
export8 "$tmp/s8/comma.conf" IOSTRATA_REPLICATION_DIR "[workload] dir" "/scratch/x,LD_PRELOAD=/scratch/evil.so,Z=/iostrata-r2"
wsite "$tmp/s8/quote.conf" "/scratch/it's" "replication = 3"
export8 "$tmp/s8/quote.conf" IOSTRATA_REPLICATION_DIR "[workload] dir" "/scratch/it's/iostrata-r3"
wsite "$tmp/s8/eq.conf" "/scratch/a=b" "replication = 2"
export8 "$tmp/s8/eq.conf" IOSTRATA_REPLICATION_DIR "[workload] dir" "/scratch/a=b/iostrata-r2"
wsite "$tmp/s8/p=x/site.conf" "/scratch/x"
export8 "$tmp/s8/p=x/site.conf" IOSTRATA_SITE "the site description" "$tmp/s8/p=x/site.conf"
wsite "$tmp/s8/p,x/site.conf" "/scratch/x"
export8 "$tmp/s8/p,x/site.conf" IOSTRATA_SITE "the site description" "$tmp/s8/p,x/site.conf"
# a pool prefix with a ',' never gets that far: camp_plan refuses it
wsite "$tmp/s8/pool.conf" "/scratch/x" "replication = 2\\nreplication_pool = a,LD_PRELOAD=x"
env PATH="$tmp/bin:$PATH" "$camp" submit --dry-run --campaign="$tmp/c8" "$tmp/s8/pool.conf" sweep-disk-bw >"$tmp/out" 2>"$tmp/err"
rc=$?
cases=$((cases + 1))
if [ $rc != 2 ] || ! grep -q "replication_pool" "$tmp/err" || [ -s "$tmp/out" ] || [ -e "$tmp/c8" ]; then
	echo "# replication_pool with a ',': exit $rc: $(head -c 300 "$tmp/err")"
	bad=$((bad + 1))
fi
if [ $bad = 0 ]; then
	ok "$cases export values that sbatch --export cannot carry: each refused with exit 2 naming it, no campaign directory, no ceph or sbatch call"
else
	notok "$bad of the export cases not refused as they should be (above)"
fi

# 9. a group member's records in a team's campaign directory
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null || ! getent passwd nobody >/dev/null; then
	skip "a second user needs root, setpriv and the user nobody"
	exit 0
fi
grp=iostrata-t$$
groupadd "$grp" || { grp=; notok "groupadd failed"; exit 0; }
gid=$(getent group "$grp" | cut -d: -f3)
as_member() { setpriv --reuid=65534 --regid=65534 --groups="$gid" "$@"; }
w=$tmp/w9
mkdir -p "$w/iostrata-datasets/other/k" "$tmp/victim/k3" "$tmp/victim2/sub"
chmod 1777 "$w/iostrata-datasets"
chmod 755 "$tmp" "$w"
for f in "$w/keep" "$w/iostrata-datasets/other/k/data" "$tmp/victim/k3/data" "$tmp/victim2/sub/data"; do
	echo precious >"$f"
done
wsite "$tmp/s9.conf" "$w" "replication = 2"
team=$tmp/team9
mkdir -m 2770 "$team" && chgrp "$grp" "$team"
# the member: the campaign's name below the shared datasets directory is
# a link to the victim's, then the records
as_member ln -s "$tmp/victim" "$w/iostrata-datasets/team9"
as_member /bin/bash -c 'printf "%s\t%s\n" k1 "$1/iostrata-datasets/.." k2 "$1/iostrata-datasets/other/k" k3 "$1/iostrata-datasets/team9/k3" >"$2/datasets.tsv"
printf "2\tcephfs.data\t1\tcephfs\t1\t%s\t1\n" "$3" >"$2/replication.tsv"' _ "$w" "$team" "$tmp/victim2"
rm -f "$tmp/calls"
env PATH="$tmp/bin:$PATH" "$camp" clean --campaign="$team" "$tmp/s9.conf" sweep-disk-bw >"$tmp/out" 2>"$tmp/err"
rc=$?
intact=1
for f in "$w/keep" "$w/iostrata-datasets/other/k/data" "$tmp/victim/k3/data" "$tmp/victim2/sub/data"; do
	[ "$(cat "$f" 2>/dev/null)" = precious ] || { intact=0; echo "# $f removed"; }
done
named=1
for l in datasets.tsv:1 datasets.tsv:2 datasets.tsv:3 replication.tsv:1; do
	grep -q "$team/$l: .*refused" "$tmp/err" || { named=0; echo "# $l not named as refused"; }
done
if [ $rc = 2 ] && [ $intact = 1 ] && [ $named = 1 ] && [ ! -e "$tmp/calls" ]; then
	sed 's/^/# /' "$tmp/err"
	ok "a group member's hostile records in a 2770 campaign directory: clean removes nothing of them, runs no ceph command, exit 2 naming each line"
else
	notok "hostile records of a group member: exit $rc, intact $intact, named $named, ceph calls: $(cat "$tmp/calls" 2>/dev/null): $(head -c 1500 "$tmp/err")"
fi

# 10. a campaign recorded under another plan (the example's disk sweep as
# planned before its baseline elements: element 0 was diskbw100MB-r2)
old=$tmp/old10
mkdir -m 700 "$old" "$old/elements" "$old/elements/0"
printf '# index\tlabel\tjobid\toptions\n0\tdiskbw100MB-r2\t101\t--iostrata-disk-bw=100MB\n1\tdiskbw125MB-r2\t102\t--iostrata-disk-bw=125MB\n' >"$old/elements.tsv"
echo ok >"$old/elements/0/status"
before=$(cd "$old" && find . -printf '%p %s %T@\n' | sort)
rcs=
: >"$tmp/err"
for c in status collect clean; do
	env PATH=/nonexistent "$camp" "$c" --campaign="$old" "$site" sweep-disk-bw </dev/null >/dev/null 2>>"$tmp/err"
	rcs+="$? "
done
after=$(cd "$old" && find . -printf '%p %s %T@\n' | sort)
if [ "$rcs" = "2 2 2 " ] && [ "$before" = "$after" ] &&
	[ "$(grep -c "element 0 was submitted as diskbw100MB-r2, but the site's plan now has baseline-r1 at that index" "$tmp/err")" = 3 ]; then
	ok "a campaign submitted under another plan: status, collect and clean refuse it naming the element, no file changed"
else
	notok "campaign under another plan: exits $rcs, files $([ "$before" = "$after" ] && echo same || echo changed): $(head -c 800 "$tmp/err")"
fi
