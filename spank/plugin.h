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

/* Options as seen by the option callbacks in this process. */
extern struct iostrata_req plugin_req;
extern int plugin_req_error; /* a callback rejected a value */

/*
 * Ask slurmctld (through the libslurm already loaded in slurmd/slurmstepd,
 * looked up with dlsym: the plugin does not link -lslurm) ...
 * plugin_job_exclusive: 1 when [jobid] has an exclusive allocation, 0 when
 * not, negative errno when unknown.
 * plugin_drain_node: drain [node] with [reason]; 0 or negative errno.
 */
int plugin_job_exclusive(uint32_t jobid);
int plugin_drain_node(const char *node, const char *reason);
/*
 * plugin_job_running: 1 when slurmctld says [jobid] runs (or is
 * suspended) and is not completing, 0 when it ended, is completing, is
 * pending again or is unknown to slurmctld, negative errno when slurmctld
 * cannot be asked; [why] gets the reason.
 */
int plugin_job_running(uint32_t jobid, char *why, size_t len);

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
