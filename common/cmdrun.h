/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmdrun: run a command line tool (ceph, scontrol) with an argv, no shell,
 * its output in temporary files and killed when it outlives a timeout: the
 * one way spank/ and facts/ ask a CLI.
 */
#ifndef IOSTRATA_CMDRUN_H
#define IOSTRATA_CMDRUN_H

#include <stddef.h>

/*
 * Run [argv] (NULL-terminated; argv[0] searched in PATH) with standard
 * input /dev/null, no descriptor of ours beyond 0-2 (glibc >= 2.34) and
 * the default SIGPIPE/SIGCHLD; kill it after [timeout_ms].  Its standard
 * output goes to [out] ([len] bytes, NUL-terminated; may be NULL), the
 * first line of its standard error to [errline] ([elen] bytes; may be
 * NULL, "" when none).  *[status] (may be NULL) is the wait status.
 * Returns 0 (exit 0), the spawn's -errno (-ENOENT: no such program,
 * -EACCES), -ETIMEDOUT (killed), -EIO (non-zero exit or a signal: see
 * *status), -E2BIG (more output than [len]), or a temporary file's -errno.
 */
int ios_cmd_run(const char *const *argv, int timeout_ms, char *out, size_t len,
		char *errline, size_t elen, int *status);

#endif
