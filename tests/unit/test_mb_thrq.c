/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_mb_thrq: the thread queue under the cephfs backend's --iodepth > 1
 * (mpibench/backends/thrq.h), driven by a fake synchronous call that blocks
 * each request until the test releases it: requests really in flight together,
 * completions in the order released, a short transfer and an EIO passed
 * through, a full queue and a timeout, and teardown with requests in
 * flight (queued ones cancelled, the running one waited for, no worker
 * left).  Then the cephfs backend's checks of --iodepth and --ioengine and
 * the engine it records.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "backend.h"
#include "mb_config.h"
#include "thrq.h"

#define NIO 8
#define LEN 4096

/* The fake call's state: request i runs until go[i]. */
struct fake {
	pthread_mutex_t m;
	pthread_cond_t cv;
	struct mb_io ios[NIO];
	bool go[NIO];
	ssize_t res[NIO];
	int active, max_active, calls;
	bool sigterm_blocked; /* in every call so far */
};

static struct fake fk;

static ssize_t fake_io(void *arg, struct mb_io *io)
{
	struct fake *f = arg;
	int i = (int)(io - f->ios);
	sigset_t set;
	ssize_t r;

	pthread_sigmask(SIG_BLOCK, NULL, &set);
	pthread_mutex_lock(&f->m);
	if (!sigismember(&set, SIGTERM))
		f->sigterm_blocked = false;
	f->calls++;
	f->active++;
	if (f->active > f->max_active)
		f->max_active = f->active;
	pthread_cond_broadcast(&f->cv);
	while (!f->go[i])
		pthread_cond_wait(&f->cv, &f->m);
	f->active--;
	r = f->res[i];
	pthread_mutex_unlock(&f->m);
	return r;
}

