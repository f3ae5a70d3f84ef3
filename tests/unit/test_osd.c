/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_osd: OSD unit names, the cgroup allow-list, and finding this
 * host's OSDs in a fake /proc (cephadm and package layouts, other hosts'
 * OSDs, refused cgroups, named OSDs not running, data devices).
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
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "fake_root.h"
#include "log.h"
#include "osd.h"
#include "policy.h"

#define FSID "8f7c2a54-1d2e-4b3c-9a8b-0123456789ab"
#define FSID_ESC "8f7c2a54\\x2d1d2e\\x2d4b3c\\x2d9a8b\\x2d0123456789ab"
#define CEPHADM_SLICE "/system.slice/system-ceph\\x2d" FSID_ESC ".slice"
#define UNIT0 "ceph-" FSID "@osd.0.service"
#define UNIT1 "ceph-" FSID "@osd.1.service"
#define PAYLOAD0 CEPHADM_SLICE "/" UNIT0 "/libpod-payload-abc"
#define PAYLOAD1 CEPHADM_SLICE "/" UNIT1 "/libpod-payload-def"
#define PKG3 "/system.slice/system-ceph\\x2dosd.slice/ceph-osd@3.service"
#define NS_HERE "net:[4026532001]"
#define NS_OTHER "net:[4026532002]"

static void test_parse_unit(void **state)
{
	static const struct {
		const char *name;
		int id;
		const char *fsid;
	} t[] = {
		{"ceph-osd@3.service", 3, ""},
		{"ceph-osd@0.service", 0, ""},
		{UNIT0, 0, FSID},
		{"ceph-" FSID "@osd.12.service", 12, FSID},
		{"ceph-osd@.service", -EINVAL, ""},
		{"ceph-osd@03.service", -EINVAL, ""},
		{"ceph-osd@3.scope", -EINVAL, ""},
		{"ceph-osd@1x.service", -EINVAL, ""},
		{"ceph-osd@1234567.service", -EINVAL, ""},
		{"ceph-notafsid@osd.1.service", -EINVAL, ""},
		{"ceph-" FSID "@mon.a.service", -EINVAL, ""},
		{"ceph-" FSID "@osd..service", -EINVAL, ""},
		{"ssh.service", -EINVAL, ""},
		{"", -EINVAL, ""},
	};
	char fsid[OSD_FSID_LEN + 1];

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		int id = osd_parse_unit(t[i].name, fsid);

		if (id != t[i].id)
			fail_msg("\"%s\": %d, want %d", t[i].name, id, t[i].id);
		if (id >= 0)
			assert_string_equal(fsid, t[i].fsid);
	}
}

static void test_allowed(void **state)
{
	static const struct {
		const char *rel;
		int id;
	} t[] = {
		{PAYLOAD0, 0},
		{CEPHADM_SLICE "/" UNIT0, 0},
		{PKG3, 3},
		{"/system.slice/ceph-osd@4.service", 4},
		{"/ceph.slice/ceph-osd@5.service/x", 5},
		{"/user.slice/user-0.slice/session-1.scope", -EINVAL},
		{"/user.slice/ceph-osd@1.service", -EINVAL},
		{"/system.slice/ssh.service", -EINVAL},
		{"/system.slice/system-ceph\\x2d0000.slice/" UNIT0, -EINVAL},
		{"/system.slice/system-ceph\\x2d" FSID_ESC
		 ".slice/ceph-osd@1.service",
		 -EINVAL},
		{"/system.slice/x.slice/ceph-osd@1.service", -EINVAL},
		{"/", -EINVAL},
		{"system.slice/ceph-osd@1.service", -EINVAL},
		{"", -EINVAL},
	};
	char *slices[] = {"/ceph.slice"};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct osd_found o;
		const char *why = NULL;
		int id;

		memset(&o, 0, sizeof(o));
		id = osd_cgroup_allowed(t[i].rel, slices, 1, &o, &why);
		if (id != t[i].id)
			fail_msg("\"%s\": %d, want %d (%s)", t[i].rel, id,
				 t[i].id, why ? why : "");
		if (id < 0)
			assert_non_null(why);
	}
	/* the site's slice only when the policy names it */
	{
		struct osd_found o;
		const char *why;

		memset(&o, 0, sizeof(o));
		assert_int_equal(
			osd_cgroup_allowed("/ceph.slice/ceph-osd@5.service",
					   NULL, 0, &o, &why),
			-EINVAL);
	}
}

