/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * content: what a write carries (not with --verify, which stamps blocks).
 * fio scrambles its buffers by default so that a deduplicating or
 * compressing store cannot fold the writes of a benchmark into nothing;
 * iostrata does the same, and can make the data as compressible as asked.
 * No MPI: the unit tests call these directly.
 */
#ifndef IOSTRATA_CONTENT_H
#define IOSTRATA_CONTENT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Chunk the compressibility and the scrambling apply to (fio's default
 * buffer_compress_chunk). */
#define MB_CONTENT_CHUNK 512

/*
 * Fill [buf] ([len] bytes) from [seed]: each MB_CONTENT_CHUNK-byte chunk is
 * a random head followed by [zero_pct] percent zeros (0 = incompressible,
 * 100 = all zeros; fio's buffer_compress_percentage).
 */
void mb_content_fill(void *buf, size_t len, uint64_t seed, int zero_pct);

/*
 * Before each write: a fresh 8-byte value at the start of every chunk of
 * [buf] (one draw from the generator [state] per call, offset per chunk),
 * so no two writes (of one block, of two ranks) and no two chunks of one
 * write carry the same data; the zero tails stay.  About len/512 stores.
 * Inline: it runs before every write of the timed loop, and the call cost
 * more than its stores at 4 KiB.
 */
static inline uint64_t mb_content_next(uint64_t *s)
{
	uint64_t x = *s ? *s : 1;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545f4914f6cdd1dull;
}

static inline void mb_content_scramble(void *buf, size_t len, uint64_t *state)
{
	unsigned char *p = buf;
	/* One draw per write; chunk k gets v + k x an odd constant: distinct
	 * within the buffer, and every chunk differs from the previous write
	 * of its block (v never repeats within the generator's period).  A
	 * draw per chunk cost 40% of the null backend's 4 KiB rate. */
	uint64_t v = mb_content_next(state);

	for (size_t k = 0; k + 8 <= len; k += MB_CONTENT_CHUNK) {
		uint64_t w = v + (uint64_t)k * 0x9e3779b97f4a7c15ull;

		memcpy(p + k, &w, 8);
	}
}

#endif
