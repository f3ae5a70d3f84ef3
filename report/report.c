/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iostrata-report: read many results files and print tables (show),
 * export rows (export), check files (validate); efficiency, accept and
 * trend live in report_check.c, plots in report_plot.c.  Subcommands are
 * dispatched from one table (report_cmds[] below).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "h5iso.h"
#include "jsonw.h"
#include "report.h"
#include "report_advise.h"
#include "report_layers.h"
#include "safefile.h"
#include "units.h"

#include "figures.h"
#include "runrec.h"

/*
 * The figures again, from the per-rank data.  A repetition run by fewer ranks
 * than the run's (a layered run's layer, on the storage hosts or the clients
 * alone) numbers its ranks and nodes within its own group, not in the run's
 * rank table: its per-node rates stay those the benchmark computed (the
 * rank table would put them on other hosts), and its messages name ranks,
 * not hosts.
 */
void report_recompute(struct ios_run *run)
{
	ios_figures_compute_run(run);
}

void report_phase_stats(const struct ios_phase_result *ph,
			const struct ios_fig_desc *f, struct report_stats *st)
{
	struct ios_stat s;

	ios_fig_stat(ph, f->id, &s);
	st->n = s.n;
	st->nreps = ph->nreps;
	st->min = s.min;
	st->mean = s.mean;
	st->max = s.max;
	st->stddev = s.stddev;
}

const char *report_config(const struct ios_run *run, const char *key)
{
	return ios_runrec_get(run, key);
}

static long long jnum(json_t *v)
{
	if (json_is_integer(v))
		return json_integer_value(v);
	if (json_is_real(v))
		return (long long)json_real_value(v);
	if (json_is_string(v)) {
		char *end;
		long long x = strtoll(json_string_value(v), &end, 10);

		return end != json_string_value(v) ? x : -1;
	}
	return -1;
}

/* A non-negative JSON number as bytes, 0 when missing or unknown. */
static unsigned long long jbytes(json_t *v)
{
	long long x = jnum(v);

	return x > 0 ? (unsigned long long)x : 0;
}

/* The requested configuration: an attachment's "requested" (the plugin's
 * per-job applied file: cpus, mem_bytes), else a host record's shape (the
 * same file, on the storage host: a run after the first of a job has no
 * attachment of it), else the job's requested facts (IOSTRATA_REQ_CPUS,
 * IOSTRATA_REQ_MEM as given: "20G"). */
static void derive_requested(struct report_run *rr)
{
	struct ios_run *run = rr->run;
	size_t na = run->nattach,
	       nh = run->nhosts > 0 ? (size_t)run->nhosts : 0;

	rr->req_cpus = -1;
	rr->req_mem = 0;
	for (size_t i = 0; i < na + nh; i++) {
		const char *txt = i < na ? run->attachments[i].value
					 : run->host_json[i - na];
		json_t *j = json_loads(txt ? txt : "", 0, NULL);
		json_t *r = json_object_get(
			i < na ? j : json_object_get(j, "shape"), "requested");

		if (json_is_object(r) && (json_object_get(r, "cpus") ||
					  json_object_get(r, "mem_bytes"))) {
			rr->req_cpus = jnum(json_object_get(r, "cpus"));
			rr->req_mem = jbytes(json_object_get(r, "mem_bytes"));
			json_decref(j);
			return;
		}
		json_decref(j);
	}
	if (run->job_json) {
		json_t *j = json_loads(run->job_json, 0, NULL);
		json_t *r = json_object_get(j, "requested"),
		       *m = json_object_get(r, "mem");
		struct ios_err err = {0};
		uint64_t b;

		if (jnum(json_object_get(r, "cpus")) > 0)
			rr->req_cpus = jnum(json_object_get(r, "cpus"));
		if (json_is_string(m) &&
		    ios_parse_size(json_string_value(m), "mem", &b, &err) == 0)
			rr->req_mem = b;
		else if (jbytes(m))
			rr->req_mem = jbytes(m);
		json_decref(j);
	}
}

/* Applied state: attachments with "applied" (iostrata-node status), then
 * the job's applied facts, then the first node's hardware. */
