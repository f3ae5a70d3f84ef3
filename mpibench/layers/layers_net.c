// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * layers_net: the network layer of the layered run on the node leaders
 * (netbench.h): TCP streams for the layer's number, MPI point-to-point
 * as an extra row, the slowest public and cluster pairs for the ceilings.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "layers_internal.h"
#include "netbench.h"

/* Slowest pair of a kind: cluster (storage <-> storage) or public
 * (client <-> storage); every pair when [roles] is NULL.  0 when none. */
static double slowest(const struct ios_net_pair *p, const double *bw, size_t n,
		      const int *roles, int kind)
{
	double mn = 0;

	for (size_t i = 0; i < n; i++) {
		bool cl = roles && roles[p[i].src_node] == LYR_ROLE_STORAGE &&
			  roles[p[i].dst_node] == LYR_ROLE_STORAGE;

		if (roles && (kind == 1) != cl)
			continue;
		if (mn == 0 || bw[i] < mn)
			mn = bw[i];
	}
	return mn;
}

/* The network layer's numbers from pair bandwidths [bw] (lyr_net_numbers
 * on the counts of [c]): out[LYR_READ], out[LYR_WRITE]. */
static void net_numbers(const struct lctx *c, const struct ios_net_pair *p,
			const double *bw, size_t n, struct lyr_numbers *out)
{
	const int *roles = c->n.roles_known ? c->lead_roles : NULL;

	*out = c->n;
	out->net_link_min = slowest(p, bw, n, NULL, 0);
	out->net_public_min = roles ? slowest(p, bw, n, roles, 0) : 0;
	out->net_cluster_min = roles ? slowest(p, bw, n, roles, 1) : 0;
	lyr_net_numbers(out);
}

/* The network layer on the node leaders: TCP streams (the layer's number)
 * and MPI point-to-point (an extra row, network-mpi) between every ordered
 * pair, or with roles known between the storage hosts (cluster network)
 * and between clients and storage hosts (public network). */
void lrun_network(struct lctx *c)
{
	const struct nb_opts *net = &c->o->net;
	struct nb_result res;
	struct ios_err err = {0};
	double mn, med, lat;

	memset(&res, 0, sizeof(res));
	if (c->leaders != MPI_COMM_NULL &&
	    nb_run(c->leaders, net, c->n.roles_known ? c->lead_roles : NULL,
		   c->w->host, &res, &err) < 0 &&
	    c->rank == 0) {
		snprintf(c->note[LYR_NETWORK], 256, "%.250s", err.msg);
		c->failed = true;
	}
	if (c->rank == 0) {
		struct ios_net_pair *p = res.pairs;
		struct lyr_numbers tn, mn_mpi;
		double *tbw = calloc(res.npairs + 1, sizeof(double));

		for (size_t i = 0; tbw && i < res.npairs; i++)
			tbw[i] = p[i].bw;
		nb_summary(p, res.npairs, &mn, &med, &lat);
		c->lr->run.net = p;
		c->lr->run.nnet = res.npairs;
		if (res.npairs && tbw) {
			char kinds[192] = "";

			net_numbers(c, p, tbw, res.npairs, &tn);
			net_numbers(c, p, res.mpi_bw, res.npairs, &mn_mpi);
			c->n.net_link_min = tn.net_link_min;
			c->n.net_public_min = tn.net_public_min;
			c->n.net_cluster_min = tn.net_cluster_min;
			c->n.bw[LYR_NETWORK][LYR_READ] =
				tn.bw[LYR_NETWORK][LYR_READ];
			c->n.bw[LYR_NETWORK][LYR_WRITE] =
				tn.bw[LYR_NETWORK][LYR_WRITE];
			c->mpi_bw[LYR_READ] = mn_mpi.bw[LYR_NETWORK][LYR_READ];
			c->mpi_bw[LYR_WRITE] =
				mn_mpi.bw[LYR_NETWORK][LYR_WRITE];
			if (c->n.roles_known)
				snprintf(
					kinds, sizeof(kinds),
					"public (client-storage) slowest %.3g GB/s, cluster (storage-storage) slowest %.3g GB/s; ",
					tn.net_public_min / 1e9,
					tn.net_cluster_min / 1e9);
			snprintf(
				c->note[LYR_NETWORK], 256,
				"%zu node pairs, %d TCP streams%s: %sslowest %.3g GB/s, median %.3g GB/s; MPI latency %.1f us%s",
				res.npairs, net->streams,
				res.tcp_pairs == res.npairs
					? ""
					: " (MPI figure where TCP failed)",
				kinds, mn / 1e9, med / 1e9, lat / 1e3,
				c->n.one_host ? "; one host: not a real network"
					      : "");
			if (res.tcp_pairs != res.npairs)
				fprintf(stderr,
					"iostrata-bench: network layer: TCP stream test failed for %zu of %zu pairs (the MPI figure stands in): %s\n",
					res.npairs - res.tcp_pairs, res.npairs,
					res.tcp_error);
		} else if (!c->note[LYR_NETWORK][0]) {
			snprintf(c->note[LYR_NETWORK], 256,
				 "one node: no pair to measure");
		}
		free(tbw);
		free(res.mpi_bw);
		snprintf(c->source[LYR_NETWORK], 32, "TCP streams");
	}
	nb_quiet_barrier(MPI_COMM_WORLD);
}
