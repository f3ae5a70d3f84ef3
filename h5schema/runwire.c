/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runwire: encode a run into bytes and decode it back with every bound the
 * HDF5 reader keeps (runwire.h).  The decoder reads what a child process
 * parsed from another user's file; it trusts none of it.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "runwire.h"

#define WIRE_MAX_COUNT (1 << 24) /* the reader's IOS_H5_MAX_COUNT */
#define WIRE_NULL 0xffffffffu    /* string length of a NULL string */

/* u->bad when an allocation failed (ios_unwire_run: -ENOMEM). */
static const char wire_nomem[] = "out of memory";

/* ---- encoding -------------------------------------------------------- */

static void put(struct ios_wire *w, const void *p, size_t n)
{
	if (w->failed || !n)
		return;
	if (n > w->cap - w->len) {
		size_t cap = w->cap ? w->cap : 4096;
		void *q;

		while (cap - w->len < n) {
			if (cap > SIZE_MAX / 2) {
				w->failed = -ENOMEM;
				return;
			}
			cap *= 2;
		}
		q = realloc(w->p, cap);
		if (!q) {
			w->failed = -ENOMEM;
			return;
		}
		w->p = q;
		w->cap = cap;
	}
	memcpy(w->p + w->len, p, n);
	w->len += n;
}

void ios_wire_u32(struct ios_wire *w, uint32_t v)
{
	put(w, &v, sizeof(v));
}

void ios_wire_u64(struct ios_wire *w, uint64_t v)
{
	put(w, &v, sizeof(v));
}

void ios_wire_str(struct ios_wire *w, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (n >= WIRE_NULL) {
		w->failed = -ENOMEM;
		return;
	}
	ios_wire_u32(w, s ? (uint32_t)n : WIRE_NULL);
	put(w, s, n);
}

/* [n] elements of [esz] bytes at [p] (NULL: sent as absent). */
static void put_array(struct ios_wire *w, const void *p, size_t n, size_t esz)
{
	ios_wire_u32(w, p != NULL);
	if (p)
		put(w, p, n * esz);
}

static void put_kv(struct ios_wire *w, const struct ios_kv *kv, size_t n)
{
	ios_wire_u64(w, n);
	ios_wire_u32(w, kv != NULL);
	for (size_t i = 0; kv && i < n; i++) {
		ios_wire_str(w, kv[i].key);
		ios_wire_str(w, kv[i].value);
	}
}

static void put_rep(struct ios_wire *w, const struct ios_rep_result *rep)
{
	put(w, rep, sizeof(*rep));
	put_array(w, rep->ranks, (size_t)rep->nranks, sizeof(*rep->ranks));
	for (int i = 0; rep->ranks && i < rep->nranks; i++) {
		const struct ios_rank_result *rr = &rep->ranks[i];

		put_array(w, rr->sample_bytes, rr->nsamples, sizeof(uint64_t));
		put_array(w, rr->sample_ops, rr->nsamples, sizeof(uint64_t));
	}
	put_array(w, rep->lat_hist, (size_t)rep->nranks * IOS_LAT_BUCKETS,
		  sizeof(uint64_t));
	put_array(w, rep->errors, rep->nerrors, sizeof(*rep->errors));
	put_array(w, rep->node_bw, (size_t)rep->nnodes, sizeof(double));
}

