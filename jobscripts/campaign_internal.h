/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * campaign_internal: what the parts of iostrata-campaign share (campaign.c:
 * main, getvar and env; campaign_plan.c, campaign_dir.c, campaign_submit.c,
 * campaign_state.c).  Not a library interface.
 */
#ifndef IOSTRATA_CAMPAIGN_INTERNAL_H
#define IOSTRATA_CAMPAIGN_INTERNAL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "campaign.h"
#include "siteconf.h"

#define PROG "iostrata-campaign"

struct argv {
	char **v;
	size_t n, cap;
};

struct campaign {
	struct ios_site *site;
	const char *site_arg;
	char site_abs[PATH_MAX];
	const char *job;
	char dir[PATH_MAX];
	struct camp_element *el;
	size_t nel;
};

struct opts {
	const char *campaign;
	unsigned throttle;
	bool throttle_set;
	bool resume;
	bool dry_run;
	bool list;
	const char *dflt;
	double wait;
	char **extra;
};

/* Heterogeneous (storage + compute components) or compute-only jobs. */
bool camp_job_is_het(const char *job);

int camp_argv_add(struct argv *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int camp_argv_split(struct argv *a, const char *s);
void camp_argv_free(struct argv *a);
void camp_print_quoted(FILE *fp, char *const *v);

int camp_mkdir_p(const char *path);
int camp_write_atomic(const char *dir, const char *name, const char *text);
int camp_open(struct campaign *c, const char *site_arg, const char *job,
	      const char *dir);
/* The campaign directory [dir] is the caller's to act on: absent (submit
 * makes it), or a directory (not a symlink) owned by the effective user
 * that others cannot write (group write is allowed: a team's campaigns).
 * Returns 0, or -ENOTDIR / -EPERM / a negative errno, the reason printed
 * on stderr. */
int camp_dir_check(const char *dir);
void camp_close(struct campaign *c);
int camp_read_jobids(struct campaign *c);
int camp_write_jobids(const struct campaign *c);
int camp_load_recorded(struct campaign *c);

/* Run argv, its stdout into [out] (NULL: not kept; [first_line]: only
 * its first line).  Returns the exit status, or a negative errno. */
int camp_run_capture(char *const *argv, char *out, size_t len, bool first_line);

/* campaign_repl.c: the pools and directories of [sweep] replication.
 * prepare: before submitting, make or check every factor's pool and
 * directory (DIR/replication.tsv records what it made; a failure undoes
 * what this call made): 0, or -1 said on stderr.  dir: the directory of
 * element [e]'s factor into [out]: 0 or -1 said. */
int camp_repl_prepare(struct campaign *c);
int camp_repl_dir(const struct campaign *c, const struct camp_element *e,
		  char *out, size_t len);

int camp_cmd_submit(struct campaign *c, const struct opts *o);
/* `clean`: remove the pools and directories the campaign made (exit 0,
 * 1 something left or an element still queued, 2 bad record). */
int camp_cmd_clean(struct campaign *c);
int camp_cmd_status(struct campaign *c, const struct opts *o);
int camp_cmd_collect(struct campaign *c);

#endif
