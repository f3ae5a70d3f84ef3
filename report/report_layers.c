// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report_layers: `iostrata-report layers` (layers area): for each layered
 * run (iostrata-bench --layers) the four layer numbers, the ceiling checks
 * and the verdict, recomputed from the file with model/layers.c; then
 * the paper's Table 4 over the runs (one row per replication factor of the
 * protocol pool): read and write efficiency of the protocol and full-stack
 * layers against the peak computed from the measured device and network
 * layers, and against the rated peak of a site description (--site).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "layers.h"
#include "report.h"
#include "report_layers.h"
#include "siteconf.h"
#include "units.h"

#define MAX_ROWS 16

static int cfg_int(const struct ios_run *run, const char *key, int def)
{
	const char *v = report_config(run, key);

	return v && *v ? atoi(v) : def;
}

/* Rebuild the numbers of a layered run from its file; false if not one. */
static bool numbers_of(const struct ios_run *run, struct lyr_numbers *n)
{
	const char *v = report_config(run, "layers");

	if (!v || strcmp(v, "1"))
		return false;
	memset(n, 0, sizeof(*n));
	for (int l = 0; l < LYR_NLAYERS; l++) {
		n->bw[l][LYR_READ] = n->bw[l][LYR_WRITE] = NAN;
		n->direct[l] = true;
	}
	n->replicas = cfg_int(run, "layers.replicas", 0);
	n->fs_replicas = cfg_int(run, "layers.fs_replicas", 0);
	n->osds = cfg_int(run, "layers.osds", 0);
	n->device_ranks = cfg_int(run, "layers.device_ranks", 0);
	n->storage_nodes = cfg_int(run, "layers.storage_nodes", 0);
	n->one_host = cfg_int(run, "layers.one_host", 0) != 0;
	n->roles_known = cfg_int(run, "layers.roles_known", 0) != 0;
	n->clients = cfg_int(run, "layers.clients", 0);
	for (int i = 0; i < run->nlayers; i++) {
		const struct ios_layer *ly = &run->layers[i];

		for (int l = 0; l < LYR_NLAYERS; l++) {
			if (strcmp(ly->name, lyr_layer_names[l]))
				continue;
			n->bw[l][LYR_READ] = ly->read_bw;
			n->bw[l][LYR_WRITE] = ly->write_bw;
			n->direct[l] = !strstr(ly->note, "buffered");
		}
	}
	/* the device layer's balanced bound, from its phases' per-rank
	 * bytes (as the benchmark computed it) */
	for (int i = 0; i < run->nphases; i++) {
		const struct ios_phase_result *ph = &run->phases[i];

		if (strcmp(ph->layer, "device"))
			continue;
		if (strcmp(ph->name, "write") == 0)
			n->dev_bound[LYR_WRITE] = lyr_balanced_bw(ph);
		else if (strcmp(ph->name, "read") == 0)
			n->dev_bound[LYR_READ] = lyr_balanced_bw(ph);
	}
	return true;
}

static const char *rate(double v, char *buf, size_t len)
{
	return isnan(v) ? "-" : ios_fmt_rate(v, buf, len);
}

