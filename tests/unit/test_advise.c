/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for report/report_advise.c on synthetic campaigns: target
 * parsing, baseline choice, the cheapest configuration meeting a target,
 * the Pareto frontier, confidence from the spread over repetitions, failed
 * elements, a target nobody meets, loading a campaign index with a fake
 * results reader, and the gnuplot plot.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
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

#include "hostile.h"
#include "report_advise.h"
#include "siteconf.h"
#include "sweepfit.h"

#define G (1ull << 30)

struct target_case {
	const char *in;
	int rc;
	double sw, rw;
	const char *msg;
};

static const struct target_case target_cases[] = {
	{"seq-write=0.9,rand-write=0.8", 0, 0.9, 0.8, NULL},
	{"rand-write=1", 0, 0, 1.0, NULL},
	{"", -EINVAL, 0, 0, "empty"},
	{"seq_write=0.9", -EINVAL, 0, 0, "unknown metric \"seq_write\""},
	{"seq-write", -EINVAL, 0, 0, "expected METRIC=RATIO"},
	{"seq-write=0", -EINVAL, 0, 0, "invalid ratio \"0\""},
	{"seq-write=2.5", -EINVAL, 0, 0, "invalid ratio \"2.5\""},
	{"seq-write=0.9x", -EINVAL, 0, 0, "invalid ratio \"0.9x\""},
	{"seq-write=-1", -EINVAL, 0, 0, "invalid ratio"},
};

static void test_targets(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(target_cases) / sizeof(*target_cases);
	     i++) {
		const struct target_case *c = &target_cases[i];
		struct adv_target t;
		struct ios_err err = {0};
		int rc = adv_parse_targets(c->in, &t, &err);

		if (rc != c->rc || (c->msg && !strstr(err.msg, c->msg)))
			fail_msg(
				"\"%s\": rc %d want %d, msg \"%s\" want \"%s\"",
				c->in, rc, c->rc, err.msg,
				c->msg ? c->msg : "");
		if (rc == 0) {
			assert_true(t.ratio[ADV_SEQ_WRITE] == c->sw);
			assert_true(t.ratio[ADV_RAND_WRITE] == c->rw);
			assert_true(t.ratio[ADV_SEQ_READ] == 0);
		}
	}
}

/* A configuration with seq-write and rand-write repetitions. */
static struct adv_config cfg(const char *label, uint64_t cpus, uint64_t mem,
			     double cost, const double *sw, int nsw,
			     const double *rw, int nrw)
{
	struct adv_config c;

	memset(&c, 0, sizeof(c));
	snprintf(c.label, sizeof(c.label), "%s", label);
	c.cpus = cpus;
	c.mem = mem;
	c.cost = cost;
	c.nreps[ADV_SEQ_WRITE] = nsw;
	c.nreps[ADV_RAND_WRITE] = nrw;
	for (int i = 0; i < nsw; i++)
		c.reps[ADV_SEQ_WRITE][i] = sw[i];
	for (int i = 0; i < nrw; i++)
		c.reps[ADV_RAND_WRITE][i] = rw[i];
	return c;
}

/*
 * The paper's shape in miniature: sequential write hardly cares, random
 * write needs memory.  Baseline (2 cores, 24G): seq 100, rand 1000.
 */
static const double sw_base[] = {100, 100}, rw_base[] = {1000, 1000};
static const double sw_c1m16[] = {95, 93}, rw_c1m16[] = {600, 640};
static const double sw_c1m24[] = {94, 96}, rw_c1m24[] = {850, 870};
static const double sw_c2m16[] = {99, 99}, rw_c2m16[] = {650, 650};
static const double sw_noisy[] = {120, 70}, rw_noisy[] = {900, 900};

struct advise_case {
	const char *name;
	const char *target;
	int failed_index; /* element marked failed, -1 none */
	const char *best; /* label or NULL when nothing meets */
	int meets_all;    /* of the advised one */
};

static const struct advise_case advise_cases[] = {
	{"seq only: cheapest config", "seq-write=0.9", -1, "c1m16", 1},
	{"seq + rand: needs memory", "seq-write=0.9,rand-write=0.8", -1,
	 "c1m24", 1},
	{"rand 0.6: cheapest again", "rand-write=0.6", -1, "c1m16", 1},
	{"nobody meets", "rand-write=1.1", -1, NULL, 0},
	{"failed element skipped", "seq-write=0.9,rand-write=0.8", 2, "c2m24",
	 1},
};

