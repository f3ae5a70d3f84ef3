/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_h5iso: the isolated reader (h5schema/h5iso.c) and its answer's
 * decoder (runwire.c): a good file reads exactly as the trusted reader
 * reads it; files that crash or hang libhdf5 (regression inputs in
 * tests/fuzz/corpus/h5run/) are errors naming the file and what happened,
 * and this process goes on; the limits, the input checks, the privilege
 * drop under root, and a decoder that survives every truncation and
 * random corruption of a valid answer.
 *
 * The crash and the hang come from two sources: a stand-in libhdf5 entry
 * (tests/fakes/h5fault.c, linked in) on every platform, and the real
 * regression inputs wherever this libhdf5 still crashes or loops on them
 * (1.10 does, 1.14 does not: probed first, and said when skipped).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <hdf5.h>

#include "h5fault.h"
#include "h5iso.h"
#include "h5run.h"
#include "h5run_internal.h"
#include "runwire.h"
#include "sanitizer.h"
#include "synth.h"

#define CRASHER "regress-gheap-huge-object-segv"
#define HANGER "regress-gheap-wrapped-object-hang"

struct fx {
	char dir[64];
	char good[128], other[128];
	char fcrash[128], fhang[128];         /* the stand-in's */
	char crash[PATH_MAX], hang[PATH_MAX]; /* the real inputs' */
	struct ios_run *run;
};

/* Whether this libhdf5 crashes (1) and loops (2) on the real inputs:
 * probed once, in a child. */
static int real_faults = -1;

static const struct ios_h5_iso_limits quick = {
	.cpu_s = 1,
	.wall_s = 10,
};

static void corpus(char *out, size_t len, const char *name)
{
	const char *src = getenv("IOSTRATA_SRCDIR");

	assert_true((size_t)snprintf(out, len, "%s/tests/fuzz/corpus/h5run/%s",
				     src ? src : "..", name) < len);
}

/* 'c' when reading [path] in a child kills it, 'h' when it does not
 * return in 10 s, 0 when it returns. */
static int probe(const char *path)
{
	int st;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		struct ios_err err = {0};

		/* cmocka's handlers would turn the expected crash into a
		 * failed test in this child, which then runs the rest of the
		 * group: die of the signal instead */
		signal(SIGSEGV, SIG_DFL);
		signal(SIGBUS, SIG_DFL);
		signal(SIGILL, SIG_DFL);
		signal(SIGFPE, SIG_DFL);
		alarm(10);
		(void)ios_h5_validate(path, &err);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM)
		return 'h';
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 'c';
}

/* [to] = [from] with the stand-in's [mark] after its end. */
static void marked_copy(const char *from, const char *to, const char *mark)
{
	char buf[65536];
	ssize_t k;
	int in = open(from, O_RDONLY), out;

	assert_true(in >= 0);
	out = open(to, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(out >= 0);
	while ((k = read(in, buf, sizeof(buf))) > 0)
		assert_int_equal(write(out, buf, (size_t)k), k);
	assert_int_equal(k, 0);
	assert_int_equal(write(out, mark, strlen(mark)), (ssize_t)strlen(mark));
	close(in);
	assert_int_equal(close(out), 0);
}

static int setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));
	struct ios_synth s;
	struct ios_err err = {0};

	snprintf(fx->dir, sizeof(fx->dir), "/tmp/test_h5iso.XXXXXX");
	assert_non_null(mkdtemp(fx->dir));
	assert_int_equal(chmod(fx->dir, 0755), 0);
	snprintf(fx->good, sizeof(fx->good), "%s/good.h5", fx->dir);
	snprintf(fx->other, sizeof(fx->other), "%s/other.h5", fx->dir);
	corpus(fx->crash, sizeof(fx->crash), CRASHER);
	corpus(fx->hang, sizeof(fx->hang), HANGER);
	ios_synth_defaults(&s);
	s.early_rank = 1;
	fx->run = ios_synth_run(&s);
	assert_non_null(fx->run);
	assert_int_equal(ios_h5_write_run(fx->good, fx->run, &err), 0);
	snprintf(fx->fcrash, sizeof(fx->fcrash), "%s/fault-crash.h5", fx->dir);
	snprintf(fx->fhang, sizeof(fx->fhang), "%s/fault-hang.h5", fx->dir);
	marked_copy(fx->good, fx->fcrash, IOS_H5FAULT_CRASH);
	marked_copy(fx->good, fx->fhang, IOS_H5FAULT_HANG);
	if (real_faults < 0) {
		unsigned maj, min, rel;
		int c = probe(fx->crash), h = probe(fx->hang);

		real_faults = (c ? 1 : 0) | (h ? 2 : 0);
		H5get_libversion(&maj, &min, &rel);
		if (!c || !h)
			printf("# HDF5 %u.%u.%u %s %s and %s %s: the checks on "
			       "the real inputs are skipped, the stand-in's "
			       "run\n",
			       maj, min, rel, c ? "crashes on" : "reads",
			       CRASHER, h ? "loops on" : "reads", HANGER);
	}
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fx *fx = *state;
	char cmd[128];

	ios_synth_free(fx->run);
	assert_true((size_t)snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fx->dir) <
		    sizeof(cmd));
	if (system(cmd) != 0)
		return -1;
	free(fx);
	return 0;
}

