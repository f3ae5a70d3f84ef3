/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * campaign_state: the elements' states (libslurm, then the job
 * script's status file), `status` and `collect`.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <glob.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include "campaign.h"
#include "campaign_estimate.h"
#include "campaign_progress.h"
#include "safefile.h"
#include "siteconf.h"
#include "slurmcompat.h"
#include "units.h"

#include "campaign_internal.h"

/* ------------------------------------------------------------ states */

/* The job script's own verdict: DIR/elements/K/status ("ok" or why not). */
static int read_status_file(const char *dir, const struct camp_element *e,
			    char *out, size_t len)
{
	char path[PATH_MAX + 64];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/elements/%d/status", dir, e->index);
	fp = fopen(path, "re");
	if (!fp)
		return -errno;
	if (!fgets(out, (int)len, fp))
		out[0] = '\0';
	fclose(fp);
	out[strcspn(out, "\n")] = '\0';
	return 0;
}

/*
 * An element whose job failed only because its verdict is not met: an
 * acceptance element writes accept.json (its verdict, exit 1 FAIL or 3
 * NOTRUN) as its last step and then exits 1 (ios_fail).  When the job
 * ended no other way ([abnormal]: cancelled, out of time, node failure,
 * out of memory) and exited 1, it is DONE with that verdict, not FAILED
 * as a crashed job is.  Returns the state.
 */
static enum camp_state verdict_state(const char *dir, struct camp_element *e,
				     enum camp_state st, bool abnormal)
{
	char path[PATH_MAX + 64], v[sizeof(e->verdict)];
	struct stat sb;
	int rc;

	if (st != CAMP_FAILED || abnormal ||
	    (e->exit_code && (e->exit_code >> 8) != 1))
		return st;
	snprintf(path, sizeof(path), "%s/elements/%d/accept.txt", dir,
		 e->index);
	if (stat(path, &sb) != 0) /* written after accept.json */
		return st;
	snprintf(path, sizeof(path), "%s/elements/%d/accept.json", dir,
		 e->index);
	rc = camp_verdict_read(path, v, sizeof(v));
	if (rc != 1 && rc != 3)
		return st;
	snprintf(e->verdict, sizeof(e->verdict), "%s", v);
	/* collect's index keeps it in its why column */
	snprintf(e->why, sizeof(e->why),
		 "%s (the verdict in %s/elements/%d/accept.txt)", v, dir,
		 e->index);
	return CAMP_DONE;
}

enum camp_state camp_element_state(const char *dir, struct camp_element *e)
{
	job_info_msg_t *msg = NULL;
	enum camp_state st = CAMP_DONE;
	bool any_pending = false, any_running = false, any_failed = false;
	bool abnormal = false;
	int64_t start = 0, end = 0;
	char status[256];
	int have_status;

