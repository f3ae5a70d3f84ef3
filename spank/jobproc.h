/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobproc: is a Slurm job still running on this node?  The local signal:
 * a slurmstepd of the job in <root>/proc (they survive a slurmd restart).
 * Slurm-free, so the unit tests run it on a fake /proc.
 */
#ifndef IOSTRATA_JOBPROC_H
#define IOSTRATA_JOBPROC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "sysfs.h"

/*
 * Look for a slurmstepd of [jobid] below [fs]: a process whose comm is
 * "slurmstepd", whose real uid is 0 (a user cannot fake it) and whose
 * title is "slurmstepd: [<jobid>.<step>]".  Returns 1 (and *pid), 0 when
 * there is none, or a negative errno when <root>/proc cannot be read.
 */
int jobproc_find_stepd(const struct sysfs *fs, const char *jobid, pid_t *pid);

/* Ask slurmctld: 1 running, 0 ended, negative errno cannot tell. */
typedef int (*jobproc_ctl_fn)(uint32_t jobid, char *why, size_t len);

/*
 * Does [jobid] still run on this node (the node_job_alive_fn of slurmd
 * start)?  A root slurmstepd of the job here: 1.  None here does not prove
 * the job ended (a storage node of a multi-node job may have no step
 * right now), so then [ctl] decides: 1, 0, or negative (cannot tell: the
 * caller keeps the journal).  A job id that is not a number is not a
 * Slurm job (iostrata-node apply): 0.  [why] gets the reason.
 */
int jobproc_alive(const struct sysfs *fs, const char *jobid, jobproc_ctl_fn ctl,
		  char *why, size_t len);

#endif
