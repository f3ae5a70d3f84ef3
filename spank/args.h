/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * args: the plugstack.conf arguments of spank_iostrata.so, parsed without
 * Slurm so the unit tests cover them.
 */
#ifndef IOSTRATA_ARGS_H
#define IOSTRATA_ARGS_H

#include <stdbool.h>

#define PLUGIN_DEFAULT_STATE_DIR "/run/iostrata"
#ifndef IOSTRATA_SYSCONFDIR
#define IOSTRATA_SYSCONFDIR "/etc"
#endif
#define PLUGIN_DEFAULT_POLICY IOSTRATA_SYSCONFDIR "/iostrata/policy.conf"

/* Plugstack arguments: nodes=LIST state_dir=DIR policy=FILE. */
struct plugin_args {
	char nodes[1024]; /* comma list of fnmatch patterns; "" = none */
	char state_dir[1024];
	char policy[1024];
};

/*
 * Parse plugstack arguments.  Returns 0 or -EINVAL for an unknown key or
 * a bad value (plugin init then fails), message via log_err.
 */
int plugin_args_parse(int ac, char **av, struct plugin_args *a);

/* Is [node] enabled by the plugstack nodes= list? */
bool plugin_node_enabled(const struct plugin_args *a, const char *node);

#endif
