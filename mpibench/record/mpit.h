/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mpit: the MPI tool interface's control variables that say which
 * transport was requested (pml, btl, mtl, mpi_add_procs_cutoff), for the
 * host record's mpi_transport (hwinfo.h).
 */
#ifndef IOSTRATA_MB_MPIT_H
#define IOSTRATA_MB_MPIT_H

#include "hwinfo.h"

#define MB_MPIT_NCVARS 4

struct mb_mpit {
	struct ios_hw_mpi_cvar cv[MB_MPIT_NCVARS];
	char val[MB_MPIT_NCVARS][512];
	char why[MB_MPIT_NCVARS][160];
	char t_why[160]; /* why none were read ("" when they were) */
	int ok;          /* cv[] filled (each with a value or why not) */
};

/*
 * Read the control variables into [m] through MPI_T (its own
 * MPI_T_init_thread and MPI_T_finalize; no communication, so it may run
 * on one rank).  Call after MPI_Init and outside any measurement.  A
 * variable this MPI does not have, or of a type not read, is NULL with
 * its why; MPI_T not usable: m->ok 0 and m->t_why says why.
 */
void mb_mpit_read(struct mb_mpit *m);

#endif
