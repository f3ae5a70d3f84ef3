/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_policy: the policy file (ownership, mode, symlink, syntax) and the
 * request checks (bounds, CPUs online, profiles, users, accounts).
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
#include <unistd.h>

#include <cmocka.h>

#include "fake_root.h"
#include "policy.h"

static const char good[] =
	"# comment\n"
	"allow_users = alice, bob\n"
	"allow_accounts = storage\n"
	"min_cpus = 2\n"
	"min_mem = 4G\n"
	"min_disk_bw = 10M\n"
	"min_disk_iops = 20\n"
	"device = 254:0\n"
	"cgroup = /sys/fs/cgroup/blkio/osd.0 /sys/fs/cgroup/blkio/osd.1\n"
	"mem_tolerance = 5%\n"
	"mem_attempt_timeout = 500ms\n"
	"[profile small]\n"
	"cpus = 2\n"
	"mem = 8G\n"
	"disk_bw = 50M,60M\n"
	"[global]\n"
	"cpu_tolerance = 1\n";

static int setup(void **state)
{
	*state = fake_root_new();
	return 0;
}

static int teardown(void **state)
{
	fake_root_free(*state);
	return 0;
}

static int load(struct fake_root *r, const char *text, mode_t mode,
		struct policy **p, struct ios_err *err)
{
	fake_write(r, "policy.conf", text);
	assert_int_equal(chmod(fake_path(r, "policy.conf"), mode), 0);
	ios_err_clear(err);
	return policy_load(fake_path(r, "policy.conf"), geteuid(), p, err);
}

static void test_good(void **state)
{
	struct policy *p;
	struct ios_err err;

	assert_int_equal(load(*state, good, 0644, &p, &err), 0);
	assert_int_equal(p->n_users, 2);
	assert_string_equal(p->allow_users[1], "bob");
	assert_int_equal(p->min_cpus, 2);
	assert_int_equal(p->min_mem, 4ULL << 30);
	assert_int_equal(p->n_cgroups, 2);
	assert_int_equal(p->n_profiles, 1);
	assert_int_equal(p->profiles[0].req.rbps, 60ULL << 20);
	assert_int_equal(p->cpu_tolerance, 1);
	assert_int_equal(p->mem_attempt_ms, 500);
	assert_int_equal(policy_mem_slack(p, 1000), 50);
	assert_true(p->require_exclusive);
	policy_free(p);
}

static void test_refused_files(void **state)
{
	struct fake_root *r = *state;
	struct policy *p = NULL;
	struct ios_err err;

	/* group- and world-writable */
	assert_int_equal(load(r, good, 0664, &p, &err), -EPERM);
	assert_non_null(strstr(err.msg, "refused"));
	assert_int_equal(load(r, good, 0646, &p, &err), -EPERM);
	assert_null(p);
	/* wrong owner */
	assert_int_equal(chmod(fake_path(r, "policy.conf"), 0644), 0);
	assert_int_equal(policy_load(fake_path(r, "policy.conf"), geteuid() + 1,
				     &p, &err),
			 -EPERM);
	/* missing */
	assert_int_equal(
		policy_load(fake_path(r, "nope.conf"), geteuid(), &p, &err),
		-ENOENT);
	assert_non_null(strstr(err.msg, "nope.conf"));
	/* a symlink to a good file */
	fake_symlink(r, "policy.conf", "link.conf");
	assert_int_equal(
		policy_load(fake_path(r, "link.conf"), geteuid(), &p, &err),
		-ELOOP);
	/* a directory */
	fake_mkdir(r, "dir.conf");
	assert_int_not_equal(
		policy_load(fake_path(r, "dir.conf"), geteuid(), &p, &err), 0);
}

static const char *const bad_lines[] = {
	"bogus = 1\n",
	"min_cpus = 0\n",
	"min_cpus = two\n",
	"min_mem = 4X\n",
	"min_disk_bw = -1\n",
	"cgroup = /etc/passwd\n",
	"cgroup = /sys/fs/cgroup/../../etc\n",
	"cgroup = /sys/fs/cgroup/a;b\n",
	"require_exclusive = maybe\n",
	"mem_tolerance = 120%\n",
	"mem_tolerance = nan%\n",
	"mem_attempt_timeout = 0\n",
	"[profile]\n",
	"[profile a/b]\n",
	"[something]\n",
	"[profile p]\nbogus = 1\n",
	"[profile p]\ncpus = 0\n",
	"[profile p]\nmem = $(id)\n",
	"no equals sign\n",
};

