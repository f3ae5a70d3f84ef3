/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_threads: seeds/001's tables from thread sweep runs (`iostrata-report
 * threads`, report_threads.c).
 */
#ifndef IOSTRATA_REPORT_THREADS_H
#define IOSTRATA_REPORT_THREADS_H

#include <stddef.h>
#include <stdio.h>

#include "results.h"

/* A run and the column (configuration) it belongs to. */
struct report_thr_in {
	const char *column;
	const struct ios_run *run; /* figures computed (report_recompute) */
	int replication;           /* the pool's size, 0 when unknown */
};

/*
 * Write both tables of [n] runs to [out]: per mode (seeds/001's names and
 * order: rndrd rndrw rndwr seqrd seqwr = randread randrw randwrite read
 * write) one row per thread count (the runs' rank counts) and one MiB/s
 * column per distinct column name; then per column one row per mode and
 * thread count: size, bytes/sec (MiB/s), req/sec, latency mean, p95 and
 * p99 in ms, valid/repetitions.  Runs of the same column and rank count
 * are averaged.  When the runs have more than one replication factor (a
 * campaign with [sweep] replication), every column is split by factor,
 * "NAME-rN", so runs on pools of different sizes are never averaged.
 */
void report_threads_print(FILE *out, const struct report_thr_in *in, size_t n);

/* `iostrata-report threads ARG...`: one column per ARG (a campaign
 * directory, a results file or a glob). */
int report_threads(int argc, char **argv);

#endif
