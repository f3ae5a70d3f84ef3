/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_mb_dataset: the dataset mark of --reuse-dataset (its text both
 * ways, a match, a mismatch in each field, another owner, another size,
 * marks that do not parse), the mark on a real posix file, the rados
 * backend's marks on an in-memory librados (the dataset mark on the head
 * object: absent before the lay-out, set after it, reused, another --bs
 * refused naming the field; a namespace iostrata did not create refused,
 * not overwritten, not removed), the option's checks, and the lay-out's
 * watchdog bound (slow but progressing: never below the rest at the rate so
 * far; stalled: the stall bound).
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "backend.h"
#ifdef HAVE_RADOS
#include "ceph_dl.h"
#endif
#include "dataset.h"
#include "mb_config.h"
#include "mb_fx.h"
#include "ownfile.h"

static void base_id(struct mb_dataset_id *id)
{
	struct mb_config cfg;

	mb_config_defaults(&cfg);
	cfg.size = 1ull << 30;
	cfg.bs = 8ull << 20;
	cfg.seed = 42;
	mb_dataset_id_of(&cfg, 4, "cephfs.r3.data", 1000, id);
}

static void test_roundtrip(void **state)
{
	struct mb_dataset_id id, back;
	struct ios_err err = {0};
	char mark[MB_DATASET_MARK_MAX];

	(void)state;
	base_id(&id);
	assert_true(mb_dataset_format(&id, mark, sizeof(mark)) > 0);
	assert_non_null(strstr(mark, "size=1073741824 bs=8388608 seed=42"));
	assert_non_null(strstr(mark, "layout=per-rank ranks=0"));
	assert_non_null(strstr(mark, "pool=cephfs.r3.data uid=1000"));
	assert_int_equal(mb_dataset_parse(mark, &back, &err), 0);
	assert_null(mb_dataset_diff(&id, &back, err.msg, sizeof(err.msg)));
	assert_int_equal(back.uid, 1000);
	assert_int_equal(mb_dataset_check("f", mark, 1ull << 30, &id, &err),
			 MB_DS_MATCH);
	assert_int_equal(mb_dataset_check("f", NULL, 0, &id, &err),
			 MB_DS_ABSENT);
	/* no pool: one word all the same */
	id.pool[0] = '\0';
	assert_true(mb_dataset_format(&id, mark, sizeof(mark)) > 0);
	assert_non_null(strstr(mark, "pool=- "));
	assert_int_equal(mb_dataset_parse(mark, &back, &err), 0);
	assert_string_equal(back.pool, "");
	assert_int_equal(mb_dataset_format(&id, mark, 20), -ENAMETOOLONG);
}

/* One field of the mark changed: refused, naming the file and the field. */
struct field_case {
	const char *field;
	void (*change)(struct mb_dataset_id *id);
};

static void ch_size(struct mb_dataset_id *id)
{
	id->size /= 2;
}
static void ch_bs(struct mb_dataset_id *id)
{
	id->bs = 4096;
}
static void ch_seed(struct mb_dataset_id *id)
{
	id->seed = 43;
}
static void ch_content(struct mb_dataset_id *id)
{
	snprintf(id->content, sizeof(id->content), "verify");
}
static void ch_compress(struct mb_dataset_id *id)
{
	id->compress = 50;
}
static void ch_layout(struct mb_dataset_id *id)
{
	snprintf(id->layout, sizeof(id->layout), "shared");
}
static void ch_ranks(struct mb_dataset_id *id)
{
	id->ranks = 8;
}
static void ch_sblock(struct mb_dataset_id *id)
{
	id->shared_block = 1 << 20;
}
static void ch_pool(struct mb_dataset_id *id)
{
	snprintf(id->pool, sizeof(id->pool), "cephfs.r2.data");
}

static const struct field_case field_cases[] = {
	{"size", ch_size},         {"bs", ch_bs},
	{"seed", ch_seed},         {"content", ch_content},
	{"compress", ch_compress}, {"layout", ch_layout},
	{"ranks", ch_ranks},       {"sblock", ch_sblock},
	{"pool", ch_pool},
};

static void test_mismatch_each_field(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(field_cases) / sizeof(field_cases[0]);
	     i++) {
		struct mb_dataset_id want, have;
		struct ios_err err = {0};
		char mark[MB_DATASET_MARK_MAX], word[32];

		base_id(&want);
		have = want;
		field_cases[i].change(&have);
		assert_true(mb_dataset_format(&have, mark, sizeof(mark)) > 0);
		assert_int_equal(mb_dataset_check("/d/iostrata-bench.3", mark,
						  have.size, &want, &err),
				 -ESTALE);
		snprintf(word, sizeof(word), ": %s marked",
			 field_cases[i].field);
		if (!strstr(err.msg, word) ||
		    !strstr(err.msg, "/d/iostrata-bench.3") ||
		    !strstr(err.msg, "not rewritten"))
			fail_msg("field %s: message '%s'", field_cases[i].field,
				 err.msg);
	}
}