static void test_bad_lines(void **state)
{
	for (size_t i = 0; i < sizeof(bad_lines) / sizeof(bad_lines[0]); i++) {
		struct policy *p = NULL;
		struct ios_err err;
		int rc = load(*state, bad_lines[i], 0644, &p, &err);

		if (rc >= 0)
			fail_msg("bad policy line accepted: %s", bad_lines[i]);
		assert_null(p);
		/* file:line in the message */
		assert_non_null(strstr(err.msg, "policy.conf:"));
	}
}

/* Hostile policy files: each is loaded from a file with exactly these
 * bytes (NULs included); [rc] is the expected result, [msg] a substring
 * the message must hold (NULL: any), [exact] the whole message after
 * "<dir>/policy.conf" (NULL: not checked). */
struct hostile {
	const char *name;
	const char *text;
	size_t len; /* 0: strlen(text) */
	int rc;
	const char *msg;
	const char *exact;
};

#define BYTES(s) s, sizeof(s) - 1
#define CG "/sys/fs/cgroup/"
#define A10 "aaaaaaaaaa"
#define A50 A10 A10 A10 A10 A10
#define A200 A50 A50 A50 A50
/* CG is 15 characters: CG A200 A40 = 255, one more = 256 */
#define CG255 CG A200 A10 A10 A10 A10
#define CG256 CG255 "b"

