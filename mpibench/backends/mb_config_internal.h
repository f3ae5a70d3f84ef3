/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mb_config_internal: between the parser (mb_config_parse.c), the values
 * it applies (mb_config_apply.c) and its consistency checks
 * (mb_config_check.c); not part of mb_config.h.
 */
#ifndef IOSTRATA_MB_CONFIG_INTERNAL_H
#define IOSTRATA_MB_CONFIG_INTERNAL_H

#include "errbuf.h"
#include "mb_config.h"

/* The options of iostrata-bench (mb_config_parse.c's table). */
enum opt_id {
	OPT_RW,
	OPT_RWMIXREAD,
	OPT_BS,
	OPT_SIZE,
	OPT_DIR,
	OPT_IODEPTH,
	OPT_IODEPTH_BATCH,
	OPT_IOENGINE,
	OPT_BACKEND,
	OPT_RUNTIME,
	OPT_ONCE,
	OPT_FILE_LAYOUT,
	OPT_SHARED_BLOCK,
	OPT_REPS,
	OPT_INTERVAL,
	OPT_OUTPUT,
	OPT_SUMMARY,
	OPT_REORDER,
	OPT_FSYNC,
	OPT_VERIFY,
	OPT_KEEP,
	OPT_REUSE_DATASET,
	OPT_SEED,
	OPT_QUIET,
	OPT_ALLOW_DEVICE,
	OPT_FORCE,
	OPT_BUFFERED,
	OPT_ATTACH,
	OPT_HOST_FACTS,
	OPT_SCRAMBLE,
	OPT_BUFFER_COMPRESS,
	OPT_META,
	OPT_META_LAYOUT,
	OPT_META_FILES,
	OPT_META_SIZE,
	OPT_META_TIME,
	OPT_HELP,
	OPT_VERSION,
};

/* Option [id] with value [v] (NULL for a flag) into [cfg], its syntax and
 * range checked: 0 or a negative errno (-EINVAL, -ENOMEM) with [err]
 * naming the option and what is accepted. */
int mb_config_apply(struct mb_config *cfg, enum opt_id id, const char *v,
		    struct ios_err *err);

/* *[dst] replaced by a copy of [v]: 0 or -ENOMEM (*[dst] as it was). */
int mb_config_set_str(char **dst, const char *v);

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