	if (!e->jobid)
		return CAMP_UNSUBMITTED;
	have_status = read_status_file(dir, e, status, sizeof(status)) == 0;
	e->why[0] = '\0';
	e->verdict[0] = '\0';
	if (slurm_load_job(&msg, e->jobid, SHOW_ALL) != SLURM_SUCCESS) {
		/* purged from slurmctld (MinJobAge): the script's verdict */
		if (!have_status) {
			snprintf(
				e->why, sizeof(e->why),
				"job %u unknown to Slurm (%s) and no status file",
				e->jobid, slurm_strerror(IOS_SLURM_ERRNO()));
			return CAMP_LOST;
		}
		if (strcmp(status, "ok") == 0)
			return CAMP_DONE;
		snprintf(e->why, sizeof(e->why), "%s", status);
		return verdict_state(dir, e, CAMP_FAILED, false);
	}
	for (uint32_t i = 0; i < msg->record_count; i++) {
		const slurm_job_info_t *j = &msg->job_array[i];
		uint32_t base = j->job_state & JOB_STATE_BASE;

		/* all components: the first start, the last end */
		if (j->start_time > 0 && base != JOB_PENDING &&
		    (!start || (int64_t)j->start_time < start))
			start = (int64_t)j->start_time;
		if (j->end_time > 0 && base != JOB_PENDING &&
		    base != JOB_RUNNING && base != JOB_SUSPENDED &&
		    (int64_t)j->end_time > end)
			end = (int64_t)j->end_time;
		switch (base) {
		case JOB_PENDING:
			any_pending = true;
			break;
		case JOB_RUNNING:
		case JOB_SUSPENDED:
			any_running = true;
			break;
		case JOB_COMPLETE:
			if (j->het_job_offset == 0 ||
			    j->het_job_offset == NO_VAL)
				e->exit_code = j->exit_code;
			if ((j->job_state & JOB_COMPLETING) != 0)
				any_running = true;
			break;
		default:
			any_failed = true;
			/* a script's non-zero exit is FAILED; the others
			 * ended it from outside */
			abnormal |= base != JOB_FAILED;
			e->exit_code = j->exit_code;
			if (!e->why[0])
				snprintf(e->why, sizeof(e->why),
					 "Slurm state %s (component %u)",
					 base == JOB_CANCELLED   ? "CANCELLED"
					 : base == JOB_FAILED    ? "FAILED"
					 : base == JOB_TIMEOUT   ? "TIMEOUT"
					 : base == JOB_NODE_FAIL ? "NODE_FAIL"
					 : base == JOB_OOM ? "OUT_OF_MEMORY"
							   : "ended abnormally",
					 j->het_job_offset == NO_VAL
						 ? 0
						 : j->het_job_offset);
			break;
		}
	}
	slurm_free_job_info_msg(msg);
	if (start)
		e->start = start;
	if (end && !any_running && !any_pending)
		e->end = end;
	if (any_failed) {
		st = CAMP_FAILED;
		if (have_status && strcmp(status, "ok") != 0)
			snprintf(e->why, sizeof(e->why), "%s", status);
	} else if (any_running)
		st = CAMP_RUNNING;
	else if (any_pending)
		st = CAMP_PENDING;
	else if (have_status && strcmp(status, "ok") != 0) {
		st = CAMP_FAILED;
		snprintf(e->why, sizeof(e->why), "%s", status);
	} else if (!have_status) {
		st = CAMP_FAILED;
		snprintf(e->why, sizeof(e->why),
			 "job completed without writing its status file");
	}
	if (st == CAMP_DONE && e->exit_code != 0) {
		st = CAMP_FAILED;
		snprintf(e->why, sizeof(e->why), "exit code %u",
			 e->exit_code >> 8);
	}
	return verdict_state(dir, e, st, abnormal);
}
static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* What `status --wait` remembers between looks. */
struct watch {
	bool tty;      /* stdout is a terminal: the live line */
	bool live;     /* the live line is on the screen */
	int64_t since; /* when the wait began (s since the epoch) */
	enum camp_state *prev;
	int64_t *run_at; /* first seen RUNNING by us, when Slurm forgot */
	int64_t *end_at; /* first seen ended by us */
	double *done_s, *run_s;
};

static bool ended(enum camp_state s)
{
	return s == CAMP_DONE || s == CAMP_FAILED || s == CAMP_LOST;
}

static void live_clear(struct watch *w)
{
	if (w->live) {
		fputs("\r\033[K", stdout);
		w->live = false;
	}
}

/* One look: change lines for what changed, times remembered. */
static void watch_look(struct watch *w, struct campaign *c, bool first,
		       int64_t now)
{
	struct tm tm;
	time_t t = (time_t)now;
	char line[512];

	localtime_r(&t, &tm);
	for (size_t i = 0; i < c->nel; i++) {
		struct camp_element *e = &c->el[i];
		enum camp_state from = first ? CAMP_NSTATES : w->prev[i];

		if (e->state == CAMP_RUNNING && !w->run_at[i])
			w->run_at[i] = now;
		if (ended(e->state) && !w->end_at[i] && !first)
			w->end_at[i] = now;
		if (from == e->state)
			continue;
		live_clear(w);
		camp_change_line(&tm, e, from, e->state, line, sizeof(line));
		puts(line);
		w->prev[i] = e->state;
	}
	fflush(stdout);
}

