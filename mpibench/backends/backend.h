/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * backend: the I/O backend interface of iostrata-bench (fio's ioengine_ops,
 * IOR's aiori).  One const table per backend, registered in backend.c.
 * Backends never print and never abort: they return 0 or a negative errno
 * and, where the caller needs the reason, fill ctx->err.
 *
 * Synchronous I/O (pread/pwrite) is required.  Asynchronous I/O (submit/
 * reap) is optional: the core uses it when --iodepth > 1 and the backend
 * sets MB_BF_ASYNC; otherwise --iodepth > 1 is rejected for that backend.
 */
#ifndef IOSTRATA_BACKEND_H
#define IOSTRATA_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "errbuf.h"

#define MB_BACKEND_ABI 1

/* Capability flags. */
#define MB_BF_ALIGNED_BUF 0x1 /* buffers must be aligned (O_DIRECT) */
#define MB_BF_NO_LOCAL_FS 0x2 /* --dir is not a local path (rados, cephfs) */
#define MB_BF_ASYNC 0x4       /* submit/reap implemented */
#define MB_BF_NO_DATA 0x8     /* moves no data (null): --verify impossible */
#define MB_BF_SHARED_FILE                                                      \
	0x10 /* one file every rank opens (--file-layout=                      \
		shared): posix, cephfs, null */

/* open() flags */
#define MB_O_READ 0x1
#define MB_O_WRITE 0x2
#define MB_O_CREATE 0x4 /* create if missing (the core decides when) */
#define MB_O_DIRECT 0x8 /* bypass caches (default; --buffered clears it) */

struct mb_config; /* mb_config.h */

/* A backend-specific option, shown by --help, given as --NAME=VALUE. */
struct mb_option {
	const char *name; /* long option without "--", e.g. "rados-pool" */
	const char *arg;  /* metavar, e.g. "POOL"; NULL for a flag */
	const char *def;  /* default value, NULL when none */
	const char *help; /* one line */
};

/* Per-run backend context, one per rank. */
struct mb_ctx {
	const struct mb_config *cfg;
	int rank;
	int nranks;
	void *priv;          /* the backend's own state */
	struct ios_err *err; /* where backends say why (never NULL) */
};

/* An open target: a file, an object set, ... (backend-defined). */
struct mb_file;

/* One in-flight request of the asynchronous path. */
struct mb_io {
	void *buf;
	size_t len;
	uint64_t off;
	int op;              /* IOS_OP_READ or IOS_OP_WRITE (results.h) */
	int64_t t_submit_ns; /* set by the core */
	ssize_t result;      /* set by the backend: bytes moved or -errno */
	void *core;          /* the core's cookie, untouched by backends */
	void *priv;          /* the backend's per-request slot */
};

struct mb_backend {
	const char *name;    /* "posix", "rados", "cephfs", "null" */
	unsigned int abi;    /* MB_BACKEND_ABI; checked at startup */
	unsigned int flags;  /* MB_BF_* */
	const char *summary; /* one line for --help */
	/* Optional: the engine submit/reap run on, recorded as /config
	 * ioengine when --iodepth > 1 (cephfs: "threads"); NULL: the posix
	 * --ioengine is recorded */
	const char *async_engine;
	const struct mb_option *options; /* NULL-name terminated, or NULL */

	/* Optional: validate the configuration before any I/O or MPI work.
	 * Must not touch the target.  Returns 0 or -EINVAL with ctx->err set.
	 */
	int (*check)(struct mb_ctx *ctx);
	/* Required: connect, allocate.  Returns 0 or -errno (ctx->err set). */
	int (*init)(struct mb_ctx *ctx);
	/* Required: open [name] (relative to --dir or the pool) with MB_O_*
	 * flags.  -ENOENT when missing and MB_O_CREATE not given. */
	int (*open)(struct mb_ctx *ctx, const char *name, int flags,
		    struct mb_file **f);
	/* Required: synchronous transfer.  Returns bytes moved (may be short)
	 * or -errno. */
	ssize_t (*pwrite)(struct mb_file *f, const void *buf, size_t len,
			  uint64_t off);
	ssize_t (*pread)(struct mb_file *f, void *buf, size_t len,
			 uint64_t off);
	/* Optional (MB_BF_ASYNC): queue up to [n] requests; returns how many
	 * were queued (>= 1) or -errno.  Sets up [depth] slots on first use:
	 * the core never has more than --iodepth requests in flight. */
	int (*submit)(struct mb_file *f, struct mb_io **ios, unsigned int n);
	/* Optional (MB_BF_ASYNC): wait until at least [min] requests completed
	 * (or [timeout] passed, NULL = forever), store up to [max] completed
	 * requests in [done] with ->result set; returns the count or -errno
	 * (-ETIMEDOUT when none completed in time). */
	int (*reap)(struct mb_file *f, struct mb_io **done, unsigned int min,
		    unsigned int max, const struct timespec *timeout);
	/* Optional: make written data durable (--fsync).  0 or -errno. */
	int (*fsync)(struct mb_file *f);
	/* Optional: current size in bytes (used to decide a read layout). */
	int (*getsize)(struct mb_file *f, uint64_t *size);
	/* Optional: the extended attribute [name] of the open target (the
	 * dataset mark, dataset.h) into [buf], NUL-terminated: its length,
	 * or -ENODATA (none), -ENOTSUP (the target keeps none), -ERANGE
	 * ([len] too small), -errno.  Without it --reuse-dataset is refused. */
	int (*xattr_get)(struct mb_file *f, const char *name, char *buf,
			 size_t len);
	/* Optional (with xattr_get): set [name] to [value], or remove it when
	 * [value] is NULL (-ENODATA when absent).  0 or -errno. */
	int (*xattr_set)(struct mb_file *f, const char *name,
			 const char *value);
	/* Required: close; 0 or -errno.  Frees [f] in all cases. */
	int (*close)(struct mb_file *f);
	/* Optional: remove [name] (cleanup unless --keep).  0, -ENOENT, -errno
	 */
	int (*unlink)(struct mb_ctx *ctx, const char *name);
	/*
	 * Optional, all five or none: the metadata workload (--meta,
	 * engine/meta.h).  [path] is relative to --dir (cephfs: to --dir
	 * inside --cephfs-root) and made only of names the core built, under
	 * a directory the core created itself (never following a symbolic
	 * link: O_NOFOLLOW, AT_SYMLINK_NOFOLLOW).  Each returns 0 or -errno
	 * with ctx->err set.  Without them --meta is refused for the backend.
	 */
	/* create [path] exclusively (never an existing name) and write
	 * [len] bytes of [buf] */
	int (*meta_create)(struct mb_ctx *ctx, const char *path,
			   const void *buf, size_t len);
	/* stat [path] without following a link: -ENOTDIR / -EISDIR when
	 * it is not a directory / a regular file as [dir] says */
	int (*meta_stat)(struct mb_ctx *ctx, const char *path, bool dir);
	/* open [path], read [len] bytes (-EIO when fewer), close */
	int (*meta_read)(struct mb_ctx *ctx, const char *path, void *buf,
			 size_t len);
	/* unlink the file (rmdir the directory with [dir]) [path] */
	int (*meta_remove)(struct mb_ctx *ctx, const char *path, bool dir);
	/* create the directory [path] (mode 0700) */
	int (*meta_mkdir)(struct mb_ctx *ctx, const char *path);
	/* Required: release what init allocated. */
	void (*fini)(struct mb_ctx *ctx);
};

/* NULL-terminated registry, in backend.c (entries under #ifdef HAVE_*). */
extern const struct mb_backend *const mb_backends[];

/* Find a backend by name; NULL when unknown or not built. */
const struct mb_backend *mb_backend_find(const char *name);

/*
 * Check a table before use: right ABI, required hooks present, submit and
 * reap both present iff MB_BF_ASYNC.  Returns 0 or -EINVAL with [err] set.
 */
int mb_backend_validate(const struct mb_backend *be, struct ios_err *err);

/* Whether [b] has the metadata hooks (--meta). */
bool mb_backend_has_meta(const struct mb_backend *b);

/*
 * The Ceph connection options of [cfg] (--ceph-conf, --ceph-id,
 * --ceph-keyring, --ceph-timeout, each as given or as its default in the
 * backend's table) in [o], the one options struct of ceph_conn.h, for the
 * rados and cephfs backends, the layered run and the Ceph facts.  Options
 * the backend does not have stay NULL / 0 (ceph_conn.h's defaults).
 * Returns 0, or -EINVAL with [err] set for a --ceph-timeout outside
 * 1..3600 seconds.
 */
struct ios_ceph_opts;
int mb_ceph_opts(const struct mb_config *cfg, struct ios_ceph_opts *o,
		 struct ios_err *err);

#endif
