/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slurmcompat: the one place for differences in Slurm's C API between the
 * versions iostrata builds against (Debian 12: 22.05, Debian 13: 24.11).
 * configure checks the declarations (AC_CHECK_DECLS); include this after
 * <slurm/slurm.h>.
 *
 * - slurm_get_errno(): gone in Slurm 24.11; libslurm calls leave their error
 *   in errno (in 22.05 slurm_get_errno() only returned errno).  Read
 *   IOS_SLURM_ERRNO() right after the failing call.  Code that resolves
 *   libslurm at run time (spank/slurmapi.c) must not dlsym() it at all.
 */
#ifndef IOSTRATA_SLURMCOMPAT_H
#define IOSTRATA_SLURMCOMPAT_H

#include <errno.h>

#if defined(HAVE_DECL_SLURM_GET_ERRNO) && HAVE_DECL_SLURM_GET_ERRNO
#define IOS_SLURM_ERRNO() slurm_get_errno()
#else
#define IOS_SLURM_ERRNO() (errno)
#endif

#endif /* IOSTRATA_SLURMCOMPAT_H */
