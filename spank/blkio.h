/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * blkio: disk throttles on cgroups, cgroup v1 (blkio.throttle.*_device)
 * and cgroup v2 (io.max), below a sysfs root.  A limit of 0 means "none"
 * (v1: the rule is absent; v2: "max").
 */
#ifndef IOSTRATA_BLKIO_H
#define IOSTRATA_BLKIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errbuf.h"
#include "sysfs.h"

enum blkio_ver {
	BLKIO_V1 = 1,
	BLKIO_V2 = 2,
};

struct blkio_limit {
	uint64_t rbps, wbps, riops, wiops; /* 0: unlimited */
};

struct blkio_dev {
	unsigned maj, min;
};

/* Longest cgroup path accepted, with its NUL (policy, journal, snapshot). */
#define BLKIO_CG_MAX 256

/*
 * Is [cg] a cgroup path the plugin may throttle: absolute, below
 * /sys/fs/cgroup/, shorter than BLKIO_CG_MAX, no empty, "." or ".."
 * component, no trailing "/", only [A-Za-z0-9._-:@+] in names?  Returns 0,
 * -ENAMETOOLONG or -EINVAL; [why] (may be NULL) gets a static reason.
 */
int blkio_check_cgroup(const char *cg, const char **why);

/* No component of the directory [cg] below the root is a symlink:
 * 0, -ELOOP (one is), -ENOTDIR / -ENOENT, -ENAMETOOLONG. */
int blkio_no_symlinks(const struct sysfs *fs, const char *cg);

/*
 * Which interface the cgroup directory [cg] offers.  Returns 0 and sets
 * *ver, -EINVAL / -ENAMETOOLONG (blkio_check_cgroup refuses [cg]), -ELOOP
 * (a component is a symlink: the throttle would land elsewhere), -ENOENT
 * (no such directory) or -EOPNOTSUPP (no throttle files).
 */
int blkio_detect(const struct sysfs *fs, const char *cg, enum blkio_ver *ver);

/* Read the current limits of [dev] in [cg].  Returns 0 or -errno. */
int blkio_get(const struct sysfs *fs, const char *cg, enum blkio_ver ver,
	      struct blkio_dev dev, struct blkio_limit *out);

/*
 * Set all four limits of [dev] in [cg] (0 removes a limit).  Returns 0 or
 * the negative errno of the first failed write (the others are still
 * attempted, so a restore does as much as it can).
 */
int blkio_set(const struct sysfs *fs, const char *cg, enum blkio_ver ver,
	      struct blkio_dev dev, const struct blkio_limit *lim);

/*
 * Resolve a device given as "MAJ:MIN", a block device ("/dev/vda"), a
 * kernel name ("vda") or any other absolute path (the device holding it),
 * at apply time.  A partition resolves to its whole disk (throttles act on
 * disks).  Returns 0, -EINVAL (syntax, [err] says), -ENOENT, -ENODEV.
 */
int blkio_resolve_dev(const struct sysfs *fs, const char *spec,
		      struct blkio_dev *out, struct ios_err *err);

/*
 * blkio_check_cgroup, but also accepting the cgroup2 root
 * "/sys/fs/cgroup" itself (a parent whose cgroup.subtree_control the
 * plugin may change).
 */
int blkio_check_cgroup_dir(const char *cg, const char **why);

/*
 * cgroup v2: the parents of [cg] whose cgroup.subtree_control lacks "io",
 * top-down from the cgroup2 root, i.e. where "+io" must be written so
 * that [cg] gets io.max.  Fills at most [max] paths into [dirs] (each
 * BLKIO_CG_MAX bytes) and sets *n.  Returns 0, -EOPNOTSUPP ([cg] is not a
 * cgroup2 directory, or the root's cgroup.controllers has no "io": bound
 * to cgroup v1 blkio or not built), -E2BIG, or -errno of a read.
 */
int blkio_v2_plan(const struct sysfs *fs, const char *cg,
		  char (*dirs)[BLKIO_CG_MAX], size_t max, size_t *n);

/*
 * Write "+io" ([on]) or "-io" to [dir]/cgroup.subtree_control and read it
 * back.  Returns 0, -EIO (the read-back disagrees) or the write's -errno
 * (-EBUSY: [dir] has processes of its own, or a child still uses io).
 */
int blkio_v2_set_io(const struct sysfs *fs, const char *dir, bool on);

/* 1 when [dir]/cgroup.subtree_control lists "io", 0 when not, -errno. */
int blkio_v2_has_io(const struct sysfs *fs, const char *dir);

/* Parse "MAJ:MIN" strictly.  Returns 0 or -EINVAL. */
int blkio_parse_devnum(const char *s, struct blkio_dev *out);

/*
 * The job's own blkio cgroup (cgroup v1, policy throttle_job = yes):
 * "/sys/fs/cgroup/blkio/iostrata.job_<jobid>", in [buf].  The only path
 * the apply creates, the journal accepts and a task joins.  Returns 0,
 * -EINVAL (jobid not [0-9A-Za-z_.-]) or -ENAMETOOLONG.
 */
int blkio_job_cgroup(const char *jobid, char *buf, size_t len);

#endif
