/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plugin: SPANK glue only.  Registers the options in every context, parses
 * the plugstack arguments, installs the SPANK log sink and dispatches each
 * callback on spank_context() to the ctx_*.c file for that context.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "options.h"
#include "plugin.h"

SPANK_PLUGIN(iostrata, 1);

struct iostrata_req plugin_req;
int plugin_req_error;

static struct plugin_args args;

static void spank_sink(enum log_level lvl, const char *msg, void *arg)
{
	(void)arg;
	switch (lvl) {
	case LOG_LVL_ERR:
		slurm_error("%s", msg);
		break;
	case LOG_LVL_USER:
		slurm_spank_log("%s", msg);
		break;
	case LOG_LVL_INFO:
		slurm_info("%s", msg);
		break;
	case LOG_LVL_VERBOSE:
		slurm_verbose("%s", msg);
		break;
	default:
		slurm_debug("%s", msg);
		break;
	}
}

/* Option callbacks may run twice with the same value (remote steps):
 * parsing just overwrites the same fields. */
static int opt_cb(int val, const char *optarg, int remote)
{
	struct ios_err err;

	ios_err_clear(&err);
	if (req_parse_opt(&plugin_req, (enum req_opt)val, optarg, &err) < 0) {
		plugin_req_error = 1;
		if (remote) {
			/* Failing here would drain the node; the prolog has
			 * already refused the value. */
			log_verbose("%s", err.msg);
			return 0;
		}
		log_err("%s", err.msg);
		return -1;
	}
	return 0;
}

#define SPANK_OPT(id, name, arg, what)                                         \
	{name, arg, "iostrata: " what, 1, id, opt_cb},
static struct spank_option opts[] = {
	IOSTRATA_SPANK_OPTIONS(SPANK_OPT) SPANK_OPTIONS_TABLE_END,
};

int slurm_spank_init(spank_t sp, int ac, char **av)
{
	log_set_sink(spank_sink, NULL);
	for (struct spank_option *o = opts; o->name; o++)
		if (spank_option_register(sp, o) != ESPANK_SUCCESS) {
			log_err("iostrata: register option --%s failed",
				o->name);
			return -1;
		}
	if (plugin_args_parse(ac, av, &args) < 0)
		return -1;
	if (spank_context() == S_CTX_SLURMD)
		return ctx_slurmd_init(sp, &args);
	return 0;
}

int slurm_spank_init_post_opt(spank_t sp, int ac, char **av)
{
	(void)ac;
	(void)av;
	switch (spank_context()) {
	case S_CTX_LOCAL:
	case S_CTX_ALLOCATOR:
		return ctx_local_post_opt(sp, &args);
	default:
		return 0;
	}
}

int slurm_spank_task_init_privileged(spank_t sp, int ac, char **av)
{
	(void)ac;
	(void)av;
	if (spank_context() != S_CTX_REMOTE)
		return 0;
	return ctx_remote_task_priv(sp, &args);
}

int slurm_spank_task_init(spank_t sp, int ac, char **av)
{
	(void)ac;
	(void)av;
	if (spank_context() != S_CTX_REMOTE)
		return 0;
	return ctx_remote_task_init(sp, &args);
}

/* Prolog and epilog: slurm_spank_init does not run before them, so the
 * plugstack arguments are parsed here. */
int slurm_spank_job_prolog(spank_t sp, int ac, char **av)
{
	log_set_sink(spank_sink, NULL);
	if (plugin_args_parse(ac, av, &args) < 0)
		return -1;
	return ctx_job_prolog(sp, &args);
}

int slurm_spank_job_epilog(spank_t sp, int ac, char **av)
{
	log_set_sink(spank_sink, NULL);
	if (plugin_args_parse(ac, av, &args) < 0)
		return -1;
	return ctx_job_epilog(sp, &args);
}
