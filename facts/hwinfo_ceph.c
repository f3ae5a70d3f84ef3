/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hwinfo_ceph: the Ceph facts a results file carries (hwinfo.h,
 * ios_hw_ceph_json): identity, OSD counts, pools and the data pool of the
 * benchmark directory, and what changes a benchmark on the cluster side:
 * health, the OSD map flags (scrubbing off or on), the CRUSH tree, each
 * OSD's metadata and the monitors' configuration database.  A command that
 * fails leaves its member "unknown" with the reason in why_unknown.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>

#include <jansson.h>

#include "ceph_conn.h"
#include "hwinfo.h"
#include "hwinfo_internal.h"

#define UNKNOWN "unknown"
#define set_str ios_hw_set_str
#define dump ios_hw_dump

/* ---- Ceph ------------------------------------------------------------ */

/* The data pool of [dir] from the CephFS layout xattrs, walking up. */
int ios_hw_ceph_dir_pool(const char *dir, char *out, size_t len)
{
	char path[PATH_MAX];

	if (!realpath(dir, path))
		return -errno;
	for (;;) {
		ssize_t n =
			getxattr(path, "ceph.dir.layout.pool", out, len - 1);
		char *slash;

		if (n < 0)
			n = getxattr(path, "ceph.file.layout.pool", out,
				     len - 1);
		if (n > 0) {
			out[n] = '\0';
			return 0;
		}
		if (errno == ENOTSUP)
			return -ENOTSUP; /* not CephFS */
		slash = strrchr(path, '/');
		if (!slash || slash == path)
			return -ENODATA;
		*slash = '\0';
	}
}

/* o[key] = v (a borrowed reference), or "unknown" when v is NULL. */
static void copy_or_unknown(json_t *o, const char *key, json_t *v)
{
	if (v)
		json_object_set(o, key, v);
	else
		json_object_set_new(o, key, json_string(UNKNOWN));
}

/* The JSON answer to [cmd]; NULL when not connected or on any error. */
static json_t *mon_json(void *c, const char *cmd)
{
	char *out = NULL;
	size_t len = 0;
	json_t *j = NULL;

	if (c && ios_rados_mon_command(c, cmd, &out, &len, NULL, NULL) >= 0)
		j = json_loadb(out, len, 0, NULL);
	free(out);
	return j;
}

/* The JSON answer to [cmd] as o[key] (through [pick], which may be NULL
 * and returns a new reference); else o[key] unknown, and why. */
static void mon_fact(json_t *o, const char *key, void *c, const char *cmd,
		     json_t *(*pick)(json_t *, void *), void *arg)
{
	char *out = NULL;
	size_t len = 0;
	struct ios_err err = {0};
	json_error_t jerr;
	json_t *j = NULL, *v;
	int rc;

	if (!c) {
		ios_hw_unknown(o, key, "not connected (see error)");
		return;
	}
	rc = ios_rados_mon_command(c, cmd, &out, &len, NULL, &err);
	if (rc < 0) {
		ios_hw_unknown(o, key, "%s",
			       err.msg[0] ? err.msg : strerror(-rc));
		free(out);
		return;
	}
	j = json_loadb(out ? out : "", len, 0, &jerr);
	free(out);
	if (!j) {
		ios_hw_unknown(o, key, "mon command %s: not JSON: %s", cmd,
			       jerr.text);
		return;
	}
	v = pick ? pick(j, arg) : json_incref(j);
	json_decref(j);
	if (!v)
		ios_hw_unknown(o, key, "mon command %s: unexpected answer",
			       cmd);
	else
		json_object_set_new(o, key, v);
}

/* The members [keys] of [src] that are there, as a new object. */
static json_t *some(json_t *src, const char *const *keys)
{
	json_t *o = json_object();

	for (size_t k = 0; keys[k]; k++) {
		json_t *v = json_object_get(src, keys[k]);

		if (v)
			json_object_set(o, keys[k], v);
	}
	return o;
}

/* some() of every element of the array [j]; NULL when not an array. */
static json_t *some_each(json_t *j, const char *const *keys)
{
	json_t *a, *n;
	size_t i;

	if (!json_is_array(j))
		return NULL;
	a = json_array();
	json_array_foreach(j, i, n) json_array_append_new(a, some(n, keys));
	return a;
}