static void test_patterns(void **state)
{
	static const struct {
		const char *pat;
		int rc;
	} t[] = {
		{"auto", 0},        {"osd.0", 0},
		{"osd.[02]", 0},    {"ceph-osd@*.service", 0},
		{UNIT0, 0},         {"", -EINVAL},
		{"osd/0", -EINVAL}, {"osd;0", -EINVAL},
		{"$(id)", -EINVAL}, {"ceph-\\x2d", -EINVAL},
	};
	char longp[200];
	const char *why;

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (osd_check_pattern(t[i].pat, &why) != t[i].rc)
			fail_msg("\"%s\": want %d", t[i].pat, t[i].rc);
	memset(longp, 'a', sizeof(longp) - 1);
	longp[sizeof(longp) - 1] = '\0';
	assert_int_equal(osd_check_pattern(longp, &why), -EINVAL);
}

/* ---- discovery on a fake /proc --------------------------------------- */

struct fx {
	struct fake_root *r;
	struct sysfs fs;
	struct policy *pol;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	f->r = fake_root_new();
	fake_proc_self(f->r, NS_HERE);
	assert_int_equal(sysfs_open(&f->fs, f->r->dir), 0);
	log_use_capture();
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	policy_free(f->pol);
	sysfs_close(&f->fs);
	fake_root_free(f->r);
	free(f);
	return 0;
}

static void load(struct fx *f, const char *text)
{
	struct ios_err err;

	policy_free(f->pol);
	f->pol = NULL;
	fake_write(f->r, "policy.conf", text);
	chmod(fake_path(f->r, "policy.conf"), 0644);
	if (policy_load(fake_path(f->r, "policy.conf"), geteuid(), &f->pol,
			&err) < 0)
		fail_msg("policy: %s", err.msg);
}

/* The device a fake data file is on (what the plugin must find). */
static bool dev_of(struct fx *f, const char *rel, struct blkio_dev *d)
{
	struct stat st;

	assert_int_equal(stat(fake_path(f->r, rel), &st), 0);
	d->maj = major(st.st_dev);
	d->min = minor(st.st_dev);
	return d->maj != 0; /* tmpfs/overlay: no block device to resolve */
}

/* cephadm: osd.0 here, osd.1 on another host (same PID namespace, other
 * network namespace), a shell here. */
static void cephadm_layout(struct fx *f)
{
	const char *const a0[] = {"/usr/bin/ceph-osd", "-n", "osd.0", "-f",
				  NULL};
	const char *const a1[] = {"/usr/bin/ceph-osd", "-n", "osd.1", "-f",
				  NULL};
	const char *const sh[] = {"bash", NULL};

	fake_mkdir(f->r, "sys/fs/cgroup/blkio");
	fake_osd_proc(f->r, 200, "ceph-osd", a0, NS_HERE,
		      "12:blkio:" PAYLOAD0 "\n1:name=systemd:/x\n0::/\n");
	fake_osd_proc(f->r, 201, "ceph-osd", a1, NS_OTHER,
		      "12:blkio:" PAYLOAD1 "\n0::/\n");
	fake_osd_proc(f->r, 202, "bash", sh, NS_HERE,
		      "12:blkio:/user.slice\n0::/\n");
	fake_write(f->r, "var/lib/ceph/" FSID "/osd.0/block", "");
	fake_write(f->r, "var/lib/ceph/" FSID "/osd.1/block", "");
}

static void test_discover_cephadm(void **state)
{
	struct fx *f = *state;
	struct osd_found *o;
	struct ios_err err;
	struct blkio_dev d;
	int n;

	cephadm_layout(f);
	load(f, "osds = auto\n");
	n = osd_discover(&f->fs, f->pol, true, &o, &err);
	if (n < 0)
		fail_msg("%s", err.msg);
	assert_int_equal(n, 1);
	assert_int_equal(o[0].id, 0);
	assert_int_equal(o[0].pid, 200);
	assert_string_equal(o[0].unit, UNIT0);
	assert_string_equal(o[0].fsid, FSID);
	assert_string_equal(o[0].cg, "/sys/fs/cgroup/blkio" PAYLOAD0);
	assert_int_equal(o[0].n_dev, 1);
	if (dev_of(f, "var/lib/ceph/" FSID "/osd.0/block", &d)) {
		assert_int_equal(o[0].dev[0].maj, d.maj);
		assert_int_equal(o[0].dev[0].min, d.min);
	}
	free(o);
	/* by name and by unit glob: the same OSD; osd.1 is not here */
	load(f, "osds = osd.0\n");
	assert_int_equal(osd_discover(&f->fs, f->pol, true, &o, &err), 1);
	free(o);
	load(f, "osds = ceph-*@osd.*.service\n");
	assert_int_equal(osd_discover(&f->fs, f->pol, true, &o, &err), 1);
	assert_string_equal(o[0].unit, UNIT0);
	free(o);
	load(f, "osds = osd.0, osd.1\n");
	assert_int_equal(osd_discover(&f->fs, f->pol, true, &o, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "\"osd.1\" does not run on this host"));
	/* not strict (status, check): what is there */
	assert_int_equal(osd_discover(&f->fs, f->pol, false, &o, &err), 1);
	free(o);
	/* no OSD policy: nothing looked for */
	load(f, "cgroup = /sys/fs/cgroup/blkio/x\n");
	assert_int_equal(osd_discover(&f->fs, f->pol, true, &o, &err), 0);
	assert_null(o);
}

