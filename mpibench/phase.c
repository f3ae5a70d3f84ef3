/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * phase: the measuring core of iostrata-bench (see phase.h).  Each rank runs
 * its I/O loop alone; the only communication during a repetition is one
 * small progress message per sample period to rank 0 (never per operation).
 * Times come from CLOCK_MONOTONIC mapped to the common clock measured by a
 * ping-pong with rank 0 before every repetition.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "figures.h"
#include "phase.h"
#include "content.h"
#include "progress.h"
#include "units.h"
#include "verify.h"
#include "watchdog.h"

#define CP_STEP_NS                                                             \
	10000000ll /* stonewall checkpoints every 10 ms, or                    \
		       runtime / (MAX_CP / 2) for long runs */
#define MAX_CP (1u << 20)
#define MAX_ERRORS_PER_RANK 16
#define TAG_PROGRESS 7101
#define SYNC_ROUNDS 5

static inline int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

double mb_phase_last_gather_s;

int64_t mb_world_now(const struct mb_world *w)
{
	return mono_ns() + w->offset_ns;
}

/* Ping-pong with rank 0: offset of this rank's monotonic clock. */
static void world_sync(struct mb_world *w)
{
	int64_t *offs = NULL, *skews = NULL, base = 0;
	int64_t my[2];
	int k, i;

	MPI_Barrier(w->comm);
	if (w->rank == 0) {
		base = mono_ns();
		offs = calloc((size_t)w->nranks, sizeof(*offs));
		skews = calloc((size_t)w->nranks, sizeof(*skews));
		for (k = 1; k < w->nranks; k++) {
			int64_t best = INT64_MAX;

			for (i = 0; i < SYNC_ROUNDS; i++) {
				int64_t t1, t2, tk;

				t1 = mono_ns();
				MPI_Send(&t1, 1, MPI_INT64_T, k, 7001, w->comm);
				MPI_Recv(&tk, 1, MPI_INT64_T, k, 7002, w->comm,
					 MPI_STATUS_IGNORE);
				t2 = mono_ns();
				if (t2 - t1 < best) {
					best = t2 - t1;
					offs[k] = (t1 + t2) / 2 - tk - base;
					skews[k] = (t2 - t1) / 2;
				}
			}
		}
		offs[0] = -base;
		skews[0] = 0;
	} else {
		for (i = 0; i < SYNC_ROUNDS; i++) {
			int64_t t, tk;

			MPI_Recv(&t, 1, MPI_INT64_T, 0, 7001, w->comm,
				 MPI_STATUS_IGNORE);
			tk = mono_ns();
			MPI_Send(&tk, 1, MPI_INT64_T, 0, 7002, w->comm);
		}
	}
	{
		int64_t *pairs = NULL;

		if (w->rank == 0) {
			pairs = calloc((size_t)w->nranks * 2, sizeof(*pairs));
			for (k = 0; k < w->nranks; k++) {
				pairs[2 * k] = offs[k];
				pairs[2 * k + 1] = skews[k];
			}
		}
		MPI_Scatter(pairs, 2, MPI_INT64_T, my, 2, MPI_INT64_T, 0,
			    w->comm);
		free(pairs);
	}
	w->offset_ns = my[0];
	w->skew_ns = my[1];
	if (w->rank == 0 && w->ri) {
		for (k = 0; k < w->nranks; k++) {
			w->ri[k].clock_offset_ns = offs[k] + base;
			w->ri[k].clock_skew_ns = skews[k];
		}
	}
	free(offs);
	free(skews);
}

int mb_world_create(MPI_Comm comm, struct mb_world **out, struct ios_err *err)
{
	struct mb_world *w = calloc(1, sizeof(*w));
	char *hosts = NULL;
	int *nodeof = NULL;
	const char *nn;
	int i, j, rc = 0;
	struct ios_rank_info me;
	struct timespec rt;

	if (!w)
		return ios_errf(err, -ENOMEM, "iostrata-bench: out of memory");
	w->comm = comm;
	MPI_Comm_rank(comm, &w->rank);
	MPI_Comm_size(comm, &w->nranks);
	nn = getenv("SLURMD_NODENAME");
	if (nn && *nn)
		snprintf(w->host, sizeof(w->host), "%s", nn);
	else if (gethostname(w->host, sizeof(w->host) - 1))
		snprintf(w->host, sizeof(w->host), "unknown");
	hosts = calloc((size_t)w->nranks, 64);
	nodeof = calloc((size_t)w->nranks, sizeof(int));
	if (!hosts || !nodeof) {
		rc = ios_errf(err, -ENOMEM, "iostrata-bench: out of memory");
		goto out;
	}
	MPI_Allgather(w->host, 64, MPI_CHAR, hosts, 64, MPI_CHAR, comm);
	w->nnodes = 0;
	for (i = 0; i < w->nranks; i++) {
		nodeof[i] = -1;
		for (j = 0; j < i; j++)
			if (!strncmp(hosts + 64 * i, hosts + 64 * j, 64)) {
				nodeof[i] = nodeof[j];
				break;
			}
		if (nodeof[i] < 0)
			nodeof[i] = w->nnodes++;
	}
	w->node = nodeof[w->rank];
	for (i = 0; i < w->nranks; i++) {
		if (nodeof[i] == w->node) {
			if (i < w->rank)
				w->node_rank++;
			w->ranks_on_node++;
		}
		if (nodeof[i] == 0)
			w->first_node_ranks++;
	}
	memset(&me, 0, sizeof(me));
	me.rank = w->rank;
	me.node = w->node;
	snprintf(me.host, sizeof(me.host), "%s", w->host);
	me.cpu = sched_getcpu();
	me.pid = (int32_t)getpid();
	if (w->rank == 0) {
		w->ri = calloc((size_t)w->nranks, sizeof(*w->ri));
		if (!w->ri) {
			rc = ios_errf(err, -ENOMEM,
				      "iostrata-bench: out of memory");
			goto out;
		}
	}
	MPI_Gather(&me, sizeof(me), MPI_BYTE, w->ri, sizeof(me), MPI_BYTE, 0,
		   comm);
	world_sync(w);
	clock_gettime(CLOCK_REALTIME, &rt);
	w->epoch_realtime_ns = (int64_t)rt.tv_sec * 1000000000ll + rt.tv_nsec -
			       mb_world_now(w);
	MPI_Bcast(&w->epoch_realtime_ns, 1, MPI_INT64_T, 0, comm);
out:
	free(hosts);
	free(nodeof);
	if (rc) {
		mb_world_free(w);
		return rc;
	}
	*out = w;
	return 0;
}

