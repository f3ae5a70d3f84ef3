/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for `iostrata-report advise` (report/report_advise*.c) on
 * synthetic campaigns (advise_fx.c): target parsing, loading a campaign
 * index with a fake results reader, the catalogue search with a known
 * answer, the sentences of the printed model (single point, flat metric,
 * no unthrottled element), failed elements and the replication refusal.
 * The plot the command draws: test_advise_plot.c.
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

#include "gnuplot.h"
#include "hostile.h"
#include "report_advise.h"
#include "report_advise_int.h"
#include "siteconf.h"
#include "sweepfit.h"
#include "advise_fx.h"

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

/* Three repetitions of [v] (seq-write and rand-write). */
static struct adv_config cfg3(uint64_t cpus, uint64_t mem, uint64_t bw,
			      double v)
{
	const double r[] = {v * 0.99, v, v * 1.01};
	struct adv_config c = cfg("x", cpus, mem, r, 3, r, 3);

	snprintf(c.label, sizeof(c.label), "c%llu-m%llu-d%llu",
		 (unsigned long long)cpus, (unsigned long long)(mem / G),
		 (unsigned long long)(bw / 1000000));
	c.disk_bw = bw;
	return c;
}

/* ---- the model and the catalogue ------------------------------------ */

static void test_model_catalogue(void **state)
{
	static const char line[] = "16 cores, 64 GiB, installed";
	char dir[32], *p;
	struct adv_config c[32];
	struct adv_choice ch;
	struct capture cap;
	struct ios_site *site;
	size_t n = catalogue_campaigns(c);

	(void)state;
	new_dir(dir);
	site = load_site(dir, catalogue_site);
	assert_int_equal(
		advise(site, c, n, "seq-write=0.88", NULL, false, &ch, &cap),
		0);
	assert_int_equal(ch.cores, 16);
	assert_int_equal(ch.mem, 64 * G);
	assert_string_equal(ch.disk, "hdd-5400");
	assert_int_equal(ch.where, SF_INTERPOLATED);
	if (fabs(ch.cost - (10 * (4500 + 16 * 95 + 64 * 1.073741824 * 4.5) +
			    120 * 300)) > 1e-6)
		fail_msg("cost %.3f", ch.cost);
	assert_has(cap.out, "disk speed: plateau from 200 MB/s");
	assert_has(cap.out, "Advice: 16 cores, 64 GiB RAM, hdd-5400 disks");
	assert_has(cap.out, "seq-write: 0.90 of the baseline (95% interval");
	assert_lacks(cap.out, "nan");
	cap_free(&cap);
	/* nothing meets 1.05: exit 1 */
	assert_int_equal(
		advise(site, c, n, "seq-write=1.05", NULL, false, NULL, &cap),
		1);
	assert_has(cap.out, "No node of the catalogue meets the target.");
	cap_free(&cap);
	/* a failed element is not measured: its cell is interpolated from
	 * its neighbours and the node listed on that basis */
	for (int failed = 0; failed < 2; failed++) {
		c[5].failed = failed; /* 16 cores x 64G */
		assert_int_equal(advise(site, c, n, "seq-write=0.88", NULL,
					true, NULL, &cap),
				 0);
		p = strstr(cap.out, line);
		assert_non_null(p);
		*strchr(p, '\n') = '\0';
		assert_has(p, failed ? "interpolated" : "measured");
		cap_free(&cap);
	}
	ios_site_free(site);
	rm_dir(dir);
}

/* --check: the advised node measured again, against its interval:
 * within, every repetition outside (drift), straddling it, another node
 * (refused), no repetition of the metric (nothing compared). */
