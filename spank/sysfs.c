/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysfs: root-directory based access to kernel files (openat2 with
 * RESOLVE_BENEATH, O_NOFOLLOW), plus a write that can be abandoned.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __has_include
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#define HAVE_OPENAT2_H 1
#endif
#endif

#include "sysfs.h"

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

static const char *rel(const char *path)
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
		fd = (int)syscall(SYS_openat2, fs->dirfd, rel(path), &how,
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
	fd = openat(fs->dirfd, rel(path), flags, mode);
	return fd < 0 ? -errno : fd;
}

ssize_t sysfs_read(const struct sysfs *fs, const char *path, char *buf,
		   size_t len)
{
	size_t off = 0;
	ssize_t n;
	int fd, rc = 0;

	if (len == 0)
		return -EINVAL;
	if (sysfs_read_fault_hook &&
	    (rc = sysfs_read_fault_hook(rel(path))) < 0)
		return rc;
	fd = sysfs_openat(fs, path, O_RDONLY, 0);
	if (fd < 0)
		return fd;
	for (;;) {
		if (off >= len - 1) {
			char c;

			n = read(fd, &c, 1);
			if (n > 0)
				rc = -EOVERFLOW;
			else if (n < 0)
				rc = -errno;
			break;
		}
		n = read(fd, buf + off, len - 1 - off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			break;
		}
		if (n == 0)
			break;
		off += (size_t)n;
	}
	close(fd);
	if (rc < 0)
		return rc;
	buf[off] = '\0';
	while (off > 0 && (buf[off - 1] == '\n' || buf[off - 1] == ' '))
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

int (*sysfs_fault_hook)(const char *path, const char *val);
int (*sysfs_read_fault_hook)(const char *path);

int sysfs_write(const struct sysfs *fs, const char *path, const char *val)
{
	size_t len = strlen(val);
	ssize_t n;
	int fd, rc = 0;

	if (sysfs_fault_hook && (rc = sysfs_fault_hook(rel(path), val)) != 0)
		return rc < 0 ? rc : 0;

	fd = sysfs_openat(fs, path, O_WRONLY | O_TRUNC, 0);
	if (fd < 0)
		return fd;
	do {
		n = write(fd, val, len);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		rc = -errno;
	else if ((size_t)n != len)
		rc = -EIO;
	if (close(fd) < 0 && rc == 0)
		rc = -errno;
	return rc;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* Wait for [pid] at most [ms]; returns 1 and the status when it ended. */
static int wait_bounded(pid_t pid, long ms, int *status)
{
	long deadline = now_ms() + ms;
	struct timespec nap = {0, 2 * 1000 * 1000};

	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			return 1;
		if (r < 0 && errno != EINTR)
			return -1;
		if (now_ms() >= deadline)
			return 0;
		nanosleep(&nap, NULL);
		if (nap.tv_nsec < 20 * 1000 * 1000)
			nap.tv_nsec *= 2;
	}
}

int sysfs_write_timeout(const struct sysfs *fs, const char *path,
			const char *val, int timeout_ms)
{
	size_t len = strlen(val);
	int status = 0, w;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		/* Child: async-signal-safe calls only (the parent may be
		 * multi-threaded, e.g. slurmd). */
		int fd, f = 0;
		ssize_t n;

		if (sysfs_fault_hook &&
		    (f = sysfs_fault_hook(rel(path), val)) < 0)
			_exit(-f > 255 ? EIO : -f);
		if (f > 0)
			_exit(0);
		fd = sysfs_openat(fs, path, O_WRONLY | O_TRUNC, 0);

		if (fd < 0)
			_exit(-fd > 255 ? EIO : -fd);
		n = write(fd, val, len);
		if (n < 0)
			_exit(errno > 255 ? EIO : errno);
		if ((size_t)n != len)
			_exit(EIO);
		if (close(fd) < 0)
			_exit(errno > 255 ? EIO : errno);
		_exit(0);
	}
	w = wait_bounded(pid, timeout_ms, &status);
	if (w == 0) {
		/* The kernel checks for fatal signals while offlining, so
		 * SIGKILL ends the attempt; wait briefly, then abandon. */
		kill(pid, SIGKILL);
		if (wait_bounded(pid, 5000, &status) != 1)
			return -ETIMEDOUT;
		return -ETIMEDOUT;
	}
	if (w < 0)
		return -ECHILD;
	if (WIFEXITED(status))
		return -WEXITSTATUS(status);
	return -EINTR;
}

int sysfs_exists(const struct sysfs *fs, const char *path)
{
	struct stat st;

	return fstatat(fs->dirfd, rel(path), &st, AT_SYMLINK_NOFOLLOW) == 0;
}

void (*sysfs_dir_hook)(const char *path, int made);

/* The parent of [path] opened below the root (an fd), its last
 * component in [base]. */
static int open_parent(const struct sysfs *fs, const char *path,
		       const char **base)
{
	char parent[PATH_MAX];
	const char *slash = strrchr(path, '/');
	size_t n;

	if (!slash || !slash[1])
		return -EINVAL;
	n = (size_t)(slash - path);
	if (n >= sizeof(parent))
		return -ENAMETOOLONG;
	memcpy(parent, path, n);
	parent[n] = '\0';
	*base = slash + 1;
	if (strcmp(*base, ".") == 0 || strcmp(*base, "..") == 0)
		return -EINVAL;
	return sysfs_openat(fs, n ? parent : "/", O_PATH | O_DIRECTORY, 0);
}

int sysfs_mkdir(const struct sysfs *fs, const char *path, mode_t mode)
{
	const char *base;
	int pfd = open_parent(fs, path, &base), rc = 0;

	if (pfd < 0)
		return pfd;
	if (mkdirat(pfd, base, mode) < 0)
		rc = -errno;
	close(pfd);
	if (rc == 0 && sysfs_dir_hook)
		sysfs_dir_hook(rel(path), 1);
	return rc;
}

int sysfs_rmdir(const struct sysfs *fs, const char *path)
{
	const char *base;
	int pfd = open_parent(fs, path, &base), rc = 0;

	if (pfd < 0)
		return pfd;
	if (sysfs_dir_hook)
		sysfs_dir_hook(rel(path), 0);
	if (unlinkat(pfd, base, AT_REMOVEDIR) < 0)
		rc = -errno;
	close(pfd);
	return rc;
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
	const char *r = rel(path);

	if (strcmp(fs->root, "/") == 0)
		snprintf(buf, len, "/%s", r);
	else
		snprintf(buf, len, "%s/%s", fs->root, r);
	return buf;
}
