/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_hostfs: the one reader of the host (common/hostfs.c) on a fake
 * root: numbered units with gaps and strangers among them, a unit that
 * cannot be read, a missing directory, hostile contents (over-long files,
 * a unit that is a symlink out of the root), and the facts' read by path
 * (symlinks followed, a long file kept in part).
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fake_root.h"
#include "hostfs.h"

#define CPU "sys/devices/system/cpu"

static int setup(void **state)
{
	*state = fake_host_new(NULL);
	return 0;
}

static int teardown(void **state)
{
	fake_host_free(*state);
	return 0;
}

/* cpu0 (no online file), cpu2 online, cpu10 offline, cpu3 on node 1, and
 * entries that are not units. */
static void lay_out(struct fake_root *r)
{
	fake_mkdir(r, CPU "/cpu0");
	fake_write(r, CPU "/cpu2/online", "1\n");
	fake_write(r, CPU "/cpu10/online", "0\n");
	fake_write(r, CPU "/cpu3/online", "1\n");
	fake_mkdir(r, CPU "/cpu3/node1");
	fake_mkdir(r, CPU "/cpufreq");
	fake_mkdir(r, CPU "/cpuidle");
	fake_mkdir(r, CPU "/cpu1x");
	fake_mkdir(r, CPU "/cpu99999999");
	fake_write(r, CPU "/online", "0,2-3\n");
}

static void test_gaps_sorted(void **state)
{
	struct fake_host *f = *state;
	struct sysfs_unit *u;
	size_t n;

	lay_out(f->r);
	assert_int_equal(sysfs_scan_units(&f->fs, CPU, "cpu", "online", "1",
					  SYSFS_UNITS_NODE, &u, &n),
			 0);
	assert_int_equal(n, 4);
	assert_int_equal(u[0].id, 0);
	assert_int_equal(u[0].state, -1); /* no online file */
	assert_int_equal(u[1].id, 2);
	assert_int_equal(u[1].state, 1);
	assert_int_equal(u[1].node, -1);
	assert_int_equal(u[2].id, 3);
	assert_int_equal(u[2].node, 1);
	assert_int_equal(u[3].id, 10);
	assert_int_equal(u[3].state, 0);
	free(u);
	/* Without an attribute: the units only, no node asked. */
	assert_int_equal(
		sysfs_scan_units(&f->fs, CPU, "cpu", NULL, NULL, 0, &u, &n), 0);
	assert_int_equal(n, 4);
	assert_int_equal(u[2].state, -1);
	assert_int_equal(u[2].node, -1);
	free(u);
}

static int deny_cpu2(const char *path)
{
	return strcmp(path, CPU "/cpu2/online") == 0 ? -EACCES : 0;
}

static void test_unreadable_unit(void **state)
{
	struct fake_host *f = *state;
	struct sysfs_unit *u = (void *)1;
	size_t n = 7, tot, on;

	lay_out(f->r);
	sysfs_read_fault_hook = deny_cpu2;
	/* The plugin's scan fails, and hands back nothing. */
	assert_int_equal(
		sysfs_scan_units(&f->fs, CPU, "cpu", "online", "1", 0, &u, &n),
		-EACCES);
	assert_null(u);
	assert_int_equal(n, 0);
	/* The facts' scan leaves that unit out (and cpu0: no file). */
	assert_int_equal(sysfs_scan_units(&f->fs, CPU, "cpu", "online", "1",
					  SYSFS_UNITS_SKIP, &u, &n),
			 0);
	assert_int_equal(n, 2);
	assert_int_equal(u[0].id, 3);
	assert_int_equal(u[1].id, 10);
	free(u);
	assert_int_equal(sysfs_count_units(f->r->dir, CPU, "cpu", "online", "1",
					   &tot, &on),
			 0);
	assert_int_equal(tot, 2);
	assert_int_equal(on, 1);
}

