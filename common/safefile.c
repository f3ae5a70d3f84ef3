/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * safefile: output files written through a fresh temporary file and
 * renameat(), so that a symlink planted at the output name (or at a
 * predictable temporary name) never redirects the write; logs appended to
 * with O_NOFOLLOW and checked on the descriptor.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "safefile.h"

/* The directory of [path] opened (fd or -errno); *name set to its last
 * component, malloc'd. */
static int open_parent(const char *path, char **name)
{
	char *d = strdup(path), *b = strdup(path);
	int fd;

	*name = NULL;
	if (!d || !b) {
		free(d);
		free(b);
		return -ENOMEM;
	}
	/* "dir/" names no file; basename() would say "dir" */
	if (!path[0] || path[strlen(path) - 1] == '/') {
		free(d);
		free(b);
		return -EINVAL;
	}
	fd = open(dirname(d), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		fd = -errno;
		free(b);
	} else {
		*name = strdup(basename(b));
		free(b);
		if (!*name) {
			close(fd);
			fd = -ENOMEM;
		}
	}
	free(d);
	return fd;
}

static void random_suffix(char *s, size_t n)
{
	static const char az[] = "abcdefghijklmnopqrstuvwxyz"
				 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char r[16];

	if (n > sizeof(r) || getrandom(r, n, GRND_NONBLOCK) != (ssize_t)n) {
		/* no entropy yet: O_EXCL still refuses a taken name */
		uint64_t x = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20) ^
			     (uintptr_t)s;

		for (size_t i = 0; i < sizeof(r);
		     i++, x = x * 6364136223846793005ull + 1)
			r[i] = (unsigned char)(x >> 33);
	}
	for (size_t i = 0; i < n && i < sizeof(r); i++)
		s[i] = az[r[i] % (sizeof(az) - 1)];
}

static void release(struct sf_file *f)
{
	if (f->dirfd >= 0)
		close(f->dirfd);
	f->dirfd = -1;
	f->fp = NULL;
	free(f->path);
	free(f->name);
	f->path = f->name = NULL;
}

int sf_create(struct sf_file *f, const char *path, unsigned flags,
	      struct ios_err *err)
{
	struct stat st;
	int fd = -1, rc;

	memset(f, 0, sizeof(*f));
	f->flags = flags;
	f->dirfd = open_parent(path, &f->name);
	if (f->dirfd < 0) {
		rc = f->dirfd;
		f->dirfd = -1;
		release(f);
		if (rc == -EINVAL)
			return ios_errf(
				err, rc,
				"create \"%s\": names a directory, not a file",
				path);
		return ios_errf(err, rc, "create %s: open its directory: %s",
				path, strerror(-rc));
	}
	f->path = strdup(path);
	if (!f->path) {
		release(f);
		return ios_errf(err, -ENOMEM, "create %s: %s", path,
				strerror(ENOMEM));
	}
	/* replacing a symlink or a file is harmless, a directory is not ours
	 * to replace (and rename() would refuse it anyway) */
	if (fstatat(f->dirfd, f->name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISDIR(st.st_mode)) {
		release(f);
		return ios_errf(err, -EISDIR,
				"create %s: a directory is in the way", path);
	}
	for (int tries = 0; tries < 100 && fd < 0; tries++) {
		/* ".NAME.XXXXXX", NAME cut to fit NAME_MAX */
		int n = snprintf(f->tmp, sizeof(f->tmp), ".%.240s.XXXXXX",
				 f->name);

		random_suffix(f->tmp + n - 6, 6);
		fd = openat(f->dirfd, f->tmp,
			    O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    0644);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		rc = -errno;
		release(f);
		return ios_errf(err, rc, "create %s: temporary file: %s", path,
				strerror(-rc));
	}
	f->fp = fdopen(fd, "w");
	if (!f->fp) {
		rc = -errno;
		close(fd);
		unlinkat(f->dirfd, f->tmp, 0);
		release(f);
		return ios_errf(err, rc, "create %s: %s", path, strerror(-rc));
	}
	return 0;
}

void sf_discard(struct sf_file *f)
{
	if (f->fp)
		fclose(f->fp);
	if (f->dirfd >= 0)
		unlinkat(f->dirfd, f->tmp, 0);
	release(f);
}

int sf_commit(struct sf_file *f, struct ios_err *err)
{
	int rc = 0, bad = ferror(f->fp);

	if (fflush(f->fp) != 0 || bad)
		rc = -(bad ? EIO : errno);
	if (!rc && (f->flags & SF_SYNC) && fsync(fileno(f->fp)) < 0)
		rc = -errno;
	if (fclose(f->fp) != 0 && !rc)
		rc = -errno;
	f->fp = NULL;
	if (rc) {
		ios_errf(err, rc, "write %s: %s", f->path, strerror(-rc));
		sf_discard(f);
		return rc;
	}
	if (renameat(f->dirfd, f->tmp, f->dirfd, f->name) < 0) {
		rc = -errno;
		ios_errf(err, rc, "write %s: rename %s over it: %s", f->path,
			 f->tmp, strerror(-rc));
		sf_discard(f);
		return rc;
	}
	if ((f->flags & SF_SYNC) && fsync(f->dirfd) < 0) {
		rc = -errno;
		ios_errf(err, rc, "write %s: fsync its directory: %s", f->path,
			 strerror(-rc));
	}
	release(f);
	return rc;
}

int sf_write(const char *path, const void *data, size_t len, unsigned flags,
	     struct ios_err *err)
{
	struct sf_file f;
	int rc = sf_create(&f, path, flags, err);

	if (rc < 0)
		return rc;
	if (len && fwrite(data, 1, len, f.fp) != len) {
		rc = -errno;
		sf_discard(&f);
		return ios_errf(err, rc ? rc : -EIO, "write %s: %s", path,
				strerror(rc ? -rc : EIO));
	}
	return sf_commit(&f, err);
}

int sf_append(const char *path, const void *data, size_t len,
	      struct ios_err *err)
{
	struct stat st;
	const char *p = data;
	int fd, rc = 0;

	fd = open(path,
		  O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK |
			  O_CLOEXEC,
		  0644);
	if (fd < 0) {
		rc = -errno;
		if (rc == -ELOOP)
			return ios_errf(
				err, rc,
				"append to %s: a symlink: refused (a log is written in place)",
				path);
		return ios_errf(err, rc, "append to %s: %s", path,
				strerror(-rc));
	}
	if (fstat(fd, &st) < 0) {
		rc = -errno;
		close(fd);
		return ios_errf(err, rc, "append to %s: %s", path,
				strerror(-rc));
	}
	if (!S_ISREG(st.st_mode) || st.st_nlink != 1) {
		close(fd);
		return ios_errf(
			err, -EINVAL,
			"append to %s: %s: refused (a log is written in place)",
			path,
			S_ISREG(st.st_mode) ? "a file with other hard links"
					    : "not a regular file");
	}
	while (len > 0) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			rc = w < 0 ? -errno : -EIO;
			break;
		}
		p += w;
		len -= (size_t)w;
	}
	if (close(fd) < 0 && !rc)
		rc = -errno;
	if (rc)
		return ios_errf(err, rc, "append to %s: %s", path,
				strerror(-rc));
	return 0;
}