static void watch_progress(struct watch *w, const struct campaign *c,
			   int64_t now, struct camp_progress *p)
{
	size_t ndone = 0, nrun = 0, npend = 0;
	int64_t first = 0;

	memset(p, 0, sizeof(*p));
	p->total = (unsigned)c->nel;
	for (size_t i = 0; i < c->nel; i++) {
		const struct camp_element *e = &c->el[i];
		int64_t start = e->start ? e->start : w->run_at[i];
		int64_t end = e->end ? e->end : w->end_at[i];

		if (start && (!first || start < first))
			first = start;
		switch (e->state) {
		case CAMP_DONE:
			p->done++;
			if (start && end >= start)
				w->done_s[ndone++] = (double)(end - start);
			break;
		case CAMP_RUNNING:
			p->running++;
			w->run_s[nrun++] = start && now > start
						   ? (double)(now - start)
						   : 0;
			break;
		case CAMP_PENDING:
		case CAMP_UNSUBMITTED:
			p->pending++;
			npend++;
			break;
		default:
			p->failed++;
			break;
		}
	}
	p->elapsed =
		(double)(now - (first && first < w->since ? first : w->since));
	p->left = camp_estimate_left(w->done_s, ndone, w->run_s, nrun, npend);
}

static void live_show(struct watch *w, const struct camp_progress *p)
{
	struct winsize ws;
	char line[256];
	int n = camp_progress_line(p, line, sizeof(line));
	size_t cols = sizeof(line) - 1;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
		cols = ws.ws_col - 1u;
	/* longer than the terminal is wide: \r would not reach its start */
	if (n > 0 && (size_t)n > cols)
		line[cols] = '\0';
	printf("\r%s\033[K", line);
	fflush(stdout);
	w->live = true;
}

static bool settled(const int *count)
{
	return count[CAMP_PENDING] == 0 && count[CAMP_RUNNING] == 0;
}

/*
 * The campaign's wall-clock efficiency: the seconds its elements' benchmark
 * runs measured over the seconds the elements took (each element's
 * elements/N/timing, "total_s measured_s", written by the job scripts at
 * its end).  Printed when at least one element has it.
 */
/* Element [i]'s timing record: 1 with [total] and [measured] set, 0 when
 * it has none (or not a valid one). */
static int read_timing(const struct campaign *c, size_t i, double *total,
		       double *measured)
{
	char path[PATH_MAX];
	int ok = 0;
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/elements/%d/timing", c->dir,
		     c->el[i].index) >= (int)sizeof(path))
		return 0;
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%lf %lf", total, measured) == 2 && *total > 0 &&
	    *measured >= 0 && isfinite(*total) && isfinite(*measured))
		ok = 1;
	fclose(f);
	return ok;
}

static void print_efficiency(const struct campaign *c)
{
	double total = 0, measured = 0;
	int n = 0;

	for (size_t i = 0; i < c->nel; i++) {
		double t, m;

		if (!read_timing(c, i, &t, &m))
			continue;
		total += t;
		measured += m;
		n++;
	}
	if (n)
		printf("efficiency: measured %.0f s of %.0f s (%.1f%%) over %d element(s)\n",
		       measured, total, 100.0 * measured / total, n);
}

