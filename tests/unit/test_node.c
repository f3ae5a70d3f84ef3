/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_node: apply and restore end to end on a fake node (8 CPUs, 16
 * memory blocks, a v1 and a v2 cgroup): journal before change, read back,
 * published files, restore to the snapshot, double restore, a journal
 * left by a crash, a restore that fails, tolerance failures, another
 * job's journal.
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
#include <fcntl.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "fake_root.h"
#include "log.h"
#include "blkio.h"
#include "jobproc.h"
#include "node.h"

#define BS (128ULL << 20)
#define V1 "sys/fs/cgroup/blkio/site/osd.0"
#define V2 "sys/fs/cgroup/site/osd.1"

struct fx {
	struct fake_root *r;
	struct node_ctx c;
	struct policy *pol;
	char before[8192];
};

static const char policy_text[] = "allow_users = *\n"
				  "min_mem = 256M\n"
				  "mem_reserve = 128M\n"
				  "device = 254:0\n"
				  "cgroup = /" V1 "\n"
				  "cgroup = /" V2 "\n"
				  "mem_tolerance = 0\n"
				  "mem_attempt_timeout = 200ms\n"
				  "mem_total_timeout = 5s\n";

/* Everything the plugin may touch, as one string. */
static void observe(struct fx *f, char *out, size_t len)
{
	size_t off = 0;
	char rel[128];

	for (int i = 1; i < 8; i++) {
		snprintf(rel, sizeof(rel),
			 "sys/devices/system/cpu/cpu%d/online", i);
		off += (size_t)snprintf(out + off, len - off, "c%d=%s ", i,
					fake_read(f->r, rel));
	}
	for (int i = 0; i < 16; i++) {
		snprintf(rel, sizeof(rel),
			 "sys/devices/system/memory/memory%d/online", i);
		off += (size_t)snprintf(out + off, len - off, "m%d=%s ", i,
					fake_read(f->r, rel));
	}
	/* Throttles by value: the fake keeps "254:0 0" where the kernel
	 * drops the rule, and "max" where v2 shows nothing. */
	{
		struct blkio_dev d = {254, 0};
		struct blkio_limit a, b;

		memset(&b, 0, sizeof(b));
		assert_int_equal(blkio_get(&f->c.fs, V1, BLKIO_V1, d, &a), 0);
		if (blkio_get(&f->c.fs, V2, BLKIO_V2, d, &b) < 0)
			memset(&b, 0xff, sizeof(b));
		snprintf(out + off, len - off,
			 "v1=%llu,%llu,%llu,%llu v2=%llu,%llu,%llu,%llu",
			 (unsigned long long)a.rbps, (unsigned long long)a.wbps,
			 (unsigned long long)a.riops,
			 (unsigned long long)a.wiops,
			 (unsigned long long)b.rbps, (unsigned long long)b.wbps,
			 (unsigned long long)b.riops,
			 (unsigned long long)b.wiops);
	}
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	struct ios_err err;

	f->r = fake_root_new();
	fake_cpus(f->r, 8, 2);
	fake_mem(f->r, 16, BS, 2);
	/* 2 GiB, 256 MiB of it in use: floor max(256M, 256M + 128M) */
	fake_meminfo(f->r, 2 * 1024 * 1024, 1792 * 1024);
	fake_cg_v1(f->r, V1);
	fake_cg_v2(f->r, V2);
	/* a pre-existing site throttle must come back as it was */
	fake_write(f->r, V1 "/blkio.throttle.read_bps_device", "254:0 777\n");
	fake_write(f->r, "policy.conf", policy_text);
	chmod(fake_path(f->r, "policy.conf"), 0644);
	assert_int_equal(policy_load(fake_path(f->r, "policy.conf"), geteuid(),
				     &f->pol, &err),
			 0);
	assert_int_equal(sysfs_open(&f->c.fs, f->r->dir), 0);
	fake_mkdir(f->r, "run");
	assert_int_equal(state_open(&f->c.sd, fake_path(f->r, "run/iostrata"),
				    true, &err),
			 0);
	f->c.pol = f->pol;
	snprintf(f->c.node, sizeof(f->c.node), "n1");
	observe(f, f->before, sizeof(f->before));
	log_use_capture();
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	sysfs_fault_hook = NULL;
	state_close(&f->c.sd);
	sysfs_close(&f->c.fs);
	policy_free(f->pol);
	fake_root_free(f->r);
	free(f);
	return 0;
}

static void req_full(struct iostrata_req *r)
{
	memset(r, 0, sizeof(*r));
	assert_int_equal(req_parse_opt(r, REQ_CPUS, "2", NULL), 0);
	assert_int_equal(req_parse_opt(r, REQ_MEM, "1G", NULL), 0);
	assert_int_equal(req_parse_opt(r, REQ_DISK_BW, "50M", NULL), 0);
	assert_int_equal(req_parse_opt(r, REQ_DISK_IOPS, "100", NULL), 0);
}

static bool journal_exists(struct fx *f, const char *id)
{
	char rel[128];
	struct stat st;

	snprintf(rel, sizeof(rel), "run/iostrata/journal/%s.state", id);
	return stat(fake_path(f->r, rel), &st) == 0;
}

static void assert_whole(struct fx *f)
{
	char now[8192];
	struct ios_err err;

	observe(f, now, sizeof(now));
	assert_string_equal(now, f->before);
	assert_int_equal(node_restore(&f->c, NULL, &err), 0);
}

static void test_apply_restore(void **state)
{
	struct fx *f = *state;
	struct iostrata_req r;
	struct ios_err err;
	const char *s;

	req_full(&r);
	ios_err_clear(&err);
	if (node_apply(&f->c, "100", 0, &r, &err) != 0)
		fail_msg("apply: %s", err.msg);
	assert_true(journal_exists(f, "100"));
	/* CPUs: 2 online, cpu0 and one of the other package */
	assert_string_equal(
		fake_read(f->r, "sys/devices/system/cpu/cpu1/online"), "1");
	assert_string_equal(
		fake_read(f->r, "sys/devices/system/cpu/cpu2/online"), "0");
	assert_string_equal(
		fake_read(f->r, "sys/devices/system/cpu/cpu7/online"), "0");
	/* throttles: v1 and v2, the pre-existing read limit replaced */
	assert_string_equal(
		fake_read(f->r, V1 "/blkio.throttle.write_bps_device"),
		"254:0 52428800");
	assert_string_equal(
		fake_read(f->r, V2 "/io.max"),
		"254:0 rbps=52428800 wbps=52428800 riops=100 wiops=100");
	s = fake_read(f->r, "run/iostrata/100.env");
	assert_non_null(strstr(s, "IOSTRATA_APPLIED_CPUS=2\n"));
	assert_non_null(strstr(s, "IOSTRATA_APPLIED_CPU_LIST=0-1\n"));
	assert_non_null(strstr(s, "IOSTRATA_APPLIED_MEM=1073741824\n"));
	assert_non_null(
		strstr(s, "IOSTRATA_APPLIED_DISK_BW=52428800,52428800\n"));
	assert_non_null(strstr(s, "IOSTRATA_REQ_MEM=1G\n"));
	assert_non_null(strstr(s, "IOSTRATA_APPLIED_FILE="));
	s = fake_read(f->r, "run/iostrata/100.applied.json");
	assert_non_null(strstr(s, "\"cpus_online\": 2"));
	assert_non_null(strstr(s, "\"snapshot\""));
	assert_non_null(strstr(s, "\"read_bps\": 777")); /* in the snapshot */
	assert_int_equal(node_check(&f->c, &err), -EBUSY);
	assert_non_null(strstr(err.msg, "journal of job 100"));

	assert_int_equal(node_restore(&f->c, "100", &err), 0);
	assert_false(journal_exists(f, "100"));
	assert_string_equal(
		fake_read(f->r, V1 "/blkio.throttle.read_bps_device"),
		"254:0 777");
	assert_whole(f);
	/* double restore: nothing to do, still success */
	assert_int_equal(node_restore(&f->c, "100", &err), 0);
	assert_whole(f);
}