static void derive_applied(struct report_run *rr)
{
	struct ios_run *run = rr->run;
	json_t *j;

	rr->cpus = -1;
	for (size_t i = 0; i < run->nattach && rr->cpus < 0; i++) {
		json_t *a, *t;
		size_t k;
		json_t *e;

		j = json_loads(run->attachments[i].value
				       ? run->attachments[i].value
				       : "",
			       0, NULL);
		a = json_object_get(j, "applied");
		if (json_is_object(a) && json_object_get(a, "cpus_online")) {
			rr->cpus = jnum(json_object_get(a, "cpus_online"));
			rr->mem =
				jbytes(json_object_get(a, "mem_online_bytes"));
			t = json_object_get(a, "throttles");
			json_array_foreach(t, k, e)
			{
				long long w =
					jnum(json_object_get(e, "write_bps"));

				if (w > 0 &&
				    (rr->disk_bw == 0 ||
				     (unsigned long long)w < rr->disk_bw))
					rr->disk_bw = (unsigned long long)w;
			}
			rr->applied_src = "attachment";
		}
		json_decref(j);
	}
	if (rr->cpus < 0 && run->job_json) {
		json_t *a;

		j = json_loads(run->job_json, 0, NULL);
		a = json_object_get(j, "applied");
		if (json_is_object(a) && jnum(json_object_get(a, "cpus")) > 0) {
			rr->cpus = jnum(json_object_get(a, "cpus"));
			rr->mem = jbytes(json_object_get(a, "mem"));
			if (jnum(json_object_get(a, "disk_bw")) > 0)
				rr->disk_bw =
					jbytes(json_object_get(a, "disk_bw"));
			rr->applied_src = "job";
		}
		json_decref(j);
	}
	if (rr->cpus < 0 && run->nnodes > 0 && run->node_json &&
	    run->node_json[0]) {
		j = json_loads(run->node_json[0], 0, NULL);
		rr->cpus = jnum(json_object_get(json_object_get(j, "cpu"),
						"online_count"));
		rr->mem = jbytes(json_object_get(json_object_get(j, "memory"),
						 "online_bytes"));
		rr->applied_src = "node hardware";
		json_decref(j);
	}
	if (run->ceph_json) {
		json_t *p, *e;
		const char *dp;
		size_t k;

		j = json_loads(run->ceph_json, 0, NULL);
		dp = json_string_value(json_object_get(j, "data_pool"));
		p = json_object_get(j, "pools");
		json_array_foreach(p, k, e)
		{
			const char *nm =
				json_string_value(json_object_get(e, "name"));

			if (dp && nm && !strcmp(dp, nm))
				rr->replication =
					(int)jnum(json_object_get(e, "size"));
		}
		json_decref(j);
	}
	if (report_config(run, "replication"))
		rr->replication = atoi(report_config(run, "replication"));
}

/* The campaign's element record (attachment "element": index,
 * baseline). */
static void derive_element(struct report_run *rr)
{
	const struct ios_run *run = rr->run;

	rr->element = -1;
	rr->baseline = false;
	for (size_t i = 0; i < run->nattach; i++) {
		json_t *j, *x;

		if (!run->attachments[i].key ||
		    strcmp(run->attachments[i].key, "element") ||
		    !run->attachments[i].value)
			continue;
		j = json_loads(run->attachments[i].value, 0, NULL);
		x = json_object_get(j, "index");
		if (json_is_integer(x) && json_integer_value(x) >= 0 &&
		    json_integer_value(x) <= 1000000)
			rr->element = (int)json_integer_value(x);
		rr->baseline = json_is_true(json_object_get(j, "baseline"));
		json_decref(j);
	}
}

int report_osd_cache(const struct report_run *rr, const char *phase,
		     struct report_cache *c)
{
	const struct ios_run *run = rr->run;
	const char *size = report_config(run, "size");
	json_t *j, *e;
	size_t k;
	int nranks = 0;
	char *end;