void mb_world_free(struct mb_world *w)
{
	if (!w)
		return;
	free(w->ri);
	free(w);
}

/* Lay-out stalls longer than this (s) abort the run (see layout()). */
#define LAYOUT_STALL_S 600.0

/* ---- one rank's repetition ---------------------------------------- */

struct rank_run {
	const struct mb_phase_spec *spec;
	const struct mb_backend *be;
	struct mb_file *f;
	struct mb_world *w;
	uint32_t writer_rank; /* whose stamps reads expect */
	uint64_t nblocks;
	uint64_t cursor;
	uint64_t rng;
	uint64_t scr; /* write content (scramble), apart from the offsets */
	uint64_t seed;
	uint32_t rep;
	int64_t t0_local, deadline_local; /* monotonic */
	int64_t cp_next, cp_step;
	uint32_t ncp, cp_cap;
	uint64_t *cp_bytes, *cp_ops;
	uint64_t cum_bytes, cum_ops;
	struct ios_rank_result r;
	struct ios_lathist lat; /* r.lat is its summary, at the gather */
	struct ios_io_error errs[MAX_ERRORS_PER_RANK];
	uint32_t nerr;
	bool stop;
	/* progress */
	int64_t prog_next, prog_step;
	MPI_Request preq;
	uint64_t pmsg[3];
	uint32_t psent;
	struct mb_progress *prog;
};

static inline uint64_t rng_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545f4914f6cdd1dull;
}

static inline void next_io(struct rank_run *rr, uint64_t *off, int *op)
{
	const struct mb_phase_spec *s = rr->spec;

	if (mb_pattern_random(s->pattern))
		*off = (rng_next(&rr->rng) % rr->nblocks) * s->cfg->bs;
	else {
		*off = rr->cursor * s->cfg->bs;
		if (++rr->cursor == rr->nblocks)
			rr->cursor = 0;
	}
	switch (s->pattern) {
	case MB_PAT_WRITE:
	case MB_PAT_RANDWRITE:
		*op = IOS_OP_WRITE;
		break;
	case MB_PAT_RANDRW:
		*op = (int)(rng_next(&rr->rng) % 100) < s->cfg->rwmixread
			      ? IOS_OP_READ
			      : IOS_OP_WRITE;
		break;
	default:
		*op = IOS_OP_READ;
	}
}

static void checkpoint(struct rank_run *rr, int64_t now)
{
	while (now >= rr->cp_next) {
		if (rr->ncp == rr->cp_cap) {
			uint32_t cap = rr->cp_cap ? rr->cp_cap * 2 : 1024;
			uint64_t *b, *o;

			if (cap > MAX_CP)
				return;
			b = realloc(rr->cp_bytes, cap * sizeof(*b));
			o = b ? realloc(rr->cp_ops, cap * sizeof(*o)) : NULL;
			if (!b || !o) {
				if (b)
					rr->cp_bytes = b;
				return;
			}
			rr->cp_bytes = b;
			rr->cp_ops = o;
			rr->cp_cap = cap;
		}
		rr->cp_bytes[rr->ncp] = rr->cum_bytes;
		rr->cp_ops[rr->ncp] = rr->cum_ops;
		rr->ncp++;
		rr->cp_next += rr->cp_step;
	}
}

/* Cumulative bytes/ops at local monotonic time [t], interpolated. */
static void cum_at(const struct rank_run *rr, int64_t t, double *b, double *o)
{
	double x, fr;
	uint64_t k;

	if (t <= rr->t0_local) {
		*b = *o = 0;
		return;
	}
	x = (double)(t - rr->t0_local) / (double)rr->cp_step;
	k = (uint64_t)x;
	fr = x - (double)k;
	/* cp[k] holds the count at t0 + k * step; past the last one, the
	 * final count (the rank has ended by then). */
	if (k + 1 >= rr->ncp) {
		*b = (double)rr->cum_bytes;
		*o = (double)rr->cum_ops;
		return;
	}
	*b = (double)rr->cp_bytes[k] +
	     fr * (double)(rr->cp_bytes[k + 1] - rr->cp_bytes[k]);
	*o = (double)rr->cp_ops[k] +
	     fr * (double)(rr->cp_ops[k + 1] - rr->cp_ops[k]);
}

static void record_error(struct rank_run *rr, int op, uint64_t off,
			 uint64_t len, int64_t result, int64_t now)
{
	if (result < 0) /* a short result was counted by finish_short() */
		rr->r.errors++;
	if (!rr->r.first_errno)
		rr->r.first_errno = result < 0 ? (int32_t)-result : EIO;
	if (rr->nerr < MAX_ERRORS_PER_RANK) {
		struct ios_io_error *e = &rr->errs[rr->nerr++];

		e->rank = rr->w->rank;
		e->op = op;
		e->offset = off;
		e->len = len;
		e->result = result;
		e->t_ns = now + rr->w->offset_ns;
	}
	rr->stop = true;
}