void ios_wire_run(struct ios_wire *w, const struct ios_run *run)
{
	const char *str[] = {
		run->run_id,       run->created_utc,  run->tool,
		run->tool_version, run->git_revision, run->build_options,
		run->command_line, run->status,       run->verdict,
		run->job_json,     run->ceph_json};

	for (size_t i = 0; i < sizeof(str) / sizeof(str[0]); i++)
		ios_wire_str(w, str[i]);
	put_kv(w, run->config, run->nconfig);
	put_kv(w, run->attachments, run->nattach);
	ios_wire_u32(w, (uint32_t)run->nranks);
	put_array(w, run->rank_info, (size_t)run->nranks,
		  sizeof(*run->rank_info));
	ios_wire_u32(w, (uint32_t)run->nnodes);
	ios_wire_u32(w, run->node_json != NULL);
	for (int i = 0; run->node_json && i < run->nnodes; i++)
		ios_wire_str(w, run->node_json[i]);
	ios_wire_u32(w, (uint32_t)run->schema_version);
	ios_wire_u32(w, (uint32_t)run->nhosts);
	for (int i = 0; i < run->nhosts; i++)
		ios_wire_str(w, run->host_json ? run->host_json[i] : NULL);
	ios_wire_u32(w, (uint32_t)run->nphases);
	for (int k = 0; run->phases && k < run->nphases; k++) {
		const struct ios_phase_result *ph = &run->phases[k];

		put(w, ph, sizeof(*ph));
		for (int r = 0; ph->reps && r < ph->nreps; r++)
			put_rep(w, &ph->reps[r]);
	}
	ios_wire_u32(w, (uint32_t)run->nlayers);
	put_array(w, run->layers, (size_t)run->nlayers, sizeof(*run->layers));
	ios_wire_u64(w, run->nnet);
	put_array(w, run->net, run->nnet, sizeof(*run->net));
	/* the metadata phases */
	ios_wire_u32(w, run->meta ? (uint32_t)run->nmeta : 0);
	for (int k = 0; run->meta && k < run->nmeta; k++) {
		const struct ios_meta_phase *ph = &run->meta[k];

		put(w, ph->op, sizeof(ph->op));
		ios_wire_u32(w, ph->reps ? (uint32_t)ph->nreps : 0);
		for (int r = 0; ph->reps && r < ph->nreps; r++) {
			const struct ios_meta_rep *rep = &ph->reps[r];

			ios_wire_u32(w, rep->ranks ? (uint32_t)rep->nranks : 0);
			put_array(w, rep->ranks, (size_t)rep->nranks,
				  sizeof(*rep->ranks));
			put_array(w, rep->lat_hist, IOS_LAT_BUCKETS,
				  sizeof(uint64_t));
			put(w, &rep->lat, sizeof(rep->lat));
			ios_wire_u32(w, (uint32_t)rep->stonewalled);
		}
	}
}

/* ---- decoding -------------------------------------------------------- */

static bool get(struct ios_unwire *u, void *dst, size_t n)
{
	if (u->bad)
		return false;
	if (n > u->len - u->pos) {
		u->bad = "truncated";
		return false;
	}
	memcpy(dst, u->p + u->pos, n);
	u->pos += n;
	return true;
}

uint32_t ios_unwire_u32(struct ios_unwire *u)
{
	uint32_t v = 0;

	return get(u, &v, sizeof(v)) ? v : 0;
}

uint64_t ios_unwire_u64(struct ios_unwire *u)
{
	uint64_t v = 0;

	return get(u, &v, sizeof(v)) ? v : 0;
}

/* calloc() of [n] elements of [esz] bytes and one more, zeroed (as the
 * reader allocates its arrays); NULL with u->bad set when out of
 * memory. */
static void *wire_calloc(struct ios_unwire *u, size_t n, size_t esz)
{
	void *p = calloc(n + 1, esz);

	if (!p)
		u->bad = wire_nomem;
	return p;
}

char *ios_unwire_str(struct ios_unwire *u, size_t max)
{
	uint32_t n = ios_unwire_u32(u);
	char *s;

	if (u->bad || n == WIRE_NULL)
		return NULL;
	if (n > max || n > u->len - u->pos) {
		u->bad = "a string longer than its bound or the bytes left";
		return NULL;
	}
	s = wire_calloc(u, n, 1);
	if (!s)
		return NULL;
	get(u, s, n);
	s[n] = '\0';
	return s;
}

/* A count sent as int32: within [0, WIRE_MAX_COUNT]. */
static int32_t get_count(struct ios_unwire *u, const char *what)
{
	uint32_t v = ios_unwire_u32(u);

	if (!u->bad && v > WIRE_MAX_COUNT)
		u->bad = what;
	return u->bad ? 0 : (int32_t)v;
}

/* Could [n] items of at least [esz] bytes each still follow? */
static bool fits(struct ios_unwire *u, uint64_t n, size_t esz)
{
	if (u->bad)
		return false;
	if (esz && n > (u->len - u->pos) / esz) {
		u->bad = "a count larger than the bytes left";
		return false;
	}
	return true;
}

