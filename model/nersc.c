/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nersc: the NERSC-10-style acceptance profile (nersc.h): its plan and its
 * verdict over results files.  The rate of a repetition is its
 * whole-window figure (window_bw, window_iops: all bytes over first start
 * to last end), what IOR reports for a size-based run.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nersc.h"
#include "runrec.h"
#include "units.h"

static const char *const test_names[IOS_NERSC_NTESTS] = {
	[IOS_NERSC_SEQ_N2N] = "seq-n-to-n",
	[IOS_NERSC_SEQ_N21] = "seq-n-to-1",
	[IOS_NERSC_RAND_N2N] = "rand-n-to-n",
};

const char *ios_nersc_test_name(enum ios_nersc_test t)
{
	return (unsigned)t < IOS_NERSC_NTESTS ? test_names[t] : "?";
}

int ios_nersc_levels(int nodes, int levels[IOS_NERSC_MAX_LEVELS])
{
	int mid, n = 0;

	if (nodes < 1)
		return 0;
	mid = (int)lround(IOS_NERSC_MID_FRACTION * nodes);
	if (mid < 1)
		mid = 1;
	levels[n++] = 1;
	if (mid > 1 && mid < nodes)
		levels[n++] = mid;
	if (nodes > 1)
		levels[n++] = nodes;
	return n;
}

uint64_t ios_nersc_rank_size(uint64_t ram_per_node, int ranks_per_node,
			     uint64_t bs, double factor)
{
	double want, blocks;

	if (!ram_per_node || ranks_per_node < 1 || !bs || !(factor > 0))
		return 0;
	want = factor * (double)ram_per_node / ranks_per_node;
	blocks = ceil(want / (double)bs);
	if (blocks < 1)
		blocks = 1;
	if (blocks * (double)bs >= 18446744073709551615.0)
		return 0;
	return (uint64_t)blocks * bs;
}

/* memory.total_bytes summed over the run's nodes; 0 when a node's record
 * does not say. */
static uint64_t run_ram(const struct ios_run *run)
{
	uint64_t sum = 0;

	if (run->nnodes < 1 || !run->node_json)
		return 0;
	for (int i = 0; i < run->nnodes; i++) {
		json_t *j = run->node_json[i]
				    ? json_loads(run->node_json[i], 0, NULL)
				    : NULL;
		json_t *t = json_object_get(json_object_get(j, "memory"),
					    "total_bytes");
		json_int_t v = json_is_integer(t) ? json_integer_value(t) : 0;

		json_decref(j);
		if (v <= 0)
			return 0;
		sum += (uint64_t)v;
	}
	return sum;
}

/* The best valid repetition of phase [name] of [run]: rates (max over
 * valid repetitions) and the most bytes one moved.  false: no such
 * phase (*[reason] NULL) or none valid (*[reason] the first reason). */
static bool best_of(const struct ios_run *run, const char *name, double *bw,
		    double *iops, uint64_t *bytes, const char **reason,
		    bool *present)
{
	bool any = false;

	*bw = *iops = NAN;
	*bytes = 0;
	*reason = NULL;
	*present = false;
	for (int k = 0; k < run->nphases; k++) {
		const struct ios_phase_result *ph = &run->phases[k];

		if (ph->layer[0] || strcmp(ph->name, name))
			continue;
		*present = true;
		for (int r = 0; r < ph->nreps; r++) {
			const struct ios_rep_result *rp = &ph->reps[r];

			if (!rp->valid) {
				if (!*reason)
					*reason = rp->invalid_reason;
				continue;
			}
			if (!any || rp->fig.window_bw > *bw)
				*bw = rp->fig.window_bw;
			if (!any || rp->fig.window_iops > *iops)
				*iops = rp->fig.window_iops;
			if (rp->fig.bytes > *bytes)
				*bytes = rp->fig.bytes;
			any = true;
		}
	}
	return any;
}

static bool has_phase(const struct ios_run *run, const char *name, uint64_t *bs)
{
	for (int k = 0; k < run->nphases; k++)
		if (!run->phases[k].layer[0] &&
		    !strcmp(run->phases[k].name, name)) {
			if (bs)
				*bs = run->phases[k].bs;
			return true;
		}
	return false;
}

