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
 *               filesystem, %n node index, %h node name), disk_class
 *               (the installed drives: a [disk "NAME"] section)
 *   [compute]   nodes (count), nodelist, partition, ranks_per_node
 *   [workload]  file_size, seq_bs, rand_bs, runtime, reps, iodepth,
 *               ioengine, dir, interval; bs (the one block size of the
 *               thread sweep, default 16K), rwmixread (percent reads of
 *               its randrw phase, 0..100, default 60)
 *   [sweep]     cpus (list), mem (list), disk_bw (list or A..B:STEP),
 *               reps, throttle; ranks (list of rank counts of the thread
 *               sweep, e.g. 1, 4, 8, 16, 32, 64: each 1..100000, each once);
 *               replication (list of pool sizes, e.g. 2, 3: each 1..10,
 *               each once; every element of a sweep campaign runs once per
 *               factor, on the RADOS pool REPLICATION_POOL-rN and a CephFS
 *               directory WORKLOAD_DIR/REPLICATION_POOL-rN whose layout
 *               points at it: iostrata-campaign submit creates both when
 *               missing, reuses them when the pool exists with that size;
 *               jobscripts/README.md), replication_pool (the pools' name
 *               prefix, default "iostrata"), replication_pg_num (pg_num of
 *               a pool the campaign creates, 1..4096, default 32);
 *               baseline (both, the default: sweep-cores-mem and
 *               sweep-disk-bw measure the unconstrained storage node, no
 *               --iostrata-* option, before and after each factor's
 *               elements; first: before only; none), baseline_replication
 *               (the factors it is measured at, 1..10 each once, default
 *               the replication list; needs replication)
 * List items are separated by commas or white space; sweep.ranks and
 * sweep.replication are strict: single commas only (an empty item,
 * "1,,4" or a trailing comma, and an item given twice are refused).
 *   [prices]    currency, core, mem_gb, hdd, nvme, node_base (per core,
 *               per GB of RAM, per installed data disk, per NVMe, per node)
 *   [disk "NAME"]  a drive class: bw (sustained rate), iops, price (per
 *               drive), description; every class needs bw and price
 *   [catalogue] cores (list), memory (list): what a node can be bought
 *               with (advise searches these x the disk classes)
 *   [slurm]     time, account, qos, mpi, extra
 *   [health]    file_size, runtime, reps, history, textfile, threshold
 *               (the practical threshold of `iostrata-report health`),
 *               layer_threshold (LAYER=FRACTION,...: a layer's own, e.g.
 *               client=0.6,latency=1.5), k
 *               (its noise multiple), last (nights in the baseline), keep
 *               (nights the index keeps, 0 all), osd_bench_size (bytes
 *               each `ceph tell osd.N bench` writes), md_files (files of
 *               the metadata probe), net_objects (objects of the network
 *               probe per storage host, read from its primary)
 *   [accept]    tiers, tier, fio_tolerance (fraction), fio (0/1: run fio);
 *               profile (tiers: the tier table, the default; nersc: the
 *               NERSC-10-style profile of model/nersc.h, no tier table:
 *               sequential N-to-N and N-to-1, random 4 KiB N-to-N at 1
 *               node, ~15% and all of the partition, size-based, data
 *               written >= 1.5 x the clients' RAM), nersc_bs (its
 *               sequential transfer size, default 1M), nersc_data_factor
 *               (the data rule, default 1.5; smaller only to scale a test
 *               site down, e.g. the local site: every row and the verdict
 *               then say "scaled down", not an acceptance result)
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

/* Call cb(key, arg) for each key declared for [section] (tier and disk
 * sections by prefix), in table order; a non-zero return stops the walk
 * and is returned, else 0. */
int ios_site_keys(const char *section, int (*cb)(const char *key, void *arg),
		  void *arg);

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

/* A drive class of the site ([disk "NAME"]). */
struct ios_disk_class {
	char name[64];
	uint64_t bw;  /* sustained B/s */
	double iops;  /* NAN when not given */
	double price; /* per drive */
};

/*
 * The site's disk classes, sorted by bw then price.  Returns their count
 * (0: none) and sets *out (malloc'd, NULL for none), or -ENOMEM.
 */
int ios_site_disk_classes(const struct ios_site *s,
			  struct ios_disk_class **out);

/* The cost of a whole storage tier in one configuration. */
struct ios_tier_cost {
	uint64_t nodes;      /* storage.nodes (1 when unset) */
	uint64_t disks;      /* nodes x storage.disks_per_node */
	double node;         /* one node without its data disks */
	char disk_class[64]; /* the class priced ("hdd": prices.hdd) */
	double disk_price;   /* per drive */
	uint64_t disk_bw;    /* the class's rate (0: the installed drives) */
	double total;        /* nodes x node + disks x disk_price */
};

/*
 * Cost of the storage tier with [cores] cores and [mem_bytes] of RAM per
 * node and data disks of at least [disk_bw] B/s (0: the installed drives,
 * storage.disk_class, else prices.hdd): the cheapest class whose bw is at
 * least disk_bw.  Returns 0, -ENOENT ([prices] has neither core nor mem_gb,
 * or disk_bw > 0 and no disk class), -ERANGE (no class is fast enough:
 * [err] names the fastest), -ENOMEM.
 */
int ios_site_tier_cost(const struct ios_site *s, uint64_t cores,
		       uint64_t mem_bytes, uint64_t disk_bw,
		       struct ios_tier_cost *out, struct ios_err *err);

#endif