/* ---- comparing two runs ---------------------------------------------- */

static void str_eq(const char *a, const char *b)
{
	if (!a || !b)
		assert_true(a == b);
	else
		assert_string_equal(a, b);
}

static void kv_eq(const struct ios_kv *a, const struct ios_kv *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		str_eq(a[i].key, b[i].key);
		str_eq(a[i].value, b[i].value);
	}
}

static void rep_eq(const struct ios_rep_result *a,
		   const struct ios_rep_result *b)
{
	struct ios_rep_result x = *a, y = *b;

	x.ranks = y.ranks = NULL;
	x.lat_hist = y.lat_hist = NULL;
	x.errors = y.errors = NULL;
	x.node_bw = y.node_bw = NULL;
	assert_memory_equal(&x, &y, sizeof(x));
	for (int i = 0; i < a->nranks; i++) {
		struct ios_rank_result r = a->ranks[i], s = b->ranks[i];

		r.sample_bytes = s.sample_bytes = NULL;
		r.sample_ops = s.sample_ops = NULL;
		assert_memory_equal(&r, &s, sizeof(r));
		if (a->ranks[i].nsamples) {
			assert_memory_equal(a->ranks[i].sample_bytes,
					    b->ranks[i].sample_bytes,
					    a->ranks[i].nsamples * 8);
			assert_memory_equal(a->ranks[i].sample_ops,
					    b->ranks[i].sample_ops,
					    a->ranks[i].nsamples * 8);
		}
	}
	assert_memory_equal(a->lat_hist, b->lat_hist,
			    (size_t)a->nranks * IOS_LAT_BUCKETS * 8);
	if (a->nerrors)
		assert_memory_equal(a->errors, b->errors,
				    a->nerrors * sizeof(*a->errors));
	if (a->nnodes)
		assert_memory_equal(a->node_bw, b->node_bw,
				    (size_t)a->nnodes * sizeof(double));
}