/* The test [run] measures: 0 with *[t] set, 1 a random run at another
 * block size ([*bs]), -1 none. */
static int classify(const struct ios_run *run, enum ios_nersc_test *t,
		    uint64_t *bs)
{
	const char *fl = ios_runrec_get(run, "file_layout");
	bool shared = fl && !strcmp(fl, "shared");

	if (has_phase(run, "write", NULL) || has_phase(run, "read", NULL)) {
		*t = shared ? IOS_NERSC_SEQ_N21 : IOS_NERSC_SEQ_N2N;
		return 0;
	}
	if (shared)
		return -1;
	if (has_phase(run, "randwrite", bs) || has_phase(run, "randread", bs)) {
		*t = IOS_NERSC_RAND_N2N;
		return *bs == IOS_NERSC_RAND_BS ? 0 : 1;
	}
	return -1;
}

/* The row of [run] (test [t]) judged with [factor]. */
static void judge_run(const struct ios_run *run, const char *path,
		      enum ios_nersc_test t, double factor,
		      struct ios_nersc_row *row)
{
	const char *wn = t == IOS_NERSC_RAND_N2N ? "randwrite" : "write";
	const char *rn = t == IOS_NERSC_RAND_N2N ? "randread" : "read";
	const char *wwhy, *rwhy;
	bool wp, rp, wok, rok;
	uint64_t rbytes;
	double need;
	char a[32], b[32], c[32];

	memset(row, 0, sizeof(*row));
	row->test = t;
	row->nodes = run->nnodes;
	row->ranks = run->nranks;
	row->factor = factor;
	snprintf(row->source, sizeof(row->source), "%s", path ? path : "");
	wok = best_of(run, wn, &row->write_bw, &row->write_iops, &row->written,
		      &wwhy, &wp);
	rok = best_of(run, rn, &row->read_bw, &row->read_iops, &rbytes, &rwhy,
		      &rp);
	row->ram = run_ram(run);
	row->status = IOS_ACC_FAIL;
	if (!wp || !rp) {
		snprintf(
			row->note, sizeof(row->note),
			"no %s phase in this run (write and read must come from the same run)",
			wp ? rn : wn);
		return;
	}
	if (!wok || !rok) {
		snprintf(row->note, sizeof(row->note),
			 "no valid %s repetition: %s", wok ? rn : wn,
			 wok ? (rwhy ? rwhy : "none") : (wwhy ? wwhy : "none"));
		return;
	}
	if (!row->ram) {
		snprintf(
			row->note, sizeof(row->note),
			"the clients' RAM is unknown (no memory.total_bytes in the hardware record of every node): the data rule cannot be checked");
		return;
	}
	need = factor * (double)row->ram;
	if ((double)row->written < need) {
		snprintf(
			row->note, sizeof(row->note),
			"too little data: the write moved %s, less than %g x the clients' RAM of %s (%s)",
			ios_fmt_size(row->written, a, sizeof(a)), factor,
			ios_fmt_size(row->ram, c, sizeof(c)),
			ios_fmt_size((uint64_t)need, b, sizeof(b)));
		return;
	}
	row->status = IOS_ACC_PASS;
	if (factor < IOS_NERSC_DATA_FACTOR)
		snprintf(row->note, sizeof(row->note),
			 "scaled down: data %g x RAM, not the rules' %g x",
			 factor, IOS_NERSC_DATA_FACTOR);
}

/* [a] is a better row than [b] for the same test and level. */
static bool better(const struct ios_nersc_row *a, const struct ios_nersc_row *b)
{
	if (a->status != b->status)
		return a->status < b->status;
	if (a->test == IOS_NERSC_RAND_N2N)
		return a->write_iops + a->read_iops >
		       b->write_iops + b->read_iops;
	return a->write_bw + a->read_bw > b->write_bw + b->read_bw;
}

