/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cpu: CPU hotplug below a sysfs root.  Chooses which CPUs to offline so the
 * remaining ones are spread evenly over sockets and NUMA nodes (the paper
 * keeps the ratio), never cpu0, never the last online CPU.
 */
#ifndef IOSTRATA_CPU_H
#define IOSTRATA_CPU_H

#include <stdbool.h>
#include <stddef.h>

#include "sysfs.h"

struct cpu_entry {
	int id;
	bool online;
	bool hotplug; /* has an "online" file (cpu0 usually has none) */
	int pkg;      /* physical_package_id, -1 unknown */
	int node;     /* NUMA node, -1 unknown */
};

struct cpu_info {
	size_t n;
	struct cpu_entry *cpu; /* sorted by id */
};

/*
 * Read every cpuN under sys/devices/system/cpu.  Returns 0, -ENOENT (no
 * CPU directory), -ENOMEM or the errno of a failed read.
 */
int cpu_scan(const struct sysfs *fs, struct cpu_info *out);
void cpu_info_free(struct cpu_info *ci);

unsigned cpu_count_online(const struct cpu_info *ci);

/* Find cpu [id]; NULL when absent. */
struct cpu_entry *cpu_find(const struct cpu_info *ci, int id);

/*
 * Decide which online CPUs to take offline to leave [target] online:
 * sets offline[i] for ci->cpu[i].  Keeps every CPU that cannot be
 * hot-unplugged and cpu0, then adds CPUs round-robin to the socket/NUMA
 * group that has the fewest kept so far.  Returns the number to offline,
 * -EINVAL (target 0) or -ERANGE (target above the online count).
 */
int cpu_plan(const struct cpu_info *ci, unsigned target, bool *offline);

/*
 * Set cpu [id] online or offline.  Returns 0, -ENOENT (no such cpu),
 * -EPERM (not hot-pluggable, or cpu0), or the kernel's errno (-EBUSY).
 */
int cpu_set_online(const struct sysfs *fs, int id, bool on);

/* Format the online CPUs as a list "0,2-3" into [buf]. */
const char *cpu_list_format(const struct cpu_info *ci, char *buf, size_t len);

#endif
