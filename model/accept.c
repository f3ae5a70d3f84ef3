/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * accept: per-client measurements from runs and from fio's JSON, and the
 * verdict of a tier on them (accept.h).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accept.h"
#include "figures.h"
#include "layers.h"
#include "runrec.h"
#include "units.h"

const struct ios_acc_metric_desc ios_acc_metrics[IOS_ACC_NMETRICS] = {
	[IOS_ACC_RAND_READ_BW] = {"rand_read_bw", true, IOS_OP_READ, false},
	[IOS_ACC_RAND_WRITE_BW] = {"rand_write_bw", true, IOS_OP_WRITE, false},
	[IOS_ACC_RAND_READ_IOPS] = {"rand_read_iops", true, IOS_OP_READ, true},
	[IOS_ACC_RAND_WRITE_IOPS] = {"rand_write_iops", true, IOS_OP_WRITE,
				     true},
	[IOS_ACC_SEQ_READ_BW] = {"seq_read_bw", false, IOS_OP_READ, false},
	[IOS_ACC_SEQ_WRITE_BW] = {"seq_write_bw", false, IOS_OP_WRITE, false},
	[IOS_ACC_SEQ_READ_IOPS] = {"seq_read_iops", false, IOS_OP_READ, true},
	[IOS_ACC_SEQ_WRITE_IOPS] = {"seq_write_iops", false, IOS_OP_WRITE,
				    true},
};

const char *ios_acc_status_name(enum ios_acc_status s)
{
	switch (s) {
	case IOS_ACC_PASS:
		return "PASS";
	case IOS_ACC_NOTRUN:
		return "NOTRUN";
	case IOS_ACC_FAIL:
		return "FAIL";
	}
	return "?";
}

const char *ios_acc_scope_name(enum ios_acc_scope s)
{
	return s == IOS_ACC_ALONE ? "alone" : "together";
}

/* snprintf that may truncate (notes are for people; the rest is cut). */
static void setf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void setf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

int ios_acc_add(struct ios_acc_set *set, const struct ios_acc_meas *m)
{
	if (set->n == set->cap) {
		size_t cap = set->cap ? 2 * set->cap : 16;
		void *p = realloc(set->m, cap * sizeof(*set->m));

		if (!p)
			return -ENOMEM;
		set->m = p;
		set->cap = cap;
	}
	set->m[set->n++] = *m;
	return 0;
}

void ios_acc_set_clear(struct ios_acc_set *set)
{
	free(set->m);
	memset(set, 0, sizeof(*set));
}

static void cpy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

static int cfg_int(const struct ios_run *run, const char *key)
{
	const char *v = ios_runrec_get(run, key);
	char *end;
	long x;

	if (!v || !*v)
		return -1;
	x = strtol(v, &end, 10);
	return *end || x < 0 || x > 1 << 30 ? -1 : (int)x;
}

