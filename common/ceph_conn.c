/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ceph_conn: one create / configure / connect for librados and libcephfs,
 * and one monitor command (see ceph_conn.h).  Both libraries configure a
 * handle the same way (read a conf, apply the environment, set keys), so
 * that part is written once over a small table of the three calls.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ceph_conn.h"
#include "ceph_dl.h"

const char *ios_ceph_conf(const struct ios_ceph_opts *o, char *buf, size_t len)
{
	const char *c = o ? o->conf : NULL, *home = getenv("HOME");
	int n;

	if (c && *c)
		return c;
	c = getenv("CEPH_CONF");
	if (c && *c)
		return c;
	/* librados' search order for cluster "ceph" */
	if (access("/etc/ceph/ceph.conf", F_OK) == 0)
		return "/etc/ceph/ceph.conf";
	if (home && *home && buf && len) {
		n = snprintf(buf, len, "%s/.ceph/ceph.conf", home);
		if (n > 0 && (size_t)n < len && access(buf, F_OK) == 0)
			return buf;
	}
	if (access("ceph.conf", F_OK) == 0)
		return "ceph.conf";
	return NULL;
}

const char *ios_ceph_id(const struct ios_ceph_opts *o)
{
	return o && o->id && *o->id ? o->id : "admin";
}

#if defined(HAVE_RADOS) || defined(HAVE_CEPHFS)
/* What a connect or mount error usually means ("" when nothing useful). */
static const char *hint(int rc)
{
	switch (rc) {
	case -EACCES:
	case -EPERM:
		return " (wrong key or keyring for this client id?)";
	case -ENOENT:
		return " (no keyring found: give --ceph-keyring or set CEPH_KEYRING)";
	case -EIO:
		return " (malformed key in the keyring?)";
	case -ETIMEDOUT:
		return " (monitor unreachable?)";
	default:
		return "";
	}
}

/* [o] resolved: what the client is given and how messages name it. */
struct target {
	const char *conf; /* NULL: librados' own search */
	const char *id;
	const char *keyring; /* NULL: $CEPH_KEYRING or the conf's */
	char tmo[16], op_tmo[16];
	char confbuf[PATH_MAX];
	/* "client.ID (conf 'X', keyring 'K', timeout N s)" */
	char who[IOS_ERR_MSGLEN];
};

static void target_of(const struct ios_ceph_opts *o, struct target *t)
{
	unsigned int tmo = o && o->timeout ? o->timeout : IOS_CEPH_TIMEOUT;
	unsigned int op = o && o->op_timeout ? o->op_timeout : tmo;
	const char *envk = getenv("CEPH_KEYRING"), *k;
	int n;

	t->conf = ios_ceph_conf(o, t->confbuf, sizeof(t->confbuf));
	t->id = ios_ceph_id(o);
	t->keyring = o && o->keyring && *o->keyring ? o->keyring : NULL;
	snprintf(t->tmo, sizeof(t->tmo), "%u", tmo);
	snprintf(t->op_tmo, sizeof(t->op_tmo), "%u", op);
	k = t->keyring ? t->keyring : (envk && *envk ? envk : NULL);
	n = snprintf(t->who, sizeof(t->who),
		     "client.%s (conf '%s'%s%s%s%s, timeout %u s)", t->id,
		     t->conf ? t->conf : "Ceph's default search path",
		     k ? ", keyring '" : "", k ? k : "", k ? "'" : "",
		     k && !t->keyring ? " from $CEPH_KEYRING" : "", tmo);
	if (n < 0 || (size_t)n >= sizeof(t->who)) /* cut, and say so */
		memcpy(t->who + sizeof(t->who) - 4, "...", 4);
}

/* The configuration calls both libraries have, on an untyped handle. */
struct conf_ops {
	int (*read_file)(void *h, const char *path);
	int (*parse_env)(void *h, const char *var);
	int (*set)(void *h, const char *key, const char *value);
};

/* Read the conf, apply the environment, set the keys of [o]. */
static int configure(const struct conf_ops *ops, void *h,
		     const struct ios_ceph_opts *o, const struct target *t,
		     struct ios_err *err)
{
	const struct ios_ceph_kv *kv;
	const struct ios_ceph_kv keys[] = {
		/* bounded time for a dead monitor, a wrong key, a down OSD */
		{"client_mount_timeout", t->tmo},
		{"rados_mon_op_timeout", t->op_tmo},
		{"rados_osd_op_timeout", t->op_tmo},
		{NULL, NULL},
	};
	int rc;

