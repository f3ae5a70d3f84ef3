#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# plugstack.sh BASE BUILD_DIR: write a plugstack.conf fragment that loads
# the built spank_iostrata.so for the local site (enabled on n1 only,
# state and policy under BASE) and print its path.  The policy is
# site/local/policy.conf plus the running site's OSD cgroups and disk.
set -euo pipefail
base=${1:?usage: plugstack.sh BASE BUILD_DIR}
build=${2:?usage: plugstack.sh BASE BUILD_DIR}
top=$(cd "$(dirname "$0")/../.." && pwd)
so=$build/spank/.libs/spank_iostrata.so
[ -f "$so" ] || { echo "plugstack.sh: $so not built" >&2; exit 1; }
if [ -z "${IOSTRATA_OSD_CGROUPS+x}" ] && [ -f "$base/env" ]; then
	# shellcheck disable=SC1091
	. "$base/env"
fi
dir=$base/iostrata
install -d -m 0755 -o root -g root "$dir"
{
	cat "$top/site/local/policy.conf"
	echo
	echo "[global]"
	echo "# appended by tests/integration/plugstack.sh for $base"
	for cg in ${IOSTRATA_OSD_CGROUPS:-}; do
		echo "cgroup = $cg"
	done
	[ -n "${IOSTRATA_DISK_DEV:-}" ] && echo "device = $IOSTRATA_DISK_DEV"
} >"$dir/policy.conf.tmp"
chmod 0644 "$dir/policy.conf.tmp"
chown root:root "$dir/policy.conf.tmp"
mv -f "$dir/policy.conf.tmp" "$dir/policy.conf"
install -d -m 0755 -o root -g root "$dir/state"
echo "required $so nodes=n1 state_dir=$dir/state policy=$dir/policy.conf" \
	>"$dir/plugstack.conf"
chmod 0644 "$dir/plugstack.conf"
echo "$dir/plugstack.conf"
