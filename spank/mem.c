/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mem: scan and offline memory blocks under a sysfs root.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "mem.h"
#include "units.h"

#define MEM_DIR "sys/devices/system/memory"

int mem_scan(const struct sysfs *fs, struct mem_info *out)
{
	struct sysfs_unit *u;
	char buf[64], *end;
	size_t n;
	ssize_t r;
	int rc;

	out->n = 0;
	out->blk = NULL;
	out->block_size = 0;
	/* block_size_bytes is hexadecimal without a 0x prefix. */
	r = sysfs_read(fs, MEM_DIR "/block_size_bytes", buf, sizeof(buf));
	if (r < 0)
		return (int)r;
	errno = 0;
	out->block_size = strtoull(buf, &end, 16);
	if (errno || *end || end == buf || out->block_size == 0)
		return -EINVAL;
	rc = sysfs_scan_units(fs, MEM_DIR, "memory", "online", "1",
			      SYSFS_UNITS_NODE, &u, &n);
	if (rc < 0)
		return rc;
	out->blk = calloc(n, sizeof(*out->blk));
	if (!out->blk) {
		free(u);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		/* No online file: not hot-pluggable, always online. */
		out->blk[i].id = u[i].id;
		out->blk[i].hotplug = u[i].state >= 0;
		out->blk[i].online = u[i].state != 0;
		out->blk[i].node = u[i].node;
	}
	out->n = n;
	free(u);
	return 0;
}

void mem_info_free(struct mem_info *mi)
{
	free(mi->blk);
	mi->blk = NULL;
	mi->n = 0;
}

uint64_t mem_online_bytes(const struct mem_info *mi)
{
	uint64_t k = 0;

	for (size_t i = 0; i < mi->n; i++)
		k += mi->blk[i].online;
	return k * mi->block_size;
}

struct mem_block *mem_find(const struct mem_info *mi, int id)
{
	for (size_t i = 0; i < mi->n; i++)
		if (mi->blk[i].id == id)
			return &mi->blk[i];
	return NULL;
}

int mem_set_online(const struct sysfs *fs, int id, bool on, int timeout_ms)
{
	char path[128];

	if (id < 0)
		return -ENOENT;
	if (sysfs_pathf(path, sizeof(path), MEM_DIR "/memory%d", id) < 0)
		return -ENAMETOOLONG;
	if (!sysfs_exists(fs, path))
		return -ENOENT;
	if (sysfs_pathf(path, sizeof(path), MEM_DIR "/memory%d/online", id) < 0)
		return -ENAMETOOLONG;
	if (!sysfs_exists(fs, path))
		return -EPERM;
	return sysfs_write_timeout(fs, path, on ? "1" : "0", timeout_ms);
}

