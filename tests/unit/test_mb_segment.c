/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_mb_segment: the file layouts of iostrata-bench (segment.h).  In the
 * shared layout (N-to-1, IOR's segmented layout with -F off) every rank's
 * blocks lie in its own segments: no byte of the file belongs to two
 * ranks, every byte of the ranks x size file belongs to one, every I/O is
 * aligned to --bs and inside one segment, sequential and random patterns
 * stay in the rank's blocks, and a --once random pass covers each rank's
 * blocks exactly once.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "once.h"
#include "segment.h"

struct shape {
	int nranks;
	uint64_t size, bs, block;
};

static const struct shape shapes[] = {
	{1, 1 << 20, 4096, 4096},     {2, 1 << 20, 4096, 4096},
	{2, 1 << 20, 4096, 65536},    {3, 1 << 20, 4096, 1 << 20},
	{4, 3 << 16, 4096, 3 << 14},  {5, 40960, 4096, 8192},
	{7, 1 << 16, 512, 512},       {8, 1 << 20, 65536, 262144},
	{16, 1 << 18, 4096, 1 << 14}, {3, 8 << 20, 1 << 20, 4 << 20},
};

#define NSHAPES (sizeof(shapes) / sizeof(shapes[0]))

/*
 * Map every block of every rank (the logical order [order]: 0 in order,
 * 1 a --once permutation) and mark the file's blocks: each exactly once,
 * owned by the rank that maps to it, aligned to bs, inside the file and
 * inside one of the rank's segments.
 */
static void check_cover(const struct shape *sh, int order, uint64_t seed)
{
	struct mb_seg seg;
	uint64_t nblocks = sh->size / sh->bs;
	uint64_t fsize, nfile;
	int *owner;

	mb_seg_init(&seg, true, sh->block, sh->nranks);
	fsize = mb_seg_file_size(&seg, sh->size);
	assert_true(fsize == (uint64_t)sh->nranks * sh->size);
	nfile = fsize / sh->bs;
	owner = malloc(nfile * sizeof(*owner));
	assert_non_null(owner);
	for (uint64_t i = 0; i < nfile; i++)
		owner[i] = -1;
	for (int r = 0; r < sh->nranks; r++) {
		struct mb_perm p;

		mb_perm_init(&p, nblocks, seed + (uint64_t)r);
		for (uint64_t i = 0; i < nblocks; i++) {
			uint64_t b = order ? mb_perm_at(&p, i) : i;
			uint64_t off = mb_seg_offset(&seg, r, b * sh->bs);
			uint64_t last =
				mb_seg_offset(&seg, r, b * sh->bs + sh->bs - 1);

			if (off % sh->bs || off + sh->bs > fsize)
				fail_msg(
					"ranks %d block %llu: rank %d block %llu at %llu (bs %llu, file %llu)",
					sh->nranks,
					(unsigned long long)sh->block, r,
					(unsigned long long)b,
					(unsigned long long)off,
					(unsigned long long)sh->bs,
					(unsigned long long)fsize);
			/* one I/O never crosses into another rank's block */
			assert_true(last == off + sh->bs - 1);
			assert_int_equal(mb_seg_owner(&seg, off), r);
			assert_int_equal(mb_seg_owner(&seg, last), r);
			if (owner[off / sh->bs] != -1)
				fail_msg(
					"ranks %d block %llu: offset %llu of rank %d already of rank %d",
					sh->nranks,
					(unsigned long long)sh->block,
					(unsigned long long)off, r,
					owner[off / sh->bs]);
			owner[off / sh->bs] = r;
		}
	}
	for (uint64_t i = 0; i < nfile; i++)
		if (owner[i] < 0)
			fail_msg(
				"ranks %d block %llu: file offset %llu of no rank",
				sh->nranks, (unsigned long long)sh->block,
				(unsigned long long)(i * sh->bs));
	free(owner);
}

static void test_shared_cover_sequential(void **state)
{
	(void)state;
	for (size_t k = 0; k < NSHAPES; k++)
		check_cover(&shapes[k], 0, 0);
}

static void test_shared_cover_once_random(void **state)
{
	(void)state;
	for (size_t k = 0; k < NSHAPES; k++)
		for (uint64_t seed = 1; seed < 4; seed++)
			check_cover(&shapes[k], 1, seed * 7919);
}

/* IOR's segmented layout, spelled out: rank r's segment s starts at
 * (s * nranks + r) * block; within a segment the rank's bytes are
 * contiguous; consecutive segments of one rank are nranks blocks apart. */
static void test_shared_ior_formula(void **state)
{
	struct mb_seg seg;

	(void)state;
	mb_seg_init(&seg, true, 1 << 20, 4);
	assert_true(mb_seg_offset(&seg, 0, 0) == 0);
	assert_true(mb_seg_offset(&seg, 1, 0) == 1 << 20);
	assert_true(mb_seg_offset(&seg, 3, 0) == 3u << 20);
	assert_true(mb_seg_offset(&seg, 0, 1 << 20) == 4u << 20);
	assert_true(mb_seg_offset(&seg, 2, (1 << 20) + 4096) ==
		    (6u << 20) + 4096);
	assert_true(mb_seg_offset(&seg, 3, (3u << 20) + 8192) ==
		    (15u << 20) + 8192);
	/* a block as large as --size: one contiguous region per rank */
	mb_seg_init(&seg, true, 16 << 20, 3);
	assert_true(mb_seg_offset(&seg, 2, 4096) == (32u << 20) + 4096);
}

/* Random offsets (any block of the rank's file, with or without --once)
 * land in the rank's own blocks: every logical block of every rank maps
 * to a block that rank owns (checked above for the whole file), and a
 * sample of pseudo-random ones here, for a large file. */
static void test_shared_random_own_blocks(void **state)
{
	struct mb_seg seg;
	uint64_t x = 88172645463325252ull;
	const uint64_t size = 16ull << 30, bs = 4096;

	(void)state;
	mb_seg_init(&seg, true, bs, 512);
	for (int i = 0; i < 100000; i++) {
		int r = (int)(i % 512);
		uint64_t b, off;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		b = x % (size / bs);
		off = mb_seg_offset(&seg, r, b * bs);
		assert_int_equal(mb_seg_owner(&seg, off), r);
		assert_true(off % bs == 0);
		assert_true(off + bs <= mb_seg_file_size(&seg, size));
	}
}

/* Per rank: the logical offset is the file offset, the file is --size. */
static void test_per_rank_identity(void **state)
{
	struct mb_seg seg;

	(void)state;
	mb_seg_init(&seg, false, 4096, 8);
	assert_false(seg.shared);
	assert_true(mb_seg_offset(&seg, 5, 12345 * 4096ull) == 12345 * 4096ull);
	assert_int_equal(mb_seg_owner(&seg, 0), -1);
	assert_true(mb_seg_file_size(&seg, 1 << 20) == 1 << 20);
	/* a shared layout without a block is per rank, never a division
	 * by zero */
	mb_seg_init(&seg, true, 0, 8);
	assert_false(seg.shared);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shared_cover_sequential),
		cmocka_unit_test(test_shared_cover_once_random),
		cmocka_unit_test(test_shared_ior_formula),
		cmocka_unit_test(test_shared_random_own_blocks),
		cmocka_unit_test(test_per_rank_identity),
	};

	return cmocka_run_group_tests_name("mb_segment", tests, NULL, NULL);
}
