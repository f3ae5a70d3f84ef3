/* SPDX-License-Identifier: GPL-2.0-or-later */
/* content: write buffers, fresh and as compressible as asked (content.h). */
#include "config.h"

#include <string.h>

#include "content.h"

static inline uint64_t next(uint64_t *s)
{
	uint64_t x = *s ? *s : 1;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545f4914f6cdd1dull;
}

void mb_content_fill(void *buf, size_t len, uint64_t seed, int zero_pct)
{
	unsigned char *p = buf;
	uint64_t s = seed | 1;
	size_t head, i;

	if (zero_pct < 0)
		zero_pct = 0;
	if (zero_pct > 100)
		zero_pct = 100;
	head = MB_CONTENT_CHUNK - (size_t)zero_pct * MB_CONTENT_CHUNK / 100;
	for (i = 0; i + 8 <= len; i += 8) {
		uint64_t v = next(&s);

		memcpy(p + i, &v, 8);
	}
	for (; i < len; i++)
		p[i] = (unsigned char)next(&s);
	for (i = 0; i < len; i += MB_CONTENT_CHUNK) {
		size_t n =
			len - i < MB_CONTENT_CHUNK ? len - i : MB_CONTENT_CHUNK;

		if (n > head)
			memset(p + i + head, 0, n - head);
	}
}

void mb_content_scramble(void *buf, size_t len, uint64_t *state)
{
	unsigned char *p = buf;
	/* One draw per write; chunk k gets v + k x an odd constant: distinct
	 * within the buffer, and every chunk differs from the previous write
	 * of its block (v never repeats within the generator's period).  A
	 * draw per chunk cost 40% of the null backend's 4 KiB rate. */
	uint64_t v = next(state);

	for (size_t k = 0; k + 8 <= len; k += MB_CONTENT_CHUNK) {
		uint64_t w = v + (uint64_t)k * 0x9e3779b97f4a7c15ull;

		memcpy(p + k, &w, 8);
	}
}