/*
 * An array of [n] elements of [esz] bytes as put_array sent it, in a new
 * zeroed allocation one element longer (as the reader allocates).  Absent
 * is accepted only for [n] == 0; then the result is NULL, or an empty
 * allocation when [always] (the reader always allocates that array).
 */
static void *get_array(struct ios_unwire *u, uint64_t n, size_t esz,
		       bool always, const char *what)
{
	uint32_t present = ios_unwire_u32(u);
	void *p;

	if (u->bad)
		return NULL;
	if (present > 1 || (!present && n)) {
		u->bad = what;
		return NULL;
	}
	if (!present && !always)
		return NULL;
	if (!fits(u, present ? n : 0, esz))
		return NULL;
	p = wire_calloc(u, (size_t)(present ? n : 0), esz);
	if (!p)
		return NULL;
	if (present && !get(u, p, (size_t)n * esz)) {
		free(p);
		return NULL;
	}
	return p;
}

static struct ios_kv *get_kv(struct ios_unwire *u, size_t *n, bool always)
{
	uint64_t cnt = ios_unwire_u64(u);
	uint32_t present = ios_unwire_u32(u);
	struct ios_kv *kv;

	*n = 0;
	if (u->bad)
		return NULL;
	if (cnt > WIRE_MAX_COUNT || present > 1 || (!present && cnt)) {
		u->bad = "a key/value table out of bounds";
		return NULL;
	}
	if (!present && !always)
		return NULL;
	/* every pair takes at least two lengths */
	if (!fits(u, cnt, 2 * sizeof(uint32_t)))
		return NULL;
	kv = wire_calloc(u, (size_t)cnt, sizeof(*kv));
	if (!kv)
		return NULL;
	for (; *n < cnt && !u->bad; (*n)++) {
		kv[*n].key = ios_unwire_str(u, SIZE_MAX);
		kv[*n].value = ios_unwire_str(u, SIZE_MAX);
		/* the reader never returns a NULL key or value */
		if (!u->bad && (!kv[*n].key || !kv[*n].value))
			u->bad = "a key/value pair with a missing string";
	}
	return kv;
}

/* Terminate a fixed char array received as bytes. */
#define TERMINATE(a) ((a)[sizeof(a) - 1] = '\0')

/* A bool received as a byte: only 0 or 1 may be loaded as a bool. */
static void fix_bool(bool *b)
{
	unsigned char v;

	memcpy(&v, b, 1);
	*b = v != 0;
}

static void get_rep(struct ios_unwire *u, struct ios_rep_result *rep)
{
	if (!get(u, rep, sizeof(*rep))) {
		memset(rep, 0, sizeof(*rep));
		return;
	}
	/* pointers were the child's: none is used before it is replaced */
	rep->ranks = NULL;
	rep->lat_hist = NULL;
	rep->errors = NULL;
	rep->node_bw = NULL;
	fix_bool(&rep->valid);
	fix_bool(&rep->lat_hist_in_file);
	TERMINATE(rep->invalid_reason);
	if (rep->nranks < 0 || rep->nranks > WIRE_MAX_COUNT ||
	    rep->nnodes < 0 || rep->nnodes > WIRE_MAX_COUNT ||
	    rep->nerrors > WIRE_MAX_COUNT) {
		u->bad = "a repetition's counts out of bounds";
		rep->nranks = 0;
		rep->nerrors = 0;
		return;
	}
	rep->ranks = get_array(u, (uint64_t)rep->nranks, sizeof(*rep->ranks),
			       true, "a repetition without its ranks");
	if (!rep->ranks) {
		rep->nranks = 0;
		return;
	}
	for (int i = 0; i < rep->nranks; i++) {
		struct ios_rank_result *rr = &rep->ranks[i];

		rr->sample_bytes = NULL;
		rr->sample_ops = NULL;
	}
	for (int i = 0; i < rep->nranks && !u->bad; i++) {
		struct ios_rank_result *rr = &rep->ranks[i];

		rr->sample_bytes = get_array(u, rr->nsamples, sizeof(uint64_t),
					     false, "a rank without samples");
		rr->sample_ops = get_array(u, rr->nsamples, sizeof(uint64_t),
					   false, "a rank without samples");
		/* the reader gives samples exactly when nsamples > 0 */
		if (!u->bad && rr->nsamples && !rr->sample_ops)
			u->bad = "a rank without samples";
	}
	rep->lat_hist = get_array(u, (uint64_t)rep->nranks * IOS_LAT_BUCKETS,
				  sizeof(uint64_t), true,
				  "a repetition without latency histograms");
	rep->errors = get_array(u, rep->nerrors, sizeof(*rep->errors), true,
				"a repetition without its error table");
	if (!rep->errors)
		rep->nerrors = 0;
	rep->node_bw = get_array(u, (uint64_t)rep->nnodes, sizeof(double), true,
				 "a repetition without node rates");
}

