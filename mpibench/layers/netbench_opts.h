/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * netbench_opts: the options of the network layer (netbench.h), apart from
 * the MPI code so that the layered run's option parser (layers_opts.c)
 * builds without MPI.
 */
#ifndef IOSTRATA_NETBENCH_OPTS_H
#define IOSTRATA_NETBENCH_OPTS_H

#include <stdint.h>

struct nb_opts {
	uint64_t msg_bytes; /* bandwidth message size (default 8 MiB) */
	int streams;        /* concurrent messages in flight (default 4) */
	double seconds;     /* time per pair for bandwidth (default 1.0) */
	int lat_iters;      /* ping-pong round trips for latency (200) */
};

/* Fill [o] with the defaults above. */
static inline void nb_opts_default(struct nb_opts *o)
{
	o->msg_bytes = 8u << 20;
	o->streams = 4;
	o->seconds = 1.0;
	o->lat_iters = 200;
}

#endif
