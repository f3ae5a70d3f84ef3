/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mb_fx: iostrata-bench's option parser called from a list of arguments,
 * for test_mb_config, test_mb_meta and test_mb_dataset.
 */
#ifndef IOSTRATA_MB_FX_H
#define IOSTRATA_MB_FX_H

#include "errbuf.h"
#include "mb_config.h"

/* The most arguments a test passes: its lists hold this many, a shorter
 * one ends with NULL. */
#define MB_FX_MAXARGS 14

/* mb_config_parse() of "iostrata-bench" and args[] (up to NULL, at most
 * MB_FX_MAXARGS of them) into [cfg], [err] cleared first: its return. */
int mb_fx_parse(const char *const *args, struct mb_config *cfg,
		struct ios_err *err);

#endif