static void progress_tick(struct rank_run *rr, int64_t now)
{
	if (now < rr->prog_next)
		return;
	rr->prog_next += rr->prog_step;
	if (rr->prog_next <= now)
		rr->prog_next = now + rr->prog_step;
	if (rr->w->rank != 0) {
		if (rr->psent)
			MPI_Wait(&rr->preq, MPI_STATUS_IGNORE);
		rr->pmsg[0] = rr->cum_bytes;
		rr->pmsg[1] = rr->cum_ops;
		rr->pmsg[2] = ++rr->psent;
		MPI_Isend(rr->pmsg, 3, MPI_UINT64_T, 0, TAG_PROGRESS,
			  rr->w->comm, &rr->preq);
	} else if (rr->prog) {
		mb_progress_poll(rr->prog, rr->cum_bytes, rr->cum_ops,
				 now + rr->w->offset_ns);
	}
}

/* Account one completed I/O. */
static inline void complete(struct rank_run *rr, int op, void *buf,
			    uint64_t off, ssize_t n, int64_t lat, int64_t now)
{
	const struct mb_phase_spec *s = rr->spec;

	checkpoint(rr, now);
	if (n > 0) {
		rr->r.bytes[op] += (uint64_t)n;
		rr->cum_bytes += (uint64_t)n;
	}
	if (n == (ssize_t)s->cfg->bs) {
		rr->r.ops[op]++;
		rr->cum_ops++;
		ios_lathist_add(&rr->lat, lat > 0 ? (uint64_t)lat : 0);
		if (op == IOS_OP_READ && s->cfg->verify &&
		    mb_verify_check(buf, s->cfg->bs, rr->writer_rank, off,
				    rr->seed) != MB_VERIFY_OK) {
			/* recorded (as -EBADMSG) but the rank goes on */
			rr->r.verify_errors++;
			if (rr->nerr < MAX_ERRORS_PER_RANK) {
				struct ios_io_error *e = &rr->errs[rr->nerr++];

				e->rank = rr->w->rank;
				e->op = op;
				e->offset = off;
				e->len = s->cfg->bs;
				e->result = -EBADMSG;
				e->t_ns = now + rr->w->offset_ns;
			}
		}
	} else {
		record_error(rr, op, off, s->cfg->bs, n, now);
	}
	rr->r.t_end_ns = now; /* local for now; converted later */
}

static void fill_write(struct rank_run *rr, void *buf, uint64_t off)
{
	if (rr->spec->cfg->verify)
		mb_verify_fill(buf, rr->spec->cfg->bs, (uint32_t)rr->w->rank,
			       rr->rep, off, rr->seed);
	else if (rr->spec->cfg->scramble)
		mb_content_scramble(buf, rr->spec->cfg->bs, &rr->scr);
}

/*
 * A short transfer: try the rest once (as IOR does) so that the error
 * behind it (ENOSPC, EIO) is what gets recorded.  Used by the synchronous
 * and the asynchronous paths (the rest goes synchronously).  The short
 * transfer counts here, once, as a short op and an error; an errno from
 * the retry counts again in record_error() (it is a second failure).
 * Returns the final result for complete().
 */
static ssize_t finish_short(struct rank_run *rr, int op, void *buf,
			    uint64_t off, ssize_t n)
{
	size_t len = rr->spec->cfg->bs;
	ssize_t m;

	rr->r.short_ops++;
	rr->r.errors++;
	if (n == 0 && op == IOS_OP_READ)
		return n; /* end of file: nothing more to learn */
	if (op == IOS_OP_WRITE)
		m = rr->be->pwrite(rr->f, (char *)buf + n, len - (size_t)n,
				   off + (uint64_t)n);
	else
		m = rr->be->pread(rr->f, (char *)buf + n, len - (size_t)n,
				  off + (uint64_t)n);
	if (m < 0) {
		/* count what did move, report the errno */
		rr->r.bytes[op] += (uint64_t)n;
		rr->cum_bytes += (uint64_t)n;
		return m;
	}
	return n + m;
}

static void run_sync(struct rank_run *rr, void *buf)
{
	const struct mb_phase_spec *s = rr->spec;
	int64_t t = mono_ns();

	rr->r.t_start_ns = t;
	while (!rr->stop && t < rr->deadline_local) {
		uint64_t off;
		int op;
		ssize_t n;
		int64_t t2;

		next_io(rr, &off, &op);
		if (op == IOS_OP_WRITE) {
			fill_write(rr, buf, off);
			n = rr->be->pwrite(rr->f, buf, s->cfg->bs, off);
		} else {
			n = rr->be->pread(rr->f, buf, s->cfg->bs, off);
		}
		if (n >= 0 && n < (ssize_t)s->cfg->bs)
			n = finish_short(rr, op, buf, off, n);
		t2 = mono_ns();
		complete(rr, op, buf, off, n, t2 - t, t2);
		progress_tick(rr, t2);
		t = t2;
	}
}

/*
 * Submit [batch] ([nb] I/Os, stamped now).  Returns how many are in flight;
 * those the backend refused are recorded as errors and go back to [freel].
 */