/* The estimate's parameters from the site: 0, or -1 said on stderr. */
static int est_params(const struct campaign *c, struct camp_est_params *p,
		      bool *reuse)
{
	struct ios_err err = {0};
	uint64_t u, nodes, rpn;
	const char *v;
	unsigned runs, phases;

	memset(p, 0, sizeof(*p));
	p->job = c->job;
	if (camp_est_shape(c->job, &runs, &phases) < 0) {
		fprintf(stderr,
			PROG
			": --estimate: job %s: not estimated (accepted: sweep-cores-mem, sweep-disk-bw, sweep-threads)\n",
			c->job);
		return -1;
	}
	/* the benchmark's defaults where the site sets nothing
	 * (ios_timed_s in iostrata-jobs.sh) */
	p->runtime_s = 150;
	p->reps = 7;
	if ((ios_site_get_duration(c->site, "workload", "runtime",
				   &p->runtime_s, &err) < 0 &&
	     err.code != -ENOENT) ||
	    (ios_site_get_uint(c->site, "workload", "reps", &u, &err) == 0 &&
	     (u == 0 || u > 100000)))
		goto bad;
	if (ios_site_get_uint(c->site, "workload", "reps", &u, &err) == 0)
		p->reps = (unsigned)u;
	if (ios_site_get_size(c->site, "workload", "file_size", &p->file_size,
			      &err) < 0 ||
	    ios_site_get_uint(c->site, "compute", "nodes", &nodes, &err) < 0 ||
	    ios_site_get_uint(c->site, "compute", "ranks_per_node", &rpn,
			      &err) < 0)
		goto bad;
	p->ranks = nodes * rpn;
	if (ios_site_get_uint(c->site, "storage", "replication", &u, &err) ==
		    0 &&
	    u >= 1 && u <= 64)
		p->replication = (unsigned)u;
	v = ios_site_get(c->site, "workload", "reuse_dataset");
	*reuse = v && !strcmp(v, "1");
	p->rep_overhead_s = CAMP_EST_REP_OVERHEAD_S;
	p->elem_overhead_s = CAMP_EST_ELEM_OVERHEAD_S;
	return 0;
bad:
	fprintf(stderr, PROG ": --estimate: %s\n",
		err.msg[0] ? err.msg : "[workload] reps: expected 1..100000");
	return -1;
}

static void print_hours(const char *what, const struct camp_est *x)
{
	printf("  %s: %.2f h (%.0f s: timed %.0f s, per repetition %.0f s, lay-out %.0f s in %u element(s), per element %.0f s)\n",
	       what, x->total_s / 3600, x->total_s, x->timed_s, x->rep_s,
	       x->layout_s, x->layouts, x->overhead_s);
}

/*
 * The estimate: the campaign's expected wall time with and without
 * dataset reuse, its parameters and where its overheads come from; the
 * per-element overhead is measured when elements of the campaign have a
 * timing record (their total - timed - predicted lay-out and repetition
 * overheads, averaged).  With [done] (status), the elements with a record
 * against their prediction and what is left.  Returns 0, or -1 said.
 */