static void run_eq(const struct ios_run *a, const struct ios_run *b)
{
	str_eq(a->run_id, b->run_id);
	str_eq(a->created_utc, b->created_utc);
	str_eq(a->tool, b->tool);
	str_eq(a->tool_version, b->tool_version);
	str_eq(a->git_revision, b->git_revision);
	str_eq(a->build_options, b->build_options);
	str_eq(a->command_line, b->command_line);
	str_eq(a->status, b->status);
	str_eq(a->verdict, b->verdict);
	str_eq(a->job_json, b->job_json);
	str_eq(a->ceph_json, b->ceph_json);
	assert_int_equal(a->nconfig, b->nconfig);
	kv_eq(a->config, b->config, a->nconfig);
	assert_int_equal(a->nattach, b->nattach);
	kv_eq(a->attachments, b->attachments, a->nattach);
	assert_int_equal(a->nranks, b->nranks);
	assert_memory_equal(a->rank_info, b->rank_info,
			    (size_t)a->nranks * sizeof(*a->rank_info));
	assert_int_equal(a->nnodes, b->nnodes);
	for (int i = 0; i < a->nnodes; i++)
		str_eq(a->node_json[i], b->node_json[i]);
	assert_int_equal(a->nphases, b->nphases);
	for (int k = 0; k < a->nphases; k++) {
		const struct ios_phase_result *p = &a->phases[k],
					      *q = &b->phases[k];

		assert_string_equal(p->name, q->name);
		assert_string_equal(p->layer, q->layer);
		assert_string_equal(p->backend, q->backend);
		assert_true(p->bs == q->bs && p->rwmixread == q->rwmixread);
		assert_int_equal(p->nreps, q->nreps);
		for (int r = 0; r < p->nreps; r++)
			rep_eq(&p->reps[r], &q->reps[r]);
	}
	assert_int_equal(a->nlayers, b->nlayers);
	if (a->nlayers)
		assert_memory_equal(a->layers, b->layers,
				    (size_t)a->nlayers * sizeof(*a->layers));
	assert_int_equal(a->nnet, b->nnet);
	if (a->nnet)
		assert_memory_equal(a->net, b->net, a->nnet * sizeof(*a->net));
}

/* ---- tests ------------------------------------------------------------ */

/* The isolated read returns what the trusted reader returns. */
static void test_good_same(void **state)
{
	struct fx *fx = *state;
	struct ios_err err = {0};
	struct ios_run *a = NULL, *b = NULL;

	assert_int_equal(ios_h5_read_run(fx->good, &a, &err), 0);
	if (ios_h5_read_run_isolated(fx->good, NULL, &b, &err) != 0)
		fail_msg("%s", err.msg);
	assert_non_null(b);
	run_eq(a, b);
	assert_true(a->nphases > 0 && a->phases[0].nreps > 0);
	ios_run_free(a);
	ios_run_free(b);
	assert_int_equal(ios_h5_validate_isolated(fx->good, NULL, &err), 0);
}

static void expect(int rc, int code, const struct ios_err *err,
		   const char *path, const char *what)
{
	if (rc != code || !strstr(err->msg, path) || !strstr(err->msg, what))
		fail_msg("rc %d (wanted %d): %s (wanted \"%s\")", rc, code,
			 err->msg, what);
}

/*
 * [good, crashing, hanging, good]: both good files read, the crash and the
 * hang are errors naming the file; this process is unharmed.  Before the
 * isolated reader, the first killed the test and the second never
 * returned.  The stand-in's crash and spin in H5Fopen every time: the
 * strict checks.  [real]: the regression inputs, a SIGSEGV inside libhdf5
 * 1.10 (a global heap object claiming 1 MiB, copied by H5HG_read) and an
 * object size that wraps the heap walk.  What they do depends on what the
 * heap held before the fork (crash, loop, an error, or even a clean read:
 * CI saw each), so for them only this holds: the good files around them
 * read, a failure names the file, and this process goes on.
 */
static void bad_files(struct fx *fx, bool real)
{
	const char *crash = real ? fx->crash : fx->fcrash;
	const char *hang = real ? fx->hang : fx->fhang;
	const char *order[] = {fx->good, crash, hang, fx->good};

	for (int v = 0; v < 2; v++)
		for (size_t i = 0; i < 4; i++) {
			struct ios_err err = {0};
			struct ios_run *run = NULL;
			int rc = v ? ios_h5_validate_isolated(order[i], &quick,
							      &err)
				   : ios_h5_read_run_isolated(order[i], &quick,
							      &run, &err);

			if (i == 0 || i == 3) {
				if (rc)
					fail_msg("%s", err.msg);
				assert_true(v || run);
			} else if (real) {
				if (rc && !strstr(err.msg, order[i]))
					fail_msg("rc %d: %s (not naming %s)",
						 rc, err.msg, order[i]);
				assert_true(!rc || !run);
			} else if (i == 1) {
				/* killed by its signal: cmocka's SIGSEGV
				 * handler, this process's, is not the
				 * child's (it would go on running the
				 * tests in the crashed child) */
				expect(rc, -EBADMSG, &err, crash,
				       "the HDF5 library crashed reading it "
				       "(signal 11, SIGSEGV)");
				assert_null(run);
			} else {
				/* the CPU limit, or the wall clock on a
				 * busy machine */
				expect(rc, -ETIMEDOUT, &err, hang,
				       "to parse (IOSTRATA_PARSE_");
				assert_null(run);
			}
			ios_run_free(run);
		}
}

