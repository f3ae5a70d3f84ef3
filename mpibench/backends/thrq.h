/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * thrq: an I/O queue over worker threads, for a backend whose library has
 * only synchronous calls (libcephfs before Squid: no non-blocking file
 * I/O).  Each worker takes a queued request, runs the backend's
 * synchronous call on it and puts it on the completion list; the backend's
 * submit/reap hooks (backend.h) are mb_thrq_submit/mb_thrq_reap, so the
 * core drives it like libaio or posixaio: up to [depth] requests in
 * flight, completions in any order.
 */
#ifndef IOSTRATA_THRQ_H
#define IOSTRATA_THRQ_H

#include <sys/types.h>
#include <time.h>

#include "backend.h"

/* The most slots (threads) one queue takes. */
#define MB_THRQ_MAX_DEPTH 128

struct mb_thrq;

/* The synchronous call a worker runs: bytes moved (may be short) or
 * -errno, stored in io->result.  Called from up to [depth] threads at
 * once, so it must be thread-safe for one [arg]. */
typedef ssize_t (*mb_thrq_fn)(void *arg, struct mb_io *io);

/*
 * Start a queue of [depth] slots (1..MB_THRQ_MAX_DEPTH) and [nthreads]
 * workers (1..depth; the backends use depth: every slot in flight), each
 * running [fn]([arg], io).  Workers block every signal (the process's
 * handlers run on the threads that had them).  Returns 0 with *[q] set,
 * -EINVAL (depth or nthreads out of range), -ENOMEM, or -errno of
 * pthread_create (the workers started are stopped again).
 */
int mb_thrq_start(struct mb_thrq **q, unsigned int depth, unsigned int nthreads,
		  mb_thrq_fn fn, void *arg);

/*
 * Queue up to [n] of [ios] while slots are free (a request holds its slot
 * until it is reaped).  Returns how many were queued (>= 1), -EBUSY when
 * every slot is taken, -ECANCELED after mb_thrq_stop began.
 */
int mb_thrq_submit(struct mb_thrq *q, struct mb_io **ios, unsigned int n);

/*
 * Wait until at least [min] requests completed (or [timeout], relative,
 * passed; NULL: no bound), then move up to [max] completed ones into
 * [done] (->result set), in the order they completed.  Returns the count;
 * -ETIMEDOUT when fewer than [min] (and none) completed in time or none is
 * in flight to wait for.
 */
int mb_thrq_reap(struct mb_thrq *q, struct mb_io **done, unsigned int min,
		 unsigned int max, const struct timespec *timeout);

/*
 * Tear down (the close path, also with requests in flight after an error
 * or a stop): requests not yet started are cancelled (never run; their
 * ->result is -ECANCELED), the running ones are waited for, every worker
 * is joined, [q] is freed.  Returns how many requests were still
 * unreaped (cancelled, running or completed): none is lost, but the
 * caller that closes without reaping drops them.  NULL: 0.
 */
unsigned int mb_thrq_stop(struct mb_thrq *q);

#endif