static size_t grid(struct adv_config *c)
{
	size_t n = 0;

	c[n++] = cfg("c1m16", 1, 16 * G, 1000, sw_c1m16, 2, rw_c1m16, 2);
	c[n++] = cfg("c2m16", 2, 16 * G, 1100, sw_c2m16, 2, rw_c2m16, 2);
	c[n++] = cfg("c1m24", 1, 24 * G, 1040, sw_c1m24, 2, rw_c1m24, 2);
	c[n++] = cfg("c2m24", 2, 24 * G, 1140, sw_base, 2, rw_base, 2);
	return n;
}

static void test_advise(void **state)
{
	(void)state;
	for (size_t k = 0; k < sizeof(advise_cases) / sizeof(*advise_cases);
	     k++) {
		const struct advise_case *ac = &advise_cases[k];
		struct adv_config c[8];
		struct adv_target t;
		struct adv_result res;
		struct ios_err err = {0};
		size_t n = grid(c);

		if (ac->failed_index >= 0)
			c[ac->failed_index].failed = 1;
		assert_int_equal(adv_parse_targets(ac->target, &t, &err), 0);
		if (adv_compute(c, n, &t, &res, &err) != 0)
			fail_msg("%s: %s", ac->name, err.msg);
		assert_string_equal(c[res.baseline].label, "c2m24");
		if (!ac->best) {
			if (res.best != -1)
				fail_msg("%s: advised %s, want none", ac->name,
					 c[res.best].label);
			/* the closest is still named */
			assert_string_equal(c[res.best_score].label, "c2m24");
		} else {
			if (res.best < 0 ||
			    strcmp(c[res.best].label, ac->best) != 0)
				fail_msg("%s: advised %s, want %s", ac->name,
					 res.best < 0 ? "none"
						      : c[res.best].label,
					 ac->best);
			assert_int_equal(res.rows[res.best].meets_all,
					 ac->meets_all);
		}
		free(res.rows);
	}
}

static void test_frontier_and_confidence(void **state)
{
	struct adv_config c[8];
	struct adv_target t;
	struct adv_result res;
	struct ios_err err = {0};
	size_t n = grid(c);
	FILE *out;
	char *buf = NULL;
	size_t len = 0;

	(void)state;
	/* a noisy cheap configuration: mean 95 meets 0.9, worst rep 0.70 */
	c[n++] = cfg("noisy", 1, 8 * G, 900, sw_noisy, 2, rw_noisy, 2);
	assert_int_equal(adv_parse_targets("seq-write=0.9", &t, &err), 0);
	assert_int_equal(adv_compute(c, n, &t, &res, &err), 0);
	assert_string_equal(c[res.best].label, "noisy");
	assert_int_equal(res.rows[res.best].meets, 1);
	assert_int_equal(res.rows[res.best].meets_all, 0);
	assert_true(fabs(res.rows[res.best].rel_min[ADV_SEQ_WRITE] - 0.70) <
		    1e-9);
	/* frontier by cost: noisy 0.95, c1m24? (0.95, dearer: no),
	 * c2m16 0.99, c2m24 1.00; c1m16 0.94 is dominated by noisy */
	assert_int_equal(res.rows[4].pareto, 1);
	assert_int_equal(res.rows[0].pareto, 0);
	assert_int_equal(res.rows[2].pareto, 0);
	assert_int_equal(res.rows[1].pareto, 1);
	assert_int_equal(res.rows[3].pareto, 1);
	out = open_memstream(&buf, &len);
	adv_print(out, c, n, &t, &res, "EUR");
	fclose(out);
	assert_non_null(strstr(buf, "Advice: noisy"));
	assert_non_null(strstr(buf, "Confidence: low"));
	assert_non_null(strstr(buf, "Pareto frontier"));
	free(buf);
	free(res.rows);
}

static void test_no_baseline(void **state)
{
	struct adv_config c[2];
	struct adv_target t;
	struct adv_result res;
	struct ios_err err = {0};

	(void)state;
	/* more cores in one, more memory in the other: no baseline */
	c[0] = cfg("c1m24", 1, 24 * G, 1, sw_base, 2, rw_base, 2);
	c[1] = cfg("c2m16", 2, 16 * G, 1, sw_base, 2, rw_base, 2);
	assert_int_equal(adv_parse_targets("seq-write=0.9", &t, &err), 0);
	assert_int_equal(adv_compute(c, 2, &t, &res, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "no unconstrained baseline"));
	/* the baseline lacks the targeted metric */
	c[0] = cfg("c2m24", 2, 24 * G, 1, sw_base, 2, NULL, 0);
	assert_int_equal(adv_parse_targets("rand-write=0.5", &t, &err), 0);
	assert_int_equal(adv_compute(c, 2, &t, &res, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "no valid repetition of rand-write"));
	assert_int_equal(adv_compute(c, 0, &t, &res, &err), -EINVAL);
}