int camp_print_estimate(const struct campaign *c, bool done)
{
	struct camp_est_params p;
	struct camp_est with, without, *mine;
	struct camp_est_element *each;
	double t, m, sum_over = 0, took = 0, pred = 0, left = 0;
	unsigned runs, phases, nrec = 0;
	bool reuse;

	if (est_params(c, &p, &reuse) < 0)
		return -1;
	each = calloc(c->nel ? c->nel : 1, sizeof(*each));
	if (!each) {
		fprintf(stderr, PROG ": --estimate: %s\n", strerror(ENOMEM));
		return -1;
	}
	/* measured overheads: what the recorded elements took beyond their
	 * timed windows and predicted lay-out */
	camp_estimate(&p, c->el, c->nel, reuse, &with, each);
	for (size_t i = 0; i < c->nel; i++) {
		if (!read_timing(c, i, &t, &m))
			continue;
		sum_over += t - m - each[i].layout_s - each[i].rep_s;
		/* what the defaults predicted for it, before it ran */
		took += t;
		pred += each[i].total_s;
		nrec++;
	}
	if (nrec) {
		p.elem_overhead_s = sum_over / nrec > 0 ? sum_over / nrec : 0;
		p.rep_overhead_s = 0; /* in the measured figure */
	}
	camp_est_shape(c->job, &runs, &phases);
	camp_estimate(&p, c->el, c->nel, true, &with, NULL);
	camp_estimate(&p, c->el, c->nel, false, &without, NULL);
	mine = reuse ? &with : &without;
	camp_estimate(&p, c->el, c->nel, reuse, mine, each);
	printf("estimate: %zu element(s) x %u run(s) x %u phase(s) x %u repetition(s) x %g s; lay-out %llu rank(s) x %.6g GiB per run\n",
	       c->nel, runs, phases, p.reps, p.runtime_s,
	       (unsigned long long)p.ranks,
	       (double)p.file_size / (1024.0 * 1024 * 1024));
	printf("  lay-out rate, GiB/s: %.2f at replication 1, %.2f at 2, %.2f at 3 (%s)\n",
	       camp_est_layout_bps(&p, 1) / (1024.0 * 1024 * 1024),
	       camp_est_layout_bps(&p, 2) / (1024.0 * 1024 * 1024),
	       camp_est_layout_bps(&p, 3) / (1024.0 * 1024 * 1024),
	       CAMP_EST_LAYOUT_SRC);
	if (nrec)
		printf("  overhead per element: %.1f s, measured: mean total - timed - predicted lay-out over %u element(s) (elements/N/timing), repetitions' overheads included\n",
		       p.elem_overhead_s, nrec);
	else
		printf("  overhead per element: %.1f s (default: %s); per repetition: %.2f s (default: %s)\n",
		       p.elem_overhead_s, CAMP_EST_ELEM_OVERHEAD_SRC,
		       p.rep_overhead_s, CAMP_EST_REP_OVERHEAD_SRC);
	print_hours("with dataset reuse", &with);
	print_hours("without dataset reuse", &without);
	printf("  this campaign ([workload] reuse_dataset = %d): %.2f h\n",
	       reuse, mine->total_s / 3600);
	if (done) {
		/* left: with the overheads measured so far */
		for (size_t i = 0; i < c->nel; i++)
			if (!read_timing(c, i, &t, &m))
				left += each[i].total_s;
		if (nrec)
			printf("  done: %u element(s) took %.0f s, predicted %.0f s by the defaults (%.2fx); left: %zu element(s), %.2f h predicted\n",
			       nrec, took, pred, pred > 0 ? took / pred : 0,
			       c->nel - nrec, left / 3600);
		else
			printf("  done: no element has a timing record yet; left: %zu element(s), %.2f h predicted\n",
			       c->nel, left / 3600);
	}
	free(each);
	return 0;
}

int camp_cmd_status(struct campaign *c, const struct opts *o)
{
	int count[CAMP_NSTATES];
	struct watch w = {.tty = isatty(STDOUT_FILENO) == 1};
	double t0 = mono_now();
	int rc = 0, nverdict = 0;

	if (camp_load_recorded(c) < 0)
		return 2;
	w.since = (int64_t)time(NULL);
	w.prev = calloc(c->nel + 1, sizeof(*w.prev));
	w.run_at = calloc(c->nel + 1, sizeof(*w.run_at));
	w.end_at = calloc(c->nel + 1, sizeof(*w.end_at));
	w.done_s = calloc(c->nel + 1, sizeof(*w.done_s));
	w.run_s = calloc(c->nel + 1, sizeof(*w.run_s));
	if (!w.prev || !w.run_at || !w.end_at || !w.done_s || !w.run_s) {
		fprintf(stderr, PROG ": status: %s\n", strerror(ENOMEM));
		rc = 2;
		goto out;
	}
	for (bool first = true;; first = false) {
		int64_t now = (int64_t)time(NULL);
		struct camp_progress p;

		memset(count, 0, sizeof(count));
		for (size_t i = 0; i < c->nel; i++) {
			c->el[i].state = camp_element_state(c->dir, &c->el[i]);
			count[c->el[i].state]++;
		}
		if (o->wait <= 0 || (first && settled(count)))
			break;
		/* waiting: every change as a line, the first look too */
		watch_look(&w, c, first, now);
		if (settled(count) || mono_now() - t0 >= o->wait)
			break;
		if (w.tty) {
			watch_progress(&w, c, now, &p);
			live_show(&w, &p);
		}
		sleep(1);
	}
	live_clear(&w);
	printf("campaign %s: job %s, %zu element(s)\n", c->dir, c->job, c->nel);
	printf("%-5s %-24s %-8s %s\n", "elem", "label", "jobid", "state");
	for (size_t i = 0; i < c->nel; i++) {
		const struct camp_element *e = &c->el[i];
		char st[512];

		camp_state_text(e, st, sizeof(st));
		printf("%-5d %-24s %-8u %s\n", e->index, e->label, e->jobid,
		       st);
		nverdict += e->state == CAMP_DONE && e->verdict[0];
	}
	printf("done %d (%d with a verdict not met), failed %d, running %d, pending %d, lost %d, unsubmitted %d\n",
	       count[CAMP_DONE], nverdict, count[CAMP_FAILED],
	       count[CAMP_RUNNING], count[CAMP_PENDING], count[CAMP_LOST],
	       count[CAMP_UNSUBMITTED]);
	print_efficiency(c);
	{
		unsigned runs, phases;

		if (camp_est_shape(c->job, &runs, &phases) == 0)
			camp_print_estimate(c, true);
	}
	rc = camp_status_exit(count, nverdict);
out:
	free(w.prev);
	free(w.run_at);
	free(w.end_at);
	free(w.done_s);
	free(w.run_s);
	return rc;
}

