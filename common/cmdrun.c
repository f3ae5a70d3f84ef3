/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmdrun: posix_spawnp with an argv (no shell: the caller's arguments are
 * never parsed again), output in temporary files (no pipe to fill up and
 * block the child), a bounded wait (a CLI waiting for a daemon forever
 * must not hang a prolog, an epilog or a benchmark's start).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmdrun.h"

extern char **environ;

/* The text of [f] from its start into [buf] ([len] bytes).  Returns the
 * count, or -E2BIG when it does not fit. */
static ssize_t slurp(FILE *f, char *buf, size_t len)
{
	size_t n;

	if (fflush(f) != 0 || fseek(f, 0, SEEK_SET) != 0)
		return -EIO;
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	if (n == len - 1 && fgetc(f) != EOF)
		return -E2BIG;
	return (ssize_t)n;
}

/* Wait for [pid] at most [ms]; kill it (our own child) after that. */
static int wait_child(pid_t pid, int ms, int *st)
{
	struct timespec nap = {0, 10 * 1000 * 1000};
	int waited = 0;

	for (;;) {
		pid_t r = waitpid(pid, st, WNOHANG);

		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR)
			return -errno;
		if (waited >= ms) {
			kill(pid, SIGKILL);
			while (waitpid(pid, st, 0) < 0 && errno == EINTR)
				;
			return -ETIMEDOUT;
		}
		nanosleep(&nap, NULL);
		waited += 10;
	}
}

/* Spawn [argv] with standard output on [out] and error on [errf]. */
static int spawn(char *const *argv, FILE *out, FILE *errf, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t none, dfl;
	int rc;

	rc = posix_spawn_file_actions_init(&fa);
	if (rc)
		return -rc;
	rc = posix_spawnattr_init(&at);
	if (rc) {
		posix_spawn_file_actions_destroy(&fa);
		return -rc;
	}
	sigemptyset(&none);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGPIPE);
	sigaddset(&dfl, SIGCHLD);
	rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	if (!rc)
		rc = posix_spawn_file_actions_adddup2(&fa, fileno(out), 1);
	if (!rc)
		rc = posix_spawn_file_actions_adddup2(&fa, fileno(errf), 2);
#if defined(__GLIBC__) &&                                                      \
	(__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
	/* none of the caller's descriptors (slurmd's sockets, lock files)
	 * in a child that may outlive a restart of slurmd until we kill it */
	if (!rc)
		rc = posix_spawn_file_actions_addclosefrom_np(&fa, 3);
#endif
	if (!rc)
		rc = posix_spawnattr_setsigmask(&at, &none);
	if (!rc)
		rc = posix_spawnattr_setsigdefault(&at, &dfl);
	if (!rc)
		rc = posix_spawnattr_setflags(
			&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	/* glibc's posix_spawnp reports a failed exec (ENOENT, EACCES) */
	if (!rc)
		rc = posix_spawnp(pid, argv[0], &fa, &at, argv, environ);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	return -rc;
}

int ios_cmd_run(const char *const *argv, int timeout_ms, char *out, size_t len,
		char *errline, size_t elen, int *status)
{
	FILE *fo, *fe = NULL;
	pid_t pid;
	int rc, st = 0;

	if (errline && elen)
		errline[0] = '\0';
	if (out && len)
		out[0] = '\0';
	fo = tmpfile();
	if (fo)
		fe = tmpfile();
	if (!fo || !fe) {
		rc = -errno;
		goto out;
	}
	rc = spawn((char *const *)argv, fo, fe, &pid);
	if (rc < 0)
		goto out;
	rc = wait_child(pid, timeout_ms, &st);
	if (status)
		*status = st;
	if (rc < 0)
		goto out;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		/* a long text still gives its first line */
		if (errline && elen && slurp(fe, errline, elen) == -EIO)
			errline[0] = '\0';
		if (errline && elen)
			errline[strcspn(errline, "\n")] = '\0';
		rc = -EIO;
		goto out;
	}
	if (out && len) {
		ssize_t n = slurp(fo, out, len);

		if (n < 0)
			rc = (int)n;
	}
out:
	if (fo)
		fclose(fo);
	if (fe)
		fclose(fe);
	return rc;
}