/* health: status and the names of the checks raised. */
static json_t *pick_health(json_t *j, void *arg)
{
	(void)arg;
	json_t *o = json_object(), *names = json_array(), *v;
	const char *k;

	json_object_set(o, "status", json_object_get(j, "status"));
	json_object_foreach(json_object_get(j, "checks"), k, v)
		json_array_append_new(names, json_string(k));
	json_object_set_new(o, "checks", names);
	return o;
}

/* osd dump: the map's flags and whether scrubbing is off. */
static json_t *pick_flags(json_t *j, void *arg)
{
	(void)arg;
	const char *f = json_string_value(json_object_get(j, "flags"));
	json_t *o;
	char buf[512], *save = NULL;
	int noscrub = 0, nodeep = 0;

	if (!f)
		return NULL;
	snprintf(buf, sizeof(buf), "%s", f);
	for (char *t = strtok_r(buf, ",", &save); t;
	     t = strtok_r(NULL, ",", &save)) {
		noscrub |= !strcmp(t, "noscrub");
		nodeep |= !strcmp(t, "nodeep-scrub");
	}
	o = json_object();
	json_object_set_new(o, "flags", json_string(f));
	json_object_set_new(o, "noscrub", json_boolean(noscrub));
	json_object_set_new(o, "nodeep-scrub", json_boolean(nodeep));
	return o;
}

/* osd tree: every node (host, OSD) with its place and weight. */
static json_t *pick_tree(json_t *j, void *arg)
{
	(void)arg;
	static const char *const keys[] = {
		"id",       "name",         "type",         "type_id",
		"children", "crush_weight", "device_class", "status",
		"reweight", NULL,
	};

	return some_each(json_object_get(j, "nodes"), keys);
}

/* osd metadata: what each OSD runs on. */
static json_t *pick_meta(json_t *j, void *arg)
{
	(void)arg;
	static const char *const keys[] = {
		"id",
		"hostname",
		"ceph_version",
		"osd_objectstore",
		"bluestore_bdev_type",
		"bluestore_bdev_rotational",
		"bluestore_bdev_size",
		"devices",
		"osd_data",
		"front_addr",
		"back_addr",
		"cpu",
		"mem_total_kb",
		"kernel_version",
		NULL,
	};
	return some_each(j, keys);
}

/*
 * The options of the monitors' configuration database a results file
 * keeps (h5schema/SCHEMA.md lists them): those that change what a
 * benchmark measures.  An entry "x*" is a prefix.  The database also holds
 * credentials (mgr/dashboard/RGW_API_SECRET_KEY, rgw_keystone_admin_password,
 * rgw_crypt_vault_token, ...) and the file is 0644: nothing else is kept.
 */
static const char *const config_allow[] = {
	/* OSD memory and caches */
	"osd_memory_target",
	"osd_memory_target_autotune",
	"osd_memory_base",
	"osd_memory_cache_min",
	"bluestore_cache_*",
	"bluestore_min_alloc_size*",
	"bluestore_prefer_deferred_size*",
	"bluestore_deferred_batch_ops*",
	"bluestore_throttle_*",
	"bluestore_compression_*",
	"bluestore_csum_type",
	"bluestore_rocksdb_options",
	"bluestore_max_blob_size*",
	"bluestore_sync_submit_transaction",
	"bluefs_buffered_io",
	/* OSD op queue and threads */
	"osd_op_num_shards*",
	"osd_op_num_threads_per_shard*",
	"osd_op_queue",
	"osd_op_queue_cut_off",
	"osd_mclock_*",
	"osd_client_message_*",
	"osd_max_write_size",
	"osd_pool_default_size",
	"osd_pool_default_min_size",
	"osd_pool_default_pg_num",
	"osd_pool_default_pgp_num",
	"osd_pool_default_pg_autoscale_mode",
	/* background work competing with the benchmark */
	"osd_recovery_*",
	"osd_max_backfills",
	"osd_backfill_*",
	"osd_scrub_*",
	"osd_deep_scrub_*",
	"osd_max_scrubs",
	"osd_snap_trim_*",
	/* messenger */
	"ms_type",
	"ms_async_op_threads",
	"ms_cluster_type",
	"ms_public_type",
	"ms_crc_data",
	"ms_crc_header",
	"ms_dispatch_throttle_bytes",
	"ms_tcp_nodelay",
	"ms_tcp_rcvbuf",
	"ms_bind_ipv6",
	/* clients: objecter, RBD, CephFS */
	"objecter_inflight_*",
	"rbd_cache*",
	"rbd_readahead_*",
	"rbd_read_from_replica_policy",
	"client_oc*",
	"client_readahead_*",
	"client_cache_size",
	"client_mount_timeout",
	"fuse_big_writes",
	"fuse_max_write",
	"mds_cache_memory_limit",
	"mds_cache_trim_*",
	"mds_max_caps_per_client",
	"mds_recall_*",
	NULL,
};

