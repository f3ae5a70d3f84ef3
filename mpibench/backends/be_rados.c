// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * be_rados: the librados backend of iostrata-bench, the "protocol" layer of
 * a layered run (seeds/003: rados bench, no filesystem on top).  A "file" is
 * a RADOS namespace named after the file (so one namespace per rank); block
 * i of the file is object "%016x" of i, object size = --bs, written whole
 * with write_full like rados bench.  Queue depth comes from rados_aio_*.
 *
 * The pool may be shared with strangers: the file's head object (block 0)
 * is created exclusively with the mark user.iostrata (ownfile.h) in one
 * operation, and a namespace whose head is not marked is neither written,
 * read nor removed.  The head also carries the dataset mark (dataset.h).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend.h"
#include "ceph_conn.h"
#include "ceph_dl.h"
#include "mb_config.h"
#include "ownfile.h"
#include "results.h"
#include "units.h"

/* librados, loaded by rados_init() (ceph_dl.h) */
static const struct ios_rados_api *librados;

#define OID_LEN 24
/* Block 0's object: the one that identifies the file and carries its
 * marks. */
#define HEAD_OID "0000000000000000"

static const struct mb_option rados_options[] = {
	{"rados-pool", "POOL", NULL,
	 "RADOS pool to write objects into (required)"},
	{"ceph-conf", "FILE", NULL,
	 "ceph.conf to read (default: $CEPH_CONF, then Ceph's search path)"},
	{"ceph-id", "ID", "admin", "client id to connect as (client.ID)"},
	{"ceph-keyring", "FILE", NULL,
	 "keyring (default: $CEPH_KEYRING, then the conf's keyring)"},
	{"ceph-timeout", "SECONDS", IOS_CEPH_TIMEOUT_STR,
	 "bound on connecting and on every monitor and OSD operation"},
	{NULL, NULL, NULL, NULL},
};

struct rados_priv {
	rados_t cluster;
	char pool[256];
	uint64_t objsize;
};

/* A "file": a namespace in the pool, with its own ioctx. */
struct mb_file {
	struct rados_priv *rp;
	rados_ioctx_t io;
	char ns[256];
	/* completed requests, filled by librados' finisher thread */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct mb_io **done;
	unsigned int ndone, capdone;
	unsigned int inflight;
	/* request slots: all allocated ones, and a stack of free ones */
	struct req_slot **slots, **freel;
	unsigned int nslots, nfree;
};

static const char *opt(struct mb_ctx *ctx, const char *name)
{
	const char *v = mb_config_opt(ctx->cfg, name);

	return (v && *v) ? v : NULL;
}

static int rados_check(struct mb_ctx *ctx)
{
	struct ios_ceph_opts co;
	int rc;

	if (!opt(ctx, "rados-pool"))
		return ios_errf(
			ctx->err, -EINVAL,
			"rados: option --rados-pool: missing: name the pool to benchmark (e.g. --rados-pool=bench)");
	rc = mb_ceph_opts(ctx->cfg, &co, ctx->err);
	if (rc < 0)
		return rc;
	if (ctx->cfg->bs == 0)
		return ios_errf(
			ctx->err, -EINVAL,
			"rados: option --bs: must be > 0 (it is the object size)");
	return 0;
}

static int rados_init(struct mb_ctx *ctx)
{
	struct rados_priv *rp;
	struct ios_ceph_opts co;
	struct ios_err e = {0};
	rados_ioctx_t io;
	int rc;

	rc = rados_check(ctx);
	if (rc < 0)
		return rc;
	mb_ceph_opts(ctx->cfg, &co, NULL); /* checked just above */
	rp = calloc(1, sizeof(*rp));
	if (!rp)
		return ios_errf(ctx->err, -ENOMEM,
				"rados: allocate context: %s",
				strerror(ENOMEM));
	snprintf(rp->pool, sizeof(rp->pool), "%s", opt(ctx, "rados-pool"));
	rp->objsize = ctx->cfg->bs;

	rc = ios_rados_connect(&co, &rp->cluster, &e);
	if (rc < 0) {
		ios_errf(ctx->err, rc, "rados: %s", e.msg);
		goto out_free;
	}
	librados = ios_rados_load(NULL); /* loaded by the connect */
	/* Fail here, before any I/O, when the pool is missing. */
	rc = librados->rados_ioctx_create(rp->cluster, rp->pool, &io);
	if (rc < 0) {
		ios_errf(ctx->err, rc, "rados: open pool '%s': %s%s", rp->pool,
			 strerror(-rc),
			 rc == -ENOENT ? " (the pool does not exist)" : "");
		goto out_shutdown;
	}
	librados->rados_ioctx_destroy(io);
	ctx->priv = rp;
	return 0;

out_shutdown:
	librados->rados_shutdown(rp->cluster);
out_free:
	free(rp);
	return rc;
}

