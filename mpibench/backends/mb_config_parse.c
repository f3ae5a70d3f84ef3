/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mb_config_parse: the option table of iostrata-bench (it drives --help)
 * and the parser of argv into struct mb_config (mb_config.h).  Every check
 * happens before MPI work or any file is created, so bad input costs
 * nothing and clobbers nothing: the syntax and ranges here, the
 * consistency between options in mb_config_check.c, the target in
 * mb_target.c.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mb_config.h"
#include "mb_config_internal.h"
#include "units.h"

/* The option table: --help is generated from it, so it is the truth. */
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

struct opt {
	enum opt_id id;
	const char *name;
	const char *arg; /* NULL: flag */
	const char *def;
	const char *help;
};

static const struct opt opts[] = {
	{OPT_RW, "rw", "PATTERN[,PATTERN...]", "write",
	 "access pattern(s), run in order: write, read, randwrite, randread, randrw (e.g. write,read)"},
	{OPT_RWMIXREAD, "rwmixread", "PCT", "70",
	 "percent of reads in randrw (0-100)"},
	{OPT_BS, "bs", "SIZE", "8M",
	 "block size of every I/O (K/M/G binary; KB/MB decimal)"},
	{OPT_SIZE, "size", "SIZE", "16G",
	 "file size per rank; a multiple of --bs; wrapped over until --runtime, or moved once with --once"},
	{OPT_DIR, "dir", "PATH", NULL,
	 "directory for the rank files (required for posix); a block device only with --allow-device"},
	{OPT_IODEPTH, "iodepth", "N", "1",
	 "I/Os in flight per rank (1-4096); > 1 needs an asynchronous engine: posix --ioengine=libaio|io_uring|posixaio, rados (librados aio), cephfs (a thread per I/O, 1-128)"},
	{OPT_IODEPTH_BATCH, "iodepth_batch", "N", "1",
	 "I/Os submitted together when refilling the queue (fio's iodepth_batch_submit; 1 to --iodepth)"},
	{OPT_IOENGINE, "ioengine", "ENGINE", "psync",
	 "posix I/O engine: psync, libaio, io_uring, posixaio"},
	{OPT_BACKEND, "backend", "NAME", "posix",
	 "I/O backend (see the list below)"},
	{OPT_RUNTIME, "runtime", "DURATION", "150",
	 "seconds each repetition runs (time-based; s, ms, m, h)"},
	{OPT_ONCE, "once", NULL, "off",
	 "size-based instead of time-based (IOR's and fio's default): each rank moves its file once, sequential in order, random each block once; the I/O stage is bounded by size / 1 MB/s + 60 s"},
	{OPT_FILE_LAYOUT, "file-layout", "LAYOUT", "per-rank",
	 "per-rank: each rank on its own file (N-to-N); shared: all ranks on one file iostrata-bench.shared of ranks x --size bytes, each rank in its own blocks (N-to-1, IOR's -F off)"},
	{OPT_SHARED_BLOCK, "shared-block", "SIZE", "--bs",
	 "with --file-layout=shared: bytes a rank owns per segment (IOR -b), a multiple of --bs dividing --size; rank r's segment s at (s x ranks + r) x SIZE"},
	{OPT_REPS, "reps", "N", "7", "repetitions of each pattern (1-10000)"},
	{OPT_INTERVAL, "interval", "DURATION", "1",
	 "sample period of the per-rank time series (>= 10ms)"},
	{OPT_OUTPUT, "output", "FILE", "iostrata-bench-<UTC time>.h5",
	 "HDF5 results file, rewritten after each repetition; \"none\" for no file"},
	{OPT_SUMMARY, "summary", "FORMAT", "text",
	 "summary on rank 0's stdout: text, json (one object), none"},
	{OPT_REORDER, "reorder", NULL, "off",
	 "read the file written by the rank one node further (IOR -C)"},
	{OPT_FSYNC, "fsync", NULL, "off",
	 "fsync before a write repetition ends (counted in its time)"},
	{OPT_VERIFY, "verify", NULL, "off",
	 "stamp each block (rank, offset, rep, seed, checksum); reads check it"},
	{OPT_KEEP, "keep", NULL, "off", "keep the rank files at the end"},
	{OPT_REUSE_DATASET, "reuse-dataset", NULL, "off",
	 "the files under --dir (rados: the namespaces in --rados-pool) are a dataset kept for later runs: read phases reuse a file marked with this run's layout (user.iostrata.dataset, on rados an xattr of the head object: size, bs, seed, content, file layout, pool, owner), lay out and mark one without a mark, refuse one with another mark; needs --seed, implies --keep"},
	{OPT_SEED, "seed", "N", "random",
	 "seed of offsets and data (recorded in the results)"},
	{OPT_QUIET, "quiet", NULL, "off", "no progress line"},
	{OPT_ALLOW_DEVICE, "allow-device", NULL, "off",
	 "allow --dir to be a block device (its data is destroyed)"},
	{OPT_FORCE, "force", NULL, "off",
	 "run although ranks x size exceeds the free space, overwrite --output"},
	{OPT_BUFFERED, "buffered", NULL, "off",
	 "drop O_DIRECT: a deliberately cached run (recorded as such)"},
	{OPT_SCRAMBLE, "scramble-buffers", "0|1", "1",
	 "a fresh value in every 512-byte chunk of each write (fio's scramble_buffers): no two writes alike"},
	{OPT_BUFFER_COMPRESS, "buffer-compress", "PCT", "0",
	 "percent of each 512-byte chunk of write data that is zeros (fio's buffer_compress_percentage)"},
	{OPT_ATTACH, "attach", "NAME=FILE", NULL,
	 "store FILE's text under /attachments/NAME (repeatable)"},
	{OPT_HOST_FACTS, "host-facts", "FILE", NULL,
	 "a host record made by iostrata-facts on a host without ranks (a storage host), stored under /hosts (repeatable)"},
	{OPT_META, "meta", "PHASE[,PHASE...]", NULL,
	 "metadata phases instead of --rw, run in order (mdtest's): create, stat, read, remove (small files), mkdir, dirstat, rmdir (directories); stat, read and remove need create before them, dirstat and rmdir need mkdir; posix, cephfs and null backends"},
	{OPT_META_LAYOUT, "meta-layout", "LAYOUT", "easy",
	 "easy: a directory per rank (mdtest-easy); hard: one directory shared by every rank, names unique per rank (mdtest-hard)"},
	{OPT_META_FILES, "meta-files", "N", "1000",
	 "files (and directories) per rank and repetition (1-100000000); with --meta-time the most a rank makes"},
	{OPT_META_SIZE, "meta-size", "SIZE", "0",
	 "bytes each create writes and each read reads (0 to 1M; IO500's mdtest-hard: 3901)"},
	{OPT_META_TIME, "meta-time", "DURATION", "0",
	 "stonewall: create and mkdir stop on every rank at this time after their common start (0: --meta-files each); later phases work on what was made"},
	{OPT_HELP, "help", NULL, NULL, "this text"},
	{OPT_VERSION, "version", NULL, NULL, "print the version"},
};