static unsigned submit_batch(struct rank_run *rr, struct mb_io **batch,
			     unsigned nb, struct mb_io **freel, unsigned *nfree)
{
	int64_t ts = mono_ns();
	unsigned k = 0, i;
	int n;

	for (i = 0; i < nb; i++)
		batch[i]->t_submit_ns = ts;
	while (k < nb) {
		n = rr->be->submit(rr->f, batch + k, nb - k);
		if (n <= 0) {
			for (i = k; i < nb; i++) {
				record_error(rr, batch[i]->op, batch[i]->off,
					     rr->spec->cfg->bs,
					     n < 0 ? n : -EIO, ts);
				freel[(*nfree)++] = batch[i];
			}
			break;
		}
		k += (unsigned)n;
	}
	return k;
}

static int run_async(struct rank_run *rr, void **bufs)
{
	const struct mb_phase_spec *s = rr->spec;
	unsigned depth = s->cfg->iodepth, i, inflight = 0, nfree = depth;
	unsigned bsub = s->cfg->iodepth_batch ? s->cfg->iodepth_batch : 1;
	struct mb_io *ios = calloc(depth, sizeof(*ios));
	struct mb_io **freel = calloc(depth, sizeof(*freel));
	struct mb_io **batch = calloc(depth, sizeof(*batch));
	struct mb_io **done = calloc(depth, sizeof(*done));
	int64_t now = mono_ns();
	int rc = 0;

	if (!ios || !freel || !batch || !done) {
		rc = -ENOMEM;
		goto out;
	}
	for (i = 0; i < depth; i++) {
		ios[i].buf = bufs[i];
		ios[i].len = s->cfg->bs;
		freel[i] = &ios[i];
	}
	rr->r.t_start_ns = now;
	for (;;) {
		unsigned nb = 0;
		int n;

		/* Refill the queue, submitting every [batch] I/Os (fio's
		 * iodepth_batch_submit, 1 by default: each I/O goes as soon as
		 * it is ready; on a virtio disk here that is ~12% more IOPS
		 * at 4 KiB than one io_submit for all free slots). */
		while (!rr->stop && nfree && now < rr->deadline_local) {
			struct mb_io *io = freel[--nfree];
			int op;

			next_io(rr, &io->off, &op);
			io->op = op;
			if (op == IOS_OP_WRITE)
				fill_write(rr, io->buf, io->off);
			batch[nb++] = io;
			if (nb >= bsub) {
				inflight += submit_batch(rr, batch, nb, freel,
							 &nfree);
				nb = 0;
			}
		}
		if (nb)
			inflight += submit_batch(rr, batch, nb, freel, &nfree);
		if (!inflight)
			break;
		n = rr->be->reap(rr->f, done, 1, depth, NULL);
		now = mono_ns();
		if (n < 0) {
			if (n == -ETIMEDOUT || n == -EINTR)
				continue;
			record_error(rr, IOS_OP_READ, 0, 0, n, now);
			/* cannot reap: give up on what is in flight */
			break;
		}
		for (i = 0; i < (unsigned)n; i++) {
			struct mb_io *io = done[i];

			ssize_t res = io->result;

			if (res >= 0 && res < (ssize_t)s->cfg->bs) {
				res = finish_short(rr, io->op, io->buf, io->off,
						   res);
				now = mono_ns();
			}
			complete(rr, io->op, io->buf, io->off, res,
				 now - io->t_submit_ns, now);
			freel[nfree++] = io;
			inflight--;
		}
		progress_tick(rr, now);
	}
out:
	free(ios);
	free(freel);
	free(batch);
	free(done);
	return rc;
}

/* ---- gather and results ------------------------------------------- */

#define GATHER_OOM                                                             \
	"iostrata-bench: rank %d: out of memory gathering repetition %u of "   \
	"%d ranks"

static void free_rank_samples(struct ios_rank_result *all, int n)
{
	int k;

	for (k = 0; all && k < n; k++) {
		free(all[k].sample_bytes);
		free(all[k].sample_ops);
	}
}

/*
 * Rank 0 gathers every rank's record, samples and errors.  An allocation
 * that fails on one rank (rank 0's buffers grow with the rank count) is
 * agreed on before each collective that needs it, so every rank leaves
 * with the same error instead of waiting in a collective for a rank that
 * left: the repetition is lost, the run goes on to write what it has.
 */
