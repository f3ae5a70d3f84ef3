/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options: the one table of spank_iostrata.so's job options (srun, sbatch,
 * salloc --iostrata-*) and plugstack.conf arguments.  The plugin registers
 * and reads the options from it, and spank-options prints it for the
 * spank_iostrata(8) manual page, so the page cannot drift from the plugin.
 */
#ifndef IOSTRATA_OPTIONS_H
#define IOSTRATA_OPTIONS_H

#include "args.h"
#include "policy.h"

/* X(enum req_opt, name without "--", argument, what it asks for) */
#define IOSTRATA_SPANK_OPTIONS(X)                                                    \
	X(REQ_CPUS, "iostrata-cpus", "N",                                            \
	  "CPUs to leave online on each storage node")                               \
	X(REQ_MEM, "iostrata-mem", "SIZE",                                           \
	  "memory to leave online on each storage node (e.g. 12G)")                  \
	X(REQ_DISK_BW, "iostrata-disk-bw", "RATE[,READ_RATE]",                       \
	  "throttle the storage disks to RATE (writes; reads too unless READ_RATE)") \
	X(REQ_DISK_IOPS, "iostrata-disk-iops", "N",                                  \
	  "throttle the storage disks to N read and N write IOPS")                   \
	X(REQ_PROFILE, "iostrata-profile", "NAME",                                   \
	  "a named node shape from the site policy")                                 \
	X(REQ_MDS_CPUS, "iostrata-mds-cpus", "N",                                    \
	  "CPU quota of the metadata server's cgroup, in CPUs (e.g. 0.5)")           \
	X(REQ_MDS_MEM, "iostrata-mds-mem", "SIZE",                                   \
	  "memory limit of the metadata server's cgroup")                            \
	X(REQ_MDS_CACHE, "iostrata-mds-cache", "SIZE",                               \
	  "the metadata server's mds_cache_memory_limit, set through the monitors")

/* X(key without "=", argument, what it sets) */
#define IOSTRATA_PLUGSTACK_ARGS(X)                                                               \
	X("nodes", "LIST",                                                                       \
	  "comma list of fnmatch patterns of the Slurm node names where the plugin acts [none]") \
	X("state_dir", "DIR",                                                                    \
	  "absolute directory of the journal and applied files [" PLUGIN_DEFAULT_STATE_DIR       \
	  "]")                                                                                   \
	X("policy", "FILE",                                                                      \
	  "absolute path of the site policy [" PLUGIN_DEFAULT_POLICY "]")

#endif
