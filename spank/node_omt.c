/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * node_omt: the OSDs' osd_memory_target for --iostrata-mem (the paper's
 * "GB per OSD"; node_internal.h).  With policy osd_memory_target = share
 * each OSD of this host gets the memory left divided by their count (at
 * least osd_memory_target_min) in the monitors' configuration database:
 * the old value and whether osd.N had an entry of its own are journalled
 * before anything changes, and the restore puts them back exactly (set
 * the old value, or remove the entry the apply made).  With off, the
 * published file records the targets and whether they exceed the memory
 * left.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cephcli.h"
#include "log.h"
#include "node_internal.h"
#include "osd.h"

/* The ids of this host's OSDs (policy "osds ="), each once, in [o]. */
static int host_osds(struct node_ctx *c, struct node_omt *o,
		     struct ios_err *err)
{
	struct osd_found *f = NULL;
	int n = osd_discover(&c->fs, c->pol, false, &f, err);

	if (n < 0)
		return n;
	o->n = 0;
	for (int i = 0; i < n && o->n < POLICY_MAX_LIST; i++)
		o->osd[o->n++].id = f[i].id;
	free(f);
	return 0;
}

static int push_omt(struct snapshot *s, const struct node_omt_osd *d)
{
	struct snap_omt *nv = realloc(s->omt, (s->n_omt + 1) * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	s->omt = nv;
	nv[s->n_omt].id = d->id;
	nv[s->n_omt].explicit_old = d->explicit_old;
	nv[s->n_omt].old_bytes = d->old_bytes;
	nv[s->n_omt++].new_bytes = d->new_bytes;
	return 0;
}

int node_omt_plan(struct node_ctx *c, const struct iostrata_req *req,
		  struct snapshot *snap, struct node_omt *o,
		  struct ios_err *err)
{
	const struct policy *p = c->pol;
	struct ios_err e;
	int rc;

	memset(o, 0, sizeof(*o));
	if (!req->has_mem || !p || p->n_osds == 0)
		return 0;
	o->active = true;
	o->share_on = p->omt_share;
	o->mem_left = req->mem;
	o->share_min = p->omt_min;
	ios_err_clear(&e);
	rc = host_osds(c, o, &e);
	if (rc == 0 && o->n == 0 && o->share_on)
		rc = ios_errf(
			&e, -ENOENT,
			"iostrata: no OSD named by the policy's osds = runs here");
	if (rc < 0) {
		if (o->share_on)
			return ios_errf(
				err, rc,
				"iostrata: node %s: osd_memory_target = share: find the OSDs of this host: %s; nothing changed",
				c->node, e.msg);
		snprintf(o->why_unknown, sizeof(o->why_unknown), "%s", e.msg);
		o->n = 0;
		return 0;
	}
	/* the paper's GB per OSD: the memory left over the host's OSDs */
	if (p->omt_share) {
		o->share = req->mem / o->n;
		if (o->share < p->omt_min)
			o->share = p->omt_min;
	}
	for (size_t i = 0; i < o->n; i++) {
		struct node_omt_osd *d = &o->osd[i];

		rc = cephcli_omt_get(&p->ceph, d->id, &d->old_bytes,
				     p->omt_share ? &d->explicit_old : NULL,
				     &e);
		if (rc < 0 && !p->omt_share) {
			snprintf(o->why_unknown, sizeof(o->why_unknown), "%s",
				 e.msg);
			o->n = 0;
			return 0;
		}
		if (rc < 0)
			return ios_errf(
				err, rc,
				"iostrata: node %s: osd_memory_target = share: read osd.%d's target: %s; nothing changed",
				c->node, d->id, e.msg);
		if (!p->omt_share)
			continue;
		d->new_bytes = o->share;
		snap->ceph = p->ceph; /* the restore runs the same CLI */
		rc = push_omt(snap, d);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int node_omt_apply(struct node_ctx *c, const struct snapshot *snap,
		   struct ios_err *err)
{
	for (size_t i = 0; i < snap->n_omt; i++) {
		const struct snap_omt *t = &snap->omt[i];
		struct ios_err e;
		uint64_t now = 0;
		int rc;

		ios_err_clear(&e);
		rc = cephcli_omt_set(&snap->ceph, t->id, t->new_bytes, &e);
		if (rc == 0)
			rc = cephcli_omt_get(&snap->ceph, t->id, &now, NULL,
					     &e);
		if (rc == 0 && now != t->new_bytes)
			rc = ios_errf(&e, -ERANGE,
				      "reads back %" PRIu64
				      " after setting %" PRIu64,
				      now, t->new_bytes);
		if (rc < 0)
			return ios_errf(
				err, rc,
				"iostrata: node %s: osd.%d: set osd_memory_target: %s",
				c->node, t->id, e.msg);
		log_info(
			"iostrata: node %s: job %s: osd.%d osd_memory_target %" PRIu64
			" (was %" PRIu64 "%s)",
			c->node, snap->jobid, t->id, t->new_bytes, t->old_bytes,
			t->explicit_old ? "" : ", no entry of its own");
	}
	return 0;
}

/* osd.[id]'s target back as [t] says; 0 or -errno with [e]. */
static int restore_one(struct node_ctx *c, const struct snapshot *s,
		       const struct snap_omt *t, struct ios_err *e)
{
	uint64_t now = 0;
	bool expl = false;
	int rc = cephcli_omt_get(&s->ceph, t->id, &now, &expl, e);

	if (rc < 0)
		return rc;
	if (now == t->old_bytes && expl == t->explicit_old)
		return 0; /* already back (a repeated restore) */
	rc = t->explicit_old ? cephcli_omt_set(&s->ceph, t->id, t->old_bytes, e)
			     : cephcli_omt_rm(&s->ceph, t->id, e);
	if (rc == 0)
		rc = cephcli_omt_get(&s->ceph, t->id, &now, NULL, e);
	if (rc == 0 && now != t->old_bytes)
		rc = ios_errf(e, -ERANGE, "reads back %" PRIu64, now);
	if (rc == 0)
		log_info(
			"iostrata: node %s: job %s: osd.%d osd_memory_target back to %" PRIu64
			"%s",
			c->node, s->jobid, t->id, t->old_bytes,
			t->explicit_old ? "" : " (its own entry removed)");
	return rc;
}

int node_omt_restore(struct node_ctx *c, const struct snapshot *s, char *left,
		     size_t len, size_t *off)
{
	int bad = 0;

	for (size_t i = 0; i < s->n_omt; i++) {
		struct ios_err e;

		ios_err_clear(&e);
		if (restore_one(c, s, &s->omt[i], &e) == 0)
			continue;
		log_err("iostrata: node %s: job %s: osd.%d: restore osd_memory_target to %" PRIu64
			": %s",
			c->node, s->jobid, s->omt[i].id, s->omt[i].old_bytes,
			e.msg);
		node_left_add(left, len, off,
			      "osd.%d osd_memory_target not back to %" PRIu64
			      " (%.120s)",
			      s->omt[i].id, s->omt[i].old_bytes, e.msg);
		bad++;
	}
	return bad;
}

void node_omt_json(struct jsonw *w, const struct node_omt *o)
{
	uint64_t total = 0;
	char who[32];

	jsonw_key(w, "osd_memory_target");
	jsonw_obj_begin(w);
	jsonw_kv_str(w, "policy", o->share_on ? "share" : "off");
	jsonw_kv_uint(w, "memory_left", o->mem_left);
	jsonw_kv_uint(w, "osds", o->n);
	if (o->share_on) {
		jsonw_kv_uint(w, "share_bytes", o->share);
		jsonw_kv_uint(w, "min_bytes", o->share_min);
	}
	if (o->why_unknown[0]) {
		jsonw_kv_str(w, "targets", "unknown");
		jsonw_kv_str(w, "why_unknown", o->why_unknown);
		jsonw_obj_end(w);
		return;
	}
	jsonw_key(w, "targets");
	jsonw_obj_begin(w);
	for (size_t i = 0; i < o->n; i++) {
		const struct node_omt_osd *d = &o->osd[i];

		snprintf(who, sizeof(who), "osd.%d", d->id);
		total += o->share_on ? d->new_bytes : d->old_bytes;
		if (!o->share_on) {
			jsonw_kv_uint(w, who, d->old_bytes);
			continue;
		}
		jsonw_key(w, who);
		jsonw_obj_begin(w);
		jsonw_kv_uint(w, "old", d->old_bytes);
		jsonw_kv_bool(w, "old_explicit", d->explicit_old);
		jsonw_kv_uint(w, "new", d->new_bytes);
		jsonw_obj_end(w);
	}
	jsonw_obj_end(w);
	jsonw_kv_uint(w, "targets_total", total);
	jsonw_kv_bool(w, "exceeds_memory_left", total > o->mem_left);
	jsonw_obj_end(w);
}

void node_omt_status_json(const struct node_ctx *c, struct jsonw *w)
{
	struct node_omt o;
	struct ios_err e;
	char who[32], down[IOS_ERR_MSGLEN + 32] = "";

	if (!c->pol || c->pol->n_osds == 0)
		return;
	memset(&o, 0, sizeof(o));
	ios_err_clear(&e);
	jsonw_key(w, "osd_memory_target");
	jsonw_obj_begin(w);
	jsonw_kv_str(w, "policy", c->pol->omt_share ? "share" : "off");
	if (host_osds((struct node_ctx *)c, &o, &e) < 0) {
		jsonw_kv_str(w, "targets", "unknown");
		jsonw_kv_str(w, "why_unknown", e.msg);
		jsonw_obj_end(w);
		return;
	}
	jsonw_key(w, "targets");
	jsonw_obj_begin(w);
	for (size_t i = 0; i < o.n; i++) {
		uint64_t v;
		int rc;

		snprintf(who, sizeof(who), "osd.%d", o.osd[i].id);
		if (down[0]) {
			jsonw_kv_str(w, who, down);
			continue;
		}
		rc = cephcli_omt_get(&c->pol->ceph, o.osd[i].id, &v, NULL, &e);
		if (rc == 0) {
			jsonw_kv_uint(w, who, v);
		} else if (rc == -EINVAL) {
			jsonw_kv_str(w, who, e.msg); /* this OSD's answer */
		} else {
			/* the CLI or the monitors did not answer (each try
			 * may wait ceph_timeout): the first call is the
			 * probe, the other OSDs are not asked */
			snprintf(down, sizeof(down), "Ceph unreachable: %s",
				 e.msg);
			jsonw_kv_str(w, who, down);
		}
	}
	jsonw_obj_end(w);
	jsonw_obj_end(w);
}