static void rados_fini(struct mb_ctx *ctx)
{
	struct rados_priv *rp = ctx->priv;

	if (!rp)
		return;
	librados->rados_shutdown(rp->cluster);
	free(rp);
	ctx->priv = NULL;
}

static void oid_of(const struct mb_file *f, uint64_t off, char *oid)
{
	snprintf(oid, OID_LEN, "%016" PRIx64, off / f->rp->objsize);
}

/* [n]: rados_getxattr's result for the mark user.iostrata of namespace
 * [ns]'s head, its value in [v]: 0 when iostrata's, -ENOENT (no head),
 * else a refusal in [err]. */
static int check_mark(const char *v, int n, const struct rados_priv *rp,
		      const char *ns, struct ios_err *err)
{
	if (mb_own_mark_ours(v, n))
		return 0;
	if (n == -ENOENT)
		return n;
	if (n < 0 && n != -ENODATA && n != -ERANGE)
		return ios_errf(
			err, n,
			"rados: read the mark %s of object %s of namespace '%s' in pool '%s': %s",
			MB_XATTR_NAME, HEAD_OID, ns, rp->pool, strerror(-n));
	return ios_errf(
		err, -EEXIST,
		"rados: namespace '%s' in pool '%s' exists and was not created by iostrata (no %s mark on its object %s): refusing to overwrite it (remove its objects or choose another --rados-pool)",
		ns, rp->pool, MB_XATTR_NAME, HEAD_OID);
}

/* The head of [f]: with [create], made here with the mark in one
 * exclusive operation (never an object that appeared meanwhile); an
 * existing one is used only when it carries iostrata's mark.  0, -ENOENT
 * (no head, not creating), or a refusal with [ctx]->err set. */
static int claim_head(struct mb_ctx *ctx, struct mb_file *f, bool create)
{
	rados_write_op_t op;
	char v[64];
	int rc;

	if (create) {
		snprintf(v, sizeof(v), "iostrata-bench rank=%d", ctx->rank);
		op = librados->rados_create_write_op();
		if (!op)
			return ios_errf(ctx->err, -ENOMEM,
					"rados: create namespace '%s': %s",
					f->ns, strerror(ENOMEM));
		librados->rados_write_op_create(op, LIBRADOS_CREATE_EXCLUSIVE,
						NULL);
		librados->rados_write_op_setxattr(op, MB_XATTR_NAME, v,
						  strlen(v));
		rc = librados->rados_write_op_operate(op, f->io, HEAD_OID, NULL,
						      0);
		librados->rados_release_write_op(op);
		if (rc == 0)
			return 0;
		if (rc != -EEXIST)
			return ios_errf(
				ctx->err, rc,
				"rados: create object %s of namespace '%s' in pool '%s' with the mark %s: %s",
				HEAD_OID, f->ns, f->rp->pool, MB_XATTR_NAME,
				strerror(-rc));
	}
	rc = librados->rados_getxattr(f->io, HEAD_OID, MB_XATTR_NAME, v,
				      sizeof(v));
	return check_mark(v, rc, f->rp, f->ns, ctx->err);
}

static int rados_open(struct mb_ctx *ctx, const char *name, int flags,
		      struct mb_file **out)
{
	struct rados_priv *rp = ctx->priv;
	struct mb_file *f;
	int rc;

	if (strlen(name) >= sizeof(f->ns))
		return ios_errf(ctx->err, -ENAMETOOLONG,
				"rados: open namespace '%s': %s", name,
				strerror(ENAMETOOLONG));
	f = calloc(1, sizeof(*f));
	if (!f)
		return ios_errf(ctx->err, -ENOMEM, "rados: open '%s': %s", name,
				strerror(ENOMEM));
	f->rp = rp;
	snprintf(f->ns, sizeof(f->ns), "%s", name);
	rc = librados->rados_ioctx_create(rp->cluster, rp->pool, &f->io);
	if (rc < 0) {
		free(f);
		return ios_errf(ctx->err, rc, "rados: open pool '%s': %s",
				rp->pool, strerror(-rc));
	}
	librados->rados_ioctx_set_namespace(f->io, f->ns);
	rc = claim_head(ctx, f, flags & MB_O_CREATE);
	if (rc < 0) {
		librados->rados_ioctx_destroy(f->io);
		free(f);
		if (rc == -ENOENT)
			ios_errf(ctx->err, rc,
				 "rados: open namespace '%s' in pool '%s': %s",
				 name, rp->pool, strerror(-rc));
		return rc;
	}
	pthread_mutex_init(&f->lock, NULL);
	pthread_cond_init(&f->cond, NULL);
	*out = f;
	return 0;
}

