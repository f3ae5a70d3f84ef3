/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * campaign_progress: the estimate and the lines of `status --wait` (see
 * campaign_progress.h); the state names.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

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
			  : to == CAMP_DONE && e->verdict[0] ? e->verdict
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

int camp_verdict_read(const char *path, char *out, size_t len)
{
	json_t *j = json_load_file(path, 0, NULL), *tiers, *ex;
	int rc = -1, total = 0, nfail = 0, nnot = 0;

	if (!j)
		return -1;
	ex = json_object_get(j, "exit");
	tiers = json_object_get(j, "tiers");
	if (!json_is_integer(ex))
		goto out;
	rc = (int)json_integer_value(ex);
	if (rc != 0 && rc != 1 && rc != 3) {
		rc = -1;
		goto out;
	}
	/* a tier table: tiers[].rows[].result; nersc: rows[].status */
	for (size_t t = 0;
	     t < (json_is_array(tiers) ? json_array_size(tiers) : 1); t++) {
		json_t *rows = json_object_get(
			json_is_array(tiers) ? json_array_get(tiers, t) : j,
			"rows");

		for (size_t i = 0; i < json_array_size(rows); i++) {
			json_t *row = json_array_get(rows, i);
			json_t *r = json_object_get(row, "result");
			const char *s;

			if (!r)
				r = json_object_get(row, "status");
			s = json_string_value(r);
			if (!s)
				continue;
			total++;
			nfail += !strcmp(s, "FAIL");
			nnot += !strcmp(s, "NOTRUN");
		}
	}
	if (rc == 1)
		snprintf(out, len, "FAIL: %d of %d metrics", nfail, total);
	else if (rc == 3)
		snprintf(out, len, "NOTRUN: %d of %d metrics", nnot, total);
	else
		snprintf(out, len, "PASS: %d metrics", total);
out:
	json_decref(j);
	return rc;
}

int camp_state_text(const struct camp_element *e, char *buf, size_t len)
{
	const char *n = camp_state_name(e->state);

	if (e->state == CAMP_DONE && e->verdict[0])
		return snprintf(buf, len, "%s (%s)", n, e->verdict);
	if (e->state == CAMP_FAILED && (e->exit_code >> 8) != 0)
		return snprintf(buf, len, "%s (exit %u%s%s)", n,
				e->exit_code >> 8, e->why[0] ? ": " : "",
				e->why);
	if ((e->state == CAMP_FAILED || e->state == CAMP_LOST) && e->why[0])
		return snprintf(buf, len, "%s (%s)", n, e->why);
	return snprintf(buf, len, "%s", n);
}

int camp_status_exit(const int *count, int nverdict)
{
	if (count[CAMP_PENDING] || count[CAMP_RUNNING])
		return 3;
	if (count[CAMP_FAILED] || count[CAMP_LOST] || count[CAMP_UNSUBMITTED])
		return 1;
	return nverdict ? 4 : 0;
}
