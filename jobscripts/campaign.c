/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iostrata-campaign: run an experiment of the paper as a campaign of Slurm
 * jobs.  `submit` expands a site description's sweep into elements (one
 * heterogeneous job per storage-node configuration), submits them with
 * sbatch (so the SPANK plugin validates the --iostrata-* options at submit
 * time), `status` reads their states through libslurm, `collect` gathers the
 * results files into the campaign directory with an index.  `getvar`/`env`
 * let job scripts read the site description without parsing INI in bash.
 *
 * Why not `sbatch --array=...%N`: Slurm refuses arrays of heterogeneous jobs,
 * and SPANK options are per job, so array elements could not carry different
 * --iostrata-* values anyway.  The array's "%N" throttle is reproduced with
 * --dependency=afterany on the element submitted N places earlier (at most N
 * elements run at once).  --dependency=singleton would be the obvious tool
 * but deadlocks heterogeneous jobs in Slurm 22.05 (each component waits for
 * the other, which has the same name).
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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include "campaign.h"
#include "safefile.h"
#include "siteconf.h"
#include "slurmcompat.h"
#include "units.h"

#define PROG "iostrata-campaign"

static const char *const jobs[] = {
	"sweep-cores-mem", "sweep-disk-bw", "layered",
	"nightly-health",  "acceptance",
};

static int usage(FILE *fp)
{
	fprintf(fp,
		"Usage: " PROG " COMMAND ...\n"
		"  submit SITE JOB [--campaign=DIR] [--throttle=N] [--resume] [--dry-run] [-- SBATCH_ARGS...]\n"
		"         expand JOB over SITE's sweep and submit one Slurm job per element\n"
		"  status SITE JOB [--campaign=DIR] [--wait[=SECONDS]]\n"
		"         elements done / failed / running / pending (job states via libslurm)\n"
		"  collect SITE JOB [--campaign=DIR]\n"
		"         gather results files into DIR/results with DIR/index.tsv and index.json\n"
		"  plan SITE JOB        print the elements and their --iostrata-* options\n"
		"  getvar SITE SECTION.KEY [--list] [--default=VALUE]\n"
		"         print one value of the site description (--list: one item per line)\n"
		"  env SITE             print the whole site description as shell assignments\n"
		"                       IOS_<SECTION>_<KEY>='value' (for eval in job scripts)\n"
		"SITE is a site.conf file or a directory holding one (e.g. site/local).\n"
		"JOB is one of: sweep-cores-mem, sweep-disk-bw, layered, nightly-health, acceptance.\n"
		"DIR defaults to $IOSTRATA_CAMPAIGNS (else ./campaigns)/<site name>-<JOB>.\n"
		"Exit: 0 all done, 1 some element failed (results kept, marked), 2 bad usage or input,\n"
		"      3 (status) elements still pending or running.\n");
	return fp == stdout ? 0 : 2;
}

static int die_usage(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static int die_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	return usage(stderr);
}

/* ------------------------------------------------------------ elements */

/* Print bytes as the shortest exact form: 32G, 64M, 4K, else bytes. */
static void fmt_size_exact(uint64_t v, char *buf, size_t len)
{
	static const char units[] = "KMGT";
	int u = -1;

	while (v && v % 1024 == 0 && u < 3) {
		v /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)v, units[u]);
}

/* Rates: decimal MB when exact (the paper's 100..275 MB/s), else bytes. */
static void fmt_rate_exact(uint64_t v, char *buf, size_t len)
{
	if (v && v % 1000000 == 0)
		snprintf(buf, len, "%lluMB", (unsigned long long)(v / 1000000));
	else if (v && v % (1024 * 1024) == 0)
		snprintf(buf, len, "%lluM", (unsigned long long)(v >> 20));
	else
		snprintf(buf, len, "%llu", (unsigned long long)v);
}

void camp_elements_free(struct camp_element *e, size_t n)
{
	(void)n;
	free(e);
}

int camp_plan(const struct ios_site *s, const char *job,
	      struct camp_element **out, size_t *nout, struct ios_err *err)
{
	struct camp_element *e = NULL;
	uint64_t *cpus = NULL, *mem = NULL, *bw = NULL;
	int nc, nm, nb;
	size_t n = 0;
	int rc = 0;

