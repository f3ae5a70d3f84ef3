/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dataset: the identity of a laid-out file as a mark's text, its check
 * before reuse and the lay-out's watchdog bound (see dataset.h).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataset.h"
#include "mb_config.h"

#define MARK_PREFIX "iostrata-dataset"

void mb_dataset_id_of(const struct mb_config *cfg, int nranks, const char *pool,
		      uint32_t uid, struct mb_dataset_id *id)
{
	bool shared = cfg->file_layout == MB_LAYOUT_SHARED;

	memset(id, 0, sizeof(*id));
	id->format = MB_DATASET_FORMAT;
	id->size = shared ? cfg->size * (uint64_t)nranks : cfg->size;
	id->bs = cfg->bs;
	id->seed = cfg->seed;
	snprintf(id->content, sizeof(id->content), "%s",
		 cfg->verify     ? "verify"
		 : cfg->scramble ? "scramble"
				 : "fill");
	id->compress = cfg->verify ? 0 : cfg->buffer_compress;
	snprintf(id->layout, sizeof(id->layout), "%s",
		 mb_file_layout_name(cfg->file_layout));
	id->ranks = shared ? nranks : 0;
	id->shared_block =
		shared ? (cfg->shared_block ? cfg->shared_block : cfg->bs) : 0;
	snprintf(id->pool, sizeof(id->pool), "%s", pool ? pool : "");
	id->uid = uid;
}

/* A pool name goes into the mark as one word: "-" when none. */
int mb_dataset_format(const struct mb_dataset_id *id, char *buf, size_t len)
{
	int n = snprintf(
		buf, len,
		MARK_PREFIX
		" v=%d size=%" PRIu64 " bs=%" PRIu64 " seed=%" PRIu64
		" content=%s compress=%d layout=%s ranks=%d sblock=%" PRIu64
		" pool=%s uid=%" PRIu32,
		id->format, id->size, id->bs, id->seed, id->content,
		id->compress, id->layout, id->ranks, id->shared_block,
		id->pool[0] ? id->pool : "-", id->uid);

	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return n;
}

enum field_type { F_INT, F_U64, F_U32, F_STR };

struct field {
	const char *name;
	enum field_type type;
	size_t off, len; /* F_STR: the buffer's size */
};

#define FLD(n, t, m)                                                           \
	{                                                                      \
		n, t, offsetof(struct mb_dataset_id, m),                       \
			sizeof(((struct mb_dataset_id *)0)->m)                 \
	}

/* In the mark's order; uid last (the owner, not the identity). */
static const struct field fields[] = {
	FLD("v", F_INT, format),
	FLD("size", F_U64, size),
	FLD("bs", F_U64, bs),
	FLD("seed", F_U64, seed),
	FLD("content", F_STR, content),
	FLD("compress", F_INT, compress),
	FLD("layout", F_STR, layout),
	FLD("ranks", F_INT, ranks),
	FLD("sblock", F_U64, shared_block),
	FLD("pool", F_STR, pool),
	FLD("uid", F_U32, uid),
};

#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

static int parse_value(const struct field *f, const char *v, size_t vlen,
		       struct mb_dataset_id *id)
{
	char *p = (char *)id + f->off, num[32], *end;
	unsigned long long u;
	long long l;

	if (f->type == F_STR) {
		if (vlen >= f->len || !vlen)
			return -EINVAL;
		if (!strcmp(f->name, "pool") && vlen == 1 && v[0] == '-')
			vlen = 0;
		memcpy(p, v, vlen);
		p[vlen] = '\0';
		return 0;
	}
	if (!vlen || vlen >= sizeof(num) || v[0] == '-' || v[0] == '+')
		return -EINVAL;
	memcpy(num, v, vlen);
	num[vlen] = '\0';
	errno = 0;
	if (f->type == F_INT) {
		l = strtoll(num, &end, 10);
		if (errno || *end || l < 0 || l > INT32_MAX)
			return -EINVAL;
		*(int *)(void *)p = (int)l;
		return 0;
	}
	u = strtoull(num, &end, 10);
	if (errno || *end)
		return -EINVAL;
	if (f->type == F_U32) {
		if (u > UINT32_MAX)
			return -EINVAL;
		*(uint32_t *)(void *)p = (uint32_t)u;
	} else {
		*(uint64_t *)(void *)p = (uint64_t)u;
	}
	return 0;
}

int mb_dataset_parse(const char *s, struct mb_dataset_id *id,
		     struct ios_err *err)
{
	const char *p = s;
	unsigned seen = 0;
	size_t i;

