/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_nersc: iostrata-report accept --profile=nersc, the NERSC-10-style
 * acceptance profile (model/nersc.h judges; this prints): one row per test
 * and concurrency level, the maximum write and read with the node and
 * process counts that gave them, as text, Markdown or JSON.
 */
#include "config.h"

#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nersc.h"
#include "report.h"
#include "units.h"

/* [v] of the test's headline: MB/s, or op/s for the random test. */
static void fmt_rate(char *buf, size_t len, enum ios_nersc_test t, double bw,
		     double iops)
{
	if (t == IOS_NERSC_RAND_N2N)
		snprintf(buf, len, isnan(iops) ? "-" : "%.0f IOPS", iops);
	else
		snprintf(buf, len, isnan(bw) ? "-" : "%.1f MB/s", bw / 1e6);
}

static void fmt_bytes(char *buf, size_t len, uint64_t v)
{
	if (v)
		ios_fmt_size(v, buf, len);
	else
		snprintf(buf, len, "-");
}

static const char *rule_line(const struct ios_nersc_verdict *v, char *buf,
			     size_t len)
{
	if (v->scaled_down)
		snprintf(
			buf, len,
			"SCALED DOWN: data rule %g x the clients' RAM ([accept] nersc_data_factor), not the rules' %g x: not an acceptance result",
			v->factor, IOS_NERSC_DATA_FACTOR);
	else
		snprintf(buf, len, "data rule: %g x the clients' RAM",
			 v->factor);
	return buf;
}

/* The maximum of test [t] ([write]: the write, else the read) in words. */
static void fmt_best(char *buf, size_t len, const struct ios_nersc_verdict *v,
		     int t, bool write)
{
	int i = write ? v->best_write[t] : v->best_read[t];
	const struct ios_nersc_row *r;
	char rate[32];

	if (i < 0) {
		snprintf(buf, len, "none (no PASS row)");
		return;
	}
	r = &v->rows[i];
	fmt_rate(rate, sizeof(rate), (enum ios_nersc_test)t,
		 write ? r->write_bw : r->read_bw,
		 write ? r->write_iops : r->read_iops);
	snprintf(buf, len, "%s on %d node(s), %d processes (%s)", rate,
		 r->nodes, r->ranks, r->source);
}

static void print_text(const struct ios_nersc_verdict *v, bool md)
{
	char buf[512];

	printf(md ? "# iostrata acceptance: NERSC-10 profile\n\n"
		  : "NERSC-10 profile: ");
	printf("levels");
	for (int l = 0; l < v->nlevels; l++)
		printf("%s %d", l ? "," : "", v->levels[l]);
	printf(" node(s); %s\n", rule_line(v, buf, sizeof(buf)));
	if (md)
		printf("\n| test | nodes | processes | status | max write | max read | written | RAM | source | note |\n|---|---|---|---|---|---|---|---|---|---|\n");
	else
		printf("%-12s %5s %9s %-6s %14s %14s %10s %10s  %s\n", "test",
		       "nodes", "processes", "status", "write", "read",
		       "written", "RAM", "source / note");
	for (size_t i = 0; i < v->n; i++) {
		const struct ios_nersc_row *r = &v->rows[i];
		char w[32], rd[32], wr[32], ram[32], np[16];

		fmt_rate(w, sizeof(w), r->test, r->write_bw, r->write_iops);
		fmt_rate(rd, sizeof(rd), r->test, r->read_bw, r->read_iops);
		fmt_bytes(wr, sizeof(wr), r->written);
		fmt_bytes(ram, sizeof(ram), r->ram);
		snprintf(np, sizeof(np), "%d", r->ranks);
		if (!r->ranks)
			snprintf(np, sizeof(np), "-");
		if (md) {
			printf("| %s | %d | %s | %s | %s | %s | %s | %s | ",
			       ios_nersc_test_name(r->test), r->nodes, np,
			       ios_acc_status_name(r->status), w, rd, wr, ram);
			report_md_text(stdout, r->source);
			printf(" | ");
			report_md_text(stdout, r->note);
			printf(" |\n");
		} else
			printf("%-12s %5d %9s %-6s %14s %14s %10s %10s  %s%s%s\n",
			       ios_nersc_test_name(r->test), r->nodes, np,
			       ios_acc_status_name(r->status), w, rd, wr, ram,
			       r->source,
			       r->source[0] && r->note[0] ? ": " : "", r->note);
	}
	printf("\n");
	for (int t = 0; t < IOS_NERSC_NTESTS; t++)
		for (int wr = 1; wr >= 0; wr--) {
			fmt_best(buf, sizeof(buf), v, t, wr);
			printf("%smax %s %s: ", md ? "- " : "",
			       wr ? "write" : "read ",
			       ios_nersc_test_name((enum ios_nersc_test)t));
			if (md)
				report_md_text(stdout, buf);
			else
				fputs(buf, stdout);
			putchar('\n');
		}
	printf("%sverdict: %s%s\n", md ? "\n" : "",
	       ios_acc_status_name(v->status),
	       v->scaled_down ? " (scaled down)" : "");
}

static json_t *json_rate(double x)
{
	return isnan(x) ? json_null() : json_real(x);
}

static json_t *json_best(const struct ios_nersc_verdict *v, int i)
{
	json_t *o;

	if (i < 0)
		return json_null();
	o = json_object();
	json_object_set_new(o, "row", json_integer(i));
	json_object_set_new(o, "nodes", json_integer(v->rows[i].nodes));
	json_object_set_new(o, "processes", json_integer(v->rows[i].ranks));
	json_object_set_new(o, "source", json_string(v->rows[i].source));
	return o;
}