/* Substrings of a name whose value may be a credential: never stored,
 * even when an allow-list would take it.  Matched case-insensitively. */
static const char *const secret_words[] = {
	"key",        "secret", "password", "passwd", "pass_",   "token",
	"credential", "cred_",  "auth",     "cert",   "private", NULL,
};

bool ios_hw_secret_name(const char *name)
{
	for (size_t i = 0; name && secret_words[i]; i++)
		if (strcasestr(name, secret_words[i]))
			return true;
	return false;
}

bool ios_hw_ceph_config_kept(const char *name)
{
	bool allowed = false;

	if (!name || !*name || ios_hw_secret_name(name))
		return false;
	for (size_t i = 0; !allowed && config_allow[i]; i++) {
		size_t n = strlen(config_allow[i]);

		if (config_allow[i][n - 1] == '*')
			allowed = !strncmp(name, config_allow[i], n - 1);
		else
			allowed = !strcmp(name, config_allow[i]);
	}
	return allowed;
}

/* config dump: the allow-listed entries of the monitors' configuration
 * database (ios_hw_ceph_config_kept); the others are counted in
 * *(long *)[arg]. */
static json_t *pick_config(json_t *j, void *arg)
{
	long *omitted = arg;
	static const char *const keys[] = {"section", "name", "value", "mask",
					   NULL};
	json_t *a, *n;
	size_t i;

	*omitted = 0;
	if (!json_is_array(j))
		return NULL;
	a = json_array();
	json_array_foreach(j, i, n)
	{
		if (ios_hw_ceph_config_kept(
			    json_string_value(json_object_get(n, "name"))))
			json_array_append_new(a, some(n, keys));
		else
			(*omitted)++;
	}
	return a;
}

/* The facts probe's time bound: see hwinfo.h. */
static unsigned int probe_timeout(const struct ios_ceph_opts *opts)
{
	const char *e = getenv("IOSTRATA_CEPH_TIMEOUT");
	unsigned int t = IOS_CEPH_PROBE_TIMEOUT;

	if (e && atoi(e) > 0)
		t = (unsigned int)atoi(e);
	if (opts && opts->timeout && opts->timeout < t)
		t = opts->timeout;
	return t;
}

