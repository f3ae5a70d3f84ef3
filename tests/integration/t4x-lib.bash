# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# t4x-lib.bash: shared helpers of the layers area's integration tests (t4x-*),
# sourced, not run; on top of lib.bash.  t4x_require skips unless the site,
# the benchmark with its rados backend and the ceph CLI are there, and sets
# bench and PART; pools made by t4x_pool are deleted at exit.

. "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

t4x_require() {
	require_env SLURM_CONF CEPH_CONF IOSTRATA_SITE_BASE IOSTRATA_BENCH_DIR \
		IOSTRATA_CEPHFS_MOUNT IOSTRATA_LOCAL_DIR IOSTRATA_SLURM_PARTITION
	bench=$build/mpibench/iostrata-bench
	[[ -x $bench ]] || skip "$bench not built"
	# not `--help | grep -q`: under pipefail the help's SIGPIPE (grep -q
	# leaves at the first match) would read as "no rados backend"
	[[ $("$bench" --help 2>&1) == *--rados-pool* ]] ||
		skip "$bench has no rados backend (configure found no librados)"
	command -v ceph >/dev/null || skip "no ceph CLI"
	PART=$IOSTRATA_SLURM_PARTITION
	# every node of the (compute) partition
	NNODES=$(sinfo -h -p "$PART" -o %D 2>/dev/null) || NNODES=
	[[ $NNODES =~ ^[0-9]+$ ]] || skip "no nodes in partition $PART (sinfo: \"$NNODES\")"
	at_exit t4x_cleanup_pools
}

# srun on every node of the partition, one rank each (MPI over pmix),
# bounded in time.
t4x_srun() { # timeout_s args...
	local t=$1
	shift
	timeout -k 10 "$t" srun -p "$PART" -N "$NNODES" -n "$NNODES" --mpi=pmix --overcommit "$@"
}

# Create a replicated pool of [size]; t4x_cleanup_pools deletes it (at exit).
T4X_POOLS=()
t4x_pool() { # name size
	ceph osd pool create "$1" 8 8 >/dev/null 2>&1 || return 1
	T4X_POOLS+=("$1")
	ceph osd pool application enable "$1" rados >/dev/null 2>&1 || true
	if [[ $2 == 1 ]]; then
		ceph osd pool set "$1" size 1 --yes-i-really-mean-it >/dev/null 2>&1 || return 1
	else
		ceph osd pool set "$1" size "$2" >/dev/null 2>&1 || return 1
	fi
	ceph osd pool set "$1" min_size 1 >/dev/null 2>&1 || true
	# wait until its PGs are active
	local i
	for ((i = 0; i < 60; i++)); do
		local pgs total clean
		pgs=$(ceph pg ls-by-pool "$1" 2>/dev/null) || pgs=
		total=$(grep -c '^[0-9]' <<<"$pgs" || true)
		clean=$(grep -c 'active+clean' <<<"$pgs" || true)
		((total > 0 && total == clean)) && return 0
		sleep 0.5
	done
	return 1
}

t4x_cleanup_pools() {
	local p
	for p in "${T4X_POOLS[@]}"; do
		ceph osd pool delete "$p" "$p" --yes-i-really-really-mean-it >/dev/null 2>&1 || true
	done
	T4X_POOLS=()
}

# Objects left in [pool] (all namespaces).
t4x_objects() { rados -p "$1" ls --all 2>/dev/null | wc -l; }
