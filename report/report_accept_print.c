/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_accept_print: iostrata-report accept's verdicts printed: each
 * tier's rows as text, Markdown, a JSON document or a self-contained HTML
 * page (the runs judged listed at its end).
 */
#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accept.h"
#include "report.h"
#include "report_accept.h"
#include "units.h"

static void method_text(const struct ios_acc_method *m, char *buf, size_t len)
{
	char a[32];
	size_t n = 0;

	buf[0] = '\0';
#define ADD(...)                                                               \
	do {                                                                   \
		if (n < len)                                                   \
			n += (size_t)snprintf(buf + n, len - n, __VA_ARGS__);  \
	} while (0)
	if (m->bw_bs)
		ADD("%sbandwidth bs %s", n ? ", " : "",
		    ios_fmt_size(m->bw_bs, a, sizeof(a)));
	if (m->iops_bs)
		ADD("%sIOPS bs %s", n ? ", " : "",
		    ios_fmt_size(m->iops_bs, a, sizeof(a)));
	if (m->ioengine[0])
		ADD("%sioengine %s", n ? ", " : "", m->ioengine);
	if (m->iodepth > 0)
		ADD("%siodepth %d", n ? ", " : "", m->iodepth);
	if (m->file_size)
		ADD("%sfile size >= %s", n ? ", " : "",
		    ios_fmt_size(m->file_size, a, sizeof(a)));
	if (m->direct >= 0)
		ADD("%s%s I/O", n ? ", " : "",
		    m->direct ? "direct" : "buffered");
	if (!n)
		ADD("not stated (nothing but the pattern checked)");
#undef ADD
}

/* "210.3 MB/s" or "7012 IOPS"; "-" for NAN. */
static const char *fmt_val(double v, bool iops, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (iops)
		snprintf(buf, len, "%.0f IOPS", v);
	else
		snprintf(buf, len, "%.1f MB/s", v / 1e6);
	return buf;
}