int ios_acc_add_run(struct ios_acc_set *set, const struct ios_run *run,
		    const char *path)
{
	const char *engine = ios_runrec_get(run, "ioengine");
	const char *size = ios_runrec_get(run, "size");
	int nn = run->nnodes;
	double *bw, *iops;
	int rc = 0;

	if (nn <= 0 || !run->rank_info)
		return 0;
	bw = calloc((size_t)nn, sizeof(double));
	iops = calloc((size_t)nn, sizeof(double));
	if (!bw || !iops) {
		rc = -ENOMEM;
		goto out;
	}
	for (int k = 0; k < run->nphases && !rc; k++) {
		const struct ios_phase_result *ph = &run->phases[k];
		struct ios_acc_meas base = {0};
		char *end;

		if (ph->layer[0] && strcmp(ph->layer, "fullstack"))
			continue;
		if (!strcmp(ph->name, "read") || !strcmp(ph->name, "randread"))
			base.how.op = IOS_OP_READ;
		else if (!strcmp(ph->name, "write") ||
			 !strcmp(ph->name, "randwrite"))
			base.how.op = IOS_OP_WRITE;
		else
			continue; /* randrw: no tier metric measures a mix */
		base.how.random = !strncmp(ph->name, "rand", 4);
		base.how.bs = ph->bs;
		cpy(base.how.ioengine, sizeof(base.how.ioengine), engine);
		base.how.iodepth = cfg_int(run, "iodepth");
		base.how.direct = cfg_int(run, "direct");
		base.how.file_size = size ? strtoull(size, &end, 10) : 0;
		if (size && *end)
			base.how.file_size = 0;
		cpy(base.tool, sizeof(base.tool), "iostrata-bench");
		base.scope = nn == 1 ? IOS_ACC_ALONE : IOS_ACC_TOGETHER;
		base.nclients = nn;
		snprintf(base.source, sizeof(base.source), "%s phase %s", path,
			 ph->name);
		for (int nd = 0; nd < nn && !rc; nd++) {
			struct ios_acc_meas m = base;
			const char *host = NULL;

			for (int i = 0; i < run->nranks; i++)
				if (run->rank_info[i].node == nd) {
					host = run->rank_info[i].host;
					break;
				}
			if (!host)
				continue; /* a node without ranks */
			cpy(m.client, sizeof(m.client), host);
			m.nreps = ph->nreps;
			m.worst_bw = m.worst_iops = NAN;
			for (int r = 0; r < ph->nreps; r++) {
				const struct ios_rep_result *rep = &ph->reps[r];

				if (!rep->valid) {
					if (!m.invalid[0])
						setf(m.invalid,
						     sizeof(m.invalid),
						     "rep %d: %s", rep->rep,
						     rep->invalid_reason);
					continue;
				}
				ios_node_rates(rep, run->rank_info, nn, bw,
					       iops);
				m.nvalid++;
				if (isnan(m.worst_bw) || bw[nd] < m.worst_bw)
					m.worst_bw = bw[nd];
				if (isnan(m.worst_iops) ||
				    iops[nd] < m.worst_iops)
					m.worst_iops = iops[nd];
			}
			rc = ios_acc_add(set, &m);
		}
	}
out:
	free(bw);
	free(iops);
	return rc;
}

/* ---- fio JSON -------------------------------------------------------- */

int ios_acc_add_fio(struct ios_acc_set *set, const char *client,
		    const char *json, const char *source, struct ios_err *err)
{
	struct ios_acc_meas m = {0};
	struct lyr_fio f;
	struct ios_err e = {0};
	int d;

	if (lyr_fio_parse(json, &f, &e) < 0)
		return ios_errf(err, e.code, "%s: %s", source, e.msg);
	if (!strcmp(f.rw, "read") || !strcmp(f.rw, "randread"))
		m.how.op = IOS_OP_READ;
	else if (!strcmp(f.rw, "write") || !strcmp(f.rw, "randwrite"))
		m.how.op = IOS_OP_WRITE;
	else
		return 0; /* mixed or trim: no tier metric measures it */
	d = m.how.op == IOS_OP_READ ? LYR_READ : LYR_WRITE;
	m.how.random = !strncmp(f.rw, "rand", 4);
	m.how.bs = f.bs;
	cpy(m.how.ioengine, sizeof(m.how.ioengine), f.ioengine);
	m.how.iodepth = f.iodepth;
	m.how.file_size = f.file_size;
	m.how.direct = f.direct;
	cpy(m.tool, sizeof(m.tool), "fio");
	cpy(m.client, sizeof(m.client), client);
	m.scope = IOS_ACC_ALONE;
	m.nclients = 1;
	cpy(m.source, sizeof(m.source), source);
	m.nreps = 1;
	m.worst_bw = m.worst_iops = NAN;
	if (f.error)
		setf(m.invalid, sizeof(m.invalid), "fio job error %d", f.error);
	else if (!(f.io_bytes[d] > 0))
		setf(m.invalid, sizeof(m.invalid), "fio job moved no data");
	else {
		m.worst_bw = f.bw[d];
		m.worst_iops = f.iops[d];
		m.nvalid = 1;
	}
	return ios_acc_add(set, &m) < 0 ? -ENOMEM : 1;
}

int ios_acc_add_fio_attachments(struct ios_acc_set *set,
				const struct ios_run *run, const char *path,
				struct ios_err *err)
{
	int total = 0;

