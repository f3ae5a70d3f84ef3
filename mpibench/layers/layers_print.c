// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * layers_print: the end of the layered run on rank 0: ceilings, the
 * /layers rows (with the fio cross-check), the verdict, the last write of
 * the results file, and the table or JSON summary on stdout.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layers_internal.h"
#include "mb_exit.h"
#include "runrec.h"
#include "summary.h"
#include "units.h"

static void add_layer(struct lctx *c, const char *name, const char *source,
		      double rbw, double wbw, const char *note)
{
	struct ios_run *r = &c->lr->run;
	struct ios_layer *l =
		realloc(r->layers, (size_t)(r->nlayers + 1) * sizeof(*l));

	if (!l)
		return;
	r->layers = l;
	l += r->nlayers++;
	memset(l, 0, sizeof(*l));
	snprintf(l->name, sizeof(l->name), "%s", name);
	snprintf(l->source, sizeof(l->source), "%s", source);
	l->read_bw = rbw;
	l->write_bw = wbw;
	l->read_iops = NAN;
	l->write_iops = NAN;
	snprintf(l->note, sizeof(l->note), "%s", note ? note : "");
}

/* One /layers row per layer that ran (or left a note). */
static void add_layer_rows(struct lctx *c)
{
	for (int l = 0; l < LYR_NLAYERS; l++) {
		char note[256];

		if (c->o->skip[l] && !c->note[l][0])
			continue;
		snprintf(note, sizeof(note), "%s", c->note[l]);
		if (l == LYR_PROTOCOL)
			snprintf(note + strlen(note),
				 sizeof(note) - strlen(note),
				 "%spool %s size %d", note[0] ? "; " : "",
				 lrun_ceph_opt(c->o, "rados-pool"),
				 c->n.replicas);
		if (!c->n.direct[l])
			snprintf(note + strlen(note),
				 sizeof(note) - strlen(note),
				 "%sbuffered (no direct I/O)",
				 note[0] ? "; " : "");
		add_layer(c, lyr_layer_names[l], c->source[l],
			  c->n.bw[l][LYR_READ], c->n.bw[l][LYR_WRITE], note);
		if (l == LYR_NETWORK && !isnan(c->mpi_bw[LYR_READ]))
			add_layer(
				c, "network-mpi", "MPI point-to-point",
				c->mpi_bw[LYR_READ], c->mpi_bw[LYR_WRITE],
				"the same pairs and aggregation with MPI messages (not a ceiling)");
	}
}

/* The fio cross-check of the device layer: its row and a verdict line. */
static void add_fio_check(struct lctx *c, const struct lyr_thresholds *t,
			  char **verdict)
{
	double dw = lyr_disagreement(c->n.bw[LYR_DEVICE][LYR_WRITE],
				     c->fio_bw[LYR_WRITE]);
	double dr = lyr_disagreement(c->n.bw[LYR_DEVICE][LYR_READ],
				     c->fio_bw[LYR_READ]);
	char note[256], *v2 = NULL;
	bool bad = (!isnan(dw) && dw > t->fio_disagree) ||
		   (!isnan(dr) && dr > t->fio_disagree);

	if (isnan(c->fio_bw[LYR_WRITE]) && isnan(c->fio_bw[LYR_READ]))
		return;
	snprintf(
		note, sizeof(note),
		"fio cross-check of the device layer: write %.0f%% apart, read %.0f%% apart%s",
		dw * 100, dr * 100,
		bad ? " (more than 5%: the device ceiling is uncertain)" : "");
	add_layer(c, "device-fio", "fio", c->fio_bw[LYR_READ],
		  c->fio_bw[LYR_WRITE], note);
	if (*verdict && asprintf(&v2, "%s%s.\n", *verdict, note) > 0) {
		free(*verdict);
		*verdict = v2;
	}
}

/* The table on stdout: one line per layer, the verdict, the file. */
static void print_layers(const struct lctx *c, const char *verdict)
{
	printf("iostrata-bench --layers: stonewalled aggregate bandwidth per layer\n");
	for (int l = 0; l < LYR_NLAYERS; l++) {
		char a[32] = "-", b[32] = "-";

		if (c->o->skip[l])
			continue;
		if (!isnan(c->n.bw[l][LYR_WRITE]))
			ios_fmt_rate(c->n.bw[l][LYR_WRITE], a, sizeof(a));
		if (!isnan(c->n.bw[l][LYR_READ]))
			ios_fmt_rate(c->n.bw[l][LYR_READ], b, sizeof(b));
		printf("  %-14s write %-14s read %-14s %s%s%s\n",
		       lyr_layer_names[l], a, b, c->note[l],
		       !c->n.direct[l] && c->note[l][0] ? "; " : "",
		       c->n.direct[l] ? "" : "buffered (no direct I/O)");
	}
	if (!isnan(c->mpi_bw[LYR_READ])) {
		char a[32], b[32];

		ios_fmt_rate(c->mpi_bw[LYR_WRITE], a, sizeof(a));
		ios_fmt_rate(c->mpi_bw[LYR_READ], b, sizeof(b));
		printf("  %-14s write %-14s read %-14s the network layer's pairs by MPI point-to-point (not a ceiling)\n",
		       "network-mpi", a, b);
	}
	for (int l = 0; l < LYR_NLAYERS; l++) {
		char key[64];
		const char *h;

		snprintf(key, sizeof(key), "layers.%s.hosts",
			 lyr_layer_names[l]);
		h = ios_runrec_get(&c->lr->run, key);
		if (h && !c->o->skip[l])
			printf("  %-14s ran on %s\n", lyr_layer_names[l], h);
	}
	printf("  roles: %s\n",
	       c->from == LYR_ROLES_HETJOB
		       ? "from the heterogeneous job (its last component: the storage hosts)"
	       : c->from == LYR_ROLES_OPTION
		       ? "from --layers-storage-nodes"
		       : "not known (no heterogeneous job, no --layers-storage-nodes): all nodes did all layers");
	if (verdict)
		fputs(verdict, stdout);
	if (c->cfg->output)
		printf("results: %s\n", c->cfg->output);
	fflush(stdout);
}

/* Rank 0: ceilings, verdict, the last write, the table.  The exit code. */
int lrun_conclude(struct lctx *c)
{
	struct lyr_thresholds t = lyr_default_thresholds;
	struct ios_run *run = &c->lr->run;
	struct lyr_check ck[64];
	enum mb_outcome out;
	int nc, nsus = 0;

	t.tolerance = c->o->tolerance;
	nc = lyr_check_ceilings(&c->n, &t, ck, 64);
	add_layer_rows(c);
	run->verdict = lyr_verdict(&c->n, ck, nc, &t);
	add_fio_check(c, &t, &run->verdict);
	for (int i = 0; i < nc; i++)
		if (ck[i].suspect)
			nsus++;
	out = mb_outcome_of(c->failed, c->invalid, nsus > 0);
	ios_runrec_status(run, mb_outcome_status(out));
	if (lrun_save(c->lr) < 0) {
		c->failed = true; /* as the plain run */
		out = MB_OUTCOME_FAILED;
	}
	if (c->cfg->summary == MB_SUM_JSON) {
		const struct mb_summary_extra x = {
			.backend = "layers",
			.output = c->cfg->output,
		};

		mb_summary_json(run, out == MB_OUTCOME_OK, &x);
	} else if (c->cfg->summary == MB_SUM_TEXT && !c->cfg->quiet) {
		print_layers(c, run->verdict);
	}
	return mb_outcome_exit(out);
}