static void test_check(void **state)
{
	char dir[32];
	struct adv_config c[32], k[2];
	struct adv_choice ch;
	struct capture cap;
	struct ios_site *site;
	size_t n = catalogue_campaigns(c);
	double mid, b, v[2];

	(void)state;
	new_dir(dir);
	site = load_site(dir, catalogue_site);
	assert_int_equal(
		advise(site, c, n, "seq-write=0.88", NULL, false, &ch, &cap),
		0);
	cap_free(&cap);
	assert_true(ch.fitted[ADV_SEQ_WRITE]);
	assert_false(ch.fitted[ADV_RAND_WRITE]);
	assert_true(ch.lo[ADV_SEQ_WRITE] < ch.hi[ADV_SEQ_WRITE]);
	b = ch.base[ADV_SEQ_WRITE];
	mid = (ch.lo[ADV_SEQ_WRITE] + ch.hi[ADV_SEQ_WRITE]) / 2;
	struct {
		double r0, r1;
		int rc;
		const char *want;
	} cases[] = {
		{mid, mid, 0, "within the interval"},
		{ch.hi[ADV_SEQ_WRITE] + 0.2, ch.hi[ADV_SEQ_WRITE] + 0.3, 1,
		 "every repetition of the check run is outside it"},
		{mid, ch.lo[ADV_SEQ_WRITE] - 0.6, 1, "straddle it"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		v[0] = cases[i].r0 * b;
		v[1] = cases[i].r1 * b;
		k[0] = cfg("check", 16, 64 * G, v, 2, NULL, 0);
		k[0].disk_bw = ch.disk_bw;
		cap_open(&cap);
		assert_int_equal(adv_check(cap.o, cap.e, "chk", &ch, k, 1),
				 cases[i].rc);
		cap_close(&cap);
		assert_has(cap.out, "seq-write: measured");
		assert_has(cap.out, cases[i].want);
		cap_free(&cap);
	}
	/* 0 stands for the full node: the site's 16 cores are not 0 here,
	 * so another node (8 cores) is refused, naming both */
	v[0] = v[1] = mid * b;
	k[0] = cfg("other", 8, 64 * G, v, 2, NULL, 0);
	k[0].disk_bw = ch.disk_bw;
	cap_open(&cap);
	assert_int_equal(adv_check(cap.o, cap.e, "chk", &ch, k, 1), 2);
	cap_close(&cap);
	assert_has(cap.err, "element other ran 8 cores");
	assert_has(cap.err, "not the advised node (16 cores, 64 GiB");
	cap_free(&cap);
	/* the node, but no seq-write repetition: nothing compared */
	k[0] = cfg("empty", 16, 64 * G, NULL, 0, v, 2);
	k[0].disk_bw = ch.disk_bw;
	cap_open(&cap);
	assert_int_equal(adv_check(cap.o, cap.e, "chk", &ch, k, 1), 2);
	cap_close(&cap);
	assert_has(cap.out, "no valid repetition in the check run");
	cap_free(&cap);
	ios_site_free(site);
	rm_dir(dir);
}

/* The full node only, measured once, no catalogue, no disk class. */
static const char one_node_site[] = "[storage]\n"
				    "cores = 2\n"
				    "memory = 24G\n"
				    "disk_bw = 2GB\n"
				    "[prices]\n"
				    "currency = EUR\n"
				    "core = 95\n"
				    "mem_gb = 4.5\n"
				    "node_base = 4500\n";

/*
 * A single configuration with one repetition: no spread, nothing to
 * cross-validate, nothing swept, one node in the catalogue, so no plot;
 * the advice says it has no interval instead of printing nan.
 */
static void test_single_point(void **state)
{
	static const double one[] = {100};
	char dir[32], prefix[64], path[80];
	struct adv_config c = cfg("full", 0, 0, one, 1, one, 1);
	struct adv_choice ch;
	struct capture cap;
	struct ios_site *site;

	(void)state;
	new_dir(dir);
	site = load_site(dir, one_node_site);
	snprintf(prefix, sizeof(prefix), "%s/adv", dir);
	assert_int_equal(
		advise(site, &c, 1, "seq-write=0.9", prefix, false, &ch, &cap),
		0);
	assert_has(cap.out, "1 cores x 1 memory cell(s), 1 disk speed(s)");
	assert_has(cap.out, "noise: one repetition per configuration: no "
			    "spread over repetitions");
	assert_has(cap.out, "leave-one-out: a single configuration: nothing "
			    "to cross-validate");
	assert_has(cap.out, "disk speed: not swept");
	assert_has(cap.out, "cores, memory: not swept");
	assert_has(cap.out, "= 1 nodes (the installed drives only)");
	assert_has(cap.out, "Advice: 2 cores, 24 GiB RAM, the installed disks");
	assert_has(cap.out, "seq-write: 1.00 of the baseline (no interval: one "
			    "repetition, no spread; measured, target 0.90)");
	assert_has(cap.out, "Confidence: low");
	assert_has(cap.out, "Plot: not drawn: every node of the catalogue "
			    "costs the same");
	assert_lacks(cap.out, "nan");
	assert_int_equal(ch.where, SF_MEASURED);
	snprintf(path, sizeof(path), "%s.dat", prefix);
	assert_int_equal(access(path, F_OK), -1);
	cap_free(&cap);
	ios_site_free(site);
	rm_dir(dir);
}

/*
 * Performance that does not move: flat along the disk speeds and along
 * memory, each said in words (no threshold), and the cheapest node
 * advised.
 */
static void test_flat_metric(void **state)
{
	static const uint64_t mem[] = {32 * G, 64 * G, 192 * G};
	char dir[32];
	struct adv_config c[16];
	struct adv_choice ch;
	struct capture cap;
	struct ios_site *site;
	size_t n = 0;

	(void)state;
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 3; j++)
			c[n++] = cfg3(i ? 32 : 16, mem[j], 0, 100);
	for (int d = 100; d <= 200; d += 50)
		c[n++] = cfg3(0, 0, (uint64_t)d * 1000000, 100);
	new_dir(dir);
	site = load_site(dir, catalogue_site);
	assert_int_equal(
		advise(site, c, n, "seq-write=0.95", NULL, false, &ch, &cap),
		0);
	assert_has(cap.out, "disk speed: flat: the metric does not change "
			    "beyond the noise");
	assert_has(cap.out, "memory at 1.33 cores/OSD: flat");
	assert_has(cap.out, "memory at 2.67 cores/OSD: flat");
	assert_lacks(cap.out, "plateau from");
	assert_int_equal(ch.cores, 16);
	assert_int_equal(ch.mem, 32 * G);
	assert_string_equal(ch.disk, "hdd-5400");
	cap_free(&cap);
	ios_site_free(site);
	rm_dir(dir);
}

