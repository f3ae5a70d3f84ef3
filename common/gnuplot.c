/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gnuplot: quote file text for gnuplot scripts and data files, and run
 * gnuplot through posix_spawn (argv, no shell) with the script on stdin.
 */
#include "config.h"

#include <errno.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gnuplot.h"

extern char **environ;

static bool is_ctrl(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

bool gp_has_ctrl(const char *s)
{
	for (; *s; s++)
		if (is_ctrl((unsigned char)*s))
			return true;
	return false;
}

/* Write [s] between [q] quotes: control characters dropped, [q] inside
 * written as [dq] (a string). */
static int put_quoted(FILE *fp, const char *s, char q, const char *dq)
{
	if (putc(q, fp) == EOF)
		return -EIO;
	for (; *s; s++) {
		if (is_ctrl((unsigned char)*s))
			continue;
		if (*s == q ? fputs(dq, fp) == EOF : putc(*s, fp) == EOF)
			return -EIO;
	}
	return putc(q, fp) == EOF ? -EIO : 0;
}

int gp_fputq(FILE *fp, const char *s)
{
	/* '."'".' : the only double-quoted string, a lone quote, expands
	 * nothing either */
	return put_quoted(fp, s, '\'', "'.\"'\".'");
}

int gp_fputd(FILE *fp, const char *s)
{
	/* data files know no escapes: a " inside would end the column */
	return put_quoted(fp, s, '"', "'");
}

int gp_fprintq(FILE *fp, const char *fmt, ...)
{
	char *s;
	va_list ap;
	int n, rc;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	rc = gp_fputq(fp, s);
	free(s);
	return rc;
}

int gp_run(const char *gp, const char *script, size_t len, int *status)
{
	char *argv[] = {(char *)gp, NULL};
	posix_spawn_file_actions_t fa;
	FILE *in = tmpfile();
	pid_t pid;
	int rc, st;

	if (status)
		*status = 0;
	if (!in)
		return -errno;
	/* a file, not a pipe: no SIGPIPE, no deadlock if gnuplot stops */
	if (fwrite(script, 1, len, in) != len || fflush(in) != 0 ||
	    fseek(in, 0, SEEK_SET) != 0) {
		fclose(in);
		return -EIO;
	}
	rc = posix_spawn_file_actions_init(&fa);
	if (rc) {
		fclose(in);
		return -rc;
	}
	rc = posix_spawn_file_actions_adddup2(&fa, fileno(in), 0);
	/* glibc's posix_spawnp reports a failed exec (ENOENT, EACCES) */
	if (!rc)
		rc = posix_spawnp(&pid, gp, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	fclose(in);
	if (rc)
		return -rc;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	if (status)
		*status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	return -EIO;
}
