/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runrec: the part of the run record that needs MPI: every node's hardware
 * metadata gathered to rank 0 (mb_runrec.h), for the plain and the layered
 * run.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h5out.h"
#include "mb_runrec.h"
#include "phase.h"

/* Gather every node's hardware JSON (from its first rank) to rank 0. */
void mb_gather_node_json(struct mb_world *w, const char *dir,
			 struct ios_run *run)
{
	char *mine = NULL;
	int len = 0, *lens = NULL, *disp = NULL, total = 0, k;
	char *all = NULL;

	if (w->node_rank == 0) {
		mine = mb_hw_node_json(dir);
		len = mine ? (int)strlen(mine) + 1 : 0;
	}
	if (w->rank == 0) {
		lens = calloc((size_t)w->nranks, sizeof(int));
		disp = calloc((size_t)w->nranks, sizeof(int));
	}
	MPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, w->comm);
	if (w->rank == 0) {
		for (k = 0; k < w->nranks; k++) {
			disp[k] = total;
			total += lens[k];
		}
		all = calloc((size_t)total + 1, 1);
	}
	MPI_Gatherv(mine, len, MPI_CHAR, all, lens, disp, MPI_CHAR, 0, w->comm);
	if (w->rank == 0) {
		run->nnodes = w->nnodes;
		run->node_json = calloc((size_t)w->nnodes, sizeof(char *));
		for (k = 0; k < w->nranks && run->node_json; k++) {
			int nd = w->ri[k].node;

			if (lens[k] && nd >= 0 && nd < w->nnodes &&
			    !run->node_json[nd])
				run->node_json[nd] = strdup(all + disp[k]);
		}
		for (k = 0; run->node_json && k < w->nnodes; k++)
			if (!run->node_json[k])
				run->node_json[k] = strdup("{}");
	}
	free(mine);
	free(lens);
	free(disp);
	free(all);
}
