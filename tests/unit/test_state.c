/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_state: state directory checks, journal round trip and corruption,
 * no symlinks followed, the lock.
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
#include "state.h"

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

static void fill(struct snapshot *s)
{
	static struct snap_item cpu[] = {{1, true}, {2, false}};
	static struct snap_item mem[] = {{1, true}, {5, true}, {7, false}};
	static struct snap_thr thr[1];

	memset(s, 0, sizeof(*s));
	snprintf(s->jobid, sizeof(s->jobid), "1234");
	snprintf(s->node, sizeof(s->node), "n1");
	s->uid = 1000;
	s->time = 42;
	s->cpu = cpu;
	s->n_cpu = 2;
	s->block_size = 134217728;
	s->mem = mem;
	s->n_mem = 3;
	snprintf(thr[0].cg, sizeof(thr[0].cg), "/sys/fs/cgroup/blkio/osd.0");
	thr[0].ver = BLKIO_V1;
	thr[0].dev.maj = 254;
	thr[0].lim.wbps = 5;
	s->thr = thr;
	s->n_thr = 1;
}

static void test_open_checks(void **state)
{
	struct fake_root *r = *state;
	struct state_dir sd;
	struct ios_err err;

	assert_int_equal(state_open(&sd, fake_path(r, "st"), true, &err), 0);
	state_close(&sd);
	/* group-writable */
	chmod(fake_path(r, "st"), 0775);
	assert_int_equal(state_open(&sd, fake_path(r, "st"), false, &err),
			 -EPERM);
	chmod(fake_path(r, "st"), 0755);
	/* journal/ readable by others */
	chmod(fake_path(r, "st/journal"), 0755);
	assert_int_equal(state_open(&sd, fake_path(r, "st"), false, &err),
			 -EPERM);
	chmod(fake_path(r, "st/journal"), 0700);
	/* the state dir is a symlink */
	fake_symlink(r, "st", "link");
	assert_int_equal(state_open(&sd, fake_path(r, "link"), false, &err),
			 -ELOOP);
	/* journal/ is a symlink */
	fake_mkdir(r, "st2");
	chmod(fake_path(r, "st2"), 0755);
	fake_symlink(r, "../st/journal", "st2/journal");
	assert_int_equal(state_open(&sd, fake_path(r, "st2"), true, &err),
			 -ELOOP);
	/* relative or ".." */
	assert_int_equal(state_open(&sd, "relative", true, &err), -EINVAL);
	assert_int_equal(state_open(&sd, "/tmp/../etc", true, &err), -EINVAL);
	/* missing without create */
	assert_int_equal(state_open(&sd, fake_path(r, "none"), false, &err),
			 -ENOENT);
}

