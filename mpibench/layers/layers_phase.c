// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * layers_phase: one layer's write and read phases on its communicator,
 * the run record on world rank 0 (the phases it runs itself, or receives
 * from the layer's root as runwire bytes) and the results file written
 * after each repetition (see layers_internal.h).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>

#include "figures.h"
#include "h5out.h"
#include "layers_internal.h"
#include "mb_exit.h"
#include "netbench.h"
#include "runrec.h"
#include "runwire.h"

/* ---- the run record ----------------------------------------------- */

/* Write the results file (if any); 0 or -errno, said on stderr. */
int lrun_save(struct lrun *lr)
{
	struct ios_err e = {0};
	int rc;

	if (!lr->output)
		return 0;
	rc = mb_h5_write(lr->output, &lr->run, &e);
	if (rc < 0)
		fprintf(stderr, "iostrata-bench: %s\n", e.msg);
	return rc;
}

static struct ios_phase_result *new_phase(struct lrun *lr)
{
	struct ios_run *r = &lr->run;

	if (r->nphases == lr->cap_phases) {
		int cap = lr->cap_phases ? lr->cap_phases * 2 : 16;
		struct ios_phase_result *p =
			realloc(r->phases, (size_t)cap * sizeof(*p));

		if (!p)
			return NULL;
		r->phases = p;
		lr->cap_phases = cap;
	}
	memset(&r->phases[r->nphases], 0, sizeof(r->phases[0]));
	return &r->phases[r->nphases];
}

/* A run that could not start: a results file that says why (status
 * failed, the reason as verdict), so a campaign sees an invalid run. */
void lrun_save_invalid(const struct mb_config *cfg, const struct lyr_opts *o,
		       const struct ios_err *e)
{
	struct lrun lr;
	char *v = NULL;

	if (!cfg->output)
		return;
	memset(&lr, 0, sizeof(lr));
	lr.output = cfg->output;
	if (lyr_runrec_start(&lr.run, cfg, o, NULL) == 0 &&
	    ios_runrec_status(&lr.run, mb_outcome_status(MB_OUTCOME_USAGE)) ==
		    0 &&
	    asprintf(&v, "invalid: the layered run did not start: %s",
		     e->msg) >= 0) {
		lr.run.verdict = v;
		lrun_save(&lr);
	}
	ios_run_clear(&lr.run); /* frees v, the verdict, too */
}

static void lrun_rep_done(void *arg, const struct ios_phase_result *ph)
{
	struct lctx *c = arg;

	(void)ph;
	/* the phase being filled is the last one (see lrun_run_layer) */
	if (c->lr) {
		c->lr->run.nphases++;
		lrun_save(c->lr);
		c->lr->run.nphases--;
	}
}

/* Mean stonewalled bandwidth of the valid repetitions that have one (a
 * repetition too short to stonewall has none: never a NAN in the sum);
 * NAN if none. */
static double phase_bw(const struct ios_phase_result *ph, char *why, size_t len)
{
	double sum = 0;
	int n = 0;

	for (int r = 0; r < ph->nreps; r++) {
		if (ph->reps[r].valid &&
		    isfinite(ph->reps[r].fig.stonewall_bw)) {
			sum += ph->reps[r].fig.stonewall_bw;
			n++;
		} else if (ph->reps[r].valid) {
			if (why && !why[0])
				snprintf(why, len,
					 "repetition %d: " IOS_STONEWALL_SHORT,
					 r);
		} else if (why && !why[0]) {
			snprintf(why, len, "repetition %d invalid: %.150s", r,
				 ph->reps[r].invalid_reason);
		}
	}
	if (!n && why && !why[0])
		snprintf(why, len, "no repetition finished");
	return n ? sum / n : NAN;
}

/* Receive into [buf] without spinning (rank 0 waits out a whole layer it
 * does not run, on a machine whose cores the measuring ranks need). */
int lrun_quiet_recv(void *buf, int count, MPI_Datatype type, int src, int tag)
{
	MPI_Request rq;
	int done = 0, rc;

	rc = MPI_Irecv(buf, count, type, src, tag, MPI_COMM_WORLD, &rq);
	while (rc == MPI_SUCCESS && !done) {
		rc = MPI_Test(&rq, &done, MPI_STATUS_IGNORE);
		if (rc == MPI_SUCCESS && !done)
			usleep(2000);
	}
	return rc == MPI_SUCCESS ? 0 : -EIO;
}

/*
 * The layer's root (rank 0 of its communicator, not world rank 0) hands
 * one phase to world rank 0, which holds the run record: its result code,
 * its message and the phase as runwire bytes (both ends are this binary).
 */
static void ship_phase(int rc, const struct ios_err *err,
		       struct ios_phase_result *ph)
{
	struct ios_wire w = {0};
	struct ios_run one;
	char *nodes[1] = {NULL};
	int hdr[2];

	memset(&one, 0, sizeof(one));
	one.run_id = one.created_utc = one.tool = one.tool_version = "";
	one.git_revision = one.build_options = one.command_line = "";
	one.status = "";
	one.node_json = nodes;
	if (rc == 0) {
		one.nphases = 1;
		one.phases = ph;
		ios_wire_run(&w, &one);
		if (w.failed)
			rc = w.failed;
	}
	hdr[0] = rc;
	hdr[1] = rc == 0 ? (int)w.len : 0;
	MPI_Send(hdr, 2, MPI_INT, 0, LRUN_TAG_PHASE, MPI_COMM_WORLD);
	MPI_Send(err->msg, (int)sizeof(err->msg), MPI_CHAR, 0,
		 LRUN_TAG_PHASE + 1, MPI_COMM_WORLD);
	if (hdr[1])
		MPI_Send(w.p, hdr[1], MPI_BYTE, 0, LRUN_TAG_PHASE + 2,
			 MPI_COMM_WORLD);
	free(w.p);
}

/* World rank 0: the phase [root] ships; its rc (and [err]), the phase
 * moved into [ph] on success. */
static int fetch_phase(int root, struct ios_phase_result *ph,
		       struct ios_err *err)
{
	struct ios_unwire u = {0};
	struct ios_run *one = NULL;
	uint8_t *bytes = NULL;
	int hdr[2] = {-EIO, 0}, rc;

	memset(ph, 0, sizeof(*ph));
	if (lrun_quiet_recv(hdr, 2, MPI_INT, root, LRUN_TAG_PHASE) < 0 ||
	    lrun_quiet_recv(err->msg, (int)sizeof(err->msg), MPI_CHAR, root,
			    LRUN_TAG_PHASE + 1) < 0)
		return ios_errf(
			err, -EIO,
			"layers: receive a phase from rank %d: MPI failed",
			root);
	err->msg[sizeof(err->msg) - 1] = '\0';
	if (hdr[0] < 0 || hdr[1] <= 0)
		return hdr[0] < 0 ? hdr[0] : -EIO;
	bytes = malloc((size_t)hdr[1]);
	if (!bytes)
		return ios_errf(err, -ENOMEM, "layers: receive a phase: %s",
				strerror(ENOMEM));
	rc = MPI_Recv(bytes, hdr[1], MPI_BYTE, root, LRUN_TAG_PHASE + 2,
		      MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	u.p = bytes;
	u.len = (size_t)hdr[1];
	if (rc != MPI_SUCCESS)
		rc = ios_errf(
			err, -EIO,
			"layers: receive a phase from rank %d: MPI failed",
			root);
	else if ((rc = ios_unwire_run(&u, &one)) < 0 || one->nphases != 1)
		rc = ios_errf(err, rc < 0 ? rc : -EBADMSG,
			      "layers: decode the phase from rank %d: %s", root,
			      u.bad ? u.bad : "not one phase");
	if (rc == 0) {
		*ph = one->phases[0];
		memset(&one->phases[0], 0, sizeof(one->phases[0]));
	}
	ios_run_free(one);
	free(bytes);
	return rc;
}

/* Ranks of [comm] as world ranks in [ph]'s records (rank 0 of comm):
 * the results file indexes its rank table with them. */
static void world_ranks(struct ios_phase_result *ph, const int *map, int nmap)
{
	for (int r = 0; r < ph->nreps; r++) {
		struct ios_rep_result *rep = &ph->reps[r];

		for (int i = 0; i < rep->nranks; i++)
			if (rep->ranks[i].rank >= 0 &&
			    rep->ranks[i].rank < nmap)
				rep->ranks[i].rank = map[rep->ranks[i].rank];
		for (size_t e = 0; e < rep->nerrors; e++)
			if (rep->errors[e].rank >= 0 &&
			    rep->errors[e].rank < nmap)
				rep->errors[e].rank = map[rep->errors[e].rank];
	}
}

/* Book one finished phase on world rank 0 (see lrun_run_layer). */
static void book_phase(struct lctx *c, int layer, int k, int rc,
		       const struct ios_err *err, struct ios_phase_result *ph,
		       bool in_run)
{
	static const enum mb_pattern pats[2] = {MB_PAT_WRITE, MB_PAT_READ};
	static const int dirs[2] = {LYR_WRITE, LYR_READ};
	char why[200] = "";

	if (rc < 0) {
		snprintf(c->note[layer], sizeof(c->note[layer]),
			 "%s failed: %.200s", mb_pattern_name(pats[k]),
			 err->msg);
		fprintf(stderr, "iostrata-bench: layer %s: %s\n",
			lyr_layer_names[layer], err->msg);
		c->failed = true;
	} else {
		c->n.bw[layer][dirs[k]] = phase_bw(ph, why, sizeof(why));
		if (layer == LYR_DEVICE)
			c->n.dev_bound[dirs[k]] = lyr_balanced_bw(ph);
		if (why[0]) {
			snprintf(c->note[layer], sizeof(c->note[layer]),
				 "%s: %s", mb_pattern_name(pats[k]), why);
			c->invalid = true;
		}
		if (in_run) {
			c->lr->run.nphases++;
		} else {
			struct ios_phase_result *slot = new_phase(c->lr);

			if (slot) {
				*slot = *ph;
				memset(ph, 0, sizeof(*ph));
				c->lr->run.nphases++;
			}
		}
	}
	if (!in_run)
		ios_phase_result_clear(ph);
	lrun_save(c->lr);
}

/*
 * Run write then read for [layer] on [comm] (ranks outside it skip).
 * World rank 0 holds the record: it books the phases, running them itself
 * when it is in [comm] (rank 0 of it), else receiving them from the root
 * of [comm].  Fills c->n.bw[layer][*] on rank 0.
 */
void lrun_run_layer(struct lctx *c, int layer, MPI_Comm comm)
{
	static const enum mb_pattern pats[2] = {MB_PAT_WRITE, MB_PAT_READ};
	const struct mb_config *lc = &c->lcfg[layer];
	int rank = -1, size = 0, rc = 0, root = -1, *map = NULL;

	c->n.direct[layer] = lc->direct;
	snprintf(c->source[layer], sizeof(c->source[layer]), "iostrata %s",
		 lc->backend ? lc->backend->name : "?");
	if (comm != MPI_COMM_NULL) {
		MPI_Comm_rank(comm, &rank);
		MPI_Comm_size(comm, &size);
	}
	/* who is the root of comm, in the world */
	{
		int me = rank == 0 ? c->rank : -1;

		MPI_Allreduce(&me, &root, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	}
	if (comm != MPI_COMM_NULL) {
		if (rank == 0)
			map = calloc((size_t)size, sizeof(*map));
		MPI_Gather(&c->rank, 1, MPI_INT, map, 1, MPI_INT, 0, comm);
	}
	if (comm == MPI_COMM_NULL && c->rank == 0 && root > 0) {
		/* world rank 0 books what the root runs */
		for (int k = 0; k < 2; k++) {
			struct ios_phase_result ph;
			struct ios_err err = {0};

			rc = fetch_phase(root, &ph, &err);
			book_phase(c, layer, k, rc, &err, &ph, false);
			if (rc < 0)
				break;
		}
	}
	if (comm == MPI_COMM_NULL)
		goto out;
	for (int k = 0; k < 2; k++) {
		struct mb_phase_spec s = {0};
		struct ios_phase_result tmp, *ph = &tmp;
		struct ios_err err = {0};
		bool here = rank == 0 && c->lr;

		memset(&tmp, 0, sizeof(tmp));
		s.cfg = lc;
		s.pattern = pats[k];
		s.layer = lyr_layer_names[layer];
		s.phase_index = c->lr ? c->lr->run.nphases : 0;
		if (here) {
			ph = new_phase(c->lr);
			if (!ph)
				ph = &tmp;
			s.rep_done = lrun_rep_done;
			s.rep_arg = c;
		}
		rc = mb_phase_run(&s, comm, ph, &err);
		if (rank == 0 && map && rc == 0)
			world_ranks(ph, map, size);
		if (here)
			book_phase(c, layer, k, rc, &err, ph, ph != &tmp);
		else if (rank == 0) {
			ship_phase(rc, &err, ph);
			ios_phase_result_clear(&tmp);
		}
		if (rc < 0)
			break; /* same rc on every rank of comm */
	}
	if (!c->cfg->keep) {
		struct mb_phase_spec s = {.cfg = lc};
		struct ios_err err = {0};

		if (mb_phase_cleanup(&s, comm, &err) < 0)
			fprintf(stderr,
				"iostrata-bench: layer %s: cleanup: %s\n",
				lyr_layer_names[layer], err.msg);
	}
out:
	free(map);
	nb_quiet_barrier(c->w->comm);
}