static const struct hostile hostile[] = {
	{"cgroup 255 chars", "cgroup = " CG255 "\n", 0, 0, NULL, NULL},
	{"cgroup 256 chars", "cgroup = " CG256 "\n", 0, -ENAMETOOLONG,
	 "policy.conf:1: invalid cgroup", NULL},
	{"cgroup 4096+ chars", NULL, 0, -EINVAL, "policy.conf:1: line too long",
	 NULL},
	{"cgroup ..", "cgroup = " CG "a/../b\n", 0, -EINVAL,
	 ":1: invalid cgroup", NULL},
	{"cgroup trailing ..", "cgroup = " CG "a/..\n", 0, -EINVAL, NULL, NULL},
	{"cgroup .", "cgroup = " CG "a/./b\n", 0, -EINVAL, ":1: invalid cgroup",
	 NULL},
	{"cgroup trailing /", "cgroup = " CG "a/\n", 0, -EINVAL,
	 ":1: invalid cgroup", NULL},
	{"cgroup root", "cgroup = " CG "\n", 0, -EINVAL, ":1: invalid cgroup",
	 NULL},
	{"cgroup //", "cgroup = " CG "a//b\n", 0, -EINVAL, NULL, NULL},
	/* systemd's unit name escapes (a cephadm OSD's cgroup) */
	{"cgroup systemd \\x2d",
	 "cgroup = " CG "blkio/system.slice/system-ceph\\x2d1f2e.slice/"
	 "ceph-1f2e@osd.0.service/libpod-payload-9a0b\n",
	 0, 0, NULL, NULL},
	{"cgroup \\x at the end", "cgroup = " CG "a/b\\x2d\n", 0, 0, NULL,
	 NULL},
	{"cgroup bare backslash", "cgroup = " CG "a\\b\n", 0, -EINVAL,
	 "and \\xHH escapes", NULL},
	{"cgroup \\\\x2d", "cgroup = " CG "a\\\\x2d\n", 0, -EINVAL, NULL, NULL},
	{"cgroup \\X2d", "cgroup = " CG "a\\X2d\n", 0, -EINVAL, NULL, NULL},
	{"cgroup \\x2 short", "cgroup = " CG "a\\x2\n", 0, -EINVAL, NULL, NULL},
	{"cgroup \\x2 across /", "cgroup = " CG "a\\x2/d\n", 0, -EINVAL, NULL,
	 NULL},
	{"cgroup \\xzz", "cgroup = " CG "a\\xzz\n", 0, -EINVAL, NULL, NULL},
	{"cgroup \\x2e\\x2e", "cgroup = " CG "a\\x2e\\x2e\n", 0, 0, NULL, NULL},
	{"cgroup trailing backslash", "cgroup = " CG "a\\\n", 0, -EINVAL, NULL,
	 NULL},
	{"cgroup twice", "cgroup = " CG "a " CG "a\n", 0, -EINVAL,
	 ":1: cgroup \"" CG "a\" listed twice", NULL},
	{"NUL hides ..", BYTES("cgroup = " CG "a\0/../../etc\n"), -EINVAL,
	 ":1: NUL byte", NULL},
	{"NUL in value", BYTES("min_cpus = 2\0junk\n"), -EINVAL, ":1: NUL byte",
	 NULL},
	{"huge cpus", "min_cpus = 99999999999999999999999\n", 0, -ERANGE,
	 ":1: min_cpus", NULL},
	{"huge size", "min_mem = 99999999999P\n", 0, -ERANGE, ":1: min_mem",
	 NULL},
	{"size above 8 EiB", "min_mem = 18446744073709551615\n", 0, -ERANGE,
	 NULL, NULL},
	{"iops 2^64", "min_disk_iops = 18446744073709551616\n", 0, -ERANGE,
	 NULL, NULL},
	{"tolerance 2^32+1", "cpu_tolerance = 4294967297\n", 0, -ERANGE, NULL,
	 NULL},
	{"negative cpus", "min_cpus = -1\n", 0, -EINVAL, NULL, NULL},
	{"negative size", "min_mem = -1G\n", 0, -EINVAL, NULL, NULL},
	{"negative pct", "mem_tolerance = -5%\n", 0, -EINVAL, NULL, NULL},
	{"nan pct", "mem_tolerance = nan%\n", 0, -EINVAL,
	 ":1: mem_tolerance: invalid percentage", NULL},
	{"hex pct", "mem_tolerance = 0x10%\n", 0, -EINVAL, NULL, NULL},
	{"exp pct", "mem_tolerance = 1e1%\n", 0, -EINVAL, NULL, NULL},
	{"pct 100.5", "mem_tolerance = 100.5%\n", 0, -EINVAL, NULL, NULL},
	{"pct 2.5", "mem_tolerance = 2.5%\n", 0, 0, NULL, NULL},
	{"exp duration", "mem_attempt_timeout = 1e9\n", 0, -EINVAL, NULL, NULL},
	{"duplicate key", "min_cpus = 2\nmin_cpus = 4\n", 0, -EINVAL, NULL,
	 ":2: key \"min_cpus\" given twice (first at line 1)"},
	{"duplicate profile", "[profile a]\ncpus = 1\n[profile a]\ncpus = 2\n",
	 0, -EINVAL, ":3: profile \"a\" defined twice", NULL},
	{"duplicate profile key", "[profile a]\ncpus = 1\ncpus = 2\n", 0,
	 -EINVAL, ":3: profile a: key \"cpus\" given twice", NULL},
	{"garbage min_cpus", "min_cpus = abc\n", 0, -EINVAL, NULL,
	 ":1: min_cpus: invalid number \"abc\" (accepted: a whole number from 1 to 65536)"},
	{"garbage profile cpus", "[profile p]\ncpus = abc\n", 0, -EINVAL, NULL,
	 ":2: --iostrata-cpus: invalid number \"abc\" (accepted: a whole number from 1 to 65536)"},
	{"garbage require_exclusive", "require_exclusive = yes please\n", 0,
	 -EINVAL, NULL,
	 ":1: require_exclusive: invalid value \"yes please\" (accepted: yes, no)"},
	{"garbage throttle_job", "throttle_job = maybe\n", 0, -EINVAL, NULL,
	 ":1: throttle_job: invalid value \"maybe\" (accepted: yes, no)"},
	{"empty key", "= 5\n", 0, -EINVAL, ":1: unknown key \"\"", NULL},
	/* OSDs by name (spank/osd.h) */
	{"osds auto", "osds = auto\n", 0, 0, NULL, NULL},
	{"osds names and globs",
	 "osds = osd.0, ceph-osd@*.service ceph-1f2e@osd.[0-3].service\n", 0, 0,
	 NULL, NULL},
	{"osds auto and more", "osds = auto osd.1\n", 0, -EINVAL, NULL,
	 ":1: osds: \"auto\" must be the only entry"},
	{"osds more then auto", "osds = osd.1\nosds = auto\n", 0, -EINVAL,
	 ":2: osds: \"auto\" must be the only entry", NULL},
	{"osds twice", "osds = osd.1\nosds = osd.1\n", 0, -EINVAL, NULL,
	 ":2: osds: \"osd.1\" listed twice"},
	{"osds shell", "osds = osd.$(reboot)\n", 0, -EINVAL,
	 ":1: osds: invalid entry \"osd.$(reboot)\": characters other than",
	 NULL},
	{"osds cgroup path", "osds = " CG "blkio/x\n", 0, -EINVAL,
	 ":1: osds: invalid entry", NULL},
	{"osd_slice",
	 "osd_slice = /ceph.slice /system.slice/ceph\\x2dosd.slice\n", 0, 0,
	 NULL, NULL},
	{"osd_slice relative", "osd_slice = ceph.slice\n", 0, -EINVAL, NULL,
	 ":1: osd_slice: invalid slice \"ceph.slice\": not absolute or too long (accepted: an absolute path in the cgroup hierarchy ending in .slice, e.g. /ceph.slice or /system.slice/ceph\\x2dosd.slice)"},
	{"osd_slice a service", "osd_slice = /system.slice/ssh.service\n", 0,
	 -EINVAL, ": does not end in .slice", NULL},
	{"osd_slice ..", "osd_slice = /a/../b.slice\n", 0, -EINVAL,
	 ":1: osd_slice: invalid slice \"/a/../b.slice\": empty", NULL},
	{"osd_data", "osd_data = /srv/ceph/$cluster-$id /d/$fsid/$name\n", 0, 0,
	 NULL, NULL},
	{"osd_data ..", "osd_data = /srv/../etc\n", 0, -EINVAL,
	 ":1: osd_data: invalid directory \"/srv/../etc\"", NULL},
	{"osd_data trailing ..", "osd_data = /srv/..\n", 0, -EINVAL,
	 ":1: osd_data: invalid directory", NULL},
	{"osd_data a..b", "osd_data = /srv/a..b\n", 0, 0, NULL, NULL},
	{"osd_data relative", "osd_data = srv/x\n", 0, -EINVAL,
	 ":1: osd_data: invalid directory", NULL},
	{"osd_data shell", "osd_data = /srv/`id`\n", 0, -EINVAL,
	 ":1: osd_data: invalid directory", NULL},
	{"CRLF", "min_cpus = 2\r\n", 0, 0, NULL, NULL},
	/* found by the policy fuzz harness: no message at all */
	{"33 cgroups",
	 "cgroup = " CG "c0 " CG "c1 " CG "c2 " CG "c3 " CG "c4 " CG "c5 " CG
	 "c6 " CG "c7 " CG "c8 " CG "c9 " CG "c10 " CG "c11 " CG "c12 " CG
	 "c13 " CG "c14 " CG "c15 " CG "c16 " CG "c17 " CG "c18 " CG "c19 " CG
	 "c20 " CG "c21 " CG "c22 " CG "c23 " CG "c24 " CG "c25 " CG "c26 " CG
	 "c27 " CG "c28 " CG "c29 " CG "c30 " CG "c31 " CG "c32\n",
	 0, -E2BIG, NULL,
	 ":1: cgroup: more than 32 entries (accepted: at most 32 in all)"},
	{"33 users",
	 "allow_users = u0 u1 u2 u3 u4 u5 u6 u7 u8 u9 u10 u11 u12 u13 u14 u15 u16 u17 u18 u19 u20 u21 u22 u23 u24 u25 u26 u27 u28 u29 u30 u31 u32\n",
	 0, -E2BIG, NULL,
	 ":1: allow_users: more than 32 entries (accepted: at most 32 in all)"},
};

