/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ceph_dl: librados and libcephfs loaded on first use (see ceph_dl.h).
 */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ceph_dl.h"

/* One library's load state: tried once, the outcome kept. */
struct dl_state {
	pthread_mutex_t lock;
	int rc; /* 1 = not tried yet, 0 = loaded, -errno = failed */
	char why[IOS_ERR_MSGLEN];
};

/*
 * Open [lib] (from $[env], or the soname).  Returns the handle, or NULL
 * with [st->why] set.
 */
static void *dl_open(struct dl_state *st, const char *lib, const char *env)
{
	void *h;

	(void)dlerror();
	h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *e = dlerror();

		/* dlerror() names the file */
		snprintf(
			st->why, sizeof(st->why),
			"cannot load the Ceph client library: %s (install it, or give its path in $%s)",
			e ? e : lib, env);
		st->rc = -ENOENT;
	}
	return h;
}

/* Resolve [name]; on failure set [st] (the first failure is kept). */
static void *dl_sym(struct dl_state *st, void *h, const char *lib,
		    const char *env, const char *name)
{
	void *p;

	if (st->rc != 1)
		return NULL;
	(void)dlerror();
	p = dlsym(h, name);
	if (!p) {
		const char *e = dlerror();

		snprintf(
			st->why, sizeof(st->why),
			"%s has no %s: %s (a Ceph client older than this build's headers? give another in $%s)",
			lib, name, e ? e : "null symbol", env);
		st->rc = -ENOSYS;
	}
	return p;
}

/* A symbol to resolve and where its pointer goes in the table. */
struct dl_ref {
	const char *name;
	size_t off;
};

/*
 * Load the library once (under [st]'s lock) and fill [api] from [refs].
 * Returns [api], or NULL with [err] set to the reason, the same on every
 * call after a failure.
 */
static void *dl_load(struct dl_state *st, const char *env, const char *soname,
		     const struct dl_ref *refs, size_t n, void *api,
		     struct ios_err *err)
{
	int rc;

	pthread_mutex_lock(&st->lock);
	if (st->rc == 1) {
		const char *lib = secure_getenv(env);
		void *h;
		size_t i;

		if (!lib || !*lib)
			lib = soname;
		h = dl_open(st, lib, env);
		for (i = 0; h && i < n; i++) {
			void *p = dl_sym(st, h, lib, env, refs[i].name);

			memcpy((char *)api + refs[i].off, &p, sizeof(p));
		}
		if (st->rc == 1)
			st->rc = 0;
	}
	rc = st->rc;
	pthread_mutex_unlock(&st->lock);
	if (rc) {
		ios_errf(err, rc, "%s", st->why);
		return NULL;
	}
	return api;
}

#ifdef HAVE_RADOS
static struct ios_rados_api rados_api;
static struct dl_state rados_st = {PTHREAD_MUTEX_INITIALIZER, 1, ""};

const struct ios_rados_api *ios_rados_load(struct ios_err *err)
{
#define IOS_DL_REF(f) {#f, offsetof(struct ios_rados_api, f)},
	static const struct dl_ref refs[] = {IOS_RADOS_FUNCS(IOS_DL_REF)};
#undef IOS_DL_REF

	return dl_load(&rados_st, "IOSTRATA_LIBRADOS", IOS_RADOS_SONAME, refs,
		       sizeof(refs) / sizeof(refs[0]), &rados_api, err);
}
#endif

#ifdef HAVE_CEPHFS
static struct ios_cephfs_api cephfs_api;
static struct dl_state cephfs_st = {PTHREAD_MUTEX_INITIALIZER, 1, ""};

const struct ios_cephfs_api *ios_cephfs_load(struct ios_err *err)
{
#define IOS_DL_REF(f) {#f, offsetof(struct ios_cephfs_api, f)},
	static const struct dl_ref refs[] = {IOS_CEPHFS_FUNCS(IOS_DL_REF)};
#undef IOS_DL_REF

	return dl_load(&cephfs_st, "IOSTRATA_LIBCEPHFS", IOS_CEPHFS_SONAME,
		       refs, sizeof(refs) / sizeof(refs[0]), &cephfs_api, err);
}
#endif