static int gather_rep(struct rank_run *rr, struct ios_phase_result *out,
		      int64_t t_start, int64_t t_end, struct ios_err *err)
{
	struct mb_world *w = rr->w;
	const struct mb_phase_spec *s = rr->spec;
	struct ios_rank_result *all = NULL;
	uint64_t *samples = NULL, *allsamples = NULL, *hist = NULL;
	struct ios_io_error *allerr = NULL;
	int *cnt = NULL, *disp = NULL, *ecnt = NULL, *edisp = NULL;
	int *both = NULL;
	uint32_t ns, i;
	int k, rc = 0, total = 0, etotal = 0;
	double step = s->cfg->interval * 1e9;
	struct ios_rep_result *rep;

	/* Per-interval samples from the checkpoints. */
	ns = rr->r.t_end_ns > rr->t0_local
		     ? (uint32_t)ceil((double)(rr->r.t_end_ns - rr->t0_local) /
				      step)
		     : 0;
	samples = calloc((size_t)ns * 2 + 1, sizeof(*samples));
	if (!samples)
		rc = ios_errf(err, -ENOMEM, GATHER_OOM, w->rank, rr->rep + 1,
			      w->nranks);
	for (i = 0; samples && i < ns; i++) {
		double b, o;
		int64_t t = rr->t0_local + (int64_t)((i + 1) * step);

		if (t >= rr->r.t_end_ns) {
			b = (double)rr->cum_bytes;
			o = (double)rr->cum_ops;
		} else {
			cum_at(rr, t, &b, &o);
		}
		samples[i] = (uint64_t)llround(b);
		samples[ns + i] = (uint64_t)llround(o);
	}
	rr->r.nsamples = ns;
	rr->r.sample_bytes = NULL;
	rr->r.sample_ops = NULL;
	rr->r.rank = w->rank;
	rr->r.lat = ios_lathist_summary(&rr->lat);

	if (w->rank == 0 && !rc) {
		all = calloc((size_t)w->nranks, sizeof(*all));
		cnt = calloc((size_t)w->nranks, sizeof(int));
		disp = calloc((size_t)w->nranks, sizeof(int));
		ecnt = calloc((size_t)w->nranks, sizeof(int));
		edisp = calloc((size_t)w->nranks, sizeof(int));
		both = calloc((size_t)w->nranks * 2, sizeof(int));
		hist = calloc((size_t)w->nranks * IOS_LAT_BUCKETS,
			      sizeof(*hist));
		if (!all || !cnt || !disp || !ecnt || !edisp || !both || !hist)
			rc = ios_errf(err, -ENOMEM, GATHER_OOM, w->rank,
				      rr->rep + 1, w->nranks);
	}
	rc = mb_agree(w->comm, w->rank, rc, err, NULL);
	if (rc)
		goto out;
	{
		struct ios_rank_result mine = rr->r;

		/* local monotonic -> common clock */
		mine.t_start_ns += w->offset_ns;
		mine.t_end_ns += w->offset_ns;
		MPI_Gather(&mine, sizeof(mine), MPI_BYTE, all, sizeof(mine),
			   MPI_BYTE, 0, w->comm);
	}
	MPI_Gather(rr->lat.count, IOS_LAT_BUCKETS, MPI_UINT64_T, hist,
		   IOS_LAT_BUCKETS, MPI_UINT64_T, 0, w->comm);
	{
		int mine[2] = {(int)ns * 2,
			       (int)(rr->nerr * sizeof(rr->errs[0]))};

		MPI_Gather(mine, 2, MPI_INT, both, 2, MPI_INT, 0, w->comm);
	}
	if (w->rank == 0) {
		for (k = 0; k < w->nranks; k++) {
			cnt[k] = both[2 * k];
			disp[k] = total;
			total += cnt[k];
			ecnt[k] = both[2 * k + 1];
			edisp[k] = etotal;
			etotal += ecnt[k];
		}
		/* Everything rank 0 needs after the last collective is
		 * allocated before it. */
		allsamples = calloc((size_t)total + 1, sizeof(uint64_t));
		allerr = calloc((size_t)etotal + 1, 1);
		rc = allsamples && allerr ? 0 : -ENOMEM;
		for (k = 0; !rc && k < w->nranks; k++) {
			uint32_t n = all[k].nsamples;

			all[k].sample_bytes =
				calloc((size_t)n + 1, sizeof(uint64_t));
			all[k].sample_ops =
				calloc((size_t)n + 1, sizeof(uint64_t));
			if (!all[k].sample_bytes || !all[k].sample_ops)
				rc = -ENOMEM;
		}
		if (rc)
			ios_errf(err, rc, GATHER_OOM, w->rank, rr->rep + 1,
				 w->nranks);
	}
	rc = mb_agree(w->comm, w->rank, rc, err, NULL);
	if (rc)
		goto out;
	MPI_Gatherv(samples, (int)ns * 2, MPI_UINT64_T, allsamples, cnt, disp,
		    MPI_UINT64_T, 0, w->comm);
	MPI_Gatherv(rr->errs, (int)(rr->nerr * sizeof(rr->errs[0])), MPI_BYTE,
		    allerr, ecnt, edisp, MPI_BYTE, 0, w->comm);
	if (w->rank != 0)
		goto out;

	rep = &out->reps[out->nreps];
	memset(rep, 0, sizeof(*rep));
	rep->rep = (int32_t)out->nreps;
	rep->t_start_ns = t_start;
	rep->t_end_ns = t_end;
	rep->interval_s = s->cfg->interval;
	rep->nranks = w->nranks;
	rep->ranks = all;
	rep->lat_hist = hist;
	hist = NULL;
	for (k = 0; k < w->nranks; k++) {
		struct ios_rank_result *r = &all[k];
		uint32_t n = r->nsamples;

		memcpy(r->sample_bytes, allsamples + disp[k],
		       n * sizeof(uint64_t));
		memcpy(r->sample_ops, allsamples + disp[k] + n,
		       n * sizeof(uint64_t));
	}
	all = NULL;
	rep->nerrors = (size_t)etotal / sizeof(struct ios_io_error);
	rep->errors = allerr;
	allerr = NULL;
	ios_figures_compute(rep, w->ri, w->nnodes);
	out->nreps++;
out:
	/* still set only after a failure: the sample arrays allocated so far
	 * (every rank sends its record with NULL sample pointers) */
	free_rank_samples(all, w->nranks);
	free(all);
	free(hist);
	free(samples);
	free(allsamples);
	free(allerr);
	free(both);
	free(cnt);
	free(disp);
	free(ecnt);
	free(edisp);
	return rc;
}

/* ---- the phase ---------------------------------------------------- */

static void *alloc_buf(size_t len)
{
	void *p = NULL;

	if (posix_memalign(&p, 4096, len ? len : 4096))
		return NULL;
	return p;
}

/* Lay out the rank's own file up to --size (untimed), like fio does. */
static int layout(struct mb_ctx *ctx, const struct mb_backend *be,
		  const struct mb_phase_spec *s, uint64_t seed, void *buf,
		  struct ios_err *err)
{
	char name[64];
	struct mb_file *f;
	uint64_t cur = 0, off, chunk, len, k;
	void *cbuf = NULL;
	uint64_t scr = seed ^ 0x6c61796f7574ull ^ ((uint64_t)ctx->rank << 24);
	double slowest = 0, t_chunk, t_start = (double)mono_ns() / 1e9;
	int flags =
		MB_O_WRITE | MB_O_CREATE | (s->cfg->direct ? MB_O_DIRECT : 0);
	int rc;

