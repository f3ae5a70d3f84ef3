/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gnuplot: text for gnuplot scripts and data files that gnuplot can only
 * read as text, and running gnuplot without a shell.  Every string from a
 * results file, a site file or the command line goes through gp_fputq()
 * (script) or gp_fputd() (data file): gnuplot expands backquotes inside
 * double-quoted strings, and a newline would start a new command.
 */
#ifndef IOSTRATA_GNUPLOT_H
#define IOSTRATA_GNUPLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Write [s] to [fp] as a gnuplot string expression for a command (title,
 * label, `set output`, a file name in `plot`): single-quoted text, where
 * gnuplot expands nothing (no backquotes, macros or escapes), each '
 * written as '."'".' (a concatenation: doubling it fails in gnuplot 5.4,
 * which ends a single-quoted string at a quote that follows a quote, so
 * '''x' is two strings), and control characters (0x00-0x1f, 0x7f,
 * newlines included) dropped.  Returns 0 or -EIO (write failed).
 */
int gp_fputq(FILE *fp, const char *s);

/* gp_fputq() of the printf-formatted text.  Returns 0, -ENOMEM or -EIO. */
int gp_fprintq(FILE *fp, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Write [s] to [fp] as one double-quoted column of a gnuplot data file
 * (read with `using ...:N` / `with labels`): " becomes ', control
 * characters are dropped, so the line stays one record of the same
 * columns.  Returns 0 or -EIO.
 */
int gp_fputd(FILE *fp, const char *s);

/* Whether [s] holds a control character (a path gp_fputq would change). */
bool gp_has_ctrl(const char *s);

/*
 * Write [v] as a number of a gnuplot data file: "%.10g", or "NaN" (a
 * missing point to gnuplot) when it is not finite, so that nan or inf from
 * a results file never reaches gnuplot as a number.  Returns 0 or -EIO.
 */
int gp_fputnum(FILE *fp, double v);

/*
 * The gnuplot to run: $GNUPLOT when set (the caller's own choice of
 * binary, which must be executable: NULL otherwise), else the one found
 * at configure time, else "gnuplot" in PATH.  NULL when there is none.
 */
const char *gp_find(void);

/*
 * Run gnuplot [gp] (a path, or a name looked up in PATH) with no shell,
 * the [len] bytes of [script] on its standard input and its standard
 * output on [out_fd] (inherited when negative: where a terminal with no
 * `set output` writes the image).  gnuplot runs with -d (no system
 * gnuplotrc, no ~/.gnuplot) and an environment of PATH, LANG, LANGUAGE,
 * LC_* and TZ only, HOME an empty private directory: init files and
 * variables of whoever called sudo are not read.  Returns 0; a negative
 * errno when it cannot be started (-ENOENT: no such program) or waited
 * for; -EIO when it failed, with *status (may be NULL) set to its exit
 * code, or 128 + the signal that killed it.
 */
int gp_run(const char *gp, const char *script, size_t len, int out_fd,
	   int *status);

#endif
