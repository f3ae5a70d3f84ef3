/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mix: the 64-bit finaliser of MurmurHash3 (fmix64), shared by the
 * block stamps (verify.c: their values must not change, a later --verify
 * read checks an earlier writer's stamps) and the --once block order
 * (once.c).
 */
#ifndef IOSTRATA_MB_MIX_H
#define IOSTRATA_MB_MIX_H

#include <stdint.h>

static inline uint64_t mb_mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

#endif