static void test_wrong_owner_size(void **state)
{
	struct mb_dataset_id want, have;
	struct ios_err err = {0};
	char mark[MB_DATASET_MARK_MAX];

	(void)state;
	base_id(&want);
	have = want;
	have.uid = 0;
	assert_true(mb_dataset_format(&have, mark, sizeof(mark)) > 0);
	assert_int_equal(mb_dataset_check("f", mark, want.size, &want, &err),
			 -EPERM);
	assert_non_null(strstr(
		err.msg, "laid out by uid 0, not by the running uid 1000"));
	/* same identity, the file shorter than marked: changed since */
	assert_true(mb_dataset_format(&want, mark, sizeof(mark)) > 0);
	assert_int_equal(
		mb_dataset_check("f", mark, want.size - 4096, &want, &err),
		-ESTALE);
	assert_non_null(
		strstr(err.msg, "size 1073737728 bytes, marked 1073741824"));
}

static void test_bad_marks(void **state)
{
	static const char *const bad[][2] = {
		{"iostrata-bench rank=0", "not a dataset mark"},
		{"iostrata-dataset v=2 size=1", "format version 2"},
		{"iostrata-dataset v=1 size=1 bs=1 seed=1 content=fill compress=0 layout=per-rank ranks=0 sblock=0 pool=-",
		 "field 'uid' missing"},
		{"iostrata-dataset v=1 size=x",
		 "bad value 'x' of field 'size'"},
		{"iostrata-dataset v=1 size=-1", "bad value '-1'"},
		{"iostrata-dataset v=1 colour=red", "unknown field 'colour'"},
		{"iostrata-dataset v=1 v=1", "field 'v' twice"},
		{"iostrata-dataset v=1 size", "is not KEY=VALUE"},
		{"iostrata-dataset v=1 uid=4294967296", "field 'uid'"},
	};
	struct mb_dataset_id want;

	(void)state;
	base_id(&want);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ios_err err = {0};

		assert_int_equal(
			mb_dataset_check("f", bad[i][0], 1, &want, &err),
			-EINVAL);
		if (!strstr(err.msg, bad[i][1]))
			fail_msg("mark '%s': message '%s'", bad[i][0], err.msg);
	}
}

/* The identity follows the options: shared files carry the rank count
 * and their whole size, per-rank ones any rank count. */
static void test_id_of(void **state)
{
	struct mb_config cfg;
	struct mb_dataset_id a, b;

	(void)state;
	mb_config_defaults(&cfg);
	cfg.size = 1 << 20;
	cfg.bs = 4096;
	mb_dataset_id_of(&cfg, 4, NULL, 1, &a);
	mb_dataset_id_of(&cfg, 8, NULL, 1, &b);
	assert_null(mb_dataset_diff(&a, &b, NULL, 0));
	assert_string_equal(a.content, "scramble");
	cfg.file_layout = MB_LAYOUT_SHARED;
	mb_dataset_id_of(&cfg, 4, NULL, 1, &a);
	mb_dataset_id_of(&cfg, 8, NULL, 1, &b);
	assert_int_equal(a.size, 4u << 20);
	assert_int_equal(a.ranks, 4);
	assert_int_equal(a.shared_block, 4096);
	char d[96];
	assert_string_equal(mb_dataset_diff(&a, &b, d, sizeof(d)), "size");
	cfg.file_layout = MB_LAYOUT_PER_RANK;
	cfg.verify = true;
	cfg.buffer_compress = 50;
	mb_dataset_id_of(&cfg, 4, NULL, 1, &a);
	assert_string_equal(a.content, "verify");
	assert_int_equal(a.compress, 0); /* stamps: no compressibility */
}

/* The watchdog bound: the rest at the rate so far x 4, never below the
 * stall bound; 0 done: the stall bound. */
