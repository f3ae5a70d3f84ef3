/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_ceph_dl: librados/libcephfs loaded on first use.  A load is tried
 * once per process, so each case runs in a child and reports back:
 * a missing library and a library without the symbols give a message
 * naming the library and the override variable; the real libraries (when
 * installed) load whole and work (create and release a client handle).
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "ceph_dl.h"

#if !defined(HAVE_RADOS) && !defined(HAVE_CEPHFS)
int main(void)
{
	puts("1..0 # SKIP built without the Ceph headers: nothing to load");
	return 0;
}
#else
struct outcome {
	int code;                 /* 0 loaded (and used), else the errno */
	char msg[IOS_ERR_MSGLEN]; /* the error message */
};

enum which { RADOS, CEPHFS };

/* In a child: set [env]=[value] (NULL: unset), load, report. */
static struct outcome load_in_child(enum which w, const char *env,
				    const char *value)
{
	struct outcome o = {0};
	int fd[2], status;
	pid_t pid;

	assert_int_equal(pipe(fd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct ios_err err = {0};
		struct outcome r = {0};

		close(fd[0]);
		if (value)
			setenv(env, value, 1);
		else
			unsetenv(env);
		if (w == RADOS) {
#ifdef HAVE_RADOS
			const struct ios_rados_api *api = ios_rados_load(&err);
			rados_t c;

			if (api) {
				/* loaded twice: the same table */
				if (ios_rados_load(NULL) != api)
					err.code = -EBADF;
				else if (api->rados_create(&c, "admin") == 0)
					api->rados_shutdown(c);
				else
					err.code = -EPROTO;
			}
#endif
		} else {
#ifdef HAVE_CEPHFS
			const struct ios_cephfs_api *api =
				ios_cephfs_load(&err);
			struct ceph_mount_info *m;

			if (api) {
				if (ios_cephfs_load(NULL) != api)
					err.code = -EBADF;
				else if (api->ceph_create(&m, "admin") == 0)
					api->ceph_release(m);
				else
					err.code = -EPROTO;
			}
#endif
		}
		r.code = err.code;
		snprintf(r.msg, sizeof(r.msg), "%s", err.msg);
		if (write(fd[1], &r, sizeof(r)) != (ssize_t)sizeof(r))
			_exit(3);
		_exit(0);
	}
	close(fd[1]);
	assert_int_equal(read(fd[0], &o, sizeof(o)), (ssize_t)sizeof(o));
	close(fd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	return o;
}

static const struct {
	enum which w;
	const char *env, *soname, *needs;
} libs[] = {
#ifdef HAVE_RADOS
	{RADOS, "IOSTRATA_LIBRADOS", IOS_RADOS_SONAME, "rados_create"},
#endif
#ifdef HAVE_CEPHFS
	{CEPHFS, "IOSTRATA_LIBCEPHFS", IOS_CEPHFS_SONAME, "ceph_create"},
#endif
};
#define NLIBS (sizeof(libs) / sizeof(libs[0]))

static void test_missing_library(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < NLIBS; i++) {
		struct outcome o = load_in_child(libs[i].w, libs[i].env,
						 "/nonexistent/libceph-x.so");

		assert_int_equal(o.code, -ENOENT);
		assert_non_null(
			strstr(o.msg, "cannot load the Ceph client library"));
		assert_non_null(strstr(o.msg, "/nonexistent/libceph-x.so"));
		assert_non_null(strstr(o.msg, libs[i].env));
	}
}

static void test_library_without_symbols(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < NLIBS; i++) {
		struct outcome o =
			load_in_child(libs[i].w, libs[i].env, "libm.so.6");
		char want[128];

		assert_int_equal(o.code, -ENOSYS);
		snprintf(want, sizeof(want), "libm.so.6 has no %s",
			 libs[i].needs);
		assert_non_null(strstr(o.msg, want));
		assert_non_null(strstr(o.msg, libs[i].env));
	}
}

/* The installed client library (a real component, not a fake). */
static void test_real_library(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < NLIBS; i++) {
		struct outcome o = load_in_child(libs[i].w, libs[i].env, NULL);

		if (o.code == -ENOENT && strstr(o.msg, libs[i].soname))
			skip(); /* headers installed, runtime library not */
		assert_int_equal(o.code, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_missing_library),
		cmocka_unit_test(test_library_without_symbols),
		cmocka_unit_test(test_real_library),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
#endif
