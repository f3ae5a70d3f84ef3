/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * siteconf: site descriptions (site/<name>/site.conf, tier files).  INI read
 * with inih; every section and key is known and typed, so a typo or a bad
 * unit is reported at load time with file:line, not when a job runs.
 *
 * Format (rates and sizes use units.h: bare M = MiB, MB = 10^6):
 *
 *   [site]      name, description
 *   [storage]   nodes (count), nodelist, partition, disks_per_node, disk_bw,
 *               disk_bw_measured, controller_bw, nic_bw, cores, memory,
 *               osds_per_node, nvme_per_node, replication, policy,
 *               state_dir (iostrata-node's --policy and --state-dir),
 *               device_dir (layered run: a directory on the OSDs'
 *               filesystem, %n node index, %h node name)
 *   [compute]   nodes (count), nodelist, partition, ranks_per_node
 *   [workload]  file_size, seq_bs, rand_bs, runtime, reps, iodepth,
 *               ioengine, dir, interval
 *   [sweep]     cpus (list), mem (list), disk_bw (list or A..B:STEP),
 *               reps, throttle
 *   [prices]    currency, core, mem_gb, hdd, nvme, node_base
 *   [slurm]     time, account, qos, mpi, extra
 *   [health]    file_size, runtime, reps, history, textfile, threshold
 *   [accept]    tiers, tier, fio_tolerance (fraction), fio (0/1: run fio)
 *   [tier "NAME"]  {rand,seq}_{read,write}_bw (rates), _iops (counts);
 *               the method: bw_bs, iops_bs, ioengine, iodepth, file_size,
 *               direct, runtime (model/accept.h); description
 *
 * Values may contain ${VAR}: replaced at load time by the environment
 * variable when it is set, kept literally otherwise (so a site file can be
 * inspected without the site's environment).  Relative paths in
 * accept.tiers and health.history are resolved against the file's directory.
 * A tier section is stored under the name `tier "NAME"` (one space, double
 * quotes), which is what ios_site_sections() passes to its callback.
 */
#ifndef IOSTRATA_SITECONF_H
#define IOSTRATA_SITECONF_H

#include <stddef.h>
#include <stdint.h>

#include "errbuf.h"

struct ios_site;

/* Type of a value; used by the lists and the generic getter. */
enum ios_site_kind {
	IOS_SITE_STRING = 0,
	IOS_SITE_SIZE,     /* bytes, units.h size grammar */
	IOS_SITE_RATE,     /* bytes/s, units.h rate grammar */
	IOS_SITE_UINT,     /* plain non-negative integer */
	IOS_SITE_DOUBLE,   /* non-negative decimal number */
	IOS_SITE_DURATION, /* seconds, units.h duration grammar */
	IOS_SITE_SIZE_LIST,
	IOS_SITE_RATE_LIST, /* also A..B:STEP */
	IOS_SITE_UINT_LIST,
	IOS_SITE_ENUM, /* one of a fixed set of words */
};

/*
 * Load [path]: a file, or a directory holding site.conf.  Checks every
 * section, key and value.  Returns 0 and sets *out (free with
 * ios_site_free), or -ENOENT/-EACCES (cannot open), -EINVAL (malformed line,
 * unknown section or key, duplicate key, bad value: [err] names
 * file:line), -ENOMEM.
 */
int ios_site_load(const char *path, struct ios_site **out, struct ios_err *err);

/* Free a site (NULL is fine). */
void ios_site_free(struct ios_site *s);

/* The path of the file that was loaded (the site.conf inside a directory). */
const char *ios_site_path(const struct ios_site *s);

/* The directory holding that file. */
const char *ios_site_dir(const struct ios_site *s);

/*
 * The value of [section].[key] after ${VAR} expansion, or NULL when the
 * file does not set it.  For tiers, [section] is `tier "NAME"`.
 */
const char *ios_site_get(const struct ios_site *s, const char *section,
			 const char *key);

/*
 * Typed getters.  Return 0 and set *out, -ENOENT when the key is not set
 * (the message names file:section.key), -EINVAL when the value does not
 * have that type (only possible for keys the loader does not type-check).
 */
int ios_site_get_size(const struct ios_site *s, const char *section,
		      const char *key, uint64_t *out, struct ios_err *err);
int ios_site_get_rate(const struct ios_site *s, const char *section,
		      const char *key, uint64_t *out, struct ios_err *err);
int ios_site_get_uint(const struct ios_site *s, const char *section,
		      const char *key, uint64_t *out, struct ios_err *err);
int ios_site_get_double(const struct ios_site *s, const char *section,
			const char *key, double *out, struct ios_err *err);
int ios_site_get_duration(const struct ios_site *s, const char *section,
			  const char *key, double *out, struct ios_err *err);

/*
 * A list value ([sweep] cpus, mem, disk_bw): items separated by commas
 * and/or blanks, each of the key's element type; for rates also A..B:STEP
 * (inclusive).  Returns the number of items (>= 1) and sets *out to a
 * malloc'd array (caller frees), or -ENOENT, -EINVAL, -ERANGE (range with
 * more than 10000 items), -ENOMEM.
 */
int ios_site_get_list(const struct ios_site *s, const char *section,
		      const char *key, uint64_t **out, struct ios_err *err);

/* The declared kind of [section].[key] (tier sections by prefix), or -1. */
int ios_site_key_kind(const char *section, const char *key);

/*
 * Call cb(section, name, arg) for each section whose name starts with
 * [prefix] ("" for all), in file order.  [name] is the part in quotes for
 * `tier "NAME"` sections, else the section itself.  A non-zero return from
 * cb stops the walk and is returned.  Returns 0 otherwise.
 */
typedef int (*ios_site_section_cb)(const char *section, const char *name,
				   void *arg);
int ios_site_sections(const struct ios_site *s, const char *prefix,
		      ios_site_section_cb cb, void *arg);

/*
 * Cost of one storage node with [cores] cores and [mem_bytes] of RAM from
 * the [prices] section: node_base + cores x core + GB x mem_gb +
 * disks_per_node x hdd + nvme_per_node x nvme (unset prices count 0; GB is
 * 10^9 bytes as vendors price it).  Returns 0, or -ENOENT when [prices] has
 * neither core nor mem_gb.
 */
int ios_site_node_cost(const struct ios_site *s, uint64_t cores,
		       uint64_t mem_bytes, double *out, struct ios_err *err);

#endif