static void test_discover_package_v2(void **state)
{
	struct fx *f = *state;
	const char *const a3[] = {
		"/usr/bin/ceph-osd", "-f",   "--cluster", "ceph", "--id", "3",
		"--setuser",         "ceph", NULL};
	struct osd_found *o;
	struct ios_err err;
	int n;

	/* a pure cgroup v2 host */
	fake_write(f->r, "sys/fs/cgroup/cgroup.controllers", "cpu io memory");
	fake_osd_proc(f->r, 300, "ceph-osd", a3, NS_HERE, "0::" PKG3 "\n");
	fake_write(f->r, "var/lib/ceph/osd/ceph-3/block", "");
	fake_write(f->r, "var/lib/ceph/osd/ceph-3/block.db", "");
	load(f, "osds = ceph-osd@*.service\n");
	n = osd_discover(&f->fs, f->pol, true, &o, &err);
	if (n < 0)
		fail_msg("%s", err.msg);
	assert_int_equal(n, 1);
	assert_int_equal(o[0].id, 3);
	assert_string_equal(o[0].unit, "ceph-osd@3.service");
	assert_string_equal(o[0].fsid, "");
	assert_string_equal(o[0].cg, "/sys/fs/cgroup" PKG3);
	/* block and block.db on one device: once */
	assert_int_equal(o[0].n_dev, 1);
	free(o);
}

static void test_discover_refused(void **state)
{
	struct fx *f = *state;
	const char *const a[] = {"ceph-osd", "-i", "5", NULL};
	struct osd_found *o;
	struct ios_err err;

	fake_mkdir(f->r, "sys/fs/cgroup/blkio");
	fake_osd_proc(f->r, 400, "ceph-osd", a, NS_HERE,
		      "7:blkio:/user.slice/user-0.slice/session-4.scope\n");
	fake_write(f->r, "var/lib/ceph/osd/ceph-5/block", "");
	load(f, "osds = auto\n");
	assert_int_equal(osd_discover(&f->fs, f->pol, true, &o, &err), -EINVAL);
	assert_non_null(strstr(
		err.msg,
		"osd.5 (pid 400): cgroup \"/user.slice/user-0.slice/session-4.scope\" refused"));
	assert_non_null(strstr(err.msg, "accepted: the OSD's unit"));
	/* an OSD the policy does not name is not judged */
	load(f, "osds = osd.9\n");
	assert_int_equal(osd_discover(&f->fs, f->pol, true, &o, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "\"osd.9\""));
	/* a process whose executable is not an installed file (a user's
	 * renamed copy, here: gone) is not judged */
	unlink(fake_path(f->r, "proc/400/exe"));
	fake_symlink(f->r, "../../home/user/ceph-osd", "proc/400/exe");
	load(f, "osds = auto\n");
	assert_int_equal(osd_discover(&f->fs, f->pol, true, &o, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "no ceph-osd process of this host"));
	unlink(fake_path(f->r, "proc/400/exe"));
	fake_symlink(f->r, "../../usr/bin/ceph-osd", "proc/400/exe");
	/* not strict: skipped, logged */
	load(f, "osds = auto\n");
	assert_int_equal(osd_discover(&f->fs, f->pol, false, &o, &err), 0);
	free(o);
	/* the site's own slice, once the policy names it */
	fake_osd_proc(f->r, 400, "ceph-osd", a, NS_HERE,
		      "7:blkio:/ceph.slice/ceph-osd@5.service\n");
	assert_int_equal(osd_discover(&f->fs, f->pol, true, &o, &err), -EINVAL);
	load(f, "osds = auto\nosd_slice = /ceph.slice\n");
	assert_int_equal(osd_discover(&f->fs, f->pol, true, &o, &err), 1);
	assert_string_equal(
		o[0].cg, "/sys/fs/cgroup/blkio/ceph.slice/ceph-osd@5.service");
	free(o);
}