	if (be->flags & MB_BF_NO_DATA)
		return 0;
	mb_target_name(ctx->rank, name, sizeof(name));
	rc = be->open(ctx, name, flags, &f);
	if (rc)
		return rc;
	if (be->getsize && (rc = be->getsize(f, &cur))) {
		be->close(f);
		return ios_errf(err, rc, "iostrata-bench: size of %s: %s", name,
				strerror(-rc));
	}
	if (cur >= s->cfg->size) {
		be->close(f);
		return 0;
	}
	if (!be->getsize)
		cur = 0;
	/* Write in chunks of whole blocks up to 8 MiB: a 4 KiB random phase
	 * must not lay out 16 GiB with 4 KiB writes (slow, fragmented). */
	chunk = s->cfg->bs *
		(s->cfg->bs >= (8u << 20) ? 1 : (8u << 20) / s->cfg->bs);
	if (posix_memalign(&cbuf, 4096, chunk)) {
		be->close(f);
		return ios_errf(err, -ENOMEM,
				"iostrata-bench: rank %d: lay out %s: %s",
				ctx->rank, name, strerror(ENOMEM));
	}
	for (k = 0; k < chunk; k += s->cfg->bs)
		memcpy((char *)cbuf + k, buf, s->cfg->bs);
	for (off = cur / s->cfg->bs * s->cfg->bs; off < s->cfg->size;
	     off += len) {
		ssize_t n;

		len = s->cfg->size - off < chunk ? s->cfg->size - off : chunk;
		/* Lay-out has no planned end (16 GiB per rank on a slow
		 * cluster can take an hour): the watchdog follows progress,
		 * each chunk within max(LAYOUT_STALL_S, 20 x the slowest one
		 * so far), so only a stall aborts the run. */
		mb_watchdog_arm(fmax(LAYOUT_STALL_S, 20.0 * slowest),
				"lay out");
		t_chunk = (double)mono_ns() / 1e9;
		if (s->cfg->verify)
			for (k = 0; k < len; k += s->cfg->bs)
				mb_verify_fill((char *)cbuf + k, s->cfg->bs,
					       (uint32_t)ctx->rank, UINT32_MAX,
					       off + k, seed);
		else if (s->cfg->scramble)
			mb_content_scramble(cbuf, len, &scr);
		n = be->pwrite(f, cbuf, len, off);
		slowest = fmax(slowest, (double)mono_ns() / 1e9 - t_chunk);
		if (n != (ssize_t)len) {
			rc = n < 0 ? (int)n : -EIO;
			be->close(f);
			free(cbuf);
			return ios_errf(
				err, rc,
				"iostrata-bench: rank %d: lay out %s at offset %" PRIu64
				": %s",
				ctx->rank, name, off,
				n < 0 ? strerror((int)-n) : "short write");
		}
	}
	free(cbuf);
	/* Done here; the others may take longer (a throttled rank): wait for
	 * them with a bound that scales with this rank's own lay-out. */
	mb_watchdog_arm(fmax(mb_watchdog_bound(3600.0),
			     100.0 * ((double)mono_ns() / 1e9 - t_start)),
			"lay out (waiting for the other ranks)");
	rc = be->close(f);
	if (rc)
		return ios_errf(
			err, rc,
			"iostrata-bench: rank %d: close %s after lay out: %s",
			ctx->rank, name, strerror(-rc));
	return 0;
}

int mb_agree(MPI_Comm comm, int rank, int rc, struct ios_err *err, int *who)
{
	int in[2] = {rc ? rank : INT_MAX, 0}, out[2];
	int first;
	struct {
		int code;
		char msg[IOS_ERR_MSGLEN];
	} m = {0};

	MPI_Allreduce(in, out, 1, MPI_2INT, MPI_MINLOC, comm);
	first = out[0];
	if (who)
		*who = first == INT_MAX ? -1 : first;
	if (first == INT_MAX)
		return 0;
	if (rank == first) {
		m.code = rc;
		snprintf(m.msg, sizeof(m.msg), "%s",
			 err && err->msg[0] ? err->msg : strerror(-rc));
	}
	MPI_Bcast(&m, sizeof(m), MPI_BYTE, first, comm);
	ios_errf(err, m.code, "%s", m.msg);
	return m.code;
}

int mb_phase_run(const struct mb_phase_spec *spec, MPI_Comm comm,
		 struct ios_phase_result *out, struct ios_err *err)
{
	struct mb_world *w = spec->world, *own = NULL;
	const struct mb_config *cfg = spec->cfg;
	const struct mb_backend *be = cfg->backend;
	struct mb_ctx ctx = {0}, rctx;
	struct ios_err lerr = {0};
	struct rank_run rr;
	void **bufs = NULL;
	unsigned nbufs, i, rep;
	char name[64];
	int rc = 0, partner;
	bool writes = mb_pattern_writes(spec->pattern);
	int oflags;

