/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for `iostrata-report advise` (report/report_advise*.c) on
 * synthetic campaigns: target parsing, loading a campaign index with a
 * fake results reader, the catalogue search with a known answer, the
 * sentences of the printed model (single point, flat metric, no
 * unthrottled element), failed elements, the replication refusal, and the
 * plot the command draws: drawn, not drawn when every node costs the same,
 * without gnuplot, and with gnuplot payloads in every text that reaches it.
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
			     const double *sw, int nsw, const double *rw,
			     int nrw)
{
	struct adv_config c;

	memset(&c, 0, sizeof(c));
	snprintf(c.label, sizeof(c.label), "%s", label);
	c.cpus = cpus;
	c.mem = mem;
	c.nreps[ADV_SEQ_WRITE] = nsw;
	c.nreps[ADV_RAND_WRITE] = nrw;
	for (int i = 0; i < nsw; i++)
		c.reps[ADV_SEQ_WRITE][i] = sw[i];
	for (int i = 0; i < nrw; i++)
		c.reps[ADV_RAND_WRITE][i] = rw[i];
	return c;
}

/* Fake results reader: the file name holds "sw,rw[,replication]" of one
 * repetition. */
static int fake_reader(const char *path, struct adv_config *c,
		       struct ios_err *err)
{
	const char *base = strrchr(path, '/');
	double sw, rw;
	int repl = 0;

