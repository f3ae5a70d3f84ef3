/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jsonw: a small streaming JSON writer (one object on stdout for
 * --summary=json, iostrata-node --json, report export).  It tracks nesting
 * and commas; the caller only says what comes next.  Non-finite doubles are
 * written as null, since JSON has no NaN.
 */
#ifndef IOSTRATA_JSONW_H
#define IOSTRATA_JSONW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSONW_MAX_DEPTH 32

struct jsonw {
	FILE *f;
	int depth;
	bool first[JSONW_MAX_DEPTH]; /* nothing written yet at this level */
	bool pretty;
	bool after_key; /* a key was written: the value needs no comma */
	int error;      /* first error seen: -EOVERFLOW (too deep), -EIO */
};

/* Start writing to [f]; [pretty] indents with two spaces per level. */
void jsonw_init(struct jsonw *w, FILE *f, bool pretty);

/* Containers.  A key (jsonw_key) must precede a value inside an object. */
void jsonw_obj_begin(struct jsonw *w);
void jsonw_obj_end(struct jsonw *w);
void jsonw_arr_begin(struct jsonw *w);
void jsonw_arr_end(struct jsonw *w);
void jsonw_key(struct jsonw *w, const char *key);

/* Scalars. */
void jsonw_str(struct jsonw *w, const char *s); /* NULL is written as null */
void jsonw_int(struct jsonw *w, int64_t v);
void jsonw_uint(struct jsonw *w, uint64_t v);
void jsonw_double(struct jsonw *w, double v);
void jsonw_bool(struct jsonw *w, bool v);
void jsonw_null(struct jsonw *w);

/* key + scalar in one call. */
void jsonw_kv_str(struct jsonw *w, const char *key, const char *s);
void jsonw_kv_int(struct jsonw *w, const char *key, int64_t v);
void jsonw_kv_uint(struct jsonw *w, const char *key, uint64_t v);
void jsonw_kv_double(struct jsonw *w, const char *key, double v);
void jsonw_kv_bool(struct jsonw *w, const char *key, bool v);

/*
 * Finish: writes a final newline at depth 0 and flushes.  Returns 0, or the
 * first error (-EOVERFLOW nesting too deep or unbalanced, -EIO write error).
 */
int jsonw_finish(struct jsonw *w);

/* Write [s] as a JSON string literal (with quotes) to [f]. */
void jsonw_write_escaped(FILE *f, const char *s);

#endif