/*
 * A disk-speed campaign whose every element was throttled (100..200 MB/s,
 * plateau from 150) on a site with 250 MB/s drives: values are relative to
 * the fastest measured speed, said so; 180 MB/s drives are interpolated
 * and advised, the installed and faster ones are extrapolated above.
 */
static void test_disk_only_no_unthrottled(void **state)
{
	char dir[32];
	struct adv_config c[8];
	struct adv_choice ch;
	struct capture cap;
	struct ios_site *site;
	size_t n = 0;

	(void)state;
	for (int d = 100; d <= 200; d += 25)
		c[n++] = cfg3(0, 0, (uint64_t)d * 1000000,
			      100 * fmin(d, 150) / 150);
	new_dir(dir);
	site = load_site(dir, catalogue_site);
	assert_int_equal(
		advise(site, c, n, "seq-write=0.9", NULL, true, &ch, &cap), 0);
	assert_has(cap.out, "1 cores x 1 memory cell(s), 5 disk speed(s); no "
			    "unthrottled full node: relative to the fastest "
			    "measured speed");
	assert_has(cap.out, "cores, memory: not swept");
	assert_has(cap.out, "disk speed: plateau from 150 MB/s");
	assert_has(cap.out, "32 cores, 192 GiB, installed");
	/* the installed class is listed once, as the installed drives */
	assert_lacks(cap.out, "hdd-7200");
	assert_has(cap.out, "extrapolated above");
	assert_has(cap.out, "Advice: 32 cores, 192 GiB RAM, hdd-5400 disks");
	assert_string_equal(ch.disk, "hdd-5400");
	assert_int_equal(ch.where, SF_INTERPOLATED);
	assert_lacks(cap.out, "nan");
	cap_free(&cap);
	ios_site_free(site);
	rm_dir(dir);
}

/*
 * An interval wider than the figure (the demo's "0.49 of the baseline
 * (95% interval -0.10..1.09)"): a 3 x 2 grid whose 8-core cells are a
 * fifth of the others, a catalogue node of 12 cores between them.  The
 * leave-one-out error is large, so the interval reaches below 0: printed,
 * recorded (the advice, the catalogue, the plot's data) clipped at 0, the
 * unclipped lower end kept in the data file, and the advice says the sweep
 * cannot support it and which measurement would.
 */