static void write_bytes(struct fake_root *r, const char *rel, const char *data,
			size_t len)
{
	FILE *f;

	fake_write(r, rel, "");
	f = fopen(fake_path(r, rel), "w");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(fake_path(r, rel), 0644), 0);
}

static void test_hostile(void **state)
{
	struct fake_root *r = *state;
	char *longline = calloc(1, 4200);
	int bad = 0;

	memcpy(longline, "cgroup = " CG, 9 + 15);
	memset(longline + 24, 'a', 4100);
	longline[24 + 4100] = '\n';
	for (size_t i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		const struct hostile *h = &hostile[i];
		const char *text = h->text ? h->text : longline;
		size_t len = h->len ? h->len : strlen(text);
		struct policy *p = NULL;
		struct ios_err err;
		char want[1024];
		int rc;

		write_bytes(r, "policy.conf", text, len);
		ios_err_clear(&err);
		rc = policy_load(fake_path(r, "policy.conf"), geteuid(), &p,
				 &err);
		if (rc != h->rc) {
			print_message(
				"hostile policy \"%s\": rc %d, want %d (%s)\n",
				h->name, rc, h->rc, err.msg);
			bad++;
		} else if (rc < 0 && (!strstr(err.msg, "policy.conf:") ||
				      strncmp(err.msg, "iostrata: ", 10) != 0 ||
				      (h->msg && !strstr(err.msg, h->msg)))) {
			print_message("hostile policy \"%s\": message \"%s\"\n",
				      h->name, err.msg);
			bad++;
		} else if (h->exact) {
			snprintf(want, sizeof(want), "iostrata: %s%s",
				 fake_path(r, "policy.conf"), h->exact);
			if (strcmp(err.msg, want) != 0) {
				print_message(
					"hostile policy \"%s\": message \"%s\", want \"%s\"\n",
					h->name, err.msg, want);
				bad++;
			}
		}
		if (rc == 0 && i == 0 &&
		    (p->n_cgroups != 1 || strcmp(p->cgroups[0], CG255) != 0)) {
			print_message("255-character cgroup not kept intact\n");
			bad++;
		}
		if (rc < 0 && p) {
			print_message(
				"hostile policy \"%s\": policy returned on error\n",
				h->name);
			bad++;
		}
		policy_free(p);
	}
	free(longline);
	print_message("%zu hostile policies, %d misbehaved\n",
		      sizeof(hostile) / sizeof(hostile[0]), bad);
	assert_int_equal(bad, 0);
}

