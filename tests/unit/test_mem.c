/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_mem: memory block offlining on a fake sysfs: even over NUMA nodes,
 * stop at the target, skip EBUSY/EIO blocks, abandon a blocking write
 * (a FIFO) after the per-attempt timeout, partial results.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "fake_root.h"
#include "log.h"
#include "mem.h"

#define BS (128ULL << 20)

static void lay_out(struct fake_root *r)
{
	fake_mem(r, 16, BS, 2); /* block i on node i % 2 */
}

static int setup(void **state)
{
	*state = fake_host_new(lay_out);
	log_use_capture();
	return 0;
}

static int teardown(void **state)
{
	fake_host_free(*state); /* and sysfs_read_fault_hook */
	sysfs_fault_hook = NULL;
	return 0;
}

static bool blk_online(struct fake_host *f, int i)
{
	char rel[96];

	snprintf(rel, sizeof(rel), "sys/devices/system/memory/memory%d/online",
		 i);
	return strcmp(fake_read(f->r, rel), "1") == 0;
}

static void test_scan(void **state)
{
	struct fake_host *f = *state;
	struct mem_info mi;

	assert_int_equal(mem_scan(&f->fs, &mi), 0);
	assert_int_equal(mi.block_size, BS);
	assert_int_equal(mi.n, 16);
	assert_int_equal(mem_online_bytes(&mi), 16 * BS);
	assert_int_equal(mi.blk[5].node, 1);
	mem_info_free(&mi);
	fake_write(f->r, "sys/devices/system/memory/block_size_bytes", "zz\n");
	assert_int_equal(mem_scan(&f->fs, &mi), -EINVAL);
}

static void test_even_and_target(void **state)
{
	struct fake_host *f = *state;
	struct mem_info mi;
	struct mem_result res;
	int off0 = 0, off1 = 0;

	assert_int_equal(mem_scan(&f->fs, &mi), 0);
	assert_int_equal(mem_apply(&f->fs, &mi, 10 * BS, 1000, 10000, &res), 0);
	assert_int_equal(res.offlined, 6);
	assert_int_equal(res.online_bytes, 10 * BS);
	for (int i = 0; i < 16; i++)
		if (!blk_online(f, i))
			*(i % 2 ? &off1 : &off0) += 1;
	assert_int_equal(off0, 3); /* evenly over the two nodes */
	assert_int_equal(off1, 3);
	assert_true(blk_online(f, 0));   /* memory0 never */
	assert_false(blk_online(f, 15)); /* highest first */
	mem_info_free(&mi);
	/* a target between blocks: stop at or just below it */
	assert_int_equal(mem_scan(&f->fs, &mi), 0);
	assert_int_equal(mem_apply(&f->fs, &mi, 9 * BS + 1, 1000, 10000, &res),
			 0);
	assert_int_equal(res.online_bytes, 9 * BS);
	mem_info_free(&mi);
}

static int refuse_hook(const char *path, const char *val)
{
	(void)val;
	if (strstr(path, "memory15/") || strstr(path, "memory14/"))
		return -EBUSY;
	if (strstr(path, "memory13/"))
		return -EIO;
	return 0;
}

static void test_busy_eio_skipped(void **state)
{
	struct fake_host *f = *state;
	struct mem_info mi;
	struct mem_result res;

	sysfs_fault_hook = refuse_hook;
	assert_int_equal(mem_scan(&f->fs, &mi), 0);
	assert_int_equal(mem_apply(&f->fs, &mi, 12 * BS, 1000, 10000, &res), 0);
	assert_int_equal(res.refused, 3);
	assert_int_equal(res.offlined, 4);
	assert_int_equal(res.online_bytes, 12 * BS);
	assert_true(blk_online(f, 15));
	assert_true(blk_online(f, 13));
	mem_info_free(&mi);
}

static int all_busy(const char *path, const char *val)
{
	(void)path;
	(void)val;
	return -EBUSY;
}

/* Every block refuses: nothing changes, rc 0, caller sees the shortfall. */
static void test_partial(void **state)
{
	struct fake_host *f = *state;
	struct mem_info mi;
	struct mem_result res;

	sysfs_fault_hook = all_busy;
	assert_int_equal(mem_scan(&f->fs, &mi), 0);
	assert_int_equal(mem_apply(&f->fs, &mi, 2 * BS, 1000, 10000, &res), 0);
	assert_int_equal(res.offlined, 0);
	assert_int_equal(res.refused, 15);
	assert_int_equal(res.online_bytes, 16 * BS);
	mem_info_free(&mi);
}