static void test_bad_files(void **state)
{
	bad_files(*state, false);
	if (real_faults == 3)
		bad_files(*state, true);
}

/* The wall-clock limit: a file parsed for longer is stopped. */
static void test_wall_clock(void **state)
{
	struct fx *fx = *state;
	struct ios_h5_iso_limits l = {.cpu_s = 30, .wall_s = 1};
	struct ios_err err = {0};
	int rc = ios_h5_validate_isolated(fx->fhang, &l, &err);

	expect(rc, -ETIMEDOUT, &err, fx->fhang,
	       "took longer than 1 s to parse");
	if (!(real_faults & 2))
		return;
	/* the real input loops, fails or reads (test_bad_files): stopped
	 * in time when it loops, named when it fails */
	err = (struct ios_err){0};
	rc = ios_h5_validate_isolated(fx->hang, &l, &err);
	if (rc && !strstr(err.msg, fx->hang))
		fail_msg("rc %d: %s", rc, err.msg);
	if (rc == -ETIMEDOUT)
		expect(rc, -ETIMEDOUT, &err, fx->hang,
		       "took longer than 1 s to parse");
}

static void test_limits(void **state)
{
	struct fx *fx = *state;
	struct ios_h5_iso_limits l = {.max_file_bytes = 1000};
	struct ios_err err = {0};
	struct ios_run *run = NULL;

	expect(ios_h5_read_run_isolated(fx->good, &l, &run, &err), -EFBIG, &err,
	       fx->good, "beyond the isolated reader's bound of 0 MiB");
#ifndef UNDER_ASAN
	/* ASan reserves its memory up front; the growth bound is the
	 * plain build's */
	l.max_file_bytes = 0;
	l.mem_bytes = 1; /* no new mapping, not even the file's image */
	{
		int rc = ios_h5_read_run_isolated(fx->good, &l, &run, &err);

		/* out of memory in HDF5: -ENOMEM with the limit named, or
		 * -EBADMSG (an error, or the library dying of it) */
		if (rc != -ENOMEM && rc != -EBADMSG)
			fail_msg("rc %d: %s", rc, err.msg);
		if (rc == -ENOMEM && !strstr(err.msg, "needs more than 0 MiB"))
			fail_msg("%s", err.msg);
		assert_non_null(strstr(err.msg, fx->good));
		assert_null(run);
	}
#endif
}

