// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mb_exit: the one table of how iostrata-bench ends (mb_exit.h): the
 * status written and the exit code of each outcome, used by the plain run
 * (main.c), the layered run (layers_print.c, layers_phase.c, layers_run.c)
 * and --help.
 */
#include "config.h"

#include "mb_exit.h"

const struct mb_outcome_row mb_outcomes[MB_OUTCOME_COUNT] = {
	[MB_OUTCOME_OK] = {MB_OUTCOME_OK, "complete", MB_EXIT_OK,
			   "valid run; results written"},
	[MB_OUTCOME_SUSPECT] =
		{MB_OUTCOME_SUSPECT, "complete", MB_EXIT_SUSPECT,
		 "--layers: a number suspect (above the layer below, cached)"},
	[MB_OUTCOME_INVALID] =
		{MB_OUTCOME_INVALID, "complete", MB_EXIT_INVALID,
		 "a repetition invalid (I/O error, short, early end, verify)"},
	[MB_OUTCOME_USAGE] =
		{MB_OUTCOME_USAGE, "failed", MB_EXIT_USAGE,
		 "bad usage, target or output, Ceph unreachable: nothing run"},
	[MB_OUTCOME_FAILED] =
		{MB_OUTCOME_FAILED, "failed", MB_EXIT_FAILED,
		 "a phase or layer could not run, or the results file failed"},
	[MB_OUTCOME_WATCHDOG] = {MB_OUTCOME_WATCHDOG, "failed",
				 MB_EXIT_WATCHDOG,
				 "watchdog abort: a rank hung or died"},
};

enum mb_outcome mb_outcome_of(bool failed, bool invalid, bool suspect)
{
	return failed    ? MB_OUTCOME_FAILED
	       : invalid ? MB_OUTCOME_INVALID
	       : suspect ? MB_OUTCOME_SUSPECT
			 : MB_OUTCOME_OK;
}

const char *mb_outcome_status(enum mb_outcome o)
{
	return (unsigned)o < MB_OUTCOME_COUNT ? mb_outcomes[o].status
					      : "failed";
}

int mb_outcome_exit(enum mb_outcome o)
{
	return (unsigned)o < MB_OUTCOME_COUNT ? mb_outcomes[o].exit_code
					      : MB_EXIT_FAILED;
}

void mb_outcome_usage(FILE *f)
{
	fprintf(f, "\nExit (plain and --layers; the results file's status):\n");
	for (int i = 0; i < MB_OUTCOME_COUNT; i++)
		fprintf(f, "  %d  %-8s  %s\n", mb_outcomes[i].exit_code,
			mb_outcomes[i].status, mb_outcomes[i].help);
}