static long ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* A write that blocks (open of a FIFO nobody reads) is abandoned. */
static void test_timeout(void **state)
{
	struct fake_host *f = *state;
	struct mem_info mi;
	struct mem_result res;
	long t0;

	assert_int_equal(mem_scan(&f->fs, &mi), 0);
	fake_mkfifo(f->r, "sys/devices/system/memory/memory15/online");
	fake_mkfifo(f->r, "sys/devices/system/memory/memory14/online");
	/* 700 ms a block: the two FIFOs block for good and are abandoned,
	 * the other writes finish far within it even when a fork under
	 * ASan on a loaded 2-core machine is slow (100 ms was a bet on
	 * the machine's load: issue 28) */
	t0 = ms_now();
	assert_int_equal(mem_apply(&f->fs, &mi, 13 * BS, 700, 10000, &res), 0);
	assert_true(ms_now() - t0 < 6000);
	assert_int_equal(res.timeouts, 2);
	assert_int_equal(res.offlined, 3);
	assert_int_equal(mem_set_online(&f->fs, 15, false, 50), -ETIMEDOUT);
	mem_info_free(&mi);
}

/* The overall deadline stops the loop. */
static void test_deadline(void **state)
{
	struct fake_host *f = *state;
	struct mem_info mi;
	struct mem_result res;

	assert_int_equal(mem_scan(&f->fs, &mi), 0);
	for (int i = 8; i < 16; i++) {
		char rel[96];

		snprintf(rel, sizeof(rel),
			 "sys/devices/system/memory/memory%d/online", i);
		fake_mkfifo(f->r, rel);
	}
	assert_int_equal(mem_apply(&f->fs, &mi, 1 * BS, 60, 150, &res), 0);
	assert_true(res.deadline);
	assert_true(res.timeouts <= 4);
	mem_info_free(&mi);
}

static void test_set_errors(void **state)
{
	struct fake_host *f = *state;

	/* nothing here blocks: a timeout far above a fork and a write
	 * under ASan on a loaded machine (100 ms failed once there) */
	assert_int_equal(mem_set_online(&f->fs, 99, false, 10000), -ENOENT);
	unlink(fake_path(f->r, "sys/devices/system/memory/memory3/online"));
	assert_int_equal(mem_set_online(&f->fs, 3, false, 10000), -EPERM);
	assert_int_equal(mem_set_online(&f->fs, 4, false, 10000), 0);
	assert_false(blk_online(f, 4));
	assert_int_equal(mem_set_online(&f->fs, 4, true, 10000), 0);
	assert_true(blk_online(f, 4));
}

/* valid_zones of block [i] ([z] NULL: no file). */
static void zones(struct fake_host *f, int i, const char *z)
{
	char rel[96];

	snprintf(rel, sizeof(rel),
		 "sys/devices/system/memory/memory%d/valid_zones", i);
	if (z)
		fake_write(f->r, rel, z);
	else
		unlink(fake_path(f->r, rel));
}

static int deny_zones_hook(const char *path)
{
	/* "no permission" even for root: memory5..7's valid_zones */
	if (strstr(path, "/valid_zones") &&
	    (strstr(path, "memory5/") || strstr(path, "memory6/") ||
	     strstr(path, "memory7/")))
		return -EACCES;
	return 0;
}

static bool why_has(const struct mem_hotplug_report *r, const char *s)
{
	for (unsigned i = 0; i < r->n_why; i++)
		if (strstr(r->why[i], s))
			return true;
	return false;
}

/* What can really go offline: per zone from valid_zones, memory0,
 * blocks without an online file, removable=0, offline blocks; missing,
 * unreadable and garbled files count as unknown, never fail. */
