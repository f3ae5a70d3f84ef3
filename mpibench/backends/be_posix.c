/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * be_posix: files on a local or mounted filesystem (or a block device with
 * --allow-device), O_DIRECT unless --buffered, with four engines: psync
 * (pread/pwrite), libaio (io_submit/io_getevents), io_uring and posixaio
 * (POSIX AIO: aio_read/aio_write/aio_suspend, the engine of the paper's
 * CPU x RAM sweep, fio's posixaio; glibc runs it on threads).  Files are
 * opened, created and removed through ownfile.h: relative to the --dir fd,
 * never through a link, reused only when marked and owned by the caller.
 */
#include "config.h"

#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#ifdef HAVE_LIBAIO
#include <libaio.h>
#endif
#ifdef HAVE_LIBURING
#include <liburing.h>
#endif

#include "backend.h"
#include "mb_config.h"
#include "ownfile.h"
#include "units.h"

struct mb_file {
	int fd;
	uint64_t base; /* region start on a shared block device */
	enum mb_engine engine;
	unsigned int depth;
	bool setup;
#ifdef HAVE_LIBAIO
	io_context_t aio;
	struct iocb *iocbs;      /* [depth] */
	struct iocb **iocb_free; /* free slots */
	unsigned int nfree;
	struct io_event *events; /* [depth] */
#endif
#ifdef HAVE_LIBURING
	struct io_uring ring;
#endif
	/* posixaio: [depth] control blocks, a free list, the ones in flight
	 * (oldest first: aio_reap waits on one by its place in the queue) */
	struct aiocb *acbs;
	struct aiocb **afree;
	unsigned int nafree;
	const struct aiocb **aflight;
	unsigned int naflight;
};

static int posix_init(struct mb_ctx *ctx)
{
	(void)ctx;
	return 0;
}

static int posix_open(struct mb_ctx *ctx, const char *name, int flags,
		      struct mb_file **out)
{
	const struct mb_config *cfg = ctx->cfg;
	const struct mb_dir *d;
	struct mb_file *f;
	int oflags = 0;
	int rc;

	if (!cfg->dir)
		return ios_errf(ctx->err, -EINVAL, "posix: no --dir");
	rc = mb_dir_get(cfg->dir, cfg->allow_device, &d, ctx->err);
	if (rc)
		return rc;
	if ((flags & MB_O_READ) && (flags & MB_O_WRITE))
		oflags |= O_RDWR;
	else if (flags & MB_O_WRITE)
		oflags |= O_WRONLY;
	else
		oflags |= O_RDONLY;
	if (flags & MB_O_DIRECT)
		oflags |= O_DIRECT;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	if (d->device) {
		f->fd = mb_dir_open_device(d, oflags, ctx->err);
		f->base = (uint64_t)ctx->rank * cfg->size;
	} else {
		char mark[128];

		if (cfg->file_layout == MB_LAYOUT_SHARED)
			snprintf(mark, sizeof(mark),
				 "iostrata-bench shared ranks=%d", ctx->nranks);
		else
			snprintf(mark, sizeof(mark), "iostrata-bench rank=%d",
				 ctx->rank);
		f->fd = mb_own_open(d, name, oflags, flags & MB_O_CREATE, mark,
				    "posix", ctx->err);
	}
	if (f->fd < 0) {
		rc = f->fd;
		free(f);
		return rc;
	}
	f->engine = cfg->ioengine;
	f->depth = cfg->iodepth;
	*out = f;
	return 0;
}

static ssize_t posix_pwrite(struct mb_file *f, const void *buf, size_t len,
			    uint64_t off)
{
	ssize_t n;

	do
		n = pwrite(f->fd, buf, len, (off_t)(f->base + off));
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

static ssize_t posix_pread(struct mb_file *f, void *buf, size_t len,
			   uint64_t off)
{
	ssize_t n;

	do
		n = pread(f->fd, buf, len, (off_t)(f->base + off));
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

static int setup_async(struct mb_file *f)
{
	unsigned int i;
	int rc;

	f->setup = true;
	switch (f->engine) {
#ifdef HAVE_LIBAIO
	case MB_ENG_LIBAIO:
		f->iocbs = calloc(f->depth, sizeof(*f->iocbs));
		f->iocb_free = calloc(f->depth, sizeof(*f->iocb_free));
		f->events = calloc(f->depth, sizeof(*f->events));
		if (!f->iocbs || !f->iocb_free || !f->events)
			return -ENOMEM;
		for (i = 0; i < f->depth; i++)
			f->iocb_free[i] = &f->iocbs[i];
		f->nfree = f->depth;
		rc = io_setup((int)f->depth, &f->aio);
		return rc < 0 ? rc : 0;
#endif
#ifdef HAVE_LIBURING
	case MB_ENG_IO_URING:
		(void)i;
		rc = io_uring_queue_init(f->depth, &f->ring, 0);
		return rc < 0 ? rc : 0;
#endif
	case MB_ENG_POSIXAIO:
		(void)rc;
		f->acbs = calloc(f->depth, sizeof(*f->acbs));
		f->afree = calloc(f->depth, sizeof(*f->afree));
		f->aflight = calloc(f->depth, sizeof(*f->aflight));
		if (!f->acbs || !f->afree || !f->aflight)
			return -ENOMEM;
		for (i = 0; i < f->depth; i++)
			f->afree[i] = &f->acbs[i];
		f->nafree = f->depth;
		return 0;
	default:
		(void)i;
		(void)rc;
		return -EINVAL;
	}
}

/* posixaio: queue up to [n] requests; the count queued (>= 1) or -errno. */
static int aio_submit(struct mb_file *f, struct mb_io **ios, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n && f->nafree; i++) {
		struct aiocb *cb = f->afree[f->nafree - 1];
		int rc;

		memset(cb, 0, sizeof(*cb));
		cb->aio_fildes = f->fd;
		cb->aio_buf = ios[i]->buf;
		cb->aio_nbytes = ios[i]->len;
		cb->aio_offset = (off_t)(f->base + ios[i]->off);
		cb->aio_sigevent.sigev_notify = SIGEV_NONE;
		cb->aio_sigevent.sigev_value.sival_ptr = ios[i];
		do
			rc = ios[i]->op == 1 ? aio_write(cb) : aio_read(cb);
		while (rc && errno == EINTR);
		if (rc) {
			/* EAGAIN: out of resources for now; the core reaps */
			if (i)
				break;
			return errno == EAGAIN ? -EBUSY : -errno;
		}
		f->nafree--;
		ios[i]->priv = cb;
		f->aflight[f->naflight++] = cb;
	}
	return i ? (int)i : -EBUSY;
}

/* posixaio: collect finished requests into [done] (at most [max]). */
static unsigned int aio_collect(struct mb_file *f, struct mb_io **done,
				unsigned int max)
{
	unsigned int n = 0, k = 0;

	while (k < f->naflight && n < max) {
		struct aiocb *cb = (struct aiocb *)f->aflight[k];
		int e = aio_error(cb);
		struct mb_io *io;
		ssize_t res;

		if (e == EINPROGRESS) {
			k++;
			continue;
		}
		res = aio_return(cb);
		io = cb->aio_sigevent.sigev_value.sival_ptr;
		io->result = e ? -(ssize_t)e : res;
		done[n++] = io;
		f->afree[f->nafree++] = cb;
		f->aflight[k++] = NULL;
	}
	if (n) { /* close the gaps, keeping the submission order */
		unsigned int j = 0;

		for (k = 0; k < f->naflight; k++)
			if (f->aflight[k])
				f->aflight[j++] = f->aflight[k];
		f->naflight = j;
	}
	return n;
}

/*
 * posixaio: the request aio_reap waits on, by its place in the queue.
 *
 * glibc serves the requests of one file descriptor one after the other, in
 * the order they were queued, on a helper thread, and each completion that
 * a waiter is registered on wakes it under the AIO mutex the helper needs
 * to start its next request.  Waiting on all of them (a wake-up per
 * completion, [depth] waitlist entries per call) measured 3.9 futex calls
 * per 4 KiB write at iodepth 16 here, against fio's 1.9: fio suspends on at
 * most 8 requests, the first in its array order, and so reaps in batches.
 * The wait is on one request, the (depth/2)-th oldest (the newest when
 * fewer are in flight): completions come in batches of about depth/2 and
 * the queue never runs below half full; 0.36 futex calls per write.  All
 * finished requests are collected after each wait, so one that finishes
 * out of order is reaped with the batch, never missed.
 */
static unsigned int wait_on(const struct mb_file *f)
{
	unsigned int k = (f->depth + 1) / 2;

	return (k < f->naflight ? k : f->naflight) - 1;
}

/* posixaio: wait for at least [min] completions (aio_suspend). */
static int aio_reap(struct mb_file *f, struct mb_io **done, unsigned int min,
		    unsigned int max, const struct timespec *timeout)
{
	struct timespec end = {0}, now, left;
	unsigned int n = 0;

	if (timeout)
		ios_deadline(CLOCK_MONOTONIC, timeout, &end);
	for (;;) {
		n += aio_collect(f, done + n, max - n);
		if (n >= min || n == max || !f->naflight)
			return n || !min ? (int)n : -ETIMEDOUT;
		if (timeout) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			left.tv_sec = end.tv_sec - now.tv_sec;
			left.tv_nsec = end.tv_nsec - now.tv_nsec;
			if (left.tv_nsec < 0) {
				left.tv_sec--;
				left.tv_nsec += 1000000000L;
			}
			if (left.tv_sec < 0)
				return n ? (int)n : -ETIMEDOUT;
		}
		if (aio_suspend(f->aflight + wait_on(f), 1,
				timeout ? &left : NULL) &&
		    errno != EINTR) {
			if (errno == EAGAIN)
				return n ? (int)n : -ETIMEDOUT;
			return n ? (int)n : -errno;
		}
	}
}

/* posixaio: cancel what is in flight and wait until none is (close). */
static void aio_drain(struct mb_file *f)
{
	struct mb_io *done[64];

	if (f->naflight)
		aio_cancel(f->fd, NULL);
	while (f->naflight) {
		if (aio_collect(f, done, 64))
			continue;
		if (aio_suspend(f->aflight, (int)f->naflight, NULL) &&
		    errno != EINTR && errno != EAGAIN)
			break;
	}
}

static int posix_submit(struct mb_file *f, struct mb_io **ios, unsigned int n)
{
	unsigned int i;
	int rc;

	if (!f->setup) {
		rc = setup_async(f);
		if (rc)
			return rc;
	}
	switch (f->engine) {
#ifdef HAVE_LIBAIO
	case MB_ENG_LIBAIO: {
		struct iocb *list[n];

		if (n > f->nfree)
			n = f->nfree;
		for (i = 0; i < n; i++) {
			struct iocb *cb = f->iocb_free[--f->nfree];

			if (ios[i]->op == 1)
				io_prep_pwrite(
					cb, f->fd, ios[i]->buf, ios[i]->len,
					(long long)(f->base + ios[i]->off));
			else
				io_prep_pread(
					cb, f->fd, ios[i]->buf, ios[i]->len,
					(long long)(f->base + ios[i]->off));
			cb->data = ios[i];
			ios[i]->priv = cb;
			list[i] = cb;
		}
		do
			rc = io_submit(f->aio, (long)n, list);
		while (rc == -EINTR || rc == -EAGAIN);
		if (rc < 0) {
			for (i = 0; i < n; i++)
				f->iocb_free[f->nfree++] = list[i];
			return rc;
		}
		for (i = (unsigned)rc; i < n; i++)
			f->iocb_free[f->nfree++] = list[i];
		return rc;
	}
#endif
#ifdef HAVE_LIBURING
	case MB_ENG_IO_URING:
		for (i = 0; i < n; i++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&f->ring);

			if (!sqe)
				break;
			if (ios[i]->op == 1)
				io_uring_prep_write(sqe, f->fd, ios[i]->buf,
						    (unsigned)ios[i]->len,
						    f->base + ios[i]->off);
			else
				io_uring_prep_read(sqe, f->fd, ios[i]->buf,
						   (unsigned)ios[i]->len,
						   f->base + ios[i]->off);
			io_uring_sqe_set_data(sqe, ios[i]);
		}
		if (i == 0)
			return -EBUSY;
		do
			rc = io_uring_submit(&f->ring);
		while (rc == -EINTR);
		return rc < 0 ? rc : (int)i;
#endif
	case MB_ENG_POSIXAIO:
		return aio_submit(f, ios, n);
	default:
		(void)i;
		(void)rc;
		return -EINVAL;
	}
}

