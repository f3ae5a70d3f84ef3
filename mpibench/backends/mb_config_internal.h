/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mb_config_internal: between the parser (mb_config_parse.c) and its
 * consistency checks (mb_config_check.c); not part of mb_config.h.
 */
#ifndef IOSTRATA_MB_CONFIG_INTERNAL_H
#define IOSTRATA_MB_CONFIG_INTERNAL_H

#include "errbuf.h"
#include "mb_config.h"

/*
 * Check the options of a parsed [cfg] against each other and against its
 * backend: bs <= size and a divisor of it, iodepth_batch <= iodepth, an
 * asynchronous engine and backend for iodepth > 1, --verify only with data
 * and bs >= 64, interval <= runtime, direct I/O alignment, --dir where the
 * backend needs it, every backend option one of the backend's.  Returns 0
 * or -EINVAL with [err] naming the option and what is accepted.
 */
int mb_config_check_options(const struct mb_config *cfg, struct ios_err *err);

/* --meta's list into cfg->meta (each phase once), --meta-layout's value;
 * 0 or -EINVAL with [err] naming the option and what is accepted. */
int mb_meta_parse_ops(struct mb_config *cfg, const char *v,
		      struct ios_err *err);
int mb_meta_parse_layout(struct mb_config *cfg, const char *v,
			 struct ios_err *err);

/* The metadata options against each other, the --rw ones and the backend
 * (mb_config_meta.c).  0 or -EINVAL with [err]. */
int mb_meta_check(const struct mb_config *cfg, struct ios_err *err);

#endif
