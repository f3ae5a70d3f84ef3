/* SPDX-License-Identifier: GPL-2.0-or-later */
/* h5_fx: see h5_fx.h. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <hdf5.h>

#include "h5run.h"
#include "h5run_internal.h"
#include "schema.h"
#include "sanitizer.h"
#include "synth.h"

#include "h5_fx.h"

int setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));
	struct ios_synth s;

	snprintf(fx->dir, sizeof(fx->dir), "/tmp/test_h5run.XXXXXX");
	assert_non_null(mkdtemp(fx->dir));
	snprintf(fx->path, sizeof(fx->path), "%s/run.h5", fx->dir);
	ios_synth_defaults(&s);
	s.early_rank = 1;
	s.cpus = 8;
	s.mem = 32ull << 30;
	fx->run = ios_synth_run(&s);
	assert_non_null(fx->run);
	*state = fx;
	return 0;
}

int teardown(void **state)
{
	struct fx *fx = *state;
	char cmd[128];

	ios_synth_free(fx->run);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fx->dir);
	if (system(cmd) != 0)
		return -1;
	free(fx);
	ios_h5_test_hook = NULL;
	return 0;
}

void write_ok(struct fx *fx)
{
	struct ios_err err = {0};

	assert_int_equal(ios_h5_write_run(fx->path, fx->run, &err), 0);
}

void set_attr_int(const char *path, const char *obj, const char *name, int v)
{
	hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT), o, a;

	assert_true(f >= 0);
	/* through the object: H5Aopen_by_name() + H5Awrite() fail in
	 * 1.10.8 for a group's attribute ("can't locate open attribute") */
	o = H5Oopen(f, obj, H5P_DEFAULT);
	assert_true(o >= 0);
	a = H5Aopen(o, name, H5P_DEFAULT);
	assert_true(a >= 0);
	assert_true(H5Awrite(a, H5T_NATIVE_INT, &v) >= 0);
	H5Aclose(a);
	H5Oclose(o);
	H5Fclose(f);
}
