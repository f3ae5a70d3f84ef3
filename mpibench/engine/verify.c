/* SPDX-License-Identifier: GPL-2.0-or-later */
/* verify: block stamps for --verify (see verify.h). */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "mix.h"
#include "verify.h"

/* A 64-bit checksum of [len] bytes with the checksum field taken as 0. */
static uint64_t block_sum(const unsigned char *p, size_t len)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ len;
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		uint64_t w;

		if (i == offsetof(struct mb_verify_hdr, checksum))
			w = 0;
		else
			memcpy(&w, p + i, 8);
		h = (h ^ w) * 0x100000001b3ull;
		h ^= h >> 29;
	}
	for (; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return mb_mix64(h);
}

void mb_verify_fill(void *buf, size_t len, uint32_t rank, uint32_t rep,
		    uint64_t offset, uint64_t seed)
{
	struct mb_verify_hdr h = {
		.magic = MB_VERIFY_MAGIC,
		.rank = rank,
		.rep = rep,
		.offset = offset,
		.seed = seed,
	};
	unsigned char *p = buf;
	uint64_t s =
		mb_mix64(seed ^ mb_mix64(offset) ^ ((uint64_t)rank << 40)) | 1;
	size_t i;

	for (i = MB_VERIFY_HDR; i + 8 <= len; i += 8) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		memcpy(p + i, &s, 8);
	}
	for (; i < len; i++)
		p[i] = (unsigned char)(s >> (8 * (i & 7)));
	memcpy(p, &h, sizeof(h));
	h.checksum = block_sum(p, len);
	memcpy(p + offsetof(struct mb_verify_hdr, checksum), &h.checksum, 8);
}

enum mb_verify_result mb_verify_check(const void *buf, size_t len,
				      uint32_t rank, uint64_t offset,
				      uint64_t seed)
{
	struct mb_verify_hdr h;

	if (len < MB_VERIFY_HDR)
		return MB_VERIFY_BAD_MAGIC;
	memcpy(&h, buf, sizeof(h));
	if (h.magic != MB_VERIFY_MAGIC)
		return MB_VERIFY_BAD_MAGIC;
	if (h.checksum != block_sum(buf, len))
		return MB_VERIFY_BAD_CHECKSUM;
	if (h.rank != rank)
		return MB_VERIFY_BAD_RANK;
	if (h.offset != offset)
		return MB_VERIFY_BAD_OFFSET;
	if (h.seed != seed)
		return MB_VERIFY_BAD_SEED;
	return MB_VERIFY_OK;
}

const char *mb_verify_strerror(enum mb_verify_result r)
{
	switch (r) {
	case MB_VERIFY_OK:
		return "ok";
	case MB_VERIFY_BAD_MAGIC:
		return "no iostrata stamp (never written, or overwritten)";
	case MB_VERIFY_BAD_RANK:
		return "written by another rank";
	case MB_VERIFY_BAD_OFFSET:
		return "stamp of another offset";
	case MB_VERIFY_BAD_SEED:
		return "stamp of another seed (another run)";
	case MB_VERIFY_BAD_CHECKSUM:
		return "checksum mismatch (corrupted data)";
	}
	return "?";
}
