#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_campaign_env.sh: `iostrata-campaign env SITE`, which the job scripts
# eval, exports every key a site sets in a plain section, from the site
# format's own key table.  Before, env had a second, hand-kept key list
# that lacked [accept] fio and fio_tolerance (README: "[accept] fio = 1
# adds fio beside it": silently ignored) and, for a while, [sweep] noscrub.
# Values survive eval verbatim and run nothing.
# 5-8: [sweep] replication (a factor list): `plan` runs every element once
# per factor on pool PREFIX-rN, between the factor's unconstrained
# baselines, bad lists and prefixes are refused naming
# the key, the value and what is accepted, env exports the key.
# 11: site/example plans what the paper ran (its baseline at replication
# 1, 2 and 3, its sweeps at 2 and 3).
# 9-10: where submit finds the job scripts: the build tree's binary falls
# back to the source tree; a copy outside the build tree (an installed
# program) never reads a path of the machine it was built on.
set -u

# the source tree as one path, the form iostrata-campaign prints
# (realpath): a build configured with ../configure passes IOSTRATA_SRCDIR as
# BUILD/.., make distcheck as _build/sub/../..
src=$(cd "${IOSTRATA_SRCDIR:-$(dirname "$0")/../..}" && pwd -P)
build=${IOSTRATA_BUILDDIR:-$src/build}
camp=${CAMPAIGN:-$build/jobscripts/iostrata-campaign}

echo "1..12"
if [ ! -x "$camp" ]; then
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do echo "ok $i # SKIP no $camp"; done
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. the keys the job scripts read that the old list lacked
cat >"$tmp/site.conf" <<'SITE'
[site]
name = envtest
description = it's "quoted" $(touch PWNED) `touch PWNED2`
[accept]
fio = 1
fio_tolerance = 0.2
[sweep]
noscrub = 1
SITE
if out=$(cd "$tmp" && "$camp" env "$tmp/site.conf" 2>&1); then
	got=$(cd "$tmp" && eval "$out" && printf '%s|%s|%s' "${IOS_ACCEPT_FIO:-}" "${IOS_ACCEPT_FIO_TOLERANCE:-}" "${IOS_SWEEP_NOSCRUB:-}")
	if [ "$got" = "1|0.2|1" ]; then
		echo "ok 1 - [accept] fio, fio_tolerance and [sweep] noscrub are exported"
	else
		echo "not ok 1 - [accept] fio, fio_tolerance, [sweep] noscrub: got \"$got\", want \"1|0.2|1\""
	fi
else
	echo "not ok 1 - iostrata-campaign env failed: $out"
fi

# 2. a value with quotes, $() and backquotes: verbatim after eval, nothing run
desc=$(cd "$tmp" && eval "$out" && printf '%s' "${IOS_SITE_DESCRIPTION:-}")
if [ "$desc" = "it's \"quoted\" \$(touch PWNED) \`touch PWNED2\`" ] &&
	[ ! -e "$tmp/PWNED" ] && [ ! -e "$tmp/PWNED2" ]; then
	echo "ok 2 - values survive eval verbatim and run nothing"
else
	echo "not ok 2 - description after eval: \"$desc\"$([ -e "$tmp/PWNED" ] && echo ', a command ran')"
fi

