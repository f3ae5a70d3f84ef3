/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ceph_hint: what a Ceph connect or mount error usually means, for the
 * messages of the rados and cephfs backends and the layered run.
 */
#include "config.h"

#include <errno.h>

#include "backend.h"

const char *mb_ceph_hint(int rc)
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
