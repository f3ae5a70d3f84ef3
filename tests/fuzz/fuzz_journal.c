/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_journal: the journal reader (spank/state.c state_journal_read).
 * The input is the journal of job "fz" in a state directory made in the
 * scratch directory.  A journal that reads is written back with
 * state_journal_write and read again: the snapshot must come back the same
 * (what the epilog restores is what the prolog saw).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "state.h"

#define JOB "fz"

static struct state_dir sd = {.dirfd = -1, .jdirfd = -1};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct ios_err err = {0};
	char path[4200];

	(void)argc;
	(void)argv;
	snprintf(path, sizeof(path), "%s/state", fuzz_scratch());
	if (state_open(&sd, path, true, &err) < 0) {
		fprintf(stderr, "fuzz_journal: %s\n", err.msg);
		abort();
	}
	return 0;
}

static bool items_equal(const struct snap_item *a, const struct snap_item *b,
			size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i].id != b[i].id || a[i].online != b[i].online)
			return false;
	return true;
}

/* The writer stores "no node name" as "-" (and node.c journals it so). */
static const char *node_name(const struct snapshot *s)
{
	return s->node[0] ? s->node : "-";
}

static bool snap_equal(const struct snapshot *a, const struct snapshot *b)
{
	if (strcmp(a->jobid, b->jobid) || a->uid != b->uid ||
	    strcmp(node_name(a), node_name(b)) || a->time != b->time ||
	    a->n_cpu != b->n_cpu || a->block_size != b->block_size ||
	    a->n_mem != b->n_mem || a->n_thr != b->n_thr ||
	    !items_equal(a->cpu, b->cpu, a->n_cpu) ||
	    !items_equal(a->mem, b->mem, a->n_mem))
		return false;
	for (size_t i = 0; i < a->n_thr; i++) {
		const struct snap_thr *x = &a->thr[i], *y = &b->thr[i];

		if (strcmp(x->cg, y->cg) || x->ver != y->ver ||
		    x->dev.maj != y->dev.maj || x->dev.min != y->dev.min ||
		    x->lim.rbps != y->lim.rbps || x->lim.wbps != y->lim.wbps ||
		    x->lim.riops != y->lim.riops ||
		    x->lim.wiops != y->lim.wiops)
			return false;
	}
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ios_err err = {0};
	struct snapshot s, back;
	char name[4200];
	int rc;

	snprintf(name, sizeof(name), "state/journal/%s.state", JOB);
	fuzz_write_file(name, data, size);
	rc = state_journal_read(&sd, JOB, &s, &err);
	fuzz_note("state_journal_read", rc, err.msg);
	if (rc < 0) {
		if (rc != -EINVAL || !err.msg[0] || s.cpu || s.mem || s.thr)
			abort();
		return 0;
	}
	if (state_journal_write(&sd, &s) < 0)
		abort();
	rc = state_journal_read(&sd, JOB, &back, &err);
	if (rc < 0) {
		fprintf(stderr, "fuzz_journal: written back, not read: %s\n",
			err.msg);
		abort();
	}
	if (!snap_equal(&s, &back)) {
		fprintf(stderr,
			"fuzz_journal: read, written, read back: a different snapshot\n");
		abort();
	}
	snapshot_free(&s);
	snapshot_free(&back);
	return 0;
}
