/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_health_index: the nightly health index (report/README.md,
 * "health"): its names and lines, its checks (the history directory and
 * the index this user's alone, the textfile's and page's directory no one
 * else's to write), loading it, the rule that judges a night, and a
 * figure judged in its night against the nights before (hl_judge_night).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "figures.h"
#include "lathist.h"
#include "report.h"
#include "report_health.h"
#include "safefile.h"

#define PROG "iostrata-report"

bool hl_name_ok(const char *s, size_t max)
{
	size_t n = 0;

	for (; s[n]; n++) {
		char c = s[n];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '.' || c == '_' ||
		      c == ':' || c == '-'))
			return false;
	}
	return n > 0 && n < max;
}

bool hl_night_ok(const char *s)
{
	static const char *shape = "ddddddddTddddddZ";

	if (strlen(s) != 16)
		return false;
	for (int i = 0; i < 16; i++)
		if (shape[i] == 'd' ? (s[i] < '0' || s[i] > '9')
				    : s[i] != shape[i])
			return false;
	return true;
}

/* Split [line] at tabs into at most [max] fields of [buf]; the count. */
static int split_tabs(char *buf, char **f, int max)
{
	int n = 0;
	char *p = buf;

	while (n < max) {
		f[n++] = p;
		p = strchr(p, '\t');
		if (!p)
			break;
		*p++ = '\0';
	}
	return p ? max + 1 : n;
}

int hl_parse_line(const char *line, struct hl_row *r, const char **why)
{
	char buf[HL_MAX_LINE + 1], *f[8], *end;
	int n;

	memset(r, 0, sizeof(*r));
	if (strlen(line) > HL_MAX_LINE) {
		*why = "line longer than 1024 bytes";
		return -1;
	}
	strcpy(buf, line);
	n = split_tabs(buf, f, 7);
	if (n != 7) {
		*why = "not 7 tab-separated fields (night status layer component host metric value)";
		return -1;
	}
	if (!hl_night_ok(f[0])) {
		*why = "night: accepted YYYYMMDDTHHMMSSZ (UTC)";
		return -1;
	}
	strcpy(r->night, f[0]);
	if (!strcmp(f[1], "failed")) {
		for (int i = 2; i < 6; i++)
			if (strcmp(f[i], "-")) {
				*why = "a failed night's layer, component, host and metric must be -";
				return -1;
			}
		for (const char *p = f[6]; *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f) {
				*why = "a failed night's reason holds a control character";
				return -1;
			}
		r->failed = true;
		r->note = strdup(f[6]);
		if (!r->note) {
			*why = "out of memory";
			return -1;
		}
		return 0;
	}
	if (strcmp(f[1], "ok")) {
		*why = "status: accepted ok or failed";
		return -1;
	}
	if (!hl_name_ok(f[2], sizeof(r->key.layer)) ||
	    !hl_name_ok(f[3], sizeof(r->key.comp)) ||
	    !hl_name_ok(f[4], sizeof(r->key.host)) ||
	    !hl_name_ok(f[5], sizeof(r->key.metric))) {
		*why = "layer, component, host, metric: accepted 1-15, 63, 63, 47 characters of A-Z a-z 0-9 . _ : -";
		return -1;
	}
	strcpy(r->key.layer, f[2]);
	strcpy(r->key.comp, f[3]);
	strcpy(r->key.host, f[4]);
	strcpy(r->key.metric, f[5]);
	errno = 0;
	r->value = strtod(f[6], &end);
	if (errno || end == f[6] || *end || !isfinite(r->value) ||
	    r->value < 0) {
		*why = "value: accepted a finite number >= 0";
		return -1;
	}
	return 0;
}

int hl_check_private(const char *path, bool dir, const char *what,
		     struct ios_err *err)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return ios_errf(err, -errno, "%s %s: %s", what, path,
				strerror(errno));
	if (S_ISLNK(st.st_mode))
		return ios_errf(
			err, -ELOOP,
			"%s %s is a symlink: refused (accepted: a %s of yours that neither group nor others can write)",
			what, path, dir ? "directory" : "file");
	if (dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))
		return ios_errf(err, -EINVAL, "%s %s is not a %s: refused",
				what, path, dir ? "directory" : "regular file");
	if (st.st_uid != geteuid())
		return ios_errf(
			err, -EPERM,
			"%s %s belongs to uid %u, not to you (uid %u): refused, as its owner decides what the verdict reads (accepted: a %s of yours that neither group nor others can write)",
			what, path, (unsigned)st.st_uid, (unsigned)geteuid(),
			dir ? "directory" : "file");
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return ios_errf(
			err, -EPERM,
			"%s %s is writable by its group or others (mode %04o): refused, as they could plant or rewrite nights (chmod go-w it)",
			what, path, (unsigned)(st.st_mode & 07777));
	if (!dir && st.st_nlink != 1)
		return ios_errf(err, -EINVAL,
				"%s %s has other hard links: refused", what,
				path);
	return 0;
}

