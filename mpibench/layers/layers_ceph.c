// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * layers_ceph: the layered run's checks before it starts (the output is
 * new, Ceph is reachable, the pool is there) and the Ceph facts the
 * ceilings need (pool sizes, OSDs up, OSDs per host), on rank 0 before any
 * I/O (see layers_internal.h).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>
#ifdef HAVE_RADOS
#include "ceph_dl.h"

/* librados, loaded by ceph_preflight() (ceph_dl.h) */
static const struct ios_rados_api *librados;
#endif
#ifdef HAVE_JANSSON
#include <jansson.h>
#endif

#include "layers_internal.h"
#include "mb_exit.h"

const char *lrun_ceph_opt(const struct lyr_opts *o, const char *name)
{
	for (int i = o->nceph - 1; i >= 0; i--)
		if (!strcmp(o->ceph[i].name, name))
			return o->ceph[i].value;
	return NULL;
}

#if defined(HAVE_JANSSON) && defined(HAVE_RADOS)
static int mon_json(rados_t c, const char *cmd, json_t **out)
{
	char *obuf = NULL;
	size_t olen = 0;
	json_error_t je;
	int rc;

	rc = ios_rados_mon_command(c, cmd, &obuf, &olen, NULL, NULL);
	if (rc < 0)
		return rc;
	*out = json_loadb(obuf, olen, 0, &je);
	if (!*out)
		rc = -EINVAL;
	free(obuf);
	return rc;
}

static int pool_size(rados_t c, const char *pool)
{
	char cmd[512];
	json_t *j = NULL;
	int rc, size = -1;

	snprintf(
		cmd, sizeof(cmd),
		"{\"prefix\":\"osd pool get\",\"pool\":\"%s\",\"var\":\"size\",\"format\":\"json\"}",
		pool);
	rc = mon_json(c, cmd, &j);
	if (rc < 0)
		return rc;
	if (json_is_integer(json_object_get(j, "size")))
		size = (int)json_integer_value(json_object_get(j, "size"));
	json_decref(j);
	return size;
}

/* The OSDs per host of `osd metadata` ([{"id":0,"hostname":"s1",...}]):
 * f->osd_hosts and f->osds_per_host ("s1=1,s2=1"). */
static void osd_hosts(json_t *j, struct ceph_facts *f)
{
	const char *names[256];
	int count[256], n = 0;
	size_t i, len = 0;
	json_t *o;

	json_array_foreach(j, i, o)
	{
		json_t *h = json_object_get(o, "hostname");
		int k;

		if (!json_is_string(h))
			continue;
		for (k = 0; k < n; k++)
			if (!strcmp(names[k], json_string_value(h)))
				break;
		if (k == n) {
			if (n == 256)
				continue;
			names[n] = json_string_value(h);
			count[n++] = 0;
		}
		count[k]++;
	}
	f->osd_hosts = n;
	f->osds_per_host[0] = '\0';
	for (int k = 0; k < n; k++) {
		int w = snprintf(f->osds_per_host + len,
				 sizeof(f->osds_per_host) - len, "%s%s=%d",
				 k ? "," : "", names[k], count[k]);

		if (w < 0 || (size_t)w >= sizeof(f->osds_per_host) - len) {
			/* too many hosts to list: say so, not a cut name */
			snprintf(f->osds_per_host, sizeof(f->osds_per_host),
				 "%d hosts", n);
			break;
		}
		len += (size_t)w;
	}
}
#endif

/*
 * Connect like the rados backend (the same options struct [co], the same
 * connect), check the pool, and read the pool's size, the CephFS data
 * pool's size and the OSD count.  Returns 0 or -errno with [err] set
 * (nothing written anywhere).
 */
static int ceph_preflight(const struct lyr_opts *o,
			  const struct ios_ceph_opts *co, bool need_pool,
			  struct ceph_facts *f, struct ios_err *err)
{
#ifndef HAVE_RADOS
	(void)o;
	(void)co;
	(void)need_pool;
	memset(f, 0, sizeof(*f));
	return ios_errf(
		err, -ENOSYS,
		"layers: built without librados: the protocol and full-stack layers need it (or --layers-skip=protocol,fullstack,fullstack-lib)");
#else
	const char *pool = lrun_ceph_opt(o, "rados-pool");
	struct ios_err e = {0};
	rados_t c;
	rados_ioctx_t io;
	int rc;

