#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_campaign_env.sh: `iostrata-campaign env SITE`, which the job scripts
# eval, exports every key a site sets in a plain section, from the site
# format's own key table.  Before, env had a second, hand-kept key list
# that lacked [accept] fio and fio_tolerance (README: "[accept] fio = 1
# adds fio beside it": silently ignored) and, for a while, [sweep] noscrub.
# Values survive eval verbatim and run nothing.
set -u

src=${IOSTRATA_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${IOSTRATA_BUILDDIR:-$src/build}
camp=${CAMPAIGN:-$build/jobscripts/iostrata-campaign}

echo "1..4"
if [ ! -x "$camp" ]; then
	for i in 1 2 3 4; do echo "ok $i # SKIP no $camp"; done
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
