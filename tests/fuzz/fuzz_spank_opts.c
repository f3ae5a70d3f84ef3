/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_spank_opts: the values of the SPANK options (--iostrata-cpus=,
 * --iostrata-mem=, --iostrata-disk-bw=, --iostrata-disk-iops=,
 * --iostrata-profile=, --iostrata-mds-cpus=, --iostrata-mds-mem=,
 * --iostrata-mds-cache=; spank/policy_req.c req_parse_opt) and the plugstack
 * arguments (spank/args.c).  The first byte picks the option; the text is
 * the value, and its lines are also the plugstack arguments.  Checks
 * policy.h's contract: a failure leaves the request as it was, a second
 * call with the same value gives the same request.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "fuzz_util.h"
#include "log.h"
#include "policy.h"

#define MAX_ARGS 16

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	log_set_sink(NULL, NULL); /* plugin_args_parse logs every refusal */
	return 0;
}

/* Field by field: struct assignment need not copy the padding. */
static bool req_equal(const struct iostrata_req *a,
		      const struct iostrata_req *b)
{
	return a->has_cpus == b->has_cpus && a->has_mem == b->has_mem &&
	       a->has_bw == b->has_bw && a->has_iops == b->has_iops &&
	       a->has_profile == b->has_profile && a->cpus == b->cpus &&
	       a->mem == b->mem && a->wbps == b->wbps && a->rbps == b->rbps &&
	       a->iops == b->iops && !strcmp(a->profile, b->profile) &&
	       !strcmp(a->raw_cpus, b->raw_cpus) &&
	       !strcmp(a->raw_mem, b->raw_mem) &&
	       !strcmp(a->raw_bw, b->raw_bw) &&
	       !strcmp(a->raw_iops, b->raw_iops) &&
	       a->has_mds_cpus == b->has_mds_cpus &&
	       a->has_mds_mem == b->has_mds_mem &&
	       a->has_mds_cache == b->has_mds_cache &&
	       a->mds_mcpus == b->mds_mcpus && a->mds_mem == b->mds_mem &&
	       a->mds_cache == b->mds_cache &&
	       !strcmp(a->raw_mds_cpus, b->raw_mds_cpus) &&
	       !strcmp(a->raw_mds_mem, b->raw_mds_mem) &&
	       !strcmp(a->raw_mds_cache, b->raw_mds_cache);
}

static void check_opt(enum req_opt opt, const char *val)
{
	struct iostrata_req req, before, again;
	struct ios_err err = {0};
	int rc;

	/* a request that already holds values, as after other options */
	memset(&req, 0, sizeof(req));
	req.has_cpus = true;
	req.cpus = 4;
	snprintf(req.raw_cpus, sizeof(req.raw_cpus), "4");
	before = req;
	rc = req_parse_opt(&req, opt, val, &err);
	fuzz_note("req_parse_opt", rc, err.msg);
	if (rc < 0) {
		if ((rc != -EINVAL && rc != -ERANGE) || !err.msg[0] ||
		    strncmp(err.msg, "iostrata: ", 10) != 0 ||
		    !req_equal(&req, &before))
			abort();
		return;
	}
	if (!req_any(&req))
		abort();
	again = req;
	if (req_parse_opt(&again, opt, val, &err) != 0 ||
	    !req_equal(&again, &req))
		abort();
}

static void check_args(char *text)
{
	struct plugin_args a;
	char *av[MAX_ARGS], *save = NULL;
	int ac = 0;

	for (char *t = strtok_r(text, "\n", &save); t && ac < MAX_ARGS;
	     t = strtok_r(NULL, "\n", &save))
		av[ac++] = t;
	if (plugin_args_parse(ac, av, &a) == 0) {
		if (a.state_dir[0] != '/' || a.policy[0] != '/')
			abort();
		plugin_node_enabled(&a, "n1");
		plugin_node_enabled(&a, "storage-17");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;

	if (size < 1)
		return 0;
	s = fuzz_strndup(data + 1, size - 1);
	check_opt((enum req_opt)(data[0] % REQ_N_OPTS), s);
	check_args(s);
	free(s);
	return 0;
}