static int setup(void **state)
{
	int i;

	(void)state;
	memset(&fk, 0, sizeof(fk));
	pthread_mutex_init(&fk.m, NULL);
	pthread_cond_init(&fk.cv, NULL);
	fk.sigterm_blocked = true;
	for (i = 0; i < NIO; i++) {
		fk.ios[i].len = LEN;
		fk.ios[i].off = (uint64_t)i * LEN;
		fk.ios[i].op = i % 2;
		fk.ios[i].result = 12345;
		fk.res[i] = LEN;
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	pthread_cond_destroy(&fk.cv);
	pthread_mutex_destroy(&fk.m);
	return 0;
}

static void release(int i)
{
	pthread_mutex_lock(&fk.m);
	fk.go[i] = true;
	pthread_cond_broadcast(&fk.cv);
	pthread_mutex_unlock(&fk.m);
}

/* Wait (at most 5 s) until [n] calls are running at once. */
static void wait_active(int n)
{
	struct timespec end;
	int rc = 0;

	clock_gettime(CLOCK_REALTIME, &end);
	end.tv_sec += 5;
	pthread_mutex_lock(&fk.m);
	while (fk.active != n && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&fk.cv, &fk.m, &end);
	pthread_mutex_unlock(&fk.m);
	assert_int_equal(fk.active, n);
}

/* The threads of this process (/proc/self/task). */
static int nthreads(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

static struct mb_io *io_ptrs[NIO];

static struct mb_io **ptrs(int from)
{
	int i;

	for (i = 0; i < NIO; i++)
		io_ptrs[i] = &fk.ios[i];
	return io_ptrs + from;
}

/* Four requests in flight at once; each completes when released, in the
 * order released (not submitted), and is reaped in that order. */
static void test_any_order(void **state)
{
	static const int order[] = {2, 0, 3, 1};
	struct mb_thrq *q = NULL;
	struct mb_io *done[NIO];
	int base = nthreads(), k;

	(void)state;
	assert_int_equal(mb_thrq_start(&q, 4, 4, fake_io, &fk), 0);
	assert_int_equal(nthreads(), base + 4);
	assert_int_equal(mb_thrq_submit(q, ptrs(0), 4), 4);
	wait_active(4);
	for (k = 0; k < 4; k++) {
		release(order[k]);
		assert_int_equal(mb_thrq_reap(q, done, 1, 1, NULL), 1);
		assert_ptr_equal(done[0], &fk.ios[order[k]]);
		assert_int_equal(done[0]->result, LEN);
	}
	assert_int_equal(fk.max_active, 4);
	assert_true(fk.sigterm_blocked);
	assert_int_equal(mb_thrq_stop(q), 0);
	assert_int_equal(nthreads(), base);
}

/* A short transfer and an EIO come back as the call returned them, next
 * to full ones; the queue goes on working after them. */
static void test_short_and_error(void **state)
{
	struct mb_thrq *q = NULL;
	struct mb_io *done[NIO];
	int i;

	(void)state;
	fk.res[1] = LEN / 2;
	fk.res[2] = -EIO;
	assert_int_equal(mb_thrq_start(&q, 3, 3, fake_io, &fk), 0);
	assert_int_equal(mb_thrq_submit(q, ptrs(0), 3), 3);
	for (i = 0; i < 3; i++)
		release(i);
	assert_int_equal(mb_thrq_reap(q, done, 3, 3, NULL), 3);
	assert_int_equal(fk.ios[0].result, LEN);
	assert_int_equal(fk.ios[1].result, LEN / 2);
	assert_int_equal(fk.ios[2].result, -EIO);
	/* a later request is served */
	fk.ios[1].result = 0;
	fk.res[1] = LEN;
	assert_int_equal(mb_thrq_submit(q, ptrs(1), 1), 1);
	assert_int_equal(mb_thrq_reap(q, done, 1, 3, NULL), 1);
	assert_ptr_equal(done[0], &fk.ios[1]);
	assert_int_equal(fk.ios[1].result, LEN);
	assert_int_equal(mb_thrq_stop(q), 0);
}

/* No more than [depth] requests are taken; a reap with a bound returns
 * -ETIMEDOUT when nothing completed, and one with nothing in flight does
 * not wait. */
static void test_full_and_timeout(void **state)
{
	struct timespec tmo = {0, 20 * 1000 * 1000};
	struct mb_thrq *q = NULL;
	struct mb_io *done[NIO];

	(void)state;
	assert_int_equal(mb_thrq_start(&q, 2, 2, fake_io, &fk), 0);
	assert_int_equal(mb_thrq_submit(q, ptrs(0), 3), 2);
	assert_int_equal(mb_thrq_submit(q, ptrs(2), 1), -EBUSY);
	assert_int_equal(mb_thrq_reap(q, done, 1, 2, &tmo), -ETIMEDOUT);
	release(1);
	assert_int_equal(mb_thrq_reap(q, done, 1, 2, &tmo), 1);
	assert_ptr_equal(done[0], &fk.ios[1]);
	/* the freed slot takes another */
	assert_int_equal(mb_thrq_submit(q, ptrs(2), 2), 1);
	release(0);
	release(2);
	assert_int_equal(mb_thrq_reap(q, done, 2, 2, NULL), 2);
	assert_int_equal(mb_thrq_reap(q, done, 1, 2, NULL), -ETIMEDOUT);
	assert_int_equal(mb_thrq_stop(q), 0);
}

struct stopper {
	struct mb_thrq *q;
	unsigned int left;
	bool returned;
};

static void *stop_thread(void *p)
{
	struct stopper *s = p;

	s->left = mb_thrq_stop(s->q);
	pthread_mutex_lock(&fk.m);
	s->returned = true;
	pthread_mutex_unlock(&fk.m);
	return NULL;
}

/* Teardown with four requests in flight on one worker: it waits for the
 * running call (never interrupts it), cancels the three queued ones
 * without running them, accounts for all four and leaves no worker. */
static void test_stop_in_flight(void **state)
{
	struct stopper s = {0};
	int base = nthreads(), i;
	bool returned;
	pthread_t t;

	(void)state;
	assert_int_equal(mb_thrq_start(&s.q, 4, 1, fake_io, &fk), 0);
	assert_int_equal(mb_thrq_submit(s.q, ptrs(0), 4), 4);
	wait_active(1);
	assert_int_equal(pthread_create(&t, NULL, stop_thread, &s), 0);
	usleep(100 * 1000);
	pthread_mutex_lock(&fk.m);
	returned = s.returned;
	pthread_mutex_unlock(&fk.m);
	assert_false(returned); /* still waiting for the running call */
	for (i = 0; i < 4; i++)
		release(i);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(s.left, 4);
	assert_int_equal(fk.calls, 1);
	assert_int_equal(fk.active, 0);
	assert_int_equal(fk.ios[0].result, LEN);
	for (i = 1; i < 4; i++)
		assert_int_equal(fk.ios[i].result, -ECANCELED);
	assert_int_equal(nthreads(), base);
	assert_int_equal(mb_thrq_stop(NULL), 0);
}

static void test_start_rejects(void **state)
{
	struct mb_thrq *q = NULL;

	(void)state;
	assert_int_equal(mb_thrq_start(&q, 0, 1, fake_io, &fk), -EINVAL);
	assert_int_equal(
		mb_thrq_start(&q, MB_THRQ_MAX_DEPTH + 1, 1, fake_io, &fk),
		-EINVAL);
	assert_int_equal(mb_thrq_start(&q, 4, 0, fake_io, &fk), -EINVAL);
	assert_int_equal(mb_thrq_start(&q, 4, 5, fake_io, &fk), -EINVAL);
	assert_int_equal(mb_thrq_start(&q, 4, 4, NULL, &fk), -EINVAL);
	assert_null(q);
}

#ifdef HAVE_CEPHFS
/* Parse [args] after --backend=cephfs and run the backend's check. */
static int cephfs_check(const char *const *args, struct mb_config *cfg,
			struct ios_err *err)
{
	char *argv[8] = {(char *)"iostrata-bench", (char *)"--backend=cephfs",
			 (char *)"--dir=/x"};
	struct mb_ctx ctx = {0};
	int argc = 3, rc;

	while (*args && argc < 7)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	ios_err_clear(err);
	rc = mb_config_parse(cfg, argc, argv, err);
	if (rc)
		return rc;
	ctx.cfg = cfg;
	ctx.err = err;
	return cfg->backend->check(&ctx);
}

/* The cephfs backend queues at --iodepth 2..128, records "threads", and
 * refuses a deeper queue and a posix engine, naming what is accepted. */
static void test_cephfs_backend(void **state)
{
	static const char *const deep[] = {"--iodepth=129", NULL};
	static const char *const aio[] = {"--iodepth=8", "--ioengine=libaio",
					  NULL};
	static const char *const d8[] = {"--iodepth=8", NULL};
	static const char *const d1[] = {NULL};
	const struct mb_backend *be = mb_backend_find("cephfs");
	struct mb_config cfg;
	struct ios_err err;

	(void)state;
	assert_non_null(be);
	assert_true(be->flags & MB_BF_ASYNC);
	assert_int_equal(mb_backend_validate(be, &err), 0);
	assert_int_equal(cephfs_check(deep, &cfg, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "option --iodepth: 129"));
	assert_non_null(strstr(err.msg, "accepted: 1 to 128"));
	mb_config_free(&cfg);
	assert_int_equal(cephfs_check(aio, &cfg, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "option --ioengine: \"libaio\""));
	assert_non_null(strstr(err.msg, "accepted: psync"));
	mb_config_free(&cfg);
	assert_int_equal(cephfs_check(d8, &cfg, &err), 0);
	assert_string_equal(mb_config_engine(&cfg), "threads");
	mb_config_free(&cfg);
	assert_int_equal(cephfs_check(d1, &cfg, &err), 0);
	assert_string_equal(mb_config_engine(&cfg), "psync");
	mb_config_free(&cfg);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_any_order, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_short_and_error, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_full_and_timeout, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_stop_in_flight, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_start_rejects, setup,
						teardown),
#ifdef HAVE_CEPHFS
		cmocka_unit_test(test_cephfs_backend),
#endif
	};

	return cmocka_run_group_tests_name("mb_thrq", tests, NULL, NULL);
}