static const char wide_site[] = "[storage]\n"
				"nodes = 4\n"
				"cores = 32\n"
				"memory = 192G\n"
				"disk_bw = 250MB\n"
				"[prices]\n"
				"currency = EUR\n"
				"core = 95\n"
				"mem_gb = 4.5\n"
				"node_base = 4500\n"
				"[catalogue]\n"
				"cores = 8, 12, 16, 32\n"
				"memory = 32G, 192G\n";

static void test_wide_interval(void **state)
{
	static const uint64_t cores[] = {8, 16, 32};
	static const uint64_t mem[] = {32 * G, 192 * G};
	char dir[32], prefix[64], path[80], line[512], *p;
	struct adv_config c[8];
	struct adv_choice ch;
	struct capture cap;
	struct ios_site *site;
	size_t n = 0;
	FILE *fp;
	int rows = 0, clipped = 0;

	(void)state;
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 2; j++)
			c[n++] = cfg3(cores[i], mem[j], 0, i ? 100 : 20);
	new_dir(dir);
	site = load_site(dir, wide_site);
	snprintf(prefix, sizeof(prefix), "%s/adv", dir);
	assert_int_equal(
		advise(site, c, n, "seq-write=0.5", prefix, true, &ch, &cap),
		0);
	assert_int_equal(ch.cores, 12);
	assert_int_equal(ch.where, SF_INTERPOLATED);
	/* clipped, never negative, wherever an interval is printed */
	assert_true(ch.lo[ADV_SEQ_WRITE] >= 0);
	assert_true(ch.hi[ADV_SEQ_WRITE] > ch.rel[ADV_SEQ_WRITE]);
	assert_lacks(cap.out, "..-");
	assert_lacks(cap.out, "[-");
	assert_lacks(cap.out, "interval -");
	assert_has(cap.out, "95% interval 0.00..");
	assert_has(cap.out, ", clipped at 0 from -");
	assert_has(cap.out, "seq-write: the sweep cannot support this "
			    "recommendation: its 95% interval is ");
	assert_has(cap.out, "wider than the predicted 0.60 itself");
	assert_has(cap.out, "A measurement that would: a point nearer this "
			    "node: the node itself (12 cores, 32 GiB) added to "
			    "the sweep");
	assert_lacks(cap.out, "nan");
	cap_free(&cap);
	/* the plot's data: column 3 clipped, the last one unclipped */
	snprintf(path, sizeof(path), "%s.dat", prefix);
	fp = fopen(path, "r");
	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp)) {
		double cost, score, lo, raw;

		if (line[0] == '#')
			continue;
		assert_int_equal(
			sscanf(line, "%lf %lf %lf", &cost, &score, &lo), 3);
		p = strrchr(line, ' ');
		assert_non_null(p);
		raw = strtod(p + 1, NULL);
		if (lo < 0)
			fail_msg("a negative lower end in %s: %s", path, line);
		if (raw < 0) {
			assert_true(lo == 0);
			clipped++;
		}
		rows++;
	}
	fclose(fp);
	assert_true(rows >= 2);
	assert_true(clipped >= 1);
	ios_site_free(site);
	rm_dir(dir);
}

/* ---- the command ---------------------------------------------------- */
/*
 * Campaigns of different replication factors are refused before any model
 * is fitted; of the same factor they are fitted together; a failed element
 * turns the advice into exit 3.
 */
static void test_replication(void **state)
{
	char dir[32], site[64], grid[128], disk[128], arg_site[80];
	char *argv[] = {"advise", arg_site, "--target=seq-write=0.88",
			grid,     disk,     NULL};
	struct adv_config c[32];
	struct capture cap;
	size_t n = catalogue_campaigns(c);

	(void)state;
	new_dir(dir);
	write_file(dir, "site.conf", catalogue_site, site, sizeof(site));
	snprintf(arg_site, sizeof(arg_site), "--site=%s", site);
	write_campaign(dir, "grid3", c, 16, 3, -1, grid, sizeof(grid));
	write_campaign(dir, "disk2", c + 16, n - 16, 2, -1, disk, sizeof(disk));
	assert_int_equal(run(argv, &cap), 2);
	assert_has(cap.err, "disk2 has replication 2, an earlier campaign 3: "
			    "one model is fitted per replication factor");
	assert_has(cap.out, "grid3: 16 configuration(s), replication 3");
	assert_lacks(cap.out, "Model:");
	cap_free(&cap);
	write_campaign(dir, "disk3", c + 16, n - 16, 3, -1, disk, sizeof(disk));
	assert_int_equal(run(argv, &cap), 0);
	assert_has(cap.out, "disk3: 8 configuration(s), replication 3");
	assert_has(cap.out, "Advice: 16 cores, 64 GiB RAM, hdd-5400 disks");
	assert_int_equal(cap.err[0], '\0');
	cap_free(&cap);
	/* a failed element (24 cores x 192G): advice, exit 3 */
	write_campaign(dir, "grid3f", c, 16, 3, 11, grid, sizeof(grid));
	assert_int_equal(run(argv, &cap), 3);
	assert_has(cap.out, "Advice: 16 cores, 64 GiB RAM, hdd-5400 disks");
	assert_has(cap.err, "1 element(s) of the campaigns failed and were "
			    "not considered");
	cap_free(&cap);
	rm_dir(dir);
}

