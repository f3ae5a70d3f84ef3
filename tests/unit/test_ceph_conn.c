/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_ceph_conn: the one Ceph connect, against the real client libraries
 * (skipped when they cannot be loaded) and no cluster.  The options struct
 * turns into the same configuration keys for librados and libcephfs, with
 * one default each (read back with rados_conf_get / ceph_conf_get); every
 * failing step (read the config, set a key, connect, mount) fails within
 * its bound with a message naming the step, the client id and the conf.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "ceph_conn.h"
#include "ceph_dl.h"

#if !defined(HAVE_RADOS) || !defined(HAVE_CEPHFS)
int main(void)
{
	puts("1..0 # SKIP built without the Ceph headers: nothing to connect");
	return 0;
}
#else
static char dir[] = "/tmp/test_ceph_conn.XXXXXX";
static char dead_conf[PATH_MAX];   /* a monitor nobody listens on */
static char noauth_conf[PATH_MAX]; /* the same, no key needed */

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(dead_conf, sizeof(dead_conf), "%s/dead.conf", dir);
	snprintf(noauth_conf, sizeof(noauth_conf), "%s/noauth.conf", dir);
	write_file(dead_conf, "[global]\nmon host = 127.0.0.1:1\n");
	write_file(noauth_conf, "[global]\nmon host = 127.0.0.1:1\n"
				"auth client required = none\n");
	unsetenv("CEPH_CONF");
	unsetenv("CEPH_KEYRING");
	unsetenv("CEPH_ARGS");
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The real libraries, or skip. */
static void need_libs(void)
{
	if (!ios_rados_load(NULL) || !ios_cephfs_load(NULL))
		skip();
}

/* The handle's value of [key], from librados or libcephfs. */
static const char *get(void *h, bool fs, const char *key)
{
	static char buf[1024];
	int rc;

	buf[0] = '\0';
	if (fs)
		rc = ios_cephfs_load(NULL)->ceph_conf_get(h, key, buf,
							  sizeof(buf));
	else
		rc = ios_rados_load(NULL)->rados_conf_get(h, key, buf,
							  sizeof(buf));
	assert_int_equal(rc, 0);
	return buf;
}

/* Configure a handle of either library from [o]: 0 or -errno. */
static int try_configure(bool fs, const struct ios_ceph_opts *o, void **h,
			 struct ios_err *err)
{
	struct ceph_mount_info *m = (void *)1;
	int rc;

	if (!fs)
		return ios_rados_configure(o, h, err);
	rc = ios_cephfs_configure(o, &m, err);
	*h = m;
	return rc;
}

/* The same, which must succeed. */
static void *configure(bool fs, const struct ios_ceph_opts *o)
{
	struct ios_err err = {0};
	void *h = NULL;

	if (try_configure(fs, o, &h, &err))
		fail_msg("configure: %s", err.msg);
	assert_non_null(h);
	return h;
}

static void release(bool fs, void *h)
{
	if (fs)
		ios_cephfs_load(NULL)->ceph_release(h);
	else
		ios_rados_shutdown(h);
}

/* Every key from the options, the same for both libraries. */
static void test_options_to_keys(void **state)
{
	static const struct ios_ceph_kv extra[] = {
		{"log_to_stderr", "false"},
		{NULL, NULL},
	};
	(void)state;
	need_libs();
	for (int fs = 0; fs < 2; fs++) {
		struct ios_ceph_opts all = {
			.conf = dead_conf,
			.id = "iostrata-test",
			.keyring = "/x/given.keyring",
			.timeout = 7,
			.op_timeout = 3,
			.extra = extra,
		};
		struct ios_ceph_opts none = {.conf = dead_conf};
		void *h;

		h = configure(fs, &all);
		assert_string_equal(get(h, fs, "mon_host"), "127.0.0.1:1");
		assert_string_equal(get(h, fs, "keyring"), "/x/given.keyring");
		assert_string_equal(get(h, fs, "client_mount_timeout"), "7");
		assert_string_equal(get(h, fs, "rados_mon_op_timeout"), "3");
		assert_string_equal(get(h, fs, "rados_osd_op_timeout"), "3");
		assert_string_equal(get(h, fs, "log_to_stderr"), "false");
		release(fs, h);

		/* The defaults: client.admin (Ceph expands $name into the
		 * default keyring search path), 30 s for everything. */
		h = configure(fs, &none);
		assert_non_null(
			strstr(get(h, fs, "keyring"), ".client.admin.keyring"));
		assert_string_equal(get(h, fs, "client_mount_timeout"), "30");
		assert_string_equal(get(h, fs, "rados_mon_op_timeout"), "30");
		assert_string_equal(get(h, fs, "rados_osd_op_timeout"), "30");
		release(fs, h);

		/* The id reaches the library. */
		none.id = "iostrata-test";
		h = configure(fs, &none);
		assert_non_null(strstr(get(h, fs, "keyring"),
				       ".client.iostrata-test.keyring"));
		release(fs, h);
		none.id = NULL;

		/* $CEPH_KEYRING when none is given; a given one wins. */
		setenv("CEPH_KEYRING", "/x/env.keyring", 1);
		h = configure(fs, &none);
		assert_string_equal(get(h, fs, "keyring"), "/x/env.keyring");
		release(fs, h);
		h = configure(fs, &all);
		assert_string_equal(get(h, fs, "keyring"), "/x/given.keyring");
		release(fs, h);
		unsetenv("CEPH_KEYRING");

		/* $CEPH_CONF when no conf is given */
		setenv("CEPH_CONF", noauth_conf, 1);
		none.conf = NULL;
		h = configure(fs, &none);
		assert_string_equal(get(h, fs, "auth_client_required"), "none");
		release(fs, h);
		unsetenv("CEPH_CONF");
	}
}