/* The journal is written before the first change: a "crash" right after
 * apply (new context, as slurmd at start) restores everything. */
static void test_crash_journal(void **state)
{
	struct fx *f = *state;
	struct iostrata_req r;
	struct ios_err err;
	struct node_ctx c2;

	req_full(&r);
	assert_int_equal(node_apply(&f->c, "200", 0, &r, &err), 0);
	memset(&c2, 0, sizeof(c2));
	assert_int_equal(sysfs_open(&c2.fs, f->r->dir), 0);
	assert_int_equal(state_open(&c2.sd, fake_path(f->r, "run/iostrata"),
				    false, &err),
			 0);
	snprintf(c2.node, sizeof(c2.node), "n1");
	/* no policy needed to restore: the journal has it all */
	assert_int_equal(node_restore(&c2, NULL, &err), 0);
	state_close(&c2.sd);
	sysfs_close(&c2.fs);
	assert_whole(f);
}

static int online_fails(const char *path, const char *val)
{
	if (strstr(path, "cpu5/online") && strcmp(val, "1") == 0)
		return -EIO;
	return 0;
}

/* A restore that cannot finish keeps the journal and names what is left;
 * the next attempt (epilog retry, slurmd start) completes it. */
static void test_restore_fails(void **state)
{
	struct fx *f = *state;
	struct iostrata_req r;
	struct ios_err err;

	req_full(&r);
	assert_int_equal(node_apply(&f->c, "300", 0, &r, &err), 0);
	sysfs_fault_hook = online_fails;
	assert_int_equal(node_restore(&f->c, "300", &err), -EIO);
	assert_non_null(strstr(err.msg, "cpu5 offline"));
	assert_true(journal_exists(f, "300"));
	assert_int_equal(node_check(&f->c, &err), -EBUSY);
	sysfs_fault_hook = NULL;
	assert_int_equal(node_restore(&f->c, NULL, &err), 0);
	assert_false(journal_exists(f, "300"));
	assert_whole(f);
}

static int mem_busy(const char *path, const char *val)
{
	(void)val;
	return strstr(path, "memory") ? -EBUSY : 0;
}

/* Beyond tolerance: restored first, then an error for the user. */
static void test_beyond_tolerance(void **state)
{
	struct fx *f = *state;
	struct iostrata_req r;
	struct ios_err err;

	req_full(&r);
	sysfs_fault_hook = mem_busy;
	ios_err_clear(&err);
	assert_int_equal(node_apply(&f->c, "400", 0, &r, &err), -ERANGE);
	assert_non_null(strstr(err.msg, "--iostrata-mem=1G not reached"));
	assert_non_null(strstr(err.msg, "restored"));
	assert_false(journal_exists(f, "400"));
	sysfs_fault_hook = NULL;
	assert_whole(f);
}

static void test_other_journal(void **state)
{
	struct fx *f = *state;
	struct iostrata_req r;
	struct ios_err err;
	char now[8192];

	req_full(&r);
	assert_int_equal(node_apply(&f->c, "500", 0, &r, &err), 0);
	observe(f, now, sizeof(now));
	assert_int_equal(node_apply(&f->c, "501", 0, &r, &err), -EBUSY);
	assert_non_null(strstr(err.msg, "job 500"));
	/* the epilog of 501 (refused) must not undo 500 */
	assert_int_equal(node_restore(&f->c, "501", &err), 0);
	{
		char after[8192];

		observe(f, after, sizeof(after));
		assert_string_equal(after, now);
	}
	assert_int_equal(node_restore(&f->c, "500", &err), 0);
	assert_whole(f);
}

/* Two Slurm nodes (two state directories) on one kernel: the second apply
 * is refused while the first shape is in effect; a stale registry entry
 * (journal gone) does not block. */
static void test_host_shared(void **state)
{
	struct fx *f = *state;
	struct iostrata_req r;
	struct ios_err err;
	struct node_ctx c2;

	req_full(&r);
	memset(&c2, 0, sizeof(c2));
	assert_int_equal(sysfs_open(&c2.fs, f->r->dir), 0);
	assert_int_equal(
		state_open(&c2.sd, fake_path(f->r, "run/other"), true, &err),
		0);
	c2.pol = f->pol;
	snprintf(c2.node, sizeof(c2.node), "n2");
	assert_int_equal(node_apply(&f->c, "800", 0, &r, &err), 0);
	assert_int_equal(node_apply(&c2, "801", 0, &r, &err), -EBUSY);
	assert_non_null(strstr(err.msg, "already reconfigured for job 800"));
	assert_int_equal(node_restore(&c2, NULL, &err), 0); /* not its job */
	assert_string_equal(
		fake_read(f->r, "sys/devices/system/cpu/cpu2/online"), "0");
	assert_int_equal(node_restore(&f->c, "800", &err), 0);
	assert_int_equal(node_apply(&c2, "802", 0, &r, &err), 0);
	/* the journal vanishes without a restore (site wiped): stale */
	assert_int_equal(unlink(fake_path(f->r, "run/other/journal/802.state")),
			 0);
	fake_write(f->r, "sys/devices/system/cpu/cpu2/online", "1\n");
	fake_write(f->r, "sys/devices/system/cpu/cpu3/online", "1\n");
	fake_write(f->r, "sys/devices/system/cpu/cpu4/online", "1\n");
	fake_write(f->r, "sys/devices/system/cpu/cpu5/online", "1\n");
	fake_write(f->r, "sys/devices/system/cpu/cpu6/online", "1\n");
	fake_write(f->r, "sys/devices/system/cpu/cpu7/online", "1\n");
	assert_int_equal(node_apply(&f->c, "803", 0, &r, &err), 0);
	assert_int_equal(node_restore(&f->c, "803", &err), 0);
	state_close(&c2.sd);
	sysfs_close(&c2.fs);
}

