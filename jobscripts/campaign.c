/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iostrata-campaign: run an experiment of the paper as a campaign of Slurm
 * jobs.  `submit` expands a site description's sweep into elements (one
 * heterogeneous job per storage-node configuration), submits them with
 * sbatch (so the SPANK plugin validates the --iostrata-* options at submit
 * time), `status` reads their states through libslurm, `collect` gathers the
 * results files into the campaign directory with an index.  `getvar`/`env`
 * let job scripts read the site description without parsing INI in bash.
 *
 * Why not `sbatch --array=...%N`: Slurm refuses arrays of heterogeneous jobs,
 * and SPANK options are per job, so array elements could not carry different
 * --iostrata-* values anyway.  The array's "%N" throttle is reproduced with
 * --dependency=afterany on the element submitted N places earlier (at most N
 * elements run at once).  --dependency=singleton would be the obvious tool
 * but deadlocks heterogeneous jobs in Slurm 22.05 (each component waits for
 * the other, which has the same name).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <glob.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include "campaign.h"
#include "campaign_estimate.h"
#include "safefile.h"
#include "siteconf.h"
#include "slurmcompat.h"
#include "units.h"

#include "campaign_internal.h"

static int usage(FILE *fp)
{
	fprintf(fp,
		"Usage: " PROG " COMMAND ...\n"
		"  submit SITE JOB [--campaign=DIR] [--throttle=N] [--resume] [--dry-run] [-- SBATCH_ARGS...]\n"
		"         expand JOB over SITE's sweep and submit one Slurm job per element\n"
		"  status SITE JOB [--campaign=DIR] [--wait[=SECONDS]]\n"
		"         elements done / failed / running / pending (job states via libslurm), the wall-clock efficiency,\n"
		"         and for sweeps the estimate (plan --estimate): elements done, their time against it, the hours left\n"
		"  collect SITE JOB [--campaign=DIR]\n"
		"         gather results files into DIR/results with DIR/index.tsv and index.json\n"
		"  plan SITE JOB [--campaign=DIR] [--estimate]\n"
		"         print the elements and their --iostrata-* options (and the pool of each with\n"
		"         [sweep] replication); a sweep of the storage nodes runs between its unconstrained\n"
		"         baseline (options -: the host whole), first and last ([sweep] baseline);\n"
		"         --estimate: the campaign's expected hours (phases x repetitions x runtime, the\n"
		"         lay-out with and without dataset reuse, the overheads per repetition and per\n"
		"         element: measured from DIR's elements/N/timing when there are any, else stated\n"
		"         defaults); status prints it too, with the elements done against it\n"
		"  clean SITE JOB [--campaign=DIR]\n"
		"         remove the datasets its elements shared ([workload] reuse_dataset) and the pools and directories it made for [sweep] replication:\n"
		"         only what it derives from SITE and DIR (PREFIX-rN, [workload] dir/PREFIX-rN, iostrata-datasets/<campaign>/KEY),\n"
		"         reached without a symlink and yours, a pool or factor directory only with this campaign's mark (submit sets\n"
		"         the pool's application metadata iostrata campaign=ID and the xattr user.iostrata.campaign, ID in DIR/campaign.id);\n"
		"         a record line naming anything else is refused as FILE:LINE (exit 2), the valid ones still go\n"
		"  getvar SITE SECTION.KEY [--list] [--default=VALUE]\n"
		"         print one value of the site description (--list: one item per line)\n"
		"  env SITE             print the whole site description as shell assignments\n"
		"                       IOS_<SECTION>_<KEY>='value' (for eval in job scripts)\n"
		"  --help               this text\n"
		"  --version            print the version\n"
		"SITE is a site.conf file or a directory holding one (e.g. site/local).\n"
		"JOB is one of: " CAMP_JOBS ".\n"
		"DIR defaults to $IOSTRATA_CAMPAIGNS (else ./campaigns)/<site name>-<JOB>; submit, status,\n"
		"collect and clean use it only as a directory of yours (not a symlink) that others cannot write.\n"
		"submit refuses (exit 2, before anything is made) any value sbatch --export cannot carry: ',', quotes, '=', control characters.\n"
		"Exit: 0 all done, 1 some element failed (results kept, marked; clean: something not removed), 2 bad usage or input\n"
		"      (clean: a record refused),\n"
		"      3 (status) elements still pending or running, 4 (status) every element ran to its end\n"
		"      but some verdict is not met (acceptance: state DONE (FAIL: N of M metrics), where a\n"
		"      job that failed is FAILED (exit N: why)).\n");
	return fp == stdout ? 0 : 2;
}

