/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * node_status: looking at a node (node.h): its state as JSON
 * (node_status_json), whether it is whole (node_check), and the health
 * check that drains or resumes it through slurmctld (node_health).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "jsonw.h"
#include "log.h"
#include "mem.h"
#include "node.h"
#include "node_internal.h"

/* "mem_hotplug": how much memory can really go offline, and why not
 * more (see mem_hotplug_report). */
static void json_mem_hotplug(const struct node_ctx *c, struct jsonw *w)
{
	struct mem_hotplug_report r;
	int rc = mem_hotplug_report(&c->fs, &r);

	if (rc < 0) {
		log_verbose("iostrata: node %s: memory hotplug: %s", c->node,
			    strerror(-rc));
		return;
	}
	jsonw_key(w, "mem_hotplug");
	jsonw_obj_begin(w);
	jsonw_kv_uint(w, "block_size", r.block_size);
	jsonw_kv_uint(w, "blocks", r.blocks);
	jsonw_kv_uint(w, "blocks_offline", r.offline);
	jsonw_kv_uint(w, "offlinable_bytes", r.sure_bytes);
	jsonw_kv_uint(w, "maybe_offlinable_bytes", r.maybe_bytes);
	jsonw_key(w, "online_blocks");
	jsonw_obj_begin(w);
	jsonw_kv_uint(w, "movable", r.movable);
	jsonw_kv_uint(w, "kernel_zone", r.kernel);
	jsonw_kv_uint(w, "spanning", r.spanning);
	jsonw_kv_uint(w, "unknown_zone", r.unknown);
	jsonw_kv_uint(w, "fixed", r.fixed);
	jsonw_kv_uint(w, "not_removable", r.not_removable);
	jsonw_obj_end(w);
	jsonw_kv_str(w, "auto_online_blocks", r.auto_online);
	jsonw_key(w, "cmdline");
	jsonw_obj_begin(w);
	jsonw_kv_bool(w, "read", r.cmdline_read);
	jsonw_kv_bool(w, "movable_node", r.movable_node);
	jsonw_kv_str(w, "movablecore", r.movablecore);
	jsonw_kv_str(w, "kernelcore", r.kernelcore);
	jsonw_kv_str(w, "memhp_default_state", r.memhp_default_state);
	jsonw_obj_end(w);
	jsonw_key(w, "why_not_more");
	jsonw_arr_begin(w);
	for (unsigned i = 0; i < r.n_why; i++)
		jsonw_str(w, r.why[i]);
	jsonw_arr_end(w);
	jsonw_obj_end(w);
}

int node_status_json(const struct node_ctx *c, FILE *out)
{
	struct snapshot now;
	struct ios_err err;
	char list[512], **ids = NULL;
	size_t nids = 0;
	unsigned ncpu;
	struct jsonw w;
	int rc;

	rc = node_observe(c, false, &now, &err);
	if (rc < 0) {
		log_err("%s", err.msg);
		return rc;
	}
	ncpu = node_count_online_cpus(&c->fs, list, sizeof(list));
	jsonw_init(&w, out, true);
	jsonw_obj_begin(&w);
	jsonw_kv_str(&w, "node", c->node);
	jsonw_key(&w, "applied");
	node_json_state(&w, &now, ncpu, list, node_online_mem(&c->fs));
	{
		struct node_mem_floor fl;
		struct ios_err ferr;

		if (node_mem_floor(c, &fl, &ferr) == 0) {
			jsonw_key(&w, "mem_floor");
			jsonw_obj_begin(&w);
			jsonw_kv_uint(&w, "floor_bytes", fl.floor);
			jsonw_kv_uint(&w, "min_mem_bytes", fl.min_mem);
			jsonw_kv_uint(&w, "in_use_bytes", fl.in_use);
			jsonw_kv_uint(&w, "reserve_bytes", fl.reserve);
			jsonw_kv_uint(&w, "fixed_bytes", fl.fixed);
			jsonw_obj_end(&w);
		} else {
			log_verbose("%s", ferr.msg);
		}
	}
	json_mem_hotplug(c, &w);
	node_omt_status_json(c, &w);
	node_mds_status_json(c, &w);
	jsonw_key(&w, "journals");
	jsonw_arr_begin(&w);
	if (c->sd.jdirfd >= 0 &&
	    state_journal_list((struct state_dir *)&c->sd, &ids, &nids) == 0) {
		for (size_t i = 0; i < nids; i++)
			jsonw_str(&w, ids[i]);
		state_list_free(ids, nids);
	}
	jsonw_arr_end(&w);
	jsonw_obj_end(&w);
	rc = jsonw_finish(&w);
	fputc('\n', out);
	snapshot_free(&now);
	return rc;
}