	for (size_t i = 0; i < run->nattach; i++) {
		const char *name = run->attachments[i].key;
		const char *c, *e;
		char client[64], src[256];
		int rc;

		if (!name || strncmp(name, "fio.", 4) ||
		    !run->attachments[i].value)
			continue;
		/* the client's name may hold dots, TEST holds none */
		c = name + 4;
		e = strrchr(c, '.');
		if (!e || e == c || !e[1] || (size_t)(e - c) >= sizeof(client))
			return ios_errf(
				err, -EINVAL,
				"%s: attachment \"%s\": want fio.CLIENT.TEST",
				path, name);
		memcpy(client, c, (size_t)(e - c));
		client[e - c] = '\0';
		snprintf(src, sizeof(src), "%s attachment %s", path, name);
		rc = ios_acc_add_fio(set, client, run->attachments[i].value,
				     src, err);
		if (rc < 0)
			return rc;
		total += rc;
	}
	return total;
}

/* ---- the verdict ----------------------------------------------------- */

static void addf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void addf(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n + 1 >= len)
		return;
	if (n)
		n += (size_t)snprintf(buf + n, len - n, ", ");
	if (n + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

/* Differences of [h] from [d] measured with [mt]: count, described in
 * [why] ("bs 4 KiB (tier: 4 MiB), iodepth 4 (tier: 16)"). */
static int method_diff(const struct ios_acc_how *h,
		       const struct ios_acc_metric_desc *d,
		       const struct ios_acc_method *mt, char *why, size_t len)
{
	uint64_t bs = d->iops ? mt->iops_bs : mt->bw_bs;
	char a[32], b[32];
	int n = 0;

	why[0] = '\0';
	if (h->op != d->op) {
		addf(why, len, "%s (tier: %s)",
		     h->op == IOS_OP_READ ? "read" : "write",
		     d->op == IOS_OP_READ ? "read" : "write");
		n++;
	}
	if (h->random != d->random) {
		addf(why, len, "pattern %s (tier: %s)",
		     h->random ? "random" : "sequential",
		     d->random ? "random" : "sequential");
		n++;
	}
	if (bs && h->bs != bs) {
		addf(why, len, "bs %s (tier: %s)",
		     ios_fmt_size(h->bs, a, sizeof(a)),
		     ios_fmt_size(bs, b, sizeof(b)));
		n++;
	}
	if (mt->ioengine[0] && h->ioengine[0] &&
	    strcmp(mt->ioengine, h->ioengine)) {
		addf(why, len, "ioengine %s (tier: %s)", h->ioengine,
		     mt->ioengine);
		n++;
	}
	if (mt->iodepth > 0 && h->iodepth >= 0 && h->iodepth != mt->iodepth) {
		addf(why, len, "iodepth %d (tier: %d)", h->iodepth,
		     mt->iodepth);
		n++;
	}
	if (mt->file_size && h->file_size && h->file_size < mt->file_size) {
		addf(why, len, "file size %s (tier: at least %s)",
		     ios_fmt_size(h->file_size, a, sizeof(a)),
		     ios_fmt_size(mt->file_size, b, sizeof(b)));
		n++;
	}
	if (mt->direct >= 0 && h->direct >= 0 && h->direct != mt->direct) {
		addf(why, len, "%s I/O (tier: %s)",
		     h->direct ? "direct" : "buffered",
		     mt->direct ? "direct" : "buffered");
		n++;
	}
	return n;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Judge one row from the measurements of [tool] in [set]. */
static void judge_row(struct ios_acc_row *row, const struct ios_acc_tier *t,
		      const struct ios_acc_set *set, const char *tool,
		      double *value, char *source, size_t srclen)
{
	const struct ios_acc_metric_desc *d = &ios_acc_metrics[row->metric];
	int best_diff = -1, matched = 0;
	char why[256], nearest[256] = "", nsrc[256] = "";

	*value = NAN;
	source[0] = '\0';
	for (size_t i = 0; i < set->n; i++) {
		const struct ios_acc_meas *m = &set->m[i];
		double v;
		int nd;

		if (strcmp(m->tool, tool) || strcmp(m->client, row->client) ||
		    m->scope != row->scope || m->how.op != d->op)
			continue;
		nd = method_diff(&m->how, d, &t->method, why, sizeof(why));
		if (nd) {
			if (best_diff < 0 || nd < best_diff) {
				best_diff = nd;
				cpy(nearest, sizeof(nearest), why);
				cpy(nsrc, sizeof(nsrc), m->source);
			}
			continue;
		}
		matched++;
		row->nreps += m->nreps;
		row->nvalid += m->nvalid;
		if (row->nclients < m->nclients)
			row->nclients = m->nclients;
		if (!m->nvalid) {
			if (!row->note[0])
				setf(row->note, sizeof(row->note),
				     "no valid repetition in %s (%s)",
				     m->source,
				     m->invalid[0] ? m->invalid : "?");
			continue;
		}
		v = d->iops ? m->worst_iops : m->worst_bw;
		if (isnan(*value) || v < *value) {
			*value = v;
			cpy(source, srclen, m->source);
		}
	}
	if (!matched) {
		row->status = IOS_ACC_NOTRUN;
		if (best_diff > 0)
			setf(row->note, sizeof(row->note),
			     "no phase with the tier's method: %s in %s",
			     nearest, nsrc);
		else if (row->scope == IOS_ACC_ALONE)
			setf(row->note, sizeof(row->note),
			     "no %s phase on %s alone",
			     d->op == IOS_OP_READ ? "read" : "write",
			     row->client);
		else
			snprintf(
				row->note, sizeof(row->note),
				"no %s phase with %s among all clients together",
				d->op == IOS_OP_READ ? "read" : "write",
				row->client);
	}
}

int ios_acc_judge(const struct ios_acc_tier *t, const struct ios_acc_set *set,
		  double fio_tol, struct ios_acc_verdict *out)
{
	const char **clients;
	size_t nc = 0, cap = 0;

	memset(out, 0, sizeof(*out));
	out->status = IOS_ACC_NOTRUN;
	clients = calloc(set->n + 1, sizeof(*clients));
	if (!clients)
		return -ENOMEM;
	for (size_t i = 0; i < set->n; i++) {
		size_t k;

		for (k = 0; k < nc; k++)
			if (!strcmp(clients[k], set->m[i].client))
				break;
		if (k == nc)
			clients[nc++] = set->m[i].client;
	}
	qsort(clients, nc, sizeof(*clients), cmp_str);
	for (int mi = 0; mi < IOS_ACC_NMETRICS; mi++)
		if (t->has[mi])
			cap += nc * IOS_ACC_NSCOPES;
	out->rows = calloc(cap + 1, sizeof(*out->rows));
	if (!out->rows) {
		free(clients);
		return -ENOMEM;
	}
	for (int mi = 0; mi < IOS_ACC_NMETRICS; mi++) {
		if (!t->has[mi])
			continue;
		for (size_t c = 0; c < nc; c++)
			/* one client: alone is all of them */
			for (int sc = 0; sc < (nc > 1 ? IOS_ACC_NSCOPES : 1);
			     sc++) {
				struct ios_acc_row *row = &out->rows[out->n++];
				double v, ref;
				char rsrc[256];

				row->metric = (enum ios_acc_metric)mi;
				row->scope = (enum ios_acc_scope)sc;
				cpy(row->client, sizeof(row->client),
				    clients[c]);
				row->expected = t->expected[mi];
				row->status = IOS_ACC_PASS;
				judge_row(row, t, set, "iostrata-bench", &v,
					  row->source, sizeof(row->source));
				row->measured = v;
				row->margin = v / row->expected;
				if (row->status != IOS_ACC_NOTRUN) {
					if (isnan(v))
						row->status = IOS_ACC_FAIL;
					else if (!(v >= row->expected)) {
						row->status = IOS_ACC_FAIL;
						snprintf(
							row->note,
							sizeof(row->note),
							"worst valid repetition %.1f%% of expected",
							row->margin * 100);
					}
				}
				if (sc == IOS_ACC_ALONE) {
					struct ios_acc_row tmp = *row;

					tmp.note[0] = '\0';
					judge_row(&tmp, t, set, "fio", &ref,
						  rsrc, sizeof(rsrc));
					if (!isnan(ref)) {
						row->has_ref = true;
						row->ref = ref;
						row->ratio = v / ref;
						cpy(row->ref_source,
						    sizeof(row->ref_source),
						    rsrc);
						row->disagree =
							!isnan(v) &&
							!(fabs(row->ratio -
							       1) <= fio_tol);
						if (row->disagree)
							out->ndisagree++;
					}
				}
			}
	}
	if (out->n)
		out->status = IOS_ACC_PASS;
	for (size_t i = 0; i < out->n; i++)
		if (out->rows[i].status > out->status)
			out->status = out->rows[i].status;
	free(clients);
	return 0;
}

void ios_acc_verdict_clear(struct ios_acc_verdict *v)
{
	free(v->rows);
	memset(v, 0, sizeof(*v));
}