/* The directory part of [path] (".", "/" or the part before the last
 * slash), allocated; NULL when out of memory. */
static char *dir_of(const char *path)
{
	char *d = strdup(path), *slash;

	if (!d)
		return NULL;
	slash = strrchr(d, '/');
	if (!slash)
		strcpy(d, ".");
	else if (slash == d)
		d[1] = '\0';
	else
		*slash = '\0';
	return d;
}

/*
 * The directory [path] (the Prometheus textfile, the HTML page) is written
 * in: this user's or root's (node_exporter's collector directory), and
 * neither group nor others may write it: in a shared directory anybody
 * could replace the file the alerts read between two nights (a sticky bit
 * keeps them from replacing ours, not from planting their own .prom).
 */
int hl_check_out_dir(const char *path, const char *opt, struct ios_err *err)
{
	char *d = dir_of(path);
	struct stat st;
	int rc = 0;

	if (!d)
		return ios_errf(err, -ENOMEM, "out of memory");
	if (stat(d, &st) < 0)
		rc = ios_errf(err, -errno, "%s=%s: its directory %s: %s", opt,
			      path, d, strerror(errno));
	else if (!S_ISDIR(st.st_mode))
		rc = ios_errf(err, -ENOTDIR, "%s=%s: %s is not a directory",
			      opt, path, d);
	else if ((st.st_uid != geteuid() && st.st_uid != 0) ||
		 (st.st_mode & (S_IWGRP | S_IWOTH)))
		rc = ios_errf(
			err, -EPERM,
			"%s=%s: its directory %s (uid %u, mode %04o) is refused: others could replace what is read from it (accepted: a directory of yours or root's that neither group nor others can write)",
			opt, path, d, (unsigned)st.st_uid,
			(unsigned)(st.st_mode & 07777));
	free(d);
	return rc;
}

/* The directory of [path] and the index itself, checked. */
int hl_check_index_path(const char *path, struct ios_err *err)
{
	char *d = dir_of(path);
	int rc;

	if (!d)
		return ios_errf(err, -ENOMEM, "out of memory");
	rc = hl_check_private(d, true, "history directory", err);
	free(d);
	if (rc < 0)
		return rc;
	rc = hl_check_private(path, false, "index", err);
	return rc == -ENOENT ? 0 : rc;
}

void hl_index_free(struct hl_index *ix)
{
	for (size_t i = 0; i < ix->n; i++)
		free(ix->rows[i].note);
	free(ix->rows);
	memset(ix, 0, sizeof(*ix));
}

int hl_index_load(const char *path, struct hl_index *ix, struct ios_err *err)
{
	char line[HL_MAX_LINE + 2];
	long lineno = 0;
	FILE *f;
	int fd, rc;

	memset(ix, 0, sizeof(*ix));
	if ((rc = hl_check_index_path(path, err)) < 0)
		return rc;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		return ios_errf(err, -errno, "index %s: %s", path,
				strerror(errno));
	}
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return ios_errf(err, -ENOMEM, "index %s: out of memory", path);
	}
	rc = 0;
	while (fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);
		const char *why = NULL;
		struct hl_row r;

		lineno++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		else if (!feof(f)) {
			rc = ios_errf(err, -EBADMSG,
				      "%s:%ld: line longer than 1024 bytes",
				      path, lineno);
			break;
		}
		if (!len || line[0] == '#')
			continue;
		if (memchr(line, '\0', len) || strlen(line) != len) {
			rc = ios_errf(err, -EBADMSG, "%s:%ld: a NUL byte", path,
				      lineno);
			break;
		}
		if (hl_parse_line(line, &r, &why) < 0) {
			rc = ios_errf(err, -EBADMSG, "%s:%ld: %s", path, lineno,
				      why);
			break;
		}
		if (ix->n == HL_MAX_ROWS) {
			free(r.note);
			rc = ios_errf(
				err, -E2BIG,
				"%s: more than %d lines: refused (prune it: --keep=N)",
				path, HL_MAX_ROWS);
			break;
		}
		if (ix->n == ix->cap) {
			size_t cap = ix->cap ? ix->cap * 2 : 256;
			struct hl_row *nr =
				realloc(ix->rows, cap * sizeof(*nr));

			if (!nr) {
				free(r.note);
				rc = ios_errf(err, -ENOMEM, "out of memory");
				break;
			}
			ix->rows = nr;
			ix->cap = cap;
		}
		ix->rows[ix->n++] = r;
	}
	if (!rc && ferror(f))
		rc = ios_errf(err, -EIO, "index %s: read error", path);
	fclose(f);
	if (rc < 0)
		hl_index_free(ix);
	return rc;
}