	*out = NULL;
	*nout = 0;
	if (strcmp(job, "sweep-cores-mem") == 0) {
		nc = ios_site_get_list(s, "sweep", "cpus", &cpus, err);
		if (nc < 0)
			return nc;
		nm = ios_site_get_list(s, "sweep", "mem", &mem, err);
		if (nm < 0) {
			free(cpus);
			return nm;
		}
		e = calloc((size_t)nc * (size_t)nm, sizeof(*e));
		if (!e) {
			rc = -ENOMEM;
			goto out;
		}
		for (int i = 0; i < nc; i++) {
			for (int j = 0; j < nm; j++) {
				struct camp_element *x = &e[n];
				char m[32];

				fmt_size_exact(mem[j], m, sizeof(m));
				x->index = (int)n;
				x->cpus = cpus[i];
				x->mem = mem[j];
				snprintf(x->label, sizeof(x->label),
					 "cpus%llu-mem%s",
					 (unsigned long long)cpus[i], m);
				snprintf(
					x->options, sizeof(x->options),
					"--iostrata-cpus=%llu --iostrata-mem=%s",
					(unsigned long long)cpus[i], m);
				n++;
			}
		}
	} else if (strcmp(job, "sweep-disk-bw") == 0) {
		nb = ios_site_get_list(s, "sweep", "disk_bw", &bw, err);
		if (nb < 0)
			return nb;
		e = calloc((size_t)nb, sizeof(*e));
		if (!e) {
			rc = -ENOMEM;
			goto out;
		}
		for (int i = 0; i < nb; i++) {
			char r[32];

			fmt_rate_exact(bw[i], r, sizeof(r));
			e[n].index = (int)n;
			e[n].disk_bw = bw[i];
			snprintf(e[n].label, sizeof(e[n].label), "diskbw%s", r);
			snprintf(e[n].options, sizeof(e[n].options),
				 "--iostrata-disk-bw=%s", r);
			n++;
		}
	} else if (camp_job_known(job)) {
		e = calloc(1, sizeof(*e));
		if (!e)
			return -ENOMEM;
		snprintf(e->label, sizeof(e->label), "%s", job);
		n = 1;
	} else {
		return ios_errf(
			err, -EINVAL,
			PROG
			": plan job \"%s\": unknown job: accepted: sweep-cores-mem, sweep-disk-bw, layered, nightly-health, acceptance",
			job);
	}
out:
	free(cpus);
	free(mem);
	free(bw);
	if (rc < 0) {
		free(e);
		return rc;
	}
	*out = e;
	*nout = n;
	return 0;
}

bool camp_job_known(const char *job)
{
	for (size_t i = 0; i < sizeof(jobs) / sizeof(*jobs); i++)
		if (strcmp(job, jobs[i]) == 0)
			return true;
	return false;
}

/* Heterogeneous (storage + compute components) or compute-only jobs. */
static bool job_is_het(const char *job)
{
	return strncmp(job, "sweep-", 6) == 0 || strcmp(job, "layered") == 0;
}

/* ------------------------------------------------------------ argv */

struct argv {
	char **v;
	size_t n, cap;
};

static int argv_add(struct argv *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int argv_add(struct argv *a, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int rc;

	if (a->n + 2 > a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 32;
		char **v = realloc(a->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		a->v = v;
		a->cap = cap;
	}
	va_start(ap, fmt);
	rc = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (rc < 0)
		return -ENOMEM;
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
	return 0;
}

/* Split [s] on blanks into [a] (site [slurm] extra, element options). */
static int argv_split(struct argv *a, const char *s)
{
	char *copy = strdup(s ? s : ""), *tok, *save = NULL;
	int rc = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, " \t", &save); tok && !rc;
	     tok = strtok_r(NULL, " \t", &save))
		rc = argv_add(a, "%s", tok);
	free(copy);
	return rc;
}

static void argv_free(struct argv *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	memset(a, 0, sizeof(*a));
}

/* Shell-quote for display (dry run, the campaign's record). */
static void print_quoted(FILE *fp, char *const *v)
{
	for (size_t i = 0; v[i]; i++) {
		const char *p = v[i];
		bool plain = *p != '\0';

		for (; *p; p++)
			if (!isalnum((unsigned char)*p) &&
			    !strchr("-_=./,:%+@", *p))
				plain = false;
		if (i)
			fputc(' ', fp);
		if (plain) {
			fputs(v[i], fp);
			continue;
		}
		fputc('\'', fp);
		for (p = v[i]; *p; p++) {
			if (*p == '\'')
				fputs("'\\''", fp);
			else
				fputc(*p, fp);
		}
		fputc('\'', fp);
	}
	fputc('\n', fp);
}

/* ------------------------------------------------------------ campaign */

struct campaign {
	struct ios_site *site;
	const char *site_arg;
	char site_abs[PATH_MAX];
	const char *job;
	char dir[PATH_MAX];
	struct camp_element *el;
	size_t nel;
};