int node_check(const struct node_ctx *c, struct ios_err *err)
{
	struct snapshot now;
	char why[400] = "", **ids = NULL;
	size_t off = 0, nids = 0;
	unsigned offc = 0, offm = 0, thr = 0;
	int rc;

	rc = node_observe(c, false, &now, err);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < now.n_cpu; i++)
		offc += !now.cpu[i].online;
	for (size_t i = 0; i < now.n_mem; i++)
		offm += !now.mem[i].online;
	for (size_t i = 0; i < now.n_thr; i++) {
		const struct blkio_limit *l = &now.thr[i].lim;

		thr += l->rbps || l->wbps || l->riops || l->wiops;
	}
	snapshot_free(&now);
	if (c->sd.jdirfd >= 0 &&
	    state_journal_list((struct state_dir *)&c->sd, &ids, &nids) == 0) {
		if (nids)
			off += (size_t)snprintf(why + off, sizeof(why) - off,
						"journal of job %s pending",
						ids[0]);
		state_list_free(ids, nids);
	}
	if (offc && off < sizeof(why))
		off += (size_t)snprintf(why + off, sizeof(why) - off,
					"%s%u CPUs offline", off ? ", " : "",
					offc);
	if (offm && off < sizeof(why))
		off += (size_t)snprintf(why + off, sizeof(why) - off,
					"%s%u memory blocks offline",
					off ? ", " : "", offm);
	if (thr && off < sizeof(why))
		off += (size_t)snprintf(why + off, sizeof(why) - off,
					"%s%u throttles set", off ? ", " : "",
					thr);
	if (off < sizeof(why))
		node_mds_check(c, why, sizeof(why), &off);
	if (off)
		return ios_errf(err, -EBUSY, "iostrata: node %s not whole: %s",
				c->node[0] ? c->node : "?", why);
	return 0;
}

enum node_drain node_drain_classify(bool drain, bool down, const char *reason)
{
	if (down)
		return NODE_DRAINED_OTHER;
	if (!drain)
		return NODE_UNDRAINED;
	if (reason &&
	    strncmp(reason, NODE_DRAIN_PREFIX, strlen(NODE_DRAIN_PREFIX)) == 0)
		return NODE_DRAINED_OURS;
	return NODE_DRAINED_OTHER;
}

enum node_health_act node_health_decide(bool whole, bool shaped,
					enum node_drain d)
{
	bool ok = whole || shaped;

	if (!ok && d == NODE_UNDRAINED)
		return NODE_HEALTH_DRAIN;
	if (ok && d == NODE_DRAINED_OURS)
		return NODE_HEALTH_RESUME;
	return NODE_HEALTH_NOTHING;
}

/* Does a job whose shape the node carries still run (or cannot be
 * judged)?  The journals here, and the host's owner in another state
 * directory (another slurmd on this kernel). */
static bool shaped_by_running_job(struct node_ctx *c,
				  const struct node_slurm_ops *ops, char *why,
				  size_t len)
{
	char **ids = NULL, osd[4200], ojob[STATE_ID_MAX];
	size_t n = 0;
	bool shaped = false;

	if (c->sd.jdirfd >= 0 && state_journal_list(&c->sd, &ids, &n) < 0)
		n = 0;
	for (size_t i = 0; i < n && !shaped; i++) {
		char w[256] = "";
		int a = ops->alive(ids[i], ops->alive_arg, w, sizeof(w));

		if (a != 0) {
			shaped = true;
			snprintf(why, len, "job %s %s: %s", ids[i],
				 a > 0 ? "still runs" : "cannot be judged", w);
		}
	}
	state_list_free(ids, n);
	if (!shaped &&
	    node_host_owner(c, osd, sizeof(osd), ojob, sizeof(ojob)) == 1 &&
	    strcmp(osd, c->sd.path) != 0) {
		char w[256] = "";
		int a = ops->alive(ojob, ops->alive_arg, w, sizeof(w));

		if (a != 0) {
			shaped = true;
			snprintf(why, len,
				 "job %s (state directory %.100s) %s: %.100s",
				 ojob, osd,
				 a > 0 ? "still runs" : "cannot be judged", w);
		}
	}
	return shaped;
}