static void test_discover_bad(void **state)
{
	struct fx *f = *state;
	const char *const a7[] = {"ceph-osd", "-n", "osd.7", NULL};
	const char *const a0[] = {"ceph-osd", "--id=0", NULL};
	struct osd_found *o;
	struct ios_err err;

	/* nothing on this host */
	fake_mkdir(f->r, "sys/fs/cgroup/blkio");
	load(f, "osds = auto\n");
	assert_int_equal(osd_discover(&f->fs, f->pol, true, &o, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "no ceph-osd process of this host"));
	/* the command line says osd.7, the unit osd.0 */
	fake_osd_proc(f->r, 500, "ceph-osd", a7, NS_HERE,
		      "7:blkio:" PAYLOAD0 "\n");
	fake_write(f->r, "var/lib/ceph/" FSID "/osd.0/block", "");
	assert_int_equal(osd_discover(&f->fs, f->pol, true, &o, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "runs as osd.0 in unit " UNIT0));
	/* osd.0 twice */
	fake_osd_proc(f->r, 500, "ceph-osd", a0, NS_HERE,
		      "7:blkio:" PAYLOAD0 "\n");
	fake_osd_proc(f->r, 501, "ceph-osd", a0, NS_HERE,
		      "7:blkio:/system.slice/ceph-osd@0.service\n");
	fake_write(f->r, "var/lib/ceph/osd/ceph-0/block", "");
	assert_int_equal(osd_discover(&f->fs, f->pol, true, &o, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "osd.0 runs twice"));
}

static void test_data_devices(void **state)
{
	struct fx *f = *state;
	const char *const a[] = {"ceph-osd", "-f", "-i", "3", NULL};
	struct osd_found *o;
	struct ios_err err;
	struct blkio_dev d;

	fake_mkdir(f->r, "sys/fs/cgroup/blkio");
	fake_osd_proc(f->r, 600, "ceph-osd", a, NS_HERE,
		      "7:blkio:/system.slice/ceph-osd@3.service\n");
	/* no data directory, no policy device */
	load(f, "osds = auto\n");
	assert_int_equal(osd_discover(&f->fs, f->pol, true, &o, &err), -ENOENT);
	assert_non_null(strstr(
		err.msg,
		"osd.3: no data device: none of /var/lib/ceph/osd/ceph-3/block exists"));
	/* the policy's device instead */
	load(f, "osds = auto\ndevice = 8:16\n");
	assert_int_equal(osd_discover(&f->fs, f->pol, true, &o, &err), 1);
	assert_int_equal(o[0].n_dev, 1);
	assert_int_equal(o[0].dev[0].maj, 8);
	assert_int_equal(o[0].dev[0].min, 16);
	free(o);
	/* the site's data directory (Ceph metavariables) wins */
	fake_write(f->r, "srv/ceph/osd.3/block", "");
	load(f, "osds = auto\ndevice = 8:16\nosd_data = /srv/ceph/$name\n");
	assert_int_equal(osd_discover(&f->fs, f->pol, true, &o, &err), 1);
	assert_int_equal(o[0].n_dev, 1);
	if (dev_of(f, "srv/ceph/osd.3/block", &d)) {
		assert_int_equal(o[0].dev[0].maj, d.maj);
		assert_int_equal(o[0].dev[0].min, d.min);
	}
	free(o);
	/* a block that does not resolve is named */
	unlink(fake_path(f->r, "srv/ceph/osd.3/block"));
	fake_symlink(f->r, "nowhere", "srv/ceph/osd.3/block");
	load(f, "osds = auto\nosd_data = /srv/ceph/$name\n");
	assert_int_equal(osd_discover(&f->fs, f->pol, true, &o, &err), -ENOENT);
	assert_non_null(
		strstr(err.msg, "osd.3: data device /srv/ceph/osd.3/block"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_unit),
		cmocka_unit_test(test_allowed),
		cmocka_unit_test(test_patterns),
		cmocka_unit_test_setup_teardown(test_discover_cephadm, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_discover_package_v2, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_discover_refused, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_discover_bad, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_data_devices, setup,
						teardown),
	};

	return cmocka_run_group_tests_name("osd", tests, NULL, NULL);
}
