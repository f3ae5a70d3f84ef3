/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_policy: the site policy loader (spank/policy.c policy_load).  The
 * input is the policy file, written to the scratch directory (the loader
 * takes a path and refuses a symlink, so no memfd); a policy that loads is
 * then used the way the prolog uses it: a request by each profile,
 * the user check and the memory slack.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_util.h"
#include "policy.h"

static void use_policy(const struct policy *p)
{
	struct ios_err err = {0};

	for (size_t i = 0; i <= p->n_profiles; i++) {
		struct iostrata_req req;

		memset(&req, 0, sizeof(req));
		if (i < p->n_profiles) {
			req.has_profile = true;
			snprintf(req.profile, sizeof(req.profile), "%s",
				 p->profiles[i].name);
		} else {
			req.has_cpus = req.has_mem = true;
			req.cpus = 2;
			req.mem = UINT64_C(1) << 30;
		}
		policy_check_req(p, &req, 8, &err);
		policy_mem_slack(p, req.mem);
	}
	/* policy.h: a percentage of the target, so within 0..100 */
	if (!(p->mem_tolerance_pct >= 0 && p->mem_tolerance_pct <= 100))
		abort();
	policy_check_user(p, 1000, "alice", "physics", &err);
	policy_check_user(p, 1000, NULL, NULL, &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ios_err err = {0};
	struct policy *p = NULL;
	const char *path = fuzz_write_file("policy.conf", data, size);
	int rc = policy_load(path, geteuid(), &p, &err);

	fuzz_note("policy_load", rc, err.msg);

	if (rc == 0) {
		if (!p)
			abort();
		use_policy(p);
		policy_free(p);
	} else if (p || !err.msg[0]) {
		abort();
	}
	return 0;
}