static void test_cgroup_missing(void **state)
{
	struct fx *f = *state;
	struct iostrata_req r;
	struct ios_err err;

	memset(&r, 0, sizeof(r));
	assert_int_equal(req_parse_opt(&r, REQ_DISK_BW, "50M", NULL), 0);
	{
		char from[8192];

		snprintf(from, sizeof(from), "%s", fake_path(f->r, V2));
		assert_int_equal(rename(from, fake_path(f->r, "gone")), 0);
	}
	assert_int_equal(node_apply(&f->c, "600", 0, &r, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "osd.1"));
	assert_false(journal_exists(f, "600"));
	assert_string_equal(
		fake_read(f->r, V1 "/blkio.throttle.write_bps_device"), "");
	{
		char from[8192];

		snprintf(from, sizeof(from), "%s", fake_path(f->r, "gone"));
		assert_int_equal(rename(from, fake_path(f->r, V2)), 0);
	}
	assert_whole(f);
}

/* ---- OSDs by name: "osds = auto" ------------------------------------ */

#define FSID "8f7c2a54-1d2e-4b3c-9a8b-0123456789ab"
#define CEPHADM_SLICE                                                          \
	"system.slice/system-ceph\\x2d8f7c2a54\\x2d1d2e\\x2d4b3c\\x2d9a8b\\x2d0123456789ab.slice"
#define PAYLOAD(n)                                                             \
	CEPHADM_SLICE "/ceph-" FSID "@osd." #n ".service/libpod-payload-" #n
#define OSD_V1(n) "sys/fs/cgroup/blkio/" PAYLOAD(n)
#define NS_HERE "net:[4026532001]"
#define NS_OTHER "net:[4026532002]"
#define PKG_SLICE "system.slice/system-ceph\\x2dosd.slice"
#define PKG_UNIT PKG_SLICE "/ceph-osd@3.service"

/* Replace the fixture's policy with [text]. */
static void use_policy(struct fx *f, const char *text)
{
	struct ios_err err;

	policy_free(f->pol);
	fake_write(f->r, "osd-policy.conf", text);
	chmod(fake_path(f->r, "osd-policy.conf"), 0644);
	if (policy_load(fake_path(f->r, "osd-policy.conf"), geteuid(), &f->pol,
			&err) < 0)
		fail_msg("policy: %s", err.msg);
	f->c.pol = f->pol;
}

/* The device of the fake data file [rel], as "MAJ:MIN "; skip the test
 * where the fake tree is on no block device (tmpfs). */
static void dev_key(struct fx *f, const char *rel, char *key, size_t len)
{
	struct stat st;

	assert_int_equal(stat(fake_path(f->r, rel), &st), 0);
	if (major(st.st_dev) == 0)
		skip();
	snprintf(key, len, "%u:%u ", major(st.st_dev), minor(st.st_dev));
}

static void test_osds_auto_v1(void **state)
{
	struct fx *f = *state;
	const char *const a0[] = {"/usr/bin/ceph-osd", "-n", "osd.0", NULL};
	const char *const a1[] = {"/usr/bin/ceph-osd", "-n", "osd.1", NULL};
	char key[32], want[64], rel[256];
	struct iostrata_req r;
	struct ios_err err;
	const char *j;

	/* osd.0 on this host, osd.1 on another one (same PID namespace) */
	fake_proc_self(f->r, NS_HERE);
	fake_osd_proc(f->r, 200, "ceph-osd", a0, NS_HERE,
		      "7:blkio:/" PAYLOAD(0) "\n0::/\n");
	fake_osd_proc(f->r, 201, "ceph-osd", a1, NS_OTHER,
		      "7:blkio:/" PAYLOAD(1) "\n0::/\n");
	fake_cg_v1(f->r, OSD_V1(0));
	fake_cg_v1(f->r, OSD_V1(1));
	fake_write(f->r, "var/lib/ceph/" FSID "/osd.0/block", "");
	fake_write(f->r, "var/lib/ceph/" FSID "/osd.1/block", "");
	dev_key(f, "var/lib/ceph/" FSID "/osd.0/block", key, sizeof(key));
	use_policy(f, "allow_users = *\nosds = auto\n");
	memset(&r, 0, sizeof(r));
	assert_int_equal(req_parse_opt(&r, REQ_DISK_BW, "50M", NULL), 0);
	if (node_apply(&f->c, "800", 0, &r, &err) != 0)
		fail_msg("apply: %s", err.msg);
	snprintf(want, sizeof(want), "%s52428800", key);
	assert_string_equal(
		fake_read(f->r, OSD_V1(0) "/blkio.throttle.write_bps_device"),
		want);
	assert_string_equal(
		fake_read(f->r, OSD_V1(1) "/blkio.throttle.write_bps_device"),
		"");
	/* the fixture's explicit cgroups are not in this policy */
	assert_string_equal(
		fake_read(f->r, V1 "/blkio.throttle.write_bps_device"), "");
	j = fake_read(f->r, "run/iostrata/journal/800.state");
	snprintf(rel, sizeof(rel), " /sys/fs/cgroup/blkio/%s\n", PAYLOAD(0));
	assert_non_null(strstr(j, rel));
	assert_null(strstr(j, "osd.1"));
	assert_int_equal(node_restore(&f->c, "800", &err), 0);
	snprintf(want, sizeof(want), "%s0", key);
	assert_string_equal(
		fake_read(f->r, OSD_V1(0) "/blkio.throttle.write_bps_device"),
		want); /* the kernel drops a 0 rule, the fake keeps it */
	assert_false(journal_exists(f, "800"));
	/* the health check sees this host's OSD through "osds = auto" (a
	 * throttle left there is "not whole"), not the other host's */
	assert_int_equal(node_check(&f->c, &err), 0);
	snprintf(want, sizeof(want), "%s1000", key);
	fake_write(f->r, OSD_V1(1) "/blkio.throttle.write_bps_device", want);
	assert_int_equal(node_check(&f->c, &err), 0);
	fake_write(f->r, OSD_V1(0) "/blkio.throttle.write_bps_device", want);
	assert_int_equal(node_check(&f->c, &err), -EBUSY);
	assert_non_null(strstr(err.msg, "1 throttles set"));
}

