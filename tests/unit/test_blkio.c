/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_blkio: cgroup v1 blkio.throttle.* and v2 io.max, detection, and
 * device resolution (MAJ:MIN, name, path, partition -> disk) on a fake
 * tree.
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
#include <unistd.h>

#include <cmocka.h>

#include "blkio.h"
#include "fake_root.h"
#include "sysfs.h"

#define V1 "sys/fs/cgroup/blkio/site/osd.0"
#define V2 "sys/fs/cgroup/site/osd.1"

/* v1 and v2 cgroups, and vda 254:0 with partition vda1 254:1 */
static void lay_out(struct fake_root *r)
{
	fake_cg_v1(r, V1);
	fake_cg_v2(r, V2);
	fake_mkdir(r, "sys/fs/cgroup/empty");
	fake_write(r, "sys/devices/virtual/block/vda/dev", "254:0\n");
	fake_write(r, "sys/devices/virtual/block/vda/vda1/dev", "254:1\n");
	fake_write(r, "sys/devices/virtual/block/vda/vda1/partition", "1\n");
	fake_symlink(r, "../../devices/virtual/block/vda",
		     "sys/class/block/vda");
	fake_symlink(r, "../../devices/virtual/block/vda/vda1",
		     "sys/class/block/vda1");
	fake_symlink(r, "../../devices/virtual/block/vda",
		     "sys/dev/block/254:0");
	fake_symlink(r, "../../devices/virtual/block/vda/vda1",
		     "sys/dev/block/254:1");
}

static int setup(void **state)
{
	*state = fake_host_new(lay_out);
	return 0;
}

static int teardown(void **state)
{
	fake_host_free(*state);
	return 0;
}

static void test_detect(void **state)
{
	struct fake_host *f = *state;
	enum blkio_ver v;

	assert_int_equal(blkio_detect(&f->fs, "/" V1, &v), 0);
	assert_int_equal(v, BLKIO_V1);
	assert_int_equal(blkio_detect(&f->fs, "/" V2, &v), 0);
	assert_int_equal(v, BLKIO_V2);
	assert_int_equal(blkio_detect(&f->fs, "/sys/fs/cgroup/empty", &v),
			 -EOPNOTSUPP);
	assert_int_equal(blkio_detect(&f->fs, "/sys/fs/cgroup/nope", &v),
			 -ENOENT);
	fake_symlink(f->r, "blkio/site/osd.0", "sys/fs/cgroup/link");
	assert_int_equal(blkio_detect(&f->fs, "/sys/fs/cgroup/link", &v),
			 -ELOOP); /* never through a symlink */
}

static void test_v1(void **state)
{
	struct fake_host *f = *state;
	struct blkio_dev d = {254, 0};
	struct blkio_limit l = {
		.rbps = 100, .wbps = 52428800, .riops = 0, .wiops = 7};
	struct blkio_limit got;

	assert_int_equal(blkio_get(&f->fs, V1, BLKIO_V1, d, &got), 0);
	assert_int_equal(got.wbps, 0);
	assert_int_equal(blkio_set(&f->fs, V1, BLKIO_V1, d, &l), 0);
	assert_string_equal(
		fake_read(f->r, V1 "/blkio.throttle.write_bps_device"),
		"254:0 52428800");
	/* what the kernel shows: other devices too */
	fake_write(f->r, V1 "/blkio.throttle.write_bps_device",
		   "8:0 1000\n254:0 52428800\n");
	assert_int_equal(blkio_get(&f->fs, V1, BLKIO_V1, d, &got), 0);
	assert_memory_equal(&got, &l, sizeof(l));
	/* 0 removes the rule */
	memset(&l, 0, sizeof(l));
	assert_int_equal(blkio_set(&f->fs, V1, BLKIO_V1, d, &l), 0);
	assert_string_equal(
		fake_read(f->r, V1 "/blkio.throttle.write_bps_device"),
		"254:0 0");
	fake_write(f->r, V1 "/blkio.throttle.read_bps_device", "254:0 12x\n");
	assert_int_equal(blkio_get(&f->fs, V1, BLKIO_V1, d, &got), -EINVAL);
}