static void test_inputs(void **state)
{
	struct fx *fx = *state;
	struct ios_err err = {0};
	struct ios_run *run = NULL;
	char fifo[160], link[160], empty[160];
	int fd;

	expect(ios_h5_read_run_isolated(fx->dir, NULL, &run, &err), -EBADMSG,
	       &err, fx->dir, "not a regular file");
	snprintf(fifo, sizeof(fifo), "%s/fifo", fx->dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	/* O_NONBLOCK: a FIFO with no writer does not block the open */
	expect(ios_h5_read_run_isolated(fifo, NULL, &run, &err), -EBADMSG, &err,
	       fifo, "not a regular file");
	expect(ios_h5_read_run_isolated("/nonexistent/x.h5", NULL, &run, &err),
	       -ENOENT, &err, "/nonexistent/x.h5", "No such file");
	snprintf(empty, sizeof(empty), "%s/empty.h5", fx->dir);
	fd = open(empty, O_CREAT | O_WRONLY | O_EXCL, 0644);
	assert_true(fd >= 0);
	close(fd);
	expect(ios_h5_read_run_isolated(empty, NULL, &run, &err), -EBADMSG,
	       &err, empty, "not an HDF5 file");
	/* a symbolic link to a file of the link's owner is followed */
	snprintf(link, sizeof(link), "%s/link.h5", fx->dir);
	assert_int_equal(symlink(fx->good, link), 0);
	if (ios_h5_read_run_isolated(link, NULL, &run, &err) != 0)
		fail_msg("%s", err.msg);
	ios_run_free(run);
	run = NULL;
	assert_null(run);
}

/*
 * Under root: the child runs as the file's owner with the owner's primary
 * group (or nobody's group when the owner has no passwd entry) and no
 * supplementary group; a root-owned file as nobody; root follows a link
 * only to a file of the link's owner.
 */
static void test_privileges(void **state)
{
	struct fx *fx = *state;
	struct ios_err err = {0};
	struct ios_run *run = NULL;
	struct passwd *nob, *daemon_pw;
	char link[160];
	uid_t nuid;
	gid_t ngid;

	if (geteuid() != 0)
		skip();
	nob = getpwnam("nobody");
	nuid = nob ? nob->pw_uid : 65534;
	ngid = nob ? nob->pw_gid : 65534;
	memset(&ios_h5_iso_test_seen, 0xff, sizeof(ios_h5_iso_test_seen));
	assert_int_equal(chown(fx->good, 0, 0), 0);
	if (ios_h5_read_run_isolated(fx->good, NULL, &run, &err) != 0)
		fail_msg("%s", err.msg);
	ios_run_free(run);
	assert_int_equal(ios_h5_iso_test_seen.uid, nuid);
	assert_int_equal(ios_h5_iso_test_seen.euid, nuid);
	assert_int_equal(ios_h5_iso_test_seen.gid, ngid);
	assert_int_equal(ios_h5_iso_test_seen.egid, ngid);
	assert_int_equal(ios_h5_iso_test_seen.ngroups, 0);

	/* an owner without a passwd entry; the file readable by nobody
	 * else, not even the owner: the child reads it from the open file */
	assert_int_equal(chown(fx->good, 4242, 4343), 0);
	assert_int_equal(chmod(fx->good, 0), 0);
	if (ios_h5_read_run_isolated(fx->good, NULL, &run, &err) != 0)
		fail_msg("%s", err.msg);
	ios_run_free(run);
	assert_int_equal(ios_h5_iso_test_seen.uid, 4242);
	assert_int_equal(ios_h5_iso_test_seen.euid, 4242);
	assert_int_equal(ios_h5_iso_test_seen.gid, ngid);
	assert_int_equal(ios_h5_iso_test_seen.ngroups, 0);

	/* an owner with a passwd entry: its primary group, not the file's */
	daemon_pw = getpwnam("daemon");
	if (daemon_pw && daemon_pw->pw_uid && daemon_pw->pw_gid) {
		uid_t du = daemon_pw->pw_uid; /* getpw* reuse one buffer */
		gid_t dg = daemon_pw->pw_gid;

		assert_int_equal(chown(fx->good, du, dg + 7), 0);
		assert_int_equal(ios_h5_validate_isolated(fx->good, NULL, &err),
				 0);
		assert_int_equal(ios_h5_iso_test_seen.uid, du);
		assert_int_equal(ios_h5_iso_test_seen.gid, dg);
	}

	/* the child's uid is in the messages of a failed parse */
	{
		char copy[160], cmd[PATH_MAX + 200];

		snprintf(copy, sizeof(copy), "%s/crash", fx->dir);
		snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", fx->fcrash, copy);
		assert_int_equal(system(cmd), 0);
		assert_int_equal(chown(copy, 4242, 4242), 0);
		expect(ios_h5_read_run_isolated(copy, NULL, &run, &err),
		       -EBADMSG, &err, copy,
		       "(parsed in a separate process as uid 4242;");
	}

	/* root follows a symbolic link only to a file of the link's owner */
	snprintf(link, sizeof(link), "%s/rootlink.h5", fx->dir);
	assert_int_equal(symlink(fx->good, link), 0);
	expect(ios_h5_read_run_isolated(link, NULL, &run, &err), -ELOOP, &err,
	       link, "a symbolic link owned by uid 0 to a file owned by uid");
	assert_int_equal(lchown(link, 4242, 4242), 0);
	assert_int_equal(chown(fx->good, 4242, 4242), 0);
	if (ios_h5_read_run_isolated(link, NULL, &run, &err) != 0)
		fail_msg("%s", err.msg);
	ios_run_free(run);
	assert_int_equal(chown(fx->good, 0, 0), 0);
	assert_int_equal(chmod(fx->good, 0644), 0);
}

/* ---- the decoder ------------------------------------------------------ */

static void encode(const struct ios_run *run, struct ios_wire *w)
{
	*w = (struct ios_wire){0};
	ios_wire_run(w, run);
	assert_int_equal(w->failed, 0);
}

/* What a child answers decodes back to the same run; text is made
 * terminal-safe again. */
static void test_wire_roundtrip(void **state)
{
	struct fx *fx = *state;
	struct ios_err err = {0};
	struct ios_run *a = NULL, *b = NULL;
	struct ios_wire w;
	struct ios_unwire u;

	assert_int_equal(ios_h5_read_run(fx->good, &a, &err), 0);
	encode(a, &w);
	u = (struct ios_unwire){.p = w.p, .len = w.len};
	assert_int_equal(ios_unwire_run(&u, &b), 0);
	assert_int_equal(u.pos, u.len);
	run_eq(a, b);
	ios_run_free(b);
	free(w.p);
	free(a->status);
	a->status = strdup("\x1b]0;owned\x07");
	a->phases[0].name[15] = 'x'; /* unterminated */
	encode(a, &w);
	u = (struct ios_unwire){.p = w.p, .len = w.len};
	assert_int_equal(ios_unwire_run(&u, &b), 0);
	assert_string_equal(b->status, "?]0;owned?");
	assert_true(strlen(b->phases[0].name) < sizeof(b->phases[0].name));
	ios_run_free(a);
	ios_run_free(b);
	free(w.p);
}

/* Every truncation and many corruptions of a valid answer: an error or a
 * run within the bounds, never a crash (the sanitizer build checks). */
static void test_wire_hostile(void **state)
{
	struct fx *fx = *state;
	struct ios_err err = {0};
	struct ios_run *a = NULL, *b;
	struct ios_wire w;
	uint8_t *copy;
	unsigned seed = 12345;
	int ok = 0;

	assert_int_equal(ios_h5_read_run(fx->good, &a, &err), 0);
	encode(a, &w);
	for (size_t n = 0; n < w.len; n += n < 4096 ? 1 : 97) {
		struct ios_unwire u = {.p = w.p, .len = n};

		assert_int_equal(ios_unwire_run(&u, &b), -EBADMSG);
		assert_null(b);
		assert_non_null(u.bad);
	}
	copy = malloc(w.len);
	assert_non_null(copy);
	for (int i = 0; i < 3000; i++) {
		struct ios_unwire u = {.p = copy, .len = w.len};

		memcpy(copy, w.p, w.len);
		for (int k = 0; k < 1 + i % 4; k++) {
			seed = seed * 1103515245u + 12345u;
			size_t at = (seed >> 4) % w.len;

			seed = seed * 1103515245u + 12345u;
			copy[at] = i & 1 ? (uint8_t)(seed >> 16) : 0xff;
		}
		if (ios_unwire_run(&u, &b) == 0) {
			ok++;
			for (int k = 0; k < b->nphases; k++)
				for (int r = 0; r < b->phases[k].nreps; r++) {
					const struct ios_rep_result *rep =
						&b->phases[k].reps[r];

					assert_true(rep->nranks >= 0);
					assert_non_null(rep->lat_hist);
					assert_non_null(rep->node_bw);
					for (int j = 0; j < rep->nranks; j++)
						assert_true(
							!rep->ranks[j]
								 .nsamples ||
							rep->ranks[j]
								.sample_ops);
				}
			ios_run_free(b);
		}
	}
	assert_true(ok > 0); /* most flips land in data */
	free(copy);
	free(w.p);
	ios_run_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_good_same, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_bad_files, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_wall_clock, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_limits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_inputs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_privileges, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_wire_roundtrip, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_wire_hostile, setup,
						teardown),
	};

	return cmocka_run_group_tests_name("h5iso", tests, NULL, NULL);
}
