/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_node: apply and restore end to end on a fake node (8 CPUs, 16
 * memory blocks, a v1 and a v2 cgroup): journal before change, read back,
 * published files, restore to the snapshot, double restore, a journal
 * left by a crash, a restore that fails, tolerance failures, another
 * job's journal.  OSDs named in the policy and the health check:
 * test_node_osds.c; the fake node: node_fx.c.
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
#include "node_fx.h"

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
/* A new context on the node's state, as slurmd at its start: restore
 * every journal, with no policy (the journal has it all). */
static void restore_fresh(struct fx *f)
{
	struct node_ctx c2;
	struct ios_err err;

	memset(&c2, 0, sizeof(c2));
	assert_int_equal(sysfs_open(&c2.fs, f->r->dir), 0);
	assert_int_equal(state_open(&c2.sd, fake_path(f->r, "run/iostrata"),
				    false, &err),
			 0);
	snprintf(c2.node, sizeof(c2.node), "n1");
	assert_int_equal(node_restore(&c2, NULL, &err), 0);
	state_close(&c2.sd);
	sysfs_close(&c2.fs);
}

static void test_crash_journal(void **state)
{
	struct fx *f = *state;
	struct iostrata_req r;
	struct ios_err err;

	req_full(&r);
	assert_int_equal(node_apply(&f->c, "200", 0, &r, &err), 0);
	restore_fresh(f);
	assert_whole(f);
}

/* policy throttle_job (default yes): the job's own v1 cgroup, made with
 * the OSDs' new limits, journalled, named in the applied record and the
 * tasks' environment, removed at restore (also after a "crash", with a
 * process left in it); off by policy: none, and the record says so; one
 * that exists already: refused, the node untouched. */
static void test_job_cgroup(void **state)
{
	struct fx *f = *state;
	struct iostrata_req r;
	struct ios_err err;
	const char *s;
	const char jcg[] = "sys/fs/cgroup/blkio/iostrata.job_300";

	req_full(&r);
	ios_err_clear(&err);
	if (node_apply(&f->c, "300", 0, &r, &err) != 0)
		fail_msg("apply: %s", err.msg);
	assert_string_equal(
		fake_read(
			f->r,
			"sys/fs/cgroup/blkio/iostrata.job_300/blkio.throttle.write_bps_device"),
		"254:0 52428800");
	assert_string_equal(
		fake_read(
			f->r,
			"sys/fs/cgroup/blkio/iostrata.job_300/blkio.throttle.read_iops_device"),
		"254:0 100");
	s = fake_read(f->r, "run/iostrata/journal/300.state");
	assert_non_null(
		strstr(s, "\njobcg /sys/fs/cgroup/blkio/iostrata.job_300\n"));
	s = fake_read(f->r, "run/iostrata/300.env");
	assert_non_null(strstr(
		s,
		"IOSTRATA_APPLIED_JOB_CGROUP=/sys/fs/cgroup/blkio/iostrata.job_300\n"));
	s = fake_read(f->r, "run/iostrata/300.applied.json");
	assert_non_null(strstr(
		s,
		"\"job_cgroup\": \"/sys/fs/cgroup/blkio/iostrata.job_300\""));
	/* a process left in it; a new context restores (slurmd's start) */
	fake_write(f->r, "sys/fs/cgroup/blkio/iostrata.job_300/cgroup.procs",
		   "4242\n");
	fake_write(f->r, "sys/fs/cgroup/blkio/cgroup.procs", "");
	restore_fresh(f);
	assert_string_equal(fake_read(f->r, "sys/fs/cgroup/blkio/cgroup.procs"),
			    "4242");
	assert_int_equal(access(fake_path(f->r, jcg), F_OK), -1);
	unlink(fake_path(f->r, "sys/fs/cgroup/blkio/cgroup.procs"));
	assert_whole(f);

	/* one there already (not this job's making): refused, untouched */
	fake_cg_v1(f->r, "sys/fs/cgroup/blkio/iostrata.job_301");
	assert_int_equal(node_apply(&f->c, "301", 0, &r, &err), -EEXIST);
	assert_non_null(strstr(err.msg, "iostrata.job_301 exists already"));
	assert_false(journal_exists(f, "301"));
	{
		static const char *const fl[] = {"read_bps", "write_bps",
						 "read_iops", "write_iops"};
		char p[160];

		for (int i = 0; i < 4; i++) {
			snprintf(
				p, sizeof(p),
				"sys/fs/cgroup/blkio/iostrata.job_301/blkio.throttle.%s_device",
				fl[i]);
			unlink(fake_path(f->r, p));
		}
		rmdir(fake_path(f->r, "sys/fs/cgroup/blkio/iostrata.job_301"));
	}
	assert_whole(f);

	/* off by policy */
	use_policy(f, "allow_users = *\nmin_mem = 256M\nmem_reserve = 128M\n"
		      "device = 254:0\ncgroup = /" V1 "\ncgroup = /" V2
		      "\nthrottle_job = no\n");
	assert_int_equal(node_apply(&f->c, "302", 0, &r, &err), 0);
	assert_int_equal(
		access(fake_path(f->r, "sys/fs/cgroup/blkio/iostrata.job_302"),
		       F_OK),
		-1);
	s = fake_read(f->r, "run/iostrata/302.applied.json");
	assert_non_null(strstr(s, "\"job_cgroup\": null"));
	assert_non_null(strstr(s, "throttle_job = no"));
	assert_null(
		strstr(fake_read(f->r, "run/iostrata/302.env"), "JOB_CGROUP"));
	assert_int_equal(node_restore(&f->c, "302", &err), 0);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_apply_restore, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_crash_journal, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_job_cgroup, setup,
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
	};

	return cmocka_run_group_tests_name("node", tests, NULL, NULL);
}
