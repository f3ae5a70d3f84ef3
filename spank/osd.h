/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * osd: the Ceph OSDs of this host, named by the policy ("osds = auto",
 * unit names, "osd.N", globs) and found in /proc: their cgroup (from
 * /proc/<pid>/cgroup, checked against an allow-list) and their data
 * devices (the "block" links of their data directory).
 */
#ifndef IOSTRATA_OSD_H
#define IOSTRATA_OSD_H

#include <stdbool.h>
#include <stddef.h>

#include "blkio.h"
#include "errbuf.h"
#include "policy.h"
#include "sysfs.h"

#define OSD_UNIT_MAX 128
#define OSD_FSID_LEN 36
/* block, block.db, block.wal */
#define OSD_MAX_DEVS 3

struct osd_found {
	int pid;
	int id;                      /* N of osd.N */
	char unit[OSD_UNIT_MAX];     /* ceph-<fsid>@osd.N.service,
					ceph-osd@N.service */
	char fsid[OSD_FSID_LEN + 1]; /* cephadm units only, else "" */
	char cg[BLKIO_CG_MAX];       /* absolute, below /sys/fs/cgroup/ */
	size_t n_dev;
	struct blkio_dev dev[OSD_MAX_DEVS];
};

/*
 * Is [pat] a valid "osds =" entry: "auto", or a unit name or "osd.N",
 * each possibly with fnmatch wildcards (*?[]), of letters, digits and
 * ._-@: at most OSD_UNIT_MAX - 1 characters?  Returns 0 or -EINVAL with
 * a static reason in [why].
 */
int osd_check_pattern(const char *pat, const char **why);

/*
 * Parse a systemd unit name of an OSD: "ceph-<fsid>@osd.N.service"
 * (cephadm; [fsid] gets the fsid) or "ceph-osd@N.service" (packages;
 * [fsid] gets "").  [fsid] holds OSD_FSID_LEN + 1 bytes.  Returns N, or
 * -EINVAL when [name] is neither.
 */
int osd_parse_unit(const char *name, char *fsid);

/*
 * The allow-list: may the OSD cgroup [rel] (a path in the controller's
 * hierarchy as /proc/<pid>/cgroup shows it, "/system.slice/...") be
 * throttled?  It must contain an OSD unit (osd_parse_unit) whose parent
 * path is exactly /system.slice, /system.slice/system-ceph\x2d<fsid>.slice
 * (the unit's fsid, systemd-escaped), /system.slice/system-ceph\x2dosd.slice,
 * or one of the [n] site slices [slices] (policy osd_slice); any cgroups
 * below the unit (a container's libpod-payload-<id>) are accepted.  On
 * success fills o->unit, o->fsid and returns the OSD id; -EINVAL with a
 * static reason in [why] otherwise.
 */
int osd_cgroup_allowed(const char *rel, char *const *slices, size_t n,
		       struct osd_found *o, const char **why);

/* What osd_cgroup_allowed accepts, for messages. */
#define OSD_ALLOWED_TEXT                                                       \
	"the OSD's unit ceph-<fsid>@osd.N.service or ceph-osd@N.service directly in /system.slice, /system.slice/system-ceph\\x2d<fsid>.slice, /system.slice/system-ceph\\x2dosd.slice or an osd_slice of the policy, or a cgroup below that unit"

/*
 * Find the OSDs of this host that [p]'s "osds =" entries name: every
 * ceph-osd process in /proc (below [fs]) in our network namespace (see
 * osd.c for why), its cgroup (v1 blkio, else cgroup2) checked with
 * osd_cgroup_allowed, its devices from the first data directory with a
 * "block" (policy osd_data templates, /var/lib/ceph/<fsid>/osd.N,
 * /var/lib/ceph/osd/<cluster>-N), else the policy's devices.  Returns
 * the count (malloc'd array in [*out], may be 0 when [p] names no OSDs)
 * or a negative errno with [err]: -EINVAL (a refused cgroup, an OSD
 * running twice), -ENOENT (a named OSD not running here, no OSD at all,
 * no data device).  Without [strict], OSDs that fail are skipped
 * (logged) and nothing found is not an error.
 */
int osd_discover(const struct sysfs *fs, const struct policy *p, bool strict,
		 struct osd_found **out, struct ios_err *err);

#endif
