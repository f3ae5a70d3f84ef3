/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * phase_rank: one rank's repetition of a phase (phase_rank.h).  Each
 * rank runs its I/O loop alone, synchronous or asynchronous; it counts
 * into checkpoints every cp_step (the stonewall and the samples are
 * interpolated from them), and sends one small progress message per
 * sample period to rank 0, never one per operation.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "content.h"
#include "phase_rank.h"
#include "verify.h"

#define CP_STEP_NS                                                             \
	10000000ll /* stonewall checkpoints every 10 ms, or                    \
		       runtime / (MAX_CP / 2) for long runs */
#define MAX_CP (1u << 20)
#define TAG_PROGRESS 7101

static inline uint64_t rng_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545f4914f6cdd1dull;
}

static inline void next_io(struct mb_rank_run *rr, uint64_t *off, int *op)
{
	if (rr->random && rr->cfg->once)
		*off = mb_perm_at(&rr->perm, rr->issued) * rr->cfg->bs;
	else if (rr->random)
		*off = (rng_next(&rr->rng) % rr->nblocks) * rr->cfg->bs;
	else {
		*off = rr->cursor * rr->cfg->bs;
		if (++rr->cursor == rr->nblocks)
			rr->cursor = 0;
	}
	/* the rank's logical offset in its own file, or in its own blocks
	 * of the shared one */
	*off = mb_seg_offset(&rr->seg, (int)rr->writer_rank, *off);
	rr->issued++;
	if (rr->fixed_op >= 0)
		*op = rr->fixed_op;
	else /* MB_PAT_RANDRW */
		*op = (int)(rng_next(&rr->rng) % 100) < rr->cfg->rwmixread
			      ? IOS_OP_READ
			      : IOS_OP_WRITE;
}

/* Whether the loop issues another I/O at [now]: before the deadline, or
 * with --once while blocks of the file are left. */
static inline bool more_io(const struct mb_rank_run *rr, int64_t now)
{
	if (rr->stop)
		return false;
	return rr->cfg->once ? rr->issued < rr->nblocks
			     : now < rr->deadline_local;
}

/* Called at every completion: the test inline, the work (once per
 * cp_step) out of the loop. */
static __attribute__((noinline)) void checkpoint_slow(struct mb_rank_run *rr,
						      int64_t now)
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

static inline void checkpoint(struct mb_rank_run *rr, int64_t now)
{
	if (now >= rr->cp_next)
		checkpoint_slow(rr, now);
}

void mb_rank_cum_at(const struct mb_rank_run *rr, int64_t t, double *b,
		    double *o)
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
	/* cp[k] holds the count at t0 + k * step; past the last one, up to
	 * the rank's end, the count runs from the last checkpoint to the
	 * final count (a run shorter than one step has one checkpoint, 0 at
	 * t0: taking the final count there made every stonewall of such a
	 * run 0); after its end, the final count. */
	if (k + 1 >= rr->ncp) {
		int64_t tl = rr->t0_local +
			     (int64_t)(rr->ncp ? rr->ncp - 1 : 0) * rr->cp_step;
		double f = rr->r.t_end_ns > tl && t < rr->r.t_end_ns
				   ? (double)(t - tl) /
					     (double)(rr->r.t_end_ns - tl)
				   : 1.0;
		double lb = rr->ncp ? (double)rr->cp_bytes[rr->ncp - 1] : 0;
		double lo = rr->ncp ? (double)rr->cp_ops[rr->ncp - 1] : 0;

		if (f < 0)
			f = 0;
		*b = lb + f * ((double)rr->cum_bytes - lb);
		*o = lo + f * ((double)rr->cum_ops - lo);
		return;
	}
	*b = (double)rr->cp_bytes[k] +
	     fr * (double)(rr->cp_bytes[k + 1] - rr->cp_bytes[k]);
	*o = (double)rr->cp_ops[k] +
	     fr * (double)(rr->cp_ops[k + 1] - rr->cp_ops[k]);
}