static void test_osds_refused(void **state)
{
	struct fx *f = *state;
	const char *const a[] = {"ceph-osd", "-i", "4", NULL};
	struct iostrata_req r;
	struct ios_err err;

	fake_proc_self(f->r, NS_HERE);
	fake_osd_proc(f->r, 210, "ceph-osd", a, NS_HERE,
		      "7:blkio:/user.slice/user-0.slice/session-2.scope\n");
	fake_cg_v1(
		f->r,
		"sys/fs/cgroup/blkio/user.slice/user-0.slice/session-2.scope");
	fake_write(f->r, "var/lib/ceph/osd/ceph-4/block", "");
	use_policy(f, "allow_users = *\ndevice = 254:0\nosds = auto\n");
	memset(&r, 0, sizeof(r));
	assert_int_equal(req_parse_opt(&r, REQ_DISK_BW, "50M", NULL), 0);
	assert_int_equal(node_apply(&f->c, "810", 0, &r, &err), -EINVAL);
	assert_non_null(strstr(
		err.msg,
		"osd.4 (pid 210): cgroup \"/user.slice/user-0.slice/session-2.scope\" refused"));
	assert_non_null(strstr(err.msg, "accepted:"));
	assert_false(journal_exists(f, "810"));
	assert_string_equal(
		fake_read(f->r,
			  "sys/fs/cgroup/blkio/user.slice/user-0.slice/"
			  "session-2.scope/blkio.throttle.write_bps_device"),
		"");
	assert_whole(f);
}

/* cgroup v2: the plugin gives the io controller to the OSD's parents
 * that lack it, journals that, and takes back only that. */
static void v2_layout(struct fx *f)
{
	const char *const a3[] = {"/usr/bin/ceph-osd",
				  "-f",
				  "--cluster",
				  "ceph",
				  "--id",
				  "3",
				  NULL};

	fake_proc_self(f->r, NS_HERE);
	fake_osd_proc(f->r, 300, "ceph-osd", a3, NS_HERE, "0::/" PKG_UNIT "\n");
	/* io already on at the root (the site's), not below */
	fake_cg2_dir(f->r, "sys/fs/cgroup", "cpu io memory", "io memory");
	fake_cg2_dir(f->r, "sys/fs/cgroup/system.slice", "io memory", "memory");
	fake_cg2_dir(f->r, "sys/fs/cgroup/" PKG_SLICE, "memory", "");
	fake_cg2_dir(f->r, "sys/fs/cgroup/" PKG_UNIT, "", "");
	fake_write(f->r, "sys/fs/cgroup/" PKG_UNIT "/cgroup.procs", "300\n");
	fake_write(f->r, "var/lib/ceph/osd/ceph-3/block", "");
	fake_cg2_root = f->r;
	fake_cg2_log[0] = '\0';
	sysfs_fault_hook = fake_cg2_write;
	use_policy(f, "allow_users = *\nosds = ceph-osd@*.service\n");
}

static void test_osds_v2_io(void **state)
{
	struct fx *f = *state;
	char key[32], want[128];
	struct iostrata_req r;
	struct ios_err err;
	const char *j, *l, *a, *b;

	v2_layout(f);
	dev_key(f, "var/lib/ceph/osd/ceph-3/block", key, sizeof(key));
	memset(&r, 0, sizeof(r));
	assert_int_equal(req_parse_opt(&r, REQ_DISK_BW, "50M", NULL), 0);
	if (node_apply(&f->c, "820", 0, &r, &err) != 0)
		fail_msg("apply: %s", err.msg);
	j = fake_read(f->r, "run/iostrata/journal/820.state");
	assert_non_null(strstr(j, "\nioen /sys/fs/cgroup/system.slice\n"));
	assert_non_null(strstr(j, "\nioen /sys/fs/cgroup/" PKG_SLICE "\n"));
	assert_null(strstr(j, "\nioen /sys/fs/cgroup\n"));
	assert_string_equal(
		fake_read(f->r,
			  "sys/fs/cgroup/system.slice/cgroup.subtree_control"),
		"memory io");
	/* --iostrata-disk-bw=50M: read and write */
	snprintf(want, sizeof(want),
		 "%srbps=52428800 wbps=52428800 riops=max wiops=max", key);
	assert_string_equal(
		fake_read(f->r, "sys/fs/cgroup/" PKG_UNIT "/io.max"), want);
	assert_int_equal(node_restore(&f->c, "820", &err), 0);
	assert_false(journal_exists(f, "820"));
	assert_string_equal(
		fake_read(f->r,
			  "sys/fs/cgroup/system.slice/cgroup.subtree_control"),
		"memory");
	assert_string_equal(fake_read(f->r, "sys/fs/cgroup/" PKG_SLICE
					    "/cgroup.subtree_control"),
			    "");
	assert_null(fake_read(f->r, "sys/fs/cgroup/" PKG_UNIT "/io.max"));
	/* the site's own "io" at the root stays */
	assert_string_equal(
		fake_read(f->r, "sys/fs/cgroup/cgroup.subtree_control"),
		"io memory");
	/* deepest first */
	l = fake_cg2_log;
	a = strstr(l, "sys/fs/cgroup/" PKG_SLICE "/cgroup.subtree_control -io");
	b = strstr(l, "sys/fs/cgroup/system.slice/cgroup.subtree_control -io");
	assert_non_null(a);
	assert_non_null(b);
	assert_true(a < b);
	assert_null(strstr(l, "sys/fs/cgroup/cgroup.subtree_control"));
	sysfs_fault_hook = NULL;
}

static void test_osds_v2_busy(void **state)
{
	struct fx *f = *state;
	struct iostrata_req r;
	struct ios_err err;

	v2_layout(f);
	/* a process in the slice itself: its children cannot get io */
	fake_write(f->r, "sys/fs/cgroup/" PKG_SLICE "/cgroup.procs", "1\n");
	memset(&r, 0, sizeof(r));
	assert_int_equal(req_parse_opt(&r, REQ_DISK_BW, "50M", NULL), 0);
	assert_int_equal(node_apply(&f->c, "830", 0, &r, &err), -EBUSY);
	assert_non_null(strstr(
		err.msg,
		"cgroup /sys/fs/cgroup/" PKG_SLICE
		": write +io to cgroup.subtree_control: Device or resource busy (a cgroup with processes of its own"));
	/* restored: system.slice got io on the way and lost it again */
	assert_non_null(strstr(fake_cg2_log,
			       "system.slice/cgroup.subtree_control +io"));
	assert_string_equal(
		fake_read(f->r,
			  "sys/fs/cgroup/system.slice/cgroup.subtree_control"),
		"memory");
	assert_false(journal_exists(f, "830"));
	sysfs_fault_hook = NULL;
	assert_whole(f);
}

static void test_refusal_published(void **state)
{
	struct fx *f = *state;
	struct iostrata_req r;
	const char *s;

	req_full(&r);
	assert_int_equal(
		node_publish_refusal(&f->c, "700", &r, "iostrata: no\nway"), 0);
	s = fake_read(f->r, "run/iostrata/700.env");
	assert_non_null(strstr(s, "IOSTRATA_REFUSED=iostrata: no?way\n"));
	assert_null(strstr(s, "APPLIED_CPUS"));
	assert_whole(f);
}

