#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_man.sh: the manual pages made by scripts/mkman (man/local.mk).  Per
# page: it renders without a groff warning (and with man -l); every option
# its tool's --help prints (for iostrata-report also each command's --help,
# for spank_iostrata(8) the plugin's table, spank/spank-options) is in its
# OPTIONS or COMMANDS section; every exit code the help names is under
# EXIT STATUS.  A page without its tool (not built here) is skipped.
# MANDIR=dir checks the pages in dir instead of the build's man/.
set -u

src=${IOSTRATA_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${IOSTRATA_BUILDDIR:-$src/build}
mandir=${MANDIR:-$build/man}
export ASAN_OPTIONS=detect_leaks=0

pages="iostrata-bench.1:mpibench/iostrata-bench
iostrata-report.1:report/iostrata-report
iostrata-facts.1:facts/iostrata-facts
iostrata-campaign.1:jobscripts/iostrata-campaign
iostrata-node.8:spank/iostrata-node
spank_iostrata.8:spank/spank-options"

tmp=$(mktemp -d /tmp/test_man.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

echo "1..18"
# shellcheck source=tests/lib/tap.bash
source "$src/tests/lib/tap.bash"

# section FILE FROM TO: the lines from heading FROM up to heading TO
section() {
	awk -v from="$2" -v to="$3" '
		$0 == from { on = 1; next }
		on && $0 == to { exit }
		on' "$1"
}

# helptext TOOL: all the help the page is made from
helptext() {
	"$1" --help || return 1
	if [ "$(basename "$1")" = iostrata-report ]; then
		for c in $("$1" --help | awk '/^[^ ].*:$/ { on = ($0 ~ /^[Cc]ommands:$/); next } on && /^  [a-z]/ { print $1 }'); do
			"$1" "$c" --help || return 1
		done
	fi
}

tools=
for t in groff man col; do
	command -v $t >/dev/null || tools="$tools $t"
done
while IFS=: read -r page tool; do
	man=$mandir/$page
	if [ -n "$tools" ]; then
		for c in render options exit; do
			skip "$page: $c: no$tools here (groff-base, man-db, bsdextrautils)"
		done
		continue
	fi
	if [ ! -x "$build/$tool" ] || [ ! -f "$man" ]; then
		for c in render options exit; do
			skip "$page: $c: $tool or the page not built"
		done
		continue
	fi
	# 1. renders without warnings
	groff -man -Tutf8 -ww -z "$man" 2>"$tmp/warn" >/dev/null
	rc=$?
	LC_ALL=C.UTF-8 MANWIDTH=80 man -l "$man" >"$tmp/man.txt" 2>>"$tmp/warn"
	rc2=$?
	if [ $rc = 0 ] && [ $rc2 = 0 ] && [ ! -s "$tmp/warn" ] && [ -s "$tmp/man.txt" ]; then
		ok "$page: renders without warnings"
	else
		sed 's/^/# /' "$tmp/warn"
		notok "$page: renders without warnings (groff $rc, man $rc2)"
	fi
	# -P-c: overstrikes, which col -b removes (groff 1.23 writes SGR
	# escapes by default, as Debian 13's does)
	groff -man -Tascii -P-c -rLL=250n "$man" 2>/dev/null | col -bx >"$tmp/page.txt"
	if ! helptext "$build/$tool" >"$tmp/help" 2>/dev/null; then
		notok "$page: options: $tool --help failed"
		notok "$page: exit codes: $tool --help failed"
		continue
	fi
	# 2. every option of --help is in OPTIONS .. EXIT STATUS (COMMANDS)
	section "$tmp/page.txt" OPTIONS "EXIT STATUS" >"$tmp/opts.txt"
	missing=
	for o in $(grep -oE -- '(^|[][ ,|(])--?[A-Za-z][A-Za-z0-9_-]*' "$tmp/help" |
		sed 's/^[][ ,|(]//' | sort -u); do
		grep -qE -- "(^|[^A-Za-z0-9_-])$o([^A-Za-z0-9_-]|\$)" "$tmp/opts.txt" ||
			missing="$missing $o"
	done
	if [ -s "$tmp/opts.txt" ] && [ -z "$missing" ]; then
		ok "$page: every option of --help in OPTIONS"
	else
		notok "$page: options missing from OPTIONS:${missing:- (no OPTIONS section)}"
	fi
	# 3. every exit code the help names is under EXIT STATUS
	codes=$(awk 'tolower($0) ~ /^exit[ (:]/ { on = 1; sub(/^[^:]*: */, "") }
			on && $0 == "" { on = 0 }
			on { printf "%s ", $0 }
			/\.$/ { on = 0 }' "$tmp/help" |
		grep -oE '(^|[,;:]) *[0-9]+ +[a-z(]' | grep -oE '[0-9]+' | sort -u)
	section "$tmp/page.txt" "EXIT STATUS" "ENVIRONMENT" >"$tmp/exit.txt"
	[ -s "$tmp/exit.txt" ] || section "$tmp/page.txt" "EXIT STATUS" "FILES" >"$tmp/exit.txt"
	[ -s "$tmp/exit.txt" ] || section "$tmp/page.txt" "EXIT STATUS" "SEE ALSO" >"$tmp/exit.txt"
	missing=
	for c in $codes; do
		grep -qE "^ {1,12}$c( |\$)" "$tmp/exit.txt" || missing="$missing $c"
	done
	if [ -s "$tmp/exit.txt" ] && [ -z "$missing" ]; then
		ok "$page: exit codes of --help ($(echo ${codes:-none})) under EXIT STATUS"
	else
		notok "$page: exit codes missing from EXIT STATUS:${missing:- (no EXIT STATUS section)}"
	fi
done <<<"$pages"