/*
 * Issue 29 row 3: advise normalises to what the heatmaps do.  A cores x
 * memory campaign with its unconstrained baseline (no constraint: cpus,
 * memory and throttle 0 in the index) measured first and last at 100
 * MB/s, and a constrained cell above it (32 cores x 128G at 120: noise, or
 * drift).  The values are relative to the measured baseline, named with
 * its elements and figure: the 32 x 128G cell reads 1.20.  Before, the
 * base was the isotonic fit at the full node's corner (the baseline pooled
 * with the faster cell below it: about 1.1 for that cell), named "the
 * full node", and no line named the baseline (the test failed there).  Without
 * the baseline elements it says which instead.
 */
/* advise --all --target=seq-write=0.5 on campaign [name] of c[0..n) in a
 * new directory, the output in [cap]. */
static void advise_campaign(const char *name, const struct adv_config *c,
			    size_t n, struct capture *cap)
{
	char dir[32], site[64], camp[128], arg_site[80];
	char *argv[] = {"advise", arg_site, "--all", "--target=seq-write=0.5",
			camp,     NULL};

	new_dir(dir);
	write_file(dir, "site.conf", catalogue_site, site, sizeof(site));
	snprintf(arg_site, sizeof(arg_site), "--site=%s", site);
	write_campaign(dir, name, c, n, 3, -1, camp, sizeof(camp));
	run(argv, cap);
	rm_dir(dir);
}

static void test_baseline(void **state)
{
	struct adv_config c[5];
	struct capture cap;

	(void)state;
	c[0] = cfg3(0, 0, 0, 100e6);
	c[1] = cfg3(16, 128 * G, 0, 80e6);
	c[2] = cfg3(16, 192 * G, 0, 90e6);
	c[3] = cfg3(32, 128 * G, 0, 120e6);
	c[4] = cfg3(0, 0, 0, 100e6);
	advise_campaign("bl", c, 5, &cap);
	assert_has(cap.out, "baseline (1.00): the unconstrained baseline "
			    "(element 0, 4 of bl): 95.37 MiB/s");
	assert_has(cap.out, "32 cores, 128 GiB, installed");
	assert_has(cap.out, "1.20");
	assert_lacks(cap.out, "relative to the full node");
	cap_free(&cap);
	/* a campaign before baselines (its largest element requested the
	 * full node): that cell, said */
	c[4] = cfg3(32, 192 * G, 0, 100e6);
	advise_campaign("old", c + 1, 4, &cap);
	assert_has(cap.out, "baseline (1.00): the largest configuration swept "
			    "(2.67 cores/OSD, 17.2 GB/OSD");
	assert_has(cap.out, "no unconstrained baseline element in these "
			    "campaigns");
	cap_free(&cap);
	/* two campaigns, each with its baseline (100 and 120): each one's
	 * own (what its figures are normalised to) and the pooled one */
	{
		char dir[32], site[64], a[128], b[128], arg_site[80];
		char *argv[] = {"advise", arg_site, "--target=seq-write=0.5",
				a,        b,        NULL};
		struct adv_config d[3];

		d[0] = cfg3(0, 0, 0, 120e6);
		d[1] = cfg3(0, 0, 100000000, 60e6);
		d[2] = cfg3(0, 0, 0, 120e6);
		c[4] = cfg3(0, 0, 0, 100e6);
		new_dir(dir);
		write_file(dir, "site.conf", catalogue_site, site,
			   sizeof(site));
		snprintf(arg_site, sizeof(arg_site), "--site=%s", site);
		write_campaign(dir, "grid", c, 5, 3, -1, a, sizeof(a));
		write_campaign(dir, "disk", d, 3, 3, -1, b, sizeof(b));
		run(argv, &cap);
		assert_has(cap.out, "baseline (1.00): the unconstrained "
				    "baseline (element 0, 4 of grid: 95.37 "
				    "MiB/s; element 0, 2 of disk: 114.44 "
				    "MiB/s): over them all, 104.90 MiB/s");
		cap_free(&cap);
		rm_dir(dir);
	}
}

