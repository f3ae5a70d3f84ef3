/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * campaign_progress: the estimate and the lines of `status --wait` (see
 * campaign_progress.h); the state names.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include "campaign.h"
#include "campaign_progress.h"

static const char *const state_names[] = {
	[CAMP_UNSUBMITTED] = "UNSUBMITTED", [CAMP_PENDING] = "PENDING",
	[CAMP_RUNNING] = "RUNNING",         [CAMP_DONE] = "DONE",
	[CAMP_FAILED] = "FAILED",           [CAMP_LOST] = "LOST",
};

const char *camp_state_name(enum camp_state s)
{
	if ((unsigned)s >= CAMP_NSTATES)
		return "?";
	return state_names[s];
}

double camp_estimate_left(const double *done_s, size_t ndone,
			  const double *running_s, size_t nrunning,
			  size_t npending)
{
	double mean = 0, work;

	if (ndone == 0)
		return nrunning || npending ? -1 : 0;
	for (size_t i = 0; i < ndone; i++)
		mean += done_s[i];
	mean /= (double)ndone;
	work = mean * (double)npending;
	for (size_t i = 0; i < nrunning; i++)
		if (running_s[i] < mean)
			work += mean - running_s[i];
	return work / (double)(nrunning ? nrunning : 1);
}

void camp_fmt_duration(double s, char *buf, size_t len)
{
	long long t = s > 0 ? llround(s < 1e12 ? s : 1e12) : 0;

	if (t >= 3600)
		snprintf(buf, len, "%lldh%02lldm%02llds", t / 3600, t / 60 % 60,
			 t % 60);
	else if (t >= 60)
		snprintf(buf, len, "%lldm%02llds", t / 60, t % 60);
	else
		snprintf(buf, len, "%llds", t);
}

int camp_progress_line(const struct camp_progress *p, char *buf, size_t len)
{
	char el[48], left[80];

	camp_fmt_duration(p->elapsed, el, sizeof(el));
	if (p->left < 0)
		snprintf(left, sizeof(left),
			 "estimate after the first element");
	else {
		char d[48];

		camp_fmt_duration(p->left, d, sizeof(d));
		snprintf(left, sizeof(left), "about %s left", d);
	}
	return snprintf(
		buf, len,
		"done %u/%u, running %u, pending %u, failed %u; elapsed %s; %s",
		p->done, p->total, p->running, p->pending, p->failed, el, left);
}

int camp_change_line(const struct tm *when, const struct camp_element *e,
		     enum camp_state from, enum camp_state to, char *buf,
		     size_t len)
{
	char t[64], job[32] = "";
	const char *why = (to == CAMP_FAILED || to == CAMP_LOST) && e->why[0]
				  ? e->why
				  : "";

	if (!strftime(t, sizeof(t), "%H:%M:%S", when))
		t[0] = '\0';
	if (e->jobid)
		snprintf(job, sizeof(job), ", job %u", e->jobid);
	if (from == CAMP_NSTATES)
		return snprintf(buf, len, "%s %s %s%s%s%s", t, e->label,
				camp_state_name(to), job, why[0] ? ": " : "",
				why);
	return snprintf(buf, len, "%s %s %s -> %s%s%s%s", t, e->label,
			camp_state_name(from), camp_state_name(to), job,
			why[0] ? ": " : "", why);
}