static int posix_reap(struct mb_file *f, struct mb_io **done, unsigned int min,
		      unsigned int max, const struct timespec *timeout)
{
	unsigned int i;
	int rc;

	switch (f->engine) {
#ifdef HAVE_LIBAIO
	case MB_ENG_LIBAIO: {
		struct timespec ts, *tp = NULL;

		if (max > f->depth)
			max = f->depth;
		if (timeout) {
			ts = *timeout;
			tp = &ts;
		}
		do
			rc = io_getevents(f->aio, (long)min, (long)max,
					  f->events, tp);
		while (rc == -EINTR);
		if (rc < 0)
			return rc;
		if (rc == 0 && min > 0)
			return -ETIMEDOUT;
		for (i = 0; i < (unsigned)rc; i++) {
			struct mb_io *io = f->events[i].data;
			long res = (long)f->events[i].res;

			io->result = res;
			f->iocb_free[f->nfree++] = io->priv;
			done[i] = io;
		}
		return rc;
	}
#endif
#ifdef HAVE_LIBURING
	case MB_ENG_IO_URING: {
		struct io_uring_cqe *cqe;
		unsigned int n = 0;

		while (n < max) {
			if (n < min) {
				if (timeout) {
					struct __kernel_timespec kts = {
						.tv_sec = timeout->tv_sec,
						.tv_nsec = timeout->tv_nsec};

					rc = io_uring_wait_cqe_timeout(
						&f->ring, &cqe, &kts);
				} else {
					rc = io_uring_wait_cqe(&f->ring, &cqe);
				}
				if (rc == -EINTR)
					continue;
				if (rc == -ETIME)
					return n ? (int)n : -ETIMEDOUT;
				if (rc < 0)
					return n ? (int)n : rc;
			} else {
				rc = io_uring_peek_cqe(&f->ring, &cqe);
				if (rc < 0)
					break;
			}
			done[n] = io_uring_cqe_get_data(cqe);
			done[n]->result = cqe->res;
			io_uring_cqe_seen(&f->ring, cqe);
			n++;
		}
		(void)i;
		return (int)n;
	}
#endif
	case MB_ENG_POSIXAIO:
		(void)i;
		(void)rc;
		return aio_reap(f, done, min, max, timeout);
	default:
		(void)i;
		(void)rc;
		(void)done;
		(void)min;
		(void)max;
		(void)timeout;
		return -EINVAL;
	}
}

