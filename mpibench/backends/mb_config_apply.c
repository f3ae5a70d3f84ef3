/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mb_config_apply: the value of each option of iostrata-bench into struct
 * mb_config, its syntax and range checked (the option table and the walk
 * over argv are mb_config_parse.c's, the consistency between options
 * mb_config_check.c's).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "mb_config.h"
#include "mb_config_internal.h"
#include "units.h"

static int parse_patterns(struct mb_config *cfg, const char *v,
			  struct ios_err *err)
{
	char buf[256];
	char *save = NULL, *tok;
	int n = 0;

	if (strlen(v) >= sizeof(buf) || !*v || *v == ',' ||
	    v[strlen(v) - 1] == ',' || strstr(v, ",,"))
		return ios_errf(
			err, -EINVAL,
			"--rw: invalid value \"%s\" (accepted: write, read, randwrite, randread, randrw, or a comma list such as write,read)",
			v);
	strcpy(buf, v);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		unsigned p;

		for (p = 0; p < 5; p++)
			if (!strcmp(tok, mb_pattern_name(p)))
				break;
		if (p == 5)
			return ios_errf(
				err, -EINVAL,
				"--rw: unknown pattern \"%s\" (accepted: write, read, randwrite, randread, randrw, or a comma list such as write,read)",
				tok);
		if (n == MB_MAX_PHASES)
			return ios_errf(err, -EINVAL,
					"--rw: \"%s\": more than %d patterns",
					v, MB_MAX_PHASES);
		cfg->patterns[n++] = (enum mb_pattern)p;
	}
	if (n == 0)
		return ios_errf(
			err, -EINVAL,
			"--rw: invalid value \"%s\" (accepted: write, read, randwrite, randread, randrw, or a comma list such as write,read)",
			v);
	cfg->npatterns = n;
	return 0;
}

int mb_config_set_str(char **dst, const char *v)
{
	char *s = strdup(v);

	if (!s)
		return -ENOMEM;
	free(*dst);
	*dst = s;
	return 0;
}

/* --ioengine: a known engine, built in. */
static int parse_engine(struct mb_config *cfg, const char *v,
			struct ios_err *err)
{
	unsigned e;

	for (e = 0; e < MB_ENG_COUNT; e++)
		if (!strcmp(v, mb_engine_name(e)))
			break;
	if (e == MB_ENG_COUNT)
		return ios_errf(
			err, -EINVAL,
			"--ioengine: unknown engine \"%s\" (accepted: psync, libaio, io_uring, posixaio)",
			v);
#ifndef HAVE_LIBAIO
	if (e == MB_ENG_LIBAIO)
		return ios_errf(
			err, -EINVAL,
			"--ioengine: \"libaio\" is not built in (configure found no libaio; accepted: psync%s)",
#ifdef HAVE_LIBURING
			", io_uring"
#else
			""
#endif
		);
#endif
#ifndef HAVE_LIBURING
	if (e == MB_ENG_IO_URING)
		return ios_errf(
			err, -EINVAL,
			"--ioengine: \"io_uring\" is not built in (configure found no liburing; accepted: psync%s)",
#ifdef HAVE_LIBAIO
			", libaio"
#else
			""
#endif
		);
#endif
	cfg->ioengine = (enum mb_engine)e;
	return 0;
}

/* --backend: a backend of the registry (mb_backends[]). */
static int parse_backend(struct mb_config *cfg, const char *v,
			 struct ios_err *err)
{
	const struct mb_backend *be = mb_backend_find(v);
	const struct mb_backend *const *b;
	char list[256] = "";

	if (!be) {
		for (b = mb_backends; *b; b++) {
			if (list[0])
				strncat(list, ", ",
					sizeof(list) - strlen(list) - 1);
			strncat(list, (*b)->name,
				sizeof(list) - strlen(list) - 1);
		}
		return ios_errf(
			err, -EINVAL,
			"--backend: unknown or not built backend \"%s\" (accepted: %s)",
			v, list);
	}
	cfg->backend = be;
	return 0;
}