	memset(c, 0, sizeof(*c));
	for (int p = 0; p < run->nphases; p++)
		if (!strcmp(run->phases[p].name, phase))
			for (int r = 0; r < run->phases[p].nreps; r++)
				if (run->phases[p].reps[r].nranks > nranks)
					nranks = run->phases[p].reps[r].nranks;
	if (!size || !run->ceph_json || nranks <= 0)
		return -ENOENT;
	c->data = strtod(size, &end) * nranks;
	if (end == size || *end || !(c->data > 0))
		return -ENOENT;
	j = json_loads(run->ceph_json, 0, NULL);
	c->osds =
		(int)jnum(json_object_get(json_object_get(j, "osds"), "total"));
	c->target = REPORT_OSD_MEMORY_DEFAULT;
	c->dflt = true;
	json_array_foreach(json_object_get(j, "config"), k, e)
	{
		const char *sec =
			json_string_value(json_object_get(e, "section"));
		long long v = jnum(json_object_get(e, "value"));

		if (sec && !strcmp(sec, "osd") && v > 0 &&
		    !strcmp(json_string_value(json_object_get(e, "name")) ?: "",
			    "osd_memory_target")) {
			c->target = (double)v;
			c->dflt = false;
		}
	}
	json_decref(j);
	return c->osds > 0 ? 0 : -ENOENT;
}

void report_derive(struct report_run *rr)
{
	struct ios_run *run = rr->run;
	const char *l = report_config(run, "label");
	const char *base = strrchr(rr->path, '/');
	static const char *const volatile_keys[] = {
		"output", "attach", "summary",  "quiet",
		"label",  "seed",   "progress", NULL};
	size_t cap = 64, len = 0;

	derive_applied(rr);
	derive_requested(rr);
	derive_element(rr);
	if (l && l[0]) {
		rr->label_buf = strdup(l);
	} else if (rr->applied_src &&
		   strcmp(rr->applied_src, "node hardware")) {
		char d[32] = "";

		if (rr->disk_bw)
			snprintf(d, sizeof(d), "/d%.0fMB", rr->disk_bw / 1e6);
		/* a column of show: the request when there is one (the
		 * applied memory differs from run to run by a block) */
		if (asprintf(&rr->label_buf, "c%ld/m%.0fG%s",
			     rr->req_cpus > 0 ? rr->req_cpus : rr->cpus,
			     (double)(rr->req_mem ? rr->req_mem : rr->mem) /
				     1073741824.0,
			     d) < 0)
			rr->label_buf = NULL;
	} else {
		rr->label_buf = strdup(base ? base + 1 : rr->path);
		if (rr->label_buf && strlen(rr->label_buf) > 3 &&
		    !strcmp(rr->label_buf + strlen(rr->label_buf) - 3, ".h5"))
			rr->label_buf[strlen(rr->label_buf) - 3] = '\0';
	}
	rr->label = rr->label_buf ? rr->label_buf : "?";

	/* job definition: job_name if given, else every non-volatile option */
	l = report_config(run, "job_name");
	if (l && l[0]) {
		rr->job_buf = strdup(l);
	} else {
		rr->job_buf = calloc(1, cap);
		for (size_t i = 0; rr->job_buf && i < run->nconfig; i++) {
			const char *k = run->config[i].key,
				   *v = run->config[i].value;
			int skip = 0;
			size_t need;

			for (int s = 0; volatile_keys[s]; s++)
				skip |= k && !strcmp(k, volatile_keys[s]);
			if (skip || !k)
				continue;
			need = len + strlen(k) + strlen(v ? v : "") + 3;
			if (need >= cap) {
				char *p;

				cap = need * 2;
				p = realloc(rr->job_buf, cap);
				if (!p)
					break;
				rr->job_buf = p;
			}
			len += (size_t)sprintf(rr->job_buf + len, "%s%s=%s",
					       len ? " " : "", k, v ? v : "");
		}
	}
	rr->job_def = rr->job_buf ? rr->job_buf : "?";
}

static int has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

char **report_expand(int argc, char **argv, size_t *n)
{
	char **out = NULL;
	size_t cap = 0;

	*n = 0;
	for (int i = 0; i < argc; i++) {
		glob_t g;

		if (has_glob(argv[i]) && glob(argv[i], 0, NULL, &g) == 0) {
			for (size_t k = 0; k < g.gl_pathc; k++) {
				if (*n + 2 > cap) {
					cap = cap ? cap * 2 : 64;
					out = realloc(out, cap * sizeof(*out));
				}
				out[(*n)++] = strdup(g.gl_pathv[k]);
			}
			globfree(&g);
			continue;
		}
		if (*n + 2 > cap) {
			cap = cap ? cap * 2 : 64;
			out = realloc(out, cap * sizeof(*out));
		}
		out[(*n)++] = strdup(argv[i]);
	}
	if (!out)
		out = calloc(1, sizeof(*out));
	out[*n] = NULL;
	return out;
}

