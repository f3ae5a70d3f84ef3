/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mem: memory hotplug below a sysfs root.  Offlines memory blocks evenly
 * across NUMA nodes until a target is reached; every attempt is bounded by a
 * timeout (offlining migrates pages and can block), blocks the kernel
 * refuses (EBUSY, EIO, EINVAL) are skipped.
 */
#ifndef IOSTRATA_MEM_H
#define IOSTRATA_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sysfs.h"

struct mem_block {
	int id;
	bool online;
	bool hotplug; /* has a writable "online" file */
	int node;     /* NUMA node, -1 unknown */
};

struct mem_info {
	uint64_t block_size;
	size_t n;
	struct mem_block *blk; /* sorted by id */
};

struct mem_result {
	uint64_t online_bytes; /* read back after the attempt */
	unsigned offlined;     /* blocks taken offline */
	unsigned refused;      /* EBUSY/EIO/EINVAL from the kernel */
	unsigned timeouts;     /* attempts abandoned after the timeout */
	bool deadline;         /* stopped by the overall deadline */
};

/*
 * Read block_size_bytes and every memoryN.  Returns 0, -ENOENT (no memory
 * hotplug), -ENOMEM or a read errno.
 */
int mem_scan(const struct sysfs *fs, struct mem_info *out);
void mem_info_free(struct mem_info *mi);

uint64_t mem_online_bytes(const struct mem_info *mi);
struct mem_block *mem_find(const struct mem_info *mi, int id);

/* What the running system needs, for the floor of a memory target. */
struct mem_usage {
	uint64_t total;  /* MemTotal */
	uint64_t in_use; /* MemTotal - MemAvailable: what must stay resident */
	uint64_t fixed;  /* online bytes mem_apply never offlines (memory0,
			  * blocks without an online file) */
};

/*
 * Fill [out] from <root>/proc/meminfo and [mi] (a fresh scan).  Returns 0,
 * -ENOENT (no meminfo) or -EINVAL (MemTotal/MemAvailable missing or not
 * numbers).
 */
int mem_usage(const struct sysfs *fs, const struct mem_info *mi,
	      struct mem_usage *out);

/* What can really go offline, and why not more (iostrata-node status). */
#define MEM_WHY_MAX 7
struct mem_hotplug_report {
	uint64_t block_size;
	unsigned blocks;  /* memoryN directories */
	unsigned offline; /* offline now */
	/* Online blocks by what keeps them (valid_zones of an online block
	 * names the zone it is in; mem_apply never takes memory0): */
	unsigned movable;  /* ZONE_MOVABLE: offlining migrates every page */
	unsigned kernel;   /* Normal/DMA32/DMA: an unmovable kernel page in
			    * the block makes offlining fail (EBUSY) */
	unsigned spanning; /* "none": spans zones or has holes: refused */
	unsigned unknown;  /* valid_zones missing, unreadable, garbage */
	unsigned fixed;    /* memory0, blocks without an online file */
	unsigned not_removable; /* removable = 0 (older kernels) */
	uint64_t sure_bytes;    /* movable blocks: can go offline */
	uint64_t maybe_bytes;   /* kernel-zone and unknown blocks: may */
	int zones_err;          /* first errno reading valid_zones, or 0 */
	/* Boot settings ("" = not given / unknown): */
	bool cmdline_read;            /* /proc/cmdline was readable */
	bool movable_node;            /* movable_node */
	char movablecore[64];         /* movablecore= */
	char kernelcore[64];          /* kernelcore= */
	char memhp_default_state[32]; /* memhp_default_state= */
	char auto_online[32];         /* auto_online_blocks */
	unsigned n_why;
	char why[MEM_WHY_MAX][320]; /* why not more, one sentence each */
};

/*
 * Fill [r] from the memory blocks' online, valid_zones and removable
 * files, auto_online_blocks and /proc/cmdline below [fs].  Unreadable or
 * garbled files count as unknown, never as an error.  Returns 0, or
 * -ENOENT (no memory hotplug) / -ENOMEM.
 */
int mem_hotplug_report(const struct sysfs *fs, struct mem_hotplug_report *r);

/*
 * Set block [id] online/offline, giving up after [timeout_ms].  Returns 0,
 * -ENOENT, -EPERM (no online file), -ETIMEDOUT or the kernel's errno.
 */
int mem_set_online(const struct sysfs *fs, int id, bool on, int timeout_ms);

/*
 * Offline blocks of [mi] (a fresh scan) until at most [target] bytes are
 * online: round-robin over NUMA nodes (the node with most online blocks
 * first), highest block first, never memory0.  Stops at the target or
 * after [total_ms].  Fills [res].  Returns 0 (even when the target was
 * not reached: the caller compares with its tolerance) or a negative
 * errno for an unexpected failure (e.g. -EACCES), after which the caller
 * must restore.
 */
int mem_apply(const struct sysfs *fs, struct mem_info *mi, uint64_t target,
	      int attempt_ms, int total_ms, struct mem_result *res);

#endif
