/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * netbench: the network layer of a layered run (seeds/003 layer 2, the
 * paper's iperf3/perftest step, done with MPI point-to-point so it runs
 * wherever the benchmark runs): bandwidth with large messages over several
 * concurrent streams, and small-message latency, for every ordered pair of
 * nodes, one pair at a time so no link is shared.
 */
#ifndef IOSTRATA_NETBENCH_H
#define IOSTRATA_NETBENCH_H

#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

#include "errbuf.h"
#include "netbench_opts.h"
#include "results.h"

/*
 * Which node each rank of [comm] is on: the Slurm node name
 * ($SLURMD_NODENAME, so several slurmd on one host count as several nodes)
 * else the hostname.  Collective.  Sets *node (0-based, in order of first
 * appearance), *nnodes, *leader (1 on the lowest rank of each node) and
 * copies this rank's node name to [name] (len bytes).  0 or -errno.
 */
int nb_node_of(MPI_Comm comm, int *node, int *nnodes, int *leader, char *name,
	       size_t len);

/*
 * Measure every ordered pair of ranks of [comm] (call it on a communicator
 * holding one rank per node, rank i = node i).  Collective over [comm].
 * On rank 0, *pairs is a malloc'd array of *npairs = n(n-1) results
 * (src_node, dst_node = ranks in comm); other ranks get NULL / 0.
 * Returns 0, -EINVAL (bad options), -ENOMEM, or -EIO (an MPI call failed;
 * [err] names it).
 */
int nb_run(MPI_Comm comm, const struct nb_opts *o, struct ios_net_pair **pairs,
	   size_t *npairs, struct ios_err *err);

/*
 * A barrier that sleeps instead of spinning (MPI_Ibarrier + 1 ms naps), so
 * ranks waiting for others do not steal CPU from the ones measuring.
 */
int nb_quiet_barrier(MPI_Comm comm);

/* Slowest and median bandwidth over [n] pairs (0 when n == 0). */
void nb_summary(const struct ios_net_pair *p, size_t n, double *min_bw,
		double *median_bw, double *median_lat_ns);

#endif