#define NOPTS (sizeof(opts) / sizeof(opts[0]))

void mb_config_usage(FILE *f)
{
	const struct mb_backend *const *b;
	size_t i;

	fprintf(f, "Usage: iostrata-bench [OPTION...]\n");
	fprintf(f,
		"MPI storage benchmark: one rank per core, each on its own file, direct I/O,\nhonest aggregate figures (stonewalled, whole-window, sum of rank rates).\nRun it with srun --mpi=pmix or mpirun.\n\nOptions (default in brackets):\n");
	for (i = 0; i < NOPTS; i++) {
		char left[64];

		snprintf(left, sizeof(left), "--%s%s%s", opts[i].name,
			 opts[i].arg ? "=" : "",
			 opts[i].arg ? opts[i].arg : "");
		fprintf(f, "  %-28s %s", left, opts[i].help);
		if (opts[i].def)
			fprintf(f, " [%s]", opts[i].def);
		fputc('\n', f);
	}
	fprintf(f, "\nBackends:\n");
	for (b = mb_backends; *b; b++) {
		const struct mb_option *o;

		fprintf(f, "  %-28s %s\n", (*b)->name,
			(*b)->summary ? (*b)->summary : "");
		for (o = (*b)->options; o && o->name; o++) {
			char left[64];

			snprintf(left, sizeof(left), "  --%s%s%s", o->name,
				 o->arg ? "=" : "", o->arg ? o->arg : "");
			fprintf(f, "  %-28s %s", left, o->help ? o->help : "");
			if (o->def)
				fprintf(f, " [%s]", o->def);
			fputc('\n', f);
		}
	}
	fprintf(f, "\nSizes: 4K, 8M, 16G, 1T (binary), 4KB, 8MB (decimal).\n");
}

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