static int mkdir_p(const char *path)
{
	char buf[PATH_MAX];
	size_t len = strlen(path);

	if (len >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

/* Write [text] to DIR/[name] via a new temporary file, fsync and rename
 * (safefile: a symlink planted at either name is never followed).
 * Returns 0 or a negative errno, also left in errno. */
static int write_atomic(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX + 64];
	int rc;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    (int)sizeof(path))
		rc = -ENAMETOOLONG;
	else
		rc = sf_write(path, text, strlen(text), SF_SYNC, NULL);
	if (rc < 0)
		errno = -rc;
	return rc;
}

static int campaign_open(struct campaign *c, const char *site_arg,
			 const char *job, const char *dir)
{
	struct ios_err err = {0};
	const char *root = getenv("IOSTRATA_CAMPAIGNS");
	const char *name;
	int rc;

	c->site_arg = site_arg;
	c->job = job;
	if (!camp_job_known(job)) {
		fprintf(stderr,
			PROG
			": job \"%s\": unknown job: accepted: sweep-cores-mem, sweep-disk-bw, layered, nightly-health, acceptance\n",
			job);
		return -EINVAL;
	}
	rc = ios_site_load(site_arg, &c->site, &err);
	if (rc < 0) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		return rc;
	}
	if (!realpath(ios_site_path(c->site), c->site_abs))
		snprintf(c->site_abs, sizeof(c->site_abs), "%s",
			 ios_site_path(c->site));
	name = ios_site_get(c->site, "site", "name");
	{
		char rel[PATH_MAX], cwd[PATH_MAX / 2];

		if (dir)
			snprintf(rel, sizeof(rel), "%s", dir);
		else
			snprintf(rel, sizeof(rel), "%s/%s-%s",
				 root && *root ? root : "campaigns",
				 name ? name : "site", job);
		/* jobs run elsewhere: always an absolute path */
		if (rel[0] != '/' && getcwd(cwd, sizeof(cwd)))
			snprintf(c->dir, sizeof(c->dir), "%s/%.*s", cwd,
				 (int)(sizeof(c->dir) - sizeof(cwd) - 2), rel);
		else
			snprintf(c->dir, sizeof(c->dir), "%s", rel);
	}
	rc = camp_plan(c->site, job, &c->el, &c->nel, &err);
	if (rc < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return rc;
	}
	return 0;
}

static void campaign_close(struct campaign *c)
{
	ios_site_free(c->site);
	camp_elements_free(c->el, c->nel);
}

/*
 * Read DIR/elements.tsv (written by submit): fills jobid of each element.
 * Returns the number of elements recorded, 0 when the file does not exist.
 */
static int read_jobids(struct campaign *c)
{
	char path[PATH_MAX + 64], line[1024];
	FILE *fp;
	int n = 0;

	snprintf(path, sizeof(path), "%s/elements.tsv", c->dir);
	fp = fopen(path, "re");
	if (!fp)
		return errno == ENOENT ? 0 : -errno;
	while (fgets(line, sizeof(line), fp)) {
		unsigned idx, jobid;
		char label[128];

		if (line[0] == '#')
			continue;
		if (sscanf(line, "%u\t%127s\t%u", &idx, label, &jobid) != 3)
			continue;
		if (idx < c->nel && strcmp(c->el[idx].label, label) == 0) {
			c->el[idx].jobid = jobid;
			n++;
		}
	}
	fclose(fp);
	return n;
}

static int write_jobids(const struct campaign *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int rc;

	if (!m)
		return -ENOMEM;
	fprintf(m, "# index\tlabel\tjobid\toptions\n");
	for (size_t i = 0; i < c->nel; i++)
		fprintf(m, "%d\t%s\t%u\t%s\n", c->el[i].index, c->el[i].label,
			c->el[i].jobid, c->el[i].options);
	fclose(m);
	rc = write_atomic(c->dir, "elements.tsv", buf);
	free(buf);
	return rc;
}

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