bool report_html_entity(FILE *o, char c)
{
	static const struct {
		char c;
		const char *entity;
	} ent[] = {{'&', "&amp;"},
		   {'<', "&lt;"},
		   {'>', "&gt;"},
		   {'"', "&quot;"},
		   {'\'', "&#39;"}};

	for (size_t i = 0; i < sizeof(ent) / sizeof(ent[0]); i++)
		if (c == ent[i].c) {
			fputs(ent[i].entity, o);
			return true;
		}
	return false;
}

void report_md_text(FILE *o, const char *s)
{
	for (; s && *s; s++) {
		if (report_html_entity(o, *s))
			continue;
		if (*s == '\n' || *s == '\r')
			fputc(' ', o);
		else if (strchr("|`*_[]\\~#!", *s))
			fprintf(o, "\\%c", *s);
		else
			fputc(*s, o);
	}
}

/* Files report_load refused as inconsistent (ios_h5_check_shape). */
static int nrefused;

int report_load_exit(int nbad)
{
	if (!nbad)
		return REPORT_EXIT_OK;
	return nrefused ? REPORT_EXIT_USAGE : REPORT_EXIT_FAIL;
}

struct report_run *report_load(int argc, char **argv, size_t *n, int *nbad)
{
	size_t np;
	char **paths = report_expand(argc, argv, &np);
	struct report_run *runs = calloc(np + 1, sizeof(*runs));

	*n = 0;
	*nbad = 0;
	for (size_t i = 0; i < np; i++) {
		struct ios_err err = {0};
		struct ios_run *run;

		if (ios_h5_read_run_isolated(paths[i], NULL, &run, &err) < 0) {
			fprintf(stderr, "iostrata-report: %s\n", err.msg);
			if (err.code == -ERANGE)
				nrefused++;
			(*nbad)++;
			free(paths[i]);
			continue;
		}
		report_recompute(run);
		runs[*n].path = paths[i];
		runs[*n].run = run;
		report_derive(&runs[*n]);
		(*n)++;
	}
	free(paths);
	return runs;
}

void report_runs_free(struct report_run *runs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(runs[i].path);
		free(runs[i].label_buf);
		free(runs[i].job_buf);
		ios_run_free(runs[i].run);
	}
	free(runs);
}

/* ---- show ------------------------------------------------------------ */

static void fmt_num(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (fabs(v) >= 100)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.3g", v);
}

static int usage_files(const char *cmd)
{
	fprintf(stderr,
		"iostrata-report %s: no results files given (paths or globs, e.g. 'runs/*.h5')\n",
		cmd);
	return REPORT_EXIT_USAGE;
}

/* A phase's name in tables: "write", or "write@device" in a layered run, so
 * the layers of one run do not fold into one row, or "write:shared" for a
 * run on one shared file (/config file_layout=shared, N-to-1), so it does
 * not fold into the file-per-rank row of the same pattern. */
static const char *phase_label(const struct ios_run *run,
			       const struct ios_phase_result *ph, char *buf,
			       size_t len)
{
	const char *fl = report_config(run, "file_layout");

	if (fl && !strcmp(fl, "shared"))
		snprintf(buf, len, "%s:shared", ph->name);
	else if (ph->layer[0])
		snprintf(buf, len, "%s@%s", ph->name, ph->layer);
	else
		snprintf(buf, len, "%s", ph->name);
	return buf;
}

/* Do the runs have more than one replication factor (a campaign with
 * [sweep] replication)?  Then the tables have a row per factor. */
static bool multi_replication(const struct report_run *runs, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (runs[i].replication != runs[0].replication)
			return true;
	return false;
}

/*
 * Table 1 (seeds/001 shape): one block per mode, rows = ranks (and the
 * replication factor when the runs have several), one column per
 * configuration ([cols], the runs' labels); cells = mean over valid
 * repetitions of figure [fname] ("auto": the phase's headline figure).
 */
struct show_row {
	char mode[40]; /* phase_label() */
	char base[16]; /* the access pattern alone */
	int ranks;
	int repl;  /* replication factor, 0: one for all runs */
	int order; /* its mode's place among the modes, first seen first */
};

