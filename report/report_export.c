/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_export: iostrata-report export: one row per repetition of every
 * phase (and metadata phase) of many runs, as CSV or JSON lines, with the
 * run's configuration and the figures recomputed from the raw data.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonw.h"
#include "report.h"
#include "safefile.h"

#include "figures.h"

static void csv_str(FILE *f, const char *s)
{
	if (!s)
		s = "";
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* Stable export columns, in order. */
static const char *const export_cols[] = {
	"file",        "run_id",         "created_utc", "job",
	"label",       "phase",          "layer",       "backend",
	"bs",          "nranks",         "nnodes",      "rep",
	"valid",       "invalid_reason", "figure",      "value",
	"unit",        "cpus",           "mem_bytes",   "disk_bw",
	"replication", "note",           "req_cpus",    "req_mem_bytes",
};

/* What a figure's value of [rep] needs said beside it ("" when nothing):
 * a stonewall figure of a repetition too short to stonewall is none. */
static const char *fig_note(const struct ios_rep_result *rep,
			    const struct ios_fig_desc *f)
{
	return rep->fig.stonewall_short && (f->id == IOS_FIG_STONEWALL_BW ||
					    f->id == IOS_FIG_STONEWALL_IOPS)
		       ? IOS_STONEWALL_SHORT
		       : "";
}

/* A count of the configuration, or null when unknown (never -1 or 0: an
 * unknown is no number a reader may add up). */
static void json_known(struct jsonw *w, const char *key, bool known, uint64_t v)
{
	if (known) {
		jsonw_kv_uint(w, key, v);
	} else {
		jsonw_key(w, key);
		jsonw_null(w);
	}
}

/* The same in CSV: empty when unknown. */
static void csv_known(FILE *out, bool known, uint64_t v)
{
	if (known)
		fprintf(out, "%llu", (unsigned long long)v);
}

/* One export row (a run x phase x repetition x figure) as a JSON object. */
static void json_row(struct jsonw *w, const struct report_run *rr,
		     const struct ios_phase_result *ph,
		     const struct ios_rep_result *rep,
		     const struct ios_fig_desc *f, double v)
{
	const struct ios_run *run = rr->run;

	jsonw_obj_begin(w);
	jsonw_kv_str(w, "file", rr->path);
	jsonw_kv_str(w, "run_id", run->run_id);
	jsonw_kv_str(w, "created_utc", run->created_utc);
	jsonw_kv_str(w, "job", rr->job_def);
	jsonw_kv_str(w, "label", rr->label);
	jsonw_kv_str(w, "phase", ph->name);
	jsonw_kv_str(w, "layer", ph->layer);
	jsonw_kv_str(w, "backend", ph->backend);
	jsonw_kv_uint(w, "bs", ph->bs);
	jsonw_kv_int(w, "nranks", rep->nranks);
	jsonw_kv_int(w, "nnodes", run->nnodes);
	jsonw_kv_int(w, "rep", rep->rep);
	jsonw_kv_bool(w, "valid", rep->valid);
	jsonw_kv_str(w, "invalid_reason", rep->invalid_reason);
	jsonw_kv_str(w, "figure", f->name);
	jsonw_kv_double(w, "value", v);
	jsonw_kv_str(w, "unit", f->unit);
	json_known(w, "cpus", rr->cpus > 0, (uint64_t)rr->cpus);
	json_known(w, "mem_bytes", rr->mem > 0, rr->mem);
	jsonw_kv_uint(w, "disk_bw", rr->disk_bw);
	jsonw_kv_int(w, "replication", rr->replication);
	jsonw_kv_str(w, "note", fig_note(rep, f));
	json_known(w, "req_cpus", rr->req_cpus > 0, (uint64_t)rr->req_cpus);
	json_known(w, "req_mem_bytes", rr->req_mem > 0, rr->req_mem);
	jsonw_obj_end(w);
}

/* The same row as a CSV line in the order of export_cols. */
static void csv_row(FILE *out, const struct report_run *rr,
		    const struct ios_phase_result *ph,
		    const struct ios_rep_result *rep,
		    const struct ios_fig_desc *f, double v)
{
	const struct ios_run *run = rr->run;

	csv_str(out, rr->path);
	fputc(',', out);
	csv_str(out, run->run_id);
	fputc(',', out);
	csv_str(out, run->created_utc);
	fputc(',', out);
	csv_str(out, rr->job_def);
	fputc(',', out);
	csv_str(out, rr->label);
	/* the phase's names come from the file: quoted like the rest */
	for (int k = 0; k < 3; k++) {
		fputc(',', out);
		csv_str(out, k == 0   ? ph->name
			     : k == 1 ? ph->layer
				      : ph->backend);
	}
	fprintf(out, ",%llu,%d,%d,%d,%d,", (unsigned long long)ph->bs,
		rep->nranks, run->nnodes, rep->rep, rep->valid ? 1 : 0);
	csv_str(out, rep->invalid_reason);
	fprintf(out, ",%s,", f->name);
	if (!isnan(v))
		fprintf(out, "%.17g", v);
	fprintf(out, ",%s,", f->unit);
	csv_known(out, rr->cpus > 0, (uint64_t)rr->cpus);
	fputc(',', out);
	csv_known(out, rr->mem > 0, rr->mem);
	fprintf(out, ",%llu,%d,", rr->disk_bw, rr->replication);
	csv_str(out, fig_note(rep, f));
	fputc(',', out);
	csv_known(out, rr->req_cpus > 0, (uint64_t)rr->req_cpus);
	fputc(',', out);
	csv_known(out, rr->req_mem > 0, rr->req_mem);
	fputc('\n', out);
}

/* The metadata phases' rows: phase "meta-OP", the figures of
 * report_meta.c, valid when no operation failed. */
static void export_meta_rows(const struct report_run *rr, bool json, FILE *out,
			     struct jsonw *w)
{
	const struct ios_run *run = rr->run;
	const char *be = report_config(run, "backend");
	const char *layout = report_config(run, "meta_layout");

	for (int k = 0; k < run->nmeta; k++) {
		struct ios_phase_result ph = {0};

		snprintf(ph.name, sizeof(ph.name), "meta-%.10s",
			 run->meta[k].op);
		snprintf(ph.layer, sizeof(ph.layer), "%s",
			 layout ? layout : "");
		snprintf(ph.backend, sizeof(ph.backend), "%s", be ? be : "");
		for (int r = 0; r < run->meta[k].nreps; r++) {
			struct ios_rep_result rep = {0};
			struct ios_meta_fig mf;

			ios_meta_figures(&run->meta[k].reps[r], &mf);
			rep.nranks = run->meta[k].reps[r].nranks;
			rep.rep = r;
			rep.valid = mf.errors == 0;
			if (mf.errors)
				snprintf(rep.invalid_reason,
					 sizeof(rep.invalid_reason),
					 "%llu operation(s) failed",
					 (unsigned long long)mf.errors);
			for (int q = 0; q < REPORT_META_NFIGS; q++) {
				struct ios_fig_desc f = {
					.name = report_meta_figs[q].name,
					.unit = report_meta_figs[q].unit};
				double v = report_meta_value(&mf, q);

				if (json)
					json_row(w, rr, &ph, &rep, &f, v);
				else
					csv_row(out, rr, &ph, &rep, &f, v);
			}
		}
	}
}

/* Every run x phase x repetition x figure of [runs]: JSON objects into
 * [w], or CSV lines to [out]. */
static void export_rows(const struct report_run *runs, size_t n, bool json,
			FILE *out, struct jsonw *w)
{
	for (size_t i = 0; i < n; i++) {
		const struct ios_run *run = runs[i].run;

		for (int k = 0; k < run->nphases; k++) {
			const struct ios_phase_result *ph = &run->phases[k];

			for (int r = 0; r < ph->nreps; r++) {
				const struct ios_rep_result *rep = &ph->reps[r];

				for (size_t q = 0; q < (size_t)IOS_FIG_COUNT;
				     q++) {
					const struct ios_fig_desc *f =
						&ios_figs[q];
					double v =
						ios_fig_value(&rep->fig, f->id);

					if (json)
						json_row(w, &runs[i], ph, rep,
							 f, v);
					else
						csv_row(out, &runs[i], ph, rep,
							f, v);
				}
			}
		}
		export_meta_rows(&runs[i], json, out, w);
	}
}

int report_export(int argc, char **argv)
{
	static const struct option opts[] = {
		{"format", required_argument, NULL, 'F'},
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *format = "csv", *output = NULL;
	const size_t ncols = sizeof(export_cols) / sizeof(export_cols[0]);
	struct report_run *runs;
	struct jsonw w;
	struct sf_file of;
	struct ios_err err = {0};
	FILE *out = stdout;
	size_t n;
	int c, nbad, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "F:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'F':
			format = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case 'h':
			printf("usage: iostrata-report export [--format=csv|json] [--output=FILE] FILE...\n");
			return 0;
		default:
			return REPORT_EXIT_USAGE;
		}
	}
	if (strcmp(format, "csv") && strcmp(format, "json")) {
		fprintf(stderr,
			"iostrata-report export: unknown format \"%s\" (accepted: csv, json)\n",
			format);
		return REPORT_EXIT_USAGE;
	}
	if (optind >= argc)
		return report_usage_files("export");
	/* a new file replaces --output: a symlink there is not followed */
	if (output && sf_create(&of, output, 0, &err) < 0) {
		fprintf(stderr, "iostrata-report export: %s\n", err.msg);
		return REPORT_EXIT_FAIL;
	}
	if (output)
		out = of.fp;
	runs = report_load(argc - optind, argv + optind, &n, &nbad);
	if (!strcmp(format, "csv")) {
		for (size_t k = 0; k < ncols; k++)
			fprintf(out, "%s%s", k ? "," : "", export_cols[k]);
		fputc('\n', out);
	} else {
		jsonw_init(&w, out, false);
		jsonw_arr_begin(&w);
	}
	export_rows(runs, n, !strcmp(format, "json"), out, &w);
	rc = report_load_exit(nbad);
	if (!strcmp(format, "json")) {
		jsonw_arr_end(&w);
		if (jsonw_finish(&w) < 0)
			rc = REPORT_EXIT_FAIL;
	}
	if (output && sf_commit(&of, &err) < 0) {
		fprintf(stderr, "iostrata-report export: %s\n", err.msg);
		rc = REPORT_EXIT_FAIL;
	} else if (!output && fflush(out) != 0) {
		fprintf(stderr, "iostrata-report export: write stdout: %s\n",
			strerror(errno));
		rc = REPORT_EXIT_FAIL;
	}
	report_runs_free(runs, n);
	if (nbad)
		fprintf(stderr,
			"iostrata-report export: %d file(s) could not be read\n",
			nbad);
	return rc;
}
