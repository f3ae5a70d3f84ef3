/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_node_osds: on the fake node of node_fx.c, OSDs named in the policy
 * ("osds = auto" on cephadm and package units, refusals, cgroup v2's io
 * controller enabled and undone) and the health check (its decision table,
 * and the drain and resume through a fake slurmctld).
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

/* The fake slurmctld's operations for [f]'s node. */
static struct node_slurm_ops health_ops(struct fx *f)
{
	return (struct node_slurm_ops){
		.state = ctld_state,
		.drain = ctld_drain,
		.resume = ctld_resume,
		.alive = alive,
		.alive_arg = &f->c.fs,
	};
}

static enum node_health_act health(struct fx *f, struct node_health_result *res)
{
	const struct node_slurm_ops ops = health_ops(f);
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
	const struct node_slurm_ops ops = health_ops(f);
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
		cmocka_unit_test_setup_teardown(test_osds_auto_v1, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_osds_refused, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_osds_v2_io, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_osds_v2_busy, setup,
						teardown),
		cmocka_unit_test(test_health_decide),
		cmocka_unit_test_setup_teardown(test_health, setup, teardown),
	};

	return cmocka_run_group_tests_name("node_osds", tests, NULL, NULL);
}