	memset(id, 0, sizeof(*id));
	if (strncmp(p, MARK_PREFIX " ", strlen(MARK_PREFIX) + 1))
		return ios_errf(
			err, -EINVAL,
			"not a dataset mark (it does not start with '" MARK_PREFIX
			"')");
	p += strlen(MARK_PREFIX);
	while (*p == ' ')
		p++;
	while (*p) {
		const char *eq = strchr(p, '='), *end = strchr(p, ' ');
		size_t klen;

		if (!end)
			end = p + strlen(p);
		if (!eq || eq > end)
			return ios_errf(err, -EINVAL,
					"word '%.*s' is not KEY=VALUE",
					(int)(end - p), p);
		klen = (size_t)(eq - p);
		for (i = 0; i < NFIELDS; i++)
			if (strlen(fields[i].name) == klen &&
			    !strncmp(fields[i].name, p, klen))
				break;
		if (i == NFIELDS)
			return ios_errf(err, -EINVAL, "unknown field '%.*s'",
					(int)klen, p);
		if (seen & (1u << i))
			return ios_errf(err, -EINVAL, "field '%s' twice",
					fields[i].name);
		if (parse_value(&fields[i], eq + 1, (size_t)(end - eq - 1), id))
			return ios_errf(
				err, -EINVAL, "bad value '%.*s' of field '%s'",
				(int)(end - eq - 1), eq + 1, fields[i].name);
		seen |= 1u << i;
		if (i == 0 && id->format != MB_DATASET_FORMAT)
			return ios_errf(
				err, -EINVAL,
				"format version %d, this iostrata-bench writes %d",
				id->format, MB_DATASET_FORMAT);
		p = end;
		while (*p == ' ')
			p++;
	}
	for (i = 0; i < NFIELDS; i++)
		if (!(seen & (1u << i)))
			return ios_errf(err, -EINVAL, "field '%s' missing",
					fields[i].name);
	return 0;
}

const char *mb_dataset_diff(const struct mb_dataset_id *want,
			    const struct mb_dataset_id *have, char *detail,
			    size_t len)
{
	size_t i;

	for (i = 0; i + 1 < NFIELDS; i++) {
		const struct field *f = &fields[i];
		const char *a = (const char *)have + f->off;
		const char *b = (const char *)want + f->off;

		if (f->type == F_STR ? !strcmp(a, b) : !memcmp(a, b, f->len))
			continue;
		if (f->type == F_STR)
			snprintf(detail, len, "marked '%s', this run '%s'", a,
				 b);
		else if (f->type == F_INT)
			snprintf(detail, len, "marked %d, this run %d",
				 *(const int *)(const void *)a,
				 *(const int *)(const void *)b);
		else
			snprintf(detail, len,
				 "marked %" PRIu64 ", this run %" PRIu64,
				 *(const uint64_t *)(const void *)a,
				 *(const uint64_t *)(const void *)b);
		return f->name;
	}
	return NULL;
}

int mb_dataset_check(const char *name, const char *mark, uint64_t size,
		     const struct mb_dataset_id *want, struct ios_err *err)
{
	struct mb_dataset_id have;
	struct ios_err perr = {0};
	const char *field;
	char detail[192];

	if (!mark)
		return MB_DS_ABSENT;
	if (mb_dataset_parse(mark, &have, &perr))
		return ios_errf(
			err, -EINVAL,
			"iostrata-bench: dataset %s: mark %s '%s': %s: not reused and not rewritten",
			name, MB_DATASET_XATTR, mark, perr.msg);
	if (have.uid != want->uid)
		return ios_errf(
			err, -EPERM,
			"iostrata-bench: dataset %s: laid out by uid %" PRIu32
			", not by the running uid %" PRIu32
			": not reused and not rewritten",
			name, have.uid, want->uid);
	field = mb_dataset_diff(want, &have, detail, sizeof(detail));
	if (field)
		return ios_errf(
			err, -ESTALE,
			"iostrata-bench: dataset %s: another layout: %s %s: not reused and not rewritten (remove it, or give this run another --dir)",
			name, field, detail);
	if (size != have.size)
		return ios_errf(
			err, -ESTALE,
			"iostrata-bench: dataset %s: size %" PRIu64
			" bytes, marked %" PRIu64
			": not reused and not rewritten (changed since its lay-out)",
			name, size, have.size);
	return MB_DS_MATCH;
}

double mb_layout_bound_s(uint64_t done, double elapsed, uint64_t remaining,
			 double slowest)
{
	double stall = fmax(MB_LAYOUT_STALL_S, 20.0 * slowest);

	if (!done || !(elapsed > 0))
		return stall;
	return fmax(stall, MB_LAYOUT_RATE_FACTOR * (double)remaining * elapsed /
				   (double)done);
}
