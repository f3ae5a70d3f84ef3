/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runrec: the header and configuration list of a run record (runrec.h).
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "runrec.h"

/* A copy of [s]; NULL stays NULL (the writer stores it as ""). */
static char *xstrdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

static char *new_run_id(void)
{
	char buf[64] = "";
	FILE *f = fopen("/proc/sys/kernel/random/uuid", "re");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
	if (!buf[0])
		snprintf(buf, sizeof(buf), "%08lx-%04x", (long)time(NULL),
			 (unsigned)getpid() & 0xffff);
	return strdup(buf);
}

static char *now_utc(void)
{
	char buf[64];
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return strdup(buf);
}

int ios_runrec_header(struct ios_run *run, const char *tool,
		      const char *command_line)
{
	run->run_id = new_run_id();
	run->created_utc = now_utc();
	run->tool = xstrdup(tool);
	run->tool_version = strdup(PACKAGE_VERSION);
	run->git_revision = strdup(IOSTRATA_GIT_REVISION);
	run->build_options = strdup(IOSTRATA_CONFIGURE_ARGS);
	run->command_line = xstrdup(command_line);
	run->status = strdup("running");
	if (!run->run_id || !run->created_utc || (tool && !run->tool) ||
	    !run->tool_version || !run->git_revision || !run->build_options ||
	    (command_line && !run->command_line) || !run->status)
		return -ENOMEM;
	return 0;
}

int ios_runrec_status(struct ios_run *run, const char *status)
{
	free(run->status);
	run->status = strdup(status);
	return run->status ? 0 : -ENOMEM;
}

int ios_runrec_kv(struct ios_run *run, const char *key, const char *fmt, ...)
{
	struct ios_kv *p =
		realloc(run->config, (run->nconfig + 1) * sizeof(*p));
	va_list ap;
	char *k, *v = NULL;
	int n;

	if (!p)
		return -ENOMEM;
	run->config = p;
	va_start(ap, fmt);
	n = vasprintf(&v, fmt, ap);
	va_end(ap);
	k = strdup(key);
	if (n < 0 || !k) {
		free(k);
		if (n >= 0)
			free(v);
		return -ENOMEM;
	}
	p[run->nconfig].key = k;
	p[run->nconfig].value = v;
	run->nconfig++;
	return 0;
}

const char *ios_runrec_get(const struct ios_run *run, const char *key)
{
	for (size_t i = 0; run->config && i < run->nconfig; i++)
		if (run->config[i].key && !strcmp(run->config[i].key, key))
			return run->config[i].value;
	return NULL;
}

const char *ios_run_mode(const struct ios_run *run, int *nsize, int *nreps)
{
	const char *m = ios_runrec_get(run, "mode");
	int s = 0, t = 0;

	for (int p = 0; run->phases && p < run->nphases; p++)
		for (int r = 0; r < run->phases[p].nreps; r++) {
			t++;
			s += run->phases[p].reps[r].size_based;
		}
	if (nsize)
		*nsize = s;
	if (nreps)
		*nreps = t;
	return m && *m ? m : "unknown";
}
