# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# users.bash: sourced by the shell tests about another user (the job
# scripts' helpers and directories): the victim is daemon, the stranger
# nobody, and `as UID CMD...` runs CMD as that user (setpriv, no groups).
# Needs root; without it (or setpriv, or either user) the test is skipped
# as TAP says (a plan of 0) and ends here.
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null ||
	! id daemon >/dev/null 2>&1 || ! id nobody >/dev/null 2>&1; then
	echo "1..0 # SKIP needs root, setpriv and the users daemon and nobody"
	exit 0
fi
victim=$(id -u daemon)
stranger=$(id -u nobody)
as() { setpriv --reuid="$1" --regid="$1" --clear-groups -- "${@:2}"; }
