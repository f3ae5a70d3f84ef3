/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hostfs: root-directory based reads of kernel files (openat2 with
 * RESOLVE_BENEATH, O_NOFOLLOW), the facts' read by path, and the scan of
 * numbered sysfs units.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifdef __has_include
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#define HAVE_OPENAT2_H 1
#endif
#endif

#include "hostfs.h"

int (*sysfs_read_fault_hook)(const char *path);

int sysfs_open(struct sysfs *fs, const char *root)
{
	int fd;

	fs->dirfd = -1;
	if (!root || !*root)
		root = "/";
	if (strlen(root) >= sizeof(fs->root))
		return -ENAMETOOLONG;
	fd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	fs->dirfd = fd;
	snprintf(fs->root, sizeof(fs->root), "%s", root);
	return 0;
}

void sysfs_close(struct sysfs *fs)
{
	if (fs->dirfd >= 0)
		close(fs->dirfd);
	fs->dirfd = -1;
}

const char *sysfs_rel(const char *path)
{
	while (*path == '/')
		path++;
	return *path ? path : ".";
}

int sysfs_openat(const struct sysfs *fs, const char *path, int flags,
		 mode_t mode)
{
	int fd;

	flags |= O_CLOEXEC | O_NOFOLLOW;
#if defined(HAVE_OPENAT2_H) && defined(SYS_openat2)
	{
		struct open_how how;

		memset(&how, 0, sizeof(how));
		how.flags = (uint64_t)flags;
		how.mode = (flags & O_CREAT) ? mode : 0;
		how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
		fd = (int)syscall(SYS_openat2, fs->dirfd, sysfs_rel(path), &how,
				  sizeof(how));
		if (fd >= 0)
			return fd;
		if (errno != ENOSYS && errno != EPERM)
			return -errno;
		/* EPERM: seccomp filters; fall back to plain openat. */
	}
#endif
	if (strstr(path, ".."))
		return -EXDEV;
	fd = openat(fs->dirfd, sysfs_rel(path), flags, mode);
	return fd < 0 ? -errno : fd;
}

/*
 * The one read loop: [fd] into [buf], NUL-terminated.  Returns the length,
 * or -EOVERFLOW when more was there than [len]-1 bytes ([buf] holds those
 * first bytes, [*off] their length), or -errno.  Closes [fd].
 */
static ssize_t read_fd(int fd, char *buf, size_t len, size_t *off)
{
	ssize_t n;
	int rc = 0;

	*off = 0;
	for (;;) {
		if (*off >= len - 1) {
			char c;

			n = read(fd, &c, 1);
			if (n > 0)
				rc = -EOVERFLOW;
			else if (n < 0)
				rc = -errno;
			break;
		}
		n = read(fd, buf + *off, len - 1 - *off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			break;
		}
		if (n == 0)
			break;
		*off += (size_t)n;
	}
	close(fd);
	buf[*off] = '\0';
	return rc < 0 ? rc : (ssize_t)*off;
}

ssize_t sysfs_read(const struct sysfs *fs, const char *path, char *buf,
		   size_t len)
{
	size_t off;
	ssize_t rc;
	int fd;

	if (len == 0)
		return -EINVAL;
	if (sysfs_read_fault_hook &&
	    (rc = sysfs_read_fault_hook(sysfs_rel(path))) < 0)
		return rc;
	fd = sysfs_openat(fs, path, O_RDONLY, 0);
	if (fd < 0)
		return fd;
	rc = read_fd(fd, buf, len, &off);
	if (rc < 0)
		return rc;
	while (off > 0 && (buf[off - 1] == '\n' || buf[off - 1] == ' '))
		buf[--off] = '\0';
	return (ssize_t)off;
}

