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
		"Shape, restore and check a storage node as the SPANK plugin does.\n"
		"\n"
		"Commands:\n"
		"  status            print the node state (--json: the applied-file shape)\n"
		"  apply             shape the node as the prolog would (--cpus, --mem, ...)\n"
		"  restore           restore from the journals (--job ID, default all)\n"
		"  check             health check: drain the node when it is not whole, resume it when iostrata drained it (the default: HealthCheckProgram)\n"
		"\n"
		"Options:\n"
		"  --sysroot DIR     act below DIR instead of / (tests)\n"
		"  --state-dir DIR   journal and applied files (default /run/iostrata)\n"
		"  --policy FILE     site policy (default " IOSTRATA_SYSCONFDIR
		"/iostrata/policy.conf)\n"
		"  --node NAME       node name for records (default: SLURMD_NODENAME or host)\n"
		"  --json            status: JSON output\n"
		"  --no-drain        check: only report, never drain or resume the node\n"
		"  --job ID          apply/restore: job id (apply default \"admin\", restore default all)\n"
		"  --cpus N          apply: CPUs to leave online\n"
		"  --mem SIZE        apply: memory to leave online (e.g. 12G)\n"
		"  --disk-bw RATE[,READ]  apply: throttle the storage disks to RATE (writes; reads too unless READ)\n"
		"  --disk-iops N     apply: throttle the storage disks to N read and N write IOPS\n"
		"  --profile NAME    apply: a named node shape from the site policy\n"
		"  --mds-cpus N      apply: the MDS's CPU quota in CPUs (e.g. 0.5; policy mds =)\n"
		"  --mds-mem SIZE    apply: the MDS cgroup's memory limit\n"
		"  --mds-cache SIZE  apply: the MDS's mds_cache_memory_limit (through the monitors)\n"
		"  -v                more messages (repeat for more)\n"
		"  -h, --help        this text\n"
		"  --version         print the version\n"
		"\n"
		"Exit: 0 done (check: the node is whole), 1 failed (check: the node is not whole),\n"
		"2 bad usage, nothing requested, or the sysroot or state directory cannot be opened.\n");
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

/* The command line of iostrata-node. */
struct cli {
	const char *sysroot, *state_dir, *policy_path, *job, *node, *cmd;
	struct iostrata_req req;
	bool json, no_drain;
};

/* The options into [a] (and its request).  -1 to go on, else the exit
 * code (0 after --help, 2 bad option, said on stderr). */
static int parse_args(int argc, char **argv, struct cli *a)
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
		{"mds-cpus", required_argument, NULL, 'C'},
		{"mds-mem", required_argument, NULL, 'M'},
		{"mds-cache", required_argument, NULL, 'K'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	struct ios_err err;
	int verbose = LOG_LVL_INFO, o;

	ios_err_clear(&err);
	while ((o = getopt_long(argc, argv, "vh", opts, NULL)) != -1) {
		enum req_opt ro;

		switch (o) {
		case 'r':
			a->sysroot = optarg;
			continue;
		case 's':
			a->state_dir = optarg;
			continue;
		case 'p':
			a->policy_path = optarg;
			continue;
		case 'n':
			a->node = optarg;
			continue;
		case 'j':
			a->json = true;
			continue;
		case 'D':
			a->no_drain = true;
			continue;
		case 'J':
			a->job = optarg;
			continue;
		case 'v':
			log_use_cli("iostrata-node", ++verbose);
			continue;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("iostrata-node %s\n", PACKAGE_VERSION);
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
		case 'C':
			ro = REQ_MDS_CPUS;
			break;
		case 'M':
			ro = REQ_MDS_MEM;
			break;
		case 'K':
			ro = REQ_MDS_CACHE;
			break;
		default:
			usage(stderr);
			return 2;
		}
		if (req_parse_opt(&a->req, ro, optarg, &err) < 0) {
			fprintf(stderr, "%s\n", err.msg);
			return 2;
		}
	}
	return -1;
}

/* The command (none: "check", so the binary itself can be Slurm's
 * HealthCheckProgram, which takes no arguments), --job, and the node name
 * into c->node.  0, or 2 said on stderr. */
