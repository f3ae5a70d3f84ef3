/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysfs: every access to /sys, /proc and cgroupfs goes through a root
 * directory handle, so the admin CLI (--sysroot) and the unit tests (a fake
 * tree under mkdtemp) run the very code the plugin runs (util-linux chcpu).
 */
#ifndef IOSTRATA_SYSFS_H
#define IOSTRATA_SYSFS_H

#include <dirent.h>
#include <limits.h>
#include <stdint.h>
#include <sys/types.h>

struct sysfs {
	int dirfd;           /* O_PATH|O_DIRECTORY handle on the root */
	char root[PATH_MAX]; /* for messages: "/" or the fake root */
};

/* Open [root] ("/" in production).  Returns 0 or a negative errno. */
int sysfs_open(struct sysfs *fs, const char *root);
void sysfs_close(struct sysfs *fs);

/*
 * Open [path] (absolute or relative, always taken below the root) with
 * [flags].  Symlinks are never followed in the last component and never
 * lead out of the root (openat2 RESOLVE_BENEATH where the kernel has it).
 * Returns an fd or a negative errno.
 */
int sysfs_openat(const struct sysfs *fs, const char *path, int flags,
		 mode_t mode);

/*
 * Read [path] into [buf] (NUL-terminated, trailing newlines removed).
 * Returns the length or a negative errno (-EOVERFLOW: does not fit).
 */
ssize_t sysfs_read(const struct sysfs *fs, const char *path, char *buf,
		   size_t len);

/* Read a decimal or 0x-hex unsigned integer.  Returns 0, -errno, -EINVAL. */
int sysfs_read_u64(const struct sysfs *fs, const char *path, uint64_t *out);

/*
 * Write [val] to an existing [path] in one write(2).  Returns 0 or the
 * negative errno of open/write (e.g. -EBUSY, -EIO from the kernel).
 */
int sysfs_write(const struct sysfs *fs, const char *path, const char *val);

/*
 * Same, but in a child process that is killed after [timeout_ms]: memory
 * offlining can block for minutes.  Returns 0, -errno, or -ETIMEDOUT.
 */
int sysfs_write_timeout(const struct sysfs *fs, const char *path,
			const char *val, int timeout_ms);

/* 1 when [path] exists (without following a final symlink), else 0. */
int sysfs_exists(const struct sysfs *fs, const char *path);

/*
 * mkdir / rmdir of [path] below the root (its parent opened as by
 * sysfs_openat: no symlink leads out).  A new cgroup directory gets its
 * files from the kernel and loses them at rmdir; in the unit tests
 * sysfs_dir_hook (NULL in production) stands in, called with the relative
 * path after each mkdir ([made] true) and before each rmdir (false).
 * Return 0 or a negative errno (-EEXIST, -ENOENT, -EBUSY ...).
 */
int sysfs_mkdir(const struct sysfs *fs, const char *path, mode_t mode);
int sysfs_rmdir(const struct sysfs *fs, const char *path);
extern void (*sysfs_dir_hook)(const char *path, int made);

/* opendir() below the root; NULL with errno set. */
DIR *sysfs_opendir(const struct sysfs *fs, const char *path);

/* NUMA node of a cpu or memory block: its "nodeN" entry; -1 unknown. */
int sysfs_node_of(const struct sysfs *fs, const char *dir);

/* [name] is [prefix] followed by a decimal id: returns it, else -1. */
int sysfs_parse_id(const char *name, const char *prefix);

/*
 * Fault injection for unit tests (NULL in production): called before each
 * write with the relative path; a negative errno return fails the write
 * with it, 1 makes it succeed without writing (the hook stood in for the
 * kernel, e.g. cgroup.subtree_control), 0 lets it happen.  Runs in the
 * child for sysfs_write_timeout.
 */
extern int (*sysfs_fault_hook)(const char *path, const char *val);
/* The same for sysfs_read (e.g. -EACCES where the tests run as root). */
extern int (*sysfs_read_fault_hook)(const char *path);

/*
 * printf into the path buffer [buf] of [len] bytes.  Returns 0, or
 * -ENAMETOOLONG when the path does not fit ([buf] then holds "" so a
 * truncated path is never used by mistake).
 */
int sysfs_pathf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "root/path" for messages, in [buf]. */
const char *sysfs_fullpath(const struct sysfs *fs, const char *path, char *buf,
			   size_t len);

#endif
