/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * layers_internal: what the files of the layered run share (layers_run.h
 * is its interface).  The run's stages, bottom to top:
 *   layers_ceph.c    Ceph preflight and facts (rank 0, before any I/O)
 *   layers_roles.c   ranks, nodes, roles, communicators, the run record
 *   layers_phase.c   one layer's write and read phases, booked on rank 0
 *   layers_device.c  the device directory, fio alongside the device layer
 *   layers_net.c     the network layer (netbench)
 *   layers_print.c   the /layers rows, the verdict, the table on stdout
 *   layers_run.c     lyr_main: the stages in order, the watchdog
 */
#ifndef IOSTRATA_LAYERS_INTERNAL_H
#define IOSTRATA_LAYERS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include <mpi.h>

#include "ceph_conn.h"
#include "errbuf.h"
#include "layers.h"
#include "layers_opts.h"
#include "mb_config.h"
#include "phase.h"
#include "results.h"

/* MPI tags of a phase shipped to world rank 0 (+0 .. +2), and of the
 * device layer's fio numbers (+3). */
#define LRUN_TAG_PHASE 0x4c00

/* ---- Ceph facts (rank 0, before any I/O) -------------------------- */

struct ceph_facts {
	int pool_size;
	int fs_size;
	int osds_up;
	int osd_hosts; /* hosts with an OSD (osd metadata), 0 unknown */
	char osds_per_host[512]; /* "s1=1,s2=1,s3=1" */
};
struct lrun {
	struct ios_run run;
	const char *output;
	int cap_phases;
};

/* ---- layers ------------------------------------------------------- */

struct lctx {
	struct lyr_opts *o;
	const struct mb_config *cfg; /* parsed common options */
	int rank;                    /* in MPI_COMM_WORLD */
	/* what each layer runs (lyr_layer_config); device: this node's dir */
	struct mb_config lcfg[LYR_NLAYERS];
	char devdir[4096];
	struct mb_world *w;
	MPI_Comm leaders; /* one rank per node; MPI_COMM_NULL elsewhere */
	/* Roles (lyr_role_of): the same source on every rank */
	int role;                 /* enum lyr_role of this rank */
	enum lyr_roles_from from; /* where the roles came from */
	MPI_Comm storage; /* device: one rank per storage host, or NULL */
	MPI_Comm clients; /* protocol, full stack: the client ranks, or NULL */
	int *lead_roles;  /* [leaders] the role of each leader (leaders) */
	int *rank_roles;  /* [nranks] the role of every rank (rank 0) */
	struct lrun *lr;  /* rank 0 only */
	struct lyr_numbers n;
	char note[LYR_NLAYERS][256];
	char source[LYR_NLAYERS][32];
	bool failed;  /* a layer could not run (MB_EXIT_FAILED) */
	bool invalid; /* a layer's repetition is invalid (MB_EXIT_INVALID) */
	double fio_bw[2];
	double mpi_bw[2]; /* the network layer by MPI point-to-point */
};

/* layers_ceph.c */

/* The last --ceph-* option [name] (e.g. "rados-pool"), or NULL. */
const char *lrun_ceph_opt(const struct lyr_opts *o, const char *name);
int lrun_ceph_opts(const struct lctx *c, struct ios_ceph_opts *co,
		   struct ios_err *err);
int lrun_check_before_start(struct lctx *c, struct ceph_facts *facts);

/* layers_phase.c */

int lrun_save(struct lrun *lr);
void lrun_save_invalid(const struct mb_config *cfg, const struct lyr_opts *o,
		       const struct ios_err *e);
int lrun_quiet_recv(void *buf, int count, MPI_Datatype type, int src, int tag);
void lrun_run_layer(struct lctx *c, int layer, MPI_Comm comm);

/* layers_device.c */

void lrun_device_dir(const char *pat, int node, const char *host, char *out,
		     size_t len);
void lrun_device_fio(struct lctx *c, const char *dir);

/* layers_roles.c */

void lrun_free_comms(struct lctx *c);
int lrun_open_world(struct lctx *c);
void lrun_count_nodes(struct lctx *c, const struct ceph_facts *facts);
void lrun_start_record(struct lctx *c, struct lrun *lr,
		       const struct ceph_facts *facts);

/* layers_net.c */

void lrun_network(struct lctx *c);

/* layers_print.c */

int lrun_conclude(struct lctx *c);

#endif
