/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ceph_dl: librados and libcephfs, loaded when first needed (dlopen) rather
 * than linked.  The Ceph client libraries pull in libceph-common, libstdc++,
 * boost and the RDMA stack: about 9 MiB of resident memory in every rank of
 * every run, most of which use posix or null and never touch Ceph.  Loading
 * them on demand keeps that out of those runs, and lets one iostrata binary
 * run on nodes that have no Ceph client installed (the rados and cephfs
 * backends then fail with a message naming the library).
 *
 * Each table holds a pointer per function, typed from Ceph's own headers
 * (__typeof__), so a call through it is checked like a direct call.  The
 * library name can be overridden for a Ceph client outside the loader's
 * path: $IOSTRATA_LIBRADOS and $IOSTRATA_LIBCEPHFS (a path or a soname).
 * Libraries are never unloaded (C++ static destructors).  Thread-safe.
 */
#ifndef IOSTRATA_CEPH_DL_H
#define IOSTRATA_CEPH_DL_H

#include "errbuf.h"

#ifdef HAVE_RADOS
#include <rados/librados.h>

#define IOS_RADOS_SONAME "librados.so.2"
#define IOS_RADOS_FUNCS(X)                                                     \
	X(rados_create)                                                        \
	X(rados_conf_read_file)                                                \
	X(rados_conf_parse_env)                                                \
	X(rados_conf_set)                                                      \
	X(rados_conf_get)                                                      \
	X(rados_connect)                                                       \
	X(rados_shutdown)                                                      \
	X(rados_cluster_fsid)                                                  \
	X(rados_mon_command)                                                   \
	X(rados_buffer_free)                                                   \
	X(rados_ioctx_create)                                                  \
	X(rados_ioctx_destroy)                                                 \
	X(rados_ioctx_set_namespace)                                           \
	X(rados_stat)                                                          \
	X(rados_write)                                                         \
	X(rados_write_full)                                                    \
	X(rados_read)                                                          \
	X(rados_remove)                                                        \
	X(rados_nobjects_list_open)                                            \
	X(rados_nobjects_list_next)                                            \
	X(rados_nobjects_list_close)                                           \
	X(rados_aio_create_completion2)                                        \
	X(rados_aio_write)                                                     \
	X(rados_aio_write_full)                                                \
	X(rados_aio_read)                                                      \
	X(rados_aio_get_return_value)                                          \
	X(rados_aio_release)                                                   \
	X(rados_getxattr)                                                      \
	X(rados_setxattr)                                                      \
	X(rados_rmxattr)                                                       \
	X(rados_create_write_op)                                               \
	X(rados_write_op_create)                                               \
	X(rados_write_op_setxattr)                                             \
	X(rados_write_op_operate)                                              \
	X(rados_release_write_op)

struct ios_rados_api {
#define IOS_DL_MEMBER(f) __typeof__(f) *f;
	IOS_RADOS_FUNCS(IOS_DL_MEMBER)
#undef IOS_DL_MEMBER
};

/*
 * Load librados (once) and return its table, or NULL with [err] set to a
 * message naming the library or the missing symbol and the override.
 */
const struct ios_rados_api *ios_rados_load(struct ios_err *err);
#endif /* HAVE_RADOS */

#ifdef HAVE_CEPHFS
#include <cephfs/libcephfs.h>

#define IOS_CEPHFS_SONAME "libcephfs.so.2"
#define IOS_CEPHFS_FUNCS(X)                                                    \
	X(ceph_create)                                                         \
	X(ceph_conf_read_file)                                                 \
	X(ceph_conf_parse_env)                                                 \
	X(ceph_conf_set)                                                       \
	X(ceph_conf_get)                                                       \
	X(ceph_mount)                                                          \
	X(ceph_unmount)                                                        \
	X(ceph_release)                                                        \
	X(ceph_statx)                                                          \
	X(ceph_open)                                                           \
	X(ceph_close)                                                          \
	X(ceph_write)                                                          \
	X(ceph_read)                                                           \
	X(ceph_fsync)                                                          \
	X(ceph_fstatx)                                                         \
	X(ceph_fgetxattr)                                                      \
	X(ceph_fsetxattr)                                                      \
	X(ceph_fremovexattr)                                                   \
	X(ceph_lgetxattr)                                                      \
	X(ceph_unlink)                                                         \
	X(ceph_mkdir)                                                          \
	X(ceph_rmdir)

struct ios_cephfs_api {
#define IOS_DL_MEMBER(f) __typeof__(f) *f;
	IOS_CEPHFS_FUNCS(IOS_DL_MEMBER)
#undef IOS_DL_MEMBER
};

/* As ios_rados_load(), for libcephfs. */
const struct ios_cephfs_api *ios_cephfs_load(struct ios_err *err);
#endif /* HAVE_CEPHFS */

#endif
