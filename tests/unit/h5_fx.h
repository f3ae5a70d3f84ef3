/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * h5_fx: the synthetic run and temporary directory of test_h5run and
 * test_h5read_bounds, and the helpers both use.
 */
#ifndef IOSTRATA_H5_FX_H
#define IOSTRATA_H5_FX_H

#include "results.h"

struct fx {
	char dir[64];
	char path[128];
	struct ios_run *run;
};

int setup(void **state);
int teardown(void **state);
/* Write fx->run to fx->path, which must succeed. */
void write_ok(struct fx *fx);
/* Set integer attribute [name] of object [obj] in the file [path]. */
void set_attr_int(const char *path, const char *obj, const char *name, int v);

#endif
