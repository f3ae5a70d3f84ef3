# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# msg.bash: the messages of the site's scripts (localsite, demo,
# scripts/platform-root, tests/run, tests/integration/run), sourced from
# next to them.  PROG names the script in every line; die exits with
# DIE_STATUS (1 unless the script sets it: 2 for a usage error).

msg() { printf '%s: %s\n' "$PROG" "$*"; }
warn() { printf '%s: warning: %s\n' "$PROG" "$*" >&2; }
die() {
	printf '%s: error: %s\n' "$PROG" "$*" >&2
	exit "${DIE_STATUS:-1}"
}

# now: the time, in seconds with nanoseconds; elapsed T: the seconds since
# T (one decimal).
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
