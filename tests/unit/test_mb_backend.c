/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests: backend registry, table checks, null and posix backends. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "backend.h"
#include "mb_config.h"
#include "ownfile.h"

static char tmpdir[PATH_MAX];

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_mb_backend.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static int dummy_init(struct mb_ctx *c)
{
	(void)c;
	return 0;
}

static void test_registry(void **state)
{
	const struct mb_backend *const *b;
	struct ios_err err;
	struct mb_backend bad;

	(void)state;
	assert_non_null(mb_backend_find("posix"));
	assert_non_null(mb_backend_find("null"));
	assert_null(mb_backend_find("nope"));
	assert_null(mb_backend_find(NULL));
	for (b = mb_backends; *b; b++)
		assert_int_equal(mb_backend_validate(*b, &err), 0);

	bad = *mb_backend_find("null");
	bad.abi = MB_BACKEND_ABI + 1;
	assert_int_equal(mb_backend_validate(&bad, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "ABI"));
	bad = *mb_backend_find("null");
	bad.open = NULL;
	assert_int_equal(mb_backend_validate(&bad, &err), -EINVAL);
	bad = *mb_backend_find("null");
	bad.reap = NULL;
	assert_int_equal(mb_backend_validate(&bad, &err), -EINVAL);
	bad = *mb_backend_find("null");
	bad.flags &= ~MB_BF_ASYNC;
	assert_int_equal(mb_backend_validate(&bad, &err), -EINVAL);
	bad.submit = NULL;
	bad.reap = NULL;
	bad.init = dummy_init;
	assert_int_equal(mb_backend_validate(&bad, &err), 0);
}

static void test_null_async(void **state)
{
	const struct mb_backend *be = mb_backend_find("null");
	struct mb_config cfg;
	struct ios_err err = {0};
	struct mb_ctx ctx = {.cfg = &cfg, .err = &err};
	struct mb_file *f;
	struct mb_io io[4], *p[4], *done[4];
	int i;

	(void)state;
	mb_config_defaults(&cfg);
	assert_int_equal(be->init(&ctx), 0);
	assert_int_equal(be->open(&ctx, "x", MB_O_WRITE, &f), 0);
	assert_int_equal(be->pwrite(f, NULL, 4096, 0), 4096);
	for (i = 0; i < 4; i++) {
		memset(&io[i], 0, sizeof(io[i]));
		io[i].len = 512u * (unsigned)(i + 1);
		p[i] = &io[i];
	}
	assert_int_equal(be->submit(f, p, 4), 4);
	assert_int_equal(be->reap(f, done, 1, 4, NULL), 4);
	for (i = 0; i < 4; i++)
		assert_int_equal(done[i]->result, done[i]->len);
	assert_int_equal(be->reap(f, done, 1, 4, NULL), -ETIMEDOUT);
	assert_int_equal(be->close(f), 0);
	be->fini(&ctx);
}

static void posix_roundtrip(enum mb_engine eng, unsigned depth)
{
	const struct mb_backend *be = mb_backend_find("posix");
	struct mb_config cfg;
	struct ios_err err = {0};
	struct mb_ctx ctx = {.cfg = &cfg, .err = &err, .rank = 1};
	struct mb_file *f;
	void *w = NULL, *r = NULL;
	char path[PATH_MAX + 32];
	uint64_t sz;

	mb_config_defaults(&cfg);
	cfg.dir = tmpdir;
	cfg.ioengine = eng;
	cfg.iodepth = depth;
	assert_int_equal(posix_memalign(&w, 4096, 8192), 0);
	assert_int_equal(posix_memalign(&r, 4096, 8192), 0);
	memset(w, 0xab, 8192);
	assert_int_equal(
		be->open(&ctx, "iostrata-bench.1",
			 MB_O_WRITE | MB_O_READ | MB_O_CREATE | MB_O_DIRECT,
			 &f),
		0);
	snprintf(path, sizeof(path), "%s/iostrata-bench.1", tmpdir);
	{
		const struct mb_dir *d;

		assert_int_equal(mb_dir_get(tmpdir, false, &d, &err), 0);
		assert_int_equal(
			mb_own_check(d, "iostrata-bench.1", "test", NULL, &err),
			1);
	}
	if (eng == MB_ENG_PSYNC) {
		assert_int_equal(be->pwrite(f, w, 8192, 4096), 8192);
		assert_int_equal(be->pread(f, r, 8192, 4096), 8192);
	} else {
		struct mb_io io = {.buf = w, .len = 8192, .off = 4096, .op = 1};
		struct mb_io *p = &io, *d;

		assert_int_equal(be->submit(f, &p, 1), 1);
		assert_int_equal(be->reap(f, &d, 1, 1, NULL), 1);
		assert_ptr_equal(d, &io);
		assert_int_equal(io.result, 8192);
		io.buf = r;
		io.op = 0;
		assert_int_equal(be->submit(f, &p, 1), 1);
		assert_int_equal(be->reap(f, &d, 1, 1, NULL), 1);
		assert_int_equal(io.result, 8192);
	}
	assert_memory_equal(w, r, 8192);
	assert_int_equal(be->getsize(f, &sz), 0);
	assert_int_equal(sz, 12288);
	assert_int_equal(be->fsync(f), 0);
	assert_int_equal(be->close(f), 0);
	assert_int_equal(be->unlink(&ctx, "iostrata-bench.1"), 0);
	assert_int_equal(access(path, F_OK), -1);
	free(w);
	free(r);
}