static int check_args(int argc, char **argv, struct cli *a, struct node_ctx *c)
{
	if (optind < argc - 1) {
		usage(stderr);
		return 2;
	}
	a->cmd = optind == argc ? "check" : argv[optind];
	if (strcmp(a->cmd, "status") && strcmp(a->cmd, "apply") &&
	    strcmp(a->cmd, "restore") && strcmp(a->cmd, "check")) {
		fprintf(stderr,
			"iostrata-node: unknown command \"%s\" (accepted: status, apply, restore, check)\n",
			a->cmd);
		return 2;
	}
	if (a->job && !state_valid_id(a->job)) {
		fprintf(stderr,
			"iostrata-node: --job: invalid id \"%s\" (letters, digits, '_', '-', '.')\n",
			a->job);
		return 2;
	}
	if (!a->node || !*a->node)
		a->node = "localhost";
	if (snprintf(c->node, sizeof(c->node), "%s", a->node) >=
	    (int)sizeof(c->node)) {
		fprintf(stderr,
			"iostrata-node: --node: name longer than %zu characters\n",
			sizeof(c->node) - 1);
		return 2;
	}
	return 0;
}

/* The policy (apply needs one; status and check work without, then no
 * throttles) and the state directory.  0, or 2 said on stderr. */
static int open_state(const struct cli *a, struct node_ctx *c,
		      struct policy **pol, struct ios_err *err)
{
	bool need_policy = strcmp(a->cmd, "apply") == 0 ||
			   access(a->policy_path, F_OK) == 0;
	int rc;

	if (need_policy) {
		rc = policy_load(a->policy_path, geteuid(), pol, err);
		if (rc < 0) {
			fprintf(stderr, "%s\n", err->msg);
			return 2;
		}
		c->pol = *pol;
	}
	rc = state_open(&c->sd, a->state_dir,
			strcmp(a->cmd, "apply") == 0 ||
				strcmp(a->cmd, "restore") == 0,
			err);
	if (rc < 0 && (strcmp(a->cmd, "apply") == 0 || rc != -ENOENT)) {
		fprintf(stderr, "%s\n", err->msg);
		return 2;
	}
	return 0;
}

/* Run the command; its exit code (1 failed, 2 nothing requested). */
static int run_cmd(struct cli *a, struct node_ctx *c, struct policy *pol,
		   struct ios_err *err)
{
	int rc;

	if (strcmp(a->cmd, "status") == 0) {
		if (a->json) {
			rc = node_status_json(c, stdout) < 0;
		} else {
			rc = node_check(c, err);
			node_status_json(c, stdout);
			rc = 0;
		}
	} else if (strcmp(a->cmd, "check") == 0) {
		rc = a->no_drain ? node_check(c, err) : health(c, err);
		if (rc < 0) {
			fprintf(stderr, "%s\n", err->msg);
			rc = 1;
		} else if (a->json) {
			printf("{\"whole\": true}\n");
		}
	} else if (strcmp(a->cmd, "restore") == 0) {
		rc = node_restore(c, a->job, err);
		if (rc < 0) {
			fprintf(stderr, "%s\n", err->msg);
			rc = 1;
		}
	} else {
		if (!req_any(&a->req)) {
			fprintf(stderr,
				"iostrata-node: apply: nothing requested (give --cpus, --mem, --disk-bw, --disk-iops, --mds-cpus, --mds-mem, --mds-cache or --profile)\n");
			return 2;
		}
		rc = policy_check_req(pol, &a->req, 0, err);
		if (rc == 0)
			rc = node_apply(c, a->job ? a->job : "admin",
					(unsigned)getuid(), &a->req, err);
		if (rc < 0) {
			fprintf(stderr, "%s\n", err->msg);
			rc = 1;
		}
	}
	return rc;
}

int main(int argc, char **argv)
{
	struct cli a = {
		.sysroot = "/",
		.state_dir = "/run/iostrata",
		.policy_path = IOSTRATA_SYSCONFDIR "/iostrata/policy.conf",
		.node = getenv("SLURMD_NODENAME"),
	};
	struct policy *pol = NULL;
	struct node_ctx c;
	struct ios_err err;
	int rc;

	memset(&c, 0, sizeof(c));
	ios_err_clear(&err);
	log_use_cli("iostrata-node", LOG_LVL_INFO);
	rc = parse_args(argc, argv, &a);
	if (rc >= 0)
		return rc;
	rc = check_args(argc, argv, &a, &c);
	if (rc)
		return rc;
	rc = sysfs_open(&c.fs, a.sysroot);
	if (rc < 0) {
		fprintf(stderr, "iostrata-node: open sysroot %s: %s\n",
			a.sysroot, strerror(-rc));
		return 2;
	}
	c.sd.dirfd = c.sd.jdirfd = -1;
	rc = open_state(&a, &c, &pol, &err);
	if (rc == 0)
		rc = run_cmd(&a, &c, pol, &err);
	state_close(&c.sd);
	sysfs_close(&c.fs);
	policy_free(pol);
	return rc;
}
