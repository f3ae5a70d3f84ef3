/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * campaign_submit: `iostrata-campaign submit`, one sbatch per element,
 * the site checked first, the %N throttle as --dependency=afterany.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <glob.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include "campaign.h"
#include "safefile.h"
#include "siteconf.h"
#include "slurmcompat.h"
#include "units.h"

#include "campaign_internal.h"

/* Does a partition exist?  1 yes, 0 no, negative: cannot ask. */
static int partition_exists(const char *name, char *known, size_t klen)
{
	partition_info_msg_t *msg = NULL;
	int found = 0;

	if (slurm_load_partitions((time_t)0, &msg, SHOW_ALL) != SLURM_SUCCESS)
		return -EIO;
	known[0] = '\0';
	for (uint32_t i = 0; i < msg->record_count; i++) {
		const char *p = msg->partition_array[i].name;

		if (p && strcmp(p, name) == 0)
			found = 1;
		if (p && strlen(known) + strlen(p) + 3 < klen) {
			if (known[0])
				strcat(known, ", ");
			strcat(known, p);
		}
	}
	slurm_free_partition_info_msg(msg);
	return found;
}

/* Is this program the build tree's own (not an installed copy)?  Only then
 * may it fall back to the source tree's job scripts: an installed binary
 * must never read a path of the machine it was built on. */
static bool running_from_build_tree(void)
{
	char exe[PATH_MAX], top[PATH_MAX];
	size_t l;

	if (!realpath("/proc/self/exe", exe) ||
	    !realpath(JOBSCRIPTS_BUILDDIR, top))
		return false;
	l = strlen(top);
	return !strncmp(exe, top, l) && exe[l] == '/';
}

/* The directories searched for job scripts, in order, into [dirs] (room
 * for 3): $IOSTRATA_JOBSCRIPTS, the installed ones, and the source tree
 * for the build tree's binary; their count. */
static size_t script_dirs(const char **dirs)
{
	size_t n = 0;
	const char *env = getenv("IOSTRATA_JOBSCRIPTS");

	if (env && *env)
		dirs[n++] = env;
	dirs[n++] = JOBSCRIPTS_DATADIR;
	if (running_from_build_tree())
		dirs[n++] = JOBSCRIPTS_SRCDIR;
	return n;
}

/* The job script for [job], the first of script_dirs() that has it. */
static int find_script(const char *job, char *out, size_t len)
{
	const char *dirs[3];
	size_t n = script_dirs(dirs);

	for (size_t i = 0; i < n; i++) {
		char p[PATH_MAX + 64];

		snprintf(p, sizeof(p), "%s/%s.sbatch", dirs[i], job);
		if (access(p, R_OK) == 0) {
			if (!realpath(p, out) && strlen(p) < len)
				memcpy(out, p, strlen(p) + 1);
			return 0;
		}
	}
	return -ENOENT;
}

/* The partition, node count and node list of the site's [section]. */
static int add_nodes(struct argv *a, const struct ios_site *s,
		     const char *section)
{
	const char *v = ios_site_get(s, section, "nodelist");
	int rc = camp_argv_add(a, "--partition=%s",
			       ios_site_get(s, section, "partition"));

	rc |= camp_argv_add(a, "--nodes=%s", ios_site_get(s, section, "nodes"));
	if (v)
		rc |= camp_argv_add(a, "--nodelist=%s", v);
	return rc;
}

/* The compute nodes of element [e]. */
static int add_compute(struct argv *a, const struct ios_site *s,
		       const struct camp_element *e)
{
	const char *v;
	int rc = 0;

	if (e->ranks) {
		/* sweep-threads: [ranks] ranks on one compute node, like
		 * seeds/001's threads on one client; more ranks than CPUs
		 * is what the sweep's top end measures */
		rc |= camp_argv_add(a, "--partition=%s",
				    ios_site_get(s, "compute", "partition"));
		rc |= camp_argv_add(a, "--nodes=1");
		rc |= camp_argv_add(a, "--ntasks=%llu",
				    (unsigned long long)e->ranks);
		rc |= camp_argv_add(a, "--overcommit");
	} else {
		rc |= add_nodes(a, s, "compute");
		rc |= camp_argv_add(
			a, "--ntasks-per-node=%s",
			ios_site_get(s, "compute", "ranks_per_node"));
	}
	if ((v = ios_site_get(s, "slurm", "time")))
		rc |= camp_argv_add(a, "--time=%s", v);
	return rc ? -ENOMEM : 0;
}