static void test_posix_psync(void **state)
{
	(void)state;
	posix_roundtrip(MB_ENG_PSYNC, 1);
}

static void test_posix_libaio(void **state)
{
	(void)state;
#ifdef HAVE_LIBAIO
	posix_roundtrip(MB_ENG_LIBAIO, 4);
#else
	skip();
#endif
}

static void test_posix_io_uring(void **state)
{
	(void)state;
#ifdef HAVE_LIBURING
	posix_roundtrip(MB_ENG_IO_URING, 4);
#else
	skip();
#endif
}

static void test_posix_posixaio(void **state)
{
	(void)state;
	posix_roundtrip(MB_ENG_POSIXAIO, 4);
}

/* posixaio open on a fresh file of [dir] with [flags]; depth 8. */
static struct mb_file *aio_open(struct mb_ctx *ctx, struct mb_config *cfg,
				const char *name, int flags)
{
	const struct mb_backend *be = mb_backend_find("posix");
	struct mb_file *f = NULL;

	mb_config_defaults(cfg);
	cfg->dir = tmpdir;
	cfg->ioengine = MB_ENG_POSIXAIO;
	cfg->iodepth = 8;
	assert_int_equal(be->open(ctx, name, flags | MB_O_CREATE, &f), 0);
	return f;
}

/* A short transfer and an errno come back as results, per request. */
static void test_posixaio_short_and_errno(void **state)
{
	const struct mb_backend *be = mb_backend_find("posix");
	struct mb_config cfg;
	struct ios_err err = {0};
	struct mb_ctx ctx = {.cfg = &cfg, .err = &err, .rank = 2};
	struct mb_file *f;
	char buf[8192];
	struct mb_io io = {.buf = buf, .len = 8192, .off = 0, .op = 1};
	struct mb_io *p = &io, *d;

	(void)state;
	memset(buf, 0x5a, sizeof(buf));
	f = aio_open(&ctx, &cfg, "iostrata-bench.2", MB_O_WRITE | MB_O_READ);
	assert_int_equal(be->submit(f, &p, 1), 1);
	assert_int_equal(be->reap(f, &d, 1, 1, NULL), 1);
	assert_int_equal(io.result, 8192);
	/* read 8 KiB at 4 KiB of an 8 KiB file: 4 KiB, short */
	io.op = 0;
	io.off = 4096;
	assert_int_equal(be->submit(f, &p, 1), 1);
	assert_int_equal(be->reap(f, &d, 1, 1, NULL), 1);
	assert_int_equal(io.result, 4096);
	assert_int_equal(be->close(f), 0);
	/* a write on a file opened read-only: -EBADF as the result */
	f = aio_open(&ctx, &cfg, "iostrata-bench.2", MB_O_READ);
	io.op = 1;
	io.off = 0;
	assert_int_equal(be->submit(f, &p, 1), 1);
	assert_int_equal(be->reap(f, &d, 1, 1, NULL), 1);
	assert_int_equal(io.result, -EBADF);
	/* nothing in flight: a timed reap says so at once */
	{
		struct timespec t = {0, 1000000};

		assert_int_equal(be->reap(f, &d, 1, 1, &t), -ETIMEDOUT);
	}
	assert_int_equal(be->close(f), 0);
	assert_int_equal(be->unlink(&ctx, "iostrata-bench.2"), 0);
}

/* Close (the SIGTERM path ends in it) with requests in flight: they are
 * cancelled or waited for before their control blocks and buffers go. */
