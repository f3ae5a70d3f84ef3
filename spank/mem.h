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