char *ios_hw_ceph_json(const struct ios_ceph_opts *opts, const char *target_dir)
{
	/* librados would print its own complaints on a failed probe */
	static const struct ios_ceph_kv quiet[] = {
		{"log_to_stderr", "false"},
		{"err_to_stderr", "false"},
		{NULL, NULL},
	};
	struct ios_ceph_opts co = {0};
	struct ios_err err = {0};
	char pool[256], confbuf[PATH_MAX], *client;
	const char *conf;
	void *c = NULL;
	json_t *o, *j, *pools;
	long config_omitted = -1;

	if (opts)
		co = *opts;
	conf = ios_ceph_conf(&co, confbuf, sizeof(confbuf));
	if (!conf)
		return NULL; /* no Ceph configured here */
	co.timeout = probe_timeout(opts);
	co.op_timeout = 0;
	co.extra = quiet;
	o = json_object();
	json_object_set_new(o, "conf", json_string(conf));
	client = malloc(strlen(ios_ceph_id(&co)) + sizeof("client."));
	if (client) {
		sprintf(client, "client.%s", ios_ceph_id(&co));
		json_object_set_new(o, "client", json_string(client));
		free(client);
	}
	/* Not reachable: every cluster fact "unknown", and why. */
	if (ios_rados_connect(&co, &c, &err) < 0) {
		json_object_set_new(o, "error", json_string(err.msg));
		c = NULL;
	}
	j = mon_json(c, "{\"prefix\":\"fsid\",\"format\":\"json\"}");
	set_str(o, "fsid", json_string_value(json_object_get(j, "fsid")));
	json_decref(j);
	j = mon_json(c, "{\"prefix\":\"version\",\"format\":\"json\"}");
	set_str(o, "version", json_string_value(json_object_get(j, "version")));
	json_decref(j);
	j = mon_json(c, "{\"prefix\":\"osd stat\",\"format\":\"json\"}");
	{
		json_t *osds = json_object(), *src = j;

		/* pacific: top level; later releases nest under osdmap */
		if (json_object_get(j, "osdmap"))
			src = json_object_get(j, "osdmap");
		copy_or_unknown(osds, "total",
				json_object_get(src, "num_osds"));
		copy_or_unknown(osds, "up",
				json_object_get(src, "num_up_osds"));
		copy_or_unknown(osds, "in",
				json_object_get(src, "num_in_osds"));
		json_object_set_new(o, "osds", osds);
	}
	json_decref(j);
	j = mon_json(
		c,
		"{\"prefix\":\"osd pool ls\",\"detail\":\"detail\",\"format\":\"json\"}");
	pools = json_array();
	if (json_is_array(j)) {
		size_t i;
		json_t *p;

		json_array_foreach(j, i, p)
		{
			json_t *q = json_object();
			static const struct {
				const char *key, *src;
			} f[] = {
				{"name", "pool_name"},
				{"id", "pool_id"},
				{"size", "size"},
				{"min_size", "min_size"},
				{"pg_num", "pg_num"},
				{"crush_rule", "crush_rule"},
			};
			for (size_t k = 0; k < sizeof(f) / sizeof(f[0]); k++) {
				json_t *v = json_object_get(p, f[k].src);

				copy_or_unknown(q, f[k].key, v);
			}
			json_array_append_new(pools, q);
		}
	}
	json_decref(j);
	json_object_set_new(o, "pools", pools);
	if (target_dir &&
	    ios_hw_ceph_dir_pool(target_dir, pool, sizeof(pool)) == 0) {
		json_object_set_new(o, "data_pool", json_string(pool));
		json_object_set_new(o, "data_pool_source",
				    json_string("layout xattr"));
	} else {
		const char *dp = NULL;

		j = mon_json(c, "{\"prefix\":\"fs ls\",\"format\":\"json\"}");
		if (json_is_array(j) && json_array_size(j) > 0)
			dp = json_string_value(json_array_get(
				json_object_get(json_array_get(j, 0),
						"data_pools"),
				0));
		set_str(o, "data_pool", dp);
		json_object_set_new(
			o, "data_pool_source",
			json_string(dp ? "fs ls (first data pool)" : UNKNOWN));
		json_decref(j);
	}
	mon_fact(o, "health", c, "{\"prefix\":\"health\",\"format\":\"json\"}",
		 pick_health, NULL);
	mon_fact(o, "osd_flags", c,
		 "{\"prefix\":\"osd dump\",\"format\":\"json\"}", pick_flags,
		 NULL);
	mon_fact(o, "osd_tree", c,
		 "{\"prefix\":\"osd tree\",\"format\":\"json\"}", pick_tree,
		 NULL);
	mon_fact(o, "osd_metadata", c,
		 "{\"prefix\":\"osd metadata\",\"format\":\"json\"}", pick_meta,
		 NULL);
	mon_fact(o, "config", c,
		 "{\"prefix\":\"config dump\",\"format\":\"json\"}",
		 pick_config, &config_omitted);
	if (config_omitted >= 0)
		json_object_set_new(o, "config_omitted",
				    json_integer(config_omitted));
	ios_rados_shutdown(c);
	return dump(o);
}