/*
 * One campaign with [sweep] replication = 2, 3 (every configuration at
 * both factors): advise refuses to fit one model over both, naming the
 * factors; --replication=N takes that factor's configurations.
 */
static void test_replication_sweep(void **state)
{
	char dir[32], site[64], grid[128], disk[128], arg_site[80], idx[200];
	/* getopt permutes argv: a fresh one for each run */
	char *argv[7];
#define ARGV(opt)                                                              \
	(argv[0] = "advise", argv[1] = arg_site,                               \
	 argv[2] = "--target=seq-write=0.88", argv[3] = grid, argv[4] = disk,  \
	 argv[5] = (opt), argv[6] = NULL, argv)
	struct adv_config c[32];
	struct capture cap;
	size_t n = catalogue_campaigns(c);
	FILE *fp;

	(void)state;
	new_dir(dir);
	write_file(dir, "site.conf", catalogue_site, site, sizeof(site));
	snprintf(arg_site, sizeof(arg_site), "--site=%s", site);
	write_campaign(dir, "grid", c, 16, 3, -1, grid, sizeof(grid));
	write_campaign(dir, "disk", c + 16, n - 16, 3, -1, disk, sizeof(disk));
	/* the same grid on pools of size 2, at half the write rate */
	snprintf(idx, sizeof(idx), "%s/index.tsv", grid);
	fp = fopen(idx, "a");
	assert_non_null(fp);
	for (size_t i = 0; i < 16; i++)
		for (int r = 0; r < c[i].nreps[ADV_SEQ_WRITE]; r++)
			fprintf(fp,
				"%zu\t%s-%zu-r2\t%llu\t%llu\t%llu\t%zu\tDONE\t/r/%.6g,0,2\t\n",
				16 + i, c[i].label, i,
				(unsigned long long)c[i].cpus,
				(unsigned long long)c[i].mem,
				(unsigned long long)c[i].disk_bw, 200 + i,
				c[i].reps[ADV_SEQ_WRITE][r] / 2);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(run(ARGV(NULL), &cap), 2);
	assert_has(cap.err, "grid has configurations at replication 3, 2: "
			    "one model is fitted per replication factor: "
			    "choose one with --replication=N");
	assert_lacks(cap.out, "Model:");
	cap_free(&cap);
	assert_int_equal(run(ARGV("--replication=3"), &cap), 0);
	assert_has(cap.out, "grid: 16 configuration(s), replication 3");
	assert_has(cap.out, "Advice: 16 cores, 64 GiB RAM, hdd-5400 disks");
	cap_free(&cap);
	/* factor 2: the disk campaign ran at 3 only */
	assert_int_equal(run(ARGV("--replication=2"), &cap), 2);
	assert_has(cap.out, "grid: 16 configuration(s), replication 2");
	assert_has(cap.err, "disk has no configuration at replication 2 "
			    "(its factors: 3)");
	cap_free(&cap);
	assert_int_equal(run(ARGV("--replication=11"), &cap), 2);
	assert_has(cap.err,
		   "--replication: 11 is out of range (accepted: 1 to 10)");
	cap_free(&cap);
	rm_dir(dir);
#undef ARGV
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_targets),
		cmocka_unit_test(test_load_campaign),
		cmocka_unit_test(test_model_catalogue),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_single_point),
		cmocka_unit_test(test_flat_metric),
		cmocka_unit_test(test_disk_only_no_unthrottled),
		cmocka_unit_test(test_wide_interval),
		cmocka_unit_test(test_replication),
		cmocka_unit_test(test_replication_sweep),
		cmocka_unit_test(test_baseline),
	};

	return cmocka_run_group_tests_name("advise", tests, NULL, NULL);
}
