#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# t42-layers-faults: bad Ceph input gives a clear error in bounded time and
# touches nothing: a pool that does not exist, a wrong key, an unreachable
# monitor (connect timeout) - for the rados backend and for --layers (whose
# preflight runs before the device layer writes anything).  Asserts the
# exit code, the message, the elapsed time, that no file appeared in the
# device and full-stack directories and no object in the pool.

set -euo pipefail
T=t42-layers-faults
. "$(dirname "$0")/t4x-lib.bash"
t4x_require
[[ -n ${CEPH_KEYRING:-} && -r $CEPH_KEYRING ]] || skip "CEPH_KEYRING not readable"
command -v ceph-authtool >/dev/null || skip "no ceph-authtool"

make_work
cdir=$T.$$
make_shared "$IOSTRATA_CEPHFS_MOUNT/$cdir"
mkdir -p "$work/dev"/{0,1,2}

# A keyring with the right name and a valid but wrong key.
sed "s|key = .*|key = $(ceph-authtool --gen-print-key)|" "$CEPH_KEYRING" >"$work/wrong.keyring"
# A conf whose monitor nobody listens on.
port=1
sed "s|^mon host = .*|mon host = 127.0.0.1:$port|" "$CEPH_CONF" >"$work/deadmon.conf"
pool=${IOSTRATA_RADOS_POOL:-bench}
objs_before=$(t4x_objects "$pool")

TMO=5
# name | extra args | expected exit | message regex | max seconds
cases=(
	"nopool|--rados-pool=iostrata-no-such-pool-$$|does not exist|20"
	"wrongkey|--rados-pool=$pool --ceph-keyring=$work/wrong.keyring|Permission denied|20"
	"deadmon|--rados-pool=$pool --ceph-conf=$work/deadmon.conf|timed out|$((TMO + 20))"
)

check_untouched() { # what
	local n
	n=$(find "$work/dev" "$IOSTRATA_CEPHFS_MOUNT/$cdir" -type f | wc -l)
	[[ $n == 0 ]] || fail "$1: $n files appeared"
	n=$(t4x_objects "$pool")
	[[ $n == "$objs_before" ]] || fail "$1: objects in $pool went from $objs_before to $n"
}

for c in "${cases[@]}"; do
	IFS='|' read -r name extra msg maxs <<<"$c"
	read -r -a extra <<<"$extra"

	for mode in backend layers; do
		if [[ $mode == backend ]]; then
			args=(--backend=rados --rw=write --bs=1M --size=4M --runtime=1
				--reps=1 --output=none --summary=none)
		else
			args=(--layers --layers-device-dir="$work/dev/%n"
				--dir="$IOSTRATA_CEPHFS_MOUNT/$cdir" --cephfs-dir="/$cdir"
				--bs=1M --size=4M --runtime=1 --reps=1
				--output="$work/$name.h5")
		fi
		t0=$(now)
		set +e
		t4x_srun 120 "$bench" "${args[@]}" "${extra[@]}" --ceph-timeout=$TMO \
			>"$work/out" 2>"$work/err"
		rc=$?
		set -e
		dt=$(since "$t0")
		log "$name/$mode: exit $rc in $dt s: $(grep -m1 -E "$msg" "$work/err" || head -n 1 "$work/err")"
		[[ $rc != 0 && $rc != 124 && $rc != 137 ]] ||
			fail "$name/$mode: exit $rc (want a clean non-zero exit)"
		grep -Eq "$msg" "$work/err" ||
			fail "$name/$mode: message lacks /$msg/: $(head -c 300 "$work/err")"
		awk -v d="$dt" -v m="$maxs" 'BEGIN { exit !(d <= m) }' ||
			fail "$name/$mode: took $dt s (bound $maxs s)"
		if [[ $mode == layers ]]; then
			[[ $rc == 2 ]] || fail "$name/layers: exit $rc, want 2"
			grep -q 'layered run invalid' "$work/err" ||
				fail "$name/layers: not marked invalid"
		fi
		check_untouched "$name/$mode"
	done
done

# A device directory that does not exist: refused on every rank before
# anything is written.
set +e
t4x_srun 60 "$bench" --layers --layers-skip=protocol \
	--layers-device-dir="$work/nodir/%n" --dir="$IOSTRATA_CEPHFS_MOUNT/$cdir" \
	--output=none --bs=1M --size=4M --runtime=1 >/dev/null 2>"$work/err"
rc=$?
set -e
[[ $rc == 2 ]] || fail "missing device dir: exit $rc, want 2"
grep -q "nodir/0.*No such file or directory" "$work/err" ||
	fail "missing device dir: no clear message: $(head -c 300 "$work/err")"
check_untouched "missing device dir"

# An existing output is never clobbered.
echo "not a results file" >"$work/exists.h5"
set +e
t4x_srun 60 "$bench" --layers --layers-skip=protocol --output="$work/exists.h5" \
	--bs=1M --size=4M --runtime=1 >/dev/null 2>"$work/err"
rc=$?
set -e
[[ $rc == 2 ]] || fail "existing output: exit $rc, want 2"
grep -q 'refusing to overwrite' "$work/err" || fail "existing output: no clear message"
[[ $(cat "$work/exists.h5") == "not a results file" ]] || fail "existing output was changed"
log "PASS"
