/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runrec: the part of the run record that needs MPI: every node's hardware
 * metadata gathered to rank 0 (mb_runrec.h), for the plain and the layered
 * run.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

#include "crashlog.h"
#include "h5out.h"
#include "mb_runrec.h"
#include "mpit.h"
#include "phase.h"

char *mb_read_text(const char *opt, const char *path, struct ios_err *err)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		ios_errf(err, -errno, "%s: open \"%s\": %s", opt, path,
			 strerror(errno));
		return NULL;
	}
	do {
		if (cap - len < 4096) {
			char *p = realloc(buf, cap + 65536);

			if (!p) {
				free(buf);
				fclose(f);
				ios_errf(err, -ENOMEM, "%s: read \"%s\": %s",
					 opt, path, strerror(ENOMEM));
				return NULL;
			}
			buf = p;
			cap += 65536;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
		if (len > (64u << 20)) {
			free(buf);
			fclose(f);
			ios_errf(err, -EFBIG,
				 "%s: \"%s\" is larger than 64 MiB", opt, path);
			return NULL;
		}
	} while (n > 0);
	if (ferror(f)) {
		free(buf);
		fclose(f);
		ios_errf(err, -EIO, "%s: read \"%s\": %s", opt, path,
			 strerror(EIO));
		return NULL;
	}
	fclose(f);
	buf[len] = '\0';
	return buf;
}

/* Rank 0: run->host_json from the nodes' records and --host-facts. */
static void host_records(const struct mb_config *cfg, struct ios_run *run)
{
	char **extra = calloc((size_t)cfg->nhost_facts + 1, sizeof(char *));
	const char **names =
		calloc((size_t)cfg->nhost_facts + 1, sizeof(char *));
	char msg[512];
	int n = 0, got = -ENOMEM;

	for (int i = 0; extra && names && i < cfg->nhost_facts; i++) {
		struct ios_err err = {0};

		extra[n] =
			mb_read_text("--host-facts", cfg->host_facts[i], &err);
		if (!extra[n])
			fprintf(stderr, "iostrata-bench: %s (left out)\n",
				err.msg);
		else
			names[n++] = cfg->host_facts[i];
	}
	if (extra && names)
		got = mb_hw_hosts_merge(run->node_json, run->nnodes, extra,
					names, n, &run->host_json, msg,
					sizeof(msg));
	free(names);
	if (got < 0) {
		fprintf(stderr, "iostrata-bench: host records: %s\n",
			strerror(-got));
		run->nhosts = 0;
	} else {
		run->nhosts = got;
		if (msg[0])
			fprintf(stderr,
				"iostrata-bench: --host-facts: %s (left out)\n",
				msg);
	}
	for (int i = 0; extra && i < n; i++)
		free(extra[i]);
	free(extra);
}

/* Gather every node's hardware JSON (from its first rank) to rank 0. */
void mb_gather_node_json(struct mb_world *w, const struct mb_config *cfg,
			 struct ios_run *run)
{
	char *mine = NULL;
	int len = 0, *lens = NULL, *disp = NULL, total = 0, k;
	char *all = NULL;

	if (w->node_rank == 0) {
		char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
		static struct mb_mpit mpit;
		int ll = 0;

		if (MPI_Get_library_version(lib, &ll) != MPI_SUCCESS)
			lib[0] = '\0';
		/* one line: Open MPI's text runs on with build details */
		lib[strcspn(lib, "\n")] = '\0';
		mb_crashlog_stage("host record");
		/* before any phase: MPI_T is read outside the measurement */
		mb_mpit_read(&mpit);
		/* libcephfs is a client without a mount: --dir is its path */
		mine = mb_hw_host_json(cfg->dir,
				       !strcmp(cfg->backend->name, "cephfs")
					       ? "libcephfs"
					       : NULL,
				       lib[0] ? lib : NULL, &mpit);
		len = mine ? (int)strlen(mine) + 1 : 0;
	}
	mb_crashlog_stage("gathering the host records");
	if (w->rank == 0) {
		lens = calloc((size_t)w->nranks, sizeof(int));
		disp = calloc((size_t)w->nranks, sizeof(int));
	}
	MPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, w->comm);
	if (w->rank == 0) {
		for (k = 0; k < w->nranks; k++) {
			disp[k] = total;
			total += lens[k];
		}
		all = calloc((size_t)total + 1, 1);
	}
	MPI_Gatherv(mine, len, MPI_CHAR, all, lens, disp, MPI_CHAR, 0, w->comm);
	if (w->rank == 0) {
		run->nnodes = w->nnodes;
		run->node_json = calloc((size_t)w->nnodes, sizeof(char *));
		for (k = 0; k < w->nranks && run->node_json; k++) {
			int nd = w->ri[k].node;

			if (lens[k] && nd >= 0 && nd < w->nnodes &&
			    !run->node_json[nd])
				run->node_json[nd] = strdup(all + disp[k]);
		}
		for (k = 0; run->node_json && k < w->nnodes; k++)
			if (!run->node_json[k])
				run->node_json[k] = strdup("{}");
		host_records(cfg, run);
	}
	free(mine);
	free(lens);
	free(disp);
	free(all);
}
