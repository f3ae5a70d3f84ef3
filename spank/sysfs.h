/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysfs: every access to /sys, /proc and cgroupfs goes through a root
 * directory handle, so the admin CLI (--sysroot) and the unit tests (a fake
 * tree under mkdtemp) run the very code the plugin runs (util-linux chcpu).
 * The reads are common/hostfs.h (shared with facts/); the writes, which
 * only the plugin and iostrata-node make, are here.
 */
#ifndef IOSTRATA_SYSFS_H
#define IOSTRATA_SYSFS_H

#include <sys/types.h>

#include "hostfs.h"

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

/*
 * Fault injection for unit tests (NULL in production): called before each
 * write with the relative path; a negative errno return fails the write
 * with it, 1 makes it succeed without writing (the hook stood in for the
 * kernel, e.g. cgroup.subtree_control), 0 lets it happen.  Runs in the
 * child for sysfs_write_timeout.
 */
extern int (*sysfs_fault_hook)(const char *path, const char *val);

#endif