# 3-4. every key the shipped site files set in a plain section is exported
n=2
for site in "$src/site/example/site.conf" "$src/site/local/site.conf"; do
	n=$((n + 1))
	env_out=$("$camp" env "$site" 2>&1) || {
		echo "not ok $n - iostrata-campaign env $site failed: $env_out"
		continue
	}
	missing=$(awk '
		/^[ \t]*[;#]/ { next }
		/^\[/ { sec = $0; gsub(/^\[|\]$/, "", sec); named = (sec ~ /"/); next }
		!named && sec != "" && /=/ {
			k = $0; sub(/=.*/, "", k); gsub(/[ \t]/, "", k)
			v = toupper("IOS_" sec "_" k); gsub(/[^A-Z0-9_]/, "_", v)
			print v
		}' "$site" | while read -r v; do
		grep -q "^$v=" <<<"$env_out" || printf '%s ' "$v"
	done)
	if [ -z "$missing" ]; then
		echo "ok $n - every plain-section key of ${site#"$src"/} is exported"
	else
		echo "not ok $n - ${site#"$src"/}: not exported: $missing"
	fi
done

# 5. the plan: every element once per factor, the factors in list order
cat >"$tmp/repl.conf" <<'SITE'
[site]
name = repltest
[workload]
dir = /tmp/bench
[sweep]
disk_bw = 20MB, 40MB
replication = 2, 3
SITE
want=$(printf '%s\n' \
	$'0\tbaseline-first-r2\t-\treplication=2 pool=iostrata-r2' \
	$'1\tdiskbw20MB-r2\t--iostrata-disk-bw=20MB\treplication=2 pool=iostrata-r2' \
	$'2\tdiskbw40MB-r2\t--iostrata-disk-bw=40MB\treplication=2 pool=iostrata-r2' \
	$'3\tbaseline-last-r2\t-\treplication=2 pool=iostrata-r2' \
	$'4\tbaseline-first-r3\t-\treplication=3 pool=iostrata-r3' \
	$'5\tdiskbw20MB-r3\t--iostrata-disk-bw=20MB\treplication=3 pool=iostrata-r3' \
	$'6\tdiskbw40MB-r3\t--iostrata-disk-bw=40MB\treplication=3 pool=iostrata-r3' \
	$'7\tbaseline-last-r3\t-\treplication=3 pool=iostrata-r3')
got=$("$camp" plan "$tmp/repl.conf" sweep-disk-bw 2>&1)
printf 'replication_pool = tank\n' >>"$tmp/repl.conf"
got2=$("$camp" plan "$tmp/repl.conf" sweep-disk-bw 2>&1)
if [ "$got" = "$want" ] && [ "$got2" = "${want//iostrata-r/tank-r}" ]; then
	echo "ok 5 - plan: 2 elements x 2 factors, pools PREFIX-r2 and PREFIX-r3, each factor's sweep between its unconstrained baselines"
else
	echo "not ok 5 - plan with replication = 2, 3: got \"$got\" and \"$got2\", want \"$want\""
fi

# 6. bad lists: the key, the value and what is accepted, exit 2, no plan
bad=0
while IFS='|' read -r val msg; do
	sed "s/^replication = .*/replication = $val/; /^replication_pool/d" "$tmp/repl.conf" >"$tmp/bad.conf"
	out=$("$camp" plan "$tmp/bad.conf" sweep-disk-bw 2>&1)
	rc=$?
	if [ $rc -ne 2 ] || [[ $out != *"$msg"* ]] || [[ $out == *diskbw* ]]; then
		echo "# replication = $val: exit $rc, \"$out\" (want 2 and \"$msg\")"
		bad=1
	fi
done <<'CASES'
2, 2|bad.conf:7: sweep.replication: invalid list "2, 2": 2 appears twice (each item once)
0, 3|bad.conf:7: sweep.replication: 0 is out of range (accepted: 1 to 10)
2, 11|bad.conf:7: sweep.replication: 11 is out of range (accepted: 1 to 10)
two|bad.conf:7: sweep.replication: invalid number "two"
2,,3|an empty item
CASES
if [ $bad -eq 0 ]; then
	echo "ok 6 - bad [sweep] replication lists refused with the key, the value and what is accepted"
else
	echo "not ok 6 - a bad [sweep] replication list was not refused as it should be"
fi

# 7. a prefix that is not a pool name
sed 's/^replication_pool = .*/replication_pool = a b/' "$tmp/repl.conf" >"$tmp/bad.conf"
out=$("$camp" plan "$tmp/bad.conf" sweep-disk-bw 2>&1)
rc=$?
if [ $rc -eq 2 ] && [[ $out == *'[sweep] replication_pool "a b": not a pool name prefix: accepted: 1 to 64 letters, digits'* ]]; then
	echo "ok 7 - a replication_pool that is not a pool name is refused"
else
	echo "not ok 7 - replication_pool \"a b\": exit $rc, \"$out\""
fi

# 8. env exports the factor list to the job scripts
got=$(eval "$("$camp" env "$tmp/repl.conf")" && printf '%s|%s' "${IOS_SWEEP_REPLICATION:-}" "${IOS_SWEEP_REPLICATION_POOL:-}")
if [ "$got" = "2, 3|tank" ]; then
	echo "ok 8 - env exports [sweep] replication and replication_pool"
else
	echo "not ok 8 - env: got \"$got\", want \"2, 3|tank\""
fi

# 9-10. the job scripts of the build tree, for its own binary only
mkdir -p "$tmp/nojs" "$tmp/inst"
cp "$camp" "$tmp/inst/iostrata-campaign" 2>/dev/null
cat >"$tmp/js.conf" <<'SITE'
[site]
name = jstest
[sweep]
ranks = 1
SITE
out=$(IOSTRATA_JOBSCRIPTS=$tmp/nojs "$camp" submit "$tmp/js.conf" sweep-threads --dry-run --campaign="$tmp/c9" 2>&1)
if [ $? -eq 0 ] && [[ $out == *"$src/jobscripts/sweep-threads.sbatch"* ]]; then
	echo "ok 9 - the build tree's iostrata-campaign falls back to the source tree's job scripts"
else
	echo "not ok 9 - build tree binary, no job scripts in \$IOSTRATA_JOBSCRIPTS: \"$out\""
fi
out=$(IOSTRATA_JOBSCRIPTS=$tmp/nojs "$tmp/inst/iostrata-campaign" submit "$tmp/js.conf" sweep-threads --dry-run --campaign="$tmp/c10" 2>&1)
rc=$?
if [ $rc -eq 2 ] && [[ $out == *"not found in $tmp/nojs or "* ]] && [[ $out != *"$src/jobscripts"* ]] &&
	[ ! -e "$tmp/c10/elements.tsv" ]; then
	echo "ok 10 - a copy outside the build tree does not read the source tree: $out"
else
	echo "not ok 10 - copy outside the build tree: exit $rc (want 2), \"$out\""
fi
# 11: site/example is the paper's cluster: its baseline (no constraint) at
# replication 1, 2 and 3 (Table 4), its sweeps at 2 and 3 (seeds/000
# section 4), each of the 16 configurations on both pools between the
# factor's first and last baseline
out=$("$camp" plan "$src/site/example" sweep-cores-mem 2>&1)
got=$(awk -F'\t' '$3 == "-" { print $1 "/" $2 }' <<<"$out" | paste -sd' ')
if [ "$(grep -c -- '-r2	.*--iostrata-cpus=' <<<"$out")" = 16 ] &&
	[ "$(grep -c -- '-r3	.*--iostrata-cpus=' <<<"$out")" = 16 ] &&
	[ "$got" = "0/baseline-r1 1/baseline-first-r2 18/baseline-last-r2 19/baseline-first-r3 36/baseline-last-r3" ] &&
	[ "$(grep -c . <<<"$out")" = 37 ]; then
	echo "ok 11 - plan site/example sweep-cores-mem: the baseline at replication 1, 2 and 3, 16 configurations at 2 and at 3"
else
	echo "not ok 11 - plan site/example sweep-cores-mem, want the baseline at r1, r2, r3 and 16 at r2 and 16 at r3 (baselines: $got): $out"
fi

# 12: [sweep] baseline: first (before the sweep only), none (no baseline:
# a campaign planned as before), and baseline_replication without the
# sweep's factors refused; sweep-threads (no storage shaping) has none
cat >"$tmp/bl.conf" <<'SITE'
[site]
name = bltest
[sweep]
disk_bw = 20MB, 40MB
ranks = 1
baseline = first
SITE
a=$("$camp" plan "$tmp/bl.conf" sweep-disk-bw 2>&1 | cut -f2 | paste -sd' ')
sed -i 's/^baseline = first/baseline = none/' "$tmp/bl.conf"
b=$("$camp" plan "$tmp/bl.conf" sweep-disk-bw 2>&1 | cut -f2 | paste -sd' ')
c=$("$camp" plan "$tmp/bl.conf" sweep-threads 2>&1 | cut -f2 | paste -sd' ')
sed -i 's/^baseline = none/baseline_replication = 1, 2/' "$tmp/bl.conf"
d=$("$camp" plan "$tmp/bl.conf" sweep-disk-bw 2>&1)
drc=$?
if [ "$a" = "baseline diskbw20MB diskbw40MB" ] && [ "$b" = "diskbw20MB diskbw40MB" ] &&
	[ "$c" = "ranks1" ] && [ $drc = 2 ] &&
	[[ $d == *"[sweep] baseline_replication is set without [sweep] replication"* ]]; then
	echo "ok 12 - [sweep] baseline = first and none; baseline_replication needs replication"
else
	echo "not ok 12 - baseline: first \"$a\", none \"$b\", threads \"$c\", baseline_replication alone: exit $drc \"$d\""
fi