static int posix_fsync(struct mb_file *f)
{
	return fsync(f->fd) ? -errno : 0;
}

static int posix_getsize(struct mb_file *f, uint64_t *size)
{
	struct stat st;

	if (fstat(f->fd, &st))
		return -errno;
	*size = (uint64_t)st.st_size;
	if (S_ISBLK(st.st_mode))
		*size = UINT64_MAX; /* a device region is always "laid out" */
	return 0;
}

static int posix_xattr_get(struct mb_file *f, const char *name, char *buf,
			   size_t len)
{
	struct stat st;
	ssize_t n;

	if (fstat(f->fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode) || !len)
		return -ENOTSUP; /* a block device region keeps no mark */
	n = fgetxattr(f->fd, name, buf, len - 1);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return (int)n;
}

static int posix_xattr_set(struct mb_file *f, const char *name,
			   const char *value)
{
	int rc;

	if (value)
		rc = fsetxattr(f->fd, name, value, strlen(value), 0);
	else
		rc = fremovexattr(f->fd, name);
	if (rc)
		return -errno;
	return 0;
}

static int posix_close(struct mb_file *f)
{
	int rc = 0;

	if (f->setup) {
#ifdef HAVE_LIBAIO
		if (f->engine == MB_ENG_LIBAIO) {
			io_destroy(f->aio);
			free(f->iocbs);
			free(f->iocb_free);
			free(f->events);
		}
#endif
#ifdef HAVE_LIBURING
		if (f->engine == MB_ENG_IO_URING)
			io_uring_queue_exit(&f->ring);
#endif
		if (f->engine == MB_ENG_POSIXAIO) {
			/* never free a control block or buffer the AIO
			 * threads still use */
			aio_drain(f);
			free(f->acbs);
			free(f->afree);
			free(f->aflight);
		}
	}
	if (close(f->fd))
		rc = -errno;
	free(f);
	return rc;
}