static void eff(char *buf, size_t len, double v, double peak)
{
	if (isnan(v) || isnan(peak) || peak <= 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.3f", v / peak);
}

struct row {
	int replication;
	double bw[2][2]; /* [0 protocol, 1 full stack][dir], best */
	double peak[2];  /* measured peak per direction, min over runs */
};

static double fmax_nan(double a, double b)
{
	return isnan(a) ? b : isnan(b) ? a : fmax(a, b);
}

static double fmin_nan(double a, double b)
{
	return isnan(a) ? b : isnan(b) ? a : fmin(a, b);
}

static void table4(const char *title, const struct row *rows, size_t nrows,
		   const double *peak_override)
{
	printf("%s\n", title);
	printf("| Replication factor | Protocol read eff. | Protocol write eff. | Full-stack read eff. | Full-stack write eff. |\n");
	printf("| --- | --- | --- | --- | --- |\n");
	for (size_t i = 0; i < nrows; i++) {
		const struct row *r = &rows[i];
		char c[4][32];

		for (int k = 0; k < 2; k++)
			for (int d = 0; d < 2; d++) {
				double pk = peak_override ? peak_override[d]
							  : r->peak[d];

				/* columns: proto R, proto W, full R, full W */
				eff(c[k * 2 + (d == LYR_WRITE)], 32,
				    r->bw[k][d], pk);
			}
		if (r->replication > 0)
			printf("| %d | %s | %s | %s | %s |\n", r->replication,
			       c[0], c[1], c[2], c[3]);
		else
			printf("| unknown | %s | %s | %s | %s |\n", c[0], c[1],
			       c[2], c[3]);
	}
	printf("\n");
}

/* The site's rated peak (report_peak_compute on its [storage] section)
 * into [*rated].  0, or -1 said on stderr. */
static int rated_peak(const char *site_path, bool measured, double *rated)
{
	struct ios_site *site = NULL;
	struct ios_err err = {0};
	struct report_peak_in in = {0};
	struct report_peak pk;

	if (ios_site_load(site_path, &site, &err) < 0)
		goto bad_site;
	if (report_peak_site(site, measured, &in, &err) < 0)
		goto bad_site;
	ios_site_free(site);
	report_peak_compute(&in, &pk);
	*rated = pk.total;
	return 0;
bad_site:
	fprintf(stderr, "iostrata-report layers: %s\n", err.msg);
	ios_site_free(site);
	return -1;
}

/*
 * The client the full-stack layer went through, from the records of the
 * hosts that ran it (role "client"; filesystem.client: kernel, fuse or
 * libcephfs, its type and mount point): "fuse (fuse.ceph-fuse on /mnt:
 * c1 c2)", one group per kind of mount, "; " between them.  [kind] gets
 * the first group's client kind, "" when no record says.
 */
static void fullstack_client(const struct ios_run *run, char *buf, size_t len,
			     char *kind, size_t klen)
{
	char key[8][192], hosts[8][256];
	int ng = 0;
	size_t off = 0;

	buf[0] = kind[0] = '\0';
	for (int i = 0; i < run->nhosts; i++) {
		json_t *h = json_loads(run->host_json[i], 0, NULL), *fs;
		const char *role, *cl, *ty, *mp, *hn;
		char k[192];
		int g;

		fs = json_object_get(h, "filesystem");
		role = json_string_value(json_object_get(h, "role"));
		cl = json_string_value(json_object_get(fs, "client"));
		ty = json_string_value(json_object_get(fs, "type"));
		mp = json_string_value(json_object_get(fs, "mount_point"));
		hn = json_string_value(json_object_get(h, "hostname"));
		if (!role || strcmp(role, "client") || !cl) {
			json_decref(h);
			continue;
		}
		snprintf(k, sizeof(k), "%s (%s on %s", cl, ty ? ty : "?",
			 mp ? mp : "?");
		for (g = 0; g < ng && strcmp(key[g], k); g++)
			;
		if (g == ng && ng < 8) {
			snprintf(key[ng], sizeof(key[ng]), "%s", k);
			hosts[ng][0] = '\0';
			ng++;
			if (!kind[0])
				snprintf(kind, klen, "%s", cl);
		}
		if (g < ng) {
			size_t l = strlen(hosts[g]);

			snprintf(hosts[g] + l, sizeof(hosts[g]) - l, " %s",
				 hn ? hn : "?");
		}
		json_decref(h);
	}
	for (int g = 0; g < ng && off < len; g++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s:%s)",
					g ? "; " : "", key[g], hosts[g]);
	if (!ng)
		snprintf(
			buf, len,
			"not recorded (no client host record names its filesystem client)");
}

/* One layered run: its layers, bandwidth per layer, and the verdict. */
static void print_run(const struct report_run *r, const struct lyr_numbers *num,
		      const struct lyr_check *ck, int nc)
{
	char *v;

	printf("== %s (status %s, pool size %d)\n", r->path,
	       r->run->status ? r->run->status : "?", num->replicas);
	for (int l = 0; l < LYR_NLAYERS; l++) {
		char a[32], b[32];

		if (isnan(num->bw[l][0]) && isnan(num->bw[l][1]))
			continue;
		printf("  %-14s write %-14s read %-14s\n", lyr_layer_names[l],
		       rate(num->bw[l][LYR_WRITE], a, sizeof(a)),
		       rate(num->bw[l][LYR_READ], b, sizeof(b)));
	}
	if (!isnan(num->bw[LYR_FULLSTACK][0]) ||
	    !isnan(num->bw[LYR_FULLSTACK][1])) {
		char cl[1024], k[32];

		fullstack_client(r->run, cl, sizeof(cl), k, sizeof(k));
		printf("  full stack through: %s\n", cl);
	}
	v = lyr_verdict(num, ck, nc, NULL);
	if (v)
		fputs(v, stdout);
	free(v);
	printf("\n");
}