/* "Key:   123 kB" from meminfo text [buf], in bytes. */
static int meminfo_kb(const char *buf, const char *key, uint64_t *out)
{
	size_t kl = strlen(key);
	const char *p = buf;

	while (p && *p) {
		if (strncmp(p, key, kl) == 0 && p[kl] == ':') {
			char *end;
			unsigned long long v;

			p += kl + 1;
			while (*p == ' ' || *p == '\t')
				p++;
			if (*p < '0' || *p > '9')
				return -EINVAL;
			errno = 0;
			v = strtoull(p, &end, 10);
			if (errno || strncmp(end, " kB", 3) != 0 ||
			    v > UINT64_MAX / 1024)
				return -EINVAL;
			*out = (uint64_t)v * 1024;
			return 0;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -EINVAL;
}

int mem_usage(const struct sysfs *fs, const struct mem_info *mi,
	      struct mem_usage *out)
{
	char buf[8192];
	uint64_t avail;
	ssize_t n;

	memset(out, 0, sizeof(*out));
	n = sysfs_read(fs, "proc/meminfo", buf, sizeof(buf));
	if (n == -EOVERFLOW) /* the first lines are all we need */
		n = -EINVAL;
	if (n < 0)
		return (int)n;
	if (meminfo_kb(buf, "MemTotal", &out->total) < 0 ||
	    meminfo_kb(buf, "MemAvailable", &avail) < 0)
		return -EINVAL;
	out->in_use = avail < out->total ? out->total - avail : 0;
	for (size_t i = 0; i < mi->n; i++)
		if (mi->blk[i].online &&
		    (!mi->blk[i].hotplug || mi->blk[i].id == 0))
			out->fixed += mi->block_size;
	return 0;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

int mem_apply(const struct sysfs *fs, struct mem_info *mi, uint64_t target,
	      int attempt_ms, int total_ms, struct mem_result *res)
{
	long deadline = now_ms() + total_ms;
	bool *tried;
	int rc = 0;

	memset(res, 0, sizeof(*res));
	tried = calloc(mi->n ? mi->n : 1, sizeof(*tried));
	if (!tried)
		return -ENOMEM;
	while (mem_online_bytes(mi) > target) {
		/* Node with the most online blocks that still has a
		 * candidate, then its highest untried block. */
		long best_i = -1;
		int best_node = 0;
		unsigned best_cnt = 0;
		bool found = false;

		for (size_t i = 0; i < mi->n; i++) {
			const struct mem_block *b = &mi->blk[i];
			unsigned cnt = 0;

			if (!b->online || !b->hotplug || tried[i] || b->id == 0)
				continue;
			if (found && b->node == best_node)
				continue;
			for (size_t j = 0; j < mi->n; j++)
				cnt += mi->blk[j].online &&
				       mi->blk[j].node == b->node;
			if (!found || cnt > best_cnt) {
				found = true;
				best_node = b->node;
				best_cnt = cnt;
			}
		}
		if (!found)
			break;
		for (size_t i = mi->n; i-- > 0;) {
			const struct mem_block *b = &mi->blk[i];

			if (b->node == best_node && b->online && b->hotplug &&
			    !tried[i] && b->id != 0) {
				best_i = (long)i;
				break;
			}
		}
		if (best_i < 0)
			break;
		if (now_ms() >= deadline) {
			res->deadline = true;
			break;
		}
		tried[best_i] = true;
		rc = mem_set_online(fs, mi->blk[best_i].id, false, attempt_ms);
		switch (rc) {
		case 0:
			mi->blk[best_i].online = false;
			res->offlined++;
			continue;
		case -EBUSY:
		case -EIO:
		case -EINVAL:
		case -EAGAIN:
		case -EINTR:
			res->refused++;
			log_debug("iostrata: memory%d: offline refused: %s",
				  mi->blk[best_i].id, strerror(-rc));
			rc = 0;
			continue;
		case -ETIMEDOUT:
			res->timeouts++;
			log_verbose(
				"iostrata: memory%d: offline abandoned after %d ms",
				mi->blk[best_i].id, attempt_ms);
			rc = 0;
			continue;
		default:
			log_err("iostrata: memory%d: write online=0: %s",
				mi->blk[best_i].id, strerror(-rc));
			goto out;
		}
	}
out:
	free(tried);
	res->online_bytes = mem_online_bytes(mi);
	return rc;
}

/* [v] as a printable word of at most [len]-1 characters, else "?". */
static void copy_word(char *dst, size_t len, const char *v, size_t n)
{
	if (n == 0 || n >= len) {
		snprintf(dst, len, "?");
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (!((v[i] >= 'a' && v[i] <= 'z') ||
		      (v[i] >= 'A' && v[i] <= 'Z') ||
		      (v[i] >= '0' && v[i] <= '9') || strchr("%._-,", v[i]))) {
			snprintf(dst, len, "?");
			return;
		}
	memcpy(dst, v, n);
	dst[n] = '\0';
}

/* The kernel parameters that decide what is movable.  Words after "--"
 * belong to init. */
static void read_cmdline(const struct sysfs *fs, struct mem_hotplug_report *r)
{
	static const struct {
		const char *key;
		size_t off, len;
	} keys[] = {
		{"movablecore=",
		 offsetof(struct mem_hotplug_report, movablecore),
		 sizeof(((struct mem_hotplug_report *)0)->movablecore)},
		{"kernelcore=", offsetof(struct mem_hotplug_report, kernelcore),
		 sizeof(((struct mem_hotplug_report *)0)->kernelcore)},
		{"memhp_default_state=",
		 offsetof(struct mem_hotplug_report, memhp_default_state),
		 sizeof(((struct mem_hotplug_report *)0)->memhp_default_state)},
	};
	char buf[8192];
	const char *p;

	if (sysfs_read(fs, "proc/cmdline", buf, sizeof(buf)) < 0)
		return;
	r->cmdline_read = true;
	for (p = buf; *p;) {
		size_t n;

		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		n = strcspn(p, " \t\n");
		if (n == 0)
			break;
		if (n == 2 && strncmp(p, "--", 2) == 0)
			break;
		if (n == 12 && strncmp(p, "movable_node", 12) == 0)
			r->movable_node = true;
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			size_t kl = strlen(keys[k].key);

			if (n > kl && strncmp(p, keys[k].key, kl) == 0)
				copy_word((char *)r + keys[k].off, keys[k].len,
					  p + kl, n - kl);
		}
		p += n;
	}
}

static void add_why(struct mem_hotplug_report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add_why(struct mem_hotplug_report *r, const char *fmt, ...)
{
	va_list ap;

	if (r->n_why >= MEM_WHY_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(r->why[r->n_why++], sizeof(r->why[0]), fmt, ap);
	va_end(ap);
}

/* The zone word of an online block's valid_zones. */
enum zone_kind { ZK_MOVABLE, ZK_KERNEL, ZK_SPANNING, ZK_UNKNOWN };

static enum zone_kind zone_of(const struct sysfs *fs, int id, int *err)
{
	char path[128], buf[128];
	ssize_t n;

	if (sysfs_pathf(path, sizeof(path), MEM_DIR "/memory%d/valid_zones",
			id) < 0)
		return ZK_UNKNOWN;
	n = sysfs_read(fs, path, buf, sizeof(buf));
	if (n < 0) {
		if (!*err)
			*err = (int)n;
		return ZK_UNKNOWN;
	}
	/* An online block shows the one zone it is in. */
	if (strcmp(buf, "Movable") == 0)
		return ZK_MOVABLE;
	if (strcmp(buf, "Normal") == 0 || strcmp(buf, "DMA32") == 0 ||
	    strcmp(buf, "DMA") == 0)
		return ZK_KERNEL;
	if (strcmp(buf, "none") == 0)
		return ZK_SPANNING;
	return ZK_UNKNOWN;
}

int mem_hotplug_report(const struct sysfs *fs, struct mem_hotplug_report *r)
{
	struct mem_info mi;
	char buf[64], s1[32];
	bool boot_movable;
	int rc;

	memset(r, 0, sizeof(*r));
	rc = mem_scan(fs, &mi);
	if (rc < 0)
		return rc;
	r->block_size = mi.block_size;
	r->blocks = (unsigned)mi.n;
	for (size_t i = 0; i < mi.n; i++) {
		const struct mem_block *b = &mi.blk[i];
		char path[128];
		enum zone_kind z;

		if (!b->online) {
			r->offline++;
			continue;
		}
		if (!b->hotplug || b->id == 0) {
			r->fixed++;
			continue;
		}
		if (sysfs_pathf(path, sizeof(path),
				MEM_DIR "/memory%d/removable", b->id) == 0 &&
		    sysfs_read(fs, path, buf, sizeof(buf)) >= 0 &&
		    strcmp(buf, "0") == 0) {
			r->not_removable++;
			continue;
		}
		z = zone_of(fs, b->id, &r->zones_err);
		r->movable += z == ZK_MOVABLE;
		r->kernel += z == ZK_KERNEL;
		r->spanning += z == ZK_SPANNING;
		r->unknown += z == ZK_UNKNOWN;
	}
	mem_info_free(&mi);
	r->sure_bytes = (uint64_t)r->movable * r->block_size;
	r->maybe_bytes = (uint64_t)(r->kernel + r->unknown) * r->block_size;
	if (sysfs_read(fs, MEM_DIR "/auto_online_blocks", buf, sizeof(buf)) >=
	    0)
		copy_word(r->auto_online, sizeof(r->auto_online), buf,
			  strlen(buf));
	read_cmdline(fs, r);

	boot_movable = r->movable_node || r->movablecore[0];
	if (r->fixed)
		add_why(r,
			"%u blocks (%s) never go offline: memory0 and blocks without an online file",
			r->fixed,
			ios_fmt_size((uint64_t)r->fixed * r->block_size, s1,
				     sizeof(s1)));
	if (r->kernel)
		add_why(r,
			"%u online blocks (%s) are in kernel zones (Normal, DMA32, DMA): offlining one fails (EBUSY) wherever the kernel holds an unmovable page; boot with movablecore=SIZE (or movable_node where the firmware marks hot-pluggable NUMA nodes) to put memory in ZONE_MOVABLE%s",
			r->kernel,
			ios_fmt_size((uint64_t)r->kernel * r->block_size, s1,
				     sizeof(s1)),
			!r->cmdline_read ? " (/proc/cmdline unreadable)"
			: boot_movable   ? ""
					 : " (/proc/cmdline has neither)");
	if (r->spanning)
		add_why(r,
			"%u online blocks (%s) span zones or have holes (valid_zones \"none\"): the kernel refuses to offline them",
			r->spanning,
			ios_fmt_size((uint64_t)r->spanning * r->block_size, s1,
				     sizeof(s1)));
	if (r->unknown)
		add_why(r,
			"%u online blocks (%s): valid_zones missing, unreadable or not understood%s%s%s: cannot tell",
			r->unknown,
			ios_fmt_size((uint64_t)r->unknown * r->block_size, s1,
				     sizeof(s1)),
			r->zones_err ? " (" : "",
			r->zones_err ? strerror(-r->zones_err) : "",
			r->zones_err ? ")" : "");
	if (r->not_removable)
		add_why(r,
			"%u online blocks (%s) say removable=0: the kernel will not offline them",
			r->not_removable,
			ios_fmt_size((uint64_t)r->not_removable * r->block_size,
				     s1, sizeof(s1)));
	if (!r->auto_online[0])
		add_why(r,
			"auto_online_blocks missing or unreadable: cannot tell where hot-added memory goes");
	else if (strcmp(r->auto_online, "online_movable") != 0)
		add_why(r,
			"auto_online_blocks is \"%s\", not \"online_movable\": hot-added memory %s; boot with memhp_default_state=online_movable",
			r->auto_online,
			strcmp(r->auto_online, "offline") == 0
				? "stays offline until onlined by hand, into a kernel zone by default"
				: "goes to a kernel zone");
	return 0;
}
