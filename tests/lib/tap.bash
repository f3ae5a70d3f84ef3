# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# tap.bash: the TAP lines of the shell unit tests, sourced by them (the
# plan, "1..N", stays each test's own).  ok / notok / skip TEXT... number
# the tests in n; tap_fails counts the "not ok" lines, for a test that
# exits non-zero on a failure as well ((tap_fails == 0) as its last line).

n=0
tap_fails=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() {
	n=$((n + 1))
	tap_fails=$((tap_fails + 1))
	echo "not ok $n - $*"
}
skip() { n=$((n + 1)); echo "ok $n # SKIP $*"; }