	base = base ? base + 1 : path;
	if (sscanf(base, "%lf,%lf,%d", &sw, &rw, &repl) < 2)
		return ios_errf(err, -EBADMSG, "fake: %s: not a results file",
				path);
	if (repl)
		c->replication = repl;
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

/* ---- helpers ------------------------------------------------------ */

#define assert_has(buf, s)                                                     \
	do {                                                                   \
		if (!strstr((buf), (s)))                                       \
			fail_msg("no \"%s\" in:\n%s", (s), (buf));             \
	} while (0)

#define assert_lacks(buf, s)                                                   \
	do {                                                                   \
		if (strstr((buf), (s)))                                        \
			fail_msg("\"%s\" in:\n%s", (s), (buf));                \
	} while (0)

/* A new directory /tmp/test_advise.XXXXXX into [dir] (len >= 32). */
static void new_dir(char *dir)
{
	strcpy(dir, "/tmp/test_advise.XXXXXX");
	assert_non_null(mkdtemp(dir));
}

/* rm -rf [dir] (a new_dir: no quote in it); kept with TEST_ADVISE_SHOW
 * (to look at the plots). */
static void rm_dir(const char *dir)
{
	char cmd[160];

	if (getenv("TEST_ADVISE_SHOW")) {
		printf("kept %s\n", dir);
		return;
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* [dir]/[name] with [text] in it, its path in [path]. */
static void write_file(const char *dir, const char *name, const char *text,
		       char *path, size_t len)
{
	FILE *fp;

	snprintf(path, len, "%s/%s", dir, name);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
}

static struct ios_site *load_site(const char *dir, const char *text)
{
	struct ios_site *site = NULL;
	struct ios_err err = {0};
	char path[256];

	write_file(dir, "site.conf", text, path, sizeof(path));
	if (ios_site_load(path, &site, &err) < 0)
		fail_msg("%s", err.msg);
	return site;
}

/* What a command printed on its output and message streams. */
struct capture {
	char *out, *err;
	size_t olen, elen;
	FILE *o, *e;
};

static void cap_open(struct capture *c)
{
	memset(c, 0, sizeof(*c));
	c->o = open_memstream(&c->out, &c->olen);
	c->e = open_memstream(&c->err, &c->elen);
	assert_non_null(c->o);
	assert_non_null(c->e);
}

/* Close the streams; TEST_ADVISE_SHOW set: print what was captured. */
static void cap_close(struct capture *c)
{
	assert_int_equal(fclose(c->o), 0);
	assert_int_equal(fclose(c->e), 0);
	if (getenv("TEST_ADVISE_SHOW"))
		printf("%s%s", c->out, c->err);
}

static void cap_free(struct capture *c)
{
	free(c->out);
	free(c->err);
}

/* adv_model_advise on [c] with [target], output in [cap] (freed by the
 * caller with cap_free). */
static int advise(const struct ios_site *site, const struct adv_config *c,
		  size_t n, const char *target, const char *plot, bool all,
		  struct adv_choice *ch, struct capture *cap)
{
	struct adv_target t;
	struct ios_err err = {0};
	int nmeets = -1, rc;

	if (adv_parse_targets(target, &t, &err) < 0)
		fail_msg("%s", err.msg);
	cap_open(cap);
	rc = adv_model_advise(cap->o, cap->e, site, c, n, &t, plot, all,
			      &nmeets, ch);
	cap_close(cap);
	assert_true(nmeets >= 0);
	return rc;
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

/*
 * The paper's question on a catalogue: a cores x memory campaign (8..32
 * cores x 32..192G, 5% less with 8 cores, 8% less with 32G) and a
 * disk-speed campaign on the full node (100..275 MB/s, plateau from
 * 200 MB/s) of a 10-node site with 120 drives.  Target seq-write 0.88:
 * 5400 rpm drives (180 MB/s: 0.9 of the installed 7200 rpm) need a full
 * grid cell (16 cores, 64G: 99292 EUR) and beat the 7200 rpm drives with
 * the smallest node (8 cores, 32G, 0.95: 108146 EUR); 180 MB/s lies between
 * two measured speeds: interpolated.
 */
#define CATALOGUE_SITE(DISK5400, CURRENCY, EXTRA)                              \
	"[site]\n"                                                             \
	"name = test\n" EXTRA "[storage]\n"                                    \
	"nodes = 10\n"                                                         \
	"disks_per_node = 12\n"                                                \
	"osds_per_node = 12\n"                                                 \
	"cores = 32\n"                                                         \
	"memory = 192G\n"                                                      \
	"disk_class = hdd-7200\n"                                              \
	"[prices]\n"                                                           \
	"currency = " CURRENCY "\n"                                            \
	"core = 95\n"                                                          \
	"mem_gb = 4.5\n"                                                       \
	"node_base = 4500\n"                                                   \
	"[disk \"" DISK5400 "\"]\n"                                            \
	"bw = 180MB\n"                                                         \
	"price = 300\n"                                                        \
	"[disk \"hdd-7200\"]\n"                                                \
	"bw = 250MB\n"                                                         \
	"price = 450\n"                                                        \
	"[disk \"sata-ssd\"]\n"                                                \
	"bw = 530MB\n"                                                         \
	"price = 1400\n"                                                       \
	"[catalogue]\n"                                                        \
	"cores = 8, 16, 24, 32\n"                                              \
	"memory = 32G, 64G, 128G, 192G\n"

static const char catalogue_site[] = CATALOGUE_SITE("hdd-5400", "EUR", "");

/* The two campaigns of catalogue_site into c[] (24 entries). */
static size_t catalogue_campaigns(struct adv_config *c)
{
	static const uint64_t cores[] = {8, 16, 24, 32};
	static const uint64_t mem[] = {32 * G, 64 * G, 128 * G, 192 * G};
	size_t n = 0;

	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++) {
			double v = i == 0 ? 95 : j == 0 ? 92 : 100;
			const double r[] = {v, v, v};

			c[n++] = cfg("cm", cores[i], mem[j], r, 3, r, 0);
		}
	for (int d = 100; d <= 275; d += 25) {
		double v = 100 * fmin(d, 200) / 200;
		const double r[] = {v, v, v};

		c[n] = cfg("disk", 0, 0, r, 3, r, 0);
		c[n++].disk_bw = (uint64_t)d * 1000000;
	}
	return n;
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

/* ---- the command ---------------------------------------------------- */

/*
 * Campaign [name] under [dir] (an index.tsv of c[0..n), one line per
 * repetition of seq-write, files "sw,0,REPL" for the fake reader; element
 * [failed] FAILED, -1 none) into [path].
 */
static void write_campaign(const char *dir, const char *name,
			   const struct adv_config *c, size_t n, int repl,
			   long failed, char *path, size_t len)
{
	char idx[4200];
	FILE *fp;

	snprintf(path, len, "%s/%s", dir, name);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(idx, sizeof(idx), "%s/index.tsv", path);
	fp = fopen(idx, "w");
	assert_non_null(fp);
	fprintf(fp, "element\tlabel\tcpus\tmem_bytes\tdisk_bw_Bps\tjobid\tstate"
		    "\tfile\tnote\n");
	for (size_t i = 0; i < n; i++) {
		for (int r = 0; r < c[i].nreps[ADV_SEQ_WRITE]; r++)
			fprintf(fp,
				"%zu\t%s-%zu\t%llu\t%llu\t%llu\t%zu\t%s\t"
				"/r/%.6g,0,%d\t\n",
				i, c[i].label, i, (unsigned long long)c[i].cpus,
				(unsigned long long)c[i].mem,
				(unsigned long long)c[i].disk_bw, 100 + i,
				(long)i == failed ? "FAILED" : "DONE",
				c[i].reps[ADV_SEQ_WRITE][r], repl);
	}
	assert_int_equal(fclose(fp), 0);
}

/* adv_run on argv (NULL-terminated), output in [cap]. */
static int run(char **argv, struct capture *cap)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	cap_open(cap);
	argc = adv_run(argc, argv, fake_reader, cap->o, cap->e);
	cap_close(cap);
	return argc;
}

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

/* ---- the plot ------------------------------------------------------- */

/* Whether [dir] holds a file PWNED (a payload ran). */
static bool pwned(const char *dir)
{
	char path[200];

	snprintf(path, sizeof(path), "%s/PWNED", dir);
	return access(path, F_OK) == 0;
}

static off_t file_size(const char *prefix, const char *ext)
{
	char path[4200];
	struct stat st;

	snprintf(path, sizeof(path), "%s.%s", prefix, ext);
	return stat(path, &st) == 0 ? st.st_size : -1;
}

/*
 * The plot the command draws: PNG and SVG, the advised node labelled by
 * name in the data; without gnuplot the data and script are still written
 * and the failure said (exit 1); a prefix with a control character is
 * refused.
 */
static void test_plot(void **state)
{
	char dir[32], prefix[64], *dat = NULL, path[80];
	struct adv_config c[32];
	struct capture cap;
	struct ios_site *site;
	size_t n = catalogue_campaigns(c), len = 0;
	FILE *fp;

	(void)state;
	if (!gp_find())
		skip(); /* no gnuplot on this machine */
	new_dir(dir);
	site = load_site(dir, catalogue_site);
	snprintf(prefix, sizeof(prefix), "%s/adv", dir);
	assert_int_equal(
		advise(site, c, n, "seq-write=0.88", prefix, false, NULL, &cap),
		0);
	assert_has(cap.out, "Plot: ");
	assert_int_equal(cap.err[0], '\0');
	cap_free(&cap);
	assert_true(file_size(prefix, "png") > 5000);
	assert_true(file_size(prefix, "svg") > 5000);
	snprintf(path, sizeof(path), "%s.dat", prefix);
	fp = fopen(path, "r");
	assert_non_null(fp);
	assert_true(getdelim(&dat, &len, '\0', fp) > 0);
	fclose(fp);
	assert_has(dat, " 1 \"16 cores, 64 GiB, hdd-5400\"\n");
	free(dat);
	/* gnuplot missing */
	unlink(path);
	setenv("GNUPLOT", "/nonexistent/gnuplot", 1);
	assert_int_equal(
		advise(site, c, n, "seq-write=0.88", prefix, false, NULL, &cap),
		1);
	unsetenv("GNUPLOT");
	assert_has(cap.err, "not found");
	assert_true(file_size(prefix, "dat") > 0);
	assert_true(file_size(prefix, "gp") > 0);
	cap_free(&cap);
	/* a prefix gnuplot would be told differently */
	assert_int_equal(
		advise(site, c, n, "seq-write=0.88", "a\nb", false, NULL, &cap),
		1);
	assert_has(cap.err, "invalid value \"a\nb\" for --plot");
	cap_free(&cap);
	ios_site_free(site);
	rm_dir(dir);
}

/*
 * Issue 11: every text of the command that reaches the plot, from files
 * users write, carries gnuplot payloads (backquotes, system(), $(), @
 * macros, runs of quotes, text from ${VAR} in the site file): the currency, the
 * name of the advised disk class (placed by the site file), the site's name and
 * the classes' descriptions, the campaign directories and configuration labels,
 * and the --plot prefix.  The command is run from the directory the payloads
 * name: no payload runs, the plot is still drawn.
 */
#define PAY "`touch PWNED`'.system('touch PWNED').'$(touch PWNED)@PAY''''x"
static void test_plot_hostile(void **state)
{
	static const char site_text[] = CATALOGUE_SITE(
		"h`touch PWNED`'.system('touch PWNED').'$(touch PWNED)@x'''",
		"EUR" PAY "${TEST_ADVISE_NL}",
		"description = " PAY "${TEST_ADVISE_NL}\n");
	char dir[32], site[64], grid[4200], disk[4200], arg_site[80];
	char arg_plot[200], wd[4096], label[64];
	char *argv[] = {"advise", arg_site, "--target=seq-write=0.88",
			arg_plot, grid,     disk,
			NULL};
	struct adv_config c[32];
	struct capture cap;
	size_t n = catalogue_campaigns(c);
	int rc;

	(void)state;
	if (!gp_find())
		skip(); /* no gnuplot on this machine */
	/* newlines and escapes from ${VAR} are refused when the site file
	 * is read (test_siteconf); the rest of the payload stays */
	setenv("TEST_ADVISE_NL", "' !touch PWNED; system('touch PWNED')", 1);
	snprintf(label, sizeof(label), "%s",
		 "l`touch PWNED`\"$(touch PWNED)\"'");
	for (size_t i = 0; i < n; i++)
		snprintf(c[i].label, sizeof(c[i].label), "%s", label);
	new_dir(dir);
	write_file(dir, "site.conf", site_text, site, sizeof(site));
	snprintf(arg_site, sizeof(arg_site), "--site=%s", site);
	snprintf(arg_plot, sizeof(arg_plot), "--plot=%s/p" PAY, dir);
	write_campaign(dir, "grid" PAY, c, 16, 3, -1, grid, sizeof(grid));
	write_campaign(dir, "disk" PAY, c + 16, n - 16, 3, -1, disk,
		       sizeof(disk));
	assert_non_null(getcwd(wd, sizeof(wd)));
	assert_int_equal(chdir(dir), 0);
	rc = run(argv, &cap);
	assert_int_equal(chdir(wd), 0);
	unsetenv("TEST_ADVISE_NL");
	if (pwned(dir))
		fail_msg("a payload ran (exit %d): %s", rc, cap.err);
	if (rc != 0)
		fail_msg("exit %d: %s", rc, cap.err);
	assert_has(cap.out, "Advice: 16 cores, 64 GiB RAM, h`touch PWNED`");
	assert_has(cap.out, "Plot: ");
	assert_true(file_size(arg_plot + strlen("--plot="), "png") > 5000);
	assert_true(file_size(arg_plot + strlen("--plot="), "svg") > 5000);
	cap_free(&cap);
	/* a newline and a terminal escape from ${VAR}: the site is refused,
	 * naming the key; nothing reaches the terminal or gnuplot */
	setenv("TEST_ADVISE_NL", "'\n!touch PWNED\n\x1b[1m", 1);
	rc = run(argv, &cap);
	unsetenv("TEST_ADVISE_NL");
	assert_int_equal(rc, 2);
	assert_has(cap.err, "site.description: byte 0x0a at offset");
	assert_null(strchr(cap.out, '\x1b'));
	assert_null(strchr(cap.err, '\x1b'));
	assert_false(pwned(dir));
	cap_free(&cap);
	rm_dir(dir);
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
	char sticky[64], victim[128], prefix[128], bad[1024], dir[32];
	struct adv_config c[32];
	struct capture cap;
	struct ios_site *site;
	size_t n = catalogue_campaigns(c);
	int rc;

	(void)state;
	hostile_dir(sticky, sizeof(sticky), "test_advise_sticky");
	new_dir(dir);
	site = load_site(dir, catalogue_site);
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	hostile_victim(victim);
	hostile_plant(sticky, names, nn, victim);
	snprintf(prefix, sizeof(prefix), "%s/adv", sticky);
	rc = advise(site, c, n, "seq-write=0.88", prefix, false, NULL, &cap);
	/* without gnuplot only the data and the script are written */
	hostile_check(victim, sticky, gp_find() ? names : names + 2,
		      gp_find() ? nn : 2, bad, sizeof(bad));
	ios_site_free(site);
	rm_dir(sticky);
	rm_dir(dir);
	if (bad[0])
		fail_msg("advise returned %d (%s): %s", rc, cap.err, bad);
	cap_free(&cap);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_targets),
		cmocka_unit_test(test_load_campaign),
		cmocka_unit_test(test_model_catalogue),
		cmocka_unit_test(test_single_point),
		cmocka_unit_test(test_flat_metric),
		cmocka_unit_test(test_disk_only_no_unthrottled),
		cmocka_unit_test(test_replication),
		cmocka_unit_test(test_plot),
		cmocka_unit_test(test_plot_hostile),
		cmocka_unit_test(test_plot_outputs_hostile),
	};

	return cmocka_run_group_tests_name("advise", tests, NULL, NULL);
}