/* The object-relative window of [off, off+len): clipped to one object. */
static size_t clip(const struct mb_file *f, uint64_t off, size_t len,
		   uint64_t *objoff)
{
	*objoff = off % f->rp->objsize;
	if (*objoff + len > f->rp->objsize)
		len = f->rp->objsize - *objoff;
	return len;
}

static ssize_t rados_pwrite_(struct mb_file *f, const void *buf, size_t len,
			     uint64_t off)
{
	char oid[OID_LEN];
	uint64_t oo;
	int rc;

	oid_of(f, off, oid);
	len = clip(f, off, len, &oo);
	if (oo == 0 && len == f->rp->objsize)
		rc = librados->rados_write_full(f->io, oid, buf, len);
	else
		rc = librados->rados_write(f->io, oid, buf, len, oo);
	return rc < 0 ? rc : (ssize_t)len;
}

static ssize_t rados_pread_(struct mb_file *f, void *buf, size_t len,
			    uint64_t off)
{
	char oid[OID_LEN];
	uint64_t oo;
	int rc;

	oid_of(f, off, oid);
	len = clip(f, off, len, &oo);
	rc = librados->rados_read(f->io, oid, buf, len, oo);
	return rc;
}

/* Per-request slot: the completion and its file; io->priv while in flight. */
struct req_slot {
	rados_completion_t c;
	struct mb_file *f;
	struct mb_io *io;
};

/* librados finisher thread: move the request to the done list. */
static void on_complete(rados_completion_t c, void *arg)
{
	struct req_slot *s = arg;
	struct mb_io *io = s->io;
	struct mb_file *f = s->f;
	int rc = librados->rados_aio_get_return_value(c);

	if (rc < 0 || io->op == IOS_OP_READ)
		io->result = rc;
	/* writes: result preset to the clipped length at submit */
	pthread_mutex_lock(&f->lock);
	f->done[f->ndone++] = io;
	pthread_cond_signal(&f->cond);
	pthread_mutex_unlock(&f->lock);
}

static struct req_slot *slot_get(struct mb_file *f)
{
	struct req_slot *s, **a, **b;

	if (f->nfree)
		return f->freel[--f->nfree];
	s = calloc(1, sizeof(*s));
	a = realloc(f->slots, (f->nslots + 1) * sizeof(*a));
	if (a)
		f->slots = a;
	b = realloc(f->freel, (f->nslots + 1) * sizeof(*b));
	if (b)
		f->freel = b;
	if (!s || !a || !b) {
		free(s);
		return NULL;
	}
	f->slots[f->nslots++] = s;
	s->f = f;
	return s;
}

static void slot_put(struct mb_file *f, struct req_slot *s)
{
	if (s->c)
		librados->rados_aio_release(s->c);
	s->c = NULL;
	s->io->priv = NULL;
	s->io = NULL;
	f->freel[f->nfree++] = s;
}

static int grow_done(struct mb_file *f, unsigned int need)
{
	struct mb_io **d;
	unsigned int cap;

	if (need <= f->capdone)
		return 0;
	cap = f->capdone ? f->capdone : 16;
	while (cap < need)
		cap *= 2;
	d = realloc(f->done, cap * sizeof(*d));
	if (!d)
		return -ENOMEM;
	f->done = d;
	f->capdone = cap;
	return 0;
}

