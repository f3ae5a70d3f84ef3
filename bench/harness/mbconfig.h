/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Stand-in for mpibench's configuration header, for the direct backend
 * harness (bench/be_harness.c) only: the fields and the accessor the rados
 * and cephfs backends use, as CONTRACTS.md names them.
 */
#ifndef IOSTRATA_HARNESS_MBCONFIG_H
#define IOSTRATA_HARNESS_MBCONFIG_H

#include <stdbool.h>
#include <stdint.h>

struct mb_config {
	uint64_t bs;
	uint64_t size;
	unsigned int iodepth;
	const char *dir;
	bool direct;
	/* backend options: NAME=VALUE strings, NULL-terminated */
	const char **opts;
};

const char *mb_config_opt(const struct mb_config *cfg, const char *name);

#endif
