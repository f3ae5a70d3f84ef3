/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spank-options: print spank_iostrata.so's option table (options.h) in
 * the --help layout of the other tools, for scripts/mkman.  Built, never
 * installed: the plugin itself has no command line.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "options.h"

#define OPT_LINE(id, name, arg, what)                                          \
	printf("  --%-28s  %s\n", name "=" arg, what);
#define ARG_LINE(key, arg, what) printf("  %-30s  %s\n", key "=" arg, what);
#define ARG_SYN(key, arg, what) printf(" [%s]", key "=" arg);

int main(int argc, char **argv)
{
	if (argc != 2 || strcmp(argv[1], "--help") != 0) {
		fprintf(stderr, "usage: spank-options --help\n");
		return 2;
	}
	printf("Usage: required PLUGINDIR/spank_iostrata.so");
	IOSTRATA_PLUGSTACK_ARGS(ARG_SYN)
	printf("\n\nPlugstack arguments (plugstack.conf):\n");
	IOSTRATA_PLUGSTACK_ARGS(ARG_LINE)
	printf("\nJob options (srun, sbatch, salloc):\n");
	IOSTRATA_SPANK_OPTIONS(OPT_LINE)
	return 0;
}
