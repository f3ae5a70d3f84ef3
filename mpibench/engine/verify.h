/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * verify: the stamp --verify writes into every block and checks on reads.
 * A block starts with a 48-byte header (magic, rank, repetition, offset,
 * seed, checksum) followed by pseudo-random bytes derived from (seed, rank,
 * offset); the checksum covers the whole block except its own field.
 */
#ifndef IOSTRATA_MB_VERIFY_H
#define IOSTRATA_MB_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#define MB_VERIFY_MAGIC 0x31534f4954534f49ull /* "IOSTSIO1" */
#define MB_VERIFY_HDR 48

struct mb_verify_hdr {
	uint64_t magic;
	uint32_t rank; /* writer rank */
	uint32_t rep;  /* repetition that wrote it (UINT32_MAX: layout) */
	uint64_t offset;
	uint64_t seed;
	uint64_t checksum;
	uint64_t reserved;
};

/* Verdicts of mb_verify_check. */
enum mb_verify_result {
	MB_VERIFY_OK = 0,
	MB_VERIFY_BAD_MAGIC,
	MB_VERIFY_BAD_RANK,
	MB_VERIFY_BAD_OFFSET,
	MB_VERIFY_BAD_SEED,
	MB_VERIFY_BAD_CHECKSUM,
};

/* Fill [buf] ([len] >= MB_VERIFY_HDR bytes) with the stamped block. */
void mb_verify_fill(void *buf, size_t len, uint32_t rank, uint32_t rep,
		    uint64_t offset, uint64_t seed);

/* Check a block read back against the expected writer, offset and seed. */
enum mb_verify_result mb_verify_check(const void *buf, size_t len,
				      uint32_t rank, uint64_t offset,
				      uint64_t seed);

const char *mb_verify_strerror(enum mb_verify_result r);

#endif
