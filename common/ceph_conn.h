/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ceph_conn: the one way iostrata connects to Ceph.  The rados and cephfs
 * backends, the layered run's preflight and the Ceph facts of a results
 * file all create, configure and connect their librados / libcephfs client
 * from one options struct, with one default for each setting, and ask the
 * monitors through one call.  The libraries come from ceph_dl.h (loaded on
 * first use); this header needs no Ceph header, so any part may include it.
 */
#ifndef IOSTRATA_CEPH_CONN_H
#define IOSTRATA_CEPH_CONN_H

#include <stddef.h>

#include "errbuf.h"

/*
 * Time bounds in seconds, chosen by what the connection is for:
 * IOS_CEPH_TIMEOUT for the benchmark (backends, the layered run's
 * preflight: --ceph-timeout's default), IOS_CEPH_PROBE_TIMEOUT for the
 * facts of a results file, which must not hold a run up for long when the
 * cluster a ceph.conf names is gone.
 */
#define IOS_CEPH_TIMEOUT 30
#define IOS_CEPH_PROBE_TIMEOUT 5
/* IOS_CEPH_TIMEOUT as a string, for option tables */
#define IOS_CEPH_STR_(x) #x
#define IOS_CEPH_STR(x) IOS_CEPH_STR_(x)
#define IOS_CEPH_TIMEOUT_STR IOS_CEPH_STR(IOS_CEPH_TIMEOUT)

/* One more configuration key for the client. */
struct ios_ceph_kv {
	const char *key, *value;
};

/*
 * How to reach the cluster.  Every member may be NULL / 0 / "" for its
 * default, the same for every caller:
 *   conf        ceph.conf to read; default: $CEPH_CONF, else the first of
 *               /etc/ceph/ceph.conf, $HOME/.ceph/ceph.conf, ./ceph.conf that
 *               exists, else librados' own search (ios_ceph_conf()).
 *   id          client id, connecting as client.<id>; default "admin"
 *               (librados' default).
 *   keyring     keyring file; default: $CEPH_KEYRING, else the conf's
 *               keyring setting, else Ceph's search path.  Given, it wins
 *               over $CEPH_KEYRING.
 *   timeout     bound on connecting or mounting (client_mount_timeout);
 *               default IOS_CEPH_TIMEOUT.
 *   op_timeout  bound on every monitor and OSD operation afterwards
 *               (rados_mon_op_timeout, rados_osd_op_timeout); default: the
 *               same as timeout.
 *   extra       more keys, set last (after $CEPH_ARGS); an array ended by
 *               {NULL, NULL}, or NULL.
 */
struct ios_ceph_opts {
	const char *conf;
	const char *id;
	const char *keyring;
	unsigned int timeout;
	unsigned int op_timeout;
	const struct ios_ceph_kv *extra;
};

/*
 * The ceph.conf [o] reads (see conf above; [o] may be NULL), or NULL when
 * none exists at the default places (librados then searches itself and
 * usually fails).  [buf] holds a path built from $HOME.
 */
const char *ios_ceph_conf(const struct ios_ceph_opts *o, char *buf, size_t len);

/* The client id [o] connects as: o->id, or "admin". */
const char *ios_ceph_id(const struct ios_ceph_opts *o);

/*
 * librados: create a client for client.<id>, read the conf, apply
 * $CEPH_ARGS and $CEPH_KEYRING, then the keyring, the time bounds and the
 * extra keys of [o] (NULL: all defaults), in that order.
 * ios_rados_configure stops there; ios_rados_connect also connects.  On
 * success [*cluster] is a rados_t for rados_shutdown() (through
 * ios_rados_load()).  Returns 0, or a negative errno with [err] set to a
 * message naming the step that failed (create, read the config, apply the
 * environment, set a key, connect), client.<id>, the conf, the keyring when
 * given, the time bound and the Ceph error text, plus a hint for the usual
 * causes (wrong key, no keyring, monitor unreachable); nothing is left
 * allocated.  No component prefix: the caller adds its own.  -ENOSYS when
 * built without librados; the loader's errors (ceph_dl.h) pass through.
 */
int ios_rados_configure(const struct ios_ceph_opts *o, void **cluster,
			struct ios_err *err);
int ios_rados_connect(const struct ios_ceph_opts *o, void **cluster,
		      struct ios_err *err);

/* rados_shutdown() [cluster] (a rados_t from the above; NULL: nothing). */
void ios_rados_shutdown(void *cluster);

/*
 * Send one JSON monitor command [cmd] on a CONNECTED [cluster] (librados
 * waits forever on one that is not).  [*out] (may be NULL): the output,
 * malloc'd and NUL-terminated (free()), its length in [*outlen] (may be
 * NULL); [*status] (may be NULL): the status string, malloc'd.  librados'
 * own buffers are released here.  Returns the command's status (>= 0), or
 * a negative errno with [err] naming the command and the status text, and
 * [*out] NULL.
 */
int ios_rados_mon_command(void *cluster, const char *cmd, char **out,
			  size_t *outlen, char **status, struct ios_err *err);

/*
 * libcephfs: the same steps as ios_rados_configure for a mount handle;
 * ios_cephfs_mount also mounts [root] (NULL: "/").  On success [*cmount]
 * is for ceph_unmount() / ceph_release(); errors as for librados ("mount"
 * is the last step), -ENOSYS when built without libcephfs.
 */
struct ceph_mount_info;
int ios_cephfs_configure(const struct ios_ceph_opts *o,
			 struct ceph_mount_info **cmount, struct ios_err *err);
int ios_cephfs_mount(const struct ios_ceph_opts *o, const char *root,
		     struct ceph_mount_info **cmount, struct ios_err *err);

#endif