static void test_v2(void **state)
{
	struct fake_host *f = *state;
	struct blkio_dev d = {254, 0};
	struct blkio_limit l = {
		.rbps = 0, .wbps = 52428800, .riops = 300, .wiops = 0};
	struct blkio_limit got;

	assert_int_equal(blkio_set(&f->fs, V2, BLKIO_V2, d, &l), 0);
	assert_string_equal(fake_read(f->r, V2 "/io.max"),
			    "254:0 rbps=max wbps=52428800 riops=300 wiops=max");
	fake_write(
		f->r, V2 "/io.max",
		"8:0 rbps=1 wbps=2 riops=3 wiops=4\n254:0 rbps=max wbps=52428800 riops=300 wiops=max\n");
	assert_int_equal(blkio_get(&f->fs, V2, BLKIO_V2, d, &got), 0);
	assert_memory_equal(&got, &l, sizeof(l));
	fake_write(f->r, V2 "/io.max", "254:0 rbps=abc\n");
	assert_int_equal(blkio_get(&f->fs, V2, BLKIO_V2, d, &got), -EINVAL);
}

static void test_resolve(void **state)
{
	struct fake_host *f = *state;
	static const struct {
		const char *spec;
		int rc;
		unsigned maj, min;
	} t[] = {
		{"254:0", 0, 254, 0},
		{"8:16", 0, 8, 16},
		{"vda", 0, 254, 0},
		{"vda1", 0, 254, 0}, /* partition -> disk */
		{"", -EINVAL, 0, 0},
		{"vda;rm", -EINVAL, 0, 0},
		{"../vda", -EINVAL, 0, 0},
		{"nvme9n9", -ENOENT, 0, 0},
		{"/nonexistent/file", -ENOENT, 0, 0},
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct blkio_dev d = {0, 0};
		struct ios_err err;
		int rc;

		ios_err_clear(&err);
		rc = blkio_resolve_dev(&f->fs, t[i].spec, &d, &err);
		if (rc != t[i].rc)
			fail_msg("\"%s\": rc %d want %d (%s)", t[i].spec, rc,
				 t[i].rc, err.msg);
		if (rc == 0) {
			assert_int_equal(d.maj, t[i].maj);
			assert_int_equal(d.min, t[i].min);
		} else {
			assert_true(err.msg[0] != '\0');
		}
	}
}

static void test_parse_devnum(void **state)
{
	struct blkio_dev d;

	(void)state;
	assert_int_equal(blkio_parse_devnum("254:0", &d), 0);
	assert_int_equal(blkio_parse_devnum("254:", &d), -EINVAL);
	assert_int_equal(blkio_parse_devnum(":0", &d), -EINVAL);
	assert_int_equal(blkio_parse_devnum("254:0x", &d), -EINVAL);
	assert_int_equal(blkio_parse_devnum("-1:0", &d), -EINVAL);
	assert_int_equal(blkio_parse_devnum("99999:0", &d), -EINVAL);
	assert_int_equal(blkio_parse_devnum(NULL, &d), -EINVAL);
}

/* cgroup v2 without io below the root: the parents that need "+io",
 * enabling them (the fake stands in for the kernel's subtree_control),
 * and taking it back deepest first. */
#define CG2 "sys/fs/cgroup"
#define SYS CG2 "/system.slice"
#define SLICE SYS "/system-ceph\\x2dosd.slice"
#define UNIT SLICE "/ceph-osd@3.service"