	rc = ops->read_file(h, t->conf);
	if (rc < 0)
		return ios_errf(err, rc, "read the config for %s: %s", t->who,
				strerror(-rc));
	/* $CEPH_ARGS, $CEPH_KEYRING */
	rc = ops->parse_env(h, NULL);
	if (rc < 0)
		return ios_errf(err, rc,
				"apply $CEPH_ARGS and $CEPH_KEYRING for %s: %s",
				t->who, strerror(-rc));
	if (t->keyring) {
		rc = ops->set(h, "keyring", t->keyring);
		if (rc < 0)
			return ios_errf(err, rc, "set the keyring for %s: %s",
					t->who, strerror(-rc));
	}
	for (int pass = 0; pass < 2; pass++) {
		kv = pass == 0 ? keys : (o ? o->extra : NULL);
		for (; kv && kv->key; kv++) {
			rc = ops->set(h, kv->key, kv->value);
			if (rc < 0)
				return ios_errf(err, rc,
						"set %s to '%s' for %s: %s",
						kv->key, kv->value, t->who,
						strerror(-rc));
		}
	}
	return 0;
}
#endif

#ifdef HAVE_RADOS
/* Only called once the library is loaded. */
static int conf_rados_read(void *h, const char *path)
{
	return ios_rados_load(NULL)->rados_conf_read_file(h, path);
}

static int conf_rados_env(void *h, const char *var)
{
	return ios_rados_load(NULL)->rados_conf_parse_env(h, var);
}

static int conf_rados_set(void *h, const char *key, const char *value)
{
	return ios_rados_load(NULL)->rados_conf_set(h, key, value);
}

static const struct conf_ops rados_ops = {conf_rados_read, conf_rados_env,
					  conf_rados_set};

static int rados_open(const struct ios_ceph_opts *o, bool connect,
		      void **cluster, struct ios_err *err)
{
	const struct ios_rados_api *api;
	struct ios_err e = {0};
	struct target t;
	rados_t c;
	int rc;

	*cluster = NULL;
	api = ios_rados_load(&e);
	if (!api)
		return ios_errf(err, e.code, "%s", e.msg);
	target_of(o, &t);
	rc = api->rados_create(&c, t.id);
	if (rc < 0)
		return ios_errf(err, rc, "create the client handle for %s: %s",
				t.who, strerror(-rc));
	rc = configure(&rados_ops, c, o, &t, err);
	if (rc == 0 && connect) {
		rc = api->rados_connect(c);
		if (rc < 0)
			ios_errf(err, rc, "connect to the cluster as %s: %s%s",
				 t.who, strerror(-rc), hint(rc));
	}
	if (rc < 0) {
		api->rados_shutdown(c);
		return rc;
	}
	*cluster = c;
	return 0;
}

int ios_rados_configure(const struct ios_ceph_opts *o, void **cluster,
			struct ios_err *err)
{
	return rados_open(o, false, cluster, err);
}

int ios_rados_connect(const struct ios_ceph_opts *o, void **cluster,
		      struct ios_err *err)
{
	return rados_open(o, true, cluster, err);
}

void ios_rados_shutdown(void *cluster)
{
	if (cluster)
		ios_rados_load(NULL)->rados_shutdown(cluster);
}

int ios_rados_mon_command(void *cluster, const char *cmd, char **out,
			  size_t *outlen, char **status, struct ios_err *err)
{
	const struct ios_rados_api *api;
	const char *cmds[1] = {cmd};
	char *obuf = NULL, *sbuf = NULL, *o = NULL, *s = NULL;
	size_t olen = 0, slen = 0;
	struct ios_err e = {0};
	int rc;

	if (out)
		*out = NULL;
	if (outlen)
		*outlen = 0;
	if (status)
		*status = NULL;
	api = ios_rados_load(&e);
	if (!api)
		return ios_errf(err, e.code, "%s", e.msg);
	rc = api->rados_mon_command(cluster, cmds, 1, "", 0, &obuf, &olen,
				    &sbuf, &slen);
	if (rc >= 0 && out) {
		o = malloc(olen + 1);
		if (o) {
			if (olen)
				memcpy(o, obuf, olen);
			o[olen] = '\0';
		} else {
			rc = -ENOMEM;
		}
	}
	if (status || rc < 0) {
		s = malloc(slen + 1);
		if (s) {
			if (slen)
				memcpy(s, sbuf, slen);
			s[slen] = '\0';
		} else if (rc >= 0) {
			rc = -ENOMEM;
		}
	}
	if (obuf)
		api->rados_buffer_free(obuf);
	if (sbuf)
		api->rados_buffer_free(sbuf);
	if (rc < 0) {
		ios_errf(err, rc, "monitor command '%s': %s%s%s", cmd,
			 strerror(-rc), s && *s ? ": " : "", s ? s : "");
		free(o);
		o = NULL;
	}
	if (out)
		*out = o;
	else
		free(o);
	if (status)
		*status = s;
	else
		free(s);
	if (rc >= 0 && outlen)
		*outlen = olen;
	return rc;
}
#else
int ios_rados_configure(const struct ios_ceph_opts *o, void **cluster,
			struct ios_err *err)
{
	(void)o;
	*cluster = NULL;
	return ios_errf(
		err, -ENOSYS,
		"iostrata was built without librados (rados/librados.h): no Ceph connection");
}

