/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * segment: the per-rank and the shared (IOR segmented, -F off) layout of
 * the benchmark file (segment.h).
 */
#include "config.h"

#include "segment.h"

void mb_seg_init(struct mb_seg *s, bool shared, uint64_t block, int nranks)
{
	s->shared = shared && block > 0 && nranks > 0;
	s->block = s->shared ? block : 0;
	s->nranks = nranks > 0 ? nranks : 1;
}

int mb_seg_owner(const struct mb_seg *s, uint64_t off)
{
	if (!s->shared)
		return -1;
	return (int)((off / s->block) % (uint64_t)s->nranks);
}

uint64_t mb_seg_file_size(const struct mb_seg *s, uint64_t size)
{
	return s->shared ? size * (uint64_t)s->nranks : size;
}
