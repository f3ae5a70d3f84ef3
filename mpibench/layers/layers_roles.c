// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * layers_roles: the ranks, nodes and roles of the layered run (storage
 * hosts and clients, from --layers-storage-nodes or the heterogeneous
 * job), the communicators of the layers, each layer's configuration and
 * target check, and the run record with who ran which layer.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>

#include "h5out.h"
#include "layers_internal.h"
#include "mb_exit.h"
#include "mb_runrec.h"
#include "runrec.h"
#include "watchdog.h"

/* The communicators and role tables of lrun_open_world. */
void lrun_free_comms(struct lctx *c)
{
	MPI_Comm *cs[] = {&c->leaders, &c->storage, &c->clients};

	for (size_t i = 0; i < sizeof(cs) / sizeof(cs[0]); i++)
		if (*cs[i] != MPI_COMM_NULL)
			MPI_Comm_free(cs[i]);
	free(c->lead_roles);
	free(c->rank_roles);
	c->lead_roles = c->rank_roles = NULL;
}

static const char *env_get(const char *name, void *arg)
{
	(void)arg;
	return getenv(name);
}

/*
 * Each rank's role (lyr_role_of, from --layers-storage-nodes or the het
 * job), the same source on every rank, at least one storage host and one
 * client when known.  0, or -EINVAL with a message on rank 0 (every rank
 * returns it).
 */