static void test_layout_bound(void **state)
{
	static const struct {
		uint64_t done;
		double elapsed;
		uint64_t remaining;
		double slowest, want;
	} cases[] = {
		{0, 0, 1ull << 40, 0, MB_LAYOUT_STALL_S},
		{0, 10, 1ull << 40, 100, 2000},
		/* fast: the rest is quick, the stall bound rules */
		{1ull << 30, 1, 1ull << 30, 0.01, MB_LAYOUT_STALL_S},
		/* 8 TiB left at 1 GiB/s: 8192 s x 4, far above 4500 s */
		{1ull << 30, 1, 8ull << 40, 0.01, 4 * 8192.0},
		/* 20 MB/s after 1000 s, 16 GiB left */
		{20000000000ull, 1000, 16ull << 30, 1,
		 4.0 * (16ull << 30) / 2e7},
		/* slowest chunk 60 s: 20 x 60 */
		{1 << 20, 1, 1 << 20, 60, 1200},
		{1 << 20, 0, 1 << 20, 0, MB_LAYOUT_STALL_S},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double b =
			mb_layout_bound_s(cases[i].done, cases[i].elapsed,
					  cases[i].remaining, cases[i].slowest);

		if (fabs(b - cases[i].want) > 1e-6 * cases[i].want)
			fail_msg("case %zu: bound %g, expected %g", i, b,
				 cases[i].want);
	}
	/* a progressing lay-out: as the rest shrinks at a constant rate,
	 * the time left (rest / rate) is always within the bound */
	for (uint64_t done = 1 << 20; done < (64ull << 30); done *= 2) {
		double rate = 5e6; /* 5 MB/s: slow */
		double el = (double)done / rate;
		uint64_t rest = (64ull << 30) - done;

		assert_true(mb_layout_bound_s(done, el, rest, 2) >=
			    (double)rest / rate);
	}
}

/* The posix backend's mark on a real file: set, read back, replaced,
 * removed; -ENODATA when absent. */
