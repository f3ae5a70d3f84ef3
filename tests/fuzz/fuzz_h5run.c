/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_h5run: the results-file reader as iostrata-report runs it
 * (h5schema/h5iso.c ios_h5_read_run_isolated and ios_h5_validate_isolated:
 * libhdf5 parses in a child, this process decodes the child's answer).  A
 * crash or hang inside libhdf5 is then an error for that file, not a
 * harness crash, so the harness mutates again; what it must never see is
 * this process crashing, a failure without a message, or an HDF5 object
 * left open here (the parent runs no HDF5 over the input at all).  A run
 * that reads must hold the invariants the figures code indexes by (every
 * count matched by its table, every rank and node index in range, as
 * h5schema/h5run.h ios_h5_check_shape promises), and the figures and the
 * acceptance measurements are computed from it as iostrata-report does,
 * so that a sanitizer sees any index that still escapes.  The input is
 * written to a file in the scratch directory.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <hdf5.h>

#include "accept.h"
#include "figures.h"
#include "fuzz_util.h"
#include "h5iso.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
	return 0;
}

static void check_closed(const char *after)
{
	ssize_t n = H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL);

	if (n != 0) {
		fprintf(stderr,
			"fuzz_h5run: %zd HDF5 objects left open after %s\n", n,
			after);
		abort();
	}
}

static void broken(const char *what, long a, long b)
{
	fprintf(stderr, "fuzz_h5run: a run that read has %s (%ld, %ld)\n", what,
		a, b);
	abort();
}

/* The invariants model/figures.c and model/accept.c index by. */
static void check_shape(const struct ios_run *run)
{
	if (run->nranks < 0 || run->nnodes < 0 || run->nphases < 0)
		broken("a negative count", run->nranks, run->nnodes);
	for (int i = 0; i < run->nranks; i++)
		if (run->rank_info[i].rank != i || run->rank_info[i].node < 0 ||
		    run->rank_info[i].node >= run->nnodes)
			broken("a rank row out of place or off the nodes", i,
			       run->rank_info[i].node);
	for (size_t i = 0; i < run->nnet; i++)
		if (run->net[i].src_node < 0 ||
		    run->net[i].src_node >= run->nnodes ||
		    run->net[i].dst_node < 0 ||
		    run->net[i].dst_node >= run->nnodes)
			broken("a network pair off the nodes", (long)i,
			       run->net[i].src_node);
	for (int k = 0; k < run->nphases; k++)
		for (int r = 0; r < run->phases[k].nreps; r++) {
			const struct ios_rep_result *rep =
				&run->phases[k].reps[r];

			if (rep->nranks < 0 || rep->nranks > run->nranks ||
			    (!run->phases[k].layer[0] &&
			     rep->nranks != run->nranks))
				broken("a repetition of other ranks",
				       rep->nranks, run->nranks);
			if (rep->nnodes < 0 || rep->nnodes > run->nnodes)
				broken("a repetition of other nodes",
				       rep->nnodes, run->nnodes);
			for (int i = 0; i < rep->nranks; i++) {
				const struct ios_rank_result *rr =
					&rep->ranks[i];

				if (rr->rank < 0 || rr->rank >= run->nranks)
					broken("a rank record off the ranks", i,
					       rr->rank);
				if (rr->nsamples &&
				    (!rr->sample_bytes || !rr->sample_ops))
					broken("samples without arrays", i,
					       rr->nsamples);
			}
			for (size_t e = 0; e < rep->nerrors; e++)
				if (rep->errors[e].rank < 0 ||
				    rep->errors[e].rank >= run->nranks ||
				    (rep->errors[e].op != IOS_OP_READ &&
				     rep->errors[e].op != IOS_OP_WRITE))
					broken("an error record off the ranks",
					       (long)e, rep->errors[e].rank);
		}
	/* the metadata phases: the rows model/metafig.c indexes */
	if (run->nmeta < 0 || (run->nmeta && !run->meta))
		broken("a metadata phase count without its phases", run->nmeta,
		       0);
	for (int k = 0; k < run->nmeta; k++)
		for (int r = 0; r < run->meta[k].nreps; r++) {
			const struct ios_meta_rep *m = &run->meta[k].reps[r];

			if (m->nranks < 0 || (m->nranks && !m->ranks))
				broken("a metadata repetition without its ranks",
				       k, m->nranks);
			if (!m->lat_hist)
				broken("a metadata repetition without its histogram",
				       k, r);
		}
}

/* What iostrata-report computes from a run (report.c report_recompute,
 * report_accept.c): the figures of every repetition, the measurements. */
static void compute(struct ios_run *run)
{
	struct ios_acc_set set = {0};

	ios_figures_compute_run(run);
	for (int k = 0; k < run->nmeta; k++)
		for (int r = 0; r < run->meta[k].nreps; r++) {
			struct ios_meta_fig f;

			ios_meta_figures(&run->meta[k].reps[r], &f);
		}
	ios_acc_add_run(&set, run, "fuzz");
	ios_acc_set_clear(&set);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* libFuzzer's own -timeout is 10 s in tests/fuzz/run */
	const struct ios_h5_iso_limits lim = {.cpu_s = 2, .wall_s = 4};
	struct ios_err err = {0};
	struct ios_run *run = NULL;
	const char *path = fuzz_write_file("run.h5", data, size);
	int rc;

	rc = ios_h5_read_run_isolated(path, &lim, &run, &err);
	fuzz_note("ios_h5_read_run_isolated", rc, err.msg);
	if (rc < 0 && (run || !err.msg[0]))
		abort();
	if (rc == 0) {
		check_shape(run);
		compute(run);
	}
	ios_run_free(run);
	check_closed("ios_h5_read_run_isolated");
	ios_err_clear(&err);
	rc = ios_h5_validate_isolated(path, &lim, &err);
	fuzz_note("ios_h5_validate_isolated", rc, err.msg);
	if (rc < 0 && !err.msg[0])
		abort();
	check_closed("ios_h5_validate_isolated");
	return 0;
}