static void test_status(void **state)
{
	struct fx *f = *state;
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	assert_int_equal(node_status_json(&f->c, m), 0);
	fclose(m);
	assert_non_null(strstr(buf, "\"cpus_online\": 8"));
	assert_non_null(strstr(buf, "\"interface\": \"v2\""));
	/* the memory floor: max(256M, 256M in use + 128M reserve) */
	assert_non_null(strstr(buf, "\"floor_bytes\": 402653184"));
	free(buf);
}

/* Every write of "0" to a memory block or CPU leaves a mark in a file
 * (the memory writes run in a child process: a counter would be lost). */
static char offline_marks[4096];

static int mark_offline(const char *path, const char *val)
{
	if (strcmp(val, "0") == 0 &&
	    (strstr(path, "/memory") || strstr(path, "/cpu"))) {
		int fd = open(offline_marks, O_WRONLY | O_CREAT | O_APPEND,
			      0600);

		if (fd >= 0) {
			if (write(fd, "x", 1) != 1)
				_exit(99);
			close(fd);
		}
	}
	return 0;
}

static void all_online(struct fx *f)
{
	char rel[128];

	for (int i = 0; i < 16; i++) {
		snprintf(rel, sizeof(rel),
			 "sys/devices/system/memory/memory%d/online", i);
		assert_string_equal(fake_read(f->r, rel), "1");
	}
	for (int i = 1; i < 8; i++) {
		snprintf(rel, sizeof(rel),
			 "sys/devices/system/cpu/cpu%d/online", i);
		assert_string_equal(fake_read(f->r, rel), "1");
	}
}

/* A memory target below the floor (what runs needs + mem_reserve) is
 * refused before anything goes offline: no block, no CPU touched. */
static void test_mem_floor(void **state)
{
	struct fx *f = *state;
	struct iostrata_req r;
	struct ios_err err;
	struct stat st;

	/* 900 MiB in use + 128 MiB reserve: floor 1028 MiB > 1G */
	fake_meminfo(f->r, 2 * 1024 * 1024, (2048 - 900) * 1024);
	snprintf(offline_marks, sizeof(offline_marks), "%s",
		 fake_path(f->r, "offline-marks"));
	sysfs_fault_hook = mark_offline;
	req_full(&r);
	ios_err_clear(&err);
	assert_int_equal(node_apply(&f->c, "910", 0, &r, &err), -ERANGE);
	assert_non_null(
		strstr(err.msg,
		       "--iostrata-mem=1G is below the memory floor 1.00 GiB"));
	assert_non_null(strstr(err.msg, "nothing changed"));
	assert_int_equal(stat(offline_marks, &st), -1);
	assert_false(journal_exists(f, "910"));
	all_online(f);
	sysfs_fault_hook = NULL;
	assert_whole(f);
}

/* Row 5: --iostrata-mem=1 under a policy without min_mem: the 2 GiB
 * default floor refuses it before a single block goes offline. */
static void test_mem_default_floor(void **state)
{
	struct fx *f = *state;
	struct iostrata_req r;
	struct ios_err err;
	struct policy *pol;
	struct stat st;

	fake_write(f->r, "nomin.conf", "allow_users = *\nmem_tolerance = 0\n");
	chmod(fake_path(f->r, "nomin.conf"), 0644);
	assert_int_equal(policy_load(fake_path(f->r, "nomin.conf"), geteuid(),
				     &pol, &err),
			 0);
	f->c.pol = pol;
	snprintf(offline_marks, sizeof(offline_marks), "%s",
		 fake_path(f->r, "offline-marks"));
	sysfs_fault_hook = mark_offline;
	memset(&r, 0, sizeof(r));
	assert_int_equal(req_parse_opt(&r, REQ_MEM, "1", NULL), 0);
	ios_err_clear(&err);
	assert_int_equal(node_apply(&f->c, "920", 0, &r, &err), -ERANGE);
	assert_non_null(strstr(err.msg, "below the memory floor 2 GiB"));
	assert_int_equal(stat(offline_marks, &st), -1);
	all_online(f);
	sysfs_fault_hook = NULL;
	f->c.pol = f->pol;
	policy_free(pol);
	assert_whole(f);
}

/* A journal naming a "cgroup" outside cgroupfs is corrupt: the restore
 * never writes there. */
static void test_journal_bogus_path(void **state)
{
	struct fx *f = *state;
	struct ios_err err;
	int rc;

	fake_cg_v1(f->r, "victim");
	fake_write(f->r, "victim/blkio.throttle.write_bps_device", "orig\n");
	fake_write(f->r, "run/iostrata/journal/930.state",
		   "iostrata-journal 1\njob 930\nthr 1 254:0 5 5 5 5 "
		   "/sys/fs/cgroup/../../../victim\nend\n");
	chmod(fake_path(f->r, "run/iostrata/journal/930.state"), 0600);
	ios_err_clear(&err);
	rc = node_restore(&f->c, "930", &err);
	assert_string_equal(
		fake_read(f->r, "victim/blkio.throttle.write_bps_device"),
		"orig");
	assert_int_equal(rc, -EINVAL);
	assert_non_null(strstr(err.msg, "930.state:3: corrupt"));
	assert_true(journal_exists(f, "930")); /* for the admin */
	unlink(fake_path(f->r, "run/iostrata/journal/930.state"));
}

/* Row 4: a cgroup path of 256 characters must never be cut to its parent:
 * the policy refuses it, and node_apply refuses it too when handed one
 * (nothing throttled, the parent's own limit untouched). */
#define P254                                                                   \
	"sys/fs/cgroup/"                                                       \
	"ppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp"
