/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iostrata-node: the admin face of the SPANK plugin, same code.
 *   status   print the node state (--json: the applied-file shape)
 *   apply    shape the node as the prolog would (--cpus, --mem, ...)
 *   restore  restore from journals (--job ID, default all)
 *   check    HealthCheckProgram: drain the node when it is not whole and
 *            no running job shaped it, resume it when we drained it and
 *            it is whole again (slurmd ignores the exit code); exit 1
 *            when not whole
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jobproc.h"
#include "log.h"
#include "node.h"
#include "policy.h"
#ifdef HAVE_LIBSLURM
#include "slurmapi.h"
#endif

#ifndef IOSTRATA_SYSCONFDIR
#define IOSTRATA_SYSCONFDIR "/etc"
#endif

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: iostrata-node [status|apply|restore|check] [options]\n"
		"  (no command: check, for HealthCheckProgram)\n"
		"  --sysroot DIR     act below DIR instead of / (tests)\n"
		"  --state-dir DIR   journal and applied files (default /run/iostrata)\n"
		"  --policy FILE     site policy (default " IOSTRATA_SYSCONFDIR
		"/iostrata/policy.conf)\n"
		"  --node NAME       node name for records (default: SLURMD_NODENAME or host)\n"
		"  --json            status: JSON output\n"
		"  --no-drain        check: only report, never drain or resume the node\n"
		"  --job ID          apply/restore: job id (apply default \"admin\", restore default all)\n"
		"  --cpus N --mem SIZE --disk-bw RATE[,READ] --disk-iops N --profile NAME\n"
		"  -v                more messages\n");
}

#ifdef HAVE_LIBSLURM
static int job_active(const char *jobid, void *arg, char *why, size_t len)
{
	return jobproc_alive(arg, jobid, slurmapi_job_active, why, len);
}