static int rados_submit(struct mb_file *f, struct mb_io **ios, unsigned int n)
{
	unsigned int i;
	int rc;

	pthread_mutex_lock(&f->lock);
	rc = grow_done(f, f->inflight + n);
	pthread_mutex_unlock(&f->lock);
	if (rc < 0)
		return rc;
	for (i = 0; i < n; i++) {
		struct mb_io *io = ios[i];
		struct req_slot *s = slot_get(f);
		char oid[OID_LEN];
		uint64_t oo;
		size_t len;

		if (!s)
			return i ? (int)i : -ENOMEM;
		s->io = io;
		io->priv = s;
		rc = librados->rados_aio_create_completion2(s, on_complete,
							    &s->c);
		if (rc < 0) {
			s->c = NULL;
			slot_put(f, s);
			return i ? (int)i : rc;
		}
		oid_of(f, io->off, oid);
		len = clip(f, io->off, io->len, &oo);
		io->result = (ssize_t)len;
		pthread_mutex_lock(&f->lock);
		f->inflight++;
		pthread_mutex_unlock(&f->lock);
		if (io->op == IOS_OP_WRITE) {
			if (oo == 0 && len == f->rp->objsize)
				rc = librados->rados_aio_write_full(
					f->io, oid, s->c, io->buf, len);
			else
				rc = librados->rados_aio_write(
					f->io, oid, s->c, io->buf, len, oo);
		} else {
			rc = librados->rados_aio_read(f->io, oid, s->c, io->buf,
						      len, oo);
		}
		if (rc < 0) {
			pthread_mutex_lock(&f->lock);
			f->inflight--;
			pthread_mutex_unlock(&f->lock);
			slot_put(f, s);
			return i ? (int)i : rc;
		}
	}
	return (int)n;
}

static int rados_reap(struct mb_file *f, struct mb_io **done, unsigned int min,
		      unsigned int max, const struct timespec *timeout)
{
	struct timespec dl;
	unsigned int k, i;
	int rc = 0;

	if (timeout)
		ios_deadline(CLOCK_REALTIME, timeout, &dl);
	pthread_mutex_lock(&f->lock);
	if (min > f->inflight)
		min = f->inflight;
	while (f->ndone < min) {
		if (timeout) {
			rc = pthread_cond_timedwait(&f->cond, &f->lock, &dl);
			if (rc == ETIMEDOUT)
				break;
		} else {
			pthread_cond_wait(&f->cond, &f->lock);
		}
	}
	k = f->ndone < max ? f->ndone : max;
	for (i = 0; i < k; i++)
		done[i] = f->done[i];
	memmove(f->done, f->done + k, (f->ndone - k) * sizeof(*f->done));
	f->ndone -= k;
	f->inflight -= k;
	pthread_mutex_unlock(&f->lock);
	for (i = 0; i < k; i++)
		slot_put(f, done[i]->priv);
	if (k == 0 && min > 0)
		return -ETIMEDOUT;
	return (int)k;
}

static int rados_fsync_(struct mb_file *f)
{
	/* A RADOS write is acknowledged once every replica has it durable. */
	(void)f;
	return 0;
}

static int rados_getsize(struct mb_file *f, uint64_t *size)
{
	rados_list_ctx_t lc;
	const char *entry;
	uint64_t maxidx = 0, n = 0, sz;
	time_t mt;
	char oid[OID_LEN];
	int rc;

	rc = librados->rados_nobjects_list_open(f->io, &lc);
	if (rc < 0)
		return rc;
	while ((rc = librados->rados_nobjects_list_next(lc, &entry, NULL,
							NULL)) == 0) {
		uint64_t idx;
		char *end;

		idx = strtoull(entry, &end, 16);
		if (*end)
			continue;
		if (n == 0 || idx > maxidx)
			maxidx = idx;
		n++;
	}
	librados->rados_nobjects_list_close(lc);
	if (rc < 0 && rc != -ENOENT)
		return rc;
	if (n == 0) {
		*size = 0;
		return 0;
	}
	snprintf(oid, sizeof(oid), "%016" PRIx64, maxidx);
	rc = librados->rados_stat(f->io, oid, &sz, &mt);
	if (rc < 0)
		return rc;
	*size = maxidx * f->rp->objsize + sz;
	return 0;
}

/* The dataset mark (dataset.h) on the head; the pool under CephFS's name
 * for a file's data pool, so the dataset's identity names it. */