static void get_phase(struct ios_unwire *u, struct ios_phase_result *ph)
{
	int32_t nreps;

	if (!get(u, ph, sizeof(*ph))) {
		memset(ph, 0, sizeof(*ph));
		return;
	}
	ph->reps = NULL;
	TERMINATE(ph->name);
	TERMINATE(ph->layer);
	TERMINATE(ph->backend);
	nreps = ph->nreps;
	ph->nreps = 0; /* counts the reps decoded, for ios_run_free */
	if (nreps < 0 || nreps > WIRE_MAX_COUNT) {
		u->bad = "a phase's repetition count out of bounds";
		return;
	}
	if (!fits(u, (uint64_t)nreps, sizeof(struct ios_rep_result)))
		return;
	ph->reps = wire_calloc(u, (size_t)nreps, sizeof(*ph->reps));
	if (!ph->reps)
		return;
	for (int r = 0; r < nreps && !u->bad; r++) {
		ph->nreps++;
		get_rep(u, &ph->reps[r]);
	}
}

/* The metadata phases as ios_wire_run sent them. */
static void get_meta(struct ios_unwire *u, struct ios_run *run)
{
	int32_t n = get_count(u, "nmeta out of bounds");

	if (u->bad || !n ||
	    !fits(u, (uint64_t)n, sizeof(((struct ios_meta_phase *)0)->op)))
		return;
	run->meta = wire_calloc(u, (size_t)n, sizeof(*run->meta));
	if (!run->meta)
		return;
	for (int k = 0; k < n && !u->bad; k++) {
		struct ios_meta_phase *ph = &run->meta[k];
		int32_t nreps;

		run->nmeta++;
		if (!get(u, ph->op, sizeof(ph->op)))
			return;
		TERMINATE(ph->op);
		nreps = get_count(
			u, "a metadata phase's repetitions out of bounds");
		if (u->bad || !fits(u, (uint64_t)nreps, sizeof(uint32_t)))
			return;
		ph->reps = wire_calloc(u, (size_t)nreps, sizeof(*ph->reps));
		if (!ph->reps)
			return;
		for (int r = 0; r < nreps && !u->bad; r++) {
			struct ios_meta_rep *rep = &ph->reps[r];

			ph->nreps++;
			rep->nranks = get_count(
				u,
				"a metadata repetition's ranks out of bounds");
			rep->ranks = get_array(
				u, (uint64_t)rep->nranks, sizeof(*rep->ranks),
				true,
				"a metadata repetition without its ranks");
			if (!rep->ranks)
				rep->nranks = 0;
			rep->lat_hist = get_array(
				u, IOS_LAT_BUCKETS, sizeof(uint64_t), true,
				"a metadata repetition without its histogram");
			if (!get(u, &rep->lat, sizeof(rep->lat)))
				return;
			rep->stonewalled = (int32_t)ios_unwire_u32(u);
		}
	}
}