static void test_posixaio_close_in_flight(void **state)
{
	const struct mb_backend *be = mb_backend_find("posix");
	struct mb_config cfg;
	struct ios_err err = {0};
	struct mb_ctx ctx = {.cfg = &cfg, .err = &err, .rank = 3};
	struct mb_file *f;
	struct mb_io io[8], *p[8];
	char *buf = malloc(8 * 65536);

	(void)state;
	assert_non_null(buf);
	f = aio_open(&ctx, &cfg, "iostrata-bench.3", MB_O_WRITE | MB_O_READ);
	for (int i = 0; i < 8; i++) {
		io[i] = (struct mb_io){.buf = buf + (size_t)i * 65536,
				       .len = 65536,
				       .off = (uint64_t)i * 65536,
				       .op = 1};
		p[i] = &io[i];
	}
	memset(buf, 1, 8 * 65536);
	assert_int_equal(be->submit(f, p, 8), 8);
	/* 8 slots in use: a ninth is refused for now, not lost */
	assert_int_equal(be->submit(f, p, 1), -EBUSY);
	assert_int_equal(be->close(f), 0);
	memset(buf, 0, 8 * 65536); /* would race with a live AIO thread */
	free(buf);
	assert_int_equal(be->unlink(&ctx, "iostrata-bench.3"), 0);
}

/* A steady queue: requests go in as slots free up and every one comes back
 * exactly once, whichever request the reap waited on (the (depth/2)-th
 * oldest, or the newest with fewer in flight), down to an empty queue. */
static void test_posixaio_queue_each_once(void **state)
{
	const struct mb_backend *be = mb_backend_find("posix");
	struct mb_config cfg;
	struct ios_err err = {0};
	struct mb_ctx ctx = {.cfg = &cfg, .err = &err, .rank = 4};
	struct mb_file *f;
	struct mb_io io[8], *freel[8], *done[8];
	int inflight[8] = {0};
	unsigned nfree = 8, sent = 0, back = 0, i;
	char *buf = NULL;

	(void)state;
	assert_int_equal(posix_memalign((void **)&buf, 4096, 8 * 4096), 0);
	memset(buf, 7, 8 * 4096);
	f = aio_open(&ctx, &cfg, "iostrata-bench.4", MB_O_WRITE | MB_O_READ);
	for (i = 0; i < 8; i++) {
		io[i] = (struct mb_io){
			.buf = buf + (size_t)i * 4096, .len = 4096, .op = 1};
		freel[i] = &io[i];
	}
	while (back < 200) {
		int n;

		/* refill (up to 200 in all), then one reap of >= 1 */
		while (nfree && sent < 200) {
			struct mb_io *p = freel[--nfree];

			p->off = (uint64_t)(sent % 64) * 4096;
			assert_int_equal(be->submit(f, &p, 1), 1);
			inflight[p - io] = 1;
			sent++;
		}
		n = be->reap(f, done, 1, 8, NULL);
		assert_true(n >= 1);
		for (int k = 0; k < n; k++) {
			unsigned j = (unsigned)(done[k] - io);

			assert_true(j < 8);
			assert_int_equal(inflight[j], 1); /* not twice */
			assert_int_equal(done[k]->result, 4096);
			inflight[j] = 0;
			freel[nfree++] = done[k];
			back++;
		}
	}
	assert_int_equal(sent, 200);
	assert_int_equal(nfree, 8);
	assert_int_equal(be->close(f), 0);
	assert_int_equal(be->unlink(&ctx, "iostrata-bench.4"), 0);
	free(buf);
}

static void test_posix_never_clobbers(void **state)
{
	const struct mb_backend *be = mb_backend_find("posix");
	struct mb_config cfg;
	struct ios_err err = {0};
	struct mb_ctx ctx = {.cfg = &cfg, .err = &err, .rank = 2};
	struct mb_file *f = NULL;
	char path[PATH_MAX + 32];
	FILE *fp;
	struct stat st;

	(void)state;
	mb_config_defaults(&cfg);
	cfg.dir = tmpdir;
	snprintf(path, sizeof(path), "%s/iostrata-bench.2", tmpdir);
	fp = fopen(path, "w");
	fputs("someone's data", fp);
	fclose(fp);
	assert_int_equal(be->open(&ctx, "iostrata-bench.2",
				  MB_O_WRITE | MB_O_CREATE, &f),
			 -EEXIST);
	assert_non_null(strstr(err.msg, "not created by iostrata"));
	assert_int_equal(be->unlink(&ctx, "iostrata-bench.2"), -EPERM);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 14);
	/* reading a missing file without MB_O_CREATE: -ENOENT */
	assert_int_equal(be->open(&ctx, "iostrata-bench.9", MB_O_READ, &f),
			 -ENOENT);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_null_async),
		cmocka_unit_test(test_posix_psync),
		cmocka_unit_test(test_posix_libaio),
		cmocka_unit_test(test_posix_io_uring),
		cmocka_unit_test(test_posix_posixaio),
		cmocka_unit_test(test_posixaio_short_and_errno),
		cmocka_unit_test(test_posixaio_close_in_flight),
		cmocka_unit_test(test_posixaio_queue_each_once),
		cmocka_unit_test(test_posix_never_clobbers),
	};

	return cmocka_run_group_tests_name("mb_backend", tests, setup,
					   teardown);
}
