# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# shellcheck disable=SC2034 # the versions are read by the other parts
# site/local/lib/platform.bash: the platform switch: every difference between
# the platforms the site runs on (Debian 12: Slurm 22.05, Ceph 16.2 Pacific,
# Open MPI 4.1; Debian 13: Slurm 24.11, Ceph 18.2 Reef, Open MPI 5.0) lives
# here, keyed on the installed versions, so the other parts stay one text.
# Sourced by site/local/localsite, not run on its own.

# major_of CMD...: the first "N.M" version number CMD prints, as "N".
major_of() {
	local v
	v=$("$@" 2>/dev/null | grep -oE '[0-9]+\.[0-9]+' | head -1) || true
	echo "${v%%.*}"
}

# platform_detect: SLURM_MAJOR (22, 24, ...), CEPH_MAJOR (16, 18, ...),
# OMPI_MAJOR (4, 5); 0 when the program is missing (checks.bash says so).
platform_detect() {
	[[ -z ${PLATFORM_DONE:-} ]] || return 0
	SLURM_MAJOR=$(major_of slurmd -V)
	CEPH_MAJOR=$(major_of ceph-mon --version)
	OMPI_MAJOR=$(major_of mpirun --version)
	: "${SLURM_MAJOR:=0}" "${CEPH_MAJOR:=0}" "${OMPI_MAJOR:=0}"
	PLATFORM_DONE=1
	dbg "platform: Slurm $SLURM_MAJOR, Ceph $CEPH_MAJOR, Open MPI $OMPI_MAJOR"
}

# platform_mgr_modules DIR: what ceph-mgr's module path DIR needs besides
# the modules.  Reef's mgr_util imports bcrypt at the top; Debian 13's
# python3-bcrypt (4.x) is a PyO3 extension, which refuses to load in
# ceph-mgr's subinterpreters ("PyO3 modules do not yet support
# subinterpreters"), so every module fails (MGR_MODULE_DEPENDENCY).  The site
# uses no password hashing (no dashboard): a stand-in that fails on use
# shadows it (the module path comes first in the modules' sys.path).
platform_mgr_modules() {
	local dst=$1
	platform_detect
	"$PY" - <<'PYEOF' 2>/dev/null || return 0
import sys
import bcrypt
sys.exit(0 if int(bcrypt.__version__.split(".")[0]) >= 4 else 1)
PYEOF
	cat >"$dst/bcrypt.py" <<'PYEOF'
# localsite: stands in for python3-bcrypt (a PyO3 module ceph-mgr cannot
# load in its subinterpreters); the site's mgr modules never hash passwords.
def _unavailable(*args, **kwargs):
    raise RuntimeError("localsite: bcrypt is not available in this ceph-mgr")
gensalt = hashpw = checkpw = _unavailable
PYEOF
}

# platform_mpi_env: the env file's Open MPI lines (the site's subnet,
# oversubscribed nodes, TCP + shared memory).  Open MPI 5 renamed the shared
# memory BTL vader to sm (vader stays an alias) and left the launch to
# PRRTE, which ignores OMPI_MCA_rmaps_base_oversubscribe: mpirun refused
# more ranks than cores ("not enough slots"); PRRTE takes a mapping policy.
# mpi_yield_when_idle: a rank waiting in MPI yields the CPU.  mpirun sets it
# itself when it oversubscribes, srun --mpi=pmix never does: every compute
# host here shares this machine's cores, and ranks spinning in a gather
# starved the rank they waited for (rank 0's start-up, every host's facts,
# took 11.7 s at 24 ranks on 3 hosts, 0.83 s with it; 0.47 s at 3 ranks).
platform_mpi_env() {
	local shm=vader
	platform_detect
	((OMPI_MAJOR < 5)) || shm=sm
	printf 'export %s\n' OMPI_ALLOW_RUN_AS_ROOT=1 \
		OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "OMPI_MCA_btl=self,$shm,tcp" \
		OMPI_MCA_pml=ob1 OMPI_MCA_mpi_add_procs_cutoff=1048576 \
		OMPI_MCA_mpi_yield_when_idle=1 \
		"OMPI_MCA_btl_tcp_if_include=$SUBNET" \
		"OMPI_MCA_oob_tcp_if_include=$SUBNET"
	if ((OMPI_MAJOR >= 5)); then
		printf 'export %s\n' "PRTE_MCA_oob_tcp_if_include=$SUBNET" \
			PRTE_MCA_rmaps_default_mapping_policy=:oversubscribe
	else
		printf 'export %s\n' OMPI_MCA_rmaps_base_oversubscribe=1
	fi
}
