/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * synth: build a synthetic but self-consistent struct ios_run (test
 * support for unit tests, the t3x integration tests and the report
 * benchmark; never used by the benchmark itself).
 */
#ifndef IOSTRATA_SYNTH_H
#define IOSTRATA_SYNTH_H

#include <stdbool.h>
#include <stdint.h>

#include "results.h"

struct ios_synth {
	int nnodes, ranks_per_node;
	const char *phases; /* comma-separated: "write,read" */
	int nreps;
	uint64_t bs;
	double rank_bw;   /* B/s per rank at full speed */
	double runtime_s; /* per repetition */
	int nsamples;
	unsigned seed;
	int straggler;    /* rank index that runs at half speed, -1 none */
	int early_rank;   /* rank that ends at 96% of the window, -1 none */
	int cpus;         /* applied CPUs per storage node (0: unconstrained) */
	uint64_t mem;     /* applied memory bytes per node (0: unconstrained) */
	uint64_t disk_bw; /* applied write throttle B/s (0: none) */
	/* requested CPUs and memory (the job's requested facts; 0: as
	 * applied): a sweep requests 20G and gets 22.1 GB online */
	int req_cpus;
	uint64_t req_mem;
	int replication;      /* recorded in config "replication" (0: none) */
	const char *job_name; /* config "job_name" */
	const char *mode;     /* config "mode" ("once", "time"; NULL: none) */
	bool size_based;      /* every repetition's size_based attribute */
	/* the campaign's element record (attachment "element"): its index
	 * (-1: no record) and whether it is the unconstrained baseline */
	int element;
	bool baseline;
	uint64_t size; /* config "size", bytes per rank (0: none) */
	uint64_t osd_memory_target; /* in the Ceph facts' config (0: none) */
};

/* Defaults: 3 nodes x 2 ranks, "write,read", 3 reps, 8 MiB, 100 MB/s. */
void ios_synth_defaults(struct ios_synth *s);

/* A newly allocated run (free with ios_synth_free), or NULL (ENOMEM). */
struct ios_run *ios_synth_run(const struct ios_synth *s);

/* A complete host record (SCHEMA.md /hosts, the validator's every
 * member) of host [name] with [role] and, for mpi_library, [mpi] ("unknown"
 * without its reason unless [why]); malloc'd, NULL when out of memory.
 * Tests put it in a run's host_json. */
char *ios_synth_host_record(const char *name, const char *role, const char *mpi,
			    bool why);

/* Free a run built by ios_synth_run. */
void ios_synth_free(struct ios_run *run);

#endif
