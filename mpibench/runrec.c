/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runrec: the identity and node metadata of a run record, shared by the
 * plain run (main.c) and the layered run (layers_run.c).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "h5out.h"
#include "runrec.h"

char *mb_run_id(void)
{
	char buf[64] = "";
	FILE *f = fopen("/proc/sys/kernel/random/uuid", "re");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
	if (!buf[0])
		snprintf(buf, sizeof(buf), "%08lx-%04x", (long)time(NULL),
			 (unsigned)getpid() & 0xffff);
	return strdup(buf);
}

char *mb_now_utc(void)
{
	char buf[64];
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return strdup(buf);
}

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
