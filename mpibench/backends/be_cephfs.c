// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * be_cephfs: the libcephfs backend of iostrata-bench: CephFS through the
 * user-space client library, without a mount (part of the "full stack"
 * layer next to posix on a ceph-fuse mount).  Per-rank files opened with
 * O_DIRECT (bypassing libcephfs' object cacher) unless --buffered.
 * --iodepth > 1 runs the same synchronous ceph_read/ceph_write on a queue
 * of worker threads, one per slot (thrq.h; libcephfs is thread-safe on one
 * mount), recorded as ioengine "threads".  libcephfs' own non-blocking call
 * (ceph_ll_nonblocking_readv_writev with struct ceph_ll_io_info, Squid
 * 19.x) is not used: neither Debian 12's Ceph 16.2 nor Debian 13's 18.2
 * (Reef) has it, so no build here could compile or run that path (Debian
 * sid's Ceph 20.x would: the place for it is cephfs_submit, detected by a
 * configure check for the struct and a dlsym of the call at load).
 * The directory may be shared with strangers: a file is created O_EXCL and
 * marked (ownfile.h's user.iostrata), and an existing one is used or
 * removed only when it is a regular file of ours with that mark.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend.h"
#include "ceph_conn.h"
#include "ceph_dl.h"
#include "mb_config.h"
#include "ownfile.h"
#include "results.h"
#include "thrq.h"

/* libcephfs, loaded by cephfs_init() (ceph_dl.h) */
static const struct ios_cephfs_api *libcephfs;

static const struct mb_option cephfs_options[] = {
	{"ceph-conf", "FILE", NULL,
	 "ceph.conf to read (default: $CEPH_CONF, then Ceph's search path)"},
	{"ceph-id", "ID", "admin", "client id to connect as (client.ID)"},
	{"ceph-keyring", "FILE", NULL,
	 "keyring (default: $CEPH_KEYRING, then the conf's keyring)"},
	{"ceph-timeout", "SECONDS", IOS_CEPH_TIMEOUT_STR,
	 "bound on connecting and on every monitor and OSD operation"},
	{"cephfs-root", "PATH", "/",
	 "CephFS directory the client mounts as its root; --dir is relative to it"},
	{NULL, NULL, NULL, NULL},
};

struct cephfs_priv {
	struct ceph_mount_info *cmount;
	char dir[4096]; /* --dir inside the mounted root */
};

struct mb_file {
	struct cephfs_priv *cp;
	int fd;
	unsigned int depth; /* --iodepth: the queue's slots */
	struct mb_thrq *q;  /* --iodepth > 1: started on the first submit */
};

static const char *opt(struct mb_ctx *ctx, const char *name)
{
	const char *v = mb_config_opt(ctx->cfg, name);

	return (v && *v) ? v : NULL;
}

static int cephfs_check(struct mb_ctx *ctx)
{
	const char *root = opt(ctx, "cephfs-root");
	struct ios_ceph_opts co;
	int rc;

	rc = mb_ceph_opts(ctx->cfg, &co, ctx->err);
	if (rc < 0)
		return rc;
	if (root && root[0] != '/')
		return ios_errf(
			ctx->err, -EINVAL,
			"cephfs: option --cephfs-root: '%s' is not absolute: give a path inside CephFS starting with '/'",
			root);
	if (ctx->cfg->iodepth > MB_THRQ_MAX_DEPTH)
		return ios_errf(
			ctx->err, -EINVAL,
			"cephfs: option --iodepth: %u is more than the thread queue takes (one thread per I/O in flight; accepted: 1 to %u)",
			(unsigned int)ctx->cfg->iodepth, MB_THRQ_MAX_DEPTH);
	if (ctx->cfg->ioengine != MB_ENG_PSYNC)
		return ios_errf(
			ctx->err, -EINVAL,
			"cephfs: option --ioengine: \"%s\" is an engine of the posix backend; cephfs runs libcephfs calls, on its own threads at --iodepth > 1 (accepted: psync, the default)",
			mb_engine_name(ctx->cfg->ioengine));
	return 0;
}

static int cephfs_init(struct mb_ctx *ctx)
{
	struct cephfs_priv *cp;
	const char *root =
		opt(ctx, "cephfs-root") ? opt(ctx, "cephfs-root") : "/";
	const char *dir = ctx->cfg->dir;
	struct ios_ceph_opts co;
	struct ios_err e = {0};
	int rc;

	rc = cephfs_check(ctx);
	if (rc < 0)
		return rc;
	mb_ceph_opts(ctx->cfg, &co, NULL); /* checked just above */
	cp = calloc(1, sizeof(*cp));
	if (!cp)
		return ios_errf(ctx->err, -ENOMEM,
				"cephfs: allocate context: %s",
				strerror(ENOMEM));
	snprintf(cp->dir, sizeof(cp->dir), "%s", dir && *dir ? dir : ".");

	rc = ios_cephfs_mount(&co, root, &cp->cmount, &e);
	if (rc < 0) {
		ios_errf(ctx->err, rc, "cephfs: %s", e.msg);
		goto out_free;
	}
	libcephfs = ios_cephfs_load(NULL); /* loaded by the mount */
	if (strcmp(cp->dir, ".") != 0) {
		struct ceph_statx stx;

		rc = libcephfs->ceph_statx(cp->cmount, cp->dir, &stx,
					   CEPH_STATX_MODE, 0);
		if (rc == 0 && !S_ISDIR(stx.stx_mode))
			rc = -ENOTDIR;
		if (rc < 0) {
			ios_errf(
				ctx->err, rc,
				"cephfs: option --dir: '%s' inside CephFS root '%s': %s",
				cp->dir, root, strerror(-rc));
			goto out_unmount;
		}
	}
	ctx->priv = cp;
	return 0;

out_unmount:
	libcephfs->ceph_unmount(cp->cmount);
	libcephfs->ceph_release(cp->cmount);
out_free:
	free(cp);
	return rc;
}

static void cephfs_fini(struct mb_ctx *ctx)
{
	struct cephfs_priv *cp = ctx->priv;

	if (!cp)
		return;
	libcephfs->ceph_unmount(cp->cmount);
	libcephfs->ceph_release(cp->cmount);
	free(cp);
	ctx->priv = NULL;
}

static int path_of(const struct cephfs_priv *cp, const char *name, char *buf,
		   size_t len)
{
	int n = snprintf(buf, len, "%s/%s", cp->dir, name);

	return (n < 0 || (size_t)n >= len) ? -ENAMETOOLONG : 0;
}

#define CEPHFS_REFUSE "refusing to use it (remove it or choose another --dir)"

/* Is [stx] (of [path]) a file of ours: a regular file, owned by us, one
 * link?  0 or a refusal. */
static int check_stx(const struct ceph_statx *stx, const char *path,
		     struct ios_err *err)
{
	if (!S_ISREG(stx->stx_mode))
		return ios_errf(err, -EPERM,
				"cephfs: '%s' exists and is not a regular file "
				"(mode 0%o): " CEPHFS_REFUSE,
				path, (unsigned)stx->stx_mode);
	if (stx->stx_uid != geteuid())
		return ios_errf(
			err, -EPERM,
			"cephfs: '%s' is not ours: owner uid %u, you are "
			"uid %u: " CEPHFS_REFUSE,
			path, (unsigned)stx->stx_uid, (unsigned)geteuid());
	if (stx->stx_nlink != 1)
		return ios_errf(err, -EPERM,
				"cephfs: '%s' has %u hard links (an iostrata "
				"file has one): " CEPHFS_REFUSE,
				path, (unsigned)stx->stx_nlink);
	return 0;
}

/* The mark read into [v] ([n]: ceph_*getxattr's result) of [path]: 0 when
 * it is iostrata's, else a refusal. */
static int check_mark(const char *v, int n, const char *path,
		      struct ios_err *err)
{
	if (mb_own_mark_ours(v, n))
		return 0;
	if (n < 0 && n != -ENODATA && n != -ERANGE)
		return ios_errf(err, n, "cephfs: read the mark of '%s': %s",
				path, strerror(-n));
	return ios_errf(err, -EEXIST,
			"cephfs: '%s' exists and was not created by iostrata "
			"(no %s mark): refusing to overwrite it (remove it or "
			"choose another --dir)",
			path, MB_XATTR_NAME);
}

/* An existing file, opened on [fd]: ours and marked?  0 or a refusal. */
static int check_fd(struct cephfs_priv *cp, int fd, const char *path,
		    struct ios_err *err)
{
	struct ceph_statx stx;
	char v[64];
	int rc;

	rc = libcephfs->ceph_fstatx(
		cp->cmount, fd, &stx,
		CEPH_STATX_MODE | CEPH_STATX_UID | CEPH_STATX_NLINK, 0);
	if (rc < 0)
		return ios_errf(err, rc, "cephfs: stat '%s': %s", path,
				strerror(-rc));
	rc = check_stx(&stx, path, err);
	if (rc)
		return rc;
	rc = libcephfs->ceph_fgetxattr(cp->cmount, fd, MB_XATTR_NAME, v,
				       sizeof(v));
	return check_mark(v, rc, path, err);
}

static int cephfs_open(struct mb_ctx *ctx, const char *name, int flags,
		       struct mb_file **out)
{
	struct cephfs_priv *cp = ctx->priv;
	struct mb_file *f;
	char path[4096 + 256], v[64];
	int oflags = 0, rc, fd = -1;

	rc = path_of(cp, name, path, sizeof(path));
	if (rc < 0)
		return ios_errf(ctx->err, rc, "cephfs: open '%s/%s': %s",
				cp->dir, name, strerror(-rc));
	if ((flags & MB_O_READ) && (flags & MB_O_WRITE))
		oflags = O_RDWR;
	else if (flags & MB_O_WRITE)
		oflags = O_WRONLY;
	else
		oflags = O_RDONLY;
	if (flags & MB_O_DIRECT)
		oflags |= O_DIRECT;
	f = calloc(1, sizeof(*f));
	if (!f)
		return ios_errf(ctx->err, -ENOMEM, "cephfs: open '%s': %s",
				path, strerror(ENOMEM));
	/* a new file: created here (never one that appeared meanwhile),
	 * then marked */
	if (flags & MB_O_CREATE) {
		rc = libcephfs->ceph_open(cp->cmount, path,
					  oflags | O_CREAT | O_EXCL, 0644);
		if (rc >= 0) {
			fd = rc;
			snprintf(v, sizeof(v), "iostrata-bench rank=%d",
				 ctx->rank);
			rc = libcephfs->ceph_fsetxattr(
				cp->cmount, fd, MB_XATTR_NAME, v, strlen(v), 0);
			if (rc < 0) {
				libcephfs->ceph_close(cp->cmount, fd);
				libcephfs->ceph_unlink(cp->cmount, path);
				free(f);
				return ios_errf(ctx->err, rc,
						"cephfs: mark '%s' (%s): %s",
						path, MB_XATTR_NAME,
						strerror(-rc));
			}
		} else if (rc != -EEXIST) {
			free(f);
			return ios_errf(ctx->err, rc, "cephfs: create '%s': %s",
					path, strerror(-rc));
		}
	}
	/* an existing file: used only when it is ours and marked */
	if (fd < 0) {
		rc = libcephfs->ceph_open(cp->cmount, path, oflags | O_NOFOLLOW,
					  0);
		if (rc < 0) {
			free(f);
			return ios_errf(ctx->err, rc, "cephfs: open '%s': %s",
					path, strerror(-rc));
		}
		fd = rc;
		rc = check_fd(cp, fd, path, ctx->err);
		if (rc) {
			libcephfs->ceph_close(cp->cmount, fd);
			free(f);
			return rc;
		}
	}
	f->cp = cp;
	f->fd = fd;
	f->depth = ctx->cfg->iodepth;
	*out = f;
	return 0;
}

static ssize_t cephfs_pwrite(struct mb_file *f, const void *buf, size_t len,
			     uint64_t off)
{
	return libcephfs->ceph_write(f->cp->cmount, f->fd, buf, (int64_t)len,
				     (int64_t)off);
}

static ssize_t cephfs_pread(struct mb_file *f, void *buf, size_t len,
			    uint64_t off)
{
	return libcephfs->ceph_read(f->cp->cmount, f->fd, buf, (int64_t)len,
				    (int64_t)off);
}

/* A worker of the queue: the synchronous call of [io]. */
static ssize_t cephfs_io(void *arg, struct mb_io *io)
{
	struct mb_file *f = arg;

	if (io->op == IOS_OP_WRITE)
		return cephfs_pwrite(f, io->buf, io->len, io->off);
	return cephfs_pread(f, io->buf, io->len, io->off);
}

static int cephfs_submit(struct mb_file *f, struct mb_io **ios, unsigned int n)
{
	if (!f->q) {
		int rc = mb_thrq_start(&f->q, f->depth, f->depth, cephfs_io, f);

		if (rc < 0)
			return rc;
	}
	return mb_thrq_submit(f->q, ios, n);
}

static int cephfs_reap(struct mb_file *f, struct mb_io **done, unsigned int min,
		       unsigned int max, const struct timespec *timeout)
{
	if (!f->q)
		return min ? -ETIMEDOUT : 0;
	return mb_thrq_reap(f->q, done, min, max, timeout);
}

static int cephfs_fsync(struct mb_file *f)
{
	return libcephfs->ceph_fsync(f->cp->cmount, f->fd, 0);
}

static int cephfs_getsize(struct mb_file *f, uint64_t *size)
{
	struct ceph_statx stx;
	int rc;

	rc = libcephfs->ceph_fstatx(f->cp->cmount, f->fd, &stx, CEPH_STATX_SIZE,
				    0);
	if (rc < 0)
		return rc;
	*size = stx.stx_size;
	return 0;
}

/* The dataset mark (dataset.h) and the layout's virtual xattrs. */
static int cephfs_xattr_get(struct mb_file *f, const char *name, char *buf,
			    size_t len)
{
	int n;

	if (!len)
		return -ERANGE;
	n = libcephfs->ceph_fgetxattr(f->cp->cmount, f->fd, name, buf, len - 1);
	if (n < 0)
		return n;
	buf[n] = '\0';
	return n;
}

static int cephfs_xattr_set(struct mb_file *f, const char *name,
			    const char *value)
{
	if (!value)
		return libcephfs->ceph_fremovexattr(f->cp->cmount, f->fd, name);
	return libcephfs->ceph_fsetxattr(f->cp->cmount, f->fd, name, value,
					 strlen(value), 0);
}

static int cephfs_close(struct mb_file *f)
{
	int rc;

	/* requests still queued are cancelled, running ones waited for:
	 * no worker touches the core's buffers or the fd after this */
	mb_thrq_stop(f->q);
	rc = libcephfs->ceph_close(f->cp->cmount, f->fd);

	free(f);
	return rc;
}

static int unlink_connected(struct mb_ctx *ctx, const char *name)
{
	struct cephfs_priv *cp = ctx->priv;
	char path[4096 + 256];
	int rc;

	rc = path_of(cp, name, path, sizeof(path));
	if (rc == 0) {
		/* only a file of ours with the mark (not a stranger's of
		 * the same name in a shared directory) */
		struct ceph_statx stx;
		char v[64];

		rc = libcephfs->ceph_statx(cp->cmount, path, &stx,
					   CEPH_STATX_MODE | CEPH_STATX_UID |
						   CEPH_STATX_NLINK,
					   AT_SYMLINK_NOFOLLOW);
		if (rc == -ENOENT)
			return rc;
		if (rc < 0)
			return ios_errf(ctx->err, rc,
					"cephfs: remove '%s/%s': %s", cp->dir,
					name, strerror(-rc));
		rc = check_stx(&stx, path, ctx->err);
		if (!rc)
			rc = check_mark(v,
					libcephfs->ceph_lgetxattr(
						cp->cmount, path, MB_XATTR_NAME,
						v, sizeof(v)),
					path, ctx->err);
		if (rc)
			return rc;
		rc = libcephfs->ceph_unlink(cp->cmount, path);
	}
	if (rc < 0 && rc != -ENOENT)
		return ios_errf(ctx->err, rc, "cephfs: remove '%s/%s': %s",
				cp->dir, name, strerror(-rc));
	return rc;
}

/* The core may clean up without init (mb_phase_cleanup): connect for it. */
static int cephfs_unlink(struct mb_ctx *ctx, const char *name)
{
	int rc;

	if (ctx->priv)
		return unlink_connected(ctx, name);
	rc = cephfs_init(ctx);
	if (rc < 0)
		return rc;
	rc = unlink_connected(ctx, name);
	cephfs_fini(ctx);
	return rc;
}

/* ---- the metadata hooks (--meta): paths under --dir, no link followed
 * ------------------------------------------------------------------ */

static int meta_path(struct mb_ctx *ctx, const char *what, const char *name,
		     char *buf, size_t len)
{
	struct cephfs_priv *cp = ctx->priv;
	int rc = path_of(cp, name, buf, len);

	if (rc < 0)
		return ios_errf(ctx->err, rc, "cephfs: %s '%s/%s': %s", what,
				cp->dir, name, strerror(-rc));
	return 0;
}

static int meta_fail(struct mb_ctx *ctx, const char *what, const char *path,
		     int rc)
{
	return ios_errf(ctx->err, rc, "cephfs: %s '%s': %s", what, path,
			strerror(-rc));
}

static int cephfs_meta_create(struct mb_ctx *ctx, const char *name,
			      const void *buf, size_t len)
{
	struct cephfs_priv *cp = ctx->priv;
	char path[4096 + 256];
	int fd, rc;

	rc = meta_path(ctx, "create", name, path, sizeof(path));
	if (rc)
		return rc;
	fd = libcephfs->ceph_open(cp->cmount, path,
				  O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW,
				  0600);
	if (fd < 0)
		return meta_fail(ctx, "create", path, fd);
	if (len) {
		rc = libcephfs->ceph_write(cp->cmount, fd, buf, (int64_t)len,
					   0);
		if (rc >= 0 && (size_t)rc != len)
			rc = -EIO;
		if (rc < 0) {
			libcephfs->ceph_close(cp->cmount, fd);
			return meta_fail(ctx, "write", path, rc);
		}
	}
	rc = libcephfs->ceph_close(cp->cmount, fd);
	return rc < 0 ? meta_fail(ctx, "close", path, rc) : 0;
}

static int cephfs_meta_stat(struct mb_ctx *ctx, const char *name, bool dir)
{
	struct cephfs_priv *cp = ctx->priv;
	struct ceph_statx stx;
	char path[4096 + 256];
	int rc;

	rc = meta_path(ctx, "stat", name, path, sizeof(path));
	if (rc)
		return rc;
	rc = libcephfs->ceph_statx(cp->cmount, path, &stx,
				   CEPH_STATX_BASIC_STATS, AT_SYMLINK_NOFOLLOW);
	if (rc < 0)
		return meta_fail(ctx, "stat", path, rc);
	if (dir && !S_ISDIR(stx.stx_mode))
		return meta_fail(ctx, "stat", path, -ENOTDIR);
	if (!dir && !S_ISREG(stx.stx_mode))
		return meta_fail(ctx, "stat", path, -EISDIR);
	return 0;
}

static int cephfs_meta_read(struct mb_ctx *ctx, const char *name, void *buf,
			    size_t len)
{
	struct cephfs_priv *cp = ctx->priv;
	char path[4096 + 256];
	int fd, rc = 0;

	rc = meta_path(ctx, "read", name, path, sizeof(path));
	if (rc)
		return rc;
	fd = libcephfs->ceph_open(cp->cmount, path, O_RDONLY | O_NOFOLLOW, 0);
	if (fd < 0)
		return meta_fail(ctx, "open", path, fd);
	if (len) {
		rc = libcephfs->ceph_read(cp->cmount, fd, buf, (int64_t)len, 0);
		if (rc >= 0 && (size_t)rc != len)
			rc = -EIO;
	}
	libcephfs->ceph_close(cp->cmount, fd);
	return rc < 0 ? meta_fail(ctx, "read", path, rc) : 0;
}

static int cephfs_meta_remove(struct mb_ctx *ctx, const char *name, bool dir)
{
	struct cephfs_priv *cp = ctx->priv;
	char path[4096 + 256];
	int rc;

	rc = meta_path(ctx, dir ? "rmdir" : "unlink", name, path, sizeof(path));
	if (rc)
		return rc;
	rc = dir ? libcephfs->ceph_rmdir(cp->cmount, path)
		 : libcephfs->ceph_unlink(cp->cmount, path);
	return rc < 0 ? meta_fail(ctx, dir ? "rmdir" : "unlink", path, rc) : 0;
}

static int cephfs_meta_mkdir(struct mb_ctx *ctx, const char *name)
{
	struct cephfs_priv *cp = ctx->priv;
	char path[4096 + 256];
	int rc;

	rc = meta_path(ctx, "mkdir", name, path, sizeof(path));
	if (rc)
		return rc;
	rc = libcephfs->ceph_mkdir(cp->cmount, path, 0700);
	return rc < 0 ? meta_fail(ctx, "mkdir", path, rc) : 0;
}

const struct mb_backend mb_backend_cephfs = {
	.name = "cephfs",
	.abi = MB_BACKEND_ABI,
	.flags = MB_BF_NO_LOCAL_FS | MB_BF_ALIGNED_BUF | MB_BF_SHARED_FILE |
		 MB_BF_ASYNC,
	.summary =
		"libcephfs files without a mount, O_DIRECT unless --buffered; --iodepth > 1 on a thread per I/O (ioengine threads)",
	.async_engine = "threads",
	.options = cephfs_options,
	.check = cephfs_check,
	.init = cephfs_init,
	.open = cephfs_open,
	.pwrite = cephfs_pwrite,
	.pread = cephfs_pread,
	.submit = cephfs_submit,
	.reap = cephfs_reap,
	.fsync = cephfs_fsync,
	.getsize = cephfs_getsize,
	.xattr_get = cephfs_xattr_get,
	.xattr_set = cephfs_xattr_set,
	.close = cephfs_close,
	.unlink = cephfs_unlink,
	.meta_create = cephfs_meta_create,
	.meta_stat = cephfs_meta_stat,
	.meta_read = cephfs_meta_read,
	.meta_remove = cephfs_meta_remove,
	.meta_mkdir = cephfs_meta_mkdir,
	.fini = cephfs_fini,
};
