/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cpu: scan, plan and toggle CPU hotplug under a sysfs root.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "log.h"

#define CPU_DIR "sys/devices/system/cpu"

int cpu_scan(const struct sysfs *fs, struct cpu_info *out)
{
	struct sysfs_unit *u;
	char path[128];
	size_t n;
	int rc;

	out->n = 0;
	out->cpu = NULL;
	rc = sysfs_scan_units(fs, CPU_DIR, "cpu", "online", "1",
			      SYSFS_UNITS_NODE, &u, &n);
	if (rc < 0)
		return rc;
	out->cpu = calloc(n, sizeof(*out->cpu));
	if (!out->cpu) {
		free(u);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		struct cpu_entry *c = &out->cpu[i];
		uint64_t pkg;

		c->id = u[i].id;
		/* No online file: not hot-pluggable, always online; cpu0 is
		 * never touched (cpu.h). */
		c->hotplug = u[i].state >= 0 && c->id != 0;
		c->online = u[i].state != 0;
		c->pkg = sysfs_pathf(path, sizeof(path),
				     CPU_DIR
				     "/cpu%d/topology/physical_package_id",
				     c->id) == 0 &&
					 sysfs_read_u64(fs, path, &pkg) == 0
				 ? (int)pkg
				 : -1;
		c->node = u[i].node;
	}
	out->n = n;
	free(u);
	return 0;
}

void cpu_info_free(struct cpu_info *ci)
{
	free(ci->cpu);
	ci->cpu = NULL;
	ci->n = 0;
}

unsigned cpu_count_online(const struct cpu_info *ci)
{
	unsigned k = 0;

	for (size_t i = 0; i < ci->n; i++)
		k += ci->cpu[i].online;
	return k;
}

struct cpu_entry *cpu_find(const struct cpu_info *ci, int id)
{
	for (size_t i = 0; i < ci->n; i++)
		if (ci->cpu[i].id == id)
			return &ci->cpu[i];
	return NULL;
}

int cpu_plan(const struct cpu_info *ci, unsigned target, bool *offline)
{
	unsigned online = cpu_count_online(ci), kept = 0;
	size_t ng = 0;
	struct {
		int pkg, node;
		unsigned kept;
	} * g;
	int *grp;
	bool *keep;
	int nofl = 0;

	if (target == 0)
		return -EINVAL;
	if (target > online)
		return -ERANGE;
	g = calloc(ci->n ? ci->n : 1, sizeof(*g));
	grp = calloc(ci->n ? ci->n : 1, sizeof(*grp));
	keep = calloc(ci->n ? ci->n : 1, sizeof(*keep));
	if (!g || !grp || !keep) {
		free(g);
		free(grp);
		free(keep);
		return -ENOMEM;
	}
	for (size_t i = 0; i < ci->n; i++) {
		const struct cpu_entry *c = &ci->cpu[i];
		size_t j;

		grp[i] = -1;
		if (!c->online)
			continue;
		for (j = 0; j < ng; j++)
			if (g[j].pkg == c->pkg && g[j].node == c->node)
				break;
		if (j == ng) {
			g[ng].pkg = c->pkg;
			g[ng].node = c->node;
			ng++;
		}
		grp[i] = (int)j;
		if (!c->hotplug) {
			keep[i] = true;
			g[j].kept++;
			kept++;
		}
	}
	/* Round-robin: the group with the fewest kept CPUs gets the next. */
	while (kept < target) {
		long best = -1;
		size_t bi = 0;

		for (size_t i = 0; i < ci->n; i++) {
			if (grp[i] < 0 || keep[i])
				continue;
			if (best < 0 || g[grp[i]].kept < g[best].kept) {
				best = grp[i];
				bi = i;
			}
		}
		if (best < 0)
			break;
		keep[bi] = true;
		g[best].kept++;
		kept++;
	}
	for (size_t i = 0; i < ci->n; i++) {
		offline[i] = grp[i] >= 0 && !keep[i];
		nofl += offline[i];
	}
	free(g);
	free(grp);
	free(keep);
	return nofl;
}

int cpu_set_online(const struct sysfs *fs, int id, bool on)
{
	char path[128];
	int rc;

	if (id <= 0)
		return -EPERM;
	if (sysfs_pathf(path, sizeof(path), CPU_DIR "/cpu%d", id) < 0)
		return -ENAMETOOLONG;
	if (!sysfs_exists(fs, path))
		return -ENOENT;
	if (sysfs_pathf(path, sizeof(path), CPU_DIR "/cpu%d/online", id) < 0)
		return -ENAMETOOLONG;
	if (!sysfs_exists(fs, path))
		return -EPERM;
	rc = sysfs_write(fs, path, on ? "1" : "0");
	if (rc < 0) {
		char full[PATH_MAX + 64];

		log_err("iostrata: cpu %d: write %s: %s", id,
			sysfs_fullpath(fs, path, full, sizeof(full)),
			strerror(-rc));
	}
	return rc;
}

const char *cpu_list_format(const struct cpu_info *ci, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ci->n; i++) {
		size_t j = i;

		if (!ci->cpu[i].online)
			continue;
		while (j + 1 < ci->n && ci->cpu[j + 1].online &&
		       ci->cpu[j + 1].id == ci->cpu[j].id + 1)
			j++;
		if (off < len) {
			if (j == i)
				off += (size_t)snprintf(buf + off, len - off,
							"%s%d", off ? "," : "",
							ci->cpu[i].id);
			else
				off += (size_t)snprintf(
					buf + off, len - off, "%s%d-%d",
					off ? "," : "", ci->cpu[i].id,
					ci->cpu[j].id);
		}
		i = j;
	}
	return buf;
}
