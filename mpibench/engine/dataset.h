/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dataset: the files a read phase lays out, as a dataset that later runs
 * may reuse (--reuse-dataset): the layout's identity, written as a mark
 * (xattr user.iostrata.dataset) on each laid-out file once its lay-out is
 * complete, checked before a run uses the file, and the watchdog bound of
 * the lay-out itself.  No MPI, no I/O: the unit tests drive it.
 */
#ifndef IOSTRATA_MB_DATASET_H
#define IOSTRATA_MB_DATASET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "errbuf.h"

struct mb_config;

/* The mark's name and the version of its text (bump on any change of the
 * fields or of the lay-out's content for the same fields). */
#define MB_DATASET_XATTR "user.iostrata.dataset"
#define MB_DATASET_FORMAT 1
#define MB_DATASET_MARK_MAX 512

/* What a laid-out file holds: equal identities mean equal bytes. */
struct mb_dataset_id {
	int format;            /* MB_DATASET_FORMAT */
	uint64_t size;         /* bytes of the file */
	uint64_t bs;           /* block size of the lay-out (verify stamps) */
	uint64_t seed;         /* content seed */
	char content[16];      /* "verify", "scramble" or "fill" */
	int compress;          /* --buffer-compress percent */
	char layout[16];       /* "per-rank" or "shared" */
	int ranks;             /* shared: rank count; per-rank: 0 (any) */
	uint64_t shared_block; /* shared: bytes per rank per segment; else 0 */
	char pool[64];         /* data pool where known ("" otherwise) */
	uint32_t uid;          /* who laid it out */
};

/* Verdicts of mb_dataset_check() besides a negative errno. */
#define MB_DS_ABSENT 0 /* no mark: lay out (and mark) */
#define MB_DS_MATCH 1  /* marked with this identity: reuse */

/*
 * The identity of the files of [cfg] run by [nranks] ranks, laid out by
 * [uid] in [pool] (NULL or "" when unknown), in [id].
 */
void mb_dataset_id_of(const struct mb_config *cfg, int nranks, const char *pool,
		      uint32_t uid, struct mb_dataset_id *id);

/*
 * [id] as the mark's text ("iostrata-dataset v=1 size=... uid=N") in [buf].
 * Returns the length, or -ENAMETOOLONG when [len] is too small.
 */
int mb_dataset_format(const struct mb_dataset_id *id, char *buf, size_t len);

/*
 * Parse a mark's text [s] into [id].  Returns 0, or -EINVAL with [err]
 * saying what is wrong (not a dataset mark, an unknown or missing field,
 * a bad number, another format version).
 */
int mb_dataset_parse(const char *s, struct mb_dataset_id *id,
		     struct ios_err *err);

/*
 * The first field (the mark's name for it) in which [have] differs from
 * [want] (uid is the owner, not part of the identity), with both values
 * in [detail] ("marked 8388608, this run 4096"); NULL when equal.
 */
const char *mb_dataset_diff(const struct mb_dataset_id *want,
			    const struct mb_dataset_id *have, char *detail,
			    size_t len);

/*
 * May the file [name] be reused as the dataset [want]?  [mark]: its mark's
 * text (NULL: none); [size]: its size now.  Returns MB_DS_ABSENT (no mark),
 * MB_DS_MATCH (same identity, size and owner), or a negative errno with
 * [err] naming the file and the field: -EPERM (marked by another uid),
 * -ESTALE (another identity, or the size is not the marked one), -EINVAL
 * (a mark that does not parse).  A refused file is neither reused nor
 * rewritten.
 */
int mb_dataset_check(const char *name, const char *mark, uint64_t size,
		     const struct mb_dataset_id *want, struct ios_err *err);

/* The lay-out watchdog's stall bound (s): a chunk that takes longer is a
 * stall, whatever the rate so far. */
#define MB_LAYOUT_STALL_S 600.0
/* The factor over the time the rest of the lay-out takes at the rate so
 * far. */
#define MB_LAYOUT_RATE_FACTOR 4.0

/*
 * The watchdog bound (s) of a lay-out that has written [done] bytes in
 * [elapsed] s and has [remaining] bytes to go, its slowest chunk so far
 * taking [slowest] s: the time the rest takes at the rate measured so far
 * x MB_LAYOUT_RATE_FACTOR, never below the stall bound max(
 * MB_LAYOUT_STALL_S, 20 x slowest).  Re-armed after every chunk, so a
 * cluster that is slow but progresses is never cut short (its rate is in
 * the bound), and one that stops still is (the bound runs out).  Before
 * the first chunk (done 0) the stall bound alone.
 */
double mb_layout_bound_s(uint64_t done, double elapsed, uint64_t remaining,
			 double slowest);

#endif