/* --attach=NAME=FILE: NAME of letters, digits, '-', '_', '.'. */
static int parse_attach(struct mb_config *cfg, const char *v,
			struct ios_err *err)
{
	const char *eq = strchr(v, '=');
	struct mb_attach *a;
	const char *c;

	if (!eq || eq == v || !eq[1])
		return ios_errf(
			err, -EINVAL,
			"--attach: invalid value \"%s\" (accepted: NAME=FILE, NAME of letters, digits, '-', '_', '.')",
			v);
	for (c = v; c < eq; c++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.",
			    *c))
			return ios_errf(
				err, -EINVAL,
				"--attach: invalid name in \"%s\" (accepted: NAME=FILE, NAME of letters, digits, '-', '_', '.')",
				v);
	if (cfg->nattach == MB_MAX_ATTACH)
		return ios_errf(err, -EINVAL,
				"--attach: more than %d attachments",
				MB_MAX_ATTACH);
	a = &cfg->attach[cfg->nattach];
	a->name = strndup(v, (size_t)(eq - v));
	a->path = strdup(eq + 1);
	if (!a->name || !a->path)
		return -ENOMEM;
	cfg->nattach++;
	return 0;
}

/* The options without a value. */
static int apply_flag(struct mb_config *cfg, enum opt_id id)
{
	switch (id) {
	case OPT_REORDER:
		cfg->reorder = true;
		break;
	case OPT_FSYNC:
		cfg->fsync = true;
		break;
	case OPT_VERIFY:
		cfg->verify = true;
		break;
	case OPT_KEEP:
		cfg->keep = true;
		break;
	case OPT_REUSE_DATASET:
		cfg->reuse_dataset = true;
		cfg->keep = true; /* a dataset outlives the run */
		break;
	case OPT_QUIET:
		cfg->quiet = true;
		break;
	case OPT_ONCE:
		cfg->once = true; /* runtime 0 once checked (fill_derived) */
		break;
	case OPT_ALLOW_DEVICE:
		cfg->allow_device = true;
		break;
	case OPT_FORCE:
		cfg->force = true;
		break;
	case OPT_BUFFERED:
		cfg->direct = false;
		break;
	case OPT_HELP:
		cfg->help = true;
		break;
	case OPT_VERSION:
		cfg->version = true;
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

/* The metadata phases' options (--meta, --meta-layout, --meta-files,
 * --meta-size, --meta-time): 0 or a negative errno (err set). */
static int apply_meta(struct mb_config *cfg, enum opt_id id, const char *v,
		      struct ios_err *err)
{
	uint64_t u;
	double d;
	int rc;

	switch (id) {
	case OPT_META:
		return mb_meta_parse_ops(cfg, v, err);
	case OPT_META_LAYOUT:
		return mb_meta_parse_layout(cfg, v, err);
	case OPT_META_FILES:
		rc = ios_parse_uint(v, "--meta-files", 1, MB_META_MAX_FILES, &u,
				    err);
		if (rc)
			return rc;
		cfg->meta_files = u;
		cfg->meta_files_given = true;
		return 0;
	case OPT_META_SIZE:
		rc = ios_parse_size(v, "--meta-size", &u, err);
		if (rc)
			return rc;
		if (u > MB_META_MAX_SIZE)
			return ios_errf(
				err, -EINVAL,
				"--meta-size: \"%s\" out of range (accepted: 0 to 1M: the metadata phases' small files)",
				v);
		cfg->meta_size = u;
		return 0;
	case OPT_META_TIME:
		rc = ios_parse_duration(v, "--meta-time", &d, err);
		if (rc)
			return rc;
		if (!(d == 0 || (d >= 0.1 && d <= 86400.0)))
			return ios_errf(
				err, -EINVAL,
				"--meta-time: \"%s\" out of range (accepted: 0 for a fixed --meta-files, or 100ms to 24h)",
				v);
		cfg->meta_time = d;
		return 0;
	default:
		break;
	}
	return -EINVAL;
}

/* How long and how often (--runtime, --reps, --interval): 0 or a
 * negative errno (err set). */
static int apply_time(struct mb_config *cfg, enum opt_id id, const char *v,
		      struct ios_err *err)
{
	uint64_t u;
	double d;
	int rc;

	switch (id) {
	case OPT_RUNTIME:
		rc = ios_parse_duration(v, "--runtime", &d, err);
		if (rc)
			return rc;
		if (!(d >= 0.1 && d <= 30 * 86400.0))
			return ios_errf(
				err, -EINVAL,
				"--runtime: \"%s\" out of range (accepted: 100ms to 30 days; --once for a size-based run)",
				v);
		cfg->runtime = d;
		cfg->runtime_given = true;
		return 0;
	case OPT_REPS:
		rc = ios_parse_uint(v, "--reps", 1, 10000, &u, err);
		if (rc)
			return rc;
		cfg->reps = (unsigned)u;
		return 0;
	case OPT_INTERVAL:
		rc = ios_parse_duration(v, "--interval", &d, err);
		if (rc)
			return rc;
		if (!(d >= 0.01 && d <= 86400.0))
			return ios_errf(
				err, -EINVAL,
				"--interval: \"%s\" out of range (accepted: 10ms to 1 day)",
				v);
		cfg->interval = d;
		return 0;
	default:
		break;
	}
	return -EINVAL;
}

/* What is read and written (--rwmixread, --scramble-buffers,
 * --buffer-compress): 0 or a negative errno (err set). */
static int apply_content(struct mb_config *cfg, enum opt_id id, const char *v,
			 struct ios_err *err)
{
	uint64_t u;
	int rc;

	switch (id) {
	case OPT_RWMIXREAD:
		rc = ios_parse_uint(v, "--rwmixread", 0, 100, &u, err);
		if (rc)
			return rc;
		cfg->rwmixread = (int)u;
		return 0;
	case OPT_SCRAMBLE:
		rc = ios_parse_uint(v, "--scramble-buffers", 0, 1, &u, err);
		if (rc)
			return rc;
		cfg->scramble = u == 1;
		return 0;
	case OPT_BUFFER_COMPRESS:
		rc = ios_parse_uint(v, "--buffer-compress", 0, 100, &u, err);
		if (rc)
			return rc;
		cfg->buffer_compress = (int)u;
		return 0;
	default:
		break;
	}
	return -EINVAL;
}

/* What the run records and where (--output, --summary, --seed,
 * --attach, --host-facts): 0 or a negative errno (err set). */
static int apply_record(struct mb_config *cfg, enum opt_id id, const char *v,
			struct ios_err *err)
{
	uint64_t u;
	int rc;

	switch (id) {
	case OPT_OUTPUT:
		if (!*v)
			return ios_errf(
				err, -EINVAL,
				"--output: empty path (accepted: a file name, or none)");
		if (!strcmp(v, "none")) {
			free(cfg->output);
			cfg->output = NULL;
			cfg->summary = cfg->summary; /* keep */
			return 0;
		}
		return mb_config_set_str(&cfg->output, v);
	case OPT_SUMMARY:
		if (!strcmp(v, "text"))
			cfg->summary = MB_SUM_TEXT;
		else if (!strcmp(v, "json"))
			cfg->summary = MB_SUM_JSON;
		else if (!strcmp(v, "none"))
			cfg->summary = MB_SUM_NONE;
		else
			return ios_errf(
				err, -EINVAL,
				"--summary: unknown format \"%s\" (accepted: text, json, none)",
				v);
		return 0;
	case OPT_SEED:
		rc = ios_parse_uint(v, "--seed", 0, UINT64_MAX, &u, err);
		if (rc)
			return rc;
		cfg->seed = u;
		cfg->seed_given = true;
		return 0;
	case OPT_ATTACH:
		return parse_attach(cfg, v, err);
	case OPT_HOST_FACTS:
		if (!v[0])
			return ios_errf(
				err, -EINVAL,
				"--host-facts: empty file name (accepted: a file iostrata-facts wrote)");
		if (cfg->nhost_facts == MB_MAX_HOST_FACTS)
			return ios_errf(err, -EINVAL,
					"--host-facts: more than %d files",
					MB_MAX_HOST_FACTS);
		if (!(cfg->host_facts[cfg->nhost_facts] = strdup(v)))
			return -ENOMEM;
		cfg->nhost_facts++;
		return 0;
	default:
		break;
	}
	return -EINVAL;
}

/* The access pattern, sizes, layout and backend here, the other groups
 * in apply_meta, apply_time, apply_content, apply_record and
 * apply_flag. */
int mb_config_apply(struct mb_config *cfg, enum opt_id id, const char *v,
		    struct ios_err *err)
{
	uint64_t u;
	int rc;

	switch (id) {
	case OPT_META:
	case OPT_META_LAYOUT:
	case OPT_META_FILES:
	case OPT_META_SIZE:
	case OPT_META_TIME:
		return apply_meta(cfg, id, v, err);
	case OPT_RUNTIME:
	case OPT_REPS:
	case OPT_INTERVAL:
		return apply_time(cfg, id, v, err);
	case OPT_RWMIXREAD:
	case OPT_SCRAMBLE:
	case OPT_BUFFER_COMPRESS:
		return apply_content(cfg, id, v, err);
	case OPT_OUTPUT:
	case OPT_SUMMARY:
	case OPT_SEED:
	case OPT_ATTACH:
	case OPT_HOST_FACTS:
		return apply_record(cfg, id, v, err);
	case OPT_RW:
		cfg->rw_given = true;
		return parse_patterns(cfg, v, err);
	case OPT_BS:
		rc = ios_parse_size(v, "--bs", &u, err);
		if (rc)
			return rc;
		if (u == 0 || u > (1ull << 30))
			return ios_errf(
				err, -EINVAL,
				"--bs: \"%s\" out of range (accepted: 1 byte to 1G)",
				v);
		cfg->bs = u;
		return 0;
	case OPT_SIZE:
		rc = ios_parse_size(v, "--size", &u, err);
		if (rc)
			return rc;
		if (u == 0)
			return ios_errf(
				err, -EINVAL,
				"--size: \"%s\" must be greater than 0 (accepted: a size such as 1G)",
				v);
		cfg->size = u;
		return 0;
	case OPT_DIR:
		if (!*v)
			return ios_errf(
				err, -EINVAL,
				"--dir: empty path (accepted: an existing directory)");
		return mb_config_set_str(&cfg->dir, v);
	case OPT_IODEPTH:
		rc = ios_parse_uint(v, "--iodepth", 1, 4096, &u, err);
		if (rc)
			return rc;
		cfg->iodepth = (unsigned)u;
		return 0;
	case OPT_IODEPTH_BATCH:
		rc = ios_parse_uint(v, "--iodepth_batch", 1, 4096, &u, err);
		if (rc)
			return rc;
		cfg->iodepth_batch = (unsigned)u;
		return 0;
	case OPT_IOENGINE:
		return parse_engine(cfg, v, err);
	case OPT_BACKEND:
		return parse_backend(cfg, v, err);
	case OPT_FILE_LAYOUT:
		if (!strcmp(v, "per-rank"))
			cfg->file_layout = MB_LAYOUT_PER_RANK;
		else if (!strcmp(v, "shared"))
			cfg->file_layout = MB_LAYOUT_SHARED;
		else
			return ios_errf(
				err, -EINVAL,
				"--file-layout: unknown layout \"%s\" (accepted: per-rank, shared)",
				v);
		return 0;
	case OPT_SHARED_BLOCK:
		rc = ios_parse_size(v, "--shared-block", &u, err);
		if (rc)
			return rc;
		if (u == 0)
			return ios_errf(
				err, -EINVAL,
				"--shared-block: \"%s\" must be greater than 0 (accepted: a multiple of --bs that divides --size)",
				v);
		cfg->shared_block = u;
		return 0;
	default:
		return apply_flag(cfg, id);
	}
	return -EINVAL;
}