/* A run into its replication's row of Table 4 (a new row if there is
 * room): the best protocol and full-stack figures, the lowest measured
 * peak. */
static void add_to_row(struct row *rows, size_t *nrows,
		       const struct lyr_numbers *num)
{
	int k;

	for (k = 0; k < (int)*nrows; k++)
		if (rows[k].replication == num->replicas)
			break;
	if (k == (int)*nrows) {
		if (*nrows == MAX_ROWS)
			return;
		memset(&rows[k], 0, sizeof(rows[k]));
		rows[k].replication = num->replicas;
		for (int a = 0; a < 2; a++) {
			rows[k].peak[a] = NAN;
			rows[k].bw[0][a] = rows[k].bw[1][a] = NAN;
		}
		(*nrows)++;
	}
	for (int d = 0; d < 2; d++) {
		double fs = num->direct[LYR_FULLSTACK]
				    ? num->bw[LYR_FULLSTACK][d]
				    : NAN; /* cached: not a number */

		rows[k].bw[0][d] =
			fmax_nan(rows[k].bw[0][d], num->bw[LYR_PROTOCOL][d]);
		rows[k].bw[1][d] = fmax_nan(rows[k].bw[1][d], fs);
		rows[k].peak[d] =
			fmin_nan(rows[k].peak[d], lyr_peak_measured(num, d));
	}
}

/* The rows by replication, Table 4 against the measured peak and (with
 * --site) against the rated one, and the notes under them. */
static void print_tables(struct row *rows, size_t nrows, double rated,
			 const char *site_path, int nsuspect)
{
	char title[256], p0[32], p1[32];
	double rp[2] = {rated, rated};

	for (size_t a = 0; a < nrows; a++)
		for (size_t b = a + 1; b < nrows; b++)
			if (rows[b].replication < rows[a].replication) {
				struct row t = rows[a];

				rows[a] = rows[b];
				rows[b] = t;
			}
	if (!nrows)
		return;
	table4("Table 4 (measured peak: min(device x OSDs / device targets, network) of each replication's runs)",
	       rows, nrows, NULL);
	for (size_t i = 0; i < nrows; i++)
		printf("  replication %d: measured peak read %s, write %s\n",
		       rows[i].replication,
		       rate(rows[i].peak[LYR_READ], p0, sizeof(p0)),
		       rate(rows[i].peak[LYR_WRITE], p1, sizeof(p1)));
	printf("\n");
	if (!isnan(rated)) {
		snprintf(title, sizeof(title), "Table 4 (rated peak of %s: %s)",
			 site_path, rate(rated, p0, sizeof(p0)));
		table4(title, rows, nrows, rp);
	} else {
		printf("(no --site: rated peak not computed)\n");
	}
	if (nsuspect)
		printf("%d number(s) above a ceiling or measured without direct I/O: suspected caching, not durable throughput (see the verdicts).\n",
		       nsuspect);
	printf("Efficiency = stonewalled aggregate bandwidth / peak; write efficiency is not divided by the replication factor (as in the paper). A full stack measured without direct I/O is left out.\n");
}

/* The full stack by client kind over the runs: the best write and read
 * of each kind (libcephfs: the fullstack-lib layer). */
struct by_client {
	char kind[32];
	int runs;
	double bw[2];
};

