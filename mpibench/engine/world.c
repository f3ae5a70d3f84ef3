/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * world: the ranks, nodes and common clock of a communicator (phase.h
 * mb_world_*), and the agreement on success every collective step of a
 * phase goes through (mb_agree).  The clock is CLOCK_MONOTONIC mapped to
 * rank 0's by a ping-pong, measured again before every repetition.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "world.h"

#define SYNC_ROUNDS 5

int64_t mb_world_now(const struct mb_world *w)
{
	return mb_mono_ns() + w->offset_ns;
}

/* Ping-pong with rank 0: offset of this rank's monotonic clock. */
void mb_world_sync(struct mb_world *w)
{
	int64_t *offs = NULL, *skews = NULL, base = 0;
	int64_t my[2];
	int k, i;

	MPI_Barrier(w->comm);
	if (w->rank == 0) {
		base = mb_mono_ns();
		offs = calloc((size_t)w->nranks, sizeof(*offs));
		skews = calloc((size_t)w->nranks, sizeof(*skews));
		for (k = 1; k < w->nranks; k++) {
			int64_t best = INT64_MAX;

			for (i = 0; i < SYNC_ROUNDS; i++) {
				int64_t t1, t2, tk;

				t1 = mb_mono_ns();
				MPI_Send(&t1, 1, MPI_INT64_T, k, 7001, w->comm);
				MPI_Recv(&tk, 1, MPI_INT64_T, k, 7002, w->comm,
					 MPI_STATUS_IGNORE);
				t2 = mb_mono_ns();
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
			tk = mb_mono_ns();
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
	mb_world_sync(w);
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
