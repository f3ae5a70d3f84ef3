// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * layers_run: `iostrata-bench --layers` (see layers_run.h, LAYERS.md).
 * Bottom to top, each layer with the same block size, size and runtime:
 * device (one rank per node, the posix backend in a directory on the OSDs'
 * filesystem, fio run alongside as a cross-check), network (netbench),
 * protocol (rados backend), full stack (posix on the CephFS mount, cephfs
 * backend).  Ceilings and the verdict come from layers.c.  The stages live
 * in the files layers_internal.h lists; this file runs them in order.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>

#include "layers_internal.h"
#include "layers_run.h"
#include "mb_exit.h"
#include "netbench.h"
#include "ownfile.h"
#include "runrec.h"
#include "watchdog.h"

static struct lctx *g_lc; /* for the watchdog handler */

static void on_watchdog(const char *stage, double seconds)
{
	fprintf(stderr,
		"iostrata-bench: watchdog: layered run stage \"%s\" took longer than %.0f s (a rank hung or died); aborting\n",
		stage, seconds);
	if (g_lc && g_lc->lr) {
		ios_runrec_status(&g_lc->lr->run,
				  mb_outcome_status(MB_OUTCOME_WATCHDOG));
		lrun_save(g_lc->lr);
	}
	MPI_Abort(MPI_COMM_WORLD, mb_outcome_exit(MB_OUTCOME_WATCHDOG));
	_exit(mb_outcome_exit(MB_OUTCOME_WATCHDOG));
}

int lyr_main(int argc, char **argv)
{
	struct lyr_opts o;
	struct mb_config cfg;
	struct ios_err err = {0};
	struct lctx c;
	struct lrun lr;
	struct ceph_facts facts = {0};
	int rc, exit_code = MB_EXIT_OK;

	memset(&c, 0, sizeof(c));
	memset(&lr, 0, sizeof(lr));
	MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
	rc = lyr_parse(argc, argv, &o, &cfg, &err);
	if (rc < 0) {
		if (c.rank == 0)
			fprintf(stderr, "iostrata-bench: %s\n", err.msg);
		return MB_EXIT_USAGE;
	}
	if (cfg.help) {
		if (c.rank == 0) {
			mb_config_usage(stdout);
			mb_outcome_usage(stdout);
			lyr_usage(stdout);
		}
		mb_config_free(&cfg);
		return MB_EXIT_OK;
	}
	MPI_Bcast(&cfg.seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	if (!cfg.keep) /* SIGTERM: remove the files this rank created */
		mb_own_cleanup_on_signal();
	c.o = &o;
	c.cfg = &cfg;
	for (int l = 0; l < LYR_NLAYERS; l++) {
		c.n.bw[l][0] = c.n.bw[l][1] = NAN;
		c.n.direct[l] = true;
	}
	c.fio_bw[0] = c.fio_bw[1] = NAN;
	c.mpi_bw[0] = c.mpi_bw[1] = NAN;

	rc = lrun_check_before_start(&c, &facts);
	if (rc == 0) {
		mb_watchdog_start(on_watchdog);
		rc = lrun_open_world(&c);
		if (rc)
			mb_watchdog_stop();
	}
	if (rc) {
		mb_config_free(&cfg);
		return rc;
	}
	g_lc = &c;
	lrun_count_nodes(&c, &facts);
	lrun_start_record(&c, &lr, &facts);

	/* 1. device: one rank per storage host, direct I/O, fio alongside */
	if (!o.skip[LYR_DEVICE]) {
		lrun_run_layer(&c, LYR_DEVICE, c.storage);
		if (strcmp(o.fio, "none"))
			lrun_device_fio(&c, c.devdir);
		nb_quiet_barrier(MPI_COMM_WORLD);
	}
	/* 2. network: storage <-> storage, client <-> storage */
	if (!o.skip[LYR_NETWORK])
		lrun_network(&c);
	/* 3. protocol: rados */
	if (!o.skip[LYR_PROTOCOL])
		lrun_run_layer(&c, LYR_PROTOCOL, c.clients);
	/* 4. full stack from the clients: posix on the mount, libcephfs */
	if (!o.skip[LYR_FULLSTACK])
		lrun_run_layer(&c, LYR_FULLSTACK, c.clients);
	if (!o.skip[LYR_FULLLIB])
		lrun_run_layer(&c, LYR_FULLLIB, c.clients);

	if (c.rank == 0)
		exit_code = lrun_conclude(&c);
	MPI_Bcast(&exit_code, 1, MPI_INT, 0, MPI_COMM_WORLD);
	g_lc = NULL;
	mb_watchdog_stop();
	if (c.rank == 0) {
		for (int i = 0; i < lr.run.nphases; i++)
			ios_phase_result_clear(&lr.run.phases[i]);
	}
	lrun_free_comms(&c);
	mb_world_free(c.w);
	mb_config_free(&cfg);
	return exit_code;
}
