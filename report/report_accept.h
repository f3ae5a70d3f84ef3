/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_accept: what the two files of `iostrata-report accept` share:
 * report_accept.c (the command: options, tiers, runs, the judging) and
 * report_accept_print.c (the verdicts in each output format).
 */
#ifndef IOSTRATA_REPORT_ACCEPT_H
#define IOSTRATA_REPORT_ACCEPT_H

#include <stddef.h>
#include <jansson.h>

#include "accept.h"
#include "report.h"

enum acc_format { ACC_TEXT, ACC_MD, ACC_JSON, ACC_HTML };

/* Before the tiers: *[jall] a new JSON document (--format=json, with the
 * fio tolerance [tol]) or the HTML page's head printed; else nothing. */
void acc_print_head(enum acc_format fmt, double tol, json_t **jall);

/* One tier's verdict [v] against tier [t] of tiers file [file] in [fmt]:
 * printed on stdout, or (json) appended to [jall]'s "tiers". */
void acc_print_tier(enum acc_format fmt, const struct ios_acc_tier *t,
		    const char *file, const struct ios_acc_verdict *v,
		    double tol, json_t *jall);

/* After the tiers: the HTML page's list of [runs] and its end, or
 * [jall] with the exit code [rc] printed and freed. */
void acc_print_tail(enum acc_format fmt, const struct report_run *runs,
		    size_t n, json_t *jall, int rc);

#endif