/* [in] with each '%' doubled, for sbatch's --output (which expands %j,
 * %N, ... in the path) into [out]; -ENAMETOOLONG when it does not fit. */
static int pct_escape(const char *in, char *out, size_t len)
{
	size_t k = 0;

	for (; *in; in++) {
		if (k + 3 > len)
			return -ENAMETOOLONG;
		if (*in == '%')
			out[k++] = '%';
		out[k++] = *in;
	}
	out[k] = '\0';
	return 0;
}

/* The directory of the job script [script] (exported to the job). */
static void script_dir(const char *script, char *sdir, size_t len)
{
	char *slash;

	snprintf(sdir, len, "%s", script);
	slash = strrchr(sdir, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(sdir, len, ".");
}

/* Build the sbatch command line of element [e]. */
static int build_sbatch(const struct campaign *c, const struct camp_element *e,
			const char *script, uint32_t after, char *const *extra,
			struct argv *a)
{
	const struct ios_site *s = c->site;
	const char *sname = ios_site_get(s, "site", "name");
	const char *v;
	char edir[PATH_MAX + 64], sdir[PATH_MAX], oesc[2 * PATH_MAX + 128];
	int rc = 0;

	snprintf(edir, sizeof(edir), "%s/elements/%d", c->dir, e->index);
	script_dir(script, sdir, sizeof(sdir));
	rc |= camp_argv_add(a, "sbatch");
	rc |= camp_argv_add(a, "--parsable");
	rc |= camp_argv_add(a, "--job-name=iostrata-%s-%s",
			    sname ? sname : "site", c->job);
	if (after)
		rc |= camp_argv_add(a, "--dependency=afterany:%u", after);
	if (pct_escape(edir, oesc, sizeof(oesc)) < 0)
		return -ENAMETOOLONG;
	rc |= camp_argv_add(a, "--output=%s/slurm-%%j.out", oesc);
	if ((rc = camp_export_list(c, e, sdir, a)) < 0)
		return rc;
	if ((v = ios_site_get(s, "slurm", "account")))
		rc |= camp_argv_add(a, "--account=%s", v);
	if ((v = ios_site_get(s, "slurm", "qos")))
		rc |= camp_argv_add(a, "--qos=%s", v);
	if (rc)
		return -ENOMEM;
	if ((rc = camp_argv_split(a, ios_site_get(s, "slurm", "extra"))) < 0)
		return rc;
	for (size_t i = 0; extra && extra[i]; i++)
		if ((rc = camp_argv_add(a, "%s", extra[i])) < 0)
			return rc;
	/* A heterogeneous job: the compute component first, then the
	 * storage nodes (Slurm 22.05's pmix fails a step over both
	 * components when the first one's node names sort after the
	 * second's, "st01" before "cn001"; the job scripts find each
	 * component by its partition, in either order). */
	if ((rc = add_compute(a, s, e)) < 0)
		return rc;
	if (camp_job_is_het(c->job)) {
		rc |= camp_argv_add(a, ":");
		/* the storage nodes, exclusive, shaped */
		rc |= add_nodes(a, s, "storage");
		rc |= camp_argv_add(a, "--ntasks-per-node=1");
		rc |= camp_argv_add(a, "--exclusive");
		if ((v = ios_site_get(s, "slurm", "time")))
			rc |= camp_argv_add(a, "--time=%s", v);
		if (rc || (rc = camp_argv_split(a, e->options)) < 0)
			return rc ? rc : -ENOMEM;
	}
	rc |= camp_argv_add(a, "%s", script);
	return rc ? -ENOMEM : 0;
}

static int check_site_for_submit(const struct campaign *c)
{
	static const char *const need[][2] = {
		{"compute", "partition"},      {"compute", "nodes"},
		{"compute", "ranks_per_node"}, {"workload", "dir"},
		{"storage", "partition"},      {"storage", "nodes"},
	};
	char known[512];
	int bad = 0;

	for (size_t i = 0; i < sizeof(need) / sizeof(*need); i++) {
		if (i >= 4 && !camp_job_is_het(c->job))
			break;
		if (!ios_site_get(c->site, need[i][0], need[i][1])) {
			fprintf(stderr,
				PROG
				": submit %s: %s: [%s] %s: not set (needed to build the job)\n",
				c->job, ios_site_path(c->site), need[i][0],
				need[i][1]);
			bad = 1;
		}
	}
	if (bad)
		return -EINVAL;
	for (int k = 0; k < 2; k++) {
		const char *sec = k ? "storage" : "compute";
		const char *p = ios_site_get(c->site, sec, "partition");
		int rc;

		if (k && !camp_job_is_het(c->job))
			break;
		rc = partition_exists(p, known, sizeof(known));
		if (rc < 0) {
			fprintf(stderr,
				PROG ": submit %s: load partitions: %s\n",
				c->job, slurm_strerror(IOS_SLURM_ERRNO()));
			return -EIO;
		}
		if (rc == 0) {
			fprintf(stderr,
				PROG
				": submit %s: %s: [%s] partition \"%s\": no such partition in this cluster (known: %s)\n",
				c->job, ios_site_path(c->site), sec, p,
				known[0] ? known : "none");
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * sbatch --export=ALL,NAME=VALUE,...: Slurm (env_merge_filter) splits the
 * list at every ',' outside quotes, takes ' and " as quotes, and a token
 * is a variable only up to its first '='.  No quoting of ours survives
 * that, so a value may hold none of ',', '\'', '"', '=' and no control
 * character (a newline would end the variable in the job's environment).
 */
static const char *export_bad(const char *v)
{
	for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
		if (*p == ',')
			return "a ','";
		if (*p == '\'' || *p == '"')
			return "a quote";
		if (*p == '=')
			return "an '='";
		if (*p < 0x20 || *p == 0x7f)
			return "a control character";
	}
	return NULL;
}

int camp_export_list(const struct campaign *c, const struct camp_element *e,
		     const char *sdir, struct argv *a)
{
	char edir[PATH_MAX + 64], rdir[PATH_MAX], idx[16], rep[16];
	char *list = NULL;
	size_t len = 0;
	FILE *m;
	const struct {
		const char *name, *what, *v;
	} x[] = {
		{"IOSTRATA_SITE", "the site description", c->site_abs},
		{"IOSTRATA_CAMPAIGN_DIR", "the campaign directory", c->dir},
		{"IOSTRATA_ELEMENT", "the element index", idx},
		{"IOSTRATA_ELEMENT_DIR", "the element directory", edir},
		{"IOSTRATA_ELEMENT_LABEL", "the element label", e->label},
		{"IOSTRATA_JOBSCRIPTS", "the job scripts' directory", sdir},
		{"IOSTRATA_REPLICATION", "[sweep] replication", rep},
		{"IOSTRATA_REPLICATION_POOL", "[sweep] replication_pool",
		 e->pool},
		{"IOSTRATA_REPLICATION_DIR", "[workload] dir", rdir},
	};
	size_t nx = e->replication ? 9 : 6;
	int rc;

	snprintf(idx, sizeof(idx), "%d", e->index);
	snprintf(rep, sizeof(rep), "%u", e->replication);
	if (snprintf(edir, sizeof(edir), "%s/elements/%d", c->dir, e->index) >=
	    (int)sizeof(edir))
		return -ENAMETOOLONG;
	if (e->replication && camp_repl_dir(c, e, rdir, sizeof(rdir)) < 0)
		return -EINVAL;
	for (size_t i = 0; i < nx; i++) {
		const char *bad = export_bad(x[i].v);

		if (!bad)
			continue;
		fprintf(stderr, PROG ": submit %s: %s=", c->job, x[i].name);
		for (const unsigned char *p = (const unsigned char *)x[i].v; *p;
		     p++)
			fprintf(stderr,
				*p < 0x20 || *p == 0x7f ? "\\x%02x" : "%c", *p);
		fprintf(stderr,
			" (%s) has %s, which sbatch --export cannot carry (it splits its list at ',', quotes with ' and \", ends a name at '='): refused, nothing made (accepted: a value without ',', quotes, '=' or control characters)\n",
			x[i].what, bad);
		return -EINVAL;
	}
	m = open_memstream(&list, &len);
	if (!m)
		return -ENOMEM;
	fprintf(m, "--export=ALL");
	for (size_t i = 0; i < nx; i++)
		fprintf(m, ",%s=%s", x[i].name, x[i].v);
	fclose(m);
	rc = list ? camp_argv_add(a, "%s", list) : -ENOMEM;
	free(list);
	return rc;
}

/* Every element's export list checked before anything is made: 0 or
 * -EINVAL said. */
static int exports_ok(const struct campaign *c, const char *script)
{
	char sdir[PATH_MAX];

	script_dir(script, sdir, sizeof(sdir));
	for (size_t i = 0; i < c->nel; i++) {
		struct argv a = {0};
		int rc = camp_export_list(c, &c->el[i], sdir, &a);

		camp_argv_free(&a);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Before any element: the job script into [script], the site (not for a
 * dry run), the elements already submitted (*recorded; --resume), the
 * campaign directory.  0, or 2 said on stderr. */
static int submit_prepare(struct campaign *c, const struct opts *o,
			  char *script, size_t len, int *recorded)
{
	if (find_script(c->job, script, len) < 0) {
		const char *dirs[3];
		size_t n = script_dirs(dirs);

		fprintf(stderr,
			PROG ": submit %s: job script %s.sbatch not found in",
			c->job, c->job);
		for (size_t i = 0; i < n; i++)
			fprintf(stderr, "%s %s",
				i ? (i + 1 == n ? " or" : ",") : "", dirs[i]);
		fprintf(stderr,
			" (accepted: a directory with the job scripts in $IOSTRATA_JOBSCRIPTS)\n");
		return 2;
	}
	if (exports_ok(c, script) < 0)
		return 2;
	if (!o->dry_run && check_site_for_submit(c) < 0)
		return 2;
	*recorded = o->dry_run ? 0 : camp_read_jobids(c);
	if (*recorded < 0) {
		if (*recorded != -ESTALE) /* that one is said */
			fprintf(stderr,
				PROG ": submit %s: read %s/elements.tsv: %s\n",
				c->job, c->dir, strerror(-*recorded));
		return 2;
	}
	if (*recorded > 0 && !o->resume) {
		fprintf(stderr,
			PROG
			": submit %s: campaign %s already exists with %d submitted elements: use `status`/`collect`, --resume to resubmit failed or missing elements, or --campaign=DIR for a new one\n",
			c->job, c->dir, *recorded);
		return 2;
	}
	if (!o->dry_run) {
		int rc = camp_mkdir_p(c->dir);

		if (rc < 0) {
			fprintf(stderr, PROG ": submit %s: create %s: %s\n",
				c->job, c->dir, strerror(-rc));
			return 2;
		}
	}
	return 0;
}

/* A resubmitted element: keep the failed attempt's partial results aside
 * (EDIR.failed-jobN), start from an empty dir.  0, or -1 said. */
static int move_aside(const struct campaign *c, struct camp_element *e,
		      const char *edir)
{
	char old[PATH_MAX + 96];

	snprintf(old, sizeof(old), "%s.failed-job%u", edir, e->jobid);
	if (rename(edir, old) < 0 && errno != ENOENT) {
		fprintf(stderr, PROG ": submit %s: move %s aside: %s\n", c->job,
			edir, strerror(errno));
		return -1;
	}
	printf("element %d %s: previous attempt (job %u) kept in %s\n",
	       e->index, e->label, e->jobid, old);
	e->jobid = 0;
	return 0;
}

/* The element's description in its directory; a resubmitted element
 * starts without the old verdict (status). */
static void write_element(const struct campaign *c,
			  const struct camp_element *e, const char *edir)
{
	char p[PATH_MAX + 128], *txt = NULL;

	snprintf(p, sizeof(p), "%s/status", edir);
	unlink(p);
	if (asprintf(&txt, "index=%d\nlabel=%s\noptions=%s\n", e->index,
		     e->label, e->options) < 0 ||
	    camp_write_atomic(edir, "element", txt) < 0)
		fprintf(stderr, PROG ": submit %s: write %s/element: %s\n",
			c->job, edir, strerror(errno));
	free(txt);
	txt = NULL;
	/* the same as JSON, which the sweeps attach to their results files
	 * (element): the report finds the unconstrained baseline by it (an
	 * element that requested nothing has no request to read back).
	 * Labels are the plan's own: letters, digits, '-' */
	if (asprintf(
		    &txt,
		    "{\"index\": %d, \"label\": \"%s\", \"baseline\": %s, \"replication\": %u}\n",
		    e->index, e->label, e->baseline ? "true" : "false",
		    e->replication) < 0 ||
	    camp_write_atomic(edir, "element.json", txt) < 0)
		fprintf(stderr, PROG ": submit %s: write %s/element.json: %s\n",
			c->job, edir, strerror(errno));
	free(txt);
}

/* Submit element [e] with sbatch command line [a] (logged to [m]): its
 * directory [edir] made ready, e->jobid set.  0, or -1 said. */
static int submit_one(const struct campaign *c, struct camp_element *e,
		      const struct argv *a, const char *edir, FILE *m)
{
	char out[256];
	int rc;

	if (e->jobid && move_aside(c, e, edir) < 0)
		return -1;
	if ((rc = camp_mkdir_p(edir)) < 0) {
		fprintf(stderr, PROG ": submit %s: create %s: %s\n", c->job,
			edir, strerror(-rc));
		return -1;
	}
	write_element(c, e, edir);
	fprintf(m, "# element %d (%s)\n", e->index, e->label);
	camp_print_quoted(m, a->v);
	rc = camp_run_capture(a->v, out, sizeof(out), true);
	if (rc != 0 || !isdigit((unsigned char)out[0])) {
		fprintf(stderr,
			PROG
			": submit %s: element %d (%s): sbatch failed (exit %d): see its message above\n",
			c->job, e->index, e->label, rc);
		return -1;
	}
	e->jobid = (uint32_t)strtoul(out, NULL, 10);
	printf("element %d %s: job %u\n", e->index, e->label, e->jobid);
	return 0;
}

/* The sbatch command lines of this submission, appended to submit.log. */
static void append_submit_log(const struct campaign *c, const char *rec)
{
	char path[PATH_MAX + 32];
	struct ios_err err = {0};

	snprintf(path, sizeof(path), "%s/submit.log", c->dir);
	if (sf_append(path, rec, strlen(rec), &err) < 0)
		fprintf(stderr, PROG ": submit %s: %s\n", c->job, err.msg);
}

int camp_cmd_submit(struct campaign *c, const struct opts *o)
{
	char script[PATH_MAX], edir[PATH_MAX + 32];
	uint64_t throttle = 1;
	int recorded, failed = 0, submitted = 0, rc;
	char *rec = NULL;
	size_t reclen = 0, nsub = 0;
	uint32_t after, *subs;
	FILE *m;

	if (o->throttle_set)
		throttle = o->throttle;
	else if (ios_site_get(c->site, "sweep", "throttle"))
		ios_site_get_uint(c->site, "sweep", "throttle", &throttle,
				  NULL);
	rc = submit_prepare(c, o, script, sizeof(script), &recorded);
	if (rc)
		return rc;
	/* every factor's pool and directory before any element runs */
	if (!o->dry_run && camp_repl_prepare(c) < 0) {
		fprintf(stderr,
			PROG
			": submit %s: the replication pools are not ready: no element submitted\n",
			c->job);
		return 2;
	}
	subs = calloc(c->nel + 1, sizeof(*subs));
	m = open_memstream(&rec, &reclen);
	if (!m || !subs) {
		free(subs);
		return 2;
	}
	for (size_t i = 0; i < c->nel; i++) {
		struct camp_element *e = &c->el[i];
		struct argv a = {0};

		if (recorded > 0 && e->jobid) {
			enum camp_state st = camp_element_state(c->dir, e);

			if (st != CAMP_FAILED && st != CAMP_LOST)
				continue;
		}
		snprintf(edir, sizeof(edir), "%s/elements/%d", c->dir,
			 e->index);
		/* the array's %N: wait for the element N submissions back */
		after = throttle && (uint64_t)nsub >= throttle
				? subs[(uint64_t)nsub - throttle]
				: 0;
		if (build_sbatch(c, e, script, after, o->extra, &a) < 0) {
			camp_argv_free(&a);
			fclose(m);
			free(rec);
			free(subs);
			return 2;
		}
		if (o->dry_run) {
			camp_print_quoted(stdout, a.v);
			camp_argv_free(&a);
			continue;
		}
		rc = submit_one(c, e, &a, edir, m);
		camp_argv_free(&a);
		if (rc < 0) {
			failed++;
			break; /* the rest would fail the same way */
		}
		subs[nsub++] = e->jobid;
		submitted++;
		/* record after each submission: a failure later keeps these */
		camp_write_jobids(c);
	}
	fclose(m);
	free(subs);
	if (!o->dry_run && rec && *rec)
		append_submit_log(c, rec);
	free(rec);
	if (!o->dry_run) {
		printf("campaign %s: %d element(s) submitted, throttle %llu\n",
		       c->dir, submitted, (unsigned long long)throttle);
		if (camp_write_jobids(c) < 0)
			fprintf(stderr,
				PROG ": submit %s: write %s/elements.tsv: %s\n",
				c->job, c->dir, strerror(errno));
	}
	return failed ? 1 : 0;
}