static void record_error(struct mb_rank_run *rr, int op, uint64_t off,
			 uint64_t len, int64_t result, int64_t now)
{
	if (result < 0) /* a short result was counted by finish_short() */
		rr->r.errors++;
	if (!rr->r.first_errno)
		rr->r.first_errno = result < 0 ? (int32_t)-result : EIO;
	if (rr->nerr < MB_MAX_ERRORS_PER_RANK) {
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

static __attribute__((noinline)) void progress_send(struct mb_rank_run *rr,
						    int64_t now)
{
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

/* Called at every completion; sends once per progress period. */
static inline void progress_tick(struct mb_rank_run *rr, int64_t now)
{
	if (now >= rr->prog_next)
		progress_send(rr, now);
}

/* Account one completed I/O. */
static inline __attribute__((always_inline)) void
complete(struct mb_rank_run *rr, int op, void *buf, uint64_t off, ssize_t n,
	 int64_t lat, int64_t now)
{

	checkpoint(rr, now);
	if (n > 0) {
		rr->r.bytes[op] += (uint64_t)n;
		rr->cum_bytes += (uint64_t)n;
	}
	if (n == (ssize_t)rr->cfg->bs) {
		rr->r.ops[op]++;
		rr->cum_ops++;
		ios_lathist_add(&rr->lat, lat > 0 ? (uint64_t)lat : 0);
		if (op == IOS_OP_READ && rr->cfg->verify &&
		    mb_verify_check(buf, rr->cfg->bs, rr->writer_rank, off,
				    rr->seed) != MB_VERIFY_OK) {
			/* recorded (as -EBADMSG) but the rank goes on */
			rr->r.verify_errors++;
			if (rr->nerr < MB_MAX_ERRORS_PER_RANK) {
				struct ios_io_error *e = &rr->errs[rr->nerr++];

				e->rank = rr->w->rank;
				e->op = op;
				e->offset = off;
				e->len = rr->cfg->bs;
				e->result = -EBADMSG;
				e->t_ns = now + rr->w->offset_ns;
			}
		}
	} else {
		record_error(rr, op, off, rr->cfg->bs, n, now);
	}
	rr->r.t_end_ns = now; /* local for now; converted later */
}

static inline __attribute__((always_inline)) void
fill_write(struct mb_rank_run *rr, void *buf, uint64_t off)
{
	if (rr->cfg->verify)
		mb_verify_fill(buf, rr->cfg->bs, (uint32_t)rr->w->rank, rr->rep,
			       off, rr->seed);
	else if (rr->cfg->scramble)
		mb_content_scramble(buf, rr->cfg->bs, &rr->scr);
}

/*
 * A short transfer: try the rest once (as IOR does) so that the error
 * behind it (ENOSPC, EIO) is what gets recorded.  Used by the synchronous
 * and the asynchronous paths (the rest goes synchronously).  The short
 * transfer counts here, once, as a short op and an error; an errno from
 * the retry counts again in record_error() (it is a second failure).
 * Returns the final result for complete().
 */
static ssize_t finish_short(struct mb_rank_run *rr, int op, void *buf,
			    uint64_t off, ssize_t n)
{
	size_t len = rr->cfg->bs;
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

static void run_sync(struct mb_rank_run *rr, void *buf)
{
	int64_t t = mb_mono_ns();

	rr->r.t_start_ns = t;
	while (more_io(rr, t)) {
		uint64_t off;
		int op;
		ssize_t n;
		int64_t t2;

		next_io(rr, &off, &op);
		if (op == IOS_OP_WRITE) {
			fill_write(rr, buf, off);
			n = rr->be->pwrite(rr->f, buf, rr->cfg->bs, off);
		} else {
			n = rr->be->pread(rr->f, buf, rr->cfg->bs, off);
		}
		if (n >= 0 && n < (ssize_t)rr->cfg->bs)
			n = finish_short(rr, op, buf, off, n);
		t2 = mb_mono_ns();
		complete(rr, op, buf, off, n, t2 - t, t2);
		progress_tick(rr, t2);
		t = t2;
	}
}

/*
 * Submit [batch] ([nb] I/Os, stamped now).  Returns how many are in flight;
 * those the backend refused are recorded as errors and go back to [freel].
 */
static unsigned submit_batch(struct mb_rank_run *rr, struct mb_io **batch,
			     unsigned nb, struct mb_io **freel, unsigned *nfree)
{
	int64_t ts = mb_mono_ns();
	unsigned k = 0, i;
	int n;

	for (i = 0; i < nb; i++)
		batch[i]->t_submit_ns = ts;
	while (k < nb) {
		n = rr->be->submit(rr->f, batch + k, nb - k);
		if (n <= 0) {
			for (i = k; i < nb; i++) {
				record_error(rr, batch[i]->op, batch[i]->off,
					     rr->cfg->bs, n < 0 ? n : -EIO, ts);
				freel[(*nfree)++] = batch[i];
			}
			break;
		}
		k += (unsigned)n;
	}
	return k;
}

static int run_async(struct mb_rank_run *rr, void **bufs)
{
	unsigned depth = rr->cfg->iodepth, i, inflight = 0, nfree = depth;
	unsigned bsub = rr->cfg->iodepth_batch ? rr->cfg->iodepth_batch : 1;
	struct mb_io *ios = calloc(depth, sizeof(*ios));
	struct mb_io **freel = calloc(depth, sizeof(*freel));
	struct mb_io **batch = calloc(depth, sizeof(*batch));
	struct mb_io **done = calloc(depth, sizeof(*done));
	int64_t now = mb_mono_ns();
	int rc = 0;

	if (!ios || !freel || !batch || !done) {
		rc = -ENOMEM;
		goto out;
	}
	for (i = 0; i < depth; i++) {
		ios[i].buf = bufs[i];
		ios[i].len = rr->cfg->bs;
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
		while (nfree && more_io(rr, now)) {
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
		now = mb_mono_ns();
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

			if (res >= 0 && res < (ssize_t)rr->cfg->bs) {
				res = finish_short(rr, io->op, io->buf, io->off,
						   res);
				now = mb_mono_ns();
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

void mb_rank_init(struct mb_rank_run *rr, const struct mb_config *cfg,
		  enum mb_pattern pattern, int phase_index, struct mb_world *w,
		  uint32_t rep, int writer_rank)
{
	memset(rr, 0, sizeof(*rr));
	rr->cfg = cfg;
	rr->pattern = pattern;
	rr->random = mb_pattern_random(pattern);
	switch (pattern) {
	case MB_PAT_WRITE:
	case MB_PAT_RANDWRITE:
		rr->fixed_op = IOS_OP_WRITE;
		break;
	case MB_PAT_RANDRW:
		rr->fixed_op = -1;
		break;
	default:
		rr->fixed_op = IOS_OP_READ;
	}
	rr->be = cfg->backend;
	rr->w = w;
	rr->rep = rep;
	rr->seed = cfg->seed;
	rr->writer_rank = (uint32_t)writer_rank;
	rr->nblocks = cfg->size / cfg->bs;
	rr->rng =
		(cfg->seed ^ (0x9e3779b97f4a7c15ull * (uint64_t)(w->rank + 1)) ^
		 ((uint64_t)rep << 48) ^ ((uint64_t)phase_index << 56)) |
		1;
	rr->scr = (rr->rng ^ 0x7363726d626c65ull) | 1;
	if (cfg->once)
		mb_perm_init(&rr->perm, rr->nblocks, rr->rng);
	mb_seg_init(&rr->seg, cfg->file_layout == MB_LAYOUT_SHARED,
		    cfg->shared_block, w->nranks);
	ios_lathist_init(&rr->lat);
	rr->r.rank = w->rank;
}

void mb_rank_start_at(struct mb_rank_run *rr, int64_t t0, int64_t prog_step)
{
	const struct mb_config *cfg = rr->cfg;
	/* --once has no planned end: the checkpoints span the I/O stage's
	 * watchdog bound instead (beyond it the run is aborted) */
	double runtime = cfg->once ? mb_once_bound_s(cfg->size) : cfg->runtime;

	rr->t0_local = t0 - rr->w->offset_ns;
	rr->deadline_local = rr->t0_local + (int64_t)(runtime * 1e9);
	rr->cp_next = rr->t0_local;
	rr->cp_step = CP_STEP_NS;
	if ((int64_t)(runtime * 1e9) / (MAX_CP / 2) > rr->cp_step)
		rr->cp_step = (int64_t)(runtime * 1e9) / (MAX_CP / 2);
	/* progress messages: as often as a line is printed, or none;
	 * the others report a tenth of a period before rank 0 prints,
	 * so the line has their counts, not the previous ones */
	rr->prog_step = prog_step;
	rr->prog_next = rr->prog_step <= 0 ? INT64_MAX
			: rr->w->rank == 0 ? rr->t0_local + rr->prog_step
					   : rr->t0_local + rr->prog_step -
						     rr->prog_step / 10;
}

static double cpu_seconds(const struct timeval *a, const struct timeval *b)
{
	return (double)(b->tv_sec - a->tv_sec) +
	       (double)(b->tv_usec - a->tv_usec) / 1e6;
}

void mb_rank_measure(struct mb_rank_run *rr, void **bufs)
{
	const struct mb_config *cfg = rr->cfg;
	struct timespec ts = {
		.tv_sec = rr->t0_local / 1000000000ll,
		.tv_nsec = rr->t0_local % 1000000000ll,
	};
	struct rusage ru0, ru1;
	int rc = 0, crc;

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
	getrusage(RUSAGE_SELF, &ru0);
	if (cfg->iodepth > 1)
		rc = run_async(rr, bufs);
	else
		run_sync(rr, bufs[0]);
	if (rc)
		record_error(rr, IOS_OP_READ, 0, 0, rc, mb_mono_ns());
	if (mb_pattern_writes(rr->pattern) && cfg->fsync && rr->be->fsync &&
	    !rr->stop) {
		int frc = rr->be->fsync(rr->f);
		int64_t now = mb_mono_ns();

		if (frc)
			record_error(rr, IOS_OP_WRITE, 0, 0, frc, now);
		rr->r.t_end_ns = now;
	}
	getrusage(RUSAGE_SELF, &ru1);
	if (rr->r.t_end_ns == 0)
		rr->r.t_end_ns = mb_mono_ns();
	checkpoint(rr, rr->r.t_end_ns);
	crc = rr->be->close(rr->f);
	if (crc)
		record_error(rr, IOS_OP_WRITE, 0, 0, crc, mb_mono_ns());
	rr->f = NULL;
	rr->r.cpu_user_s = cpu_seconds(&ru0.ru_utime, &ru1.ru_utime);
	rr->r.cpu_sys_s = cpu_seconds(&ru0.ru_stime, &ru1.ru_stime);
	/* --once: a rank ends early only when it stopped before its whole
	 * file was moved (an error); finishing first is not an early end */
	if (cfg->once)
		rr->r.ended_early =
			rr->r.bytes[IOS_OP_READ] + rr->r.bytes[IOS_OP_WRITE] <
			cfg->size;
	else
		rr->r.ended_early = rr->r.t_end_ns < rr->deadline_local;
}

void mb_rank_progress_finish(struct mb_rank_run *rr, MPI_Comm comm,
			     uint32_t *psent)
{
	if (rr->w->rank != 0) {
		if (rr->psent)
			MPI_Wait(&rr->preq, MPI_STATUS_IGNORE);
	}
	MPI_Gather(&rr->psent, 1, MPI_UINT32_T, psent, 1, MPI_UINT32_T, 0,
		   comm);
	if (rr->w->rank == 0) {
		mb_progress_finish(rr->prog, psent, rr->cum_bytes, rr->cum_ops);
		rr->prog = NULL;
		free(psent);
	}
}

void mb_rank_stonewall(struct mb_rank_run *rr, MPI_Comm comm)
{
	int64_t off = rr->w->offset_ns, tin[2], tsw[2], first_end, last_start;
	double b0, o0, b1, o1;

	tin[0] = -(rr->r.t_start_ns + off);
	tin[1] = rr->r.t_end_ns + off;
	MPI_Allreduce(tin, tsw, 2, MPI_INT64_T, MPI_MIN, comm);
	last_start = -tsw[0];
	first_end = tsw[1];
	if (first_end <= last_start)
		return;
	mb_rank_cum_at(rr, last_start - off, &b0, &o0);
	mb_rank_cum_at(rr, first_end - off, &b1, &o1);
	if (first_end - off >= rr->r.t_end_ns) {
		b1 = (double)rr->cum_bytes;
		o1 = (double)rr->cum_ops;
	}
	rr->r.stonewall_bytes = (uint64_t)llround(b1 - b0);
	rr->r.stonewall_ops = (uint64_t)llround(o1 - o0);
}

void mb_rank_free(struct mb_rank_run *rr)
{
	free(rr->cp_bytes);
	free(rr->cp_ops);
}