static void test_hotplug_report(void **state)
{
	struct fake_host *f = *state;
	struct mem_hotplug_report r;

	/* 0 memory0 (never), 1-4 Movable, 5-7 no permission, 8 Normal,
	 * 9 DMA32, 10 none, 11 garbage, 12 no file, 13 removable=0,
	 * 14 no online file, 15 offline */
	zones(f, 0, "none\n");
	for (int i = 1; i <= 4; i++)
		zones(f, i, "Movable\n");
	for (int i = 5; i <= 7; i++)
		zones(f, i, "Movable\n");
	zones(f, 8, "Normal\n");
	zones(f, 9, "DMA32\n");
	zones(f, 10, "none\n");
	zones(f, 11,
	      "Mov\x01"
	      "able\xff"
	      "\n");
	zones(f, 12, NULL);
	zones(f, 13, "Movable\n");
	fake_write(f->r, "sys/devices/system/memory/memory13/removable", "0\n");
	unlink(fake_path(f->r, "sys/devices/system/memory/memory14/online"));
	fake_write(f->r, "sys/devices/system/memory/memory15/online", "0\n");
	zones(f, 15, "Normal Movable\n");
	fake_write(f->r, "sys/devices/system/memory/auto_online_blocks",
		   "online\n");
	fake_write(
		f->r, "proc/cmdline",
		"quiet movablecore=2G kernelcore=bad;value -- movable_node\n");
	sysfs_read_fault_hook = deny_zones_hook;
	assert_int_equal(mem_hotplug_report(&f->fs, &r), 0);
	sysfs_read_fault_hook = NULL;
	assert_int_equal(r.block_size, BS);
	assert_int_equal(r.blocks, 16);
	assert_int_equal(r.offline, 1);
	assert_int_equal(r.movable, 4);
	assert_int_equal(r.kernel, 2);
	assert_int_equal(r.spanning, 1);
	assert_int_equal(r.unknown, 5); /* 5-7, 11, 12 */
	assert_int_equal(r.fixed, 2);   /* memory0, memory14 */
	assert_int_equal(r.not_removable, 1);
	assert_int_equal(r.zones_err, -EACCES);
	assert_int_equal(r.sure_bytes, 4 * BS);
	assert_int_equal(r.maybe_bytes, 7 * BS);
	assert_string_equal(r.auto_online, "online");
	assert_true(r.cmdline_read);
	assert_string_equal(r.movablecore, "2G");
	assert_string_equal(r.kernelcore, "?"); /* garbage shown as ? */
	assert_false(r.movable_node);           /* after "--": init's */
	assert_true(why_has(&r, "2 blocks (256 MiB) never go offline"));
	assert_true(
		why_has(&r, "2 online blocks (256 MiB) are in kernel zones"));
	assert_false(why_has(&r, "/proc/cmdline has neither"));
	assert_true(why_has(&r, "1 online blocks (128 MiB) span zones"));
	assert_true(why_has(
		&r,
		"5 online blocks (640 MiB): valid_zones missing, unreadable or not understood (Permission denied)"));
	assert_true(why_has(&r, "removable=0"));
	assert_true(why_has(&r, "memhp_default_state=online_movable"));
}

/* A kernel without the boot files: no cmdline, no auto_online_blocks, no
 * valid_zones anywhere; everything is "unknown", nothing fails. */
static void test_hotplug_report_missing(void **state)
{
	struct fake_host *f = *state;
	struct mem_hotplug_report r;

	assert_int_equal(mem_hotplug_report(&f->fs, &r), 0);
	assert_int_equal(r.unknown, 15);
	assert_int_equal(r.fixed, 1);
	assert_int_equal(r.sure_bytes, 0);
	assert_int_equal(r.maybe_bytes, 15 * BS);
	assert_false(r.cmdline_read);
	assert_string_equal(r.auto_online, "");
	assert_int_equal(r.zones_err, -ENOENT);
	assert_true(why_has(&r, "auto_online_blocks missing or unreadable"));
	assert_true(why_has(&r, "(No such file or directory): cannot tell"));
	/* all in kernel zones, nothing movable at boot */
	for (int i = 0; i < 16; i++)
		zones(f, i, "Normal\n");
	fake_write(f->r, "proc/cmdline", "ro quiet\n");
	fake_write(f->r, "sys/devices/system/memory/auto_online_blocks",
		   "online_movable\n");
	assert_int_equal(mem_hotplug_report(&f->fs, &r), 0);
	assert_int_equal(r.kernel, 15);
	assert_true(why_has(&r, "(/proc/cmdline has neither)"));
	assert_false(why_has(&r, "auto_online_blocks"));
	/* no memory hotplug at all */
	unlink(fake_path(f->r, "sys/devices/system/memory/block_size_bytes"));
	assert_int_equal(mem_hotplug_report(&f->fs, &r), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_scan, setup, teardown),
		cmocka_unit_test_setup_teardown(test_even_and_target, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_busy_eio_skipped, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_partial, setup, teardown),
		cmocka_unit_test_setup_teardown(test_timeout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_deadline, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hotplug_report, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_hotplug_report_missing,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_set_errors, setup,
						teardown),
	};

	return cmocka_run_group_tests_name("mem", tests, NULL, NULL);
}
