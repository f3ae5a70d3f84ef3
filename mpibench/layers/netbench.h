/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * netbench: the network layer of a layered run (seeds/003 layer 2, the
 * paper's iperf3/perftest step): a TCP stream test between the hosts'
 * addresses (what Ceph speaks) and MPI point-to-point (bandwidth with large
 * messages over several concurrent streams, small-message latency), for
 * ordered pairs of nodes, one pair at a time so no link is shared.
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

/* What nb_run measured (rank 0 of its communicator). */
struct nb_result {
	/* [npairs]: bw is the TCP stream bandwidth (MPI's where TCP failed),
	 * lat_ns MPI's ping-pong; src_node, dst_node = ranks in comm */
	struct ios_net_pair *pairs;
	double *mpi_bw; /* [npairs] MPI point-to-point bandwidth */
	size_t npairs;
	size_t tcp_pairs;    /* pairs whose TCP stream test worked */
	char tcp_error[256]; /* the first TCP failure, "" when none */
};

/*
 * Measure ordered pairs of ranks of [comm] (call it on a communicator
 * holding one rank per node, rank i = node i): every pair, or with
 * [roles] (enum lyr_role per rank of comm, the same array on every rank)
 * every pair but client -> client.  Per pair: MPI bandwidth (o->streams
 * messages of o->msg_bytes in flight), MPI ping-pong latency, then a TCP
 * stream test over o->streams connections for o->seconds: the receiver
 * listens on the address of [host] (its node name, resolved), port 0, and
 * sends the port over MPI.  Collective over [comm].  On rank 0, [res]
 * holds malloc'd arrays (free pairs and mpi_bw); elsewhere it is empty.
 * Returns 0 (a failed TCP test is not a failure: tcp_error says why),
 * -EINVAL (bad options), -ENOMEM, or -EIO (an MPI call failed; [err]
 * names it).
 */
int nb_run(MPI_Comm comm, const struct nb_opts *o, const int *roles,
	   const char *host, struct nb_result *res, struct ios_err *err);

/*
 * A barrier that sleeps instead of spinning (MPI_Ibarrier + 1 ms naps), so
 * ranks waiting for others do not steal CPU from the ones measuring.
 */
int nb_quiet_barrier(MPI_Comm comm);

/* Slowest and median bandwidth over [n] pairs (0 when n == 0). */
void nb_summary(const struct ios_net_pair *p, size_t n, double *min_bw,
		double *median_bw, double *median_lat_ns);

#endif
