// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * be_harness: drive the rados or cephfs backend's ops table directly (no
 * MPI, no core): write COUNT blocks of BS with a verifiable pattern at
 * queue depth D, read them back (sequential or random order) checking
 * every byte, print MB/s per phase.  Used to test the backends against a
 * real cluster by hand (built as bench/be_harness, not installed).
 *
 *   be_harness rados|cephfs [--NAME=VALUE backend options] --bs=4M
 *       --count=N --iodepth=D --dir=D --name=FILE
 *       --phases=write,read,randread[,verify] [--keep] [--buffered]
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "mb_config.h"
#include "results.h"
#include "units.h"

extern const struct mb_backend mb_backend_rados, mb_backend_cephfs;

/* The harness links no mb_config.c: look the options up itself. */
const char *mb_config_opt(const struct mb_config *cfg, const char *name)
{
	const struct mb_option *o;

	for (int i = cfg->nbopts - 1; i >= 0; i--)
		if (!strcmp(cfg->bopts[i].name, name))
			return cfg->bopts[i].value;
	for (o = cfg->backend->options; o && o->name; o++)
		if (!strcmp(o->name, name))
			return o->def;
	return NULL;
}

/* The harness runs the default engine only (a backend's message names
 * it). */
const char *mb_engine_name(enum mb_engine e)
{
	return e == MB_ENG_PSYNC ? "psync" : "?";
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* block [i]'s content: 8-byte words of (seed ^ i ^ word index) */
static void fill(void *buf, uint64_t bs, uint64_t i)
{
	uint64_t *w = buf;
	uint64_t k;

	for (k = 0; k < bs / 8; k++)
		w[k] = 0x9e3779b97f4a7c15ULL * (i + 1) ^ k;
}

static int check(const void *buf, uint64_t bs, uint64_t i)
{
	const uint64_t *w = buf;
	uint64_t k;

	for (k = 0; k < bs / 8; k++)
		if (w[k] != (0x9e3779b97f4a7c15ULL * (i + 1) ^ k))
			return -1;
	return 0;
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* One harness run: the backend, its configuration and the I/O slots. */
struct harness {
	const struct mb_backend *be;
	struct mb_config cfg;
	struct ios_err err;
	struct mb_ctx ctx;
	uint64_t count, *order;
	const char *name, *phases;
	bool keep;
	char *bufs;
	struct mb_io *ios, **ptrs, **done;
};

/* What one phase counted. */
struct tally {
	const char *ph;
	bool wr, verify;
	uint64_t errors, mism;
};

/* argv[2..] into [h]; 0, or 2 with the bad argument printed. */
static int parse_args(struct harness *h, int argc, char **argv)
{
	struct mb_config *cfg = &h->cfg;

	for (int i = 2; i < argc; i++) {
		char *a = argv[i];
		uint64_t v;
		int rc = 0;

		if (!strncmp(a, "--bs=", 5)) {
			rc = ios_parse_size(a + 5, "--bs", &cfg->bs, &h->err);
		} else if (!strncmp(a, "--count=", 8)) {
			rc = ios_parse_uint(a + 8, "--count", 1, 1ull << 32,
					    &h->count, &h->err);
		} else if (!strncmp(a, "--iodepth=", 10)) {
			rc = ios_parse_uint(a + 10, "--iodepth", 1, 1024, &v,
					    &h->err);
			cfg->iodepth = (unsigned int)v;
		} else if (!strncmp(a, "--dir=", 6)) {
			cfg->dir = (char *)a + 6;
		} else if (!strncmp(a, "--name=", 7)) {
			h->name = a + 7;
		} else if (!strncmp(a, "--phases=", 9)) {
			h->phases = a + 9;
		} else if (!strcmp(a, "--keep")) {
			h->keep = true;
		} else if (!strcmp(a, "--buffered")) {
			cfg->direct = false;
		} else if (!strncmp(a, "--", 2) && strchr(a, '=') &&
			   cfg->nbopts < MB_MAX_BOPTS) {
			char *eq = strchr(a, '=');

			*eq = '\0';
			cfg->bopts[cfg->nbopts].name = a + 2;
			cfg->bopts[cfg->nbopts].value = eq + 1;
			cfg->nbopts++;
		} else {
			rc = -EINVAL;
		}
		if (rc < 0) {
			fprintf(stderr, "be_harness: bad argument: %s\n",
				h->err.msg[0]
					? h->err.msg
					: "see the header of bench/be_harness.c");
			return 2;
		}
	}
	return 0;
}

/* One failed or short transfer of [t]'s phase at block [blk]. */
static void count_error(struct tally *t, uint64_t blk, ssize_t n)
{
	if (!t->errors)
		fprintf(stderr, "be_harness: %s block %" PRIu64 ": %zd (%s)\n",
			t->ph, blk, n, n < 0 ? strerror((int)-n) : "short");
	t->errors++;
}

/* A phase at queue depth 1 (or a backend without async I/O). */
static void phase_sync(struct harness *h, struct mb_file *f, struct tally *t)
{
	uint64_t bs = h->cfg.bs;

	for (uint64_t j = 0; j < h->count; j++) {
		uint64_t blk = h->order[j];
		ssize_t n;

		if (t->wr) {
			fill(h->bufs, bs, blk);
			n = h->be->pwrite(f, h->bufs, bs, blk * bs);
		} else {
			n = h->be->pread(f, h->bufs, bs, blk * bs);
			if (t->verify && n == (ssize_t)bs &&
			    check(h->bufs, bs, blk))
				t->mism++;
		}
		if (n != (ssize_t)bs)
			count_error(t, blk, n);
	}
}

/* A phase at queue depth > 1 through submit/reap; 0 or -errno. */
static int phase_async(struct harness *h, struct mb_file *f, struct tally *t)
{
	uint64_t bs = h->cfg.bs, next = 0, ndone = 0;
	unsigned int nfree = h->cfg.iodepth;

	for (unsigned int k = 0; k < h->cfg.iodepth; k++) {
		h->ios[k].buf = h->bufs + k * bs;
		h->ios[k].len = bs;
		h->ios[k].priv = NULL;
		h->ptrs[k] = &h->ios[k];
	}
	while (ndone < h->count) {
		struct timespec tmo = {120, 0};
		int rc;

		while (nfree && next < h->count) {
			struct mb_io *io = h->ptrs[--nfree];

			io->off = h->order[next] * bs;
			io->op = t->wr ? IOS_OP_WRITE : IOS_OP_READ;
			if (t->wr)
				fill(io->buf, bs, h->order[next]);
			rc = h->be->submit(f, &io, 1);
			if (rc < 0) {
				fprintf(stderr, "be_harness: submit: %s\n",
					strerror(-rc));
				return rc;
			}
			next++;
		}
		rc = h->be->reap(f, h->done, 1, h->cfg.iodepth, &tmo);
		if (rc < 0) {
			fprintf(stderr, "be_harness: reap: %s\n",
				strerror(-rc));
			return rc;
		}
		for (int k = 0; k < rc; k++) {
			struct mb_io *io = h->done[k];

			if (io->result != (ssize_t)bs)
				count_error(t, io->off / bs, io->result);
			else if (t->verify && check(io->buf, bs, io->off / bs))
				t->mism++;
			h->ptrs[nfree++] = io;
			ndone++;
		}
	}
	return 0;
}

/* Phase [ph] (write, read, randread, verify): 0 clean, 1 errors or
 * mismatches, -1 the backend failed (h->err). */
static int run_phase(struct harness *h, const char *ph)
{
	struct tally t = {.ph = ph,
			  .wr = !strcmp(ph, "write"),
			  .verify = !strcmp(ph, "verify")};
	uint64_t seed = 88172645463325252ULL;
	int flags = t.wr ? MB_O_WRITE | MB_O_CREATE : MB_O_READ;
	struct mb_file *f;
	double t0, dt;
	int rc = 0;

	if (h->cfg.direct)
		flags |= MB_O_DIRECT;
	for (uint64_t j = 0; j < h->count; j++)
		h->order[j] = j;
	if (!strcmp(ph, "randread"))
		for (uint64_t j = h->count - 1; j > 0; j--) {
			uint64_t r = rnd(&seed) % (j + 1), x = h->order[j];

			h->order[j] = h->order[r];
			h->order[r] = x;
		}
	if (h->be->open(&h->ctx, h->name, flags, &f) < 0)
		return -1;
	t0 = now();
	if (h->cfg.iodepth <= 1 || !(h->be->flags & MB_BF_ASYNC))
		phase_sync(h, f, &t);
	else if (phase_async(h, f, &t) < 0)
		return -1;
	dt = now() - t0;
	rc = h->be->close(f);
	printf("%s %s bs=%" PRIu64 " qd=%u count=%" PRIu64
	       " %.3f s %.1f MB/s %.0f IOPS errors=%" PRIu64
	       " mismatches=%" PRIu64 "\n",
	       h->be->name, ph, h->cfg.bs, h->cfg.iodepth, h->count, dt,
	       h->count * h->cfg.bs / dt / 1e6, h->count / dt, t.errors,
	       t.mism);
	return t.errors || t.mism || rc < 0;
}

int main(int argc, char **argv)
{
	static struct harness h = {
		.cfg = {.bs = 4 << 20, .iodepth = 1, .direct = true},
		.count = 16,
		.name = "harness.0",
		.phases = "write,read,verify",
	};
	char *list, *save = NULL, *ph;
	double t0;
	int bad = 0;

	h.ctx = (struct mb_ctx){.cfg = &h.cfg, .err = &h.err};
	if (argc < 2) {
		fprintf(stderr, "usage: %s rados|cephfs [options]\n", argv[0]);
		return 2;
	}
	h.be = !strcmp(argv[1], "rados")    ? &mb_backend_rados
	       : !strcmp(argv[1], "cephfs") ? &mb_backend_cephfs
					    : NULL;
	if (!h.be) {
		fprintf(stderr, "be_harness: unknown backend '%s'\n", argv[1]);
		return 2;
	}
	if (parse_args(&h, argc, argv))
		return 2;
	h.cfg.backend = h.be;
	h.cfg.size = h.cfg.bs * h.count;
	if (h.be->check && h.be->check(&h.ctx) < 0)
		goto fail;
	t0 = now();
	if (h.be->init(&h.ctx) < 0)
		goto fail;
	fprintf(stderr, "be_harness: %s init %.2f s\n", h.be->name, now() - t0);
	h.bufs = aligned_alloc(4096, h.cfg.bs * h.cfg.iodepth);
	h.ios = calloc(h.cfg.iodepth, sizeof(*h.ios));
	h.ptrs = calloc(h.cfg.iodepth, sizeof(*h.ptrs));
	h.done = calloc(h.cfg.iodepth, sizeof(*h.done));
	h.order = calloc(h.count, sizeof(*h.order));
	list = strdup(h.phases);
	if (!h.bufs || !h.ios || !h.ptrs || !h.done || !h.order || !list)
		return 1;
	for (ph = strtok_r(list, ",", &save); ph;
	     ph = strtok_r(NULL, ",", &save)) {
		int rc = run_phase(&h, ph);

		if (rc < 0)
			goto fail;
		bad |= rc;
	}
	if (!h.keep && h.be->unlink && h.be->unlink(&h.ctx, h.name) < 0 &&
	    h.err.code != -ENOENT) {
		fprintf(stderr, "be_harness: %s\n", h.err.msg);
		bad = 1;
	}
	h.be->fini(&h.ctx);
	return bad;
fail:
	fprintf(stderr, "be_harness: %s\n",
		h.err.msg[0] ? h.err.msg : "failed");
	return 1;
}