static void get_body(struct ios_unwire *u, struct ios_run *run)
{
	char **str[] = {
		&run->run_id,       &run->created_utc,  &run->tool,
		&run->tool_version, &run->git_revision, &run->build_options,
		&run->command_line, &run->status,       &run->verdict,
		&run->job_json,     &run->ceph_json};
	uint32_t present;

	for (size_t i = 0; i < sizeof(str) / sizeof(str[0]); i++)
		*str[i] = ios_unwire_str(u, SIZE_MAX);
	run->config = get_kv(u, &run->nconfig, true);
	run->attachments = get_kv(u, &run->nattach, false);
	run->nranks = get_count(u, "nranks out of bounds");
	run->rank_info =
		get_array(u, (uint64_t)run->nranks, sizeof(*run->rank_info),
			  true, "a run without its rank table");
	for (int i = 0; run->rank_info && i < run->nranks; i++)
		TERMINATE(run->rank_info[i].host);
	if (!run->rank_info)
		run->nranks = 0;
	run->nnodes = get_count(u, "nnodes out of bounds");
	present = ios_unwire_u32(u);
	if (u->bad)
		return;
	if (present != 1 || !fits(u, (uint64_t)run->nnodes, sizeof(uint32_t))) {
		u->bad = u->bad ? u->bad : "a run without its node metadata";
		run->nnodes = 0;
		return;
	}
	run->node_json = wire_calloc(u, (size_t)run->nnodes, sizeof(char *));
	if (!run->node_json) {
		run->nnodes = 0;
		return;
	}
	for (int i = 0; i < run->nnodes && !u->bad; i++)
		if (!(run->node_json[i] = ios_unwire_str(u, SIZE_MAX)) &&
		    !u->bad)
			u->bad = "a node without metadata";
	run->schema_version = (int32_t)ios_unwire_u32(u);
	run->nhosts = get_count(u, "nhosts out of bounds");
	if (u->bad || !fits(u, (uint64_t)run->nhosts, sizeof(uint32_t))) {
		u->bad = u->bad ? u->bad : "nhosts beyond the message";
		run->nhosts = 0;
		return;
	}
	run->host_json = wire_calloc(u, (size_t)run->nhosts, sizeof(char *));
	if (!run->host_json) {
		run->nhosts = 0;
		return;
	}
	for (int i = 0; i < run->nhosts && !u->bad; i++)
		run->host_json[i] = ios_unwire_str(u, SIZE_MAX);
	run->nphases = get_count(u, "nphases out of bounds");
	if (!fits(u, (uint64_t)run->nphases, sizeof(struct ios_phase_result)))
		run->nphases = 0;
	if (u->bad)
		return;
	run->phases =
		wire_calloc(u, (size_t)run->nphases, sizeof(*run->phases));
	if (!run->phases) {
		run->nphases = 0;
		return;
	}
	for (int k = 0; k < run->nphases && !u->bad; k++)
		get_phase(u, &run->phases[k]);
	run->nlayers = get_count(u, "nlayers out of bounds");
	run->layers = get_array(u, (uint64_t)run->nlayers, sizeof(*run->layers),
				false, "a layer table missing");
	for (int i = 0; run->layers && i < run->nlayers; i++) {
		TERMINATE(run->layers[i].name);
		TERMINATE(run->layers[i].source);
		TERMINATE(run->layers[i].note);
	}
	if (!run->layers)
		run->nlayers = 0;
	run->nnet = ios_unwire_u64(u);
	if (!u->bad && run->nnet > WIRE_MAX_COUNT)
		u->bad = "a network table out of bounds";
	run->net = get_array(u, u->bad ? 0 : run->nnet, sizeof(*run->net),
			     false, "a network table missing");
	if (!run->net)
		run->nnet = 0;
	get_meta(u, run);
	/* the reader's required strings (the first 8) are never NULL */
	for (size_t i = 0; i < 8 && !u->bad; i++)
		if (!*str[i])
			u->bad = "a run without a required attribute";
}

int ios_unwire_run(struct ios_unwire *u, struct ios_run **out)
{
	struct ios_run *run = calloc(1, sizeof(*run));

	*out = NULL;
	if (!run) {
		u->bad = wire_nomem;
		return -ENOMEM;
	}
	get_body(u, run);
	if (u->bad) {
		ios_run_free(run);
		return strcmp(u->bad, wire_nomem) ? -EBADMSG : -ENOMEM;
	}
	ios_run_sanitize_text(run);
	*out = run;
	return 0;
}
