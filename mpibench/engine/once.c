/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * once: the block order of a random --once repetition (a seeded
 * permutation, every block exactly once, like fio's size-based random
 * I/O with its random map) and the bound of its I/O stage (once.h).
 */
#include "config.h"

#include "mix.h"
#include "once.h"

void mb_perm_init(struct mb_perm *p, uint64_t n, uint64_t seed)
{
	unsigned bits = 2;
	int i;

	while (bits < 64 && (1ull << bits) < n)
		bits += 2;
	p->n = n ? n : 1;
	p->half = bits / 2;
	p->mask = (1ull << p->half) - 1;
	for (i = 0; i < 4; i++)
		p->key[i] = mb_mix64(seed +
				     0x9e3779b97f4a7c15ull * (uint64_t)(i + 1));
}

/* One pass of the Feistel network: a bijection of [0, 2^(2 half)). */
static uint64_t feistel(const struct mb_perm *p, uint64_t x)
{
	uint64_t l = (x >> p->half) & p->mask, r = x & p->mask, t;
	int i;

	for (i = 0; i < 4; i++) {
		t = r;
		r = l ^ (mb_mix64(r ^ p->key[i]) & p->mask);
		l = t;
	}
	return (l << p->half) | r;
}

uint64_t mb_perm_at(const struct mb_perm *p, uint64_t i)
{
	uint64_t x = i;

	/* cycle walking: a bijection of the larger domain, restricted to
	 * [0, n), stays a bijection of [0, n) */
	do
		x = feistel(p, x);
	while (x >= p->n);
	return x;
}

double mb_once_bound_s(uint64_t bytes)
{
	return (double)bytes / MB_ONCE_FLOOR_RATE + MB_ONCE_SLACK_S;
}
