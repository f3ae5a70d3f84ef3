/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mb_fx: iostrata-bench's option parser called from a list of arguments
 * (mb_fx.h).
 */
#include "config.h"

#include "mb_fx.h"

int mb_fx_parse(const char *const *args, struct mb_config *cfg,
		struct ios_err *err)
{
	char *argv[MB_FX_MAXARGS + 2];
	int argc = 0;

	argv[argc++] = (char *)"iostrata-bench";
	while (argc <= MB_FX_MAXARGS && args[argc - 1]) {
		argv[argc] = (char *)args[argc - 1];
		argc++;
	}
	argv[argc] = NULL;
	ios_err_clear(err);
	return mb_config_parse(cfg, argc, argv, err);
}
