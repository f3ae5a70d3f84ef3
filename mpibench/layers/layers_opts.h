/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * layers_opts: the options of a layered run (`iostrata-bench --layers`,
 * LAYERS.md), the configuration each layer runs with, and the layered
 * run's record.  No MPI: the unit tests drive it.
 */
#ifndef IOSTRATA_LAYERS_OPTS_H
#define IOSTRATA_LAYERS_OPTS_H

#include <stdbool.h>
#include <stdio.h>

#include "errbuf.h"
#include "layers.h"
#include "mb_config.h"
#include "netbench_opts.h"
#include "results.h"

/* What the layered run is told besides iostrata-bench's own options. */
struct lyr_opts {
	bool skip[LYR_NLAYERS];
	const char *device_dir; /* pattern: %n node index, %h node name */
	const char *fio;        /* fio binary, or "none" */
	struct nb_opts net;
	const char *cephfs_dir; /* libcephfs layer: path inside CephFS */
	/* --layers-storage-nodes: hostlist of the storage hosts (the rest
	 * are clients); NULL: from the het job, else unknown */
	const char *storage_nodes;
	int osds; /* 0: ask the cluster */
	double tolerance;
	/* Ceph options handed to the rados and cephfs backends (also in
	 * the common configuration's backend options) */
	int nceph;
	struct mb_bopt ceph[8];
};

/* True when argv asks for a layered run (--layers). */
bool lyr_requested(int argc, char **argv);

/* Print the layered options to [f] (part of --help). */
void lyr_usage(FILE *f);

/*
 * Parse a layered run's argv: the layered options into [o], the rest with
 * mb_config_parse into [cfg], the common configuration of every layer:
 * patterns write then read, the Ceph options as backend options, backend
 * posix with --dir (the full stack's), else null; command_line is argv as
 * given.  [o] points into argv.  Returns 0, or -EINVAL / -ENOMEM with
 * [err] naming the option ([cfg] then released).
 */
int lyr_parse(int argc, char **argv, struct lyr_opts *o, struct mb_config *cfg,
	      struct ios_err *err);

/*
 * The configuration layer [layer] runs with: [cfg] with the layer's
 * backend, directory, direct I/O, queue depth and read order (device:
 * posix in [devdir], direct; protocol: rados, direct; fullstack: posix in
 * --dir; fullstack-lib: cephfs in --cephfs-dir at queue depth 1; the full
 * stack reads another node's file when [nnodes] > 1).  [out] shares cfg's
 * strings: do not free it.  iodepth_batch is at most the layer's iodepth.
 * The network layer gets cfg unchanged (it runs no phase).
 */
void lyr_layer_config(const struct mb_config *cfg, const struct lyr_opts *o,
		      int layer, const char *devdir, int nnodes,
		      struct mb_config *out);

/*
 * Start the record of a layered run: the header (ios_runrec_header, as the
 * plain run), "layers" = 1, the common configuration (mb_runrec_config:
 * the plain run's keys), then the layered keys of LAYERS.md: the options
 * (layers.device_dir, layers.cephfs_dir, layers.fio, layers.skip,
 * layers.net_msg, layers.net_streams, layers.net_time), the numbers the
 * ceilings use from [n] (layers.replicas, layers.fs_replicas, layers.osds,
 * layers.device_ranks, layers.storage_nodes, layers.one_host; omitted when
 * [n] is NULL: a run that did not start), layers.tolerance, and for every
 * layer that runs a phase, what differs per layer: layers.<layer>.backend,
 * .dir, .direct, .iodepth, .iodepth_batch, .reorder, and the defaults of
 * its backend's options not given (ceph-id, ceph-timeout, ... under their
 * own names, as the plain run records them).  0 or -ENOMEM.
 */
int lyr_runrec_start(struct ios_run *run, const struct mb_config *cfg,
		     const struct lyr_opts *o, const struct lyr_numbers *n);

#endif
