/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cephcli: the ceph command line tool, run without a shell (posix_spawnp
 * with an argv) and killed after the policy's ceph_timeout, for what the
 * node logic asks the monitors: each OSD's osd_memory_target and the MDS's
 * mds_cache_memory_limit in the configuration database, read, set and
 * removed.
 */
#ifndef IOSTRATA_CEPHCLI_H
#define IOSTRATA_CEPHCLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errbuf.h"
#include "policy.h"

/*
 * Run "ceph [--conf F] --connect-timeout S ARGS..." ([args]
 * NULL-terminated; [cc]: the policy's ceph and ceph_conf, "ceph" in PATH by
 * default) and put its standard output in [out] ([len] bytes, NUL-terminated;
 * may be NULL).  Returns 0 (exit 0), or with [err] naming the command:
 * -ENOENT (no such program), -ETIMEDOUT (killed after ceph_timeout),
 * -EIO (non-zero exit or a signal; the first line of its standard error
 * is quoted), -E2BIG (more output than [len]).
 */
int cephcli_run(const struct ceph_cli *cc, const char *const *args, char *out,
		size_t len, struct ios_err *err);

/*
 * [who]'s ("osd.3", "mds.a") [key] in the monitors' configuration
 * database ("ceph config get WHO KEY", a number of bytes) in [bytes], and
 * whether [who] has an entry of its own for it ("ceph config dump": a
 * line "WHO LEVEL KEY VALUE") in [explicit_] (NULL: not asked).  Returns
 * 0 or -errno as cephcli_run, -EINVAL for an answer that is not a number.
 */
int cephcli_cfg_get(const struct ceph_cli *cc, const char *who, const char *key,
		    uint64_t *bytes, bool *explicit_, struct ios_err *err);

/* "ceph config set WHO KEY BYTES".  0 or -errno. */
int cephcli_cfg_set(const struct ceph_cli *cc, const char *who, const char *key,
		    uint64_t bytes, struct ios_err *err);

/* "ceph config rm WHO KEY".  0 or -errno. */
int cephcli_cfg_rm(const struct ceph_cli *cc, const char *who, const char *key,
		   struct ios_err *err);

/*
 * osd.[id]'s osd_memory_target in the monitors' configuration database
 * ("ceph config get osd.N osd_memory_target": what the OSD gets from the
 * monitors, its own entry or one of osd/global, else Ceph's default) in
 * [bytes], and whether osd.N has an entry of its own there ("ceph config
 * dump": a line "osd.N LEVEL osd_memory_target VALUE") in [explicit_].
 * Returns 0 or -errno as cephcli_run, -EINVAL for an answer that is not
 * a number.
 */
int cephcli_omt_get(const struct ceph_cli *cc, int id, uint64_t *bytes,
		    bool *explicit_, struct ios_err *err);

/* "ceph config set osd.N osd_memory_target BYTES".  0 or -errno. */
int cephcli_omt_set(const struct ceph_cli *cc, int id, uint64_t bytes,
		    struct ios_err *err);

/* "ceph config rm osd.N osd_memory_target".  0 or -errno. */
int cephcli_omt_rm(const struct ceph_cli *cc, int id, struct ios_err *err);

#endif
