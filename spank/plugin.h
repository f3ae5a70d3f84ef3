/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plugin: state shared by the SPANK glue (plugin.c) and the per-context
 * files ctx_local.c (srun/sbatch/salloc), ctx_remote.c (slurmstepd),
 * ctx_slurmd.c (slurmd start) and ctx_job.c (job prolog/epilog).
 */
#ifndef IOSTRATA_PLUGIN_H
#define IOSTRATA_PLUGIN_H

#include <slurm/spank.h>

#include "policy.h"

#define PLUGIN_DEFAULT_STATE_DIR "/run/iostrata"
#ifndef IOSTRATA_SYSCONFDIR
#define IOSTRATA_SYSCONFDIR "/etc"
#endif
#define PLUGIN_DEFAULT_POLICY IOSTRATA_SYSCONFDIR "/iostrata/policy.conf"

/* Plugstack arguments: nodes=LIST state_dir=DIR policy=FILE. */
struct plugin_args {
	char nodes[1024];   /* comma list of fnmatch patterns; "" = none */
	char state_dir[1024];
	char policy[1024];
};

/* Options as seen by the option callbacks in this process. */
extern struct iostrata_req plugin_req;
extern int plugin_req_error; /* a callback rejected a value */

/*
 * Parse plugstack arguments.  Returns 0 or -EINVAL for an unknown key or
 * a bad value (plugin init then fails), message via log_err.
 */
int plugin_args_parse(int ac, char **av, struct plugin_args *a);

/* Is [node] enabled by the plugstack nodes= list? */
bool plugin_node_enabled(const struct plugin_args *a, const char *node);

/*
 * Ask slurmctld (through the libslurm already loaded in slurmd/slurmstepd,
 * looked up with dlsym: the plugin does not link -lslurm) ...
 * plugin_job_exclusive: 1 when [jobid] has an exclusive allocation, 0 when
 * not, negative errno when unknown.
 * plugin_drain_node: drain [node] with [reason]; 0 or negative errno.
 */
int plugin_job_exclusive(uint32_t jobid);
int plugin_drain_node(const char *node, const char *reason);

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