/* Fake results reader: the file name holds "sw,rw" of one repetition. */
static int fake_reader(const char *path, struct adv_config *c,
		       struct ios_err *err)
{
	const char *base = strrchr(path, '/');
	double sw, rw;

	base = base ? base + 1 : path;
	if (sscanf(base, "%lf,%lf", &sw, &rw) != 2)
		return ios_errf(err, -EBADMSG, "fake: %s: not a results file",
				path);
	c->reps[ADV_SEQ_WRITE][c->nreps[ADV_SEQ_WRITE]++] = sw;
	c->reps[ADV_RAND_WRITE][c->nreps[ADV_RAND_WRITE]++] = rw;
	return 0;
}

static void test_load_campaign(void **state)
{
	char dir[] = "/tmp/test_advise.XXXXXX", path[128], cmd[160];
	struct adv_config *c = NULL;
	struct ios_err err = {0};
	FILE *fp;
	int n;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/index.tsv", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fprintf(fp,
		"# campaign x\n"
		"element\tlabel\tcpus\tmem_bytes\tdisk_bw_Bps\tjobid\tstate\tfile\tnote\n"
		"0\tcpus1-mem20G\t1\t21474836480\t0\t5\tDONE\t/x/90,800\t\n"
		"0\tcpus1-mem20G\t1\t21474836480\t0\t5\tDONE\t/x/92,820\t\n"
		"1\tcpus2-mem20G\t2\t21474836480\t0\t6\tFAILED\t-\texit code 1\n"
		"2\tcpus2-mem23G\t2\t24696061952\t0\t7\tDONE\t/x/100,1000\t\n"
		"3\tcpus1-mem23G\t1\t24696061952\t0\t8\tDONE\t/x/garbage\t\n");
	fclose(fp);
	n = adv_load_campaign(dir, fake_reader, &c, &err);
	assert_int_equal(n, 4);
	assert_int_equal(c[0].nreps[ADV_SEQ_WRITE], 2);
	assert_true(c[0].reps[ADV_RAND_WRITE][1] == 820);
	assert_int_equal(c[1].failed, 1);
	assert_int_equal(c[2].failed, 0);
	assert_int_equal(c[3].failed, 1); /* unreadable file marks it */
	assert_int_equal(c[2].mem, 24696061952ull);
	free(c);

	fp = fopen(path, "w");
	fprintf(fp, "0\tonly-two\n");
	fclose(fp);
	assert_int_equal(adv_load_campaign(dir, fake_reader, &c, &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "index.tsv:1: malformed"));
	unlink(path);
	assert_int_equal(adv_load_campaign(dir, fake_reader, &c, &err),
			 -ENOENT);
	assert_non_null(strstr(err.msg, "iostrata-campaign collect"));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/*
 * The paper's question on a catalogue: a cores x memory campaign (8..32
 * cores x 32..192G, 10% less with 8 cores, 8% less with 32G) and a
 * disk-speed campaign on the full node (100..275 MB/s, plateau from
 * 200 MB/s) of a 10-node site with 120 drives.  Target seq-write 0.88:
 * 5400 rpm drives (180 MB/s: 0.9 of the installed 7200 rpm) need a full
 * grid cell (16 cores, 64G: 99292 EUR) and beat the 7200 rpm drives with
 * the smallest node (8 cores, 32G, 0.95: 108146 EUR); 180 MB/s lies between
 * two measured speeds: interpolated.
 */
static const char catalogue_site[] = "[storage]\n"
				     "nodes = 10\n"
				     "disks_per_node = 12\n"
				     "osds_per_node = 12\n"
				     "cores = 32\n"
				     "memory = 192G\n"
				     "disk_class = hdd-7200\n"
				     "[prices]\n"
				     "currency = EUR\n"
				     "core = 95\n"
				     "mem_gb = 4.5\n"
				     "node_base = 4500\n"
				     "[disk \"hdd-5400\"]\n"
				     "bw = 180MB\n"
				     "price = 300\n"
				     "[disk \"hdd-7200\"]\n"
				     "bw = 250MB\n"
				     "price = 450\n"
				     "[disk \"sata-ssd\"]\n"
				     "bw = 530MB\n"
				     "price = 1400\n"
				     "[catalogue]\n"
				     "cores = 8, 16, 24, 32\n"
				     "memory = 32G, 64G, 128G, 192G\n";

