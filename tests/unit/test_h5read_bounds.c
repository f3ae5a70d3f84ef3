/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_h5read_bounds: the reader against hostile files: the bound table,
 * datasets that claim more than the file stores, one-row key/value tables,
 * control characters in printed text, counts and string attributes beyond
 * their limits.  (The round trip, the validator and the atomic write:
 * test_h5run.c; the fixture: h5_fx.c.)
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <hdf5.h>

#include "h5run.h"
#include "h5run_internal.h"
#include "schema.h"
#include "sanitizer.h"
#include "synth.h"

#include "h5_fx.h"

/* Issue 11 row 8: the reader's bound on one dataset, table-driven. */
static void test_bound_table(void **state)
{
	static const uint64_t big = 1u << 25, need = big * 8; /* 256 MiB */
	static const struct {
		uint64_t nelem, fesz, mesz, stored;
		bool filtered;
		uint64_t chunk;
		int rc;
	} c[] = {
		{0, 8, 8, 0, false, 0, 0},
		{1000, 8, 8, 8000, false, 0, 0},
		{1000, 8, 8, 7999, false, 0, -EBADMSG},
		/* the 51 KB file: chunked, nothing written */
		{big, 8, 8, 0, false, 32768, -EBADMSG},
		{big, 8, 8, 0, true, 32768, -EBADMSG},
		/* zeros through shuffle + deflate level 1 (measured 213:1),
		 * and level 9 (780:1) */
		{big, 8, 8, need / 213, true, 32768, 0},
		{big, 8, 8, need / 780, true, 32768, 0},
		{big, 8, 8, need / IOS_H5_MAX_EXPANSION, true, 32768, -EBADMSG},
		{big, 8, 8, need / IOS_H5_MAX_EXPANSION + 1, true, 32768, 0},
		{IOS_H5_MAX_DATASET_BYTES / 8, 8, 8, IOS_H5_MAX_DATASET_BYTES,
		 false, 0, 0},
		{IOS_H5_MAX_DATASET_BYTES / 8 + 1, 8, 8, UINT64_MAX, false, 0,
		 -EFBIG},
		{UINT64_MAX / 4, 8, 0, UINT64_MAX, false, 0, -EFBIG},
		/* a 16 MiB chunk for 128 bytes; 1 MiB is always fine */
		{16, 8, 8, 128, false, 1u << 24, -EFBIG},
		{16, 8, 8, 128, false, 1u << 20, 0},
		/* key/value rows: 16 bytes per the file type, 32 stored */
		{4, 16, 16, 128, false, 0, 0},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(*c); i++) {
		int rc = ios_h5_bound(c[i].nelem, c[i].fesz, c[i].mesz,
				      c[i].stored, c[i].filtered, c[i].chunk);

		if (rc != c[i].rc)
			fail_msg("case %zu: %d, want %d", i, rc, c[i].rc);
	}
}

/* Replace the sample_bytes of the first repetition by a chunked
 * [rows] x 2^24 dataset with nothing written, deflated when [filtered]. */
static void unwritten_samples(const char *path, hsize_t rows, bool filtered)
{
	hsize_t dims[2] = {rows, 1u << 24}, chunk[2] = {1, 4096};
	hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT), sp, dcpl, d;

	assert_true(f >= 0);
	assert_true(H5Ldelete(f, "phases/0/reps/0/sample_bytes", H5P_DEFAULT) >=
		    0);
	sp = H5Screate_simple(2, dims, NULL);
	dcpl = H5Pcreate(H5P_DATASET_CREATE);
	H5Pset_chunk(dcpl, 2, chunk);
	if (filtered) {
		H5Pset_shuffle(dcpl);
		H5Pset_deflate(dcpl, 1);
	}
	d = H5Dcreate2(f, "phases/0/reps/0/sample_bytes", H5T_STD_U64LE, sp,
		       H5P_DEFAULT, dcpl, H5P_DEFAULT);
	assert_true(d >= 0);
	H5Dclose(d);
	H5Pclose(dcpl);
	H5Sclose(sp);
	assert_true(H5Fclose(f) >= 0);
}

