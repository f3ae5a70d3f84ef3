/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * backend: the registry of I/O backends (IOR's available_aiori[]) and the
 * check of an ops table before use (fio's check_engine_ops).
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "backend.h"

extern const struct mb_backend mb_backend_posix, mb_backend_null;

/* librados and libcephfs are loaded on first use (common/ceph_dl.c): the
 * rados and cephfs backends need only Ceph's headers to build. */
#ifdef HAVE_RADOS
extern const struct mb_backend mb_backend_rados;
#endif
#ifdef HAVE_CEPHFS
extern const struct mb_backend mb_backend_cephfs;
#endif

const struct mb_backend *const mb_backends[] = {
	&mb_backend_posix,
	&mb_backend_null,
#ifdef HAVE_RADOS
	&mb_backend_rados,
#endif
#ifdef HAVE_CEPHFS
	&mb_backend_cephfs,
#endif
	NULL,
};

const struct mb_backend *mb_backend_find(const char *name)
{
	const struct mb_backend *const *b;

	if (!name)
		return NULL;
	for (b = mb_backends; *b; b++)
		if (!strcmp((*b)->name, name))
			return *b;
	return NULL;
}

int mb_backend_validate(const struct mb_backend *be, struct ios_err *err)
{
	bool async;

	if (!be)
		return ios_errf(err, -EINVAL, "backend: no backend");
	if (be->abi != MB_BACKEND_ABI)
		return ios_errf(err, -EINVAL, "backend %s: ABI %u, expected %u",
				be->name, be->abi, MB_BACKEND_ABI);
	if (!be->init || !be->open || !be->pwrite || !be->pread || !be->close ||
	    !be->fini)
		return ios_errf(
			err, -EINVAL,
			"backend %s: a required hook (init, open, pwrite, pread, close, fini) is missing",
			be->name);
	async = be->flags & MB_BF_ASYNC;
	if (async != (be->submit && be->reap))
		return ios_errf(
			err, -EINVAL,
			"backend %s: submit and reap must both be present exactly when MB_BF_ASYNC is set",
			be->name);
	if (mb_backend_has_meta(be) != (be->meta_create || be->meta_stat ||
					be->meta_read || be->meta_remove ||
					be->meta_mkdir))
		return ios_errf(
			err, -EINVAL,
			"backend %s: the metadata hooks (meta_create, meta_stat, meta_read, meta_remove, meta_mkdir) must be all present or all absent",
			be->name);
	return 0;
}

bool mb_backend_has_meta(const struct mb_backend *b)
{
	return b && b->meta_create && b->meta_stat && b->meta_read &&
	       b->meta_remove && b->meta_mkdir;
}