ssize_t sysfs_read_path(const char *root, const char *path, char *buf,
			size_t len)
{
	char full[PATH_MAX];
	size_t off;
	ssize_t rc;
	int fd;

	if (len == 0)
		return -EINVAL;
	if (snprintf(full, sizeof(full), "%s/%s", root, path) >=
	    (int)sizeof(full))
		return -ENAMETOOLONG;
	fd = open(full, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	rc = read_fd(fd, buf, len, &off);
	if (rc < 0 && rc != -EOVERFLOW)
		return rc;
	while (off > 0 && isspace((unsigned char)buf[off - 1]))
		buf[--off] = '\0';
	return (ssize_t)off;
}

int sysfs_read_u64(const struct sysfs *fs, const char *path, uint64_t *out)
{
	char buf[64], *end;
	unsigned long long v;
	ssize_t n;

	n = sysfs_read(fs, path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	errno = 0;
	if (buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X'))
		v = strtoull(buf + 2, &end, 16);
	else if (buf[0] >= '0' && buf[0] <= '9')
		v = strtoull(buf, &end, 10);
	else
		return -EINVAL;
	if (errno || *end)
		return -EINVAL;
	/* block_size_bytes is hex without 0x on Linux: caller handles it. */
	*out = v;
	return 0;
}

int sysfs_exists(const struct sysfs *fs, const char *path)
{
	struct stat st;

	return fstatat(fs->dirfd, sysfs_rel(path), &st, AT_SYMLINK_NOFOLLOW) ==
	       0;
}

DIR *sysfs_opendir(const struct sysfs *fs, const char *path)
{
	int fd = sysfs_openat(fs, path, O_RDONLY | O_DIRECTORY, 0);
	DIR *d;

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	d = fdopendir(fd);
	if (!d) {
		int e = errno;

		close(fd);
		errno = e;
	}
	return d;
}

int sysfs_parse_id(const char *name, const char *prefix)
{
	size_t pl = strlen(prefix);
	const char *p = name + pl;
	long v = 0;

	if (strncmp(name, prefix, pl) != 0 || !*p)
		return -1;
	for (; *p; p++) {
		if (*p < '0' || *p > '9' || v > 1000000)
			return -1;
		v = v * 10 + (*p - '0');
	}
	return (int)v;
}

int sysfs_node_of(const struct sysfs *fs, const char *dir)
{
	struct dirent *de;
	DIR *d = sysfs_opendir(fs, dir);
	int node = -1;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		int id = sysfs_parse_id(de->d_name, "node");

		if (id >= 0) {
			node = id;
			break;
		}
	}
	closedir(d);
	return node;
}

static int cmp_unit(const void *a, const void *b)
{
	const struct sysfs_unit *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* The state of unit [u] from its [attr]: 0, 1 or -1 (see hostfs.h);
 * 1 when the scan skips it, or a negative errno. */
static int unit_state(const struct sysfs *fs, const char *dir,
		      const char *prefix, const char *attr, const char *on,
		      unsigned flags, struct sysfs_unit *u)
{
	char path[PATH_MAX], buf[32];
	ssize_t r;

	u->state = -1;
	if (!attr)
		return 0;
	if (sysfs_pathf(path, sizeof(path), "%s/%s%d/%s", dir, prefix, u->id,
			attr) < 0)
		return -ENAMETOOLONG;
	r = sysfs_read(fs, path, buf, sizeof(buf));
	if (flags & SYSFS_UNITS_SKIP) {
		if (r < 0 && r != -EOVERFLOW)
			return 1;
		u->state = r >= 0 && strcmp(buf, on) == 0;
		return 0;
	}
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return (int)r;
	u->state = strcmp(buf, on) == 0;
	return 0;
}

int sysfs_scan_units(const struct sysfs *fs, const char *dir,
		     const char *prefix, const char *attr, const char *on,
		     unsigned flags, struct sysfs_unit **out, size_t *n)
{
	struct sysfs_unit *v = NULL, *nv;
	size_t k = 0, cap = 0;
	struct dirent *de;
	char path[PATH_MAX];
	DIR *d;
	int rc = 0;

	*out = NULL;
	*n = 0;
	d = sysfs_opendir(fs, dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		int id = sysfs_parse_id(de->d_name, prefix), s;

		if (id < 0)
			continue;
		if (k == cap) {
			cap = cap ? cap * 2 : 16;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				rc = -ENOMEM;
				goto out;
			}
			v = nv;
		}
		v[k].id = id;
		v[k].node = -1;
		s = unit_state(fs, dir, prefix, attr, on, flags, &v[k]);
		if (s < 0) {
			rc = s;
			goto out;
		}
		if (s > 0)
			continue;
		if ((flags & SYSFS_UNITS_NODE) &&
		    sysfs_pathf(path, sizeof(path), "%s/%s%d", dir, prefix,
				id) == 0)
			v[k].node = sysfs_node_of(fs, path);
		k++;
	}
	if (k == 0)
		rc = -ENOENT;
out:
	closedir(d);
	if (rc < 0) {
		free(v);
		return rc;
	}
	qsort(v, k, sizeof(*v), cmp_unit);
	*out = v;
	*n = k;
	return 0;
}

int sysfs_count_units(const char *root, const char *dir, const char *prefix,
		      const char *attr, const char *on, size_t *total,
		      size_t *non)
{
	struct sysfs fs;
	struct sysfs_unit *u;
	size_t n;
	int rc;

	*total = 0;
	if (non)
		*non = 0;
	rc = sysfs_open(&fs, root);
	if (rc < 0)
		return rc;
	rc = sysfs_scan_units(&fs, dir, prefix, attr, on, SYSFS_UNITS_SKIP, &u,
			      &n);
	sysfs_close(&fs);
	if (rc < 0)
		return rc;
	*total = n;
	for (size_t i = 0; non && i < n; i++)
		*non += u[i].state == 1;
	free(u);
	return 0;
}

int sysfs_pathf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (len == 0)
		return -ENAMETOOLONG;
	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len) {
		buf[0] = '\0';
		return -ENAMETOOLONG;
	}
	return 0;
}

const char *sysfs_fullpath(const struct sysfs *fs, const char *path, char *buf,
			   size_t len)
{
	const char *r = sysfs_rel(path);

	if (strcmp(fs->root, "/") == 0)
		snprintf(buf, len, "/%s", r);
	else
		snprintf(buf, len, "%s/%s", fs->root, r);
	return buf;
}
