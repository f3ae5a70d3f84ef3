/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for common/jsonw.c: exact output, escaping, nesting errors. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "jsonw.h"

static char *render(void (*fn)(struct jsonw *), int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct jsonw w;

	assert_non_null(f);
	jsonw_init(&w, f, false);
	fn(&w);
	*rc = jsonw_finish(&w);
	fclose(f);
	return buf;
}

static void doc_nested(struct jsonw *w)
{
	jsonw_obj_begin(w);
	jsonw_kv_str(w, "name", "a\"b\\c\n\x01");
	jsonw_kv_int(w, "neg", -3);
	jsonw_kv_uint(w, "big", 18446744073709551615ull);
	jsonw_kv_double(w, "nan", NAN);
	jsonw_kv_double(w, "half", 0.5);
	jsonw_kv_bool(w, "ok", true);
	jsonw_key(w, "list");
	jsonw_arr_begin(w);
	jsonw_int(w, 1);
	jsonw_obj_begin(w);
	jsonw_obj_end(w);
	jsonw_arr_begin(w);
	jsonw_arr_end(w);
	jsonw_null(w);
	jsonw_str(w, NULL);
	jsonw_arr_end(w);
	jsonw_obj_end(w);
}

static void test_nested(void **state)
{
	int rc;
	char *s = render(doc_nested, &rc);

	(void)state;
	assert_int_equal(rc, 0);
	assert_string_equal(
		s, "{\"name\":\"a\\\"b\\\\c\\n\\u0001\",\"neg\":-3,"
		   "\"big\":18446744073709551615,\"nan\":null,\"half\":0.5,"
		   "\"ok\":true,\"list\":[1,{},[],null,null]}\n");
	free(s);
}

static void doc_unbalanced(struct jsonw *w)
{
	jsonw_obj_begin(w);
	jsonw_kv_int(w, "a", 1);
}

static void doc_overclosed(struct jsonw *w)
{
	jsonw_arr_begin(w);
	jsonw_arr_end(w);
	jsonw_arr_end(w);
}

static void test_errors(void **state)
{
	int rc;
	char *s;

	(void)state;
	s = render(doc_unbalanced, &rc);
	assert_int_equal(rc, -EOVERFLOW);
	free(s);
	s = render(doc_overclosed, &rc);
	assert_int_equal(rc, -EOVERFLOW);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nested),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests_name("jsonw", tests, NULL, NULL);
}
