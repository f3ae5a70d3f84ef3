/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_siteconf: the site-file loader (site/siteconf.c ios_site_load).
 * The input is site.conf, written to the scratch directory.  A site that
 * loads must keep siteconf.h's promise that every value was checked at
 * load time: each set key's typed getter succeeds; then the sections walk
 * and the node cost run the way the report and the campaign use them.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "siteconf.h"

/* Every key name of siteconf.h's format (the section decides the type). */
static const char *const key_names[] = {
	"name",
	"description",
	"nodes",
	"nodelist",
	"partition",
	"disks_per_node",
	"disk_bw",
	"disk_bw_measured",
	"controller_bw",
	"nic_bw",
	"cores",
	"memory",
	"osds_per_node",
	"nvme_per_node",
	"replication",
	"policy",
	"state_dir",
	"device_dir",
	"ranks_per_node",
	"file_size",
	"seq_bs",
	"rand_bs",
	"runtime",
	"reps",
	"iodepth",
	"ioengine",
	"dir",
	"interval",
	"cpus",
	"mem",
	"throttle",
	"currency",
	"core",
	"mem_gb",
	"hdd",
	"nvme",
	"node_base",
	"time",
	"account",
	"qos",
	"mpi",
	"extra",
	"history",
	"textfile",
	"threshold",
	"tiers",
	"tier",
	"seq_read_bw",
	"seq_write_bw",
	"rand_read_iops",
	"rand_write_iops",
};

static int check_key(const struct ios_site *s, const char *sec, const char *key)
{
	struct ios_err err = {0};
	uint64_t u, *list = NULL;
	double d;
	int kind = ios_site_key_kind(sec, key), rc;

	if (!ios_site_get(s, sec, key))
		return 0;
	switch (kind) {
	case IOS_SITE_STRING:
	case IOS_SITE_ENUM:
		return 0;
	case IOS_SITE_SIZE:
		return ios_site_get_size(s, sec, key, &u, &err);
	case IOS_SITE_RATE:
		return ios_site_get_rate(s, sec, key, &u, &err);
	case IOS_SITE_UINT:
		return ios_site_get_uint(s, sec, key, &u, &err);
	case IOS_SITE_DOUBLE:
		return ios_site_get_double(s, sec, key, &d, &err);
	case IOS_SITE_DURATION:
		return ios_site_get_duration(s, sec, key, &d, &err);
	case IOS_SITE_SIZE_LIST:
	case IOS_SITE_RATE_LIST:
	case IOS_SITE_UINT_LIST:
		rc = ios_site_get_list(s, sec, key, &list, &err);
		free(list);
		return rc > 0 ? 0 : -1;
	}
	return -1; /* a value under a key the loader does not know */
}

static int section_cb(const char *section, const char *name, void *arg)
{
	const struct ios_site *s = arg;

	if (!name || !*name)
		abort();
	for (size_t i = 0; i < sizeof(key_names) / sizeof(*key_names); i++)
		if (check_key(s, section, key_names[i]) != 0) {
			fprintf(stderr,
				"fuzz_siteconf: loaded [%s] %s = \"%s\" fails its typed getter\n",
				section, key_names[i],
				ios_site_get(s, section, key_names[i]));
			abort();
		}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ios_err err = {0};
	struct ios_site *s = NULL;
	const char *path = fuzz_write_file("site.conf", data, size);
	double cost;
	int rc = ios_site_load(path, &s, &err);

	fuzz_note("ios_site_load", rc, err.msg);

	if (rc < 0) {
		if (s || !err.msg[0])
			abort();
		return 0;
	}
	ios_site_sections(s, "", section_cb, s);
	ios_site_node_cost(s, 16, UINT64_C(64) << 30, &cost, &err);
	ios_site_free(s);
	return 0;
}