int node_health(struct node_ctx *c, const struct node_slurm_ops *ops,
		struct node_health_result *res, struct ios_err *err)
{
	char reason[IOS_ERR_MSGLEN], why[IOS_ERR_MSGLEN] = "";
	const char *node = c->node[0] ? c->node : "?";
	struct ios_err e;
	bool drain = false, down = false;
	int lk = -1, hl, rc;

	memset(res, 0, sizeof(*res));
	ios_err_clear(&e);
	/* Not waiting: a prolog or epilog holding the locks is changing
	 * the node right now; the next interval looks again. */
	if (c->sd.jdirfd >= 0) {
		lk = state_lock(&c->sd, 0);
		if (lk == -ETIMEDOUT) {
			res->busy = true;
			snprintf(
				res->why, sizeof(res->why),
				"an apply or restore holds %.300s/journal/lock",
				c->sd.path);
			return 0;
		}
		if (lk < 0)
			return ios_errf(err, lk,
					"iostrata: lock %s/journal/lock: %s",
					c->sd.path, strerror(-lk));
	}
	hl = node_host_lock_wait(c, 0);
	if (hl == -ETIMEDOUT) {
		state_unlock(lk);
		res->busy = true;
		snprintf(res->why, sizeof(res->why),
			 "an apply or restore holds %.300s/%s/lock", c->fs.root,
			 NODE_HOST_DIR);
		return 0;
	}
	rc = node_check(c, &e);
	if (rc == 0 || rc == -EBUSY) {
		res->whole = rc == 0;
		snprintf(res->why, sizeof(res->why), "%s", e.msg);
		if (!res->whole)
			res->shaped =
				shaped_by_running_job(c, ops, why, sizeof(why));
		rc = 0;
	}
	state_unlock(hl);
	state_unlock(lk);
	if (rc < 0) {
		if (err)
			*err = e;
		return rc;
	}
	if (res->shaped)
		snprintf(res->why, sizeof(res->why), "%s", why);
	rc = ops->state(c->node, &drain, &down, reason, sizeof(reason), why,
			sizeof(why));
	if (rc < 0)
		return ios_errf(
			err, rc,
			"iostrata: health check: node %s: drain state: %s",
			node, why);
	res->drain = node_drain_classify(drain, down, reason);
	res->act = node_health_decide(res->whole, res->shaped, res->drain);
	switch (res->act) {
	case NODE_HEALTH_DRAIN: {
		/* node_check's message is "iostrata: node N not whole: ..." */
		const char *m = res->why;

		if (strncmp(m, "iostrata: ", 10) == 0)
			m += 10;
		snprintf(reason, sizeof(reason), "%s health check: %.400s",
			 NODE_DRAIN_PREFIX, m);
		rc = ops->drain(c->node, reason);
		if (rc < 0)
			return ios_errf(
				err, rc,
				"iostrata: health check: drain node %s: %s",
				node, strerror(-rc));
		log_info("iostrata: node %s drained: %s", node, reason);
		break;
	}
	case NODE_HEALTH_RESUME:
		rc = ops->resume(c->node, why, sizeof(why));
		if (rc < 0)
			return ios_errf(
				err, rc,
				"iostrata: health check: resume node %s: %s",
				node, why);
		log_info(
			"iostrata: node %s resumed: %s (it was drained with \"%s\")",
			node,
			res->whole ? "whole again" : "shaped by a running job",
			reason);
		break;
	case NODE_HEALTH_NOTHING:
		break;
	}
	return 0;
}