bool hl_lower_better(const char *metric)
{
	return strstr(metric, "lat") != NULL ||
	       strstr(metric, "_pressure") != NULL;
}

void hl_judge(double value, double *base, int n, const struct hl_rule *rule,
	      bool lower_better, struct hl_verdict *v)
{
	double *tmp, bad, rel;

	memset(v, 0, sizeof(*v));
	v->nbase = n;
	v->median = v->noise = v->change = NAN;
	if (n < rule->min_nights || n < 1) {
		v->state = HL_NOHIST;
		return;
	}
	tmp = malloc((size_t)n * sizeof(*tmp));
	v->median = ios_median(base, n);
	v->noise = tmp ? 1.4826 * ios_mad(base, n, v->median, tmp) : NAN;
	free(tmp);
	if (!(v->median > 0) || isnan(v->noise)) {
		v->state = HL_NOHIST;
		return;
	}
	v->change = value / v->median - 1;
	bad = lower_better ? value - v->median : v->median - value;
	rel = bad / v->median;
	v->moved = bad > rule->k * v->noise && rel > HL_MOVED_FLOOR;
	if (v->moved && rel > rule->thr)
		v->state = HL_REGRESSION;
	else if (-bad > rule->k * v->noise && -rel > rule->thr)
		v->state = HL_IMPROVED;
	else
		v->state = HL_OK;
}

bool hl_key_eq(const struct hl_key *a, const struct hl_key *b)
{
	return !strcmp(a->metric, b->metric) && !strcmp(a->comp, b->comp) &&
	       !strcmp(a->host, b->host) && !strcmp(a->layer, b->layer);
}

/* The value of [key] in night [t] (rows starts[t]..starts[t+1]), NAN. */
static double night_value(const struct hl_index *ix, const size_t *starts,
			  size_t t, const struct hl_key *key)
{
	for (size_t i = starts[t]; i < starts[t + 1]; i++)
		if (!ix->rows[i].failed && hl_key_eq(&ix->rows[i].key, key))
			return ix->rows[i].value;
	return NAN;
}

/* The threshold of [key]: latency's, else its layer's, else all's. */
static double layer_threshold(const struct health_opts *o,
			      const struct hl_key *key)
{
	double thr = o->rule.thr;
	bool lat = hl_lower_better(key->metric);

	for (int i = 0; i < o->nlthr; i++) {
		if (lat && !strcmp(o->lthr[i].layer, "latency"))
			return o->lthr[i].thr;
		if (!strcmp(o->lthr[i].layer, key->layer))
			thr = o->lthr[i].thr;
	}
	return thr;
}

/*
 * [key] in night [t] against up to [last] earlier nights that have it and
 * were not themselves a regression of it: a slowdown that lasts stays a
 * regression night after night until it recovers, instead of joining its
 * own baseline (a night at 3% of the usual rate in a baseline of 6 raised
 * its MAD so far that the next night at 3% was "ok").  The nights are
 * judged in order, each against the nights before it.
 */
void hl_judge_night(const struct hl_index *ix, const size_t *starts, size_t t,
		    const struct hl_key *key, const struct health_opts *o,
		    double *value, struct hl_verdict *v)
{
	struct hl_rule rule = o->rule;
	size_t nn = t + 1;
	double *val = malloc(nn * sizeof(*val)), base[256];
	bool *bad = calloc(nn, sizeof(*bad));

	rule.thr = layer_threshold(o, key);
	memset(v, 0, sizeof(*v));
	v->state = HL_NOHIST;
	v->median = v->noise = v->change = NAN;
	*value = night_value(ix, starts, t, key);
	if (!val || !bad || isnan(*value)) {
		free(val);
		free(bad);
		return;
	}
	for (size_t j = 0; j <= t; j++) {
		int n = 0;

		val[j] = night_value(ix, starts, j, key);
		if (isnan(val[j]))
			continue;
		for (size_t i = j; i-- > 0 && n < o->last && n < 256;)
			if (!isnan(val[i]) && !bad[i])
				base[n++] = val[i];
		hl_judge(val[j], base, n, &rule, hl_lower_better(key->metric),
			 v);
		/* a loaded night's absolute figures stay out of the baseline
		 * as a regression does: the load moved them, not the storage */
		bad[j] = v->state == HL_REGRESSION || hl_unjudged(o, j, key);
	}
	free(val);
	free(bad);
}
bool hl_is_ratio(const char *metric)
{
	size_t l = strlen(metric), t = strlen(HL_PEERS);

	return l > t && !strcmp(metric + l - t, HL_PEERS);
}

bool hl_absolute(const struct hl_key *k)
{
	return strcmp(k->layer, HL_HOST_LAYER) && !hl_is_ratio(k->metric);
}

bool hl_unjudged(const struct health_opts *o, size_t t, const struct hl_key *k)
{
	return o->loaded && o->loaded[t] && hl_absolute(k);
}