/* No min_mem in the policy: a safe default, not 0 (row 5). */
static void test_default_min_mem(void **state)
{
	struct policy *p;
	struct ios_err err;
	struct iostrata_req r;

	assert_int_equal(load(*state, "allow_users = *\n", 0644, &p, &err), 0);
	assert_int_equal(p->min_mem, 2ULL << 30);
	memset(&r, 0, sizeof(r));
	assert_int_equal(req_parse_opt(&r, REQ_MEM, "1", NULL), 0);
	assert_int_equal(policy_check_req(p, &r, 4, &err), -ERANGE);
	assert_non_null(strstr(err.msg, "below the site minimum"));
	policy_free(p);
}

static int load_fifo(void *arg)
{
	struct policy *p = NULL;
	int rc = policy_load(fake_path(arg, "fifo.conf"), geteuid(), &p, NULL);

	return rc == -EPERM && !p ? 0 : 1;
}

/* A FIFO given as the policy is refused at once, never blocks open(). */
static void test_fifo_policy(void **state)
{
	fake_mkfifo(*state, "fifo.conf");
	switch (fake_run_bounded(load_fifo, *state, 3000)) {
	case 0:
		break;
	case -1:
		fail_msg("policy_load blocked on a FIFO");
		break;
	default:
		fail_msg("policy_load accepted a FIFO");
	}
}

struct req_case {
	const char *cpus, *mem, *bw, *iops, *profile;
	unsigned online;
	int rc;
};

static const struct req_case req_cases[] = {
	{"2", "8G", "50M", "100", NULL, 4, 0},
	{NULL, NULL, NULL, NULL, "small", 4, 0},
	{"1", NULL, NULL, NULL, NULL, 4, -ERANGE},  /* below min_cpus */
	{"5", NULL, NULL, NULL, NULL, 4, -ERANGE},  /* more than online */
	{"5", NULL, NULL, NULL, NULL, 0, 0},        /* submit: unknown */
	{NULL, "1G", NULL, NULL, NULL, 4, -ERANGE}, /* below min_mem */
	{NULL, NULL, "1M", NULL, NULL, 4, -ERANGE}, /* below min bw */
	{NULL, NULL, "50M,1M", NULL, NULL, 4, -ERANGE},
	{NULL, NULL, NULL, "10", NULL, 4, -ERANGE},
	{NULL, NULL, NULL, NULL, "nope", 4, -ENOENT}, /* unknown profile */
	{"1", NULL, NULL, NULL, "small", 4, -ERANGE}, /* explicit wins */
};

