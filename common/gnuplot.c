/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gnuplot: quote file text for gnuplot scripts and data files, and run
 * gnuplot through posix_spawn (argv, no shell) with the script on stdin.
 */
#include "config.h"

#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

const char *gp_find(void)
{
	static char buf[4096];
	const char *env = getenv("GNUPLOT"), *path = getenv("PATH");

	if (env && env[0])
		return access(env, X_OK) == 0 ? env : NULL;
	if (strchr(GNUPLOT_PATH, '/') && access(GNUPLOT_PATH, X_OK) == 0)
		return GNUPLOT_PATH;
	while (path && *path) {
		const char *colon = strchr(path, ':');
		size_t len = colon ? (size_t)(colon - path) : strlen(path);
		int n = snprintf(buf, sizeof(buf), "%.*s/gnuplot", (int)len,
				 path);

		if (len && n > 0 && (size_t)n < sizeof(buf) &&
		    access(buf, X_OK) == 0)
			return buf;
		path = colon ? colon + 1 : NULL;
	}
	return NULL;
}

int gp_fputnum(FILE *fp, double v)
{
	/* gnuplot reads NaN in a data file as a missing point */
	if (!isfinite(v))
		return fputs("NaN", fp) == EOF ? -EIO : 0;
	return fprintf(fp, "%.10g", v) < 0 ? -EIO : 0;
}

/* Whether environment entry [e] is one gnuplot gets: the locale, the time
 * zone and the search path; nothing that names init files, fonts or
 * libraries another user may have chosen. */
static bool env_kept(const char *e)
{
	static const char *const keep[] = {
		"PATH=", "LANG=", "LANGUAGE=", "TZ=", "LC_"};

	for (size_t i = 0; i < sizeof(keep) / sizeof(*keep); i++)
		if (!strncmp(e, keep[i], strlen(keep[i])))
			return true;
	return false;
}

static int rm_entry(const char *path, const struct stat *st, int type,
		    struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

int gp_run(const char *gp, const char *script, size_t len, int out_fd,
	   int *status)
{
	/* -d: no system gnuplotrc, no ~/.gnuplot (gnuplot 5.4 gnuplot(1)) */
	char *argv[] = {(char *)gp, "-d", NULL};
	char home[] = "/tmp/iostrata-gnuplot.XXXXXX", *homevar = NULL;
	char **envp = NULL;
	posix_spawn_file_actions_t fa;
	FILE *in = NULL;
	size_t ne = 0, k = 0;
	pid_t pid;
	int rc, st;

	if (status)
		*status = 0;
	/* HOME: a directory of our own, empty (fontconfig may cache there) */
	if (!mkdtemp(home))
		return -errno;
	for (char **e = environ; *e; e++)
		ne++;
	envp = calloc(ne + 2, sizeof(*envp));
	if (!envp || asprintf(&homevar, "HOME=%s", home) < 0) {
		homevar = NULL;
		rc = -ENOMEM;
		goto out;
	}
	for (char **e = environ; *e; e++)
		if (env_kept(*e))
			envp[k++] = *e;
	envp[k++] = homevar;
	in = tmpfile();
	if (!in) {
		rc = -errno;
		goto out;
	}
	/* a file, not a pipe: no SIGPIPE, no deadlock if gnuplot stops */
	if (fwrite(script, 1, len, in) != len || fflush(in) != 0 ||
	    fseek(in, 0, SEEK_SET) != 0) {
		rc = -EIO;
		goto out;
	}
	rc = posix_spawn_file_actions_init(&fa);
	if (rc) {
		rc = -rc;
		goto out;
	}
	rc = posix_spawn_file_actions_adddup2(&fa, fileno(in), 0);
	if (!rc && out_fd >= 0)
		rc = posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
	/* glibc's posix_spawnp reports a failed exec (ENOENT, EACCES) */
	if (!rc)
		rc = posix_spawnp(&pid, gp, &fa, NULL, argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	if (rc) {
		rc = -rc;
		goto out;
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			rc = -errno;
			goto out;
		}
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		if (status)
			*status = WIFEXITED(st) ? WEXITSTATUS(st)
						: 128 + WTERMSIG(st);
		rc = -EIO;
	}
out:
	if (in)
		fclose(in);
	free(envp);
	free(homevar);
	nftw(home, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
	return rc;
}
