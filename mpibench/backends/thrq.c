// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * thrq: an I/O queue over worker threads that run a synchronous call (see
 * thrq.h).  One lock guards two rings of [depth] entries: the requests
 * waiting for a worker and the completed ones waiting to be reaped.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>

#include "thrq.h"
#include "units.h"

struct mb_thrq {
	pthread_mutex_t lock;
	pthread_cond_t work; /* a request queued, or stopping */
	pthread_cond_t done; /* a request completed (CLOCK_MONOTONIC) */
	mb_thrq_fn fn;
	void *arg;
	unsigned int depth;
	unsigned int nthreads; /* workers started */
	pthread_t *threads;
	struct mb_io **pend; /* ring: queued, not started */
	unsigned int phead, npend;
	struct mb_io **fin; /* ring: completed (or cancelled), not reaped */
	unsigned int fhead, nfin;
	unsigned int nheld; /* slots taken: queued + running + completed */
	bool stopping;
};

/* Under the lock: [io] completed with [res]; wake the reaper. */
static void finish(struct mb_thrq *q, struct mb_io *io, ssize_t res)
{
	io->result = res;
	q->fin[(q->fhead + q->nfin) % q->depth] = io;
	q->nfin++;
	pthread_cond_signal(&q->done);
}

static void *worker(void *p)
{
	struct mb_thrq *q = p;

	pthread_mutex_lock(&q->lock);
	for (;;) {
		struct mb_io *io;
		ssize_t res;

		while (!q->npend && !q->stopping)
			pthread_cond_wait(&q->work, &q->lock);
		if (q->stopping)
			break; /* what is still queued is cancelled by stop */
		io = q->pend[q->phead];
		q->phead = (q->phead + 1) % q->depth;
		q->npend--;
		pthread_mutex_unlock(&q->lock);
		res = q->fn(q->arg, io);
		pthread_mutex_lock(&q->lock);
		finish(q, io, res);
	}
	pthread_mutex_unlock(&q->lock);
	return NULL;
}

static void free_queue(struct mb_thrq *q)
{
	pthread_cond_destroy(&q->done);
	pthread_cond_destroy(&q->work);
	pthread_mutex_destroy(&q->lock);
	free(q->threads);
	free(q->pend);
	free(q->fin);
	free(q);
}

int mb_thrq_start(struct mb_thrq **out, unsigned int depth,
		  unsigned int nthreads, mb_thrq_fn fn, void *arg)
{
	pthread_condattr_t ca;
	sigset_t all, old;
	struct mb_thrq *q;
	unsigned int i;
	int rc = 0;

	if (depth < 1 || depth > MB_THRQ_MAX_DEPTH || nthreads < 1 ||
	    nthreads > depth || !fn)
		return -EINVAL;
	q = calloc(1, sizeof(*q));
	if (!q)
		return -ENOMEM;
	q->threads = calloc(nthreads, sizeof(*q->threads));
	q->pend = calloc(depth, sizeof(*q->pend));
	q->fin = calloc(depth, sizeof(*q->fin));
	if (!q->threads || !q->pend || !q->fin) {
		free(q->threads);
		free(q->pend);
		free(q->fin);
		free(q);
		return -ENOMEM;
	}
	q->depth = depth;
	q->fn = fn;
	q->arg = arg;
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->work, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&q->done, &ca);
	pthread_condattr_destroy(&ca);
	/* the workers inherit a mask that blocks everything: SIGTERM's
	 * cleanup and the like run on the rank's own thread */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (i = 0; i < nthreads; i++) {
		rc = pthread_create(&q->threads[i], NULL, worker, q);
		if (rc)
			break;
		q->nthreads++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		mb_thrq_stop(q);
		return -rc;
	}
	*out = q;
	return 0;
}

int mb_thrq_submit(struct mb_thrq *q, struct mb_io **ios, unsigned int n)
{
	unsigned int k = 0;

	pthread_mutex_lock(&q->lock);
	if (q->stopping) {
		pthread_mutex_unlock(&q->lock);
		return -ECANCELED;
	}
	while (k < n && q->nheld < q->depth) {
		q->pend[(q->phead + q->npend) % q->depth] = ios[k++];
		q->npend++;
		q->nheld++;
	}
	if (k == 1)
		pthread_cond_signal(&q->work);
	else if (k > 1)
		pthread_cond_broadcast(&q->work);
	pthread_mutex_unlock(&q->lock);
	return k ? (int)k : -EBUSY;
}

int mb_thrq_reap(struct mb_thrq *q, struct mb_io **done, unsigned int min,
		 unsigned int max, const struct timespec *timeout)
{
	struct timespec end;
	unsigned int n = 0;

	if (timeout)
		ios_deadline(CLOCK_MONOTONIC, timeout, &end);
	pthread_mutex_lock(&q->lock);
	/* wait while fewer than [min] completed and more could complete */
	while (q->nfin < min && q->nfin < max && q->nheld > q->nfin) {
		if (!timeout)
			pthread_cond_wait(&q->done, &q->lock);
		else if (pthread_cond_timedwait(&q->done, &q->lock, &end) ==
			 ETIMEDOUT)
			break;
	}
	while (n < max && q->nfin) {
		done[n++] = q->fin[q->fhead];
		q->fhead = (q->fhead + 1) % q->depth;
		q->nfin--;
		q->nheld--;
	}
	pthread_mutex_unlock(&q->lock);
	return n || !min ? (int)n : -ETIMEDOUT;
}

unsigned int mb_thrq_stop(struct mb_thrq *q)
{
	unsigned int i, left;

	if (!q)
		return 0;
	pthread_mutex_lock(&q->lock);
	q->stopping = true;
	/* never started: cancelled, accounted like a completion */
	while (q->npend) {
		struct mb_io *io = q->pend[q->phead];

		q->phead = (q->phead + 1) % q->depth;
		q->npend--;
		finish(q, io, -ECANCELED);
	}
	pthread_cond_broadcast(&q->work);
	pthread_mutex_unlock(&q->lock);
	/* the running ones finish their call (a worker is never cancelled
	 * inside the library: libcephfs holds locks there) */
	for (i = 0; i < q->nthreads; i++)
		pthread_join(q->threads[i], NULL);
	left = q->nheld;
	free_queue(q);
	return left;
}
