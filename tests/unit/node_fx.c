/* SPDX-License-Identifier: GPL-2.0-or-later */
/* node_fx: see node_fx.h. */
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

static const char policy_text[] = "allow_users = *\n"
				  "min_mem = 256M\n"
				  "mem_reserve = 128M\n"
				  "device = 254:0\n"
				  "cgroup = /" V1 "\n"
				  "cgroup = /" V2 "\n"
				  "mem_tolerance = 0\n"
				  "mem_attempt_timeout = 200ms\n"
				  "mem_total_timeout = 5s\n";

static size_t observe_jobcg(struct fx *f, char *out, size_t len);

/* Everything the plugin may touch, as one string. */
void observe(struct fx *f, char *out, size_t len)
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
	off = strlen(out);
	observe_jobcg(f, out + off, len - off);
}

/* The kernel's part in a new v1 cgroup directory (the job's own,
 * made by the apply): its throttle files and cgroup.procs; gone again
 * at rmdir. */
static struct fake_root *hook_root;

static void cg_dir_hook(const char *path, int made)
{
	static const char *const f[] = {
		"blkio.throttle.read_bps_device",
		"blkio.throttle.write_bps_device",
		"blkio.throttle.read_iops_device",
		"blkio.throttle.write_iops_device",
		"cgroup.procs",
	};
	char p[512];

	if (made) {
		fake_cg_v1(hook_root, path);
		snprintf(p, sizeof(p), "%s/cgroup.procs", path);
		fake_write(hook_root, p, "");
		return;
	}
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", path, f[i]);
		unlink(fake_path(hook_root, p));
	}
}

/* The job cgroups in the fake blkio hierarchy, as " jobcg=NAME". */
static size_t observe_jobcg(struct fx *f, char *out, size_t len)
{
	DIR *d = opendir(fake_path(f->r, "sys/fs/cgroup/blkio"));
	struct dirent *e;
	size_t off = 0;

	while (d && (e = readdir(d)))
		if (strncmp(e->d_name, "iostrata.job_", 13) == 0)
			off += (size_t)snprintf(out + off, len - off,
						" jobcg=%s", e->d_name);
	if (d)
		closedir(d);
	return off;
}

int setup(void **state)
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
	hook_root = f->r;
	sysfs_dir_hook = cg_dir_hook;
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

int teardown(void **state)
{
	struct fx *f = *state;

	sysfs_fault_hook = NULL;
	sysfs_dir_hook = NULL;
	hook_root = NULL;
	state_close(&f->c.sd);
	sysfs_close(&f->c.fs);
	policy_free(f->pol);
	fake_root_free(f->r);
	free(f);
	return 0;
}

void req_full(struct iostrata_req *r)
{
	memset(r, 0, sizeof(*r));
	assert_int_equal(req_parse_opt(r, REQ_CPUS, "2", NULL), 0);
	assert_int_equal(req_parse_opt(r, REQ_MEM, "1G", NULL), 0);
	assert_int_equal(req_parse_opt(r, REQ_DISK_BW, "50M", NULL), 0);
	assert_int_equal(req_parse_opt(r, REQ_DISK_IOPS, "100", NULL), 0);
}

bool journal_exists(struct fx *f, const char *id)
{
	char rel[128];
	struct stat st;

	snprintf(rel, sizeof(rel), "run/iostrata/journal/%s.state", id);
	return stat(fake_path(f->r, rel), &st) == 0;
}

void assert_whole(struct fx *f)
{
	char now[8192];
	struct ios_err err;

	observe(f, now, sizeof(now));
	assert_string_equal(now, f->before);
	assert_int_equal(node_restore(&f->c, NULL, &err), 0);
}

/* Replace the fixture's policy with [text]. */
void use_policy(struct fx *f, const char *text)
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
void dev_key(struct fx *f, const char *rel, char *key, size_t len)
{
	struct stat st;

	assert_int_equal(stat(fake_path(f->r, rel), &st), 0);
	if (major(st.st_dev) == 0)
		skip();
	snprintf(key, len, "%u:%u ", major(st.st_dev), minor(st.st_dev));
}

/* What the fake slurmctld answers (jobproc.h). */
int ctl_answer;

int fake_ctl(uint32_t jobid, char *why, size_t len)
{
	snprintf(why, len, "fake slurmctld on job %u: %d", (unsigned)jobid,
		 ctl_answer);
	return ctl_answer;
}

int alive(const char *jobid, void *arg, char *why, size_t len)
{
	return jobproc_alive(arg, jobid, fake_ctl, why, len);
}

void fake_proc(struct fx *f, int pid, const char *comm, unsigned uid,
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
