/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_fx: the temporary directory, synthetic files and captured
 * subcommands of test_report and test_report_plot.
 */
#ifndef IOSTRATA_REPORT_FX_H
#define IOSTRATA_REPORT_FX_H

#include "synth.h"

#define MIB 1048576.0
#define GIB 1073741824.0

/* The test's directory, and test_outputs_hostile's sticky one. */
extern char dir[64], sticky[64];
int setup(void **state);
int teardown(void **state);
/* Write a synthetic run to dir/name. */
void synth_file(const char *name, const struct ios_synth *s);
/* Run a subcommand with stdout captured into *out (malloc'd). */
int run_cmd(char **out, int argc, ...);
/* dir/name (one of 8 rotating buffers). */
char *P(const char *name);

#endif