static int posix_unlink(struct mb_ctx *ctx, const char *name)
{
	const struct mb_dir *d;
	int rc;

	if (!ctx->cfg->dir)
		return -EINVAL;
	rc = mb_dir_get(ctx->cfg->dir, ctx->cfg->allow_device, &d, ctx->err);
	if (rc)
		return rc;
	if (d->device)
		return 0;
	return mb_own_remove(d, name, "posix: remove", ctx->err);
}

/* ---- the metadata hooks (--meta): names under --dir's resolved fd,
 * never following a symbolic link ---------------------------------- */

/* The parent directory of the last [path] resolved (a rank works on the
 * names of one directory per phase: one walk per phase), its fd. */
static char meta_parent_path[1024];
static int meta_parent_fd = -1;

/*
 * The directory holding [path]'s last component, as an fd, and that
 * component in *[leaf]: walked from --dir's fd one component at a time
 * with O_NOFOLLOW, so a symbolic link planted on the way (the run's
 * directory renamed and replaced) is refused (ELOOP / ENOTDIR), never
 * followed.  The fd is kept for the next name in the same directory.
 */
static int meta_dirfd(struct mb_ctx *ctx, const char *path, int *fd,
		      const char **leaf)
{
	const struct mb_dir *d;
	const char *slash = strrchr(path, '/');
	char buf[1024], *save = NULL, *tok;
	int rc, cur;

	*fd = -1;
	*leaf = slash ? slash + 1 : path;
	if (!ctx->cfg->dir)
		return ios_errf(ctx->err, -EINVAL, "posix: no --dir");
	rc = mb_dir_get(ctx->cfg->dir, false, &d, ctx->err);
	if (rc)
		return rc;
	if (!slash) {
		*fd = d->fd;
		return 0;
	}
	if ((size_t)(slash - path) >= sizeof(buf))
		return ios_errf(ctx->err, -ENAMETOOLONG, "posix: '%s': %s",
				path, strerror(ENAMETOOLONG));
	memcpy(buf, path, (size_t)(slash - path));
	buf[slash - path] = '\0';
	if (meta_parent_fd >= 0 && !strcmp(buf, meta_parent_path)) {
		*fd = meta_parent_fd;
		return 0;
	}
	if (meta_parent_fd >= 0)
		close(meta_parent_fd);
	meta_parent_fd = -1;
	snprintf(meta_parent_path, sizeof(meta_parent_path), "%s", buf);
	cur = d->fd;
	for (tok = strtok_r(buf, "/", &save); tok;
	     tok = strtok_r(NULL, "/", &save)) {
		int next =
			openat(cur, tok,
			       O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

		rc = next < 0 ? -errno : 0;
		if (cur != d->fd)
			close(cur);
		if (rc)
			return ios_errf(
				ctx->err, rc,
				"posix: '%s/%s': component '%s': %s (a symbolic link is never followed)",
				ctx->cfg->dir, path, tok, strerror(-rc));
		cur = next;
	}
	meta_parent_fd = cur;
	*fd = cur;
	return 0;
}

static int meta_fail(struct mb_ctx *ctx, const char *what, const char *path,
		     int rc)
{
	return ios_errf(ctx->err, rc, "posix: %s '%s/%s': %s", what,
			ctx->cfg->dir, path, strerror(-rc));
}

static int posix_meta_create(struct mb_ctx *ctx, const char *path,
			     const void *buf, size_t len)
{
	const char *leaf;
	int dfd = -1, fd, rc;
	size_t done = 0;

	rc = meta_dirfd(ctx, path, &dfd, &leaf);
	if (rc)
		return rc;
	fd = openat(dfd, leaf,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return meta_fail(ctx, "create", path, -errno);
	while (done < len) {
		ssize_t n = write(fd, (const char *)buf + done, len - done);

		if (n <= 0) {
			rc = n < 0 ? -errno : -EIO;
			close(fd);
			return meta_fail(ctx, "write", path, rc);
		}
		done += (size_t)n;
	}
	if (close(fd))
		return meta_fail(ctx, "close", path, -errno);
	return 0;
}

static int posix_meta_stat(struct mb_ctx *ctx, const char *path, bool dir)
{
	struct stat st;
	const char *leaf;
	int dfd = -1, rc;

	rc = meta_dirfd(ctx, path, &dfd, &leaf);
	if (rc)
		return rc;
	if (fstatat(dfd, leaf, &st, AT_SYMLINK_NOFOLLOW))
		return meta_fail(ctx, "stat", path, -errno);
	if (dir && !S_ISDIR(st.st_mode))
		return meta_fail(ctx, "stat", path, -ENOTDIR);
	if (!dir && !S_ISREG(st.st_mode))
		return meta_fail(ctx, "stat", path, -EISDIR);
	return 0;
}

static int posix_meta_read(struct mb_ctx *ctx, const char *path, void *buf,
			   size_t len)
{
	const char *leaf;
	int dfd = -1, fd, rc;
	size_t done = 0;

	rc = meta_dirfd(ctx, path, &dfd, &leaf);
	if (rc)
		return rc;
	fd = openat(dfd, leaf, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return meta_fail(ctx, "open", path, -errno);
	while (done < len) {
		ssize_t n = read(fd, (char *)buf + done, len - done);

		if (n <= 0) {
			rc = n < 0 ? -errno : -EIO;
			close(fd);
			return meta_fail(ctx, "read", path, rc);
		}
		done += (size_t)n;
	}
	close(fd);
	return 0;
}

static int posix_meta_remove(struct mb_ctx *ctx, const char *path, bool dir)
{
	const char *leaf;
	int dfd = -1, rc;

	rc = meta_dirfd(ctx, path, &dfd, &leaf);
	if (rc)
		return rc;
	if (unlinkat(dfd, leaf, dir ? AT_REMOVEDIR : 0))
		return meta_fail(ctx, dir ? "rmdir" : "unlink", path, -errno);
	return 0;
}

static int posix_meta_mkdir(struct mb_ctx *ctx, const char *path)
{
	const char *leaf;
	int dfd = -1, rc;

	rc = meta_dirfd(ctx, path, &dfd, &leaf);
	if (rc)
		return rc;
	if (mkdirat(dfd, leaf, 0700))
		return meta_fail(ctx, "mkdir", path, -errno);
	return 0;
}

static void posix_fini(struct mb_ctx *ctx)
{
	(void)ctx;
}

const struct mb_backend mb_backend_posix = {
	.name = "posix",
	.abi = MB_BACKEND_ABI,
	.flags = MB_BF_ALIGNED_BUF | MB_BF_ASYNC | MB_BF_SHARED_FILE,
	.summary =
		"files under --dir, O_DIRECT; engines psync, libaio, io_uring, posixaio",
	.options = NULL,
	.init = posix_init,
	.open = posix_open,
	.pwrite = posix_pwrite,
	.pread = posix_pread,
	.submit = posix_submit,
	.reap = posix_reap,
	.fsync = posix_fsync,
	.getsize = posix_getsize,
	.xattr_get = posix_xattr_get,
	.xattr_set = posix_xattr_set,
	.close = posix_close,
	.unlink = posix_unlink,
	.meta_create = posix_meta_create,
	.meta_stat = posix_meta_stat,
	.meta_read = posix_meta_read,
	.meta_remove = posix_meta_remove,
	.meta_mkdir = posix_meta_mkdir,
	.fini = posix_fini,
};
