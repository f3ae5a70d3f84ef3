/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iostrata-report: what every command shares: the runs loaded from many
 * results files (paths or globs, read isolated), their figures recomputed
 * and their configuration derived (requested, applied, the campaign's
 * element), text escapers; and the command validate.  show is in
 * report_show.c, export in report_export.c, efficiency, accept and trend
 * in report_check.c and report_accept.c, plots in report_plot*.c; the
 * command table is main.c's.
 */
#include "config.h"

#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "h5iso.h"
#include "report.h"
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

int report_usage_files(const char *cmd)
{
	fprintf(stderr,
		"iostrata-report %s: no results files given (paths or globs, e.g. 'runs/*.h5')\n",
		cmd);
	return REPORT_EXIT_USAGE;
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
		return report_usage_files("validate");
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