static int rados_xattr_get(struct mb_file *f, const char *name, char *buf,
			   size_t len)
{
	int n;

	if (len == 0)
		return -ERANGE;
	if (!strcmp(name, "ceph.file.layout.pool")) {
		n = snprintf(buf, len, "%s", f->rp->pool);
		return n < 0 || (size_t)n >= len ? -ERANGE : n;
	}
	n = librados->rados_getxattr(f->io, HEAD_OID, name, buf, len - 1);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

static int rados_xattr_set(struct mb_file *f, const char *name,
			   const char *value)
{
	char v[8];
	int rc;

	if (value)
		return librados->rados_setxattr(f->io, HEAD_OID, name, value,
						strlen(value));
	/* an OSD removes an absent xattr without a word: ask first */
	rc = librados->rados_getxattr(f->io, HEAD_OID, name, v, sizeof(v));
	if (rc < 0 && rc != -ERANGE)
		return rc;
	return librados->rados_rmxattr(f->io, HEAD_OID, name);
}

static int rados_close(struct mb_file *f)
{
	struct mb_io *tmp[64];
	struct timespec tmo = {60, 0};
	unsigned int i;

	/* never free a file with requests in flight */
	while (f->inflight > 0) {
		if (rados_reap(f, tmp, 1, 64, &tmo) < 0)
			break;
	}
	if (f->inflight > 0) {
		/* librados still owns requests that point at [f]: leak it
		 * rather than let a late callback write freed memory. */
		return -ETIMEDOUT;
	}
	librados->rados_ioctx_destroy(f->io);
	pthread_mutex_destroy(&f->lock);
	pthread_cond_destroy(&f->cond);
	for (i = 0; i < f->nslots; i++)
		free(f->slots[i]);
	free(f->slots);
	free(f->freel);
	free(f->done);
	free(f);
	return 0;
}

/* Remove every object of namespace [name] (only objects named like ours)
 * when its head carries iostrata's mark; the head last, so a removal cut
 * short leaves a namespace that is still ours. */
static int unlink_connected(struct mb_ctx *ctx, const char *name)
{
	struct rados_priv *rp = ctx->priv;
	rados_ioctx_t io;
	rados_list_ctx_t lc;
	const char *entry;
	char v[64];
	int rc, first = 0;

	rc = librados->rados_ioctx_create(rp->cluster, rp->pool, &io);
	if (rc < 0)
		return ios_errf(ctx->err, rc, "rados: open pool '%s': %s",
				rp->pool, strerror(-rc));
	librados->rados_ioctx_set_namespace(io, name);
	rc = check_mark(v,
			librados->rados_getxattr(io, HEAD_OID, MB_XATTR_NAME, v,
						 sizeof(v)),
			rp, name, ctx->err);
	if (rc < 0) {
		librados->rados_ioctx_destroy(io);
		return rc;
	}
	rc = librados->rados_nobjects_list_open(io, &lc);
	if (rc < 0) {
		librados->rados_ioctx_destroy(io);
		return ios_errf(ctx->err, rc,
				"rados: list namespace '%s' in pool '%s': %s",
				name, rp->pool, strerror(-rc));
	}
	while ((rc = librados->rados_nobjects_list_next(lc, &entry, NULL,
							NULL)) == 0) {
		char *end;
		int r;

		strtoull(entry, &end, 16);
		if (*end || strlen(entry) != OID_LEN - 8 ||
		    !strcmp(entry, HEAD_OID))
			continue; /* not one of ours, or the head */
		r = librados->rados_remove(io, entry);
		if (r < 0 && r != -ENOENT && !first)
			first = r;
	}
	librados->rados_nobjects_list_close(lc);
	if (rc == 0 || rc == -ENOENT) {
		int r = first ? 0 : librados->rados_remove(io, HEAD_OID);

		if (r < 0 && r != -ENOENT)
			first = r;
	}
	librados->rados_ioctx_destroy(io);
	if (rc < 0 && rc != -ENOENT)
		return ios_errf(ctx->err, rc,
				"rados: list namespace '%s' in pool '%s': %s",
				name, rp->pool, strerror(-rc));
	if (first < 0)
		return ios_errf(
			ctx->err, first,
			"rados: remove objects of namespace '%s' in pool '%s': %s",
			name, rp->pool, strerror(-first));
	return 0;
}

/* The core may clean up without init (mb_phase_cleanup): connect for it. */
static int rados_unlink(struct mb_ctx *ctx, const char *name)
{
	int rc;

	if (ctx->priv)
		return unlink_connected(ctx, name);
	rc = rados_init(ctx);
	if (rc < 0)
		return rc;
	rc = unlink_connected(ctx, name);
	rados_fini(ctx);
	return rc;
}

const struct mb_backend mb_backend_rados = {
	.name = "rados",
	.abi = MB_BACKEND_ABI,
	.flags = MB_BF_NO_LOCAL_FS | MB_BF_ASYNC,
	.summary =
		"librados objects (object size = --bs), one namespace per file; the protocol layer",
	.options = rados_options,
	.check = rados_check,
	.init = rados_init,
	.open = rados_open,
	.pwrite = rados_pwrite_,
	.pread = rados_pread_,
	.submit = rados_submit,
	.reap = rados_reap,
	.fsync = rados_fsync_,
	.getsize = rados_getsize,
	.xattr_get = rados_xattr_get,
	.xattr_set = rados_xattr_set,
	.close = rados_close,
	.unlink = rados_unlink,
	.fini = rados_fini,
};
