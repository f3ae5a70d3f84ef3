# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench/lib.bash: what the bench scripts share.  Sourced, not run.

# bench_mpi_env: let mpirun run as root and put more ranks than cores on this
# machine, for the Open MPI that `mpirun` is.  Open MPI 4 reads
# OMPI_MCA_rmaps_base_oversubscribe; Open MPI 5's launcher (PRRTE) ignores it
# and needs its mapping policy's :oversubscribe instead (the same split as
# site/local/lib/platform.bash makes for the site's jobs).
bench_mpi_env() {
	local major
	command -v mpirun >/dev/null || {
		echo "${0##*/}: mpirun not found (Open MPI: apt-get install openmpi-bin)" >&2
		exit 2
	}
	major=$(mpirun --version 2>/dev/null | sed -n 's/.*Open MPI[^0-9]*\([0-9][0-9]*\)\..*/\1/p' | head -1)
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	if [[ ${major:-4} -ge 5 ]]; then
		export PRTE_MCA_rmaps_default_mapping_policy=:oversubscribe
	else
		export OMPI_MCA_rmaps_base_oversubscribe=1
	fi
}
