/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * blkio: disk throttles on cgroups, cgroup v1 (blkio.throttle.*_device)
 * and cgroup v2 (io.max), below a sysfs root.  A limit of 0 means "none"
 * (v1: the rule is absent; v2: "max").
 */
#ifndef IOSTRATA_BLKIO_H
#define IOSTRATA_BLKIO_H

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

/* Parse "MAJ:MIN" strictly.  Returns 0 or -EINVAL. */
int blkio_parse_devnum(const char *s, struct blkio_dev *out);

#endif
