/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysfs: writes below the root (common/hostfs.c has the reads): one
 * write(2), a write that can be abandoned, mkdir and rmdir of cgroups.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sysfs.h"

int (*sysfs_fault_hook)(const char *path, const char *val);

int sysfs_write(const struct sysfs *fs, const char *path, const char *val)
{
	size_t len = strlen(val);
	ssize_t n;
	int fd, rc = 0;

	if (sysfs_fault_hook &&
	    (rc = sysfs_fault_hook(sysfs_rel(path), val)) != 0)
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
		    (f = sysfs_fault_hook(sysfs_rel(path), val)) < 0)
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
		sysfs_dir_hook(sysfs_rel(path), 1);
	return rc;
}

int sysfs_rmdir(const struct sysfs *fs, const char *path)
{
	const char *base;
	int pfd = open_parent(fs, path, &base), rc = 0;

	if (pfd < 0)
		return pfd;
	if (sysfs_dir_hook)
		sysfs_dir_hook(sysfs_rel(path), 0);
	if (unlinkat(pfd, base, AT_REMOVEDIR) < 0)
		rc = -errno;
	close(pfd);
	return rc;
}
