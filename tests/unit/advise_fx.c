/* SPDX-License-Identifier: GPL-2.0-or-later */
/* advise_fx: see advise_fx.h. */
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

/* A configuration with seq-write and rand-write repetitions. */
struct adv_config cfg(const char *label, uint64_t cpus, uint64_t mem,
		      const double *sw, int nsw, const double *rw, int nrw)
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
int fake_reader(const char *path, struct adv_config *c, struct ios_err *err)
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

/* A new directory /tmp/test_advise.XXXXXX into [dir] (len >= 32). */
void new_dir(char *dir)
{
	strcpy(dir, "/tmp/test_advise.XXXXXX");
	assert_non_null(mkdtemp(dir));
}

/* rm -rf [dir] (a new_dir: no quote in it); kept with TEST_ADVISE_SHOW
 * (to look at the plots). */
void rm_dir(const char *dir)
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
void write_file(const char *dir, const char *name, const char *text, char *path,
		size_t len)
{
	FILE *fp;

	snprintf(path, len, "%s/%s", dir, name);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
}

struct ios_site *load_site(const char *dir, const char *text)
{
	struct ios_site *site = NULL;
	struct ios_err err = {0};
	char path[256];

	write_file(dir, "site.conf", text, path, sizeof(path));
	if (ios_site_load(path, &site, &err) < 0)
		fail_msg("%s", err.msg);
	return site;
}

void cap_open(struct capture *c)
{
	memset(c, 0, sizeof(*c));
	c->o = open_memstream(&c->out, &c->olen);
	c->e = open_memstream(&c->err, &c->elen);
	assert_non_null(c->o);
	assert_non_null(c->e);
}

/* Close the streams; TEST_ADVISE_SHOW set: print what was captured. */
void cap_close(struct capture *c)
{
	assert_int_equal(fclose(c->o), 0);
	assert_int_equal(fclose(c->e), 0);
	if (getenv("TEST_ADVISE_SHOW"))
		printf("%s%s", c->out, c->err);
}

void cap_free(struct capture *c)
{
	free(c->out);
	free(c->err);
}

/* adv_model_advise on [c] with [target], output in [cap] (freed by the
 * caller with cap_free). */
int advise(const struct ios_site *site, const struct adv_config *c, size_t n,
	   const char *target, const char *plot, bool all,
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

const char catalogue_site[] = CATALOGUE_SITE("hdd-5400", "EUR", "");

/* The two campaigns of catalogue_site into c[] (24 entries). */
size_t catalogue_campaigns(struct adv_config *c)
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

/*
 * Campaign [name] under [dir] (an index.tsv of c[0..n), one line per
 * repetition of seq-write, files "sw,0,REPL" for the fake reader; element
 * [failed] FAILED, -1 none) into [path].
 */
void write_campaign(const char *dir, const char *name,
		    const struct adv_config *c, size_t n, int repl, long failed,
		    char *path, size_t len)
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
int run(char **argv, struct capture *cap)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	cap_open(cap);
	argc = adv_run(argc, argv, fake_reader, cap->o, cap->e);
	cap_close(cap);
	return argc;
}