static bool row_before(const struct show_row *a, const struct show_row *b)
{
	if (a->order != b->order)
		return a->order < b->order;
	if (a->repl != b->repl)
		return a->repl < b->repl;
	return a->ranks < b->ranks;
}

/* The ranks that ran phase [ph]: the most any of its repetitions had (a
 * layered run's device phase runs on the storage ranks only); the run's
 * rank count when it has no repetition. */
static int phase_nranks(const struct ios_run *run,
			const struct ios_phase_result *ph)
{
	int n = 0;

	for (int r = 0; r < ph->nreps; r++)
		if (ph->reps[r].nranks > n)
			n = ph->reps[r].nranks;
	return ph->nreps ? n : run->nranks;
}

static void show_modes(const struct report_run *runs, size_t n,
		       const char **cols, size_t ncols, const char *fname)
{
	struct show_row *rows = NULL;
	size_t nrows = 0, cap = 0;
	bool multi = multi_replication(runs, n);

	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < runs[i].run->nphases; k++) {
			char lb[40];
			const char *m = phase_label(runs[i].run,
						    &runs[i].run->phases[k], lb,
						    sizeof(lb));
			int repl = multi ? runs[i].replication : 0;
			int nr = phase_nranks(runs[i].run,
					      &runs[i].run->phases[k]);
			size_t r;

			for (r = 0; r < nrows; r++)
				if (!strcmp(rows[r].mode, m) &&
				    rows[r].ranks == nr && rows[r].repl == repl)
					break;
			if (r < nrows)
				continue;
			if (nrows == cap) {
				cap = cap ? cap * 2 : 16;
				rows = realloc(rows, cap * sizeof(*rows));
			}
			snprintf(rows[nrows].mode, sizeof(rows->mode), "%s", m);
			snprintf(rows[nrows].base, sizeof(rows->base), "%s",
				 runs[i].run->phases[k].name);
			rows[nrows].repl = repl;
			rows[nrows].order = (int)nrows;
			for (size_t q = 0; q < nrows; q++)
				if (!strcmp(rows[q].mode, m)) {
					rows[nrows].order = rows[q].order;
					break;
				}
			rows[nrows++].ranks = nr;
		}
	/* one block per mode (first seen first), its rows by factor and
	 * ranks; insertion sort: stable, and the rows are few */
	for (size_t a = 1; a < nrows; a++)
		for (size_t b = a; b > 0 && row_before(&rows[b], &rows[b - 1]);
		     b--) {
			struct show_row t = rows[b];

			rows[b] = rows[b - 1];
			rows[b - 1] = t;
		}
	for (size_t r = 0; r < nrows; r++) {
		const struct ios_fig_desc *f =
			strcmp(fname, "auto") ? ios_fig_find(fname)
					      : ios_fig_headline(rows[r].base);

		if (r == 0 || strcmp(rows[r].mode, rows[r - 1].mode)) {
			printf("%s%s: %s [%s], mean over valid repetitions\n",
			       r ? "\n" : "", rows[r].mode, f->name, f->dunit);
			printf("^%-20s^%6s^", "mode", "ranks");
			if (multi)
				printf("%12s^", "replication");
			for (size_t k = 0; k < ncols; k++)
				printf("%12s^", cols[k]);
			printf("\n");
		}
		printf("| %-19s| %5d|", rows[r].mode, rows[r].ranks);
		if (multi && rows[r].repl > 0)
			printf("%12d|", rows[r].repl);
		else if (multi)
			printf("%12s|", "unknown");
		for (size_t k = 0; k < ncols; k++) {
			double sum = 0;
			int cnt = 0;
			char buf[32];

			for (size_t i = 0; i < n; i++) {
				if (strcmp(runs[i].label, cols[k]) ||
				    (multi &&
				     runs[i].replication != rows[r].repl))
					continue;
				for (int p = 0; p < runs[i].run->nphases; p++) {
					struct report_stats st;
					char lb[40];

					if (strcmp(phase_label(
							   runs[i].run,
							   &runs[i].run
								    ->phases[p],
							   lb, sizeof(lb)),
						   rows[r].mode) ||
					    phase_nranks(
						    runs[i].run,
						    &runs[i].run->phases[p]) !=
						    rows[r].ranks)
						continue;
					report_phase_stats(
						&runs[i].run->phases[p], f,
						&st);
					if (st.n) {
						sum += st.mean * f->scale;
						cnt++;
					}
				}
			}
			fmt_num(buf, sizeof(buf), cnt ? sum / cnt : NAN);
			printf("%12s|", buf);
		}
		printf("\n");
	}
	free(rows);
}

