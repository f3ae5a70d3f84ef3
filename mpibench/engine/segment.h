/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * segment: where a rank's blocks lie in the file it does I/O on.  Per rank
 * (--file-layout=per-rank, N-to-N) each rank has its own file and its
 * logical offset is the file offset.  Shared (--file-layout=shared,
 * N-to-1) all ranks use one file laid out as IOR's segmented layout with
 * -F off: the file is a sequence of segments, each of nranks blocks of
 * --shared-block bytes, one per rank in rank order, so the byte at
 * logical offset L of rank r (L < --size) lies at
 *     (s * nranks + r) * B + j,   s = L / B, j = L % B, B = --shared-block
 * (IOR: -b B -s size/B; with B = --size one contiguous region per rank).
 * No MPI: the unit tests check the layout.
 */
#ifndef IOSTRATA_MB_SEGMENT_H
#define IOSTRATA_MB_SEGMENT_H

#include <stdbool.h>
#include <stdint.h>

/* The layout of one phase's file(s). */
struct mb_seg {
	bool shared;    /* one file for every rank */
	uint64_t block; /* bytes a rank owns per segment (B); shared only */
	int nranks;
};

/* Set [s] to the per-rank layout, or (when [shared]) to the shared one of
 * [nranks] ranks with blocks of [block] bytes (> 0). */
void mb_seg_init(struct mb_seg *s, bool shared, uint64_t block, int nranks);

/* The file offset of rank [rank]'s logical offset [loff] (loff < --size). */
static inline uint64_t mb_seg_offset(const struct mb_seg *s, int rank,
				     uint64_t loff)
{
	uint64_t seg, j;

	if (!s->shared)
		return loff;
	seg = loff / s->block;
	j = loff % s->block;
	return (seg * (uint64_t)s->nranks + (uint64_t)rank) * s->block + j;
}

/* The rank that owns the byte at file offset [off] (shared), or -1 for a
 * per-rank layout (each file belongs to its rank). */
int mb_seg_owner(const struct mb_seg *s, uint64_t off);

/* The size of the file of one rank ([size] = --size) or of the shared
 * file: nranks x size. */
uint64_t mb_seg_file_size(const struct mb_seg *s, uint64_t size);

#endif