static const char *fmt_ratio(double v, char *buf, size_t len)
{
	if (isnan(v) || isinf(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.3f", v);
	return buf;
}

static void counts(const struct ios_acc_verdict *v, int c[3])
{
	c[0] = c[1] = c[2] = 0;
	for (size_t i = 0; i < v->n; i++)
		c[v->rows[i].status]++;
}

static void print_text(FILE *o, const struct ios_acc_tier *t, const char *file,
		       const struct ios_acc_verdict *v, double tol)
{
	char meth[256];
	int c[3];

	method_text(&t->method, meth, sizeof(meth));
	fprintf(o, "tier \"%s\" (%s): %s\n", t->name, file,
		ios_acc_status_name(v->status));
	fprintf(o, "  method: %s; per client, worst valid repetition\n", meth);
	fprintf(o, "  %-16s %-12s %-9s %-6s %14s %14s %7s %7s %14s %9s  %s\n",
		"metric", "client", "scope", "result", "measured", "expected",
		"margin", "reps", "fio", "bench/fio", "source");
	for (size_t i = 0; i < v->n; i++) {
		const struct ios_acc_row *r = &v->rows[i];
		bool iops = ios_acc_metrics[r->metric].iops;
		char mb[32], eb[32], mg[16], fb[32], rb[32], reps[24];

		snprintf(reps, sizeof(reps), "%d/%d", r->nvalid, r->nreps);
		fprintf(o,
			"  %-16s %-12s %-9s %-6s %14s %14s %7s %7s %14s %9s  %s\n",
			ios_acc_metrics[r->metric].key, r->client,
			ios_acc_scope_name(r->scope),
			ios_acc_status_name(r->status),
			fmt_val(r->measured, iops, mb, sizeof(mb)),
			fmt_val(r->expected, iops, eb, sizeof(eb)),
			fmt_ratio(r->margin, mg, sizeof(mg)), reps,
			r->has_ref ? fmt_val(r->ref, iops, fb, sizeof(fb))
				   : "-",
			r->has_ref ? fmt_ratio(r->ratio, rb, sizeof(rb)) : "-",
			r->source[0] ? r->source : "-");
		if (r->note[0])
			fprintf(o, "  %-16s %s\n", "", r->note);
		if (r->disagree)
			fprintf(o,
				"  %-16s DISAGREE: iostrata-bench / fio = %.3f, beyond the tolerance of %.0f%% (fio: %s)\n",
				"", r->ratio, tol * 100, r->ref_source);
	}
	counts(v, c);
	fprintf(o, "  => %s: %d PASS, %d FAIL, %d NOTRUN",
		ios_acc_status_name(v->status), c[IOS_ACC_PASS],
		c[IOS_ACC_FAIL], c[IOS_ACC_NOTRUN]);
	if (v->ndisagree)
		fprintf(o, "; %d disagreement(s) with fio beyond %.0f%%",
			v->ndisagree, tol * 100);
	fprintf(o, "\n\n");
}

/* Markdown cell: [s] as text only (report_md_text). */
static void md_cell(FILE *o, const char *s)
{
	fputs("| ", o);
	report_md_text(o, s);
	fputc(' ', o);
}

static void print_md(FILE *o, const struct ios_acc_tier *t, const char *file,
		     const struct ios_acc_verdict *v, double tol)
{
	char meth[256];
	int c[3];

	method_text(&t->method, meth, sizeof(meth));
	fprintf(o, "## Tier &quot;");
	report_md_text(o, t->name);
	fprintf(o,
		"&quot;: %s\n\nTier table: ", ios_acc_status_name(v->status));
	report_md_text(o, file);
	fprintf(o, ". Method: ");
	report_md_text(o, meth);
	fprintf(o,
		"; per client, worst valid repetition. fio tolerance: %.0f%%.\n\n",
		tol * 100);
	fprintf(o,
		"| metric | client | scope | result | measured | expected | margin | reps | fio | bench/fio | source | note |\n");
	fprintf(o,
		"| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |\n");
	for (size_t i = 0; i < v->n; i++) {
		const struct ios_acc_row *r = &v->rows[i];
		bool iops = ios_acc_metrics[r->metric].iops;
		char b[64], note[400];

		md_cell(o, ios_acc_metrics[r->metric].key);
		md_cell(o, r->client);
		md_cell(o, ios_acc_scope_name(r->scope));
		/* the status is ours: bold, not escaped */
		fprintf(o, "| **%s** ", ios_acc_status_name(r->status));
		md_cell(o, fmt_val(r->measured, iops, b, sizeof(b)));
		md_cell(o, fmt_val(r->expected, iops, b, sizeof(b)));
		md_cell(o, fmt_ratio(r->margin, b, sizeof(b)));
		snprintf(b, sizeof(b), "%d/%d", r->nvalid, r->nreps);
		md_cell(o, b);
		md_cell(o,
			r->has_ref ? fmt_val(r->ref, iops, b, sizeof(b)) : "-");
		md_cell(o,
			r->has_ref ? fmt_ratio(r->ratio, b, sizeof(b)) : "-");
		md_cell(o, r->source[0] ? r->source : "-");
		snprintf(note, sizeof(note), "%s%s%s", r->note,
			 r->note[0] && r->disagree ? "; " : "",
			 r->disagree ? "DISAGREE with fio" : "");
		md_cell(o, note);
		fputs("|\n", o);
	}
	counts(v, c);
	fprintf(o,
		"\n**%s**: %d PASS, %d FAIL, %d NOTRUN; %d disagreement(s) with fio.\n\n",
		ios_acc_status_name(v->status), c[IOS_ACC_PASS],
		c[IOS_ACC_FAIL], c[IOS_ACC_NOTRUN], v->ndisagree);
}

static void html_text(FILE *o, const char *s)
{
	for (; *s; s++)
		if (!report_html_entity(o, *s))
			fputc(*s, o);
}

static void html_cell(FILE *o, const char *cls, const char *s)
{
	if (cls)
		fprintf(o, "<td class=\"%s\">", cls);
	else
		fputs("<td>", o);
	html_text(o, s);
	fputs("</td>", o);
}

/* Each row's margin (measured / expected) as a bar, inline SVG: the
 * per-client rates against the tier at a glance (1.0 = the tier; bars cut
 * at 2.0; a row with no measurement has none). */
static void html_margins(FILE *o, const struct ios_acc_verdict *v)
{
	static const char *const fill[] = {"#4a4", "#cc4", "#c44"};
	const int rowh = 16, left = 300, scale = 200;
	char b[64];

	if (!v->n)
		return;
	fprintf(o,
		"<svg width=\"%d\" height=\"%zu\" role=\"img\" aria-label=\"margins\">\n",
		left + 2 * scale + 80, v->n * (size_t)rowh + 24);
	for (size_t i = 0; i < v->n; i++) {
		const struct ios_acc_row *r = &v->rows[i];
		double m = r->margin;
		int y = (int)i * rowh + 4;

		fprintf(o,
			"<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"end\">",
			left - 6, y + 11);
		html_text(o, ios_acc_metrics[r->metric].key);
		fputs(" ", o);
		html_text(o, r->client);
		fprintf(o, " %s</text>", ios_acc_scope_name(r->scope));
		if (!isnan(m) && m > 0)
			fprintf(o,
				"<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>"
				"<text x=\"%d\" y=\"%d\" font-size=\"11\">%s</text>",
				left, y, (int)(fmin(m, 2.0) * scale), rowh - 3,
				fill[r->status],
				left + (int)(fmin(m, 2.0) * scale) + 4, y + 11,
				fmt_ratio(m, b, sizeof(b)));
		fputs("\n", o);
	}
	fprintf(o,
		"<line x1=\"%d\" y1=\"0\" x2=\"%d\" y2=\"%zu\" stroke=\"#000\" stroke-dasharray=\"4 2\"/>"
		"<text x=\"%d\" y=\"%zu\" font-size=\"11\">1.0 = the tier (measured / expected)</text>\n</svg>\n",
		left + scale, left + scale, v->n * (size_t)rowh + 6,
		left + scale + 4, v->n * (size_t)rowh + 20);
}

/* What ran: each results file, the command line that wrote it and the
 * hardware record of every host, escaped. */
static void html_runs(FILE *o, const struct report_run *runs, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	fputs("<h2>What ran</h2>\n", o);
	for (size_t i = 0; i < n; i++) {
		fputs("<p><code>", o);
		html_text(o, runs[i].path);
		fputs("</code>: <code>", o);
		html_text(o, runs[i].run->command_line
				     ? runs[i].run->command_line
				     : "(no command line recorded)");
		fputs("</code></p>\n", o);
	}
	m = open_memstream(&buf, &len);
	if (!m)
		return;
	report_print_hosts(m, runs, n);
	if (fclose(m) == 0) {
		fputs("<h2>Hosts</h2>\n<pre>", o);
		html_text(o, buf);
		fputs("</pre>\n", o);
	}
	free(buf);
}

static void print_html(FILE *o, const struct ios_acc_tier *t, const char *file,
		       const struct ios_acc_verdict *v, double tol)
{
	static const char *const cls[] = {"pass", "notrun", "fail"};
	char meth[256], b[64];
	int c[3];

	method_text(&t->method, meth, sizeof(meth));
	fputs("<h2>Tier &quot;", o);
	html_text(o, t->name);
	fprintf(o,
		"&quot;: <span class=\"%s\">%s</span></h2>\n<p>Tier table: <code>",
		cls[v->status], ios_acc_status_name(v->status));
	html_text(o, file);
	fputs("</code>. Method: ", o);
	html_text(o, meth);
	fprintf(o,
		"; per client, worst valid repetition. fio tolerance: %.0f%%.</p>\n",
		tol * 100);
	fputs("<table>\n<tr><th>metric</th><th>client</th><th>scope</th><th>result</th><th>measured</th><th>expected</th><th>margin</th><th>reps</th><th>fio</th><th>bench/fio</th><th>source</th><th>note</th></tr>\n",
	      o);
	for (size_t i = 0; i < v->n; i++) {
		const struct ios_acc_row *r = &v->rows[i];
		bool iops = ios_acc_metrics[r->metric].iops;

		fputs("<tr>", o);
		html_cell(o, NULL, ios_acc_metrics[r->metric].key);
		html_cell(o, NULL, r->client);
		html_cell(o, NULL, ios_acc_scope_name(r->scope));
		html_cell(o, cls[r->status], ios_acc_status_name(r->status));
		html_cell(o, "num", fmt_val(r->measured, iops, b, sizeof(b)));
		html_cell(o, "num", fmt_val(r->expected, iops, b, sizeof(b)));
		html_cell(o, "num", fmt_ratio(r->margin, b, sizeof(b)));
		snprintf(b, sizeof(b), "%d/%d", r->nvalid, r->nreps);
		html_cell(o, "num", b);
		html_cell(o, "num",
			  r->has_ref ? fmt_val(r->ref, iops, b, sizeof(b))
				     : "-");
		html_cell(o, r->disagree ? "fail" : "num",
			  r->has_ref ? fmt_ratio(r->ratio, b, sizeof(b)) : "-");
		html_cell(o, NULL, r->source[0] ? r->source : "-");
		html_cell(o, NULL, r->note);
		fputs("</tr>\n", o);
	}
	fputs("</table>\n", o);
	html_margins(o, v);
	counts(v, c);
	fprintf(o,
		"<p><b>%s</b>: %d PASS, %d FAIL, %d NOTRUN; %d disagreement(s) with fio.</p>\n",
		ios_acc_status_name(v->status), c[IOS_ACC_PASS],
		c[IOS_ACC_FAIL], c[IOS_ACC_NOTRUN], v->ndisagree);
}

static json_t *jnum(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

static json_t *json_tier(const struct ios_acc_tier *t, const char *file,
			 const struct ios_acc_verdict *v)
{
	json_t *o = json_object(), *rows = json_array(), *m = json_object();
	char meth[256];

	method_text(&t->method, meth, sizeof(meth));
	json_object_set_new(o, "tier", json_string(t->name));
	json_object_set_new(o, "tiers_file", json_string(file));
	json_object_set_new(o, "verdict",
			    json_string(ios_acc_status_name(v->status)));
	json_object_set_new(m, "text", json_string(meth));
	json_object_set_new(m, "bw_bs",
			    json_integer((json_int_t)t->method.bw_bs));
	json_object_set_new(m, "iops_bs",
			    json_integer((json_int_t)t->method.iops_bs));
	json_object_set_new(m, "ioengine", json_string(t->method.ioengine));
	json_object_set_new(m, "iodepth", json_integer(t->method.iodepth));
	json_object_set_new(m, "file_size",
			    json_integer((json_int_t)t->method.file_size));
	json_object_set_new(m, "direct", json_integer(t->method.direct));
	json_object_set_new(o, "method", m);
	json_object_set_new(o, "disagreements", json_integer(v->ndisagree));
	for (size_t i = 0; i < v->n; i++) {
		const struct ios_acc_row *r = &v->rows[i];
		json_t *j = json_object(), *f = json_null();

		json_object_set_new(
			j, "metric",
			json_string(ios_acc_metrics[r->metric].key));
		json_object_set_new(j, "client", json_string(r->client));
		json_object_set_new(j, "scope",
				    json_string(ios_acc_scope_name(r->scope)));
		json_object_set_new(
			j, "result",
			json_string(ios_acc_status_name(r->status)));
		json_object_set_new(j, "measured", jnum(r->measured));
		json_object_set_new(j, "expected", jnum(r->expected));
		json_object_set_new(j, "margin", jnum(r->margin));
		json_object_set_new(j, "unit",
				    json_string(ios_acc_metrics[r->metric].iops
							? "op/s"
							: "B/s"));
		json_object_set_new(j, "valid_reps", json_integer(r->nvalid));
		json_object_set_new(j, "reps", json_integer(r->nreps));
		json_object_set_new(j, "clients_in_run",
				    json_integer(r->nclients));
		json_object_set_new(j, "source", json_string(r->source));
		json_object_set_new(j, "note", json_string(r->note));
		if (r->has_ref) {
			f = json_object();
			json_object_set_new(f, "value", jnum(r->ref));
			json_object_set_new(f, "ratio", jnum(r->ratio));
			json_object_set_new(f, "disagree",
					    json_boolean(r->disagree));
			json_object_set_new(f, "source",
					    json_string(r->ref_source));
		}
		json_object_set_new(j, "fio", f);
		json_array_append_new(rows, j);
	}
	json_object_set_new(o, "rows", rows);
	return o;
}

/* Before the tiers: the JSON document [*jall] or the HTML head. */
void acc_print_head(enum acc_format fmt, double tol, json_t **jall)
{
	if (fmt == ACC_JSON) {
		*jall = json_object();
		json_object_set_new(*jall, "fio_tolerance", json_real(tol));
		json_object_set_new(*jall, "tiers", json_array());
	} else if (fmt == ACC_HTML) {
		printf("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>iostrata site acceptance</title>\n"
		       "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
		       "td,th{border:1px solid #999;padding:2px 6px}td.num{text-align:right}"
		       ".pass{background:#cfc}.fail{background:#fcc}.notrun{background:#ffc}</style>\n"
		       "</head><body>\n<h1>iostrata site acceptance</h1>\n");
	}
}

void acc_print_tier(enum acc_format fmt, const struct ios_acc_tier *t,
		    const char *file, const struct ios_acc_verdict *v,
		    double tol, json_t *jall)
{
	switch (fmt) {
	case ACC_TEXT:
		print_text(stdout, t, file, v, tol);
		break;
	case ACC_MD:
		print_md(stdout, t, file, v, tol);
		break;
	case ACC_HTML:
		print_html(stdout, t, file, v, tol);
		break;
	case ACC_JSON:
		json_array_append_new(json_object_get(jall, "tiers"),
				      json_tier(t, file, v));
		break;
	}
}

void acc_print_tail(enum acc_format fmt, const struct report_run *runs,
		    size_t n, json_t *jall, int rc)
{
	if (fmt == ACC_HTML) {
		html_runs(stdout, runs, n);
		printf("</body></html>\n");
	}
	if (jall) {
		json_object_set_new(jall, "exit", json_integer(rc));
		json_dumpf(jall, stdout, JSON_INDENT(2) | JSON_ENSURE_ASCII);
		printf("\n");
		json_decref(jall);
	}
}