static int set_str(char **dst, const char *v)
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
		return set_str(&cfg->output, v);
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

/* Option [o] with value [v] (NULL for a flag) into [cfg]: the access
 * pattern, sizes, layout and backend here, the other groups in
 * apply_meta, apply_time, apply_content, apply_record and apply_flag.  0
 * or a negative errno (err set). */
static int apply(struct mb_config *cfg, const struct opt *o, const char *v,
		 struct ios_err *err)
{
	uint64_t u;
	int rc;

	switch (o->id) {
	case OPT_META:
	case OPT_META_LAYOUT:
	case OPT_META_FILES:
	case OPT_META_SIZE:
	case OPT_META_TIME:
		return apply_meta(cfg, o->id, v, err);
	case OPT_RUNTIME:
	case OPT_REPS:
	case OPT_INTERVAL:
		return apply_time(cfg, o->id, v, err);
	case OPT_RWMIXREAD:
	case OPT_SCRAMBLE:
	case OPT_BUFFER_COMPRESS:
		return apply_content(cfg, o->id, v, err);
	case OPT_OUTPUT:
	case OPT_SUMMARY:
	case OPT_SEED:
	case OPT_ATTACH:
	case OPT_HOST_FACTS:
		return apply_record(cfg, o->id, v, err);
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
		return set_str(&cfg->dir, v);
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
		return apply_flag(cfg, o->id);
	}
	return -EINVAL;
}

/* A backend option given as --NAME[=VALUE]; NULL when none matches. */
static const struct mb_option *find_bopt(const char *name, size_t len)
{
	const struct mb_backend *const *b;

	for (b = mb_backends; *b; b++) {
		const struct mb_option *o;

		for (o = (*b)->options; o && o->name; o++)
			if (strlen(o->name) == len &&
			    !strncmp(o->name, name, len))
				return o;
	}
	return NULL;
}

static int default_output(struct mb_config *cfg)
{
	char buf[128];
	time_t now = time(NULL);
	struct tm tm;
	const char *job = getenv("SLURM_JOB_ID");

	gmtime_r(&now, &tm);
	if (job)
		snprintf(buf, sizeof(buf),
			 "iostrata-bench-%04d%02d%02dT%02d%02d%02dZ-job%s.h5",
			 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
			 tm.tm_hour, tm.tm_min, tm.tm_sec, job);
	else
		snprintf(buf, sizeof(buf),
			 "iostrata-bench-%04d%02d%02dT%02d%02d%02dZ.h5",
			 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
			 tm.tm_hour, tm.tm_min, tm.tm_sec);
	return set_str(&cfg->output, buf);
}

/*
 * The value of option --[name] ([arg]: NULL for a flag) given as [eq]
 * ("=VALUE", or NULL: then the next argument, argv[++*i]).  A flag takes
 * none: *val is left as it is.
 */
static int option_value(const char *name, const char *arg, const char *eq,
			int argc, char **argv, int *i, const char **val,
			struct ios_err *err)
{
	if (arg) {
		if (eq)
			*val = eq + 1;
		else if (*i + 1 < argc)
			*val = argv[++*i];
		else
			return ios_errf(
				err, -EINVAL,
				"--%s: missing value (accepted: --%s=%s)", name,
				name, arg);
	} else if (eq) {
		return ios_errf(err, -EINVAL,
				"--%s: takes no value (given \"%s\")", name,
				eq + 1);
	}
	return 0;
}

