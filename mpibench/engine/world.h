/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * world: the ranks, nodes and common clock of a communicator (world.c),
 * and the agreement on success over it: what every part of a phase and
 * the layered run stand on.  phase.h includes it.
 */
#ifndef IOSTRATA_MB_WORLD_H
#define IOSTRATA_MB_WORLD_H

#include <mpi.h>
#include <stdint.h>
#include <time.h>

#include "errbuf.h"
#include "results.h"

/*
 * Ranks, nodes and the common clock of a communicator.  Collective.
 * node: nodes are told apart by SLURMD_NODENAME, else the hostname.
 */
struct mb_world {
	MPI_Comm comm;
	int rank, nranks;
	int node, nnodes;     /* this rank's node index, count */
	int node_rank;        /* rank within its node */
	int ranks_on_node;    /* ranks on this rank's node */
	int first_node_ranks; /* ranks on node 0 (IOR -C shift) */
	char host[64];
	int64_t mono_ref_ns;       /* CLOCK_MONOTONIC at sync */
	int64_t common_ref_ns;     /* common clock at mono_ref_ns */
	int64_t offset_ns;         /* this rank's offset to rank 0 */
	int64_t skew_ns;           /* half the best round trip */
	struct ios_rank_info *ri;  /* [nranks], rank 0 only */
	int64_t epoch_realtime_ns; /* rank 0 CLOCK_REALTIME at common 0 */
};

int mb_world_create(MPI_Comm comm, struct mb_world **out, struct ios_err *err);
void mb_world_free(struct mb_world *w);
/* Common-clock time now (ns). */
int64_t mb_world_now(const struct mb_world *w);

/*
 * Agree on success over [comm] (collective): [rc] is this rank's result.
 * Every rank returns the lowest failing rank's code, with that rank's
 * message in [err] (its strerror when it gave none); [who] (optional) gets
 * that rank, -1 when every rank succeeded (return 0).
 */
int mb_agree(MPI_Comm comm, int rank, int rc, struct ios_err *err, int *who);

/* The local monotonic clock (ns): what the common clock is an offset to. */
static inline int64_t mb_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/* Ping-pong with rank 0 of [w->comm] (collective): sets this rank's
 * offset to rank 0's monotonic clock, and on rank 0 every rank's clock
 * offset and skew in w->ri (world.c). */
void mb_world_sync(struct mb_world *w);

#endif