static int die_usage(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static int die_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	return usage(stderr);
}

/* ------------------------------------------------------------ getvar/env */

static int cmd_getvar(const char *site_arg, const char *var,
		      const struct opts *o)
{
	struct ios_site *s = NULL;
	struct ios_err err = {0};
	char section[256];
	const char *dot = strrchr(var, '.'), *v;
	int rc;

	if (!dot || dot == var || !dot[1])
		return die_usage("getvar \"%s\": expected SECTION.KEY", var);
	snprintf(section, sizeof(section), "%.*s", (int)(dot - var), var);
	if (ios_site_key_kind(section, dot + 1) < 0) {
		fprintf(stderr,
			PROG
			": getvar \"%s\": no such key in the site format (see site/siteconf.h)\n",
			var);
		return 2;
	}
	rc = ios_site_load(site_arg, &s, &err);
	if (rc < 0) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		return 2;
	}
	v = ios_site_get(s, section, dot + 1);
	if (!v) {
		if (o->dflt) {
			printf("%s\n", o->dflt);
			ios_site_free(s);
			return 0;
		}
		fprintf(stderr, PROG ": getvar %s: %s: [%s] %s: not set\n", var,
			ios_site_path(s), section, dot + 1);
		ios_site_free(s);
		return 1;
	}
	if (o->list) {
		uint64_t *items = NULL;
		int n = ios_site_get_list(s, section, dot + 1, &items, &err);

		if (n < 0) {
			fprintf(stderr, PROG ": %s\n", err.msg);
			ios_site_free(s);
			return 2;
		}
		for (int i = 0; i < n; i++)
			printf("%llu\n", (unsigned long long)items[i]);
		free(items);
	} else {
		printf("%s\n", v);
	}
	ios_site_free(s);
	return 0;
}

struct env_ctx {
	const struct ios_site *s;
};

static void print_env_var(const char *section, const char *key,
			  const char *value)
{
	putchar('I');
	fputs("OS_", stdout);
	for (const char *p = section; *p; p++)
		putchar(isalnum((unsigned char)*p) ? toupper((unsigned char)*p)
						   : '_');
	putchar('_');
	for (const char *p = key; *p; p++)
		putchar(isalnum((unsigned char)*p) ? toupper((unsigned char)*p)
						   : '_');
	putchar('=');
	putchar('\'');
	for (const char *p = value; *p; p++) {
		if (*p == '\'')
			fputs("'\\''", stdout);
		else
			putchar(*p);
	}
	fputs("'\n", stdout);
}

struct env_sec {
	const struct env_ctx *c;
	const char *section;
};

static int env_key(const char *key, void *arg)
{
	const struct env_sec *e = arg;
	const char *v = ios_site_get(e->c->s, e->section, key);

	if (v)
		print_env_var(e->section, key, v);
	return 0;
}

/* Every key the site format declares for a plain section (the table in
 * site/siteconf.c: one list, so a new key reaches the job scripts); the
 * named sections (tier "NAME", disk "NAME") are read by the tools. */
static int env_section(const char *section, const char *name, void *arg)
{
	struct env_sec e = {.c = arg, .section = section};

	if (strcmp(section, name) != 0)
		return 0;
	return ios_site_keys(section, env_key, &e);
}

