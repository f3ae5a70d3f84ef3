/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * args: plugstack arguments (nodes=, state_dir=, policy=); an unknown
 * argument fails plugin init (pyxis), it is never just logged.
 */
#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "log.h"

int plugin_args_parse(int ac, char **av, struct plugin_args *a)
{
	memset(a, 0, sizeof(*a));
	snprintf(a->state_dir, sizeof(a->state_dir), "%s",
		 PLUGIN_DEFAULT_STATE_DIR);
	snprintf(a->policy, sizeof(a->policy), "%s", PLUGIN_DEFAULT_POLICY);
	for (int i = 0; i < ac; i++) {
		const char *eq = strchr(av[i], '=');
		char *dst;
		size_t dl;

		if (!eq) {
			log_err("iostrata: plugstack: unknown argument \"%s\" (accepted: nodes=LIST, state_dir=DIR, policy=FILE)",
				av[i]);
			return -EINVAL;
		}
		if (strncmp(av[i], "nodes=", 6) == 0) {
			dst = a->nodes;
			dl = sizeof(a->nodes);
		} else if (strncmp(av[i], "state_dir=", 10) == 0) {
			dst = a->state_dir;
			dl = sizeof(a->state_dir);
		} else if (strncmp(av[i], "policy=", 7) == 0) {
			dst = a->policy;
			dl = sizeof(a->policy);
		} else {
			log_err("iostrata: plugstack: unknown argument \"%s\" (accepted: nodes=LIST, state_dir=DIR, policy=FILE)",
				av[i]);
			return -EINVAL;
		}
		if (strlen(eq + 1) >= dl || !eq[1] ||
		    (dst != a->nodes && eq[1] != '/')) {
			log_err("iostrata: plugstack: invalid value in \"%s\" (paths must be absolute)",
				av[i]);
			return -EINVAL;
		}
		snprintf(dst, dl, "%s", eq + 1);
	}
	return 0;
}

bool plugin_node_enabled(const struct plugin_args *a, const char *node)
{
	char list[sizeof(a->nodes)], *save = NULL;

	if (!node || !*node)
		return false;
	snprintf(list, sizeof(list), "%s", a->nodes);
	for (char *t = strtok_r(list, ",", &save); t;
	     t = strtok_r(NULL, ",", &save))
		if (fnmatch(t, node, 0) == 0)
			return true;
	return false;
}
