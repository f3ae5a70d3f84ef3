/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mb_config_parse: the option table of iostrata-bench (it drives --help)
 * and the parser of argv into struct mb_config (mb_config.h).  Every check
 * happens before MPI work or any file is created, so bad input costs
 * nothing and clobbers nothing: each option's syntax and range where its
 * value is applied (mb_config_apply.c), the consistency between options
 * in mb_config_check.c, the target in mb_target.c.
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

/* The option table: --help is generated from it, so it is the truth
 * (enum opt_id in mb_config_internal.h). */
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
	return mb_config_set_str(&cfg->output, buf);
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
		return mb_config_apply(cfg, o->id, val, err);
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