static void print_json(const struct ios_nersc_verdict *v, int exit_code)
{
	json_t *o = json_object(), *rows = json_array(), *lv = json_array(),
	       *best = json_object();

	json_object_set_new(o, "profile", json_string("nersc"));
	for (int l = 0; l < v->nlevels; l++)
		json_array_append_new(lv, json_integer(v->levels[l]));
	json_object_set_new(o, "levels", lv);
	json_object_set_new(o, "data_factor", json_real(v->factor));
	json_object_set_new(o, "scaled_down", json_boolean(v->scaled_down));
	for (size_t i = 0; i < v->n; i++) {
		const struct ios_nersc_row *r = &v->rows[i];
		json_t *j = json_object();

		json_object_set_new(j, "test",
				    json_string(ios_nersc_test_name(r->test)));
		json_object_set_new(j, "nodes", json_integer(r->nodes));
		json_object_set_new(j, "processes", json_integer(r->ranks));
		json_object_set_new(
			j, "status",
			json_string(ios_acc_status_name(r->status)));
		json_object_set_new(j, "write_bw", json_rate(r->write_bw));
		json_object_set_new(j, "read_bw", json_rate(r->read_bw));
		json_object_set_new(j, "write_iops", json_rate(r->write_iops));
		json_object_set_new(j, "read_iops", json_rate(r->read_iops));
		json_object_set_new(j, "written_bytes",
				    json_integer((json_int_t)r->written));
		json_object_set_new(j, "ram_bytes",
				    json_integer((json_int_t)r->ram));
		json_object_set_new(j, "source", json_string(r->source));
		json_object_set_new(j, "note", json_string(r->note));
		json_array_append_new(rows, j);
	}
	json_object_set_new(o, "rows", rows);
	for (int t = 0; t < IOS_NERSC_NTESTS; t++) {
		json_t *b = json_object();

		json_object_set_new(b, "write", json_best(v, v->best_write[t]));
		json_object_set_new(b, "read", json_best(v, v->best_read[t]));
		json_object_set_new(
			best, ios_nersc_test_name((enum ios_nersc_test)t), b);
	}
	json_object_set_new(o, "max", best);
	json_object_set_new(o, "verdict",
			    json_string(ios_acc_status_name(v->status)));
	json_object_set_new(o, "exit", json_integer(exit_code));
	json_dumpf(o, stdout, JSON_INDENT(2) | JSON_ENSURE_ASCII);
	printf("\n");
	json_decref(o);
}

int report_nersc(const struct report_run *runs, size_t n, int partition_nodes,
		 double factor, const char *format)
{
	const struct ios_run **rv = calloc(n ? n : 1, sizeof(*rv));
	const char **pv = calloc(n ? n : 1, sizeof(*pv));
	struct ios_nersc_verdict v;
	int rc;

	if (!rv || !pv) {
		free(rv);
		free(pv);
		fprintf(stderr, "iostrata-report accept: out of memory\n");
		return REPORT_EXIT_USAGE;
	}
	for (size_t i = 0; i < n; i++) {
		rv[i] = runs[i].run;
		pv[i] = runs[i].path;
	}
	rc = ios_nersc_judge((const struct ios_run *const *)rv,
			     (const char *const *)pv, n, partition_nodes,
			     factor, &v);
	free(rv);
	free(pv);
	if (rc < 0) {
		fprintf(stderr, "iostrata-report accept: out of memory\n");
		return REPORT_EXIT_USAGE;
	}
	rc = v.status == IOS_ACC_PASS   ? REPORT_EXIT_OK
	     : v.status == IOS_ACC_FAIL ? REPORT_EXIT_FAIL
					: REPORT_EXIT_NOTRUN;
	if (!strcmp(format, "json"))
		print_json(&v, rc);
	else
		print_text(&v, !strcmp(format, "md"));
	ios_nersc_verdict_clear(&v);
	return rc;
}

int report_nersc_plan(int partition_nodes, uint64_t ram, int ranks_per_node,
		      uint64_t seq_bs, double factor)
{
	int lv[IOS_NERSC_MAX_LEVELS];
	int n = ios_nersc_levels(partition_nodes, lv);
	uint64_t seq, rnd;

	if (factor <= 0)
		factor = IOS_NERSC_DATA_FACTOR;
	seq = ios_nersc_rank_size(ram, ranks_per_node, seq_bs, factor);
	rnd = ios_nersc_rank_size(ram, ranks_per_node, IOS_NERSC_RAND_BS,
				  factor);
	if (!n || !seq || !rnd) {
		fprintf(stderr,
			"iostrata-report accept --plan: needs --partition-nodes, --ram (of one client) and --ranks-per-node above 0\n");
		return REPORT_EXIT_USAGE;
	}
	printf("levels=");
	for (int l = 0; l < n; l++)
		printf("%s%d", l ? " " : "", lv[l]);
	printf("\nseq_bs=%" PRIu64 "\nseq_size=%" PRIu64
	       "\nrand_bs=%u\nrand_size=%" PRIu64
	       "\ndata_factor=%g\nscaled_down=%d\n",
	       seq_bs, seq, IOS_NERSC_RAND_BS, rnd, factor,
	       factor < IOS_NERSC_DATA_FACTOR);
	return REPORT_EXIT_OK;
}
