/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jsonw: streaming JSON writer with nesting and comma bookkeeping. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>

#include "jsonw.h"

void jsonw_init(struct jsonw *w, FILE *f, bool pretty)
{
	w->f = f;
	w->depth = 0;
	w->first[0] = true;
	w->pretty = pretty;
	w->after_key = false;
	w->error = 0;
}

static void indent(struct jsonw *w)
{
	int i;

	if (!w->pretty)
		return;
	fputc('\n', w->f);
	for (i = 0; i < w->depth; i++)
		fputs("  ", w->f);
}

/* Before any value or key: a comma unless first at this level. */
static void sep(struct jsonw *w)
{
	if (!w->first[w->depth])
		fputc(',', w->f);
	w->first[w->depth] = false;
	if (w->depth > 0)
		indent(w);
}

static void before_value(struct jsonw *w)
{
	if (w->after_key)
		w->after_key = false;
	else
		sep(w);
}

static void open(struct jsonw *w, char c)
{
	before_value(w);
	fputc(c, w->f);
	if (w->depth + 1 >= JSONW_MAX_DEPTH) {
		if (!w->error)
			w->error = -EOVERFLOW;
		return;
	}
	w->depth++;
	w->first[w->depth] = true;
}

static void close_(struct jsonw *w, char c)
{
	bool empty;

	if (w->depth == 0) {
		if (!w->error)
			w->error = -EOVERFLOW;
		return;
	}
	empty = w->first[w->depth];
	w->depth--;
	if (!empty)
		indent(w);
	fputc(c, w->f);
}

void jsonw_obj_begin(struct jsonw *w)
{
	open(w, '{');
}

void jsonw_obj_end(struct jsonw *w)
{
	close_(w, '}');
}

void jsonw_arr_begin(struct jsonw *w)
{
	open(w, '[');
}

void jsonw_arr_end(struct jsonw *w)
{
	close_(w, ']');
}

void jsonw_write_escaped(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	for (; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

void jsonw_key(struct jsonw *w, const char *key)
{
	sep(w);
	jsonw_write_escaped(w->f, key);
	fputs(w->pretty ? ": " : ":", w->f);
	w->after_key = true;
}

void jsonw_str(struct jsonw *w, const char *s)
{
	before_value(w);
	if (s)
		jsonw_write_escaped(w->f, s);
	else
		fputs("null", w->f);
}

void jsonw_int(struct jsonw *w, int64_t v)
{
	before_value(w);
	fprintf(w->f, "%" PRId64, v);
}

void jsonw_uint(struct jsonw *w, uint64_t v)
{
	before_value(w);
	fprintf(w->f, "%" PRIu64, v);
}

void jsonw_double(struct jsonw *w, double v)
{
	before_value(w);
	if (isfinite(v))
		fprintf(w->f, "%.17g", v);
	else
		fputs("null", w->f);
}

void jsonw_bool(struct jsonw *w, bool v)
{
	before_value(w);
	fputs(v ? "true" : "false", w->f);
}

void jsonw_null(struct jsonw *w)
{
	before_value(w);
	fputs("null", w->f);
}

void jsonw_kv_str(struct jsonw *w, const char *key, const char *s)
{
	jsonw_key(w, key);
	jsonw_str(w, s);
}

void jsonw_kv_int(struct jsonw *w, const char *key, int64_t v)
{
	jsonw_key(w, key);
	jsonw_int(w, v);
}

void jsonw_kv_uint(struct jsonw *w, const char *key, uint64_t v)
{
	jsonw_key(w, key);
	jsonw_uint(w, v);
}

void jsonw_kv_double(struct jsonw *w, const char *key, double v)
{
	jsonw_key(w, key);
	jsonw_double(w, v);
}

void jsonw_kv_bool(struct jsonw *w, const char *key, bool v)
{
	jsonw_key(w, key);
	jsonw_bool(w, v);
}

int jsonw_finish(struct jsonw *w)
{
	if (w->depth != 0 && !w->error)
		w->error = -EOVERFLOW;
	fputc('\n', w->f);
	if (fflush(w->f) != 0 || ferror(w->f)) {
		if (!w->error)
			w->error = -EIO;
	}
	return w->error;
}
