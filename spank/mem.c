/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mem: scan and offline memory blocks under a sysfs root.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "mem.h"

#define MEM_DIR "sys/devices/system/memory"

static int cmp_blk(const void *a, const void *b)
{
	const struct mem_block *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

int mem_scan(const struct sysfs *fs, struct mem_info *out)
{
	struct mem_block *v = NULL, *nv;
	size_t n = 0, cap = 0;
	struct dirent *de;
	char path[128], buf[64], *end;
	DIR *d;
	int rc = 0;
	ssize_t r;

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
	d = sysfs_opendir(fs, MEM_DIR);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		int id = sysfs_parse_id(de->d_name, "memory");
		struct mem_block *b;

		if (id < 0)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				rc = -ENOMEM;
				goto out;
			}
			v = nv;
		}
		b = &v[n++];
		b->id = id;
		if (sysfs_pathf(path, sizeof(path), MEM_DIR "/memory%d/online",
				id) < 0) {
			rc = -ENAMETOOLONG;
			goto out;
		}
		r = sysfs_read(fs, path, buf, sizeof(buf));
		if (r == -ENOENT) {
			b->hotplug = false;
			b->online = true;
		} else if (r < 0) {
			rc = (int)r;
			goto out;
		} else {
			b->hotplug = true;
			b->online = strcmp(buf, "1") == 0;
		}
		b->node = sysfs_pathf(path, sizeof(path), MEM_DIR "/memory%d",
				      id) == 0
				  ? sysfs_node_of(fs, path)
				  : -1;
	}
	if (n == 0)
		rc = -ENOENT;
out:
	closedir(d);
	if (rc < 0) {
		free(v);
		return rc;
	}
	qsort(v, n, sizeof(*v), cmp_blk);
	out->n = n;
	out->blk = v;
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