/* Where the conf comes from when none is given. */
static void test_conf_default(void **state)
{
	struct ios_ceph_opts o = {.conf = dead_conf};
	char buf[PATH_MAX], want[PATH_MAX], *home = getenv("HOME");
	char *saved = home ? strdup(home) : NULL;
	char cwd[PATH_MAX];

	(void)state;
	assert_string_equal(ios_ceph_conf(&o, buf, sizeof(buf)), dead_conf);
	setenv("CEPH_CONF", noauth_conf, 1);
	assert_string_equal(ios_ceph_conf(NULL, buf, sizeof(buf)), noauth_conf);
	assert_string_equal(ios_ceph_conf(&o, buf, sizeof(buf)), dead_conf);
	unsetenv("CEPH_CONF");
	if (access("/etc/ceph/ceph.conf", F_OK) == 0) {
		free(saved);
		skip(); /* this host has one: it comes first */
	}
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(dir), 0);
	setenv("HOME", dir, 1);
	assert_null(ios_ceph_conf(NULL, buf, sizeof(buf)));
	snprintf(want, sizeof(want), "%s/.ceph", dir);
	assert_int_equal(mkdir(want, 0700), 0);
	snprintf(want, sizeof(want), "%s/.ceph/ceph.conf", dir);
	write_file(want, "[global]\n");
	assert_string_equal(ios_ceph_conf(NULL, buf, sizeof(buf)), want);
	assert_int_equal(chdir(cwd), 0);
	if (saved)
		setenv("HOME", saved, 1);
	else
		unsetenv("HOME");
	free(saved);
}

/* Each step that fails is named, with the client and the conf. */
static void test_failing_steps(void **state)
{
	static const struct ios_ceph_kv bad[] = {
		{"no_such_option", "1"},
		{NULL, NULL},
	};
	(void)state;
	need_libs();
	for (int fs = 0; fs < 2; fs++) {
		struct ios_ceph_opts o = {.conf = "/nonexistent/ceph.conf"};
		struct ios_err err = {0};
		void *h = (void *)1;
		int rc;

		rc = try_configure(fs, &o, &h, &err);
		assert_int_equal(rc, -ENOENT);
		assert_null(h);
		assert_non_null(strstr(
			err.msg,
			"read the config for client.admin (conf '/nonexistent/ceph.conf', timeout 30 s): No such file or directory"));

		o.conf = dead_conf;
		o.id = "someone";
		o.extra = bad;
		h = (void *)1;
		rc = try_configure(fs, &o, &h, &err);
		assert_true(rc < 0);
		assert_null(h);
		assert_non_null(strstr(err.msg, "set no_such_option to '1'"));
		assert_non_null(strstr(err.msg, "client.someone (conf '"));
		assert_non_null(strstr(err.msg, dead_conf));
	}
}

/* A monitor nobody listens on: the connect and the mount give up after
 * the timeout asked for, saying so. */
static void test_dead_monitor(void **state)
{
	static const struct ios_ceph_kv quiet[] = {
		{"log_to_stderr", "false"},
		{"err_to_stderr", "false"},
		{NULL, NULL},
	};
	(void)state;
	need_libs();
	for (int fs = 0; fs < 2; fs++) {
		struct ios_ceph_opts o = {.conf = noauth_conf,
					  .id = "iostrata-test",
					  .timeout = 1,
					  .extra = quiet};
		struct ios_err err = {0};
		void *h = (void *)1;
		double t0 = now(), dt;
		int rc;

		if (fs)
			rc = ios_cephfs_mount(
				&o, "/", (struct ceph_mount_info **)&h, &err);
		else
			rc = ios_rados_connect(&o, &h, &err);
		dt = now() - t0;
		print_message("%s: %.2f s: %s\n", fs ? "mount" : "connect", dt,
			      err.msg);
		assert_int_equal(rc, -ETIMEDOUT);
		assert_null(h);
		assert_true(dt < 10.0);
		assert_non_null(strstr(
			err.msg,
			fs ? "mount CephFS '/' as client.iostrata-test (conf '"
			   : "connect to the cluster as client.iostrata-test (conf '"));
		assert_non_null(strstr(err.msg, noauth_conf));
		assert_non_null(strstr(err.msg, "timeout 1 s): "));
		assert_non_null(strstr(err.msg, "(monitor unreachable?)"));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_options_to_keys),
		cmocka_unit_test(test_conf_default),
		cmocka_unit_test(test_failing_steps),
		cmocka_unit_test(test_dead_monitor),
	};

	return cmocka_run_group_tests_name("ceph_conn", tests, setup, teardown);
}
#endif