/* Slurm ignores a HealthCheckProgram's exit code: drain/resume here. */
static int health(struct node_ctx *c, struct ios_err *err)
{
	const struct node_slurm_ops ops = {
		.state = slurmapi_node_state,
		.drain = slurmapi_drain_node,
		.resume = slurmapi_resume_node,
		.alive = job_active,
		.alive_arg = &c->fs,
	};
	struct node_health_result res;
	int rc;

	slurmapi_init();
	rc = node_health(c, &ops, &res, err);
	if (rc < 0)
		return rc;
	if (res.busy) {
		log_info("iostrata: node %s: not judged now: %s", c->node,
			 res.why);
		return 0;
	}
	if (res.whole || res.shaped) {
		if (res.shaped)
			log_verbose(
				"iostrata: node %s shaped by a running job: %s",
				c->node, res.why);
		return 0;
	}
	return ios_errf(
		err, -EBUSY, "%s%s", res.why,
		res.drain == NODE_DRAINED_OTHER
			? " (drained or down for another reason: left as it is)"
		: res.act == NODE_HEALTH_DRAIN ? " (drained)"
					       : " (drained already)");
}
#else
/* Built without libslurm: report only. */
static int health(struct node_ctx *c, struct ios_err *err)
{
	int rc = node_check(c, err);

	if (rc < 0)
		log_err("iostrata-node: built without libslurm: cannot drain node %s (slurmd ignores this exit code)",
			c->node);
	return rc;
}
#endif

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"sysroot", required_argument, NULL, 'r'},
		{"state-dir", required_argument, NULL, 's'},
		{"policy", required_argument, NULL, 'p'},
		{"node", required_argument, NULL, 'n'},
		{"json", no_argument, NULL, 'j'},
		{"no-drain", no_argument, NULL, 'D'},
		{"job", required_argument, NULL, 'J'},
		{"cpus", required_argument, NULL, 'c'},
		{"mem", required_argument, NULL, 'm'},
		{"disk-bw", required_argument, NULL, 'b'},
		{"disk-iops", required_argument, NULL, 'i'},
		{"profile", required_argument, NULL, 'P'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *sysroot = "/", *state_dir = "/run/iostrata";
	const char *policy_path = IOSTRATA_SYSCONFDIR "/iostrata/policy.conf";
	const char *job = NULL, *cmd, *node = getenv("SLURMD_NODENAME");
	struct iostrata_req req;
	struct policy *pol = NULL;
	struct node_ctx c;
	struct ios_err err;
	bool json = false, need_policy, no_drain = false;
	int verbose = LOG_LVL_INFO, o, rc;

	memset(&req, 0, sizeof(req));
	memset(&c, 0, sizeof(c));
	ios_err_clear(&err);
	log_use_cli("iostrata-node", verbose);
	while ((o = getopt_long(argc, argv, "vh", opts, NULL)) != -1) {
		enum req_opt ro;

		switch (o) {
		case 'r':
			sysroot = optarg;
			continue;
		case 's':
			state_dir = optarg;
			continue;
		case 'p':
			policy_path = optarg;
			continue;
		case 'n':
			node = optarg;
			continue;
		case 'j':
			json = true;
			continue;
		case 'D':
			no_drain = true;
			continue;
		case 'J':
			job = optarg;
			continue;
		case 'v':
			log_use_cli("iostrata-node", ++verbose);
			continue;
		case 'h':
			usage(stdout);
			return 0;
		case 'c':
			ro = REQ_CPUS;
			break;
		case 'm':
			ro = REQ_MEM;
			break;
		case 'b':
			ro = REQ_DISK_BW;
			break;
		case 'i':
			ro = REQ_DISK_IOPS;
			break;
		case 'P':
			ro = REQ_PROFILE;
			break;
		default:
			usage(stderr);
			return 2;
		}
		if (req_parse_opt(&req, ro, optarg, &err) < 0) {
			fprintf(stderr, "%s\n", err.msg);
			return 2;
		}
	}
	/* No command: "check", so the binary itself can be Slurm's
	 * HealthCheckProgram (which takes no arguments). */
	if (optind < argc - 1) {
		usage(stderr);
		return 2;
	}
	cmd = optind == argc ? "check" : argv[optind];
	if (strcmp(cmd, "status") && strcmp(cmd, "apply") &&
	    strcmp(cmd, "restore") && strcmp(cmd, "check")) {
		fprintf(stderr,
			"iostrata-node: unknown command \"%s\" (accepted: status, apply, restore, check)\n",
			cmd);
		return 2;
	}
	if (job && !state_valid_id(job)) {
		fprintf(stderr,
			"iostrata-node: --job: invalid id \"%s\" (letters, digits, '_', '-', '.')\n",
			job);
		return 2;
	}
	if (!node || !*node)
		node = "localhost";
	if (snprintf(c.node, sizeof(c.node), "%s", node) >=
	    (int)sizeof(c.node)) {
		fprintf(stderr,
			"iostrata-node: --node: name longer than %zu characters\n",
			sizeof(c.node) - 1);
		return 2;
	}
	rc = sysfs_open(&c.fs, sysroot);
	if (rc < 0) {
		fprintf(stderr, "iostrata-node: open sysroot %s: %s\n", sysroot,
			strerror(-rc));
		return 2;
	}
	c.sd.dirfd = c.sd.jdirfd = -1;
	/* status and check work without a policy (then no throttles). */
	need_policy =
		strcmp(cmd, "apply") == 0 || access(policy_path, F_OK) == 0;
	if (need_policy) {
		rc = policy_load(policy_path, geteuid(), &pol, &err);
		if (rc < 0) {
			fprintf(stderr, "%s\n", err.msg);
			rc = 2;
			goto out;
		}
		c.pol = pol;
	}
	rc = state_open(
		&c.sd, state_dir,
		strcmp(cmd, "apply") == 0 || strcmp(cmd, "restore") == 0, &err);
	if (rc < 0 && (strcmp(cmd, "apply") == 0 || rc != -ENOENT)) {
		fprintf(stderr, "%s\n", err.msg);
		rc = 2;
		goto out;
	}
	if (strcmp(cmd, "status") == 0) {
		if (json) {
			rc = node_status_json(&c, stdout) < 0;
		} else {
			rc = node_check(&c, &err);
			node_status_json(&c, stdout);
			rc = 0;
		}
	} else if (strcmp(cmd, "check") == 0) {
		rc = no_drain ? node_check(&c, &err) : health(&c, &err);
		if (rc < 0) {
			fprintf(stderr, "%s\n", err.msg);
			rc = 1;
		} else if (json) {
			printf("{\"whole\": true}\n");
		}
	} else if (strcmp(cmd, "restore") == 0) {
		rc = node_restore(&c, job, &err);
		if (rc < 0) {
			fprintf(stderr, "%s\n", err.msg);
			rc = 1;
		}
	} else {
		if (!req_any(&req)) {
			fprintf(stderr,
				"iostrata-node: apply: nothing requested (give --cpus, --mem, --disk-bw, --disk-iops or --profile)\n");
			rc = 2;
			goto out;
		}
		rc = policy_check_req(pol, &req, 0, &err);
		if (rc == 0)
			rc = node_apply(&c, job ? job : "admin",
					(unsigned)getuid(), &req, &err);
		if (rc < 0) {
			fprintf(stderr, "%s\n", err.msg);
			rc = 1;
		}
	}
out:
	state_close(&c.sd);
	sysfs_close(&c.fs);
	policy_free(pol);
	return rc;
}
