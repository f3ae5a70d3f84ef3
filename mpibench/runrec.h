/* SPDX-License-Identifier: GPL-2.0-or-later */
/* runrec: identity and node metadata of a run record (see runrec.c). */
#ifndef IOSTRATA_MB_RUNREC_H
#define IOSTRATA_MB_RUNREC_H

#include "phase.h"
#include "results.h"

/* A random UUID (kernel), or time-pid when unavailable.  Malloc'd. */
char *mb_run_id(void);

/* The current time in UTC, ISO 8601 ("2026-11-30T01:20:00Z").  Malloc'd. */
char *mb_now_utc(void);

/*
 * Gather every node's hardware JSON (collected by the node's first rank on
 * [dir]) to rank 0 of [w] into run->nnodes / run->node_json; nodes that
 * sent nothing get "{}".  Collective on w's communicator.
 */
void mb_gather_node_json(struct mb_world *w, const char *dir,
			 struct ios_run *run);

#endif