/* The job script for [job]: $IOSTRATA_JOBSCRIPTS, installed, source tree. */
static int find_script(const char *job, char *out, size_t len)
{
	const char *dirs[] = {getenv("IOSTRATA_JOBSCRIPTS"), JOBSCRIPTS_DATADIR,
			      JOBSCRIPTS_SRCDIR};

	for (size_t i = 0; i < sizeof(dirs) / sizeof(*dirs); i++) {
		if (!dirs[i] || !*dirs[i])
			continue;
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

/* Run argv, capture stdout (first line) into [out].  Returns exit status. */
static int run_capture(char *const *argv, char *out, size_t len)
{
	int pfd[2], status;
	pid_t pid;
	ssize_t n;
	size_t got = 0;

	if (pipe(pfd) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -errno;
	}
	if (pid == 0) {
		dup2(pfd[1], 1);
		close(pfd[0]);
		close(pfd[1]);
		execvp(argv[0], argv);
		fprintf(stderr, PROG ": exec %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	while (got + 1 < len &&
	       (n = read(pfd[0], out + got, len - got - 1)) > 0)
		got += (size_t)n;
	out[got] = '\0';
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	out[strcspn(out, "\n")] = '\0';
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* Build the sbatch command line of element [e]. */
static int build_sbatch(const struct campaign *c, const struct camp_element *e,
			const char *script, uint32_t after, char *const *extra,
			struct argv *a)
{
	const struct ios_site *s = c->site;
	const char *sname = ios_site_get(s, "site", "name");
	const char *v;
	char edir[PATH_MAX + 64], sdir[PATH_MAX];
	char *slash;
	int rc = 0;

	snprintf(edir, sizeof(edir), "%s/elements/%d", c->dir, e->index);
	snprintf(sdir, sizeof(sdir), "%s", script);
	slash = strrchr(sdir, '/');
	if (slash)
		*slash = '\0';
	else
		strcpy(sdir, ".");
	rc |= argv_add(a, "sbatch");
	rc |= argv_add(a, "--parsable");
	rc |= argv_add(a, "--job-name=iostrata-%s-%s", sname ? sname : "site",
		       c->job);
	if (after)
		rc |= argv_add(a, "--dependency=afterany:%u", after);
	rc |= argv_add(a, "--output=%s/slurm-%%j.out", edir);
	rc |= argv_add(
		a,
		"--export=ALL,IOSTRATA_SITE=%s,IOSTRATA_CAMPAIGN_DIR=%s,IOSTRATA_ELEMENT=%d,IOSTRATA_ELEMENT_DIR=%s,IOSTRATA_ELEMENT_LABEL=%s,IOSTRATA_JOBSCRIPTS=%s",
		c->site_abs, c->dir, e->index, edir, e->label, sdir);
	if ((v = ios_site_get(s, "slurm", "account")))
		rc |= argv_add(a, "--account=%s", v);
	if ((v = ios_site_get(s, "slurm", "qos")))
		rc |= argv_add(a, "--qos=%s", v);
	if (rc)
		return -ENOMEM;
	if ((rc = argv_split(a, ios_site_get(s, "slurm", "extra"))) < 0)
		return rc;
	for (size_t i = 0; extra && extra[i]; i++)
		if ((rc = argv_add(a, "%s", extra[i])) < 0)
			return rc;
	if (job_is_het(c->job)) {
		/* component 0: the storage nodes, exclusive, shaped */
		rc |= argv_add(a, "--partition=%s",
			       ios_site_get(s, "storage", "partition"));
		rc |= argv_add(a, "--nodes=%s",
			       ios_site_get(s, "storage", "nodes"));
		if ((v = ios_site_get(s, "storage", "nodelist")))
			rc |= argv_add(a, "--nodelist=%s", v);
		rc |= argv_add(a, "--ntasks-per-node=1");
		rc |= argv_add(a, "--exclusive");
		if ((v = ios_site_get(s, "slurm", "time")))
			rc |= argv_add(a, "--time=%s", v);
		if (rc || (rc = argv_split(a, e->options)) < 0)
			return rc ? rc : -ENOMEM;
		rc |= argv_add(a, ":");
	}
	/* the compute nodes */
	rc |= argv_add(a, "--partition=%s",
		       ios_site_get(s, "compute", "partition"));
	rc |= argv_add(a, "--nodes=%s", ios_site_get(s, "compute", "nodes"));
	if ((v = ios_site_get(s, "compute", "nodelist")))
		rc |= argv_add(a, "--nodelist=%s", v);
	rc |= argv_add(a, "--ntasks-per-node=%s",
		       ios_site_get(s, "compute", "ranks_per_node"));
	if ((v = ios_site_get(s, "slurm", "time")))
		rc |= argv_add(a, "--time=%s", v);
	rc |= argv_add(a, "%s", script);
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
		if (i >= 4 && !job_is_het(c->job))
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

		if (k && !job_is_het(c->job))
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

struct opts {
	const char *campaign;
	unsigned throttle;
	bool throttle_set;
	bool resume;
	bool dry_run;
	bool list;
	const char *dflt;
	double wait;
	char **extra;
};

static int cmd_submit(struct campaign *c, const struct opts *o)
{
	char script[PATH_MAX], out[256], edir[PATH_MAX + 32];
	uint64_t throttle = 1;
	int recorded, failed = 0, submitted = 0;
	char *rec = NULL;
	size_t reclen = 0, nsub = 0;
	uint32_t after, *subs;
	FILE *m;

	if (o->throttle_set)
		throttle = o->throttle;
	else if (ios_site_get(c->site, "sweep", "throttle"))
		ios_site_get_uint(c->site, "sweep", "throttle", &throttle,
				  NULL);
	if (find_script(c->job, script, sizeof(script)) < 0) {
		fprintf(stderr,
			PROG
			": submit %s: job script %s.sbatch not found in $IOSTRATA_JOBSCRIPTS, " JOBSCRIPTS_DATADIR
			" or " JOBSCRIPTS_SRCDIR "\n",
			c->job, c->job);
		return 2;
	}
	if (!o->dry_run && check_site_for_submit(c) < 0)
		return 2;
	recorded = o->dry_run ? 0 : read_jobids(c);
	if (recorded < 0) {
		fprintf(stderr, PROG ": submit %s: read %s/elements.tsv: %s\n",
			c->job, c->dir, strerror(-recorded));
		return 2;
	}
	if (recorded > 0 && !o->resume) {
		fprintf(stderr,
			PROG
			": submit %s: campaign %s already exists with %d submitted elements: use `status`/`collect`, --resume to resubmit failed or missing elements, or --campaign=DIR for a new one\n",
			c->job, c->dir, recorded);
		return 2;
	}
	if (!o->dry_run) {
		int rc = mkdir_p(c->dir);

		if (rc < 0) {
			fprintf(stderr, PROG ": submit %s: create %s: %s\n",
				c->job, c->dir, strerror(-rc));
			return 2;
		}
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
		int rc;

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
			argv_free(&a);
			fclose(m);
			free(rec);
			free(subs);
			return 2;
		}
		if (o->dry_run) {
			print_quoted(stdout, a.v);
			argv_free(&a);
			continue;
		}
		if (e->jobid) {
			/* a resubmitted element: keep the failed attempt's
			 * partial results aside, start from an empty dir */
			char old[PATH_MAX + 96];

			snprintf(old, sizeof(old), "%s.failed-job%u", edir,
				 e->jobid);
			if (rename(edir, old) < 0 && errno != ENOENT) {
				fprintf(stderr,
					PROG ": submit %s: move %s aside: %s\n",
					c->job, edir, strerror(errno));
				argv_free(&a);
				failed++;
				break;
			}
			printf("element %d %s: previous attempt (job %u) kept in %s\n",
			       e->index, e->label, e->jobid, old);
			e->jobid = 0;
		}
		if ((rc = mkdir_p(edir)) < 0) {
			fprintf(stderr, PROG ": submit %s: create %s: %s\n",
				c->job, edir, strerror(-rc));
			argv_free(&a);
			failed++;
			break;
		}
		/* a resubmitted element starts without the old verdict */
		{
			char p[PATH_MAX + 128], *txt = NULL;

			snprintf(p, sizeof(p), "%s/status", edir);
			unlink(p);
			if (asprintf(&txt, "index=%d\nlabel=%s\noptions=%s\n",
				     e->index, e->label, e->options) < 0 ||
			    write_atomic(edir, "element", txt) < 0)
				fprintf(stderr,
					PROG
					": submit %s: write %s/element: %s\n",
					c->job, edir, strerror(errno));
			free(txt);
		}
		fprintf(m, "# element %d (%s)\n", e->index, e->label);
		print_quoted(m, a.v);
		rc = run_capture(a.v, out, sizeof(out));
		if (rc != 0 || !isdigit((unsigned char)out[0])) {
			fprintf(stderr,
				PROG
				": submit %s: element %d (%s): sbatch failed (exit %d): see its message above\n",
				c->job, e->index, e->label, rc);
			argv_free(&a);
			failed++;
			break; /* the rest would fail the same way */
		}
		e->jobid = (uint32_t)strtoul(out, NULL, 10);
		subs[nsub++] = e->jobid;
		printf("element %d %s: job %u\n", e->index, e->label, e->jobid);
		submitted++;
		argv_free(&a);
		/* record after each submission: a failure later keeps these */
		write_jobids(c);
	}
	fclose(m);
	free(subs);
	if (!o->dry_run && rec && *rec) {
		char path[PATH_MAX + 32];
		struct ios_err err = {0};

		snprintf(path, sizeof(path), "%s/submit.log", c->dir);
		if (sf_append(path, rec, strlen(rec), &err) < 0)
			fprintf(stderr, PROG ": submit %s: %s\n", c->job,
				err.msg);
	}
	free(rec);
	if (!o->dry_run) {
		printf("campaign %s: %d element(s) submitted, throttle %llu\n",
		       c->dir, submitted, (unsigned long long)throttle);
		if (write_jobids(c) < 0)
			fprintf(stderr,
				PROG ": submit %s: write %s/elements.tsv: %s\n",
				c->job, c->dir, strerror(errno));
	}
	return failed ? 1 : 0;
}

/* ------------------------------------------------------------ states */

static const char *const state_names[] = {
	[CAMP_UNSUBMITTED] = "UNSUBMITTED", [CAMP_PENDING] = "PENDING",
	[CAMP_RUNNING] = "RUNNING",         [CAMP_DONE] = "DONE",
	[CAMP_FAILED] = "FAILED",           [CAMP_LOST] = "LOST",
};

const char *camp_state_name(enum camp_state s)
{
	return state_names[s];
}

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

enum camp_state camp_element_state(const char *dir, struct camp_element *e)
{
	job_info_msg_t *msg = NULL;
	enum camp_state st = CAMP_DONE;
	bool any_pending = false, any_running = false, any_failed = false;
	char status[256];
	int have_status;

	if (!e->jobid)
		return CAMP_UNSUBMITTED;
	have_status = read_status_file(dir, e, status, sizeof(status)) == 0;
	e->why[0] = '\0';
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
		return CAMP_FAILED;
	}
	for (uint32_t i = 0; i < msg->record_count; i++) {
		const slurm_job_info_t *j = &msg->job_array[i];
		uint32_t base = j->job_state & JOB_STATE_BASE;

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
	return st;
}

static int load_recorded(struct campaign *c)
{
	int n = read_jobids(c);

	if (n < 0) {
		fprintf(stderr, PROG ": read %s/elements.tsv: %s\n", c->dir,
			strerror(-n));
		return -1;
	}
	if (n == 0) {
		fprintf(stderr,
			PROG
			": %s: no campaign here (no elements.tsv): run `" PROG
			" submit %s %s` first\n",
			c->dir, c->site_arg, c->job);
		return -1;
	}
	return n;
}

static int cmd_status(struct campaign *c, const struct opts *o)
{
	int count[CAMP_NSTATES];
	double waited = 0;

	if (load_recorded(c) < 0)
		return 2;
	for (;;) {
		memset(count, 0, sizeof(count));
		for (size_t i = 0; i < c->nel; i++) {
			c->el[i].state = camp_element_state(c->dir, &c->el[i]);
			count[c->el[i].state]++;
		}
		if (o->wait <= 0 ||
		    (count[CAMP_PENDING] == 0 && count[CAMP_RUNNING] == 0) ||
		    waited >= o->wait)
			break;
		sleep(1);
		waited += 1;
	}
	printf("campaign %s: job %s, %zu element(s)\n", c->dir, c->job, c->nel);
	printf("%-5s %-24s %-8s %-11s %s\n", "elem", "label", "jobid", "state",
	       "detail");
	for (size_t i = 0; i < c->nel; i++) {
		const struct camp_element *e = &c->el[i];

		printf("%-5d %-24s %-8u %-11s %s\n", e->index, e->label,
		       e->jobid, camp_state_name(e->state), e->why);
	}
	printf("done %d, failed %d, running %d, pending %d, lost %d, unsubmitted %d\n",
	       count[CAMP_DONE], count[CAMP_FAILED], count[CAMP_RUNNING],
	       count[CAMP_PENDING], count[CAMP_LOST], count[CAMP_UNSUBMITTED]);
	if (count[CAMP_PENDING] || count[CAMP_RUNNING])
		return 3;
	if (count[CAMP_FAILED] || count[CAMP_LOST] || count[CAMP_UNSUBMITTED])
		return 1;
	return 0;
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

static int cmd_collect(struct campaign *c)
{
	char rdir[PATH_MAX + 16], pattern[PATH_MAX + 64];
	char *tsv = NULL, *json = NULL;
	size_t tlen = 0, jlen = 0;
	FILE *t, *j;
	int count[CAMP_NSTATES] = {0}, nfiles = 0, nbad = 0, rc;

	if (load_recorded(c) < 0)
		return 2;
	snprintf(rdir, sizeof(rdir), "%s/results", c->dir);
	if ((rc = mkdir_p(rdir)) < 0) {
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
		"element\tlabel\tcpus\tmem_bytes\tdisk_bw_Bps\tjobid\tstate\tfile\tnote\n");
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
			",\"cpus\":%llu,\"mem_bytes\":%llu,\"disk_bw_Bps\":%llu,\"jobid\":%u,\"state\":\"%s\",\"note\":",
			(unsigned long long)e->cpus, (unsigned long long)e->mem,
			(unsigned long long)e->disk_bw, e->jobid,
			camp_state_name(e->state));
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
				"%d\t%s\t%llu\t%llu\t%llu\t%u\t%s\t%s\t%s%s%s\n",
				e->index, e->label, (unsigned long long)e->cpus,
				(unsigned long long)e->mem,
				(unsigned long long)e->disk_bw, e->jobid,
				camp_state_name(e->state), f, e->why,
				e->why[0] && note[0] ? "; " : "", note);
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
				"%d\t%s\t%llu\t%llu\t%llu\t%u\t%s\t-\t%s%s%s\n",
				e->index, e->label, (unsigned long long)e->cpus,
				(unsigned long long)e->mem,
				(unsigned long long)e->disk_bw, e->jobid,
				camp_state_name(e->state), e->why,
				e->why[0] && note[0] ? "; " : "", note);
			if (e->state == CAMP_DONE)
				nbad++;
		}
		fprintf(j, "]}");
		globfree(&g);
	}
	fprintf(j, "]}\n");
	fclose(t);
	fclose(j);
	if ((rc = write_atomic(c->dir, "index.tsv", tsv)) < 0 ||
	    (rc = write_atomic(c->dir, "index.json", json)) < 0)
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

/* ------------------------------------------------------------ getvar/env */

static int cmd_getvar(const char *site_arg, const char *var,
		      const struct opts *o)
{
	struct ios_site *s = NULL;
	struct ios_err err = {0};
	char section[256];
	const char *dot = strrchr(var, '.'), *v;
	int rc;

	if (!dot || dot == var || !dot[1])
		return die_usage("getvar \"%s\": expected SECTION.KEY", var);
	snprintf(section, sizeof(section), "%.*s", (int)(dot - var), var);
	if (ios_site_key_kind(section, dot + 1) < 0) {
		fprintf(stderr,
			PROG
			": getvar \"%s\": no such key in the site format (see site/siteconf.h)\n",
			var);
		return 2;
	}
	rc = ios_site_load(site_arg, &s, &err);
	if (rc < 0) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		return 2;
	}
	v = ios_site_get(s, section, dot + 1);
	if (!v) {
		if (o->dflt) {
			printf("%s\n", o->dflt);
			ios_site_free(s);
			return 0;
		}
		fprintf(stderr, PROG ": getvar %s: %s: [%s] %s: not set\n", var,
			ios_site_path(s), section, dot + 1);
		ios_site_free(s);
		return 1;
	}
	if (o->list) {
		uint64_t *items = NULL;
		int n = ios_site_get_list(s, section, dot + 1, &items, &err);

		if (n < 0) {
			fprintf(stderr, PROG ": %s\n", err.msg);
			ios_site_free(s);
			return 2;
		}
		for (int i = 0; i < n; i++)
			printf("%llu\n", (unsigned long long)items[i]);
		free(items);
	} else {
		printf("%s\n", v);
	}
	ios_site_free(s);
	return 0;
}