static void test_long_cgroup(void **state)
{
	struct fx *f = *state;
	struct iostrata_req r;
	struct ios_err err;
	struct policy *pol = NULL, hand;
	char text[1024];
	int rc;

	assert_int_equal(strlen("/" P254), 254);
	fake_cg_v2(f->r, P254);
	fake_write(f->r, P254 "/io.max",
		   "254:0 rbps=111 wbps=max riops=max wiops=max\n");
	fake_cg_v2(f->r, P254 "/c");
	snprintf(text, sizeof(text),
		 "allow_users = *\ndevice = 254:0\ncgroup = /%s/c\n", P254);
	fake_write(f->r, "long.conf", text);
	chmod(fake_path(f->r, "long.conf"), 0644);
	memset(&r, 0, sizeof(r));
	assert_int_equal(req_parse_opt(&r, REQ_DISK_BW, "50M", NULL), 0);
	ios_err_clear(&err);
	rc = policy_load(fake_path(f->r, "long.conf"), geteuid(), &pol, &err);
	if (rc == 0) {
		/* what happened before: the throttle landed on the parent */
		f->c.pol = pol;
		rc = node_apply(&f->c, "940", 0, &r, &err);
		assert_string_equal(
			fake_read(f->r, P254 "/io.max"),
			"254:0 rbps=111 wbps=max riops=max wiops=max");
		node_restore(&f->c, "940", &err);
		f->c.pol = f->pol;
		policy_free(pol);
		fail_msg("policy with a 256-character cgroup accepted");
	}
	assert_int_equal(rc, -ENAMETOOLONG);
	assert_non_null(strstr(err.msg, "long.conf:3: invalid cgroup"));
	/* defence in depth: a policy built by hand */
	memset(&hand, 0, sizeof(hand));
	snprintf(hand.path, sizeof(hand.path), "hand");
	hand.devices[0] = "254:0";
	hand.n_devices = 1;
	snprintf(text, sizeof(text), "/%s/c", P254);
	hand.cgroups[0] = text;
	hand.n_cgroups = 1;
	f->c.pol = &hand;
	rc = node_apply(&f->c, "941", 0, &r, &err);
	f->c.pol = f->pol;
	assert_true(rc == -ENAMETOOLONG || rc == -EINVAL);
	assert_false(journal_exists(f, "941"));
	assert_string_equal(fake_read(f->r, P254 "/io.max"),
			    "254:0 rbps=111 wbps=max riops=max wiops=max");
	assert_string_equal(fake_read(f->r, P254 "/c/io.max"), "");
	assert_whole(f);
}

static int ctl_answer;

static int fake_ctl(uint32_t jobid, char *why, size_t len)
{
	snprintf(why, len, "fake slurmctld on job %u: %d", (unsigned)jobid,
		 ctl_answer);
	return ctl_answer;
}

static int alive(const char *jobid, void *arg, char *why, size_t len)
{
	return jobproc_alive(arg, jobid, fake_ctl, why, len);
}

static void fake_proc(struct fx *f, int pid, const char *comm, unsigned uid,
		      const char *title)
{
	char rel[64], v[128];

	snprintf(rel, sizeof(rel), "proc/%d/comm", pid);
	fake_write(f->r, rel, comm);
	snprintf(rel, sizeof(rel), "proc/%d/status", pid);
	snprintf(v, sizeof(v),
		 "Name:\t%s\nUmask:\t0022\nUid:\t%u\t%u\t%u\t%u\n", comm, uid,
		 uid, uid, uid);
	fake_write(f->r, rel, v);
	snprintf(rel, sizeof(rel), "proc/%d/cmdline", pid);
	fake_write(f->r, rel, title);
}

/* Row 6: slurmd starts while a shaped job runs: the journal stays (the
 * job keeps its shape) while its slurmstepd runs or slurmctld says it
 * runs or cannot be asked; only an ended job's journal is restored. */
static void test_slurmd_start_running_job(void **state)
{
	struct fx *f = *state;
	struct iostrata_req r;
	struct ios_err err;

	memset(&r, 0, sizeof(r));
	assert_int_equal(req_parse_opt(&r, REQ_CPUS, "2", NULL), 0);
	assert_int_equal(node_apply(&f->c, "950", 0, &r, &err), 0);
	/* its batch step runs; slurmctld unreachable */
	fake_proc(f, 4242, "slurmstepd", 0, "slurmstepd: [950.batch]");
	fake_proc(f, 4243, "sleep", 0, "sleep 300");
	ctl_answer = -EIO;
	assert_int_equal(node_restore_ended(&f->c, alive, &f->c.fs, &err), 0);
	assert_true(journal_exists(f, "950"));
	assert_string_equal(
		fake_read(f->r, "sys/devices/system/cpu/cpu2/online"), "0");
	assert_non_null(strstr(
		log_captured(),
		"journal of job 950 kept: its slurmstepd (pid 4242) still runs"));
	/* no step here now: slurmctld says running, then cannot be asked */
	unlink(fake_path(f->r, "proc/4242/comm"));
	ctl_answer = 1;
	assert_int_equal(node_restore_ended(&f->c, alive, &f->c.fs, &err), 0);
	assert_true(journal_exists(f, "950"));
	ctl_answer = -EIO;
	assert_int_equal(node_restore_ended(&f->c, alive, &f->c.fs, &err), 0);
	assert_true(journal_exists(f, "950"));
	assert_non_null(
		strstr(log_captured(), "cannot tell whether it still runs"));
	/* a user's process named like a stepd of the job does not count */
	fake_proc(f, 4244, "slurmstepd", 1000, "slurmstepd: [950.0]");
	ctl_answer = 0;
	assert_int_equal(node_restore_ended(&f->c, alive, &f->c.fs, &err), 0);
	assert_false(journal_exists(f, "950"));
	assert_whole(f);
	/* a stepd of another job (9500) is not one of 950's */
	assert_int_equal(node_apply(&f->c, "950", 0, &r, &err), 0);
	fake_proc(f, 4245, "slurmstepd", 0, "slurmstepd: [9500.extern]");
	assert_int_equal(node_restore_ended(&f->c, alive, &f->c.fs, &err), 0);
	assert_false(journal_exists(f, "950"));
	/* an admin's apply ("admin") is no Slurm job: restored */
	assert_int_equal(node_apply(&f->c, "admin", 0, &r, &err), 0);
	ctl_answer = -EIO;
	assert_int_equal(node_restore_ended(&f->c, alive, &f->c.fs, &err), 0);
	assert_false(journal_exists(f, "admin"));
	assert_whole(f);
}

static bool pub_exists(struct fx *f, const char *name)
{
	char rel[128];
	struct stat st;

	snprintf(rel, sizeof(rel), "run/iostrata/%s", name);
	return lstat(fake_path(f->r, rel), &st) == 0;
}

/* A restore removes the job's published files (they were never removed:
 * one <jobid>.applied.json per job piled up in the state directory), also
 * for a refused job (no journal); never through a symlink, never a file
 * that is not a regular one; slurmd start sweeps the files of ended jobs
 * and keeps those of a refused job that still runs. */
