/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mb_config: the command line of iostrata-bench (fio's vocabulary), parsed and
 * validated without MPI so unit tests can drive it.  Parsing checks syntax
 * and consistency; mb_config_check_target() checks the target directory
 * (exists, writable, alignment, free space, device, foreign files) before
 * any file is created.  The settings and their accessors are mb_config.c,
 * the parser and --help mb_config_parse.c, the checks between options
 * mb_config_check.c, the target's mb_target.c.
 */
#ifndef IOSTRATA_MB_CONFIG_H
#define IOSTRATA_MB_CONFIG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "backend.h"
#include "errbuf.h"

enum mb_pattern {
	MB_PAT_WRITE = 0,
	MB_PAT_READ,
	MB_PAT_RANDWRITE,
	MB_PAT_RANDREAD,
	MB_PAT_RANDRW,
};

enum mb_engine {
	MB_ENG_PSYNC = 0,
	MB_ENG_LIBAIO,
	MB_ENG_IO_URING,
	MB_ENG_POSIXAIO, /* POSIX AIO (aio_read/aio_write/aio_suspend), fio's
			    posixaio */
	MB_ENG_COUNT,
};

/* --file-layout: one file per rank (N-to-N) or one for all (N-to-1). */
enum mb_file_layout {
	MB_LAYOUT_PER_RANK = 0,
	MB_LAYOUT_SHARED,
};

enum mb_summary {
	MB_SUM_TEXT = 0,
	MB_SUM_JSON,
	MB_SUM_NONE,
};

#define MB_MAX_PHASES 8

/* --meta: the metadata phases (engine/meta.h), run in the order given. */
enum mb_meta_op {
	MB_META_CREATE =
		0,       /* create a file (O_CREAT|O_EXCL), write --meta-size */
	MB_META_STAT,    /* stat a file created by this run */
	MB_META_READ,    /* open, read its --meta-size bytes, close */
	MB_META_REMOVE,  /* unlink a file */
	MB_META_MKDIR,   /* create a directory */
	MB_META_DIRSTAT, /* stat a directory */
	MB_META_RMDIR,   /* remove a directory */
	MB_META_NOPS,
};

/* --meta-layout: a directory per rank (mdtest-easy) or one shared
 * directory where every rank creates its own names (mdtest-hard). */
enum mb_meta_layout {
	MB_META_EASY = 0,
	MB_META_HARD,
};

#define MB_META_MAX_SIZE (1024 * 1024)  /* --meta-size: small files */
#define MB_META_MAX_FILES 100000000ull  /* --meta-files per rank */
#define MB_META_TIME_FILES 100000000ull /* the bound with --meta-time */
#define MB_MAX_ATTACH 16
#define MB_MAX_HOST_FACTS 256
#define MB_MAX_BOPTS 32

struct mb_attach {
	char *name;
	char *path;
};

struct mb_bopt {
	const char *name; /* points into a backend's option table */
	char *value;
};

struct mb_config {
	int npatterns;
	enum mb_pattern patterns[MB_MAX_PHASES];
	int rwmixread; /* percent reads of randrw */
	uint64_t bs;
	uint64_t size; /* per rank */
	/* --file-layout=shared: every rank on one file, in segments of
	 * shared_block bytes per rank (segment.h; IOR's -F off); 0 = bs */
	enum mb_file_layout file_layout;
	uint64_t shared_block;
	char *dir;
	unsigned int iodepth;
	unsigned int iodepth_batch; /* I/Os per submit call (fio's default 1) */
	enum mb_engine ioengine;
	const struct mb_backend *backend;
	double runtime; /* seconds per repetition; 0 with --once */
	bool once;      /* --once: each rank moves its file once (size-based) */
	bool runtime_given;
	unsigned int reps;
	double interval; /* sample period, seconds */
	char *output;    /* NULL: --output=none */
	enum mb_summary summary;
	bool reorder;
	bool fsync;
	bool verify;
	bool keep;
	/* --reuse-dataset: the files are a dataset for later runs, marked
	 * with their layout's identity (dataset.h); implies keep */
	bool reuse_dataset;
	bool quiet;
	bool allow_device;
	bool force;
	bool direct; /* false with --buffered */
	/* Write content (not with --verify, which stamps blocks): a fresh
	 * 8-byte value at the start of every 512-byte chunk of each write
	 * (fio's scramble_buffers), over a buffer whose 512-byte chunks are
	 * buffer_compress percent zeros after a random head (fio's
	 * buffer_compress_percentage, chunk 512). */
	bool scramble;
	int buffer_compress; /* 0-100 */
	uint64_t seed;
	bool seed_given;
	int nattach;
	struct mb_attach attach[MB_MAX_ATTACH];
	int nhost_facts; /* --host-facts files */
	char *host_facts[MB_MAX_HOST_FACTS];
	int nbopts;
	struct mb_bopt bopts[MB_MAX_BOPTS];
	/* --meta (engine/meta.h): nmeta > 0 runs these metadata phases
	 * instead of the --rw ones */
	int nmeta;
	enum mb_meta_op meta[MB_META_NOPS];
	enum mb_meta_layout meta_layout;
	uint64_t meta_files; /* per rank; with meta_time: the bound */
	uint64_t meta_size;  /* bytes written by create, read by read */
	double meta_time;    /* 0: a fixed count; else the stonewall (s) */
	bool meta_files_given;
	bool rw_given;
	char *command_line; /* argv joined, shell-quoted */
	bool help;
	bool version;
};

/* Names used on the command line and in results files. */
const char *mb_pattern_name(enum mb_pattern p);
const char *mb_engine_name(enum mb_engine e);
/* The engine [cfg]'s I/O runs on, as recorded (/config ioengine): the
 * backend's async_engine at --iodepth > 1 when it has one ("threads" for
 * cephfs), else the --ioengine name. */
const char *mb_config_engine(const struct mb_config *cfg);
bool mb_pattern_writes(enum mb_pattern p);
bool mb_pattern_reads(enum mb_pattern p);
bool mb_pattern_random(enum mb_pattern p);

/* "create", "stat", ... (--meta's names, the record's); NULL when out of
 * range. */
const char *mb_meta_op_name(enum mb_meta_op op);
/* "easy" or "hard". */
const char *mb_meta_layout_name(enum mb_meta_layout l);
/* Whether [op] works on directories (mkdir, dirstat, rmdir). */
bool mb_meta_op_dir(enum mb_meta_op op);
/* Whether [op] makes the names later ones work on (create, mkdir): the
 * only phases a --meta-time stonewall bounds. */
bool mb_meta_op_makes(enum mb_meta_op op);

/* Fill [cfg] with the defaults (documented by mb_config_usage). */
void mb_config_defaults(struct mb_config *cfg);

/*
 * Parse argv into [cfg] (which mb_config_parse initialises).  Checks syntax,
 * units, ranges and consistency (bs <= size, size a multiple of bs, iodepth
 * >= 1, engine known and built, --verify not with the null backend, ...).
 * Touches no file.  Returns 0, or -EINVAL with [err] naming the option and
 * what is accepted.  --help/--version set cfg->help/version and return 0.
 */
int mb_config_parse(struct mb_config *cfg, int argc, char **argv,
		    struct ios_err *err);

/* argv joined with spaces, each word shell-quoted when it needs it (the
 * run record's command_line).  Malloc'd, NULL when out of memory. */
char *mb_command_line(int argc, char **argv);

/* Release what mb_config_parse allocated. */
void mb_config_free(struct mb_config *cfg);

/*
 * Backend option [name] (without "--"): the value given, else the
 * option's default, else NULL.
 */
const char *mb_config_opt(const struct mb_config *cfg, const char *name);

/* Print --help's options (every option with its default, each backend's
 * own) to [f]; the exit codes follow (mb_outcome_usage, in the record
 * room above: the program prints both). */
void mb_config_usage(FILE *f);

/*
 * The target file of [rank] for the posix backend: "DIR/iostrata-bench.RANK"
 * (or DIR itself when DIR is a block device).  Returns [buf].
 */
const char *mb_target_name(int rank, char *buf, size_t len);

/*
 * The file rank [rank] does its I/O on: mb_target_name(rank), or with
 * --file-layout=shared the one file of every rank, "iostrata-bench.shared"
 * (block devices: --dir itself).  Returns [buf].
 */
const char *mb_target_file(const struct mb_config *cfg, int rank, char *buf,
			   size_t len);

/* "per-rank" or "shared" (the option's values, the run record's). */
const char *mb_file_layout_name(enum mb_file_layout l);

/*
 * Check the target of one rank before anything is created (posix-like
 * backends, i.e. without MB_BF_NO_LOCAL_FS): --dir exists and is a
 * directory we can write (or a block device with --allow-device, large
 * enough for [nranks] regions), bs a multiple of the logical block size
 * for direct I/O, the rank's target is absent or an iostrata file
 * (mb_own_check: never a symbolic link, a file of another uid, ...),
 * free space for [ranks_sharing] files of --size unless --force.
 * [ranks_on_node] and [nranks] size the free-space need on local and
 * shared filesystems.  Returns 0 or a negative errno with [err] set.
 */
int mb_config_check_target(const struct mb_config *cfg, int rank, int nranks,
			   int ranks_on_node, struct ios_err *err);

/* Logical block size for direct I/O under the directory or block device
 * open as [fd]; 512 when unknown. */
unsigned int mb_logical_block_size(int fd);

#endif