#ifndef UNDER_ASAN
/* Read [path] in a child whose address space may grow by [slack] bytes
 * only: its ios_h5_read_run code (-ENOMEM when it needed more). */
static int read_in_child(const char *path, unsigned long long slack)
{
	pid_t pid = fork();
	int st;

	assert_true(pid >= 0);
	if (pid == 0) {
		struct ios_err err = {0};
		struct ios_run *run = NULL;
		unsigned long long pages = 0;
		FILE *fp = fopen("/proc/self/statm", "r");
		struct rlimit rl;

		if (!fp || fscanf(fp, "%llu", &pages) != 1)
			_exit(100);
		fclose(fp);
		rl.rlim_cur = rl.rlim_max =
			pages * (unsigned long long)sysconf(_SC_PAGESIZE) +
			slack;
		if (setrlimit(RLIMIT_AS, &rl) < 0)
			_exit(101);
		_exit(-ios_h5_read_run(path, &run, &err));
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	return -WEXITSTATUS(st);
}
#endif

/*
 * A 51 KB results file declaring a chunked 2 x 2^24 sample dataset with
 * nothing written made the reader allocate 275 MB: now it is refused,
 * naming the file, the dataset and the sizes, within 64 MiB of address
 * space (plain and deflated chunks).
 */
static void test_unwritten_huge(void **state)
{
	struct fx *fx = *state;
	struct ios_synth s;
	struct ios_err err = {0};
	struct ios_run *run, *back = NULL;
	struct stat st;
	char path[160];

	ios_synth_defaults(&s);
	s.nnodes = 1;
	s.nreps = 1;
	s.phases = "write";
	run = ios_synth_run(&s);
	assert_non_null(run);
	snprintf(path, sizeof(path), "%s/huge.h5", fx->dir);
	for (int filtered = 0; filtered < 2; filtered++) {
		assert_int_equal(ios_h5_write_run(path, run, &err), 0);
		unwritten_samples(path, 2, filtered);
		assert_int_equal(stat(path, &st), 0);
		assert_true(st.st_size < 100000);
		assert_int_equal(ios_h5_read_run(path, &back, &err), -EBADMSG);
		assert_null(back);
		if (!strstr(err.msg, path) ||
		    !strstr(err.msg,
			    "/phases/0/reps/0: dataset 'sample_bytes'") ||
		    !strstr(err.msg,
			    "declares 33554432 elements of 8 bytes (268435456 bytes)") ||
		    !strstr(err.msg, "stores 0 bytes") ||
		    !strstr(err.msg, "1073741824"))
			fail_msg("%s", err.msg);
#ifndef UNDER_ASAN
		/* ASan reserves terabytes of address space: no RLIMIT_AS */
		assert_int_equal(read_in_child(path, 64ull << 20), -EBADMSG);
#endif
	}
	ios_synth_free(run);
}

/* A key/value table of one row (a run with one option) reads back. */
static void test_one_row_kv(void **state)
{
	struct fx *fx = *state;
	struct ios_err err = {0};
	struct ios_run *b = NULL;

	for (size_t i = 1; i < fx->run->nconfig; i++) {
		free(fx->run->config[i].key);
		free(fx->run->config[i].value);
	}
	fx->run->nconfig = 1;
	write_ok(fx);
	if (ios_h5_read_run(fx->path, &b, &err) != 0)
		fail_msg("%s", err.msg);
	assert_int_equal(b->nconfig, 1);
	assert_string_equal(b->config[0].key, fx->run->config[0].key);
	assert_string_equal(b->config[0].value, fx->run->config[0].value);
	ios_run_free(b);
}

/* Text from a file reaches a terminal without its control sequences. */
static void test_read_sanitizes_text(void **state)
{
	struct fx *fx = *state;
	struct ios_err err = {0};
	struct ios_run *b = NULL;
	static const char esc[] = "a\033]0;owned\007\033[2Jb\nc\302\233d";

	free(fx->run->config[0].value);
	fx->run->config[0].value = strdup(esc);
	free(fx->run->verdict);
	fx->run->verdict = strdup("line 1\n\033[31mline 2\t.");
	snprintf(fx->run->rank_info[0].host, sizeof(fx->run->rank_info[0].host),
		 "n\0331");
	snprintf(fx->run->phases[0].reps[0].invalid_reason,
		 sizeof(fx->run->phases[0].reps[0].invalid_reason),
		 "x\ry\033z");
	write_ok(fx);
	if (ios_h5_read_run(fx->path, &b, &err) != 0)
		fail_msg("%s", err.msg);
	assert_string_equal(b->config[0].value, "a?]0;owned??[2Jb?c??d");
	assert_string_equal(b->verdict, "line 1\n?[31mline 2\t.");
	assert_string_equal(b->rank_info[0].host, "n?1");
	assert_string_equal(b->phases[0].reps[0].invalid_reason, "x?y?z");
	ios_run_free(b);
}

/* Write a variable-length string attribute [name] of [obj] ([n] bytes). */
static void set_attr_long_str(const char *path, const char *obj,
			      const char *name, size_t n)
{
	hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT), t, sp, a;
	char *s = malloc(n + 1);

	assert_true(f >= 0);
	assert_non_null(s);
	memset(s, 'x', n);
	s[n] = '\0';
	assert_true(H5Adelete_by_name(f, obj, name, H5P_DEFAULT) >= 0);
	t = H5Tcopy(H5T_C_S1);
	H5Tset_size(t, H5T_VARIABLE);
	sp = H5Screate(H5S_SCALAR);
	a = H5Acreate_by_name(f, obj, name, t, sp, H5P_DEFAULT, H5P_DEFAULT,
			      H5P_DEFAULT);
	assert_true(a >= 0);
	assert_true(H5Awrite(a, t, &s) >= 0);
	H5Aclose(a);
	H5Sclose(sp);
	H5Tclose(t);
	H5Fclose(f);
	free(s);
}

