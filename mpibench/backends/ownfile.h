/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ownfile: the files iostrata-bench creates in a --dir that other users may
 * write to (a world-writable scratch directory, run by users and by root).
 * --dir is resolved once into a directory fd; every benchmark file is
 * created, reused and removed relative to it, never through a symbolic
 * link, and only when what the open fd shows is ours (STYLE.md 12).
 */
#ifndef IOSTRATA_OWNFILE_H
#define IOSTRATA_OWNFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include "errbuf.h"

/* The ownership mark of the files iostrata creates (value
 * "iostrata-bench rank=N", "iostrata-bench fio node=N"); a sidecar file
 * NAME.iostrata where the filesystem has no user xattrs. */
#define MB_XATTR_NAME "user.iostrata"
#define MB_SIDECAR_SUFFIX ".iostrata"

/* Whether [v], the [n] bytes read back from a mark (or a negative errno
 * when it could not be read), is iostrata's: every value above starts
 * "iostrata".  The one test of the posix, cephfs and rados backends. */
static inline bool mb_own_mark_ours(const char *v, ssize_t n)
{
	return n >= 8 && !memcmp(v, "iostrata", 8);
}

/* A --dir, opened once. */
struct mb_dir {
	char *path;  /* as given (for messages) */
	int fd;      /* O_PATH: the directory, or the block device */
	bool device; /* --dir is a block device (with --allow-device) */
};

/*
 * The --dir [path], resolved on first use and kept open for the life of
 * the process (later calls with the same string return the same fd).
 * Resolution walks [path] one component at a time with O_NOFOLLOW; a
 * symbolic link on the way is followed only where the kernel's
 * fs.protected_symlinks=1 would follow it, whatever the machine's
 * setting: unless it sits in a sticky world-writable directory, it must
 * be owned by the caller or by that directory's owner.  The result must
 * be a directory, or a block device when [allow_device].  Returns 0 with
 * *[out] set, or -errno with [err] naming the path and why: -ENOENT,
 * -ENOTDIR, -EPERM (untrusted link, or a device without [allow_device]),
 * -ELOOP, -ENOMEM.
 */
int mb_dir_get(const char *path, bool allow_device, const struct mb_dir **out,
	       struct ios_err *err);

/*
 * Open the block device [d] (d->device) with open(2) [oflags], reopening
 * the resolved inode through /proc/self/fd.  fd or -errno with [err].
 */
int mb_dir_open_device(const struct mb_dir *d, int oflags, struct ios_err *err);

/* Close every --dir mb_dir_get opened (tests; the process keeps them). */
void mb_dir_forget_all(void);

/*
 * Whether [name] in [d] may be reused: 0 absent, 1 ours (its size in
 * *[size] when not NULL), or a negative errno with [err] saying why it is
 * refused: -EEXIST (not created by iostrata: no mark), -EPERM (a symbolic
 * link, not a regular file, owned by another uid, more than one hard link,
 * a mark that is a link, not a regular file or owned by another uid), or
 * the errno of open/fstat.  [who] starts the message ("--dir", "posix").
 * Ours means, checked on the open fd: a regular file with one link, owned
 * by the caller (effective uid), carrying the xattr mark or a sidecar
 * mark that is a regular file with one link owned by the caller.
 */
int mb_own_check(const struct mb_dir *d, const char *name, const char *who,
		 uint64_t *size, struct ios_err *err);

/*
 * Open [name] in [d] for benchmark I/O with open(2) [oflags] (access mode,
 * O_DIRECT).  An existing file is reused only when mb_own_check accepts
 * it on the open fd; a missing one is created with O_CREAT | O_EXCL |
 * O_NOFOLLOW when [create], marked with [mark], and remembered for
 * mb_own_remove_created().  Never follows a symbolic link at [name];
 * never opens a fifo or device found there.  Returns the fd (O_CLOEXEC)
 * or a negative errno with [err] set (mb_own_check's, -ENOENT when
 * missing and not [create], the errno of openat or of marking).
 */
int mb_own_open(const struct mb_dir *d, const char *name, int oflags,
		bool create, const char *mark, const char *who,
		struct ios_err *err);

/*
 * Remove [name] from [d] and its sidecar mark when mb_own_check accepts
 * it: unlinkat() on the directory fd after an fstatat() shows the name
 * still is the inode that was checked; a sidecar only when it is ours.
 * Returns 0, -ENOENT (missing), or mb_own_check's refusal, -EPERM for a
 * file without the mark (the file is left alone).
 */
int mb_own_remove(const struct mb_dir *d, const char *name, const char *who,
		  struct ios_err *err);

/*
 * Remove every file this process created through mb_own_open() and has
 * not removed since, each only while its name still is the inode
 * created.  Async-signal-safe (fstatat, unlinkat on kept fds and names).
 */
void mb_own_remove_created(void);

/*
 * On SIGTERM and SIGINT (scancel, Ctrl-C): mb_own_remove_created(), then
 * die of the signal.  Idempotent.
 */
void mb_own_cleanup_on_signal(void);

/*
 * The file of the fio cross-check of node [node]: "iostrata-fio.NODE" in
 * [d], opened with mb_own_open (created and marked, or reused when ours)
 * and at least [size] bytes long (sparse: fio's write job allocates it as
 * iostrata's own write phase does).  fio gets "--filename=/proc/self/fd/N"
 * in [arg] and inherits the fd, so it opens exactly that inode and cannot
 * unlink or replace it.  Returns the fd (not O_CLOEXEC: fio must inherit
 * it) or a negative errno with [err] set.
 */
int mb_own_fio_prepare(const struct mb_dir *d, int node, uint64_t size,
		       char *arg, size_t arglen, struct ios_err *err);

/*
 * Write the holes of [fd] up to [size] (before fio's read job, which
 * would otherwise unlink and lay out the file itself).  0 or -errno.
 */
int mb_own_fill_holes(int fd, uint64_t size, struct ios_err *err);

/*
 * After fio: check the fd still is an iostrata file, then (unless [keep])
 * remove the name only while it is still that inode.  Closes [fd].
 * Returns 0 or a negative errno with [err] set.
 */
int mb_own_fio_finish(const struct mb_dir *d, int node, int fd, bool keep,
		      struct ios_err *err);

#endif
