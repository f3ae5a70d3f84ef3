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
		cmocka_unit_test(test_posix_never_clobbers),
	};

	return cmocka_run_group_tests_name("mb_backend", tests, setup,
					   teardown);
}