/* The valid repetitions of [ph] with no value of stonewall figure [f]:
 * too short to stonewall (0 for any other figure). */
static int short_reps(const struct ios_phase_result *ph,
		      const struct ios_fig_desc *f)
{
	int n = 0;

	for (int r = 0; r < ph->nreps; r++)
		n += ph->reps[r].valid && ph->reps[r].fig.stonewall_short &&
		     (f->id == IOS_FIG_STONEWALL_BW ||
		      f->id == IOS_FIG_STONEWALL_IOPS);
	return n;
}

/* Table 2 (the paper's rows): min/avg/max per run and phase. */
static void show_runs(const struct report_run *runs, size_t n,
		      const char *fname)
{
	int pw = 16; /* the phase column's width */

	printf("\nper run: min / avg / max (stddev) over valid repetitions\n");
	for (size_t i = 0; i < n; i++) /* the phase column fits every label */
		for (int k = 0; k < runs[i].run->nphases; k++) {
			char lb[40];
			int w = (int)strlen(phase_label(runs[i].run,
							&runs[i].run->phases[k],
							lb, sizeof(lb)));

			pw = w > pw ? w : pw;
		}
	printf("%-24s %-*s %-6s %-15s %-8s %10s %10s %10s %9s %s\n", "run", pw,
	       "phase", "ranks", "figure", "unit", "min", "avg", "max",
	       "stddev", "valid");
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < runs[i].run->nphases; k++) {
			const struct ios_phase_result *ph =
				&runs[i].run->phases[k];
			const struct ios_fig_desc *figs[2];
			int nf = 0;

			if (strcmp(fname, "auto")) {
				figs[nf++] = ios_fig_find(fname);
			} else {
				figs[nf++] = ios_fig_find("stonewall_bw");
				figs[nf++] = ios_fig_find("stonewall_iops");
			}
			for (int q = 0; q < nf; q++) {
				struct report_stats st;
				char a[32], b[32], d[32], e[32], lb[40];

				report_phase_stats(ph, figs[q], &st);
				fmt_num(a, sizeof(a), st.min * figs[q]->scale);
				fmt_num(b, sizeof(b), st.mean * figs[q]->scale);
				fmt_num(d, sizeof(d), st.max * figs[q]->scale);
				fmt_num(e, sizeof(e),
					st.stddev * figs[q]->scale);
				printf("%-24.24s %-*s %-6d %-15s %-8s %10s %10s %10s %9s %d/%d\n",
				       runs[i].label, pw,
				       phase_label(runs[i].run, ph, lb,
						   sizeof(lb)),
				       phase_nranks(runs[i].run, ph),
				       figs[q]->name, figs[q]->dunit, a, b, d,
				       e, st.n, st.nreps);
				if (short_reps(ph, figs[q]))
					printf("%-24s %-*s %d valid repetition(s) too short to stonewall: no %s (below)\n",
					       "", pw, "",
					       short_reps(ph, figs[q]),
					       figs[q]->name);
			}
		}
}

/* The run mode of each run: /config mode and its size-based repetitions
 * (a time-based and a size-based run measure different things). */
static void show_mode(const struct report_run *runs, size_t n)
{
	printf("\nrun mode (/config mode; repetitions with size_based set):\n");
	for (size_t i = 0; i < n; i++) {
		int nsize, nreps;
		const char *m = ios_run_mode(runs[i].run, &nsize, &nreps);

		printf("  %-24s mode %-7s %d of %d repetition(s) size-based\n",
		       runs[i].label, m, nsize, nreps);
	}
}

/* Why repetitions were left out, and which valid ones have no
 * stonewall figure. */
