/* SPDX-License-Identifier: GPL-2.0-or-later */
/* content: write buffers, fresh and as compressible as asked (content.h). */
#include "config.h"

#include <string.h>

#include "content.h"

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
		uint64_t v = mb_content_next(&s);

		memcpy(p + i, &v, 8);
	}
	for (; i < len; i++)
		p[i] = (unsigned char)mb_content_next(&s);
	for (i = 0; i < len; i += MB_CONTENT_CHUNK) {
		size_t n =
			len - i < MB_CONTENT_CHUNK ? len - i : MB_CONTENT_CHUNK;

		if (n > head)
			memset(p + i + head, 0, n - head);
	}
}
