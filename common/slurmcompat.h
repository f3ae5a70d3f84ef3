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
 * - the auth and hash plugins: since Slurm 24.05 every RPC is signed by
 *   the auth plugin and carries a hash of its body (hash/k12), and a
 *   process that loaded neither dies in its first RPC ("fatal: No hash
 *   plugins loaded. Was slurm_init() called...", said by the auth layer).
 *   Slurm 24.11's spank-prolog slurmstepd (a SPANK plugin's job prolog and
 *   epilog) is such a process.  Code that resolves libslurm at run time
 *   calls IOS_SLURM_AUTH_INIT_SYM and IOS_SLURM_HASH_INIT_SYM where the
 *   process has them (24.05+: auth_g_init; 22.05 has slurm_auth_init(type)
 *   instead, left alone; both idempotent) before its first RPC.
 */
#ifndef IOSTRATA_SLURMCOMPAT_H
#define IOSTRATA_SLURMCOMPAT_H

#include <errno.h>

#if defined(HAVE_DECL_SLURM_GET_ERRNO) && HAVE_DECL_SLURM_GET_ERRNO
#define IOS_SLURM_ERRNO() slurm_get_errno()
#else
#define IOS_SLURM_ERRNO() (errno)
#endif

/* int auth_g_init(void), int hash_g_init(void): libslurmfull's, not in
 * <slurm/slurm.h>. */
#define IOS_SLURM_AUTH_INIT_SYM "auth_g_init"
#define IOS_SLURM_HASH_INIT_SYM "hash_g_init"

#endif /* IOSTRATA_SLURMCOMPAT_H */