static void test_published_removed(void **state)
{
	struct fx *f = *state;
	struct iostrata_req r;
	struct ios_err err;
	struct stat st;

	req_full(&r);
	assert_int_equal(node_apply(&f->c, "100", 0, &r, &err), 0);
	assert_true(pub_exists(f, "100.applied.json"));
	assert_true(pub_exists(f, "100.env"));
	assert_int_equal(node_restore(&f->c, "100", &err), 0);
	assert_false(pub_exists(f, "100.applied.json"));
	assert_false(pub_exists(f, "100.env"));
	/* refused: no journal, the epilog's restore still cleans up */
	assert_int_equal(node_publish_refusal(&f->c, "700", &r, "no"), 0);
	assert_true(pub_exists(f, "700.applied.json"));
	assert_int_equal(node_restore(&f->c, "700", &err), 0);
	assert_false(pub_exists(f, "700.applied.json"));
	assert_false(pub_exists(f, "700.env"));
	/* a symlink and a directory under a job's names: left alone, the
	 * link's target untouched */
	fake_write(f->r, "precious", "keep\n");
	fake_symlink(f->r, fake_path(f->r, "precious"),
		     "run/iostrata/800.applied.json");
	fake_mkdir(f->r, "run/iostrata/800.env");
	assert_int_equal(node_restore(&f->c, "800", &err), 0);
	assert_true(pub_exists(f, "800.applied.json"));
	assert_true(pub_exists(f, "800.env"));
	assert_string_equal(fake_read(f->r, "precious"), "keep");
	assert_non_null(strstr(log_captured(), "left alone"));
	assert_int_equal(state_remove_public(&f->c.sd, "800.applied.json"),
			 -EPERM);
	unlink(fake_path(f->r, "run/iostrata/800.applied.json"));
	rmdir(fake_path(f->r, "run/iostrata/800.env"));
	/* slurmd start: 701 (refused) still runs, 702 ended */
	assert_int_equal(node_publish_refusal(&f->c, "701", &r, "no"), 0);
	assert_int_equal(node_publish_refusal(&f->c, "702", &r, "no"), 0);
	fake_proc(f, 5001, "slurmstepd", 0, "slurmstepd: [701.batch]");
	ctl_answer = 0;
	assert_int_equal(node_restore_ended(&f->c, alive, &f->c.fs, &err), 0);
	assert_true(pub_exists(f, "701.applied.json"));
	assert_true(pub_exists(f, "701.env"));
	assert_false(pub_exists(f, "702.applied.json"));
	assert_false(pub_exists(f, "702.env"));
	/* nothing else left in the state directory */
	assert_int_equal(node_restore(&f->c, "701", &err), 0);
	assert_int_equal(stat(fake_path(f->r, "run/iostrata"), &st), 0);
	{
		struct dirent *de;
		DIR *d = opendir(fake_path(f->r, "run/iostrata"));
		int other = 0;

		assert_non_null(d);
		while ((de = readdir(d)))
			other += strcmp(de->d_name, ".") &&
				 strcmp(de->d_name, "..") &&
				 strcmp(de->d_name, "journal");
		closedir(d);
		assert_int_equal(other, 0);
	}
	assert_whole(f);
}

/* The health check's decision table: whole (or shaped by a running job)
 * x drain state. */
