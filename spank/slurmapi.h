/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * slurmapi: the few slurmctld calls the plugin and iostrata-node make.
 * The plugin resolves libslurm at run time from slurmd/slurmstepd (dlsym:
 * a SPANK plugin must not link -lslurm); iostrata-node links it
 * (SLURMAPI_LINKED, where configure found libslurm).  Errors are negative
 * errno values; [why]/[reason] buffers get Slurm's words.
 */
#ifndef IOSTRATA_SLURMAPI_H
#define IOSTRATA_SLURMAPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Load slurm.conf once (iostrata-node; a no-op in the plugin). */
void slurmapi_init(void);

/* 1 when [jobid] has an exclusive allocation, 0 when not, negative errno
 * when unknown. */
int slurmapi_job_exclusive(uint32_t jobid);

/*
 * 1 when slurmctld says [jobid] runs (or is suspended) and is not
 * completing, 0 when it ended, is completing, is pending again or is
 * unknown to slurmctld, negative errno when slurmctld cannot be asked.
 * With [completing_runs], a completing job counts as running (its epilog
 * is still to come or under way: the health check must not drain for it).
 */
int slurmapi_job_running(uint32_t jobid, bool completing_runs, char *why,
			 size_t len);
/* The jobproc_ctl_fn of slurmd start (a completing job has ended) and of
 * the health check (a completing job still runs). */
int slurmapi_job_runs(uint32_t jobid, char *why, size_t len);
int slurmapi_job_active(uint32_t jobid, char *why, size_t len);

/* Drain [node] with [reason] / resume it.  0 or negative errno (-ENOSYS:
 * no libslurm; -EIO: slurmctld refused, [why] says why). */
int slurmapi_drain_node(const char *node, const char *reason);
int slurmapi_resume_node(const char *node, char *why, size_t len);

/* What slurmctld says of [node]: drain flag, base state DOWN, the reason
 * (cut to [len]).  0 or negative errno ([why] says why). */
int slurmapi_node_state(const char *node, bool *drain, bool *down, char *reason,
			size_t len, char *why, size_t wlen);

#endif