/* Counts promise no more than the groups hold; strings are bounded. */
static void test_counts_and_strings(void **state)
{
	static const struct {
		const char *obj, *attr, *msg;
	} c[] = {
		{"/", "nnodes", "nnodes 16777216, but the group holds 3"},
		{"/", "nphases", "nphases 16777216, but the group holds 2"},
		{"/phases/0", "nreps", "nreps 16777216, but the group holds 3"},
	};
	struct fx *fx = *state;
	struct ios_err err = {0};
	struct ios_run *b = NULL;

	for (size_t i = 0; i < sizeof(c) / sizeof(*c); i++) {
		write_ok(fx);
		set_attr_int(fx->path, c[i].obj, c[i].attr, 1 << 24);
		assert_int_equal(ios_h5_read_run(fx->path, &b, &err), -ERANGE);
		if (!strstr(err.msg, c[i].msg))
			fail_msg("%s: %s", c[i].attr, err.msg);
	}
	write_ok(fx);
	set_attr_long_str(fx->path, "/", "command_line", IOS_H5_MAX_STRING + 1);
	assert_int_equal(ios_h5_read_run(fx->path, &b, &err), -EFBIG);
	if (!strstr(err.msg,
		    "attribute 'command_line' is a string of 1048577 bytes"))
		fail_msg("%s", err.msg);
	write_ok(fx);
	set_attr_long_str(fx->path, "/", "command_line", IOS_H5_MAX_STRING);
	assert_int_equal(ios_h5_read_run(fx->path, &b, &err), 0);
	assert_int_equal(strlen(b->command_line), IOS_H5_MAX_STRING);
	ios_run_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bound_table),
		cmocka_unit_test_setup_teardown(test_unwritten_huge, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_one_row_kv, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_read_sanitizes_text, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_counts_and_strings, setup,
						teardown),
	};

	return cmocka_run_group_tests_name("h5read_bounds", tests, NULL, NULL);
}