static bool is_hdf5(const char *path)
{
	static const unsigned char sig[8] = {0x89, 'H',  'D',  'F',
					     '\r', '\n', 0x1a, '\n'};
	unsigned char buf[8];
	/* a FIFO planted among the results must not block collect */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	bool ok;

	if (fd < 0)
		return false;
	ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	     read(fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf) &&
	     memcmp(buf, sig, sizeof(sig)) == 0;
	close(fd);
	return ok;
}

static void json_str(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(fp, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(fp, "\\u%04x", *s);
		else
			fputc(*s, fp);
	}
	fputc('"', fp);
}

int camp_cmd_collect(struct campaign *c)
{
	char rdir[PATH_MAX + 16], pattern[PATH_MAX + 64];
	char *tsv = NULL, *json = NULL;
	size_t tlen = 0, jlen = 0;
	FILE *t, *j;
	int count[CAMP_NSTATES] = {0}, nfiles = 0, nbad = 0, rc;

	if (camp_load_recorded(c) < 0)
		return 2;
	snprintf(rdir, sizeof(rdir), "%s/results", c->dir);
	if ((rc = camp_mkdir_p(rdir)) < 0) {
		fprintf(stderr, PROG ": collect: create %s: %s\n", rdir,
			strerror(-rc));
		return 2;
	}
	t = open_memstream(&tsv, &tlen);
	j = open_memstream(&json, &jlen);
	if (!t || !j)
		return 2;
	fprintf(t, "# campaign %s, job %s, site %s\n", c->dir, c->job,
		c->site_abs);
	fprintf(t,
		"element\tlabel\tcpus\tmem_bytes\tdisk_bw_Bps\tjobid\tstate\tfile\tnote\treplication\n");
	fprintf(j, "{\"campaign\":");
	json_str(j, c->dir);
	fprintf(j, ",\"job\":");
	json_str(j, c->job);
	fprintf(j, ",\"site\":");
	json_str(j, c->site_abs);
	fprintf(j, ",\"elements\":[");
	for (size_t i = 0; i < c->nel; i++) {
		struct camp_element *e = &c->el[i];
		glob_t g = {0};
		int nf = 0;

		e->state = camp_element_state(c->dir, e);
		count[e->state]++;
		snprintf(pattern, sizeof(pattern), "%s/elements/%d/*.h5",
			 c->dir, e->index);
		glob(pattern, 0, NULL, &g);
		fprintf(j, "%s{\"element\":%d,\"label\":", i ? "," : "",
			e->index);
		json_str(j, e->label);
		fprintf(j,
			",\"cpus\":%llu,\"mem_bytes\":%llu,\"disk_bw_Bps\":%llu,\"replication\":%u,\"jobid\":%u,\"state\":\"%s\",\"note\":",
			(unsigned long long)e->cpus, (unsigned long long)e->mem,
			(unsigned long long)e->disk_bw, e->replication,
			e->jobid, camp_state_name(e->state));
		json_str(j, e->why);
		fprintf(j, ",\"files\":[");
		for (size_t k = 0; k < g.gl_pathc; k++) {
			const char *f = g.gl_pathv[k];
			const char *base = strrchr(f, '/') + 1;
			char link[PATH_MAX + 300], target[PATH_MAX + 300];
			const char *note = "";
			bool ok = is_hdf5(f);

			if (!ok) {
				note = "not an HDF5 file (truncated or foreign): left out of results/";
				nbad++;
			} else {
				snprintf(link, sizeof(link), "%s/%03d-%s-%s",
					 rdir, e->index, e->label, base);
				snprintf(target, sizeof(target),
					 "../elements/%d/%s", e->index, base);
				unlink(link);
				if (symlink(target, link) < 0) {
					fprintf(stderr,
						PROG ": collect: link %s: %s\n",
						link, strerror(errno));
					nbad++;
				}
				nfiles++;
			}
			fprintf(t,
				"%d\t%s\t%llu\t%llu\t%llu\t%u\t%s\t%s\t%s%s%s\t%u\n",
				e->index, e->label, (unsigned long long)e->cpus,
				(unsigned long long)e->mem,
				(unsigned long long)e->disk_bw, e->jobid,
				camp_state_name(e->state), f, e->why,
				e->why[0] && note[0] ? "; " : "", note,
				e->replication);
			fprintf(j, "%s{\"path\":", nf ? "," : "");
			json_str(j, f);
			fprintf(j, ",\"valid_hdf5\":%s}",
				ok ? "true" : "false");
			nf++;
		}
		if (nf == 0) {
			const char *note =
				e->state == CAMP_DONE ? "no results file" : "";
			fprintf(t,
				"%d\t%s\t%llu\t%llu\t%llu\t%u\t%s\t-\t%s%s%s\t%u\n",
				e->index, e->label, (unsigned long long)e->cpus,
				(unsigned long long)e->mem,
				(unsigned long long)e->disk_bw, e->jobid,
				camp_state_name(e->state), e->why,
				e->why[0] && note[0] ? "; " : "", note,
				e->replication);
			if (e->state == CAMP_DONE)
				nbad++;
		}
		fprintf(j, "]}");
		globfree(&g);
	}
	fprintf(j, "]}\n");
	fclose(t);
	fclose(j);
	if ((rc = camp_write_atomic(c->dir, "index.tsv", tsv)) < 0 ||
	    (rc = camp_write_atomic(c->dir, "index.json", json)) < 0)
		fprintf(stderr, PROG ": collect: write index in %s: %s\n",
			c->dir, strerror(-rc));
	free(tsv);
	free(json);
	printf("campaign %s: %d results file(s) in %s, index %s/index.tsv\n",
	       c->dir, nfiles, rdir, c->dir);
	printf("done %d, failed %d, running %d, pending %d, lost %d, unsubmitted %d\n",
	       count[CAMP_DONE], count[CAMP_FAILED], count[CAMP_RUNNING],
	       count[CAMP_PENDING], count[CAMP_LOST], count[CAMP_UNSUBMITTED]);
	if (count[CAMP_FAILED] || count[CAMP_LOST] || nbad) {
		fprintf(stderr,
			PROG
			": collect: %d element(s) failed or lost, %d file problem(s): partial results kept, marked in %s/index.tsv; resubmit with `" PROG
			" submit %s %s --resume`\n",
			count[CAMP_FAILED] + count[CAMP_LOST], nbad, c->dir,
			c->site_arg, c->job);
		return 1;
	}
	if (count[CAMP_PENDING] || count[CAMP_RUNNING] ||
	    count[CAMP_UNSUBMITTED]) {
		fprintf(stderr,
			PROG
			": collect: %d element(s) not finished yet: collected what exists\n",
			count[CAMP_PENDING] + count[CAMP_RUNNING] +
				count[CAMP_UNSUBMITTED]);
		return 3;
	}
	return rc < 0 ? 2 : 0;
}
