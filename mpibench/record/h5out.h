/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * h5out: the one place iostrata-bench calls the results area (writer and
 * hardware metadata, h5schema/h5run.h and hwinfo.h).  iostrata-bench is
 * built only with them (configure: HDF5): without a results writer a run
 * could not record anything.
 */
#ifndef IOSTRATA_MB_H5OUT_H
#define IOSTRATA_MB_H5OUT_H

#include "errbuf.h"
#include "results.h"

/*
 * Write [run] to [path] (temp, fsync, rename).  0 or -errno ([err]).
 * After a successful write the latency histograms of every repetition are
 * dropped from [run] (lat_hist_in_file): the next write of [path] copies
 * them from the file, so rank 0 holds one repetition's, not the run's.
 */
int mb_h5_write(const char *path, struct ios_run *run, struct ios_err *err);
/*
 * Malloc'd JSON: this node / the Slurm job / Ceph (NULL when none).  The
 * Ceph facts connect with [ceph] (mb_ceph_opts(): the run's --ceph-*
 * options), see ios_hw_ceph_json().
 */
struct ios_ceph_opts;
char *mb_hw_node_json(const char *target_dir);
/* This host's record (hwinfo.h ios_hw_host_json) with [mpi_library] and
 * the MPI_T control variables [mpit] (NULL: none read); [fs_client] a
 * client that is no mount ("libcephfs"), NULL: the mount of target_dir. */
struct mb_mpit;
char *mb_hw_host_json(const char *target_dir, const char *fs_client,
		      const char *mpi_library, const struct mb_mpit *mpit);
/* One record per host (hwinfo.h ios_hw_hosts_merge). */
int mb_hw_hosts_merge(char *const *nodes, int nnodes, char *const *extra,
		      const char *const *extra_names, int nextra, char ***out,
		      char *msg, size_t msglen);
char *mb_hw_job_json(void);
char *mb_hw_ceph_json(const struct ios_ceph_opts *ceph, const char *target_dir);

#endif
