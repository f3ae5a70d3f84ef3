/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hostfs: the one reader of the host's /sys, /proc and /etc below a root
 * directory ("/" in production, a fake tree under mkdtemp in the unit
 * tests, --sysroot for iostrata-node), shared by spank/ (the node it
 * shapes) and facts/ (the node it describes): util-linux chcpu's sysroot.
 */
#ifndef IOSTRATA_HOSTFS_H
#define IOSTRATA_HOSTFS_H

#include <dirent.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct sysfs {
	int dirfd;           /* O_PATH|O_DIRECTORY handle on the root */
	char root[PATH_MAX]; /* for messages: "/" or the fake root */
};

/* Open [root] ("/" in production).  Returns 0 or a negative errno. */
int sysfs_open(struct sysfs *fs, const char *root);
void sysfs_close(struct sysfs *fs);

/* [path] without its leading slashes ("." for the root itself). */
const char *sysfs_rel(const char *path);

/*
 * Open [path] (absolute or relative, always taken below the root) with
 * [flags].  Symlinks are never followed in the last component and never
 * lead out of the root (openat2 RESOLVE_BENEATH where the kernel has it).
 * Returns an fd or a negative errno.
 */
int sysfs_openat(const struct sysfs *fs, const char *path, int flags,
		 mode_t mode);

/*
 * Read [path] into [buf] (NUL-terminated, trailing newlines and blanks
 * removed).  Returns the length or a negative errno (-EOVERFLOW: does not
 * fit).
 */
ssize_t sysfs_read(const struct sysfs *fs, const char *path, char *buf,
		   size_t len);

/*
 * The facts' read: [root]/[path] opened as a path (symlinks followed, as
 * /etc/os-release is one), at most [len]-1 bytes kept (a long
 * /proc/cpuinfo is read in part), trailing white space removed.  Returns
 * the length, -ENAMETOOLONG (the path does not fit) or a negative errno.
 */
ssize_t sysfs_read_path(const char *root, const char *path, char *buf,
			size_t len);

/* Read a decimal or 0x-hex unsigned integer.  Returns 0, -errno, -EINVAL. */
int sysfs_read_u64(const struct sysfs *fs, const char *path, uint64_t *out);

/* 1 when [path] exists (without following a final symlink), else 0. */
int sysfs_exists(const struct sysfs *fs, const char *path);

/* opendir() below the root; NULL with errno set. */
DIR *sysfs_opendir(const struct sysfs *fs, const char *path);

/* NUMA node of a cpu or memory block: its "nodeN" entry; -1 unknown. */
int sysfs_node_of(const struct sysfs *fs, const char *dir);

/* [name] is [prefix] followed by a decimal id: returns it, else -1. */
int sysfs_parse_id(const char *name, const char *prefix);

/* One numbered unit of a sysfs directory (cpuN, memoryN, nodeN). */
struct sysfs_unit {
	int id;
	int state; /* 1: its [attr] file reads [on]; 0: it reads anything
		    * else (or more than 31 bytes, with SYSFS_UNITS_SKIP);
		    * -1: no [attr] file, or no [attr] asked */
	int node;  /* NUMA node (SYSFS_UNITS_NODE), else -1 */
};

#define SYSFS_UNITS_NODE 0x1 /* find each unit's NUMA node */
#define SYSFS_UNITS_SKIP                                                       \
	0x2 /* leave out a unit whose [attr] cannot be                         \
	     * read, instead of failing the scan */

/*
 * Every [prefix]N entry of [dir] (N decimal, at most 1000000), sorted by
 * N, into [*out] (malloc'd, [*n] of them), with the text of each
 * one's [attr] file (NULL: none read) compared with [on].  Without
 * SYSFS_UNITS_SKIP a missing [attr] gives state -1 and any other failed
 * read (-EOVERFLOW past 31 bytes) fails the scan.  Returns 0, the
 * negative errno of opening [dir], -ENOMEM, -ENAMETOOLONG, a read's errno,
 * or -ENOENT (no unit).
 */
int sysfs_scan_units(const struct sysfs *fs, const char *dir,
		     const char *prefix, const char *attr, const char *on,
		     unsigned flags, struct sysfs_unit **out, size_t *n);

/*
 * The facts' count: below [root], how many [prefix]N units [dir] has
 * ([*total]) and how many of them [attr] reads [on] ([*non], when not
 * NULL), leaving out the units whose [attr] cannot be read.  Returns 0,
 * or the negative errno of the scan (the counts then 0).
 */
int sysfs_count_units(const char *root, const char *dir, const char *prefix,
		      const char *attr, const char *on, size_t *total,
		      size_t *non);

/* Fault injection for unit tests (NULL in production): called before each
 * sysfs_read with the relative path; a negative errno return fails the read
 * with it (e.g. -EACCES where the tests run as root). */
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