static void test_journal_roundtrip(void **state)
{
	struct fake_root *r = *state;
	struct state_dir sd;
	struct snapshot s, g;
	struct ios_err err;
	char **ids;
	size_t n;
	struct stat st;

	assert_int_equal(state_open(&sd, fake_path(r, "st"), true, &err), 0);
	fill(&s);
	assert_int_equal(state_journal_write(&sd, &s), 0);
	assert_int_equal(stat(fake_path(r, "st/journal/1234.state"), &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(state_journal_read(&sd, "1234", &g, &err), 0);
	assert_string_equal(g.node, "n1");
	assert_int_equal(g.uid, 1000);
	assert_int_equal(g.n_cpu, 2);
	assert_false(g.cpu[1].online);
	assert_int_equal(g.n_mem, 3);
	assert_int_equal(g.mem[1].id, 5);
	assert_int_equal(g.block_size, 134217728);
	assert_int_equal(g.n_thr, 1);
	assert_string_equal(g.thr[0].cg, "/sys/fs/cgroup/blkio/osd.0");
	assert_int_equal(g.thr[0].lim.wbps, 5);
	assert_int_equal(g.n_ioen, 0);
	snapshot_free(&g);
	/* the cgroup2 parents the apply enables io in, in order */
	s.n_ioen = 2;
	s.ioen = calloc(2, sizeof(*s.ioen));
	assert_non_null(s.ioen);
	snprintf(s.ioen[0].cg, sizeof(s.ioen[0].cg), "/sys/fs/cgroup");
	snprintf(s.ioen[1].cg, sizeof(s.ioen[1].cg),
		 "/sys/fs/cgroup/system.slice");
	assert_int_equal(state_journal_write(&sd, &s), 0);
	assert_int_equal(state_journal_read(&sd, "1234", &g, &err), 0);
	assert_int_equal(g.n_ioen, 2);
	assert_string_equal(g.ioen[0].cg, "/sys/fs/cgroup");
	assert_string_equal(g.ioen[1].cg, "/sys/fs/cgroup/system.slice");
	snapshot_free(&g);
	/* the OSD memory targets: old value, own entry, new value */
	s.n_omt = 1;
	s.omt = calloc(1, sizeof(*s.omt));
	assert_non_null(s.omt);
	s.omt[0].id = 3;
	s.omt[0].explicit_old = true;
	s.omt[0].old_bytes = 4294967296ULL;
	s.omt[0].new_bytes = UINT64_MAX;
	snprintf(s.ceph.conf, sizeof(s.ceph.conf), "/etc/ceph/a.conf");
	s.ceph.timeout_ms = 500;
	assert_int_equal(state_journal_write(&sd, &s), 0);
	assert_int_equal(state_journal_read(&sd, "1234", &g, &err), 0);
	assert_int_equal(g.n_omt, 1);
	assert_int_equal(g.omt[0].id, 3);
	assert_true(g.omt[0].explicit_old);
	assert_int_equal(g.omt[0].old_bytes, 4294967296ULL);
	assert_int_equal(g.omt[0].new_bytes, UINT64_MAX);
	assert_string_equal(g.ceph.path, "");
	assert_string_equal(g.ceph.conf, "/etc/ceph/a.conf");
	assert_int_equal(g.ceph.timeout_ms, 500);
	snapshot_free(&g);
	free(s.omt);
	s.omt = NULL;
	s.n_omt = 0;
	/* never journalled where the reader would refuse it */
	snprintf(s.ioen[1].cg, sizeof(s.ioen[1].cg), "/etc");
	assert_int_equal(state_journal_write(&sd, &s), -EINVAL);
	free(s.ioen);
	s.ioen = NULL;
	s.n_ioen = 0;
	assert_int_equal(state_journal_list(&sd, &ids, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(ids[0], "1234");
	state_list_free(ids, n);
	assert_int_equal(state_journal_read(&sd, "999", &g, &err), -ENOENT);
	assert_int_equal(state_journal_remove(&sd, "1234"), 0);
	assert_int_equal(state_journal_remove(&sd, "1234"), 0); /* twice */
	assert_int_equal(state_journal_read(&sd, "1234", &g, &err), -ENOENT);
	/* invalid ids never reach the file system */
	s.jobid[0] = '.';
	assert_int_equal(state_journal_write(&sd, &s), -EINVAL);
	assert_int_equal(state_journal_read(&sd, "../x", &g, &err), -EINVAL);
	assert_false(state_valid_id("a/b"));
	assert_false(state_valid_id(""));
	assert_true(state_valid_id("1234_5"));
	state_close(&sd);
}

static void test_journal_corrupt(void **state)
{
	static const char *const bad[] = {
		"",                             /* empty */
		"iostrata-journal 1\njob 77\n", /* truncated: no end */
		"iostrata-journal 2\njob 77\nend\n",
		"iostrata-journal 1\njob 77\ncpu x 1\nend\n",
		"iostrata-journal 1\njob 77\nthr 3 254:0 0 0 0 0 /x\nend\n",
		"iostrata-journal 1\njob 77\nthr 1 254:0 0 0 0 0 rel\nend\n",
		"iostrata-journal 1\njob 78\nend\n", /* other job */
		"iostrata-journal 1\njob 77\nend\ncpu 1 1\n",
		"iostrata-journal 1\njob 77\nrm -rf /\nend\n",
	};
	struct fake_root *r = *state;
	struct state_dir sd;
	struct snapshot g;
	struct ios_err err;

	assert_int_equal(state_open(&sd, fake_path(r, "st"), true, &err), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		fake_write(r, "st/journal/77.state", bad[i]);
		chmod(fake_path(r, "st/journal/77.state"), 0600);
		if (state_journal_read(&sd, "77", &g, &err) != -EINVAL)
			fail_msg("corrupt journal %zu accepted", i);
		assert_non_null(strstr(err.msg, "77.state"));
	}
	/* a symlinked journal is never followed */
	unlink(fake_path(r, "st/journal/77.state"));
	fake_write(r, "target", "iostrata-journal 1\njob 77\nend\n");
	fake_symlink(r, "../../target", "st/journal/77.state");
	assert_int_not_equal(state_journal_read(&sd, "77", &g, &err), 0);
	unlink(fake_path(r, "st/journal/77.state"));
	/* world-writable journal refused */
	fake_write(r, "st/journal/77.state",
		   "iostrata-journal 1\njob 77\nend\n");
	chmod(fake_path(r, "st/journal/77.state"), 0666);
	assert_int_equal(state_journal_read(&sd, "77", &g, &err), -EPERM);
	chmod(fake_path(r, "st/journal/77.state"), 0600);
	assert_int_equal(state_journal_read(&sd, "77", &g, &err), 0);
	snapshot_free(&g);
	state_close(&sd);
}

#define H "iostrata-journal 1\njob 77\n"
#define BYTES(s) s, sizeof(s) - 1
#define CG "/sys/fs/cgroup/"
#define A10 "aaaaaaaaaa"
#define A100 A10 A10 A10 A10 A10 A10 A10 A10 A10 A10
#define X100                                                                   \
	"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"

/* Hostile journals (bytes as given, NULs included): all refused with
 * -EINVAL and file:line, except the control case. */
static const struct {
	const char *name, *text;
	size_t len;
	int rc;
} hostile_j[] = {
	{"control", BYTES(H "cpu 1 1\nthr 1 254:0 1 2 3 4 " CG "a\nend\n"), 0},
	{"cut mid-line", BYTES(H "thr 1 254:0 1 2"), -EINVAL},
	{"jobcg of this job",
	 BYTES(H "jobcg /sys/fs/cgroup/blkio/iostrata.job_77\nend\n"), 0},
	{"jobcg of another job",
	 BYTES(H "jobcg /sys/fs/cgroup/blkio/iostrata.job_78\nend\n"), -EINVAL},
	{"jobcg elsewhere", BYTES(H "jobcg " CG "iostrata.job_77\nend\n"),
	 -EINVAL},
	{"jobcg twice",
	 BYTES(H
	       "jobcg /sys/fs/cgroup/blkio/iostrata.job_77\njobcg /sys/fs/cgroup/blkio/iostrata.job_77\nend\n"),
	 -EINVAL},
	{"no newline after end", BYTES(H "end"), -EINVAL},
	{"thr /etc/passwd", BYTES(H "thr 1 254:0 0 0 0 0 /etc/passwd\nend\n"),
	 -EINVAL},
	{"thr escapes with ..",
	 BYTES(H "thr 1 254:0 5 5 5 5 " CG "../../victim\nend\n"), -EINVAL},
	{"thr ./", BYTES(H "thr 1 254:0 0 0 0 0 " CG "a/./b\nend\n"), -EINVAL},
	{"thr trailing junk",
	 BYTES(H "thr 1 254:0 0 0 0 0 " CG "a junk\nend\n"), -EINVAL},
	{"thr cgroup 300 chars",
	 BYTES(H "thr 1 254:0 0 0 0 0 " CG A100 A100 A100 "\nend\n"), -EINVAL},
	{"overlong line hiding end",
	 BYTES(H "node " X100 X100 X100 X100 X100 "xxxxxx"
		 "end\n"),
	 -EINVAL},
	{"NUL in line", BYTES(H "cpu 1 1\0junk\nend\n"), -EINVAL},
	{"cpu id overflow", BYTES(H "cpu 99999999999 1\nend\n"), -EINVAL},
	{"cpu state 7", BYTES(H "cpu 1 7\nend\n"), -EINVAL},
	{"cpu0", BYTES(H "cpu 0 1\nend\n"), -EINVAL},
	{"negative mem id", BYTES(H "mem -1 1\nend\n"), -EINVAL},
	{"memblock overflow",
	 BYTES(H "memblock 99999999999999999999999\nend\n"), -EINVAL},
	{"uid overflow", BYTES(H "uid 4294967296\nend\n"), -EINVAL},
	{"negative time", BYTES(H "time -5\nend\n"), -EINVAL},
	{"job twice", BYTES("iostrata-journal 1\njob 78\njob 77\nend\n"),
	 -EINVAL},
	{"job with junk", BYTES("iostrata-journal 1\njob 77 extra\nend\n"),
	 -EINVAL},
	{"major out of range", BYTES(H "thr 1 99999:0 0 0 0 0 " CG "a\nend\n"),
	 -EINVAL},
	{"limit 2^64",
	 BYTES(H "thr 2 254:0 18446744073709551616 0 0 0 " CG "a\nend\n"),
	 -EINVAL},
	{"two spaces", BYTES(H "cpu  1 1\nend\n"), -EINVAL},
	{"header only", BYTES("iostrata-journal 1\n"), -EINVAL},
	/* cgroup2 parents given "+io" by the apply */
	{"ioen",
	 BYTES(H "ioen /sys/fs/cgroup\nioen " CG "a\\x2db.slice\nend\n"), 0},
	{"ioen outside cgroupfs", BYTES(H "ioen /etc\nend\n"), -EINVAL},
	{"ioen ..", BYTES(H "ioen " CG "a/../..\nend\n"), -EINVAL},
	{"ioen /sys/fs/cgroup/", BYTES(H "ioen /sys/fs/cgroup/\nend\n"),
	 -EINVAL},
	{"ioen two words", BYTES(H "ioen " CG "a " CG "b\nend\n"), -EINVAL},
	{"ioen empty", BYTES(H "ioen\nend\n"), -EINVAL},
	/* OSD memory targets (policy osd_memory_target = share) */
	{"omt", BYTES(H "omt 0 0 4294967296 1073741824\nomt 7 1 1 2\nend\n"),
	 0},
	{"ceph line", BYTES(H "ceph - - 30000\nomt 0 0 1 2\nend\n"), 0},
	{"ceph paths", BYTES(H "ceph /usr/bin/ceph /etc/ceph/x.conf 1\nend\n"),
	 0},
	{"ceph relative", BYTES(H "ceph bin/ceph - 30000\nend\n"), -EINVAL},
	{"ceph ..", BYTES(H "ceph /usr/../bin/sh - 30000\nend\n"), -EINVAL},
	{"ceph timeout 0", BYTES(H "ceph - - 0\nend\n"), -EINVAL},
	{"ceph shell chars", BYTES(H "ceph /bin/ceph;reboot - 1\nend\n"),
	 -EINVAL},
	{"omt own entry 2", BYTES(H "omt 0 2 1 2\nend\n"), -EINVAL},
	{"omt negative id", BYTES(H "omt -1 0 1 2\nend\n"), -EINVAL},
	{"omt value 2^64", BYTES(H "omt 0 0 18446744073709551616 1\nend\n"),
	 -EINVAL},
	{"omt short", BYTES(H "omt 0 0 1\nend\n"), -EINVAL},
	{"omt long", BYTES(H "omt 0 0 1 2 3\nend\n"), -EINVAL},
};

static void test_journal_hostile(void **state)
{
	struct fake_root *r = *state;
	struct state_dir sd;
	struct snapshot g;
	struct ios_err err;
	int bad = 0;

	assert_int_equal(state_open(&sd, fake_path(r, "st"), true, &err), 0);
	for (size_t i = 0; i < sizeof(hostile_j) / sizeof(hostile_j[0]); i++) {
		FILE *f;
		int rc;

		f = fopen(fake_path(r, "st/journal/77.state"), "w");
		assert_non_null(f);
		assert_int_equal(
			fwrite(hostile_j[i].text, 1, hostile_j[i].len, f),
			hostile_j[i].len);
		assert_int_equal(fclose(f), 0);
		chmod(fake_path(r, "st/journal/77.state"), 0600);
		ios_err_clear(&err);
		rc = state_journal_read(&sd, "77", &g, &err);
		if (rc != hostile_j[i].rc) {
			print_message(
				"hostile journal \"%s\": rc %d, want %d\n",
				hostile_j[i].name, rc, hostile_j[i].rc);
			bad++;
		} else if (rc < 0 && !strstr(err.msg, "77.state:")) {
			print_message(
				"hostile journal \"%s\": message \"%s\"\n",
				hostile_j[i].name, err.msg);
			bad++;
		}
		if (rc == 0)
			snapshot_free(&g);
	}
	print_message("%zu hostile journals, %d misbehaved\n",
		      sizeof(hostile_j) / sizeof(hostile_j[0]), bad);
	assert_int_equal(bad, 0);
	state_close(&sd);
}

static int read_fifo(void *arg)
{
	struct snapshot g;

	return state_journal_read(arg, "88", &g, NULL) == -EPERM ? 0 : 1;
}

/* A FIFO in the journal directory is refused, never blocks the reader. */
static void test_journal_fifo(void **state)
{
	struct fake_root *r = *state;
	struct state_dir sd;
	struct ios_err err;
	int rc;

	assert_int_equal(state_open(&sd, fake_path(r, "st"), true, &err), 0);
	fake_mkfifo(r, "st/journal/88.state");
	rc = fake_run_bounded(read_fifo, &sd, 3000);
	state_close(&sd);
	if (rc == -1)
		fail_msg("state_journal_read blocked on a FIFO");
	assert_int_equal(rc, 0);
}

static void test_lock(void **state)
{
	struct fake_root *r = *state;
	struct state_dir sd;
	struct ios_err err;
	int a, b;

	assert_int_equal(state_open(&sd, fake_path(r, "st"), true, &err), 0);
	a = state_lock(&sd, 100);
	assert_true(a >= 0);
	b = state_lock(&sd, 50);
	assert_int_equal(b, -ETIMEDOUT);
	state_unlock(a);
	b = state_lock(&sd, 50);
	assert_true(b >= 0);
	state_unlock(b);
	state_close(&sd);
}

static void test_public(void **state)
{
	struct fake_root *r = *state;
	struct state_dir sd;
	struct ios_err err;
	char buf[64];

	assert_int_equal(state_open(&sd, fake_path(r, "st"), true, &err), 0);
	assert_int_equal(state_write_public(&sd, "1.env", "A=1\n", 4, 0644), 0);
	assert_int_equal(state_read_public(&sd, "1.env", buf, sizeof(buf)), 4);
	assert_string_equal(buf, "A=1\n");
	assert_int_equal(state_write_public(&sd, "../x", "", 0, 0644), -EINVAL);
	assert_int_equal(state_read_public(&sd, "a/b", buf, sizeof(buf)),
			 -EINVAL);
	fake_symlink(r, "1.env", "st/2.env");
	assert_true(state_read_public(&sd, "2.env", buf, sizeof(buf)) < 0);
	assert_int_equal(state_remove_public(&sd, "1.env"), 0);
	assert_int_equal(state_remove_public(&sd, "1.env"), 0);
	state_close(&sd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_open_checks, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_journal_roundtrip, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_journal_corrupt, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_journal_hostile, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_journal_fifo, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_lock, setup, teardown),
		cmocka_unit_test_setup_teardown(test_public, setup, teardown),
	};

	return cmocka_run_group_tests_name("state", tests, NULL, NULL);
}
