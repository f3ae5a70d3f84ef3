/* SPDX-License-Identifier: GPL-2.0-or-later */
/* progress: rank 0's live progress line (see progress.h). */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"
#include "units.h"

#define TAG_PROGRESS 7101

struct mb_progress {
	MPI_Comm comm;
	int nranks;
	char phase[16];
	unsigned rep, reps;
	double runtime;
	uint64_t amount; /* --once: bytes to move over all ranks */
	int64_t t0;
	bool tty, quiet;
	int64_t next_print, last_t;
	uint64_t last_total_b, last_total_o;
	uint64_t *bytes, *ops;
	uint32_t *got;
	bool printed;
};

struct mb_progress *mb_progress_new(MPI_Comm comm, int nranks,
				    const char *phase, unsigned rep,
				    unsigned reps, double runtime,
				    int64_t t0_ns, bool quiet)
{
	struct mb_progress *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->bytes = calloc((size_t)nranks, sizeof(uint64_t));
	p->ops = calloc((size_t)nranks, sizeof(uint64_t));
	p->got = calloc((size_t)nranks, sizeof(uint32_t));
	if (!p->bytes || !p->ops || !p->got) {
		free(p->bytes);
		free(p->ops);
		free(p->got);
		free(p);
		return NULL;
	}
	p->comm = comm;
	p->nranks = nranks;
	snprintf(p->phase, sizeof(p->phase), "%s", phase);
	p->rep = rep;
	p->reps = reps;
	p->runtime = runtime;
	p->t0 = t0_ns;
	p->tty = isatty(STDERR_FILENO);
	p->quiet = quiet;
	p->next_print = t0_ns + (p->tty ? 1000000000ll : 10000000000ll);
	p->last_t = t0_ns;
	return p;
}

void mb_progress_set_amount(struct mb_progress *p, uint64_t total)
{
	if (p)
		p->amount = total;
}

/*
 * Receive what has arrived.  One empty MPI_Iprobe does not mean nothing is
 * there: Open MPI's shared-memory transport sets up a peer on its first
 * message within the receiver's progress calls, so a first message sent
 * a second ago can take several probes to show.  Probing on until
 * DRAIN_MISSES come back empty costs microseconds once per print period.
 */
#define DRAIN_MISSES 32

static void drain(struct mb_progress *p, bool block_for_owed,
		  const uint32_t *sent)
{
	int flag = 1, miss = 0;
	MPI_Status st;
	uint64_t m[3];

	while (miss < DRAIN_MISSES) {
		MPI_Iprobe(MPI_ANY_SOURCE, TAG_PROGRESS, p->comm, &flag, &st);
		if (!flag) {
			miss++;
			continue;
		}
		miss = 0;
		MPI_Recv(m, 3, MPI_UINT64_T, st.MPI_SOURCE, TAG_PROGRESS,
			 p->comm, MPI_STATUS_IGNORE);
		p->bytes[st.MPI_SOURCE] = m[0];
		p->ops[st.MPI_SOURCE] = m[1];
		p->got[st.MPI_SOURCE]++;
	}
	if (block_for_owed) {
		int k;

		for (k = 1; k < p->nranks; k++)
			while (p->got[k] < sent[k]) {
				MPI_Recv(m, 3, MPI_UINT64_T, k, TAG_PROGRESS,
					 p->comm, MPI_STATUS_IGNORE);
				p->got[k]++;
			}
	}
}

static void show(struct mb_progress *p, int64_t now, uint64_t tb, uint64_t to)
{
	double el = (double)(now - p->t0) / 1e9;
	double dt = (double)(now - p->last_t) / 1e9;
	double rate = dt > 0 ? (double)(tb - p->last_total_b) / dt : 0;
	double iops = dt > 0 ? (double)(to - p->last_total_o) / dt : 0;
	double eta = (p->runtime - el) + p->runtime * (p->reps - p->rep - 1);
	char r[32];

	if (eta < 0)
		eta = 0;
	if (p->amount) {
		/* size-based: this repetition's ETA from its rate so far */
		double done = (double)tb / (double)p->amount;

		eta = done > 0 && el > 0 ? el / done - el : 0;
		if (eta < 0)
			eta = 0;
		fprintf(stderr,
			"%siostrata-bench: %s rep %u/%u  %.0f s  %.0f%% of the files  ETA %.0f s  %s  %.0f IOPS%s",
			p->tty ? "\r" : "", p->phase, p->rep + 1, p->reps, el,
			100.0 * done, eta, ios_fmt_rate(rate, r, sizeof(r)),
			iops, p->tty ? "\033[K" : "\n");
	} else
		fprintf(stderr,
			"%siostrata-bench: %s rep %u/%u  %.0f/%.0f s  ETA %.0f s  %s  %.0f IOPS%s",
			p->tty ? "\r" : "", p->phase, p->rep + 1, p->reps, el,
			p->runtime, eta, ios_fmt_rate(rate, r, sizeof(r)), iops,
			p->tty ? "\033[K" : "\n");
	fflush(stderr);
	p->printed = true;
	p->last_t = now;
	p->last_total_b = tb;
	p->last_total_o = to;
}

void mb_progress_poll(struct mb_progress *p, uint64_t my_bytes, uint64_t my_ops,
		      int64_t now_ns)
{
	uint64_t tb = my_bytes, to = my_ops;
	int k;

	if (!p)
		return;
	drain(p, false, NULL);
	if (now_ns < p->next_print || p->quiet)
		return;
	for (k = 1; k < p->nranks; k++) {
		tb += p->bytes[k];
		to += p->ops[k];
	}
	show(p, now_ns, tb, to);
	p->next_print = now_ns + (p->tty ? 1000000000ll : 10000000000ll);
}

int64_t mb_progress_period_ns(const struct mb_progress *p)
{
	if (!p || p->quiet)
		return 0;
	return p->tty ? 1000000000ll : 10000000000ll;
}

void mb_progress_finish(struct mb_progress *p, const uint32_t *sent,
			uint64_t my_bytes, uint64_t my_ops)
{
	(void)my_bytes;
	(void)my_ops;
	if (!p)
		return;
	drain(p, true, sent);
	if (p->tty && p->printed)
		fputc('\n', stderr);
	free(p->bytes);
	free(p->ops);
	free(p->got);
	free(p);
}