struct env_ctx {
	const struct ios_site *s;
};

static void print_env_var(const char *section, const char *key,
			  const char *value)
{
	putchar('I');
	fputs("OS_", stdout);
	for (const char *p = section; *p; p++)
		putchar(isalnum((unsigned char)*p) ? toupper((unsigned char)*p)
						   : '_');
	putchar('_');
	for (const char *p = key; *p; p++)
		putchar(isalnum((unsigned char)*p) ? toupper((unsigned char)*p)
						   : '_');
	putchar('=');
	putchar('\'');
	for (const char *p = value; *p; p++) {
		if (*p == '\'')
			fputs("'\\''", stdout);
		else
			putchar(*p);
	}
	fputs("'\n", stdout);
}

static int env_section(const char *section, const char *name, void *arg)
{
	static const char *const keys_by_section[][12] = {
		{"site", "name", "description"},
		{"storage", "nodes", "nodelist", "partition", "disks_per_node",
		 "disk_bw", "disk_bw_measured", "controller_bw", "nic_bw",
		 "cores", "memory", "osds_per_node"},
		{"storage", "nvme_per_node", "replication", "policy",
		 "state_dir", "device_dir"},
		{"compute", "nodes", "nodelist", "partition", "ranks_per_node"},
		{"workload", "file_size", "seq_bs", "rand_bs", "runtime",
		 "reps", "iodepth", "ioengine", "dir", "interval"},
		{"sweep", "cpus", "mem", "disk_bw", "throttle"},
		{"prices", "currency", "core", "mem_gb", "hdd", "nvme",
		 "node_base"},
		{"slurm", "time", "account", "qos", "mpi", "extra"},
		{"health", "file_size", "runtime", "reps", "history",
		 "textfile", "threshold"},
		{"accept", "tiers", "tier"},
	};
	const struct env_ctx *c = arg;

	(void)name;
	for (size_t i = 0;
	     i < sizeof(keys_by_section) / sizeof(*keys_by_section); i++) {
		if (strcmp(keys_by_section[i][0], section) != 0)
			continue;
		for (size_t k = 1; k < 12 && keys_by_section[i][k]; k++) {
			const char *v = ios_site_get(c->s, section,
						     keys_by_section[i][k]);

			if (v)
				print_env_var(section, keys_by_section[i][k],
					      v);
		}
	}
	return 0;
}

