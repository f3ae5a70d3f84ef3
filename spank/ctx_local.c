/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ctx_local: srun (S_CTX_LOCAL) and sbatch/salloc (S_CTX_ALLOCATOR).
 * Validates the options at submit time so a bad value fails the command
 * with a clear message before anything is queued.  Syntax was checked by
 * the option callbacks; here the site policy (when readable on the submit
 * host) adds bounds and profiles.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "log.h"
#include "plugin.h"

int ctx_local_post_opt(spank_t sp, const struct plugin_args *a)
{
	struct iostrata_req req = plugin_req;
	struct policy *pol = NULL;
	struct ios_err err;
	int rc;

	(void)sp;
	if (plugin_req_error)
		return -1;
	if (!req_any(&req))
		return 0;
	ios_err_clear(&err);
	rc = policy_load(a->policy, 0, &pol, &err);
	if (rc == -ENOENT || rc == -EACCES) {
		/* Not on this host or not readable: the prolog checks. */
		log_verbose(
			"iostrata: policy %s not readable here: bounds checked on the node",
			a->policy);
		return 0;
	}
	if (rc < 0) {
		log_err("%s", err.msg);
		return -1;
	}
	rc = policy_check_req(pol, &req, 0, &err);
	policy_free(pol);
	if (rc < 0) {
		log_err("%s", err.msg);
		return -1;
	}
	return 0;
}