static int cmd_env(const char *site_arg)
{
	struct ios_site *s = NULL;
	struct ios_err err = {0};
	struct env_ctx c;

	if (ios_site_load(site_arg, &s, &err) < 0) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		return 2;
	}
	c.s = s;
	print_env_var("site", "file", ios_site_path(s));
	ios_site_sections(s, "", env_section, &c);
	ios_site_free(s);
	return 0;
}
/* ------------------------------------------------------------ main */

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"campaign", required_argument, NULL, 'c'},
		{"throttle", required_argument, NULL, 't'},
		{"resume", no_argument, NULL, 'r'},
		{"dry-run", no_argument, NULL, 'n'},
		{"wait", optional_argument, NULL, 'w'},
		{"list", no_argument, NULL, 'l'},
		{"default", required_argument, NULL, 'd'},
		{"estimate", no_argument, NULL, 'e'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct opts o = {0};
	struct campaign c = {0};
	const char *cmd;
	char *pos[3];
	int npos = 0, opt, rc;
	uint64_t u;
	struct ios_err err = {0};

	if (argc < 2)
		return usage(stderr);
	cmd = argv[1];
	if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 ||
	    strcmp(cmd, "help") == 0)
		return usage(stdout);
	if (strcmp(cmd, "--version") == 0) {
		printf(PROG " %s (%s)\n", PACKAGE_VERSION,
		       IOSTRATA_GIT_REVISION);
		return 0;
	}
	optind = 2;
	while ((opt = getopt_long(argc, argv, "+h", longopts, NULL)) != -1 ||
	       optind < argc) {
		if (opt == -1) {
			/* positional argument (or "--" then sbatch args) */
			if (strcmp(argv[optind - 1], "--") == 0) {
				o.extra = &argv[optind];
				break;
			}
			if (npos == 3)
				return die_usage("unexpected argument \"%s\"",
						 argv[optind]);
			pos[npos++] = argv[optind++];
			continue;
		}
		switch (opt) {
		case 'c':
			o.campaign = optarg;
			break;
		case 't':
			if (ios_parse_uint(optarg, "--throttle", 0, 100000, &u,
					   &err) < 0) {
				fprintf(stderr, PROG ": %s\n", err.msg);
				return 2;
			}
			o.throttle = (unsigned)u;
			o.throttle_set = true;
			break;
		case 'r':
			o.resume = true;
			break;
		case 'n':
			o.dry_run = true;
			break;
		case 'w':
			o.wait = 3600;
			if (optarg && ios_parse_duration(optarg, "--wait",
							 &o.wait, &err) < 0) {
				fprintf(stderr, PROG ": %s\n", err.msg);
				return 2;
			}
			break;
		case 'l':
			o.list = true;
			break;
		case 'd':
			o.dflt = optarg;
			break;
		case 'e':
			o.estimate = true;
			break;
		case 'h':
			return usage(stdout);
		default:
			return usage(stderr);
		}
	}
	if (strcmp(cmd, "getvar") == 0) {
		if (npos != 2)
			return die_usage("%s: expected SITE SECTION.KEY", cmd);
		return cmd_getvar(pos[0], pos[1], &o);
	}
	if (strcmp(cmd, "env") == 0) {
		if (npos != 1)
			return die_usage("%s: expected SITE", cmd);
		return cmd_env(pos[0]);
	}
	if (strcmp(cmd, "submit") != 0 && strcmp(cmd, "status") != 0 &&
	    strcmp(cmd, "collect") != 0 && strcmp(cmd, "plan") != 0 &&
	    strcmp(cmd, "clean") != 0)
		return die_usage("unknown command \"%s\"", cmd);
	if (npos != 2)
		return die_usage("%s: expected SITE JOB", cmd);
	if (o.estimate && strcmp(cmd, "plan") != 0)
		return die_usage("%s: --estimate is plan's option", cmd);
	if (camp_open(&c, pos[0], pos[1], o.campaign) < 0) {
		camp_close(&c);
		return 2;
	}
	if (strcmp(cmd, "plan") == 0) {
		unsigned runs, phases;

		if (o.estimate && camp_est_shape(c.job, &runs, &phases) < 0) {
			fprintf(stderr,
				PROG
				": plan --estimate: job %s: not estimated (accepted: sweep-cores-mem, sweep-disk-bw, sweep-threads)\n",
				c.job);
			camp_close(&c);
			return 2;
		}
		for (size_t i = 0; i < c.nel; i++) {
			printf("%d\t%s\t%s", c.el[i].index, c.el[i].label,
			       c.el[i].options[0] ? c.el[i].options : "-");
			if (c.el[i].replication)
				printf("\treplication=%u pool=%s",
				       c.el[i].replication, c.el[i].pool);
			printf("\n");
		}
		rc = o.estimate && camp_print_estimate(&c, false) < 0 ? 2 : 0;
		camp_close(&c);
		return rc;
	}
	if (camp_dir_check(c.dir) < 0) {
		camp_close(&c);
		return 2;
	}
	if (!o.dry_run)
		slurm_init(NULL);
	if (strcmp(cmd, "submit") == 0)
		rc = camp_cmd_submit(&c, &o);
	else if (strcmp(cmd, "status") == 0)
		rc = camp_cmd_status(&c, &o);
	else if (strcmp(cmd, "clean") == 0)
		rc = camp_cmd_clean(&c);
	else
		rc = camp_cmd_collect(&c);
	camp_close(&c);
	if (!o.dry_run)
		slurm_fini();
	return rc;
}