/* Argument argv[*i] (and its value, which may be the next one). */
static int parse_arg(struct mb_config *cfg, int argc, char **argv, int *i,
		     bool *output_given, struct ios_err *err)
{
	const char *a = argv[*i];
	const char *name, *eq, *val = NULL;
	size_t len;
	size_t k;
	const struct mb_option *bo;
	int rc;

	if (!strcmp(a, "-h")) {
		cfg->help = true;
		return 0;
	}
	if (strncmp(a, "--", 2) || !a[2])
		return ios_errf(
			err, -EINVAL,
			"unexpected argument \"%s\" (options are --NAME=VALUE; see --help)",
			a);
	name = a + 2;
	eq = strchr(name, '=');
	len = eq ? (size_t)(eq - name) : strlen(name);
	for (k = 0; k < NOPTS; k++)
		if (strlen(opts[k].name) == len &&
		    !strncmp(opts[k].name, name, len))
			break;
	if (k < NOPTS) {
		const struct opt *o = &opts[k];

		rc = option_value(o->name, o->arg, eq, argc, argv, i, &val,
				  err);
		if (rc)
			return rc;
		if (o->id == OPT_OUTPUT)
			*output_given = true;
		return apply(cfg, o, val, err);
	}
	bo = find_bopt(name, len);
	if (!bo)
		return ios_errf(
			err, -EINVAL,
			"unknown option \"--%.*s\" (see --help for the accepted options)",
			(int)len, name);
	rc = option_value(bo->name, bo->arg, eq, argc, argv, i, &val, err);
	if (rc)
		return rc;
	if (!bo->arg)
		val = "1";
	if (cfg->nbopts == MB_MAX_BOPTS)
		return ios_errf(err, -EINVAL, "--%s: too many backend options",
				bo->name);
	cfg->bopts[cfg->nbopts].name = bo->name;
	cfg->bopts[cfg->nbopts].value = strdup(val);
	if (!cfg->bopts[cfg->nbopts].value)
		return -ENOMEM;
	cfg->nbopts++;
	return 0;
}

/* What depends on the options given: the output name, the seed, the
 * runtime of a size-based run (0). */
static int fill_derived(struct mb_config *cfg, bool output_given,
			struct ios_err *err)
{
	int rc;

	if (cfg->once)
		cfg->runtime = 0;
	if (cfg->nmeta && cfg->meta_time > 0 && !cfg->meta_files_given)
		cfg->meta_files = MB_META_TIME_FILES;
	if (cfg->nmeta) /* no --rw phase runs */
		cfg->npatterns = 0;
	if (cfg->file_layout == MB_LAYOUT_SHARED && !cfg->shared_block)
		cfg->shared_block = cfg->bs;

	if (!output_given && !cfg->output) {
		rc = default_output(cfg);
		if (rc)
			return ios_errf(err, rc,
					"iostrata-bench: out of memory");
	}
	if (!cfg->seed_given) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		cfg->seed = ((uint64_t)ts.tv_sec * 1000000007ull) ^
			    (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32);
	}
	return 0;
}

int mb_config_parse(struct mb_config *cfg, int argc, char **argv,
		    struct ios_err *err)
{
	bool output_given = false;
	int i, rc;

	mb_config_defaults(cfg);
	cfg->command_line = mb_command_line(argc, argv);
	if (!cfg->command_line)
		return ios_errf(err, -ENOMEM, "iostrata-bench: out of memory");
	for (i = 1; i < argc; i++) {
		rc = parse_arg(cfg, argc, argv, &i, &output_given, err);
		if (rc)
			return rc;
	}
	if (cfg->help || cfg->version)
		return 0;
	rc = mb_config_check_options(cfg, err);
	if (rc)
		return rc;
	return fill_derived(cfg, output_given, err);
}
