/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ceph_opts: the Ceph options of iostrata-bench (--ceph-conf, --ceph-id,
 * --ceph-keyring, --ceph-timeout: the rados and cephfs backends' and the
 * layered run's) as common/ceph_conn.h's options struct, for the backends,
 * the preflight and the Ceph facts of the results file alike.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "backend.h"
#include "ceph_conn.h"
#include "mb_config.h"
#include "units.h"

int mb_ceph_opts(const struct mb_config *cfg, struct ios_ceph_opts *o,
		 struct ios_err *err)
{
	const char *t = mb_config_opt(cfg, "ceph-timeout");
	uint64_t v = 0;
	int rc;

	memset(o, 0, sizeof(*o));
	o->conf = mb_config_opt(cfg, "ceph-conf");
	o->id = mb_config_opt(cfg, "ceph-id");
	o->keyring = mb_config_opt(cfg, "ceph-keyring");
	if (t && *t) {
		rc = ios_parse_uint(t, "--ceph-timeout", 1, 3600, &v, err);
		if (rc < 0)
			return rc;
	}
	o->timeout = (unsigned int)v;
	return 0;
}