	memset(f, 0, sizeof(*f));
	if (need_pool && !pool)
		return ios_errf(
			err, -EINVAL,
			"--rados-pool: missing: the protocol layer needs a pool (e.g. --rados-pool=bench), or --layers-skip=protocol");
	if (!librados) {
		librados = ios_rados_load(&e);
		if (!librados)
			return ios_errf(
				err, e.code,
				"layers: %s (the protocol and full-stack layers need it, or --layers-skip=protocol,fullstack,fullstack-lib)",
				e.msg);
	}
	rc = ios_rados_connect(co, &c, &e);
	if (rc < 0)
		return ios_errf(err, rc, "layers: %s", e.msg);
	if (need_pool) {
		rc = librados->rados_ioctx_create(c, pool, &io);
		if (rc < 0) {
			ios_errf(err, rc, "layers: open pool '%s': %s%s", pool,
				 strerror(-rc),
				 rc == -ENOENT ? " (the pool does not exist)"
					       : "");
			goto out;
		}
		librados->rados_ioctx_destroy(io);
	}
#if defined(HAVE_JANSSON)
	{
		json_t *j = NULL;

		if (pool)
			f->pool_size = pool_size(c, pool);
		if (mon_json(c, "{\"prefix\":\"osd stat\",\"format\":\"json\"}",
			     &j) == 0) {
			json_t *u = json_object_get(j, "num_up_osds");

			if (!u) /* newer layouts nest it */
				u = json_object_get(
					json_object_get(j, "osdmap"),
					"num_up_osds");
			if (json_is_integer(u))
				f->osds_up = (int)json_integer_value(u);
			json_decref(j);
		}
		if (mon_json(
			    c,
			    "{\"prefix\":\"osd metadata\",\"format\":\"json\"}",
			    &j) == 0) {
			osd_hosts(j, f);
			json_decref(j);
		}
		if (mon_json(c, "{\"prefix\":\"fs ls\",\"format\":\"json\"}",
			     &j) == 0) {
			json_t *fs0 = json_array_get(j, 0);
			json_t *dp = json_array_get(
				json_object_get(fs0, "data_pools"), 0);

			if (json_is_string(dp))
				f->fs_size =
					pool_size(c, json_string_value(dp));
			json_decref(j);
		}
	}
#endif
	rc = 0;
out:
	librados->rados_shutdown(c);
	return rc;
#endif
}

/*
 * The run's Ceph options (--ceph-*) with the rados backend's defaults, as
 * the protocol layer takes them: for the preflight and the Ceph facts.
 */
int lrun_ceph_opts(const struct lctx *c, struct ios_ceph_opts *co,
		   struct ios_err *err)
{
	struct mb_config pc;

	lyr_layer_config(c->cfg, c->o, LYR_PROTOCOL, NULL, 1, &pc);
	return mb_ceph_opts(&pc, co, err);
}

/*
 * The output is new; Ceph is reachable and the pool is there: checked on
 * rank 0 before anything is touched (a run that cannot start still leaves
 * a results file saying why).  0, or MB_EXIT_USAGE on every rank.
 */
int lrun_check_before_start(struct lctx *c, struct ceph_facts *facts)
{
	const struct lyr_opts *o = c->o;
	const struct mb_config *cfg = c->cfg;
	struct ios_ceph_opts co;
	struct ios_err err = {0};
	int rc = 0;

	if (c->rank == 0 && cfg->output && !cfg->force &&
	    access(cfg->output, F_OK) == 0)
		rc = ios_errf(
			&err, -EEXIST,
			"--output: \"%s\" exists: refusing to overwrite it (accepted: a new file name, or --force)",
			cfg->output);
	if (c->rank == 0 && rc == 0)
		rc = lrun_ceph_opts(c, &co, &err);
	if (c->rank == 0 && rc == 0 &&
	    (!o->skip[LYR_PROTOCOL] || !o->skip[LYR_FULLLIB] ||
	     !o->skip[LYR_FULLSTACK]))
		rc = ceph_preflight(o, &co, !o->skip[LYR_PROTOCOL], facts,
				    &err);
	MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (rc == 0)
		return 0;
	if (c->rank == 0) {
		fprintf(stderr, "iostrata-bench: %s\n", err.msg);
		fprintf(stderr,
			"iostrata-bench: layered run invalid: nothing was written to the cluster or the disks\n");
		if (rc != -EEXIST)
			lrun_save_invalid(cfg, o, &err);
	}
	return MB_EXIT_USAGE;
}