static void test_req_checks(void **state)
{
	struct policy *p;
	struct ios_err err;

	assert_int_equal(load(*state, good, 0644, &p, &err), 0);
	for (size_t i = 0; i < sizeof(req_cases) / sizeof(req_cases[0]); i++) {
		const struct req_case *c = &req_cases[i];
		struct iostrata_req r;
		int rc;

		memset(&r, 0, sizeof(r));
		if (c->cpus)
			assert_int_equal(
				req_parse_opt(&r, REQ_CPUS, c->cpus, NULL), 0);
		if (c->mem)
			assert_int_equal(
				req_parse_opt(&r, REQ_MEM, c->mem, NULL), 0);
		if (c->bw)
			assert_int_equal(
				req_parse_opt(&r, REQ_DISK_BW, c->bw, NULL), 0);
		if (c->iops)
			assert_int_equal(
				req_parse_opt(&r, REQ_DISK_IOPS, c->iops, NULL),
				0);
		if (c->profile)
			assert_int_equal(req_parse_opt(&r, REQ_PROFILE,
						       c->profile, NULL),
					 0);
		ios_err_clear(&err);
		rc = policy_check_req(p, &r, c->online, &err);
		if (rc != c->rc)
			fail_msg("req case %zu: rc %d want %d (%s)", i, rc,
				 c->rc, err.msg);
		if (rc < 0)
			assert_non_null(strstr(err.msg, "--iostrata-"));
		if (i == 1) {
			assert_int_equal(r.cpus, 2);
			assert_int_equal(r.mem, 8ULL << 30);
			assert_int_equal(r.wbps, 50ULL << 20);
		}
	}
	policy_free(p);
}

static void test_throttle_needs_targets(void **state)
{
	struct policy *p;
	struct ios_err err;
	struct iostrata_req r;

	assert_int_equal(load(*state, "min_cpus = 1\n", 0644, &p, &err), 0);
	memset(&r, 0, sizeof(r));
	assert_int_equal(req_parse_opt(&r, REQ_DISK_BW, "50M", NULL), 0);
	assert_int_equal(policy_check_req(p, &r, 2, &err), -ERANGE);
	assert_non_null(strstr(err.msg, "no device or cgroup"));
	policy_free(p);
	/* OSDs named: their cgroups and devices are found on the node */
	assert_int_equal(load(*state, "osds = auto\n", 0644, &p, &err), 0);
	assert_int_equal(policy_check_req(p, &r, 2, &err), 0);
	policy_free(p);
}

static void test_users(void **state)
{
	struct policy *p;
	struct ios_err err;

	assert_int_equal(load(*state, good, 0644, &p, &err), 0);
	assert_int_equal(policy_check_user(p, 1000, "alice", NULL, &err), 0);
	assert_int_equal(policy_check_user(p, 1002, "carol", "storage", &err),
			 0);
	assert_int_equal(policy_check_user(p, 1002, "carol", "other", &err),
			 -EPERM);
	assert_non_null(strstr(err.msg, "carol"));
	assert_int_equal(policy_check_user(p, 1002, NULL, NULL, &err), -EPERM);
	policy_free(p);
	assert_int_equal(load(*state, "allow_users = *\n", 0644, &p, &err), 0);
	assert_int_equal(policy_check_user(p, 5, "x", NULL, &err), 0);
	policy_free(p);
	/* empty policy: nobody */
	assert_int_equal(load(*state, "\n", 0644, &p, &err), 0);
	assert_int_equal(policy_check_user(p, 0, "root", "root", &err), -EPERM);
	policy_free(p);
}

static void test_shipped_policies(void **state)
{
	const char *src = getenv("IOSTRATA_SRCDIR");
	const char *files[] = {"site/local/policy.conf",
			       "site/example/policy.conf"};
	struct fake_root *r = *state;

	if (!src)
		skip();
	for (int i = 0; i < 2; i++) {
		char path[4096], *text;
		struct policy *p;
		struct ios_err err;
		FILE *f;
		long n;

		snprintf(path, sizeof(path), "%s/%s", src, files[i]);
		f = fopen(path, "r");
		assert_non_null(f);
		fseek(f, 0, SEEK_END);
		n = ftell(f);
		rewind(f);
		text = calloc(1, (size_t)n + 1);
		assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
		fclose(f);
		/* a copy we own: the shipped file's owner is the checkout's */
		if (load(r, text, 0644, &p, &err) != 0)
			fail_msg("%s: %s", files[i], err.msg);
		assert_true(p->n_profiles > 0);
		policy_free(p);
		free(text);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_refused_files),
		cmocka_unit_test(test_bad_lines),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_default_min_mem),
		cmocka_unit_test(test_fifo_policy),
		cmocka_unit_test(test_req_checks),
		cmocka_unit_test(test_throttle_needs_targets),
		cmocka_unit_test(test_users),
		cmocka_unit_test(test_shipped_policies),
	};

	return cmocka_run_group_tests_name("policy", tests, setup, teardown);
}
