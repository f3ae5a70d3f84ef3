/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plugin: state shared by the SPANK glue (plugin.c) and the per-context
 * files ctx_local.c (srun/sbatch/salloc), ctx_remote.c (slurmstepd),
 * ctx_slurmd.c (slurmd start) and ctx_job.c (job prolog/epilog).
 */
#ifndef IOSTRATA_PLUGIN_H
#define IOSTRATA_PLUGIN_H

#include <slurm/spank.h>

#include "args.h"
#include "policy.h"
#include "slurmapi.h"

/* Options as seen by the option callbacks in this process. */
extern struct iostrata_req plugin_req;
extern int plugin_req_error; /* a callback rejected a value */

/* Slurm node name of this slurmd/prolog ("" when unknown). */
void plugin_node_name(char *buf, size_t len);

/* Per-context entry points (return SPANK codes: 0 or -1). */
int ctx_local_post_opt(spank_t sp, const struct plugin_args *a);
int ctx_remote_task_priv(spank_t sp, const struct plugin_args *a);
int ctx_remote_task_init(spank_t sp, const struct plugin_args *a);
int ctx_slurmd_init(spank_t sp, const struct plugin_args *a);
int ctx_job_prolog(spank_t sp, const struct plugin_args *a);
int ctx_job_epilog(spank_t sp, const struct plugin_args *a);

#endif