static int push(struct ios_nersc_verdict *v, size_t *cap,
		const struct ios_nersc_row *row)
{
	if (v->n == *cap) {
		size_t nc = *cap ? *cap * 2 : 16;
		struct ios_nersc_row *p = realloc(v->rows, nc * sizeof(*p));

		if (!p)
			return -ENOMEM;
		v->rows = p;
		*cap = nc;
	}
	v->rows[v->n++] = *row;
	return 0;
}

/* The best rates of each test over its rows. */
static void find_best(struct ios_nersc_verdict *v)
{
	for (int t = 0; t < IOS_NERSC_NTESTS; t++) {
		v->best_write[t] = v->best_read[t] = -1;
		for (size_t i = 0; i < v->n; i++) {
			const struct ios_nersc_row *r = &v->rows[i];
			bool iops = t == IOS_NERSC_RAND_N2N;
			double w = iops ? r->write_iops : r->write_bw;
			double rd = iops ? r->read_iops : r->read_bw;
			const struct ios_nersc_row *bw, *br;

			if ((int)r->test != t || r->status != IOS_ACC_PASS)
				continue;
			bw = v->best_write[t] < 0 ? NULL
						  : &v->rows[v->best_write[t]];
			br = v->best_read[t] < 0 ? NULL
						 : &v->rows[v->best_read[t]];
			if (!bw || w > (iops ? bw->write_iops : bw->write_bw))
				v->best_write[t] = (int)i;
			if (!br || rd > (iops ? br->read_iops : br->read_bw))
				v->best_read[t] = (int)i;
		}
	}
}

int ios_nersc_judge(const struct ios_run *const *runs, const char *const *paths,
		    size_t n, int partition_nodes, double factor,
		    struct ios_nersc_verdict *out)
{
	size_t cap = 0;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->factor = factor > 0 ? factor : IOS_NERSC_DATA_FACTOR;
	out->scaled_down = out->factor < IOS_NERSC_DATA_FACTOR;
	if (partition_nodes <= 0)
		for (size_t i = 0; i < n; i++)
			if (runs[i]->nnodes > partition_nodes)
				partition_nodes = runs[i]->nnodes;
	out->nlevels = ios_nersc_levels(partition_nodes, out->levels);
	for (int t = 0; t < IOS_NERSC_NTESTS && !rc; t++)
		for (int l = 0; l < out->nlevels && !rc; l++) {
			struct ios_nersc_row best = {0}, row;
			bool have = false;
			uint64_t other_bs = 0;

			for (size_t i = 0; i < n; i++) {
				enum ios_nersc_test rt;
				uint64_t bs = 0;
				int c = classify(runs[i], &rt, &bs);

				if (c < 0 || (int)rt != t ||
				    runs[i]->nnodes != out->levels[l])
					continue;
				if (c == 1) {
					other_bs = bs;
					continue;
				}
				judge_run(runs[i], paths ? paths[i] : NULL, rt,
					  out->factor, &row);
				if (!have || better(&row, &best))
					best = row;
				have = true;
			}
			if (!have) {
				memset(&best, 0, sizeof(best));
				best.test = (enum ios_nersc_test)t;
				best.nodes = out->levels[l];
				best.status = IOS_ACC_NOTRUN;
				best.factor = out->factor;
				best.write_bw = best.read_bw = NAN;
				best.write_iops = best.read_iops = NAN;
				if (other_bs)
					snprintf(
						best.note, sizeof(best.note),
						"no run on %d node(s); a random run at bs %" PRIu64
						" is not the rules' 4 KiB",
						best.nodes, other_bs);
				else
					snprintf(best.note, sizeof(best.note),
						 "no run on %d node(s)",
						 best.nodes);
			}
			rc = push(out, &cap, &best);
		}
	if (rc) {
		ios_nersc_verdict_clear(out);
		return rc;
	}
	out->status = out->n ? IOS_ACC_PASS : IOS_ACC_NOTRUN;
	for (size_t i = 0; i < out->n; i++)
		if (out->rows[i].status > out->status)
			out->status = out->rows[i].status;
	find_best(out);
	return 0;
}

void ios_nersc_verdict_clear(struct ios_nersc_verdict *v)
{
	free(v->rows);
	memset(v, 0, sizeof(*v));
}
