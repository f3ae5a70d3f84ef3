/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hwinfo_internal: the root-relative entry points behind hwinfo.h, for
 * unit tests with a fake /proc and /sys tree.
 */
#ifndef IOSTRATA_HWINFO_INTERNAL_H
#define IOSTRATA_HWINFO_INTERNAL_H

#include <stddef.h>

#ifdef HAVE_JANSSON
#include <jansson.h>
#endif

/* ios_hw_node_json reading /proc, /sys, /etc under [root]. */
char *ios_hw_node_json_root(const char *root, const char *target_dir);

#ifdef HAVE_JANSSON
/* The filesystem object for [target_dir] from [root]/proc/self/mountinfo. */
json_t *ios_hw_filesystem(const char *root, const char *target_dir);
#endif

/* Number of CPUs in a list like "0-3,8"; -1 on a syntax error. */
long ios_hw_count_list(const char *s);

/* CephFS data pool of [dir] (layout xattrs, walking up); 0 or -errno. */
int ios_hw_ceph_dir_pool(const char *dir, char *out, size_t len);

#endif