static void test_model_catalogue(void **state)
{
	static const uint64_t cores[] = {8, 16, 24, 32};
	static const uint64_t mem[] = {32 * G, 64 * G, 128 * G, 192 * G};
	char dir[] = "/tmp/test_advise.XXXXXX", path[128], cmd[160];
	struct adv_config c[32];
	struct adv_target t;
	struct adv_choice ch;
	struct ios_site *site = NULL;
	struct ios_err err = {0};
	FILE *fp, *saved;
	size_t n = 0;
	int nmeets = 0, rc;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/site.conf", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(catalogue_site, fp);
	fclose(fp);
	if (ios_site_load(path, &site, &err) < 0)
		fail_msg("%s", err.msg);
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++) {
			double v = i == 0 ? 95 : j == 0 ? 92 : 100;
			const double r[] = {v, v, v};

			c[n] = cfg("cm", cores[i], mem[j], 0, r, 3, r, 0);
			n++;
		}
	for (int d = 100; d <= 275; d += 25) {
		double v = 100 * fmin(d, 200) / 200;
		const double r[] = {v, v, v};

		c[n] = cfg("disk", 0, 0, 0, r, 3, r, 0);
		c[n++].disk_bw = (uint64_t)d * 1000000;
	}
	assert_int_equal(adv_parse_targets("seq-write=0.88", &t, &err), 0);
	/* TEST_ADVISE_SHOW=PREFIX: print the advice and plot to PREFIX */
	saved = stdout;
	if (!getenv("TEST_ADVISE_SHOW"))
		stdout = fopen("/dev/null", "w");
	rc = adv_model_advise(site, c, n, &t, getenv("TEST_ADVISE_SHOW"), false,
			      &nmeets, &ch);
	if (stdout != saved)
		fclose(stdout);
	stdout = saved;
	assert_int_equal(rc, 0);
	assert_true(nmeets > 0);
	assert_int_equal(ch.cores, 16);
	assert_int_equal(ch.mem, 64 * G);
	assert_string_equal(ch.disk, "hdd-5400");
	assert_int_equal(ch.where, SF_INTERPOLATED);
	if (fabs(ch.cost - (10 * (4500 + 16 * 95 + 64 * 1.073741824 * 4.5) +
			    120 * 300)) > 1e-6)
		fail_msg("cost %.3f", ch.cost);
	/* nothing meets 1.05: exit 1 */
	assert_int_equal(adv_parse_targets("seq-write=1.05", &t, &err), 0);
	stdout = fopen("/dev/null", "w");
	rc = adv_model_advise(site, c, n, &t, NULL, false, &nmeets, NULL);
	fclose(stdout);
	stdout = saved;
	assert_int_equal(rc, 1);
	ios_site_free(site);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/*
 * Plot the grid, labels replaced when [labels] is given, with currency
 * [cur] to [name] in a new directory, run from there (so that payloads that
 * name no directory would land in it): no PWNED appears, the PNG and SVG
 * do; no gnuplot: a clear message; a prefix with a control character: a
 * clear refusal.
 */