	memset(out, 0, sizeof(*out));
	if (!err)
		err = &lerr;
	if (!be)
		return ios_errf(err, -EINVAL, "iostrata-bench: no backend");
	if (!w) {
		rc = mb_world_create(comm, &own, err);
		if (rc)
			return rc;
		w = own;
	}
	ctx.cfg = cfg;
	ctx.rank = w->rank;
	ctx.nranks = w->nranks;
	ctx.err = err;
	snprintf(out->name, sizeof(out->name), "%s",
		 mb_pattern_name(spec->pattern));
	snprintf(out->layer, sizeof(out->layer), "%s",
		 spec->layer ? spec->layer : "");
	snprintf(out->backend, sizeof(out->backend), "%s", be->name);
	out->bs = spec->cfg->bs;
	out->rwmixread = spec->pattern == MB_PAT_RANDRW ? spec->cfg->rwmixread
			 : mb_pattern_reads(spec->pattern) ? 100
							   : 0;
	if (w->rank == 0) {
		out->reps = calloc(spec->cfg->reps ? spec->cfg->reps : 1,
				   sizeof(*out->reps));
		if (!out->reps)
			rc = ios_errf(err, -ENOMEM,
				      "iostrata-bench: out of memory");
	}
	rc = mb_agree(comm, w->rank, rc, err, NULL);
	if (rc)
		goto out_world;

	nbufs = spec->cfg->iodepth > 1 ? spec->cfg->iodepth : 1;
	bufs = calloc(nbufs, sizeof(*bufs));
	if (!bufs)
		rc = ios_errf(err, -ENOMEM, "iostrata-bench: out of memory");
	for (i = 0; !rc && i < nbufs; i++) {
		bufs[i] = alloc_buf(spec->cfg->bs);
		if (!bufs[i])
			rc = ios_errf(
				err, -ENOMEM,
				"iostrata-bench: rank %d: allocate %u buffers of %" PRIu64
				" bytes: %s",
				w->rank, nbufs, spec->cfg->bs,
				strerror(ENOMEM));
		else
			mb_content_fill(bufs[i], spec->cfg->bs,
					cfg->seed ^ ((uint64_t)w->rank << 32) ^
						i,
					cfg->buffer_compress);
	}
	if (!rc)
		rc = be->init(&ctx);
	rc = mb_agree(comm, w->rank, rc, err, NULL);
	if (rc)
		goto out_bufs;

	/* Lay out the file first unless a sequential write fills it. */
	if (spec->pattern != MB_PAT_WRITE) {
		mb_watchdog_arm(LAYOUT_STALL_S, "lay out (open)");
		rc = layout(&ctx, be, spec, cfg->seed, bufs[0], err);
		rc = mb_agree(comm, w->rank, rc, err, NULL);
		if (rc)
			goto out_fini;
	}
	partner = w->rank;
	if (spec->cfg->reorder && mb_pattern_reads(spec->pattern) && !writes) {
		partner = (w->rank + w->first_node_ranks) % w->nranks;
	}
	if (spec->cfg->reorder && w->nnodes == 1 && w->rank == 0 &&
	    spec->phase_index == 0 && !cfg->quiet)
		fprintf(stderr,
			"iostrata-bench: --reorder: all ranks run on one node (%s): reads may be served from this node's cache\n",
			w->host);
	rctx = ctx;
	rctx.rank = partner;
	mb_target_name(partner, name, sizeof(name));
	oflags = (writes ? MB_O_WRITE | MB_O_CREATE : 0) |
		 (mb_pattern_reads(spec->pattern) ? MB_O_READ : 0) |
		 (spec->cfg->direct ? MB_O_DIRECT : 0);

