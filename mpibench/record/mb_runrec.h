/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mb_runrec: iostrata-bench's run record.  The configuration record
 * (config_record.c, no MPI) is the one list of options as they ran, written
 * for the plain run and, with the layered keys added, for the layered run
 * (layers_opts.c); the header comes from model/runrec.h.  runrec.c gathers
 * the nodes' hardware metadata (MPI).
 */
#ifndef IOSTRATA_MB_RUNREC_H
#define IOSTRATA_MB_RUNREC_H

#include "mb_config.h"
#include "results.h"

struct mb_world;

/*
 * Append the configuration [cfg] runs with to run->config, one key per
 * option under its --help name, as resolved (defaults filled in): rw,
 * rwmixread, bs, size, dir, iodepth, iodepth_batch, ioengine, backend,
 * runtime, reps, interval, output, reorder, fsync, verify, keep, seed,
 * direct, allow_device, force, then the backend options given and the
 * defaults of the backend's options not given.  0 or -ENOMEM.
 */
int mb_runrec_config(struct ios_run *run, const struct mb_config *cfg);

/*
 * Start the record of a plain run: the header (ios_runrec_header, tool
 * iostrata-bench, cfg's command line) and mb_runrec_config.  0 or -ENOMEM.
 */
int mb_runrec_start(struct ios_run *run, const struct mb_config *cfg);

/*
 * Gather every node's host record (ios_hw_host_json, collected by the
 * node's first rank on [cfg]->dir, with the MPI library's version) to
 * rank 0 of [w] into run->nnodes / run->node_json (nodes that sent nothing
 * get "{}"), and the host records: those plus cfg's --host-facts files
 * (made on hosts without ranks: the storage hosts of a sweep), one per
 * host, into run->nhosts / run->host_json.  A --host-facts file that
 * cannot be read or is not a host record is left out with a message on
 * stderr.  Collective on w's communicator.
 */
/*
 * The text of [path], at most 64 MiB, malloc'd; NULL with [err] naming
 * [opt] and the file ("--attach: open \"x\": No such file or directory").
 */
char *mb_read_text(const char *opt, const char *path, struct ios_err *err);

void mb_gather_node_json(struct mb_world *w, const struct mb_config *cfg,
			 struct ios_run *run);

#endif