static void plot_grid(const char *name, const char *const *labels,
		      const char *cur)
{
	char dir[] = "/tmp/test_advise_plot.XXXXXX", prefix[160], path[200],
	     wd[4096], cmd[160];
	struct adv_config c[8];
	struct adv_target t;
	struct adv_result res;
	struct ios_err err = {0};
	struct stat st;
	size_t n = grid(c);
	int rc;

	for (size_t i = 0; labels && i < n; i++)
		snprintf(c[i].label, sizeof(c[i].label), "%s", labels[i]);
	assert_non_null(mkdtemp(dir));
	snprintf(prefix, sizeof(prefix), "%s/%s", dir, name);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(
		adv_parse_targets("seq-write=0.9,rand-write=0.8", &t, &err), 0);
	assert_int_equal(adv_compute(c, n, &t, &res, &err), 0);
	assert_non_null(getcwd(wd, sizeof(wd)));
	assert_int_equal(chdir(dir), 0);
	rc = adv_plot(prefix, c, n, &t, &res, cur, &err);
	assert_int_equal(chdir(wd), 0);
	if (rc == -ENOENT) {
		free(res.rows);
		assert_int_equal(system(cmd), 0);
		skip(); /* no gnuplot on this machine */
	}
	snprintf(path, sizeof(path), "%s/PWNED", dir);
	if (access(path, F_OK) == 0)
		fail_msg("a payload ran (adv_plot returned %d: %s)", rc,
			 err.msg);
	if (rc != 0)
		fail_msg("%s", err.msg);
	snprintf(path, sizeof(path), "%s.png", prefix);
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_size > 5000);
	snprintf(path, sizeof(path), "%s.svg", prefix);
	assert_int_equal(stat(path, &st), 0);
	/* gnuplot missing: a clear message, data still written */
	setenv("GNUPLOT", "/nonexistent/gnuplot", 1);
	assert_int_equal(adv_plot(prefix, c, n, &t, &res, cur, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "not found"));
	unsetenv("GNUPLOT");
	/* a prefix gnuplot would be told differently is refused */
	assert_int_equal(adv_plot("a\nb", c, n, &t, &res, cur, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "--plot"));
	free(res.rows);
	assert_int_equal(system(cmd), 0);
}

static void test_plot(void **state)
{
	(void)state;
	plot_grid("advise", NULL, "EUR");
}

/*
 * Issue 11: configuration labels (index.tsv), the site's currency and the
 * --plot prefix reach gnuplot only as text: no payload runs, the plot is
 * still drawn.
 */
static void test_plot_hostile(void **state)
{
	static const char *const labels[] = {
		"`touch PWNED`",
		"x'.system('touch PWNED').'",
		"\"`touch PWNED`\"$(touch PWNED)",
		"'\n!touch PWNED\n\x01\x1b[1m\r",
	};

	(void)state;
	plot_grid(
		"a'`touch PWNED`\"$(touch PWNED)\"';!touch PWNED", labels,
		"EUR'.system('touch PWNED').'\n!touch PWNED\n`touch PWNED`\"");
}

/*
 * Issue 11: root writes the plot of `advise --plot=PREFIX` into a sticky
 * world-writable directory where user nobody planted symlinks at
 * PREFIX.png, .svg, .dat and .gp, all to a root-owned victim: the victim
 * is unchanged, the four outputs are regular files.
 */
static void test_plot_outputs_hostile(void **state)
{
	static const char *const names[] = {"adv.png", "adv.svg", "adv.dat",
					    "adv.gp"};
	const size_t nn = sizeof(names) / sizeof(*names);
	char sticky[64], victim[128], prefix[128], bad[1024], cmd[160];
	char vdir[] = "/tmp/test_advise_victim.XXXXXX";
	struct adv_config c[8];
	struct adv_target t;
	struct adv_result res;
	struct ios_err err = {0};
	size_t n = grid(c);
	int rc;

	(void)state;
	hostile_dir(sticky, sizeof(sticky), "test_advise_sticky");
	assert_non_null(mkdtemp(vdir));
	snprintf(victim, sizeof(victim), "%s/victim", vdir);
	hostile_victim(victim);
	hostile_plant(sticky, names, nn, victim);
	snprintf(prefix, sizeof(prefix), "%s/adv", sticky);
	assert_int_equal(
		adv_parse_targets("seq-write=0.9,rand-write=0.8", &t, &err), 0);
	assert_int_equal(adv_compute(c, n, &t, &res, &err), 0);
	rc = adv_plot(prefix, c, n, &t, &res, "EUR", &err);
	free(res.rows);
	/* without gnuplot only the data and the script are written */
	hostile_check(victim, sticky, rc == -ENOENT ? names + 2 : names,
		      rc == -ENOENT ? 2 : nn, bad, sizeof(bad));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", sticky, vdir);
	assert_int_equal(system(cmd), 0);
	if (bad[0])
		fail_msg("adv_plot returned %d (%s): %s", rc, err.msg, bad);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_targets),
		cmocka_unit_test(test_advise),
		cmocka_unit_test(test_frontier_and_confidence),
		cmocka_unit_test(test_no_baseline),
		cmocka_unit_test(test_load_campaign),
		cmocka_unit_test(test_model_catalogue),
		cmocka_unit_test(test_plot),
		cmocka_unit_test(test_plot_hostile),
		cmocka_unit_test(test_plot_outputs_hostile),
	};

	return cmocka_run_group_tests_name("advise", tests, NULL, NULL);
}
