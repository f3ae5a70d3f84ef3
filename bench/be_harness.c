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

int main(int argc, char **argv)
{
	const struct mb_backend *be;
	struct mb_config cfg = {.bs = 4 << 20, .iodepth = 1, .direct = true};
	uint64_t count = 16, *order;
	const char *name = "harness.0", *phases = "write,read,verify";
	bool keep = false;
	struct ios_err err = {0};
	struct mb_ctx ctx = {.cfg = &cfg, .err = &err};
	struct mb_file *f;
	struct mb_io *ios, **ptrs, **done;
	char *bufs;
	int i, rc, bad = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s rados|cephfs [options]\n", argv[0]);
		return 2;
	}
	be = !strcmp(argv[1], "rados")    ? &mb_backend_rados
	     : !strcmp(argv[1], "cephfs") ? &mb_backend_cephfs
					  : NULL;
	if (!be) {
		fprintf(stderr, "be_harness: unknown backend '%s'\n", argv[1]);
		return 2;
	}
	for (i = 2; i < argc; i++) {
		char *a = argv[i];
		uint64_t v;

		if (!strncmp(a, "--bs=", 5)) {
			if (ios_parse_size(a + 5, "--bs", &cfg.bs, &err))
				goto usage;
		} else if (!strncmp(a, "--count=", 8)) {
			count = strtoull(a + 8, NULL, 0);
		} else if (!strncmp(a, "--iodepth=", 10)) {
			v = strtoull(a + 10, NULL, 0);
			cfg.iodepth = (unsigned int)v;
		} else if (!strncmp(a, "--dir=", 6)) {
			cfg.dir = (char *)a + 6;
		} else if (!strncmp(a, "--name=", 7)) {
			name = a + 7;
		} else if (!strncmp(a, "--phases=", 9)) {
			phases = a + 9;
		} else if (!strcmp(a, "--keep")) {
			keep = true;
		} else if (!strcmp(a, "--buffered")) {
			cfg.direct = false;
		} else if (!strncmp(a, "--", 2) && strchr(a, '=') &&
			   cfg.nbopts < MB_MAX_BOPTS) {
			char *eq = strchr(a, '=');

			*eq = '\0';
			cfg.bopts[cfg.nbopts].name = a + 2;
			cfg.bopts[cfg.nbopts].value = eq + 1;
			cfg.nbopts++;
		} else {
			goto usage;
		}
	}
	cfg.backend = be;
	cfg.size = cfg.bs * count;

	if (be->check && be->check(&ctx) < 0)
		goto fail;
	double t0 = now();
	if (be->init(&ctx) < 0)
		goto fail;
	fprintf(stderr, "be_harness: %s init %.2f s\n", be->name, now() - t0);

	bufs = aligned_alloc(4096, cfg.bs * cfg.iodepth);
	ios = calloc(cfg.iodepth, sizeof(*ios));
	ptrs = calloc(cfg.iodepth, sizeof(*ptrs));
	done = calloc(cfg.iodepth, sizeof(*done));
	order = calloc(count, sizeof(*order));
	if (!bufs || !ios || !ptrs || !done || !order)
		return 1;

	char *list = strdup(phases), *save = NULL, *ph;
	for (ph = strtok_r(list, ",", &save); ph;
	     ph = strtok_r(NULL, ",", &save)) {
		bool wr = !strcmp(ph, "write");
		bool verify = !strcmp(ph, "verify");
		uint64_t seed = 88172645463325252ULL, next = 0, ndone = 0;
		unsigned int inflight = 0, k;
		int flags = wr ? MB_O_WRITE | MB_O_CREATE : MB_O_READ;
		uint64_t errors = 0, mism = 0;

		if (cfg.direct)
			flags |= MB_O_DIRECT;
		for (uint64_t j = 0; j < count; j++)
			order[j] = j;
		if (!strcmp(ph, "randread"))
			for (uint64_t j = count - 1; j > 0; j--) {
				uint64_t r = rnd(&seed) % (j + 1), t = order[j];
				order[j] = order[r];
				order[r] = t;
			}
		if (be->open(&ctx, name, flags, &f) < 0)
			goto fail;
		t0 = now();
		if (cfg.iodepth <= 1 || !(be->flags & MB_BF_ASYNC)) {
			for (uint64_t j = 0; j < count; j++) {
				ssize_t n;

				if (wr) {
					fill(bufs, cfg.bs, order[j]);
					n = be->pwrite(f, bufs, cfg.bs,
						       order[j] * cfg.bs);
				} else {
					n = be->pread(f, bufs, cfg.bs,
						      order[j] * cfg.bs);
					if (verify && n == (ssize_t)cfg.bs &&
					    check(bufs, cfg.bs, order[j]))
						mism++;
				}
				if (n != (ssize_t)cfg.bs) {
					if (!errors)
						fprintf(stderr,
							"be_harness: %s block %" PRIu64
							": %zd (%s)\n",
							ph, order[j], n,
							n < 0 ? strerror(
									(int)-n)
							      : "short");
					errors++;
				}
			}
		} else {
			for (k = 0; k < cfg.iodepth; k++) {
				ios[k].buf = bufs + k * cfg.bs;
				ios[k].len = cfg.bs;
				ios[k].priv = NULL;
				ptrs[k] = &ios[k];
			}
			unsigned int nfree = cfg.iodepth;
			while (ndone < count) {
				while (nfree && next < count) {
					struct mb_io *io = ptrs[--nfree];

					io->off = order[next] * cfg.bs;
					io->op =
						wr ? IOS_OP_WRITE : IOS_OP_READ;
					if (wr)
						fill(io->buf, cfg.bs,
						     order[next]);
					rc = be->submit(f, &io, 1);
					if (rc < 0) {
						fprintf(stderr,
							"be_harness: submit: %s\n",
							strerror(-rc));
						goto fail;
					}
					next++;
					inflight++;
				}
				struct timespec tmo = {120, 0};
				rc = be->reap(f, done, 1, cfg.iodepth, &tmo);
				if (rc < 0) {
					fprintf(stderr,
						"be_harness: reap: %s\n",
						strerror(-rc));
					goto fail;
				}
				for (k = 0; k < (unsigned int)rc; k++) {
					struct mb_io *io = done[k];

					if (io->result != (ssize_t)cfg.bs) {
						if (!errors)
							fprintf(stderr,
								"be_harness: %s off %" PRIu64
								": %zd (%s)\n",
								ph, io->off,
								io->result,
								io->result < 0
									? strerror(
										  (int)-io->result)
									: "short");
						errors++;
					} else if (verify &&
						   check(io->buf, cfg.bs,
							 io->off / cfg.bs)) {
						mism++;
					}
					ptrs[nfree++] = io;
					ndone++;
					inflight--;
				}
			}
		}
		double dt = now() - t0;
		rc = be->close(f);
		printf("%s %s bs=%" PRIu64 " qd=%u count=%" PRIu64
		       " %.3f s %.1f MB/s %.0f IOPS errors=%" PRIu64
		       " mismatches=%" PRIu64 "\n",
		       be->name, ph, cfg.bs, cfg.iodepth, count, dt,
		       count * cfg.bs / dt / 1e6, count / dt, errors, mism);
		if (errors || mism || rc < 0)
			bad = 1;
	}
	if (!keep && be->unlink && be->unlink(&ctx, name) < 0 &&
	    err.code != -ENOENT) {
		fprintf(stderr, "be_harness: %s\n", err.msg);
		bad = 1;
	}
	be->fini(&ctx);
	return bad;
fail:
	fprintf(stderr, "be_harness: %s\n", err.msg[0] ? err.msg : "failed");
	return 1;
usage:
	fprintf(stderr, "be_harness: bad argument: %s\n",
		err.msg[0] ? err.msg : "see the header of bench/be_harness.c");
	return 2;
}