int ios_rados_connect(const struct ios_ceph_opts *o, void **cluster,
		      struct ios_err *err)
{
	return ios_rados_configure(o, cluster, err);
}

void ios_rados_shutdown(void *cluster)
{
	(void)cluster;
}

int ios_rados_mon_command(void *cluster, const char *cmd, char **out,
			  size_t *outlen, char **status, struct ios_err *err)
{
	void *none;

	(void)cluster;
	(void)cmd;
	if (out)
		*out = NULL;
	if (outlen)
		*outlen = 0;
	if (status)
		*status = NULL;
	return ios_rados_configure(NULL, &none, err);
}
#endif

#ifdef HAVE_CEPHFS
static int conf_cephfs_read(void *h, const char *path)
{
	return ios_cephfs_load(NULL)->ceph_conf_read_file(h, path);
}

static int conf_cephfs_env(void *h, const char *var)
{
	return ios_cephfs_load(NULL)->ceph_conf_parse_env(h, var);
}

static int conf_cephfs_set(void *h, const char *key, const char *value)
{
	return ios_cephfs_load(NULL)->ceph_conf_set(h, key, value);
}

static const struct conf_ops cephfs_ops = {conf_cephfs_read, conf_cephfs_env,
					   conf_cephfs_set};

static int cephfs_open(const struct ios_ceph_opts *o, const char *root,
		       bool mount, struct ceph_mount_info **cmount,
		       struct ios_err *err)
{
	const struct ios_cephfs_api *api;
	struct ceph_mount_info *m;
	struct ios_err e = {0};
	struct target t;
	int rc;

	*cmount = NULL;
	api = ios_cephfs_load(&e);
	if (!api)
		return ios_errf(err, e.code, "%s", e.msg);
	target_of(o, &t);
	rc = api->ceph_create(&m, t.id);
	if (rc < 0)
		return ios_errf(err, rc, "create the client handle for %s: %s",
				t.who, strerror(-rc));
	rc = configure(&cephfs_ops, m, o, &t, err);
	if (rc == 0 && mount) {
		if (!root || !*root)
			root = "/";
		rc = api->ceph_mount(m, root);
		if (rc < 0)
			ios_errf(err, rc, "mount CephFS '%s' as %s: %s%s", root,
				 t.who, strerror(-rc), hint(rc));
	}
	if (rc < 0) {
		api->ceph_release(m);
		return rc;
	}
	*cmount = m;
	return 0;
}

int ios_cephfs_configure(const struct ios_ceph_opts *o,
			 struct ceph_mount_info **cmount, struct ios_err *err)
{
	return cephfs_open(o, NULL, false, cmount, err);
}

int ios_cephfs_mount(const struct ios_ceph_opts *o, const char *root,
		     struct ceph_mount_info **cmount, struct ios_err *err)
{
	return cephfs_open(o, root, true, cmount, err);
}
#else
int ios_cephfs_configure(const struct ios_ceph_opts *o,
			 struct ceph_mount_info **cmount, struct ios_err *err)
{
	(void)o;
	*cmount = NULL;
	return ios_errf(
		err, -ENOSYS,
		"iostrata was built without libcephfs (cephfs/libcephfs.h): no CephFS connection");
}

int ios_cephfs_mount(const struct ios_ceph_opts *o, const char *root,
		     struct ceph_mount_info **cmount, struct ios_err *err)
{
	(void)root;
	return ios_cephfs_configure(o, cmount, err);
}
#endif
