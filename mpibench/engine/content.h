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
 */
void mb_content_scramble(void *buf, size_t len, uint64_t *state);

#endif
