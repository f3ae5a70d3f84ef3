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