static void show_invalid(const struct report_run *runs, size_t n)
{
	int header = 0, shorts = 0;

	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < runs[i].run->nphases; k++) {
			const struct ios_phase_result *ph =
				&runs[i].run->phases[k];
			char lb[40];

			for (int r = 0; r < ph->nreps; r++) {
				if (!ph->reps[r].valid ||
				    !ph->reps[r].fig.stonewall_short)
					continue;
				if (!shorts++)
					printf("\nno stonewall figure (%s):\n",
					       IOS_STONEWALL_SHORT);
				printf("  %s %s rep %d\n", runs[i].label,
				       phase_label(runs[i].run, ph, lb,
						   sizeof(lb)),
				       ph->reps[r].rep);
			}
		}

	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < runs[i].run->nphases; k++) {
			const struct ios_phase_result *ph =
				&runs[i].run->phases[k];

			for (int r = 0; r < ph->nreps; r++) {
				if (ph->reps[r].valid)
					continue;
				if (!header++)
					printf("\ninvalid repetitions (left out above):\n");
				char lb[40];

				printf("  %s %s rep %d: %s\n", runs[i].label,
				       phase_label(runs[i].run, ph, lb,
						   sizeof(lb)),
				       ph->reps[r].rep,
				       ph->reps[r].invalid_reason);
			}
		}
}

int report_show(int argc, char **argv)
{
	static const struct option opts[] = {
		{"figure", required_argument, NULL, 'f'},
		{"hosts", no_argument, NULL, 'H'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *fname = "auto";
	int hosts = 0;
	struct report_run *runs;
	size_t n, ncols = 0;
	const char **cols;
	int c, nbad;

	optind = 1;
	while ((c = getopt_long(argc, argv, "f:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			fname = optarg;
			break;
		case 'H':
			hosts = 1;
			break;
		case 'h':
			printf("usage: iostrata-report show [--figure=NAME|auto] [--hosts] FILE...\n--hosts: also every host's record (role, hardware, Slurm, MPI, shape)\n");
			return 0;
		default:
			return REPORT_EXIT_USAGE;
		}
	}
	if (strcmp(fname, "auto") && !ios_fig_find(fname)) {
		fprintf(stderr,
			"iostrata-report show: unknown figure \"%s\" (accepted: auto",
			fname);
		for (size_t i = 0; i < (size_t)IOS_FIG_COUNT; i++)
			fprintf(stderr, ", %s", ios_figs[i].name);
		fprintf(stderr, ")\n");
		return REPORT_EXIT_USAGE;
	}
	if (optind >= argc)
		return usage_files("show");
	runs = report_load(argc - optind, argv + optind, &n, &nbad);
	cols = calloc(n + 1, sizeof(*cols));
	for (size_t i = 0; i < n; i++) {
		size_t k;

		for (k = 0; k < ncols; k++)
			if (!strcmp(cols[k], runs[i].label))
				break;
		if (k == ncols)
			cols[ncols++] = runs[i].label;
	}

	show_modes(runs, n, cols, ncols, fname);
	show_runs(runs, n, fname);
	show_mode(runs, n);
	show_invalid(runs, n);
	report_show_meta(runs, n);
	if (hosts)
		report_show_hosts(runs, n);
	free(cols);
	report_runs_free(runs, n);
	if (nbad)
		fprintf(stderr,
			"iostrata-report show: %d file(s) could not be read\n",
			nbad);
	return report_load_exit(nbad);
}

/* ---- export ---------------------------------------------------------- */

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
		return usage_files("export");
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

/* ---- validate -------------------------------------------------------- */

int report_validate(int argc, char **argv)
{
	size_t n;
	char **paths;
	int bad = 0, refused = 0;

	if (argc == 2 &&
	    (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: iostrata-report validate FILE...\n"
		       "exit: 0 every file valid, 1 some file invalid, 2 no file given or a file's counts and indices disagree\n");
		return REPORT_EXIT_OK;
	}
	if (argc < 2)
		return usage_files("validate");
	paths = report_expand(argc - 1, argv + 1, &n);
	for (size_t i = 0; i < n; i++) {
		struct ios_err err = {0};

		if (ios_h5_validate_isolated(paths[i], NULL, &err) < 0) {
			printf("INVALID %s: %s\n", paths[i], err.msg);
			bad++;
			refused += err.code == -ERANGE;
		} else {
			printf("OK      %s\n", paths[i]);
		}
		free(paths[i]);
	}
	free(paths);
	if (bad)
		fprintf(stderr,
			"iostrata-report validate: %d of %zu file(s) invalid\n",
			bad, n);
	if (refused)
		return REPORT_EXIT_USAGE;
	return bad ? REPORT_EXIT_FAIL : REPORT_EXIT_OK;
}