static void test_v2_io(void **state)
{
	struct fake_root *r = fake_root_new();
	char dirs[8][BLKIO_CG_MAX];
	struct sysfs fs;
	enum blkio_ver v;
	size_t n;

	(void)state;
	fake_cg2_dir(r, CG2, "cpu io memory", "cpu memory");
	fake_cg2_dir(r, SYS, "cpu memory", "memory");
	fake_cg2_dir(r, SLICE, "memory", "");
	fake_cg2_dir(r, UNIT, "", "");
	fake_write(r, UNIT "/cgroup.procs", "300\n");
	assert_int_equal(sysfs_open(&fs, r->dir), 0);
	fake_cg2_root = r;
	fake_cg2_log[0] = '\0';
	sysfs_fault_hook = fake_cg2_write;
	assert_int_equal(blkio_detect(&fs, "/" UNIT, &v), -EOPNOTSUPP);
	assert_int_equal(blkio_v2_plan(&fs, "/" UNIT, dirs, 8, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(dirs[0], "/" CG2);
	assert_string_equal(dirs[1], "/" SYS);
	assert_string_equal(dirs[2], "/" SLICE);
	/* too many for the caller's array */
	assert_int_equal(blkio_v2_plan(&fs, "/" UNIT, dirs, 2, &n), -E2BIG);
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(blkio_v2_set_io(&fs, dirs[i], true), 0);
	assert_string_equal(fake_read(r, SYS "/cgroup.subtree_control"),
			    "memory io");
	assert_int_equal(blkio_detect(&fs, "/" UNIT, &v), 0);
	assert_int_equal(v, BLKIO_V2);
	assert_int_equal(blkio_v2_plan(&fs, "/" UNIT, dirs, 8, &n), 0);
	assert_int_equal(n, 0);
	/* a parent's "-io" fails while a child still gives io on */
	assert_int_equal(blkio_v2_set_io(&fs, "/" SYS, false), -EBUSY);
	assert_int_equal(blkio_v2_set_io(&fs, "/" SLICE, false), 0);
	assert_int_equal(blkio_v2_set_io(&fs, "/" SYS, false), 0);
	assert_int_equal(blkio_v2_set_io(&fs, "/" CG2, false), 0);
	assert_string_equal(fake_read(r, SYS "/cgroup.subtree_control"),
			    "memory");
	assert_int_equal(blkio_detect(&fs, "/" UNIT, &v), -EOPNOTSUPP);
	/* the kernel's no-internal-process rule */
	fake_write(r, SYS "/cgroup.procs", "1\n");
	assert_int_equal(blkio_v2_set_io(&fs, "/" CG2, true), 0);
	assert_int_equal(blkio_v2_set_io(&fs, "/" SYS, true), -EBUSY);
	assert_int_equal(blkio_v2_has_io(&fs, "/" SYS), 0);
	assert_int_equal(blkio_v2_has_io(&fs, "/" CG2), 1);
	/* a write the kernel takes but that does not stick */
	sysfs_fault_hook = NULL;
	assert_int_equal(blkio_v2_set_io(&fs, "/" SLICE, true), -EIO);
	sysfs_fault_hook = fake_cg2_write;
	/* no io controller in the hierarchy (bound to v1 blkio) */
	fake_write(r, CG2 "/cgroup.controllers", "cpu memory");
	assert_int_equal(blkio_v2_plan(&fs, "/" UNIT, dirs, 8, &n),
			 -EOPNOTSUPP);
	/* not a cgroup2 directory */
	fake_mkdir(r, CG2 "/blkio/x");
	assert_int_equal(blkio_v2_plan(&fs, "/" CG2 "/blkio/x", dirs, 8, &n),
			 -EOPNOTSUPP);
	/* a hybrid host: the cgroup2 root is /sys/fs/cgroup/unified */
	fake_cg2_dir(r, CG2 "/unified", "io", "");
	fake_cg2_dir(r, CG2 "/unified/a", "", "");
	unlink(fake_path(r, CG2 "/cgroup.controllers"));
	assert_int_equal(blkio_v2_plan(&fs, "/" CG2 "/unified/a", dirs, 8, &n),
			 0);
	assert_int_equal(n, 1);
	assert_string_equal(dirs[0], "/" CG2 "/unified");
	assert_int_equal(blkio_check_cgroup_dir("/sys/fs/cgroup", NULL), 0);
	assert_int_equal(blkio_check_cgroup("/sys/fs/cgroup", NULL), -EINVAL);
	sysfs_fault_hook = NULL;
	sysfs_close(&fs);
	fake_root_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_detect, setup, teardown),
		cmocka_unit_test_setup_teardown(test_v1, setup, teardown),
		cmocka_unit_test_setup_teardown(test_v2, setup, teardown),
		cmocka_unit_test_setup_teardown(test_resolve, setup, teardown),
		cmocka_unit_test(test_parse_devnum),
		cmocka_unit_test(test_v2_io),
	};

	return cmocka_run_group_tests_name("blkio", tests, NULL, NULL);
}
