/* SPDX-License-Identifier: GPL-2.0-or-later */
/* campaign_estimate: the expected wall time of a campaign
 * (campaign_estimate.h). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "campaign_estimate.h"

int camp_est_shape(const char *job, unsigned *runs, unsigned *phases)
{
	if (!strcmp(job, "sweep-cores-mem") || !strcmp(job, "sweep-disk-bw")) {
		*runs = 2; /* seq.h5, rand.h5 */
		*phases = 2;
		return 0;
	}
	if (!strcmp(job, "sweep-threads")) {
		*runs = 1; /* threads.h5: write, read, randread, randwrite,
			      randrw */
		*phases = 5;
		return 0;
	}
	return -EINVAL;
}

double camp_est_layout_bps(const struct camp_est_params *p, unsigned r)
{
	static const double eff[] = {0.479, 0.258, 0.176};

	if (p->layout_bps > 0)
		return p->layout_bps;
	if (!r)
		r = p->replication ? p->replication : 3;
	if (r <= 3)
		return eff[r - 1] * CAMP_EST_PEAK_BPS;
	/* beyond the paper's factors: each replica more costs its share */
	return eff[2] * 3.0 / r * CAMP_EST_PEAK_BPS;
}

int camp_estimate(const struct camp_est_params *p, const struct camp_element *e,
		  size_t n, bool reuse, struct camp_est *out,
		  struct camp_est_element *each)
{
	/* per replication factor (index; 0: none), the ranks whose files
	 * are laid out already */
	uint64_t laid[65] = {0};
	unsigned runs, phases;

	memset(out, 0, sizeof(*out));
	if (camp_est_shape(p->job, &runs, &phases) < 0)
		return -EINVAL;
	if (!(p->runtime_s >= 0) || !isfinite(p->runtime_s) || !p->reps ||
	    !(p->rep_overhead_s >= 0) || !(p->elem_overhead_s >= 0) ||
	    !isfinite(p->rep_overhead_s) || !isfinite(p->elem_overhead_s))
		return -EINVAL;
	out->n = n;
	for (size_t i = 0; i < n; i++) {
		struct camp_est_element x = {0};
		uint64_t ranks = e[i].ranks ? e[i].ranks : p->ranks;
		unsigned r = e[i].replication < 64 ? e[i].replication : 64;
		uint64_t add = ranks;
		double bps = camp_est_layout_bps(p, e[i].replication);

		if (reuse)
			add = ranks > laid[r] ? ranks - laid[r] : 0;
		if (ranks > laid[r])
			laid[r] = ranks;
		x.timed_s = (double)runs * phases * p->reps * p->runtime_s;
		x.rep_s = (double)runs * phases * p->reps * p->rep_overhead_s;
		x.layout_s =
			(double)runs * (double)add * (double)p->file_size / bps;
		x.overhead_s = p->elem_overhead_s;
		x.total_s = x.timed_s + x.rep_s + x.layout_s + x.overhead_s;
		out->layouts += add > 0 && p->file_size > 0;
		out->timed_s += x.timed_s;
		out->rep_s += x.rep_s;
		out->layout_s += x.layout_s;
		out->overhead_s += x.overhead_s;
		out->total_s += x.total_s;
		if (each)
			each[i] = x;
	}
	return 0;
}
