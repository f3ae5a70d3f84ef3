/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * once: what a size-based repetition (--once) needs besides the I/O loops:
 * the order in which a random pattern visits the blocks of its file (a
 * seeded permutation: every block exactly once, in O(1) memory) and the
 * watchdog's bound of the I/O stage, which cannot come from --runtime.
 * No MPI: the unit tests use both.
 */
#ifndef IOSTRATA_MB_ONCE_H
#define IOSTRATA_MB_ONCE_H

#include <stdint.h>

/* The floor rate (bytes/s) and the slack (s) of the --once I/O bound. */
#define MB_ONCE_FLOOR_RATE 1000000.0
#define MB_ONCE_SLACK_S 60.0

/* A permutation of [0, n): a 4-round Feistel network on the smallest even
 * number of bits that holds n, walked in cycles until the value is below n
 * (fewer than 4 steps on average).  Seeded, stateless per index. */
struct mb_perm {
	uint64_t n;
	unsigned half; /* bits per Feistel half */
	uint64_t mask; /* (1 << half) - 1 */
	uint64_t key[4];
};

/* Set [p] to a permutation of [0, n) (n >= 1) chosen by [seed]. */
void mb_perm_init(struct mb_perm *p, uint64_t n, uint64_t seed);

/* The [i]-th element (i < n) of [p]: distinct for distinct i, < n. */
uint64_t mb_perm_at(const struct mb_perm *p, uint64_t i);

/* The watchdog bound (s) of the I/O stage of a --once repetition that
 * moves [bytes] per rank: bytes at MB_ONCE_FLOOR_RATE (1 MB/s) plus
 * MB_ONCE_SLACK_S (60 s).  A rank slower than that is taken as hung. */
double mb_once_bound_s(uint64_t bytes);

#endif
