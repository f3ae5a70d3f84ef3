/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_cpu: CPU scan, even planning over sockets/NUMA, never cpu0, never
 * the last CPU, kernel refusals, on a fake sysfs.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cpu.h"
#include "fake_root.h"
#include "log.h"

static void lay_out(struct fake_root *r)
{
	fake_cpus(r, 8, 2); /* cpu i on package/node i % 2 */
}

static int setup(void **state)
{
	*state = fake_host_new(lay_out);
	log_use_capture();
	return 0;
}

static int teardown(void **state)
{
	fake_host_free(*state);
	sysfs_fault_hook = NULL;
	return 0;
}

static void test_scan(void **state)
{
	struct fake_host *f = *state;
	struct cpu_info ci;
	char list[64];

	assert_int_equal(cpu_scan(&f->fs, &ci), 0);
	assert_int_equal(ci.n, 8);
	assert_int_equal(cpu_count_online(&ci), 8);
	assert_false(ci.cpu[0].hotplug); /* cpu0 never */
	assert_true(ci.cpu[3].hotplug);
	assert_int_equal(ci.cpu[3].pkg, 1);
	assert_int_equal(ci.cpu[3].node, 1);
	assert_string_equal(cpu_list_format(&ci, list, sizeof(list)), "0-7");
	cpu_info_free(&ci);
	fake_write(f->r, "sys/devices/system/cpu/cpu5/online", "0\n");
	fake_write(f->r, "sys/devices/system/cpu/cpu6/online", "0\n");
	assert_int_equal(cpu_scan(&f->fs, &ci), 0);
	assert_int_equal(cpu_count_online(&ci), 6);
	assert_string_equal(cpu_list_format(&ci, list, sizeof(list)), "0-4,7");
	cpu_info_free(&ci);
}

/* Plans: target -> kept CPUs, spread evenly over the two packages. */
static void test_plan_even(void **state)
{
	static const struct {
		unsigned target;
		const char *keep; /* '1' kept, '0' offlined, per cpu id */
	} t[] = {
		{1, "10000000"}, {2, "11000000"}, {3, "11100000"},
		{4, "11110000"}, {5, "11111000"}, {8, "11111111"},
	};
	struct fake_host *f = *state;
	struct cpu_info ci;

	assert_int_equal(cpu_scan(&f->fs, &ci), 0);
	for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++) {
		bool off[8];
		unsigned p0 = 0, p1 = 0;
		int n = cpu_plan(&ci, t[k].target, off);

		assert_int_equal(n, 8 - (int)t[k].target);
		assert_false(off[0]);
		for (int i = 0; i < 8; i++) {
			if (off[i] != (t[k].keep[i] == '0'))
				fail_msg("target %u cpu%d", t[k].target, i);
			if (!off[i])
				*(i % 2 ? &p1 : &p0) += 1;
		}
		/* even over packages: never more than one apart */
		assert_true(p0 >= p1 ? p0 - p1 <= 1 : p1 - p0 <= 1);
	}
	cpu_info_free(&ci);
}

static void test_plan_bad(void **state)
{
	struct fake_host *f = *state;
	struct cpu_info ci;
	bool off[8];

	assert_int_equal(cpu_scan(&f->fs, &ci), 0);
	assert_int_equal(cpu_plan(&ci, 0, off), -EINVAL); /* never the last */
	assert_int_equal(cpu_plan(&ci, 9, off), -ERANGE); /* more than online */
	cpu_info_free(&ci);
}

static void test_set(void **state)
{
	struct fake_host *f = *state;

	assert_int_equal(cpu_set_online(&f->fs, 0, false), -EPERM);
	assert_int_equal(cpu_set_online(&f->fs, 42, false), -ENOENT);
	assert_int_equal(cpu_set_online(&f->fs, 3, false), 0);
	assert_string_equal(
		fake_read(f->r, "sys/devices/system/cpu/cpu3/online"), "0");
	assert_int_equal(cpu_set_online(&f->fs, 3, true), 0);
	assert_string_equal(
		fake_read(f->r, "sys/devices/system/cpu/cpu3/online"), "1");
}

static int busy_hook(const char *path, const char *val)
{
	(void)val;
	return strstr(path, "cpu2/online") ? -EBUSY : 0;
}

static void test_busy(void **state)
{
	struct fake_host *f = *state;

	sysfs_fault_hook = busy_hook;
	log_capture_reset();
	assert_int_equal(cpu_set_online(&f->fs, 2, false), -EBUSY);
	assert_non_null(strstr(log_captured(), "cpu 2: write"));
	assert_non_null(strstr(log_captured(), "busy"));
	sysfs_fault_hook = NULL;
}

/* A symlinked online file is never followed. */
static void test_symlink(void **state)
{
	struct fake_host *f = *state;

	fake_write(f->r, "elsewhere", "1\n");
	unlink(fake_path(f->r, "sys/devices/system/cpu/cpu4/online"));
	fake_symlink(f->r, "../../../../../elsewhere",
		     "sys/devices/system/cpu/cpu4/online");
	assert_int_equal(cpu_set_online(&f->fs, 4, false), -ELOOP);
	assert_string_equal(fake_read(f->r, "elsewhere"), "1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_scan, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plan_even, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_plan_bad, setup, teardown),
		cmocka_unit_test_setup_teardown(test_set, setup, teardown),
		cmocka_unit_test_setup_teardown(test_busy, setup, teardown),
		cmocka_unit_test_setup_teardown(test_symlink, setup, teardown),
	};

	return cmocka_run_group_tests_name("cpu", tests, NULL, NULL);
}