	for (rep = 0; rep < spec->cfg->reps; rep++) {
		int64_t T0 = 0, tsw[2], tin[2];
		struct rusage ru0, ru1;
		double b0, o0, b1, o1;
		struct mb_file *f = NULL;
		int64_t first_end, last_start;
		uint32_t *psent = NULL;  /* rank 0: messages each rank sent */
		int64_t t0p[2] = {0, 0}; /* start time, progress period */

		memset(&rr, 0, sizeof(rr));
		rr.spec = spec;
		rr.be = be;
		rr.w = w;
		rr.rep = rep;
		rr.seed = cfg->seed;
		rr.writer_rank = (uint32_t)partner;
		rr.nblocks = spec->cfg->size / spec->cfg->bs;
		rr.rng = (cfg->seed ^
			  (0x9e3779b97f4a7c15ull * (uint64_t)(w->rank + 1)) ^
			  ((uint64_t)rep << 48) ^
			  ((uint64_t)spec->phase_index << 56)) |
			 1;
		rr.scr = (rr.rng ^ 0x7363726d626c65ull) | 1;
		ios_lathist_init(&rr.lat);
		rr.r.rank = w->rank;

		mb_watchdog_arm(mb_watchdog_bound(spec->cfg->runtime) + 60.0,
				"open");
		rc = be->open(&rctx, name, oflags, &f);
		if (!rc && w->rank == 0) {
			/* for the progress drain after the timed loop */
			psent = calloc((size_t)w->nranks, sizeof(*psent));
			if (!psent)
				rc = ios_errf(err, -ENOMEM,
					      "iostrata-bench: out of memory");
		}
		rc = mb_agree(comm, w->rank, rc, err, NULL);
		if (rc) {
			if (f)
				be->close(f);
			free(psent);
			break;
		}
		rr.f = f;
		world_sync(w);
		if (w->rank == 0) {
			T0 = mb_world_now(w) + 20000000ll +
			     200000ll * w->nranks;
			rr.prog = mb_progress_new(w->comm, w->nranks, out->name,
						  rep, spec->cfg->reps,
						  spec->cfg->runtime, T0,
						  cfg->quiet);
			t0p[0] = T0;
			t0p[1] = mb_progress_period_ns(rr.prog);
		}
		MPI_Bcast(t0p, 2, MPI_INT64_T, 0, comm);
		T0 = t0p[0];
		rr.t0_local = T0 - w->offset_ns;
		rr.deadline_local =
			rr.t0_local + (int64_t)(spec->cfg->runtime * 1e9);
		rr.cp_next = rr.t0_local;
		rr.cp_step = CP_STEP_NS;
		if ((int64_t)(spec->cfg->runtime * 1e9) / (MAX_CP / 2) >
		    rr.cp_step)
			rr.cp_step = (int64_t)(spec->cfg->runtime * 1e9) /
				     (MAX_CP / 2);
		/* progress messages: as often as a line is printed, or none;
		 * the others report a tenth of a period before rank 0 prints,
		 * so the line has their counts, not the previous ones */
		rr.prog_step = t0p[1];
		rr.prog_next = rr.prog_step <= 0 ? INT64_MAX
			       : w->rank == 0    ? rr.t0_local + rr.prog_step
						 : rr.t0_local + rr.prog_step -
							rr.prog_step / 10;
		mb_watchdog_arm(mb_watchdog_bound(spec->cfg->runtime), "I/O");
		{
			struct timespec ts = {
				.tv_sec = rr.t0_local / 1000000000ll,
				.tv_nsec = rr.t0_local % 1000000000ll,
			};

			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME,
					       &ts, NULL) == EINTR)
				;
		}
		getrusage(RUSAGE_SELF, &ru0);
		if (spec->cfg->iodepth > 1)
			rc = run_async(&rr, bufs);
		else
			run_sync(&rr, bufs[0]);
		if (rc)
			record_error(&rr, IOS_OP_READ, 0, 0, rc, mono_ns());
		rc = 0;
		if (writes && spec->cfg->fsync && be->fsync && !rr.stop) {
			int frc = be->fsync(rr.f);
			int64_t now = mono_ns();

			if (frc)
				record_error(&rr, IOS_OP_WRITE, 0, 0, frc, now);
			rr.r.t_end_ns = now;
		}
		getrusage(RUSAGE_SELF, &ru1);
		if (rr.r.t_end_ns == 0)
			rr.r.t_end_ns = mono_ns();
		checkpoint(&rr, rr.r.t_end_ns);
		{
			int crc = be->close(rr.f);

			if (crc)
				record_error(&rr, IOS_OP_WRITE, 0, 0, crc,
					     mono_ns());
		}
		rr.f = NULL;
		rr.r.cpu_user_s =
			(double)(ru1.ru_utime.tv_sec - ru0.ru_utime.tv_sec) +
			(double)(ru1.ru_utime.tv_usec - ru0.ru_utime.tv_usec) /
				1e6;
		rr.r.cpu_sys_s =
			(double)(ru1.ru_stime.tv_sec - ru0.ru_stime.tv_sec) +
			(double)(ru1.ru_stime.tv_usec - ru0.ru_stime.tv_usec) /
				1e6;
		rr.r.ended_early = rr.r.t_end_ns < rr.deadline_local;
		/* Progress: finish the message exchange. */
		if (w->rank != 0) {
			if (rr.psent)
				MPI_Wait(&rr.preq, MPI_STATUS_IGNORE);
		}
		MPI_Gather(&rr.psent, 1, MPI_UINT32_T, psent, 1, MPI_UINT32_T,
			   0, comm);
		if (w->rank == 0) {
			mb_progress_finish(rr.prog, psent, rr.cum_bytes,
					   rr.cum_ops);
			rr.prog = NULL;
			free(psent);
			psent = NULL;
		}
		/* Stonewall: bytes moved while all ranks were running. */
		tin[0] = -(rr.r.t_start_ns + w->offset_ns);
		tin[1] = rr.r.t_end_ns + w->offset_ns;
		MPI_Allreduce(tin, tsw, 2, MPI_INT64_T, MPI_MIN, comm);
		last_start = -tsw[0];
		first_end = tsw[1];
		if (first_end > last_start) {
			cum_at(&rr, last_start - w->offset_ns, &b0, &o0);
			cum_at(&rr, first_end - w->offset_ns, &b1, &o1);
			if (first_end - w->offset_ns >= rr.r.t_end_ns) {
				b1 = (double)rr.cum_bytes;
				o1 = (double)rr.cum_ops;
			}
			rr.r.stonewall_bytes = (uint64_t)llround(b1 - b0);
			rr.r.stonewall_ops = (uint64_t)llround(o1 - o0);
		}
		{
			int64_t g0 = mono_ns();

			rc = gather_rep(
				&rr, out, T0,
				T0 + (int64_t)(spec->cfg->runtime * 1e9), err);
			mb_phase_last_gather_s = (double)(mono_ns() - g0) / 1e9;
		}
		free(rr.cp_bytes);
		free(rr.cp_ops);
		mb_watchdog_disarm();
		if (rc)
			break;
		if (w->rank == 0 && spec->rep_done)
			spec->rep_done(spec->rep_arg, out);
	}
out_fini:
	be->fini(&ctx);
out_bufs:
	for (i = 0; bufs && i < nbufs; i++)
		free(bufs[i]);
	free(bufs);
out_world:
	mb_watchdog_disarm();
	mb_world_free(own);
	return rc;
}

int mb_phase_cleanup(const struct mb_phase_spec *spec, MPI_Comm comm,
		     struct ios_err *err)
{
	const struct mb_backend *be = spec->cfg->backend;
	struct mb_ctx ctx = {0};
	char name[64];
	int rank, rc = 0;

	if (!be || !be->unlink)
		return 0;
	MPI_Comm_rank(comm, &rank);
	ctx.cfg = spec->cfg;
	ctx.rank = rank;
	ctx.err = err;
	rc = be->unlink(&ctx, mb_target_name(rank, name, sizeof(name)));
	return rc == -ENOENT ? 0 : rc;
}