static int cmd_env(const char *site_arg)
{
	struct ios_site *s = NULL;
	struct ios_err err = {0};
	struct env_ctx c;

	if (ios_site_load(site_arg, &s, &err) < 0) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		return 2;
	}
	c.s = s;
	print_env_var("site", "file", ios_site_path(s));
	ios_site_sections(s, "", env_section, &c);
	ios_site_free(s);
	return 0;
}

/* ------------------------------------------------------------ main */

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"campaign", required_argument, NULL, 'c'},
		{"throttle", required_argument, NULL, 't'},
		{"resume", no_argument, NULL, 'r'},
		{"dry-run", no_argument, NULL, 'n'},
		{"wait", optional_argument, NULL, 'w'},
		{"list", no_argument, NULL, 'l'},
		{"default", required_argument, NULL, 'd'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct opts o = {0};
	struct campaign c = {0};
	const char *cmd;
	char *pos[3];
	int npos = 0, opt, rc;
	uint64_t u;
	struct ios_err err = {0};

	if (argc < 2)
		return usage(stderr);
	cmd = argv[1];
	if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 ||
	    strcmp(cmd, "help") == 0)
		return usage(stdout);
	optind = 2;
	while ((opt = getopt_long(argc, argv, "+h", longopts, NULL)) != -1 ||
	       optind < argc) {
		if (opt == -1) {
			/* positional argument (or "--" then sbatch args) */
			if (strcmp(argv[optind - 1], "--") == 0) {
				o.extra = &argv[optind];
				break;
			}
			if (npos == 3)
				return die_usage("unexpected argument \"%s\"",
						 argv[optind]);
			pos[npos++] = argv[optind++];
			continue;
		}
		switch (opt) {
		case 'c':
			o.campaign = optarg;
			break;
		case 't':
			if (ios_parse_uint(optarg, "--throttle", 0, 100000, &u,
					   &err) < 0) {
				fprintf(stderr, PROG ": %s\n", err.msg);
				return 2;
			}
			o.throttle = (unsigned)u;
			o.throttle_set = true;
			break;
		case 'r':
			o.resume = true;
			break;
		case 'n':
			o.dry_run = true;
			break;
		case 'w':
			o.wait = 3600;
			if (optarg && ios_parse_duration(optarg, "--wait",
							 &o.wait, &err) < 0) {
				fprintf(stderr, PROG ": %s\n", err.msg);
				return 2;
			}
			break;
		case 'l':
			o.list = true;
			break;
		case 'd':
			o.dflt = optarg;
			break;
		case 'h':
			return usage(stdout);
		default:
			return usage(stderr);
		}
	}
	if (strcmp(cmd, "getvar") == 0) {
		if (npos != 2)
			return die_usage("%s: expected SITE SECTION.KEY", cmd);
		return cmd_getvar(pos[0], pos[1], &o);
	}
	if (strcmp(cmd, "env") == 0) {
		if (npos != 1)
			return die_usage("%s: expected SITE", cmd);
		return cmd_env(pos[0]);
	}
	if (strcmp(cmd, "submit") != 0 && strcmp(cmd, "status") != 0 &&
	    strcmp(cmd, "collect") != 0 && strcmp(cmd, "plan") != 0)
		return die_usage("unknown command \"%s\"", cmd);
	if (npos != 2)
		return die_usage("%s: expected SITE JOB", cmd);
	if (campaign_open(&c, pos[0], pos[1], o.campaign) < 0) {
		campaign_close(&c);
		return 2;
	}
	if (strcmp(cmd, "plan") == 0) {
		for (size_t i = 0; i < c.nel; i++)
			printf("%d\t%s\t%s\n", c.el[i].index, c.el[i].label,
			       c.el[i].options[0] ? c.el[i].options : "-");
		campaign_close(&c);
		return 0;
	}
	if (!o.dry_run)
		slurm_init(NULL);
	if (strcmp(cmd, "submit") == 0)
		rc = cmd_submit(&c, &o);
	else if (strcmp(cmd, "status") == 0)
		rc = cmd_status(&c, &o);
	else
		rc = cmd_collect(&c);
	campaign_close(&c);
	if (!o.dry_run)
		slurm_fini();
	return rc;
}