static void test_health_decide(void **state)
{
	static const struct {
		bool whole, shaped;
		enum node_drain d;
		enum node_health_act want;
	} t[] = {
		{true, false, NODE_UNDRAINED, NODE_HEALTH_NOTHING},
		{true, false, NODE_DRAINED_OURS, NODE_HEALTH_RESUME},
		{true, false, NODE_DRAINED_OTHER, NODE_HEALTH_NOTHING},
		{false, true, NODE_UNDRAINED, NODE_HEALTH_NOTHING},
		{false, true, NODE_DRAINED_OURS, NODE_HEALTH_RESUME},
		{false, true, NODE_DRAINED_OTHER, NODE_HEALTH_NOTHING},
		{false, false, NODE_UNDRAINED, NODE_HEALTH_DRAIN},
		{false, false, NODE_DRAINED_OURS, NODE_HEALTH_NOTHING},
		{false, false, NODE_DRAINED_OTHER, NODE_HEALTH_NOTHING},
	};
	static const struct {
		bool drain, down;
		const char *reason;
		enum node_drain want;
	} c[] = {
		{false, false, NULL, NODE_UNDRAINED},
		{false, false, "iostrata: old reason", NODE_UNDRAINED},
		{true, false, "iostrata: health check: node n1 not whole",
		 NODE_DRAINED_OURS},
		{true, false,
		 "iostrata: node n1: restore after job 5 incomplete",
		 NODE_DRAINED_OURS},
		{true, false, "maintenance (iostrata: later)",
		 NODE_DRAINED_OTHER},
		{true, false, "Kill task failed", NODE_DRAINED_OTHER},
		{true, false, "", NODE_DRAINED_OTHER},
		{true, false, NULL, NODE_DRAINED_OTHER},
		{true, false, "iostrata", NODE_DRAINED_OTHER},
		{true, true, "iostrata: health check", NODE_DRAINED_OTHER},
		{false, true, "Not responding", NODE_DRAINED_OTHER},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (node_health_decide(t[i].whole, t[i].shaped, t[i].d) !=
		    t[i].want)
			fail_msg(
				"row %zu: whole %d shaped %d drain %d: got %d, want %d",
				i, t[i].whole, t[i].shaped, (int)t[i].d,
				(int)node_health_decide(t[i].whole, t[i].shaped,
							t[i].d),
				(int)t[i].want);
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		if (node_drain_classify(c[i].drain, c[i].down, c[i].reason) !=
		    c[i].want)
			fail_msg("classify row %zu (\"%s\"): want %d", i,
				 c[i].reason ? c[i].reason : "(null)",
				 (int)c[i].want);
}

/* A fake slurmctld: the node's drain flag, DOWN state and reason. */
static struct {
	bool drain, down;
	char reason[512];
	int state_rc;
	unsigned drains, resumes;
} ctld;

static int ctld_state(const char *node, bool *drain, bool *down, char *reason,
		      size_t len, char *why, size_t wlen)
{
	assert_string_equal(node, "n1");
	if (ctld.state_rc < 0) {
		snprintf(why, wlen, "fake slurmctld unreachable");
		return ctld.state_rc;
	}
	*drain = ctld.drain;
	*down = ctld.down;
	snprintf(reason, len, "%s", ctld.reason);
	return 0;
}

static int ctld_drain(const char *node, const char *reason)
{
	assert_string_equal(node, "n1");
	ctld.drain = true;
	snprintf(ctld.reason, sizeof(ctld.reason), "%s", reason);
	ctld.drains++;
	return 0;
}

static int ctld_resume(const char *node, char *why, size_t len)
{
	(void)why;
	(void)len;
	assert_string_equal(node, "n1");
	ctld.drain = false;
	ctld.reason[0] = '\0';
	ctld.resumes++;
	return 0;
}

static enum node_health_act health(struct fx *f, struct node_health_result *res)
{
	const struct node_slurm_ops ops = {
		.state = ctld_state,
		.drain = ctld_drain,
		.resume = ctld_resume,
		.alive = alive,
		.alive_arg = &f->c.fs,
	};
	struct ios_err err;

	if (node_health(&f->c, &ops, res, &err) != 0)
		fail_msg("node_health: %s", err.msg);
	return res->act;
}

/* The health check drains a node left shaped (no running job), resumes
 * only a node it drained itself once whole again, leaves an admin's
 * drain alone, and takes a node shaped by a running (or completing) job
 * as whole. */
static void test_health(void **state)
{
	struct fx *f = *state;
	struct node_health_result res;
	struct iostrata_req r;
	struct ios_err err;
	const struct node_slurm_ops ops = {
		.state = ctld_state,
		.drain = ctld_drain,
		.resume = ctld_resume,
		.alive = alive,
		.alive_arg = &f->c.fs,
	};
	int lk;

	memset(&ctld, 0, sizeof(ctld));
	memset(&r, 0, sizeof(r));
	assert_int_equal(req_parse_opt(&r, REQ_CPUS, "2", NULL), 0);
	/* node_check counts any throttle as "not whole": the fixture's
	 * site throttle first (then drained, then resumed) */
	assert_int_equal(health(f, &res), NODE_HEALTH_DRAIN);
	assert_non_null(strstr(ctld.reason, "1 throttles set"));
	fake_write(f->r, V1 "/blkio.throttle.read_bps_device", "254:0 0\n");
	assert_int_equal(health(f, &res), NODE_HEALTH_RESUME);
	observe(f, f->before, sizeof(f->before));
	ctld.drains = ctld.resumes = 0;
	/* whole, undrained: nothing */
	assert_int_equal(health(f, &res), NODE_HEALTH_NOTHING);
	assert_true(res.whole);
	/* shaped by hand ("admin" is no job): drained, with our prefix */
	assert_int_equal(node_apply(&f->c, "admin", 0, &r, &err), 0);
	assert_int_equal(health(f, &res), NODE_HEALTH_DRAIN);
	assert_true(ctld.drain);
	assert_non_null(strstr(
		ctld.reason,
		"iostrata: health check: node n1 not whole: journal of job admin pending, 6 CPUs offline"));
	/* still shaped: drained already, nothing more */
	assert_int_equal(health(f, &res), NODE_HEALTH_NOTHING);
	assert_int_equal(ctld.drains, 1);
	/* restored: resumed */
	assert_int_equal(node_restore(&f->c, NULL, &err), 0);
	assert_int_equal(health(f, &res), NODE_HEALTH_RESUME);
	assert_false(ctld.drain);
	assert_int_equal(ctld.resumes, 1);
	/* an admin's drain: never resumed, never overwritten */
	ctld.drain = true;
	snprintf(ctld.reason, sizeof(ctld.reason), "disk swap");
	assert_int_equal(health(f, &res), NODE_HEALTH_NOTHING);
	assert_int_equal(node_apply(&f->c, "admin", 0, &r, &err), 0);
	assert_int_equal(health(f, &res), NODE_HEALTH_NOTHING);
	assert_string_equal(ctld.reason, "disk swap");
	assert_int_equal(node_restore(&f->c, NULL, &err), 0);
	assert_int_equal(health(f, &res), NODE_HEALTH_NOTHING);
	assert_true(ctld.drain);
	/* a down node (Slurm's business) is left alone */
	ctld.drain = false;
	ctld.down = true;
	assert_int_equal(node_apply(&f->c, "admin", 0, &r, &err), 0);
	assert_int_equal(health(f, &res), NODE_HEALTH_NOTHING);
	assert_int_equal(node_restore(&f->c, NULL, &err), 0);
	ctld.down = false;
	ctld.reason[0] = '\0';
	/* shaped by a running job: whole for this purpose */
	assert_int_equal(node_apply(&f->c, "960", 0, &r, &err), 0);
	fake_proc(f, 6001, "slurmstepd", 0, "slurmstepd: [960.batch]");
	ctl_answer = 0;
	assert_int_equal(health(f, &res), NODE_HEALTH_NOTHING);
	assert_true(res.shaped);
	assert_false(ctld.drain);
	/* no stepd, slurmctld: running (or completing: epilog to come) */
	unlink(fake_path(f->r, "proc/6001/comm"));
	ctl_answer = 1;
	assert_int_equal(health(f, &res), NODE_HEALTH_NOTHING);
	/* slurmctld cannot tell: no drain on a doubt */
	ctl_answer = -EIO;
	assert_int_equal(health(f, &res), NODE_HEALTH_NOTHING);
	assert_true(res.shaped);
	/* drained by us earlier, now shaped by a running job: resumed */
	ctld.drain = true;
	snprintf(ctld.reason, sizeof(ctld.reason),
		 "iostrata: health check: node n1 not whole");
	ctl_answer = 1;
	assert_int_equal(health(f, &res), NODE_HEALTH_RESUME);
	/* the job ended without its epilog: drained */
	ctl_answer = 0;
	assert_int_equal(health(f, &res), NODE_HEALTH_DRAIN);
	assert_non_null(strstr(ctld.reason, "journal of job 960 pending"));
	/* a prolog/epilog holds the lock: not judged, nothing done */
	ctld.drain = false;
	lk = state_lock(&f->c.sd, 0);
	assert_true(lk >= 0);
	{
		pid_t pid = fork();
		int st = 0;

		assert_true(pid >= 0);
		if (pid == 0) {
			/* flock is per open file: ask from another process */
			struct fx g = *f;

			state_open(&g.c.sd, fake_path(f->r, "run/iostrata"),
				   false, &err);
			health(&g, &res);
			_exit(res.busy && res.act == NODE_HEALTH_NOTHING &&
					      !ctld.drain
				      ? 0
				      : 1);
		}
		assert_int_equal(waitpid(pid, &st, 0), pid);
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	state_unlock(lk);
	/* slurmctld unreachable: an error, nothing done */
	ctld.state_rc = -EIO;
	assert_int_equal(node_health(&f->c, &ops, &res, &err), -EIO);
	assert_non_null(strstr(err.msg, "fake slurmctld unreachable"));
	assert_false(ctld.drain);
	ctld.state_rc = 0;
	assert_int_equal(health(f, &res), NODE_HEALTH_DRAIN);
	assert_int_equal(node_restore(&f->c, NULL, &err), 0);
	assert_int_equal(health(f, &res), NODE_HEALTH_RESUME);
	assert_whole(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_apply_restore, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_crash_journal, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_restore_fails, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_beyond_tolerance, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_other_journal, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_host_shared, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_cgroup_missing, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_osds_auto_v1, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_osds_refused, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_osds_v2_io, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_osds_v2_busy, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_refusal_published, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_status, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mem_floor, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_mem_default_floor, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_journal_bogus_path, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_long_cgroup, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_slurmd_start_running_job,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_published_removed, setup,
						teardown),
		cmocka_unit_test(test_health_decide),
		cmocka_unit_test_setup_teardown(test_health, setup, teardown),
	};

	return cmocka_run_group_tests_name("node", tests, NULL, NULL);
}
