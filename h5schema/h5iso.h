/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * h5iso: read or validate a results file that is not ours to trust (another
 * user's, read by root) without running HDF5 over it in this process.
 * Crafted files crash libhdf5 itself (heap overflows, null dereferences,
 * endless loops: issue 11), so the file is parsed in a child process with
 * resource limits and, under root, the rights of the file's owner; the
 * parent only decodes the child's answer with its own bounded decoder
 * (runwire.h), never with HDF5.  ios_h5_read_run stays the reader of
 * trusted files (those a process wrote itself).
 *
 * Link with h5schema/libiostrata_h5.la like h5run.h.
 */
#ifndef IOSTRATA_H5ISO_H
#define IOSTRATA_H5ISO_H

#include <sys/types.h>

#include "errbuf.h"
#include "results.h"

/* What a child may use; 0 in a field means its default. */
struct ios_h5_iso_limits {
	unsigned long long max_file_bytes; /* larger files are refused */
	unsigned long long mem_bytes;      /* address space the child may add */
	unsigned int cpu_s;                /* CPU seconds */
	unsigned int wall_s;               /* wall-clock seconds */
};

/* Defaults: files up to 2 GiB, 8 GiB more address space, 60 s of CPU and
 * 120 s of wall-clock time per file.  The environment overrides them:
 * IOSTRATA_PARSE_MAX_FILE_MIB, IOSTRATA_PARSE_MEM_MIB,
 * IOSTRATA_PARSE_CPU_S, IOSTRATA_PARSE_TIMEOUT_S (whole numbers >= 1; an
 * unusable value is ignored with the default kept). */
#define IOS_H5_ISO_MAX_FILE (2ull << 30)
#define IOS_H5_ISO_MEM (8ull << 30)
#define IOS_H5_ISO_CPU_S 60
#define IOS_H5_ISO_WALL_S 120

/* Fill [l] with the defaults and the environment's overrides. */
void ios_h5_iso_limits_default(struct ios_h5_iso_limits *l);

/*
 * Read [path] as ios_h5_read_run does, isolated:
 * - this process opens it (O_RDONLY | O_NOFOLLOW | O_NONBLOCK): a regular
 *   file of at most max_file_bytes.  A symbolic link is followed when not
 *   root; as root only to a file owned by the link's owner (what the link's
 *   owner may point at is theirs already), else refused;
 * - a child (forked by a small spawner process that is forked once, at
 *   the first call, and kills the child by PID at the wall-clock limit;
 *   reaped at exit) gets the open file, nothing else (no other descriptor;
 *   stdin, stdout and stderr on /dev/null), the limits above (RLIMIT_AS
 *   growth, RLIMIT_CPU, no core, no new processes, no file writes) and,
 *   when this process is root, the file owner's uid with the owner's
 *   primary group (passwd) and no supplementary groups, or `nobody` (and
 *   its group) when the owner is root or has no passwd entry for the
 *   group; PR_SET_NO_NEW_PRIVS, not dumpable;
 * - the child copies the file into a memfd and runs ios_h5_read_run on
 *   that (HDF5's core driver: the file is read into memory at open), then sends
 * the run back encoded with runwire.h; this process decodes it (bounded; no
 * HDF5) and sanitizes its text again. Returns what ios_h5_read_run returns (the
 * child's code and message, the memfd path replaced by [path]), or: -ELOOP (a
 * symbolic link refused), -EFBIG (file larger than the bound), -EBADMSG (the
 * HDF5 library crashed reading it: "the HDF5 library crashed reading it (signal
 * 11, SIGSEGV)"; a malformed answer), -ETIMEDOUT ("took longer than N s"),
 * -ENOMEM
 * ("needs more than N MiB of memory"), -ECHILD (the child could not be set
 * up: fork, privileges).  [err] always names [path].  [limits] NULL:
 * ios_h5_iso_limits_default.
 */
int ios_h5_read_run_isolated(const char *path,
			     const struct ios_h5_iso_limits *limits,
			     struct ios_run **out, struct ios_err *err);

/* ios_h5_validate, isolated the same way.  Returns its codes and those
 * above. */
int ios_h5_validate_isolated(const char *path,
			     const struct ios_h5_iso_limits *limits,
			     struct ios_err *err);

#endif