static void test_posix_mark(void **state)
{
	const struct mb_backend *be = mb_backend_find("posix");
	char dir[] = "/tmp/test_mb_dataset.XXXXXX", buf[MB_DATASET_MARK_MAX];
	char cmd[PATH_MAX];
	struct mb_config cfg;
	struct ios_err err = {0};
	struct mb_ctx ctx = {.cfg = &cfg, .err = &err, .rank = 0};
	struct mb_file *f;
	int rc;

	(void)state;
	assert_non_null(mkdtemp(dir));
	mb_config_defaults(&cfg);
	cfg.dir = dir;
	assert_int_equal(be->open(&ctx, "iostrata-bench.0",
				  MB_O_WRITE | MB_O_CREATE, &f),
			 0);
	assert_int_equal(be->xattr_get(f, MB_DATASET_XATTR, buf, sizeof(buf)),
			 -ENODATA);
	rc = be->xattr_set(f, MB_DATASET_XATTR, "iostrata-dataset v=1");
	if (rc == -ENOTSUP || rc == -EOPNOTSUPP) {
		be->close(f);
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		assert_int_equal(system(cmd), 0);
		mb_dir_forget_all();
		skip();
	}
	assert_int_equal(rc, 0);
	assert_int_equal(be->xattr_get(f, MB_DATASET_XATTR, buf, sizeof(buf)),
			 20);
	assert_string_equal(buf, "iostrata-dataset v=1");
	assert_int_equal(be->xattr_get(f, MB_DATASET_XATTR, buf, 8), -ERANGE);
	assert_int_equal(be->xattr_set(f, MB_DATASET_XATTR, NULL), 0);
	assert_int_equal(be->xattr_set(f, MB_DATASET_XATTR, NULL), -ENODATA);
	assert_int_equal(be->close(f), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	mb_dir_forget_all();
}

#ifdef HAVE_RADOS
#define HEAD "0000000000000000"

/* A rados run's configuration (with --reuse-dataset when [reuse]). */
static void rados_cfg(struct mb_config *cfg, const char *bs, const char *size,
		      bool reuse)
{
	char b[32], z[32];
	const char *args[] = {"--backend=rados",
			      "--rados-pool=bench",
			      "--seed=7",
			      "--rw=read",
			      b,
			      z,
			      reuse ? "--reuse-dataset" : NULL,
			      NULL};
	struct ios_err err = {0};

	snprintf(b, sizeof(b), "--bs=%s", bs);
	snprintf(z, sizeof(z), "--size=%s", size);
	assert_int_equal(mb_fx_parse(args, cfg, &err), 0);
}

/* The identity the core wants for [f] (phase.c's dataset_want). */
static void rados_want(const struct mb_backend *be, struct mb_file *f,
		       const struct mb_config *cfg, struct mb_dataset_id *id)
{
	char pool[64];

	assert_int_equal(
		be->xattr_get(f, "ceph.file.layout.pool", pool, sizeof(pool)),
		5);
	assert_string_equal(pool, "bench");
	mb_dataset_id_of(cfg, 1, pool, (uint32_t)geteuid(), id);
}

/* The core's sequence on the rados backend: no mark (lay out), the
 * lay-out, the mark, a later run reusing it, another --bs refused naming
 * the field, the mark removed. */
static void test_rados_mark(void **state)
{
	const struct mb_backend *be = mb_backend_find("rados");
	struct mb_config cfg, cfg8;
	struct ios_err err = {0};
	struct mb_ctx ctx = {.cfg = &cfg, .err = &err, .nranks = 1};
	struct mb_dataset_id want, want8;
	struct mb_file *f;
	char mark[MB_DATASET_MARK_MAX], blk[4096];
	uint64_t size, off;
	int n;

	(void)state;
	assert_non_null(be);
	assert_non_null(be->xattr_get);
	assert_non_null(be->xattr_set);
	rados_cfg(&cfg, "4k", "16k", true);
	assert_int_equal(be->init(&ctx), 0);
	assert_int_equal(be->open(&ctx, "iostrata-bench.0",
				  MB_O_WRITE | MB_O_CREATE, &f),
			 0);
	rados_want(be, f, &cfg, &want);
	/* a new file: no mark, so the core lays it out */
	assert_int_equal(be->xattr_get(f, MB_DATASET_XATTR, mark, sizeof(mark)),
			 -ENODATA);
	assert_int_equal(
		mb_dataset_check("iostrata-bench.0", NULL, 0, &want, &err),
		MB_DS_ABSENT);
	memset(blk, 'd', sizeof(blk));
	for (off = 0; off < cfg.size; off += sizeof(blk))
		assert_int_equal(be->pwrite(f, blk, sizeof(blk), off),
				 (int)sizeof(blk));
	assert_int_equal(be->getsize(f, &size), 0);
	assert_int_equal(size, cfg.size);
	/* complete: marked */
	n = mb_dataset_format(&want, mark, sizeof(mark));
	assert_true(n > 0);
	assert_int_equal(be->xattr_set(f, MB_DATASET_XATTR, mark), 0);
	assert_int_equal(be->close(f), 0);

	/* a later run: the mark on the head is this run's identity */
	assert_int_equal(be->open(&ctx, "iostrata-bench.0", MB_O_READ, &f), 0);
	assert_int_equal(be->xattr_get(f, MB_DATASET_XATTR, mark, sizeof(mark)),
			 n);
	assert_non_null(strstr(mark, " pool=bench "));
	assert_int_equal(be->getsize(f, &size), 0);
	assert_int_equal(
		mb_dataset_check("iostrata-bench.0", mark, size, &want, &err),
		MB_DS_MATCH);
	/* another --bs: refused, the field named */
	rados_cfg(&cfg8, "8k", "16k", true);
	mb_dataset_id_of(&cfg8, 1, "bench", (uint32_t)geteuid(), &want8);
	assert_int_equal(
		mb_dataset_check("iostrata-bench.0", mark, size, &want8, &err),
		-ESTALE);
	assert_non_null(strstr(err.msg, "bs marked 4096, this run 8192"));
	ios_err_clear(&err);
	/* too small a buffer; removed; absent */
	assert_int_equal(be->xattr_get(f, MB_DATASET_XATTR, mark, 8), -ERANGE);
	assert_int_equal(be->xattr_set(f, MB_DATASET_XATTR, NULL), 0);
	assert_int_equal(be->xattr_set(f, MB_DATASET_XATTR, NULL), -ENODATA);
	assert_int_equal(be->xattr_get(f, MB_DATASET_XATTR, mark, sizeof(mark)),
			 -ENODATA);
	assert_int_equal(be->close(f), 0);
	/* removed whole, head last; then gone */
	assert_int_equal(be->unlink(&ctx, "iostrata-bench.0"), 0);
	assert_int_equal(be->open(&ctx, "iostrata-bench.0", MB_O_READ, &f),
			 -ENOENT);
	be->fini(&ctx);
	mb_config_free(&cfg);
	mb_config_free(&cfg8);
}

/* Objects of namespace [ns] planted by someone else (through the same
 * library): a head "stranger" with [mark] (NULL: none), and block 1. */
static void plant(const char *ns, const char *mark)
{
	const struct ios_rados_api *api = ios_rados_load(NULL);
	rados_t c;
	rados_ioctx_t io;

	assert_non_null(api);
	assert_int_equal(api->rados_create(&c, "admin"), 0);
	assert_int_equal(api->rados_connect(c), 0);
	assert_int_equal(api->rados_ioctx_create(c, "bench", &io), 0);
	api->rados_ioctx_set_namespace(io, ns);
	assert_int_equal(api->rados_write_full(io, HEAD, "stranger", 8), 0);
	assert_int_equal(api->rados_write_full(io, "0000000000000001", "b", 1),
			 0);
	if (mark)
		assert_int_equal(api->rados_setxattr(io, HEAD, MB_XATTR_NAME,
						     mark, strlen(mark)),
				 0);
	api->rados_ioctx_destroy(io);
	api->rados_shutdown(c);
}

/* [ns]'s head still holds the stranger's bytes. */
static void assert_untouched(const char *ns)
{
	const struct ios_rados_api *api = ios_rados_load(NULL);
	rados_t c;
	rados_ioctx_t io;
	char buf[16] = "";
	uint64_t sz;
	time_t mt;

	assert_int_equal(api->rados_create(&c, "admin"), 0);
	assert_int_equal(api->rados_ioctx_create(c, "bench", &io), 0);
	api->rados_ioctx_set_namespace(io, ns);
	assert_int_equal(api->rados_read(io, HEAD, buf, sizeof(buf), 0), 8);
	assert_memory_equal(buf, "stranger", 8);
	assert_int_equal(api->rados_stat(io, "0000000000000001", &sz, &mt), 0);
	api->rados_ioctx_destroy(io);
	api->rados_shutdown(c);
}

/* Never clobber: a namespace whose head iostrata did not create (no mark,
 * or another one) is refused for writing, reading and removal. */
static void test_rados_stranger(void **state)
{
	static const char *const marks[] = {NULL, "someone else"};
	const struct mb_backend *be = mb_backend_find("rados");
	struct mb_config cfg;
	struct ios_err err = {0};
	struct mb_ctx ctx = {.cfg = &cfg, .err = &err, .rank = 1, .nranks = 2};
	struct mb_file *f = NULL;
	char ns[32];
	unsigned i;

	(void)state;
	rados_cfg(&cfg, "4k", "16k", false);
	assert_int_equal(be->init(&ctx), 0);
	for (i = 0; i < 2; i++) {
		snprintf(ns, sizeof(ns), "iostrata-bench.%u", 5 + i);
		plant(ns, marks[i]);
		assert_int_equal(
			be->open(&ctx, ns, MB_O_WRITE | MB_O_CREATE, &f),
			-EEXIST);
		assert_non_null(strstr(err.msg, "was not created by iostrata"));
		assert_non_null(strstr(err.msg, ns));
		ios_err_clear(&err);
		assert_int_equal(be->open(&ctx, ns, MB_O_READ, &f), -EEXIST);
		ios_err_clear(&err);
		assert_int_equal(be->unlink(&ctx, ns), -EEXIST);
		ios_err_clear(&err);
		assert_untouched(ns);
	}
	be->fini(&ctx);
	mb_config_free(&cfg);
}
#endif

static void test_option(void **state)
{
	static const char *const noseed[] = {"--dir=/tmp", "--reuse-dataset",
					     NULL};
	static const char *const ok[] = {"--dir=/tmp", "--reuse-dataset",
					 "--seed=7", "--rw=read", NULL};
	static const char *const null[] = {"--backend=null", "--reuse-dataset",
					   "--seed=7", NULL};
	struct mb_config cfg;
	struct ios_err err = {0};

	(void)state;
	assert_int_equal(mb_fx_parse(noseed, &cfg, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "--reuse-dataset: needs --seed=N"));
	mb_config_free(&cfg);
	ios_err_clear(&err);
	assert_int_equal(mb_fx_parse(ok, &cfg, &err), 0);
	assert_true(cfg.reuse_dataset);
	assert_true(cfg.keep);
	mb_config_free(&cfg);
	assert_int_equal(mb_fx_parse(null, &cfg, &err), -EINVAL);
	assert_non_null(
		strstr(err.msg, "backend \"null\" keeps no dataset mark"));
	mb_config_free(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_mismatch_each_field),
		cmocka_unit_test(test_wrong_owner_size),
		cmocka_unit_test(test_bad_marks),
		cmocka_unit_test(test_id_of),
		cmocka_unit_test(test_layout_bound),
		cmocka_unit_test(test_posix_mark),
		cmocka_unit_test(test_option),
#ifdef HAVE_RADOS
		cmocka_unit_test(test_rados_mark),
		cmocka_unit_test(test_rados_stranger),
#endif
	};

#ifdef HAVE_RADOS
	/* before anything loads librados: the in-memory one */
	setenv("IOSTRATA_LIBRADOS", FAKE_RADOS_SO, 1);
#endif

	return cmocka_run_group_tests_name("mb_dataset", tests, NULL, NULL);
}
