/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * be_null: a backend that moves no data (fio's null engine, IOR's DUMMY).
 * It measures the harness itself and is the template for new backends:
 * every hook is here, the asynchronous ones included.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "backend.h"

struct mb_file {
	struct mb_io **pending; /* completed on submit, handed out by reap */
	unsigned int npending;
	unsigned int cap;
};

static int null_init(struct mb_ctx *ctx)
{
	(void)ctx;
	return 0;
}

static int null_open(struct mb_ctx *ctx, const char *name, int flags,
		     struct mb_file **f)
{
	(void)ctx;
	(void)name;
	(void)flags;
	*f = calloc(1, sizeof(**f));
	return *f ? 0 : -ENOMEM;
}

static ssize_t null_pwrite(struct mb_file *f, const void *buf, size_t len,
			   uint64_t off)
{
	(void)f;
	(void)buf;
	(void)off;
	return (ssize_t)len;
}

static ssize_t null_pread(struct mb_file *f, void *buf, size_t len,
			  uint64_t off)
{
	(void)f;
	(void)buf;
	(void)off;
	return (ssize_t)len;
}

static int null_submit(struct mb_file *f, struct mb_io **ios, unsigned int n)
{
	unsigned int i;

	if (f->npending + n > f->cap) {
		unsigned int cap = (f->npending + n) * 2;
		struct mb_io **p = realloc(f->pending, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		f->pending = p;
		f->cap = cap;
	}
	for (i = 0; i < n; i++) {
		ios[i]->result = (ssize_t)ios[i]->len;
		f->pending[f->npending++] = ios[i];
	}
	return (int)n;
}

static int null_reap(struct mb_file *f, struct mb_io **done, unsigned int min,
		     unsigned int max, const struct timespec *timeout)
{
	unsigned int n = f->npending < max ? f->npending : max;
	unsigned int i;

	(void)timeout;
	if (n < min && n == 0)
		return -ETIMEDOUT;
	for (i = 0; i < n; i++)
		done[i] = f->pending[f->npending - n + i];
	f->npending -= n;
	return (int)n;
}

static int null_close(struct mb_file *f)
{
	free(f->pending);
	free(f);
	return 0;
}

/* The metadata hooks: no name is made; they measure the harness. */
static int null_meta_create(struct mb_ctx *ctx, const char *path,
			    const void *buf, size_t len)
{
	(void)ctx, (void)path, (void)buf, (void)len;
	return 0;
}

static int null_meta_stat(struct mb_ctx *ctx, const char *path, bool dir)
{
	(void)ctx, (void)path, (void)dir;
	return 0;
}

static int null_meta_read(struct mb_ctx *ctx, const char *path, void *buf,
			  size_t len)
{
	(void)ctx, (void)path, (void)buf, (void)len;
	return 0;
}

static int null_meta_remove(struct mb_ctx *ctx, const char *path, bool dir)
{
	(void)ctx, (void)path, (void)dir;
	return 0;
}

static int null_meta_mkdir(struct mb_ctx *ctx, const char *path)
{
	(void)ctx, (void)path;
	return 0;
}

static void null_fini(struct mb_ctx *ctx)
{
	(void)ctx;
}

const struct mb_backend mb_backend_null = {
	.name = "null",
	.abi = MB_BACKEND_ABI,
	.flags = MB_BF_ASYNC | MB_BF_NO_DATA | MB_BF_SHARED_FILE,
	.summary = "moves no data: measures the harness (fio --ioengine=null)",
	.options = NULL,
	.init = null_init,
	.open = null_open,
	.pwrite = null_pwrite,
	.pread = null_pread,
	.submit = null_submit,
	.reap = null_reap,
	.close = null_close,
	.meta_create = null_meta_create,
	.meta_stat = null_meta_stat,
	.meta_read = null_meta_read,
	.meta_remove = null_meta_remove,
	.meta_mkdir = null_meta_mkdir,
	.fini = null_fini,
};