static void test_missing_dir(void **state)
{
	struct fake_host *f = *state;
	struct sysfs_unit *u;
	size_t n, tot = 9, on = 9;

	assert_int_equal(
		sysfs_scan_units(&f->fs, CPU, "cpu", "online", "1", 0, &u, &n),
		-ENOENT);
	assert_int_equal(
		sysfs_count_units(f->r->dir, CPU, "cpu", NULL, NULL, &tot, &on),
		-ENOENT);
	assert_int_equal(tot, 0);
	assert_int_equal(on, 0);
	assert_int_equal(sysfs_count_units("/nonexistent/iostrata-root", CPU,
					   "cpu", NULL, NULL, &tot, NULL),
			 -ENOENT);
	/* A directory with no unit in it. */
	fake_mkdir(f->r, CPU "/cpufreq");
	assert_int_equal(
		sysfs_scan_units(&f->fs, CPU, "cpu", "online", "1", 0, &u, &n),
		-ENOENT);
}

static void test_hostile(void **state)
{
	struct fake_host *f = *state;
	struct sysfs_unit *u;
	char big[300], buf[16];
	size_t n, tot, on;

	memset(big, '1', sizeof(big) - 2);
	big[sizeof(big) - 2] = '\n';
	big[sizeof(big) - 1] = '\0';
	fake_write(f->r, CPU "/cpu1/online", big);
	/* An over-long online file fails the plugin's scan ... */
	assert_int_equal(
		sysfs_scan_units(&f->fs, CPU, "cpu", "online", "1", 0, &u, &n),
		-EOVERFLOW);
	/* ... and is "not on" for the facts, never a truncated "1". */
	assert_int_equal(sysfs_count_units(f->r->dir, CPU, "cpu", "online", "1",
					   &tot, &on),
			 0);
	assert_int_equal(tot, 1);
	assert_int_equal(on, 0);
	assert_int_equal(
		sysfs_read(&f->fs, CPU "/cpu1/online", buf, sizeof(buf)),
		-EOVERFLOW);
	/* A unit that is a symlink out of the root is not read through. */
	fake_write(f->r, CPU "/cpu1/online", "1\n");
	fake_symlink(f->r, "/proc/self", CPU "/cpu4");
	assert_true(sysfs_scan_units(&f->fs, CPU, "cpu", "online", "1", 0, &u,
				     &n) < 0);
	/* The facts leave it out. */
	assert_int_equal(sysfs_count_units(f->r->dir, CPU, "cpu", "online", "1",
					   &tot, &on),
			 0);
	assert_int_equal(tot, 1);
	assert_int_equal(on, 1);
}

static void test_read_path(void **state)
{
	struct fake_host *f = *state;
	char buf[8], root[5000];

	/* Followed symlink (as /etc/os-release), trailing white space gone,
	 * a long file kept in part. */
	fake_write(f->r, "usr/lib/os-release", "NAME=x \t\n");
	fake_symlink(f->r, "../usr/lib/os-release", "etc/os-release");
	assert_int_equal(
		sysfs_read_path(f->r->dir, "etc/os-release", buf, sizeof(buf)),
		6);
	assert_string_equal(buf, "NAME=x");
	fake_write(f->r, "proc/cpuinfo", "model name : a long one\n");
	assert_int_equal(
		sysfs_read_path(f->r->dir, "proc/cpuinfo", buf, sizeof(buf)),
		7);
	assert_string_equal(buf, "model n");
	assert_int_equal(
		sysfs_read_path(f->r->dir, "proc/none", buf, sizeof(buf)),
		-ENOENT);
	memset(root, 'a', sizeof(root) - 1);
	root[sizeof(root) - 1] = '\0';
	assert_int_equal(sysfs_read_path(root, "x", buf, sizeof(buf)),
			 -ENAMETOOLONG);
	/* The plugin's read does not follow the last symlink. */
	assert_true(sysfs_read(&f->fs, "etc/os-release", buf, sizeof(buf)) < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_gaps_sorted, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_unreadable_unit, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_missing_dir, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_hostile, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_path, setup,
						teardown),
	};

	return cmocka_run_group_tests_name("hostfs", tests, NULL, NULL);
}