static int decide_roles(struct lctx *c)
{
	const char *hs = getenv("SLURM_HET_SIZE");
	struct lyr_role_in in = {
		.storage_nodes = c->o->storage_nodes,
		.host = c->w->host,
		.het_size = hs && *hs ? atoi(hs) : 0,
		.het_group = -1,
	};
	struct ios_err err = {0};
	int role, v[4], lo[4], hi[4];

	if (in.het_size > 0)
		in.het_group =
			lyr_het_group(in.het_size, c->w->host, env_get, NULL);
	role = lyr_role_of(&in, &c->from, &err);
	if (role < 0)
		fprintf(stderr, "iostrata-bench: rank %d: %s\n", c->rank,
			err.msg);
	v[0] = role < 0;
	v[1] = (int)c->from;
	v[2] = role == LYR_ROLE_STORAGE && c->w->node_rank == 0;
	v[3] = role == LYR_ROLE_CLIENT;
	MPI_Allreduce(v, hi, 4, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	MPI_Allreduce(v, lo, 4, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	if (hi[0])
		return -EINVAL;
	if (lo[1] != hi[1]) {
		if (c->rank == 0)
			fprintf(stderr,
				"iostrata-bench: layers: roles: the ranks disagree on where the roles come from (some see a heterogeneous job, some not)\n");
		return -EINVAL;
	}
	if (c->from != LYR_ROLES_UNKNOWN && (!hi[2] || !hi[3])) {
		if (c->rank == 0)
			fprintf(stderr,
				"iostrata-bench: layers: roles (from %s): no %s: the layered run needs storage hosts and clients (--layers-storage-nodes=\"%s\")\n",
				lyr_roles_from_names[c->from],
				hi[2] ? "client rank" : "storage host",
				c->o->storage_nodes ? c->o->storage_nodes : "");
		return -EINVAL;
	}
	c->role = role;
	return 0;
}

/*
 * Ranks, nodes, roles, the communicators of the layers (node leaders for
 * the network, storage hosts for the device, clients for the rest) and
 * each layer's configuration; then the posix targets (device dirs, the
 * CephFS mount) exist and take our files, on the ranks that use them,
 * before anything is written.  0, or MB_EXIT_USAGE on every rank (c->w and
 * the communicators released).
 */
int lrun_open_world(struct lctx *c)
{
	const struct lyr_opts *o = c->o;
	struct ios_err err = {0};
	int rc, bad, anybad = 0, nstor = 0, sidx = -1, nclient_nodes = 0;

	mb_watchdog_arm(120.0, "start-up");
	rc = mb_world_create(MPI_COMM_WORLD, &c->w, &err);
	if (rc < 0) {
		fprintf(stderr, "iostrata-bench: rank %d: %s\n", c->rank,
			err.msg);
		MPI_Abort(MPI_COMM_WORLD, MB_EXIT_FAILED);
	}
	mb_watchdog_disarm();
	c->storage = c->clients = MPI_COMM_NULL;
	MPI_Comm_split(MPI_COMM_WORLD, c->w->node_rank == 0 ? 0 : MPI_UNDEFINED,
		       c->w->node, &c->leaders);
	rc = decide_roles(c);
	if (rc == 0) {
		MPI_Comm_split(MPI_COMM_WORLD,
			       c->w->node_rank == 0 &&
					       c->role != LYR_ROLE_CLIENT
				       ? 0
				       : MPI_UNDEFINED,
			       c->w->node, &c->storage);
		MPI_Comm_split(MPI_COMM_WORLD,
			       c->role != LYR_ROLE_STORAGE ? 0 : MPI_UNDEFINED,
			       c->rank, &c->clients);
		if (c->storage != MPI_COMM_NULL) {
			MPI_Comm_rank(c->storage, &sidx);
			MPI_Comm_size(c->storage, &nstor);
		}
		/* every rank: the device targets and the client hosts */
		{
			int v[2] = {sidx == 0 ? nstor : 0,
				    c->w->node_rank == 0 &&
					    c->role != LYR_ROLE_STORAGE},
			    sum[2];

			MPI_Allreduce(v, sum, 2, MPI_INT, MPI_SUM,
				      MPI_COMM_WORLD);
			nstor = sum[0];
			nclient_nodes = sum[1];
		}
		c->n.roles_known = c->from != LYR_ROLES_UNKNOWN;
		c->n.device_ranks = nstor;
		c->n.storage_nodes = nstor;
		c->n.clients = c->n.roles_known ? nclient_nodes : 0;
		if (c->leaders != MPI_COMM_NULL) {
			int nl;

			MPI_Comm_size(c->leaders, &nl);
			c->lead_roles = calloc((size_t)nl, sizeof(int));
			if (!c->lead_roles)
				MPI_Abort(MPI_COMM_WORLD, MB_EXIT_FAILED);
			MPI_Allgather(&c->role, 1, MPI_INT, c->lead_roles, 1,
				      MPI_INT, c->leaders);
		}
		if (c->rank == 0) {
			c->rank_roles =
				calloc((size_t)c->w->nranks, sizeof(int));
			if (!c->rank_roles)
				MPI_Abort(MPI_COMM_WORLD, MB_EXIT_FAILED);
		}
		MPI_Gather(&c->role, 1, MPI_INT, c->rank_roles, 1, MPI_INT, 0,
			   MPI_COMM_WORLD);
	}
	if (rc == 0 && !o->skip[LYR_DEVICE] && sidx >= 0)
		/* %n: the index among the device targets (the node index
		 * when roles are unknown) */
		lrun_device_dir(o->device_dir, sidx, c->w->host, c->devdir,
				sizeof(c->devdir));
	for (int l = 0; rc == 0 && l < LYR_NLAYERS; l++)
		lyr_layer_config(c->cfg, o, l, c->devdir,
				 c->n.roles_known ? c->n.clients : c->w->nnodes,
				 &c->lcfg[l]);

	if (rc == 0 && !o->skip[LYR_DEVICE] && sidx >= 0) {
		rc = mb_config_check_target(&c->lcfg[LYR_DEVICE], sidx, nstor,
					    1, &err);
		if (rc < 0)
			fprintf(stderr,
				"iostrata-bench: rank %d: device layer: --layers-device-dir: %s\n",
				c->rank, err.msg);
	}
	if (rc == 0 && !o->skip[LYR_FULLSTACK] && c->clients != MPI_COMM_NULL) {
		int cr, cn;

		MPI_Comm_rank(c->clients, &cr);
		MPI_Comm_size(c->clients, &cn);
		rc = mb_config_check_target(&c->lcfg[LYR_FULLSTACK], cr, cn,
					    c->w->ranks_on_node, &err);
		if (rc < 0)
			fprintf(stderr,
				"iostrata-bench: rank %d: full stack: %s\n",
				c->rank, err.msg);
	}
	bad = rc < 0;
	MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	if (!anybad)
		return 0;
	if (c->rank == 0)
		fprintf(stderr,
			"iostrata-bench: layered run invalid: nothing was written\n");
	lrun_free_comms(c);
	mb_world_free(c->w);
	c->w = NULL;
	return MB_EXIT_USAGE;
}

/* The numbers the ceilings need: nodes, one host or not, pool sizes, OSDs
 * (rank 0 has them). */
void lrun_count_nodes(struct lctx *c, const struct ceph_facts *facts)
{
	char host[64] = "", *all = NULL;
	int same = 1, nranks = c->w->nranks;
	FILE *bf;

	/* one host?  The kernel's boot id, not hostnames or Slurm node
	 * names: nodes in network/UTS namespaces of one machine (the local
	 * site's hosts) have their own names but share one kernel, its
	 * disks and no real network.  The hostname where there is no boot
	 * id. */
	bf = fopen("/proc/sys/kernel/random/boot_id", "r");
	if (!bf || !fgets(host, sizeof(host), bf))
		gethostname(host, sizeof(host) - 1);
	if (bf)
		fclose(bf);
	if (c->rank == 0)
		all = calloc((size_t)nranks, sizeof(host));
	MPI_Gather(host, sizeof(host), MPI_CHAR, all, sizeof(host), MPI_CHAR, 0,
		   MPI_COMM_WORLD);
	if (c->rank == 0) {
		for (int i = 1; i < nranks && all; i++)
			if (strcmp(all, all + (size_t)i * sizeof(host)))
				same = 0;
		c->n.one_host = same;
	}
	free(all);
	/* device_ranks, storage_nodes, clients: lrun_open_world; the links
	 * carrying Ceph traffic are every OSD host's, when known */
	if (c->n.roles_known && facts->osd_hosts > 0)
		c->n.storage_nodes = facts->osd_hosts;
	c->n.replicas = facts->pool_size > 0 ? facts->pool_size : 0;
	c->n.fs_replicas = facts->fs_size > 0 ? facts->fs_size : 0;
	c->n.osds = c->o->osds ? c->o->osds : facts->osds_up;
}

/* Does layer [l] run on a rank of role [role]? */
static bool runs_on(int l, int role)
{
	if (role == LYR_ROLE_ALL || l == LYR_NETWORK)
		return true;
	return l == LYR_DEVICE ? role == LYR_ROLE_STORAGE
			       : role == LYR_ROLE_CLIENT;
}

/* Rank 0: who ran which layer, into the record: layers.roles (unknown,
 * hetjob, option), layers.clients, layers.osds_per_host and
 * layers.<layer>.hosts, the hosts (comma-separated, in rank order) of the
 * ranks that run that layer. */
static int record_roles(struct lctx *c, const struct ceph_facts *facts)
{
	struct ios_run *r = &c->lr->run;
	int rc = 0;

	rc |= ios_runrec_kv(r, "layers.roles", "%s",
			    lyr_roles_from_names[c->from]);
	rc |= ios_runrec_kv(r, "layers.clients", "%d", c->n.clients);
	rc |= ios_runrec_kv(r, "layers.osds_per_host", "%s",
			    facts->osds_per_host);
	for (int l = 0; l < LYR_NLAYERS; l++) {
		size_t cap = (size_t)c->w->nranks * 65 + 1, len = 0;
		char key[64], *list;

		if (c->o->skip[l])
			continue;
		list = calloc(cap, 1);
		if (!list)
			return -ENOMEM;
		for (int i = 0; i < c->w->nranks; i++) {
			const char *h = c->w->ri[i].host;
			bool dup = false;

			if (!runs_on(l, c->rank_roles[i]))
				continue;
			for (int j = 0; j < i && !dup; j++)
				dup = runs_on(l, c->rank_roles[j]) &&
				      !strcmp(c->w->ri[j].host, h);
			if (!dup)
				len += (size_t)snprintf(list + len, cap - len,
							"%s%s", len ? "," : "",
							h);
		}
		snprintf(key, sizeof(key), "layers.%s.hosts",
			 lyr_layer_names[l]);
		rc |= ios_runrec_kv(r, key, "%s", list);
		free(list);
	}
	return rc ? -ENOMEM : 0;
}

/* The run record (rank 0), the nodes' hardware, the first write. */
void lrun_start_record(struct lctx *c, struct lrun *lr,
		       const struct ceph_facts *facts)
{
	const struct mb_config *cfg = c->cfg;

	if (c->rank == 0) {
		struct ios_run *r = &lr->run;
		struct ios_ceph_opts co;

		lr->output = cfg->output;
		c->lr = lr;
		if (lyr_runrec_start(r, cfg, c->o, &c->n) ||
		    record_roles(c, facts)) {
			fprintf(stderr, "iostrata-bench: run record: %s\n",
				strerror(ENOMEM));
			MPI_Abort(MPI_COMM_WORLD, MB_EXIT_FAILED);
		}
		r->nranks = c->w->nranks;
		r->rank_info = c->w->ri;
		r->job_json = mb_hw_job_json();
		/* checked by lrun_check_before_start() */
		lrun_ceph_opts(c, &co, NULL);
		r->ceph_json = mb_hw_ceph_json(&co, cfg->dir);
	}
	mb_gather_node_json(c->w, cfg, &lr->run);
	if (c->rank == 0)
		lrun_save(lr);
}