static void add_client(struct by_client *bc, int *n, const char *kind,
		       const double *bw)
{
	int k;

	if (!kind[0] || (isnan(bw[0]) && isnan(bw[1])))
		return;
	for (k = 0; k < *n && strcmp(bc[k].kind, kind); k++)
		;
	if (k == *n) {
		if (*n == 8)
			return;
		snprintf(bc[k].kind, sizeof(bc[k].kind), "%s", kind);
		bc[k].runs = 0;
		bc[k].bw[0] = bc[k].bw[1] = NAN;
		(*n)++;
	}
	bc[k].runs++;
	for (int d = 0; d < 2; d++)
		bc[k].bw[d] = fmax_nan(bc[k].bw[d], bw[d]);
}

static void print_by_client(const struct by_client *bc, int n)
{
	if (n < 2)
		return;
	printf("Full stack by client (the best of each kind's runs; compare clients on hosts of one kind: a 1-CPU guest is not a compute node)\n");
	printf("| Client | Runs | Full-stack write | Full-stack read |\n");
	printf("| --- | --- | --- | --- |\n");
	for (int k = 0; k < n; k++) {
		char a[32], b[32];

		printf("| %s | %d | %s | %s |\n", bc[k].kind, bc[k].runs,
		       rate(bc[k].bw[LYR_WRITE], a, sizeof(a)),
		       rate(bc[k].bw[LYR_READ], b, sizeof(b)));
	}
	printf("\n");
}

int report_layers(int argc, char **argv)
{
	static const struct option opts[] = {
		{"site", required_argument, NULL, 's'},
		{"measured", no_argument, NULL, 'm'},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *site_path = NULL;
	bool measured = false, quiet = false;
	struct report_run *runs;
	struct row rows[MAX_ROWS];
	size_t n, nrows = 0, nlayered = 0;
	double rated = NAN;
	int c, nbad, nsuspect = 0, nbc = 0;
	struct by_client bc[8];

	optind = 1;
	while ((c = getopt_long(argc, argv, "s:mqh", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			site_path = optarg;
			break;
		case 'm':
			measured = true;
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			printf("usage: iostrata-report layers [--site=SITE.conf|DIR [--measured]] [--quiet] FILE...\n"
			       "  per layered run: the four layers, ceiling checks and verdict (recomputed);\n"
			       "  then Table 4: protocol and full-stack efficiency per replication factor\n"
			       "  against the peak from the measured device and network layers, and\n"
			       "  against the site's rated peak (--site; --measured uses disk_bw_measured).\n"
			       "  --quiet prints only the tables.\n");
			return REPORT_EXIT_OK;
		default:
			return REPORT_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fprintf(stderr,
			"iostrata-report layers: no results file given (usage: iostrata-report layers [--site=FILE] FILE...)\n");
		return REPORT_EXIT_USAGE;
	}
	if (site_path && rated_peak(site_path, measured, &rated) < 0)
		return REPORT_EXIT_FAIL;
	runs = report_load(argc - optind, argv + optind, &n, &nbad);
	for (size_t i = 0; i < n; i++) {
		struct lyr_numbers num;
		struct lyr_check ck[64];
		int nc;

		if (!numbers_of(runs[i].run, &num)) {
			fprintf(stderr,
				"iostrata-report layers: %s: not a layered run (no config \"layers\"): skipped\n",
				runs[i].path);
			continue;
		}
		nlayered++;
		nc = lyr_check_ceilings(&num, NULL, ck, 64);
		for (int k = 0; k < nc; k++)
			if (ck[k].suspect)
				nsuspect++;
		if (!quiet)
			print_run(&runs[i], &num, ck, nc);
		add_to_row(rows, &nrows, &num);
		{
			char cl[1024], k[32];

			fullstack_client(runs[i].run, cl, sizeof(cl), k,
					 sizeof(k));
			if (num.direct[LYR_FULLSTACK])
				add_client(bc, &nbc, k, num.bw[LYR_FULLSTACK]);
			add_client(bc, &nbc, "libcephfs", num.bw[LYR_FULLLIB]);
		}
	}
	print_by_client(bc, nbc);
	print_tables(rows, nrows, rated, site_path, nsuspect);
	report_runs_free(runs, n);
	if (report_load_exit(nbad) == REPORT_EXIT_USAGE)
		return REPORT_EXIT_USAGE;
	if (!nlayered) {
		fprintf(stderr,
			"iostrata-report layers: no layered run among the files\n");
		return REPORT_EXIT_FAIL;
	}
	return report_load_exit(nbad);
}
