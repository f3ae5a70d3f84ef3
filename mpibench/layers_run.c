// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * layers_run: `iostrata-bench --layers` (see layers_run.h, LAYERS.md).
 * Bottom to top, each layer with the same block size, size and runtime:
 * device (one rank per node, the posix backend in a directory on the OSDs'
 * filesystem, fio run alongside as a cross-check), network (netbench),
 * protocol (rados backend), full stack (posix on the CephFS mount, cephfs
 * backend).  Ceilings and the verdict come from layers.c.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <mpi.h>
#ifdef HAVE_RADOS
#include "ceph_dl.h"

/* librados, loaded by ceph_preflight() (ceph_dl.h) */
static const struct ios_rados_api *librados;
#endif
#ifdef HAVE_JANSSON
#include <jansson.h>
#endif

#include "backend.h"
#include "ceph_conn.h"
#include "h5out.h"
#include "layers.h"
#include "layers_opts.h"
#include "layers_run.h"
#include "mb_runrec.h"
#include "runrec.h"
#include "mb_config.h"
#include "mb_exit.h"
#include "netbench.h"
#include "ownfile.h"
#include "phase.h"
#include "units.h"
#include "watchdog.h"

static const char *ceph_opt(const struct lyr_opts *o, const char *name)
{
	for (int i = o->nceph - 1; i >= 0; i--)
		if (!strcmp(o->ceph[i].name, name))
			return o->ceph[i].value;
	return NULL;
}

/* ---- Ceph facts (rank 0, before any I/O) -------------------------- */

struct ceph_facts {
	int pool_size;
	int fs_size;
	int osds_up;
};

#if defined(HAVE_JANSSON) && defined(HAVE_RADOS)
static int mon_json(rados_t c, const char *cmd, json_t **out)
{
	char *obuf = NULL;
	size_t olen = 0;
	json_error_t je;
	int rc;

	rc = ios_rados_mon_command(c, cmd, &obuf, &olen, NULL, NULL);
	if (rc < 0)
		return rc;
	*out = json_loadb(obuf, olen, 0, &je);
	if (!*out)
		rc = -EINVAL;
	free(obuf);
	return rc;
}

static int pool_size(rados_t c, const char *pool)
{
	char cmd[512];
	json_t *j = NULL;
	int rc, size = -1;

	snprintf(
		cmd, sizeof(cmd),
		"{\"prefix\":\"osd pool get\",\"pool\":\"%s\",\"var\":\"size\",\"format\":\"json\"}",
		pool);
	rc = mon_json(c, cmd, &j);
	if (rc < 0)
		return rc;
	if (json_is_integer(json_object_get(j, "size")))
		size = (int)json_integer_value(json_object_get(j, "size"));
	json_decref(j);
	return size;
}
#endif

/*
 * Connect like the rados backend (the same options struct [co], the same
 * connect), check the pool, and read the pool's size, the CephFS data
 * pool's size and the OSD count.  Returns 0 or -errno with [err] set
 * (nothing written anywhere).
 */
static int ceph_preflight(const struct lyr_opts *o,
			  const struct ios_ceph_opts *co, bool need_pool,
			  struct ceph_facts *f, struct ios_err *err)
{
#ifndef HAVE_RADOS
	(void)o;
	(void)co;
	(void)need_pool;
	memset(f, 0, sizeof(*f));
	return ios_errf(
		err, -ENOSYS,
		"layers: built without librados: the protocol and full-stack layers need it (or --layers-skip=protocol,fullstack,fullstack-lib)");
#else
	const char *pool = ceph_opt(o, "rados-pool");
	struct ios_err e = {0};
	rados_t c;
	rados_ioctx_t io;
	int rc;

	memset(f, 0, sizeof(*f));
	if (need_pool && !pool)
		return ios_errf(
			err, -EINVAL,
			"--rados-pool: missing: the protocol layer needs a pool (e.g. --rados-pool=bench), or --layers-skip=protocol");
	if (!librados) {
		librados = ios_rados_load(&e);
		if (!librados)
			return ios_errf(
				err, e.code,
				"layers: %s (the protocol and full-stack layers need it, or --layers-skip=protocol,fullstack,fullstack-lib)",
				e.msg);
	}
	rc = ios_rados_connect(co, &c, &e);
	if (rc < 0)
		return ios_errf(err, rc, "layers: %s", e.msg);
	if (need_pool) {
		rc = librados->rados_ioctx_create(c, pool, &io);
		if (rc < 0) {
			ios_errf(err, rc, "layers: open pool '%s': %s%s", pool,
				 strerror(-rc),
				 rc == -ENOENT ? " (the pool does not exist)"
					       : "");
			goto out;
		}
		librados->rados_ioctx_destroy(io);
	}
#if defined(HAVE_JANSSON)
	{
		json_t *j = NULL;

		if (pool)
			f->pool_size = pool_size(c, pool);
		if (mon_json(c, "{\"prefix\":\"osd stat\",\"format\":\"json\"}",
			     &j) == 0) {
			json_t *u = json_object_get(j, "num_up_osds");

			if (!u) /* newer layouts nest it */
				u = json_object_get(
					json_object_get(j, "osdmap"),
					"num_up_osds");
			if (json_is_integer(u))
				f->osds_up = (int)json_integer_value(u);
			json_decref(j);
		}
		if (mon_json(c, "{\"prefix\":\"fs ls\",\"format\":\"json\"}",
			     &j) == 0) {
			json_t *fs0 = json_array_get(j, 0);
			json_t *dp = json_array_get(
				json_object_get(fs0, "data_pools"), 0);

			if (json_is_string(dp))
				f->fs_size =
					pool_size(c, json_string_value(dp));
			json_decref(j);
		}
	}
#endif
	rc = 0;
out:
	librados->rados_shutdown(c);
	return rc;
#endif
}

/* ---- the run record ----------------------------------------------- */

struct lrun {
	struct ios_run run;
	const char *output;
	int cap_phases;
};

/* Write the results file (if any); 0 or -errno, said on stderr. */
static int save(struct lrun *lr)
{
	struct ios_err e = {0};
	int rc;

	if (!lr->output)
		return 0;
	rc = mb_h5_write(lr->output, &lr->run, &e);
	if (rc < 0)
		fprintf(stderr, "iostrata-bench: %s\n", e.msg);
	return rc;
}

static struct ios_phase_result *new_phase(struct lrun *lr)
{
	struct ios_run *r = &lr->run;

	if (r->nphases == lr->cap_phases) {
		int cap = lr->cap_phases ? lr->cap_phases * 2 : 16;
		struct ios_phase_result *p =
			realloc(r->phases, (size_t)cap * sizeof(*p));

		if (!p)
			return NULL;
		r->phases = p;
		lr->cap_phases = cap;
	}
	memset(&r->phases[r->nphases], 0, sizeof(r->phases[0]));
	return &r->phases[r->nphases];
}

/* A run that could not start: a results file that says why (status
 * failed, the reason as verdict), so a campaign sees an invalid run. */
static void save_invalid(const struct mb_config *cfg, const struct lyr_opts *o,
			 const struct ios_err *e)
{
	struct lrun lr;
	char *v = NULL;

	if (!cfg->output)
		return;
	memset(&lr, 0, sizeof(lr));
	lr.output = cfg->output;
	if (lyr_runrec_start(&lr.run, cfg, o, NULL) == 0 &&
	    ios_runrec_status(&lr.run, "failed") == 0 &&
	    asprintf(&v, "invalid: the layered run did not start: %s",
		     e->msg) >= 0) {
		lr.run.verdict = v;
		save(&lr);
	}
	ios_run_clear(&lr.run); /* frees v, the verdict, too */
}

/* ---- layers ------------------------------------------------------- */

struct lctx {
	struct lyr_opts *o;
	const struct mb_config *cfg; /* parsed common options */
	int rank;                    /* in MPI_COMM_WORLD */
	/* what each layer runs (lyr_layer_config); device: this node's dir */
	struct mb_config lcfg[LYR_NLAYERS];
	char devdir[4096];
	struct mb_world *w;
	MPI_Comm leaders; /* one rank per node; MPI_COMM_NULL elsewhere */
	struct lrun *lr;  /* rank 0 only */
	struct lyr_numbers n;
	char note[LYR_NLAYERS][256];
	char source[LYR_NLAYERS][32];
	bool failed;  /* a layer could not run (MB_EXIT_FAILED) */
	bool invalid; /* a layer's repetition is invalid (MB_EXIT_INVALID) */
	double fio_bw[2];
};

static void lrun_rep_done(void *arg, const struct ios_phase_result *ph)
{
	struct lctx *c = arg;

	(void)ph;
	/* the phase being filled is the last one (see run_phase) */
	if (c->lr) {
		c->lr->run.nphases++;
		save(c->lr);
		c->lr->run.nphases--;
	}
}

/* Mean stonewalled bandwidth of the valid repetitions; NAN if none. */
static double phase_bw(const struct ios_phase_result *ph, char *why, size_t len)
{
	double sum = 0;
	int n = 0;

	for (int r = 0; r < ph->nreps; r++) {
		if (ph->reps[r].valid) {
			sum += ph->reps[r].fig.stonewall_bw;
			n++;
		} else if (why && !why[0]) {
			snprintf(why, len, "repetition %d invalid: %.150s", r,
				 ph->reps[r].invalid_reason);
		}
	}
	if (!n && why && !why[0])
		snprintf(why, len, "no repetition finished");
	return n ? sum / n : NAN;
}

/*
 * Run write then read for [layer] on [comm] (ranks outside it skip).
 * Fills c->n.bw[layer][*] on rank 0 and appends the phases to the run.
 */
static void run_layer(struct lctx *c, int layer, MPI_Comm comm)
{
	static const enum mb_pattern pats[2] = {MB_PAT_WRITE, MB_PAT_READ};
	static const int dirs[2] = {LYR_WRITE, LYR_READ};
	const struct mb_config *lc = &c->lcfg[layer];
	int rank = -1, rc = 0;

	c->n.direct[layer] = lc->direct;
	snprintf(c->source[layer], sizeof(c->source[layer]), "iostrata %s",
		 lc->backend ? lc->backend->name : "?");
	if (comm == MPI_COMM_NULL)
		goto out;
	MPI_Comm_rank(comm, &rank);
	for (int k = 0; k < 2; k++) {
		struct mb_phase_spec s = {0};
		struct ios_phase_result tmp, *ph = &tmp;
		struct ios_err err = {0};
		char why[200] = "";

		s.cfg = lc;
		s.pattern = pats[k];
		s.layer = lyr_layer_names[layer];
		s.phase_index = c->lr ? c->lr->run.nphases : 0;
		if (rank == 0 && c->lr) {
			ph = new_phase(c->lr);
			if (!ph)
				ph = &tmp;
			s.rep_done = lrun_rep_done;
			s.rep_arg = c;
		}
		rc = mb_phase_run(&s, comm, ph, &err);
		if (rank == 0) {
			if (rc < 0) {
				snprintf(c->note[layer], sizeof(c->note[layer]),
					 "%s failed: %.200s",
					 mb_pattern_name(pats[k]), err.msg);
				fprintf(stderr,
					"iostrata-bench: layer %s: %s\n",
					lyr_layer_names[layer], err.msg);
				c->failed = true;
			} else {
				c->n.bw[layer][dirs[k]] =
					phase_bw(ph, why, sizeof(why));
				if (why[0]) {
					snprintf(c->note[layer],
						 sizeof(c->note[layer]),
						 "%s: %s",
						 mb_pattern_name(pats[k]), why);
					c->invalid = true;
				}
				if (ph != &tmp)
					c->lr->run.nphases++;
			}
			if (ph == &tmp)
				ios_phase_result_clear(&tmp);
			if (c->lr)
				save(c->lr);
		}
		if (rc < 0)
			break; /* same rc on every rank of comm */
	}
	if (!c->cfg->keep) {
		struct mb_phase_spec s = {.cfg = lc};
		struct ios_err err = {0};

		if (mb_phase_cleanup(&s, comm, &err) < 0)
			fprintf(stderr,
				"iostrata-bench: layer %s: cleanup: %s\n",
				lyr_layer_names[layer], err.msg);
	}
out:
	nb_quiet_barrier(c->w->comm);
}

/* Expand %n (node index) and %h (node name) in the device pattern. */
static void expand(const char *pat, int node, const char *host, char *out,
		   size_t len)
{
	size_t k = 0;

	for (const char *p = pat; *p && k + 1 < len; p++) {
		int n = 0;

		if (p[0] == '%' && p[1] == 'n') {
			n = snprintf(out + k, len - k, "%d", node);
			p++;
		} else if (p[0] == '%' && p[1] == 'h') {
			n = snprintf(out + k, len - k, "%s", host);
			p++;
		} else {
			out[k] = *p;
			n = 1;
		}
		if (n < 0 || (size_t)n >= len - k)
			break;
		k += (size_t)n;
	}
	out[k < len ? k : len - 1] = '\0';
}

/* Run fio once with [args]; its JSON into [out]. 0 or -errno. */
static int run_fio(char *const *args, double timeout_s, struct lyr_fio *out,
		   struct ios_err *err)
{
	char *text = NULL;
	int fd, st = 0, rc;
	pid_t pid;
	struct timespec t0, t;
	FILE *f;
	long sz;

	/* fio's stdout: a memory file, no name in a shared /tmp. */
	fd = memfd_create("iostrata-fio-out", MFD_CLOEXEC);
	if (fd < 0)
		return ios_errf(err, -errno,
				"layers: create fio output file: %s",
				strerror(errno));
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		close(fd);
		return ios_errf(err, rc, "layers: start fio: %s",
				strerror(-rc));
	}
	if (pid == 0) {
		int nul = open("/dev/null", O_WRONLY);

		dup2(fd, 1);
		if (nul >= 0)
			dup2(nul, 2);
		execvp(args[0], args);
		_exit(127);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid)
			break;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > timeout_s) {
			kill(pid, SIGKILL); /* our own child */
			waitpid(pid, &st, 0);
			close(fd);
			return ios_errf(
				err, -ETIMEDOUT,
				"layers: fio ran longer than %.0f s: killed",
				timeout_s);
		}
		usleep(100000);
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		close(fd);
		return ios_errf(err, -EIO, "layers: fio %s %d",
				WIFEXITED(st) ? "exited with"
					      : "killed by signal",
				WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	}
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return ios_errf(err, -errno, "layers: read fio output: %s",
				strerror(errno));
	}
	fseek(f, 0, SEEK_END);
	sz = ftell(f);
	rewind(f);
	text = calloc((size_t)(sz > 0 ? sz : 0) + 1, 1);
	if (text && sz > 0 && fread(text, 1, (size_t)sz, f) != (size_t)sz)
		sz = 0;
	fclose(f);
	rc = text ? lyr_fio_parse(text, out, err) : -ENOMEM;
	free(text);
	return rc;
}

/* fio alongside the device layer: the same job on every device rank, on
 * a file we create and check ourselves (ownfile.h), handed to fio as an
 * inherited fd so that fio cannot open, unlink or recreate anything else
 * (fio follows links and unlinks a file it lays out). */
static void device_fio(struct lctx *c, const char *dir, int node)
{
	static const char *const rw[2] = {"write", "read"};
	static const int dirs[2] = {LYR_WRITE, LYR_READ};
	const char *eng = mb_engine_name(c->cfg->ioengine);
	const struct mb_dir *d = NULL;
	char a_name[64], a_file[64], a_rw[32], a_bs[48], a_size[48], a_eng[48],
		a_qd[48], a_rt[48], a_direct[32];
	double mine[2] = {0, 0}, sum[2] = {0, 0};
	int ok = 1, all_ok = 0, nlead, fd = -1;
	struct ios_err err = {0};

	if (c->leaders == MPI_COMM_NULL)
		return;
	MPI_Comm_size(c->leaders, &nlead);
	/* ok: 1, 0 fio failed, -1 the file was refused (fails the run) */
	if (mb_dir_get(dir, false, &d, &err) ||
	    (fd = mb_own_fio_prepare(d, node, c->cfg->size, a_file,
				     sizeof(a_file), &err)) < 0)
		ok = -1;
	snprintf(a_name, sizeof(a_name), "--name=iostrata-device-%d", node);
	snprintf(a_bs, sizeof(a_bs), "--bs=%" PRIu64, c->cfg->bs);
	snprintf(a_size, sizeof(a_size), "--size=%" PRIu64, c->cfg->size);
	snprintf(a_eng, sizeof(a_eng), "--ioengine=%s", eng);
	snprintf(a_qd, sizeof(a_qd), "--iodepth=%u", c->cfg->iodepth);
	snprintf(a_rt, sizeof(a_rt), "--runtime=%.0f",
		 c->cfg->runtime < 1 ? 1 : c->cfg->runtime);
	snprintf(a_direct, sizeof(a_direct), "--direct=1");
	for (int k = 0; k < 2; k++) {
		struct lyr_fio f;
		char *args[] = {(char *)c->o->fio,
				a_name,
				a_file,
				a_rw,
				a_bs,
				a_size,
				a_eng,
				a_qd,
				a_rt,
				"--time_based=1",
				a_direct,
				"--output-format=json",
				NULL};

		snprintf(a_rw, sizeof(a_rw), "--rw=%s", rw[k]);
		MPI_Barrier(c->leaders); /* all device ranks at once */
		if (ok < 1)
			continue; /* still meet the others at the barrier */
		if (dirs[k] == LYR_READ &&
		    mb_own_fill_holes(fd, c->cfg->size, &err)) {
			ok = 0;
			continue;
		}
		if (run_fio(args, c->cfg->runtime + 120, &f, &err) < 0 ||
		    f.error) {
			if (!err.msg[0])
				ios_errf(&err, -EIO, "layers: fio job error %d",
					 f.error);
			ok = 0;
			continue;
		}
		mine[dirs[k]] = f.bw[dirs[k]];
	}
	if (fd >= 0) {
		struct ios_err e2 = {0};

		if (mb_own_fio_finish(d, node, fd, c->cfg->keep, &e2)) {
			err = e2;
			ok = -1;
		}
	}
	MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, c->leaders);
	MPI_Reduce(mine, sum, 2, MPI_DOUBLE, MPI_SUM, 0, c->leaders);
	if (ok < 1)
		fprintf(stderr, "iostrata-bench: node %d: device fio: %s\n",
			node, err.msg);
	if (c->w->rank == 0) {
		c->fio_bw[LYR_WRITE] = all_ok == 1 ? sum[LYR_WRITE] : NAN;
		c->fio_bw[LYR_READ] = all_ok == 1 ? sum[LYR_READ] : NAN;
		if (all_ok < 0)
			c->failed = true;
	}
	(void)nlead;
}

static void add_layer(struct lctx *c, const char *name, const char *source,
		      double rbw, double wbw, const char *note)
{
	struct ios_run *r = &c->lr->run;
	struct ios_layer *l =
		realloc(r->layers, (size_t)(r->nlayers + 1) * sizeof(*l));

	if (!l)
		return;
	r->layers = l;
	l += r->nlayers++;
	memset(l, 0, sizeof(*l));
	snprintf(l->name, sizeof(l->name), "%s", name);
	snprintf(l->source, sizeof(l->source), "%s", source);
	l->read_bw = rbw;
	l->write_bw = wbw;
	l->read_iops = NAN;
	l->write_iops = NAN;
	snprintf(l->note, sizeof(l->note), "%s", note ? note : "");
}

static struct lctx *g_lc; /* for the watchdog handler */

static void on_watchdog(const char *stage, double seconds)
{
	fprintf(stderr,
		"iostrata-bench: watchdog: layered run stage \"%s\" took longer than %.0f s (a rank hung or died); aborting\n",
		stage, seconds);
	if (g_lc && g_lc->lr) {
		ios_runrec_status(&g_lc->lr->run, "failed");
		save(g_lc->lr);
	}
	MPI_Abort(MPI_COMM_WORLD, MB_EXIT_WATCHDOG);
	_exit(MB_EXIT_WATCHDOG);
}

/*
 * The run's Ceph options (--ceph-*) with the rados backend's defaults, as
 * the protocol layer takes them: for the preflight and the Ceph facts.
 */
static int ceph_opts(const struct lctx *c, struct ios_ceph_opts *co,
		     struct ios_err *err)
{
	struct mb_config pc;

	lyr_layer_config(c->cfg, c->o, LYR_PROTOCOL, NULL, 1, &pc);
	return mb_ceph_opts(&pc, co, err);
}

/*
 * The output is new; Ceph is reachable and the pool is there: checked on
 * rank 0 before anything is touched (a run that cannot start still leaves
 * a results file saying why).  0, or MB_EXIT_USAGE on every rank.
 */
static int check_before_start(struct lctx *c, struct ceph_facts *facts)
{
	const struct lyr_opts *o = c->o;
	const struct mb_config *cfg = c->cfg;
	struct ios_ceph_opts co;
	struct ios_err err = {0};
	int rc = 0;

	if (c->rank == 0 && cfg->output && !cfg->force &&
	    access(cfg->output, F_OK) == 0)
		rc = ios_errf(
			&err, -EEXIST,
			"--output: \"%s\" exists: refusing to overwrite it (accepted: a new file name, or --force)",
			cfg->output);
	if (c->rank == 0 && rc == 0)
		rc = ceph_opts(c, &co, &err);
	if (c->rank == 0 && rc == 0 &&
	    (!o->skip[LYR_PROTOCOL] || !o->skip[LYR_FULLLIB] ||
	     !o->skip[LYR_FULLSTACK]))
		rc = ceph_preflight(o, &co, !o->skip[LYR_PROTOCOL], facts,
				    &err);
	MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (rc == 0)
		return 0;
	if (c->rank == 0) {
		fprintf(stderr, "iostrata-bench: %s\n", err.msg);
		fprintf(stderr,
			"iostrata-bench: layered run invalid: nothing was written to the cluster or the disks\n");
		if (rc != -EEXIST)
			save_invalid(cfg, o, &err);
	}
	return MB_EXIT_USAGE;
}

/*
 * Ranks, nodes, the node leaders' communicator and each layer's
 * configuration; then the posix targets (device dirs, the CephFS mount)
 * exist and take our files, on every rank, before anything is written.
 * 0, or MB_EXIT_USAGE on every rank (c->w and c->leaders released).
 */
static int open_world(struct lctx *c)
{
	const struct lyr_opts *o = c->o;
	struct ios_err err = {0};
	int rc, bad, anybad = 0;

	mb_watchdog_arm(120.0, "start-up");
	rc = mb_world_create(MPI_COMM_WORLD, &c->w, &err);
	if (rc < 0) {
		fprintf(stderr, "iostrata-bench: rank %d: %s\n", c->rank,
			err.msg);
		MPI_Abort(MPI_COMM_WORLD, MB_EXIT_FAILED);
	}
	mb_watchdog_disarm();
	MPI_Comm_split(MPI_COMM_WORLD, c->w->node_rank == 0 ? 0 : MPI_UNDEFINED,
		       c->w->node, &c->leaders);
	if (!o->skip[LYR_DEVICE])
		expand(o->device_dir, c->w->node, c->w->host, c->devdir,
		       sizeof(c->devdir));
	for (int l = 0; l < LYR_NLAYERS; l++)
		lyr_layer_config(c->cfg, o, l, c->devdir, c->w->nnodes,
				 &c->lcfg[l]);

	if (!o->skip[LYR_DEVICE] && c->leaders != MPI_COMM_NULL) {
		int lr_rank;

		MPI_Comm_rank(c->leaders, &lr_rank);
		rc = mb_config_check_target(&c->lcfg[LYR_DEVICE], lr_rank,
					    c->w->nnodes, 1, &err);
		if (rc < 0)
			fprintf(stderr,
				"iostrata-bench: rank %d: device layer: --layers-device-dir: %s\n",
				c->rank, err.msg);
	}
	if (rc == 0 && !o->skip[LYR_FULLSTACK]) {
		rc = mb_config_check_target(&c->lcfg[LYR_FULLSTACK], c->rank,
					    c->w->nranks, c->w->ranks_on_node,
					    &err);
		if (rc < 0)
			fprintf(stderr,
				"iostrata-bench: rank %d: full stack: %s\n",
				c->rank, err.msg);
	}
	bad = rc < 0;
	MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	if (!anybad)
		return 0;
	if (c->rank == 0)
		fprintf(stderr,
			"iostrata-bench: layered run invalid: nothing was written\n");
	if (c->leaders != MPI_COMM_NULL)
		MPI_Comm_free(&c->leaders);
	mb_world_free(c->w);
	c->w = NULL;
	return MB_EXIT_USAGE;
}

/* The numbers the ceilings need: nodes, one host or not, pool sizes, OSDs
 * (rank 0 has them). */
static void count_nodes(struct lctx *c, const struct ceph_facts *facts)
{
	char host[64] = "", *all = NULL;
	int same = 1, nranks = c->w->nranks;
	FILE *bf;

	/* one host?  The kernel's boot id, not hostnames or Slurm node
	 * names: nodes in network/UTS namespaces of one machine (the local
	 * site's hosts) have their own names but share one kernel, its
	 * disks and no real network.  The hostname where there is no boot
	 * id. */
	bf = fopen("/proc/sys/kernel/random/boot_id", "r");
	if (!bf || !fgets(host, sizeof(host), bf))
		gethostname(host, sizeof(host) - 1);
	if (bf)
		fclose(bf);
	if (c->rank == 0)
		all = calloc((size_t)nranks, sizeof(host));
	MPI_Gather(host, sizeof(host), MPI_CHAR, all, sizeof(host), MPI_CHAR, 0,
		   MPI_COMM_WORLD);
	if (c->rank == 0) {
		for (int i = 1; i < nranks && all; i++)
			if (strcmp(all, all + (size_t)i * sizeof(host)))
				same = 0;
		c->n.one_host = same;
	}
	free(all);
	c->n.device_ranks = c->w->nnodes;
	c->n.storage_nodes = c->w->nnodes;
	c->n.replicas = facts->pool_size > 0 ? facts->pool_size : 0;
	c->n.fs_replicas = facts->fs_size > 0 ? facts->fs_size : 0;
	c->n.osds = c->o->osds ? c->o->osds : facts->osds_up;
}

/* The run record (rank 0), the nodes' hardware, the first write. */
static void start_record(struct lctx *c, struct lrun *lr)
{
	const struct mb_config *cfg = c->cfg;

	if (c->rank == 0) {
		struct ios_run *r = &lr->run;
		struct ios_ceph_opts co;

		lr->output = cfg->output;
		c->lr = lr;
		if (lyr_runrec_start(r, cfg, c->o, &c->n)) {
			fprintf(stderr, "iostrata-bench: run record: %s\n",
				strerror(ENOMEM));
			MPI_Abort(MPI_COMM_WORLD, MB_EXIT_FAILED);
		}
		r->nranks = c->w->nranks;
		r->rank_info = c->w->ri;
		r->job_json = mb_hw_job_json();
		/* checked by check_before_start() */
		ceph_opts(c, &co, NULL);
		r->ceph_json = mb_hw_ceph_json(&co, cfg->dir);
	}
	mb_gather_node_json(c->w, cfg, &lr->run);
	if (c->rank == 0)
		save(lr);
}

/* The network layer: every ordered node pair, on the node leaders. */
static void run_network(struct lctx *c)
{
	const struct nb_opts *net = &c->o->net;
	struct ios_net_pair *pairs = NULL;
	struct ios_err err = {0};
	double mn, med, lat;
	size_t np = 0;

	if (c->leaders != MPI_COMM_NULL &&
	    nb_run(c->leaders, net, &pairs, &np, &err) < 0 && c->rank == 0) {
		snprintf(c->note[LYR_NETWORK], 256, "%.250s", err.msg);
		c->failed = true;
	}
	if (c->rank == 0) {
		nb_summary(pairs, np, &mn, &med, &lat);
		c->lr->run.net = pairs;
		c->lr->run.nnet = np;
		c->n.net_link_min = mn;
		if (np) {
			c->n.bw[LYR_NETWORK][LYR_READ] =
				mn * c->n.storage_nodes;
			c->n.bw[LYR_NETWORK][LYR_WRITE] =
				mn * c->n.storage_nodes;
			snprintf(
				c->note[LYR_NETWORK], 256,
				"%zu node pairs, %d x %" PRIu64
				" B streams: slowest link %.3g GB/s, median %.3g GB/s, latency %.1f us; aggregate = slowest x %d nodes%s",
				np, net->streams, net->msg_bytes, mn / 1e9,
				med / 1e9, lat / 1e3, c->n.storage_nodes,
				c->n.one_host ? "; loopback: not a real network"
					      : "");
		} else if (!c->note[LYR_NETWORK][0]) {
			snprintf(c->note[LYR_NETWORK], 256,
				 "one node: no pair to measure");
		}
		snprintf(c->source[LYR_NETWORK], 32, "MPI point-to-point");
	}
	nb_quiet_barrier(MPI_COMM_WORLD);
}

/* One /layers row per layer that ran (or left a note). */
static void add_layer_rows(struct lctx *c)
{
	for (int l = 0; l < LYR_NLAYERS; l++) {
		char note[256];

		if (c->o->skip[l] && !c->note[l][0])
			continue;
		snprintf(note, sizeof(note), "%s", c->note[l]);
		if (l == LYR_PROTOCOL)
			snprintf(note + strlen(note),
				 sizeof(note) - strlen(note),
				 "%spool %s size %d", note[0] ? "; " : "",
				 ceph_opt(c->o, "rados-pool"), c->n.replicas);
		if (!c->n.direct[l])
			snprintf(note + strlen(note),
				 sizeof(note) - strlen(note),
				 "%sbuffered (no direct I/O)",
				 note[0] ? "; " : "");
		add_layer(c, lyr_layer_names[l], c->source[l],
			  c->n.bw[l][LYR_READ], c->n.bw[l][LYR_WRITE], note);
	}
}

/* The fio cross-check of the device layer: its row and a verdict line. */
static void add_fio_check(struct lctx *c, const struct lyr_thresholds *t,
			  char **verdict)
{
	double dw = lyr_disagreement(c->n.bw[LYR_DEVICE][LYR_WRITE],
				     c->fio_bw[LYR_WRITE]);
	double dr = lyr_disagreement(c->n.bw[LYR_DEVICE][LYR_READ],
				     c->fio_bw[LYR_READ]);
	char note[256], *v2 = NULL;
	bool bad = (!isnan(dw) && dw > t->fio_disagree) ||
		   (!isnan(dr) && dr > t->fio_disagree);

	if (isnan(c->fio_bw[LYR_WRITE]) && isnan(c->fio_bw[LYR_READ]))
		return;
	snprintf(
		note, sizeof(note),
		"fio cross-check of the device layer: write %.0f%% apart, read %.0f%% apart%s",
		dw * 100, dr * 100,
		bad ? " (more than 5%: the device ceiling is uncertain)" : "");
	add_layer(c, "device-fio", "fio", c->fio_bw[LYR_READ],
		  c->fio_bw[LYR_WRITE], note);
	if (*verdict && asprintf(&v2, "%s%s.\n", *verdict, note) > 0) {
		free(*verdict);
		*verdict = v2;
	}
}

/* The table on stdout: one line per layer, the verdict, the file. */
static void print_layers(const struct lctx *c, const char *verdict)
{
	printf("iostrata-bench --layers: stonewalled aggregate bandwidth per layer\n");
	for (int l = 0; l < LYR_NLAYERS; l++) {
		char a[32] = "-", b[32] = "-";

		if (c->o->skip[l])
			continue;
		if (!isnan(c->n.bw[l][LYR_WRITE]))
			ios_fmt_rate(c->n.bw[l][LYR_WRITE], a, sizeof(a));
		if (!isnan(c->n.bw[l][LYR_READ]))
			ios_fmt_rate(c->n.bw[l][LYR_READ], b, sizeof(b));
		printf("  %-14s write %-14s read %-14s %s%s%s\n",
		       lyr_layer_names[l], a, b, c->note[l],
		       !c->n.direct[l] && c->note[l][0] ? "; " : "",
		       c->n.direct[l] ? "" : "buffered (no direct I/O)");
	}
	if (verdict)
		fputs(verdict, stdout);
	if (c->cfg->output)
		printf("results: %s\n", c->cfg->output);
	fflush(stdout);
}

/* Rank 0: ceilings, verdict, the last write, the table.  The exit code. */
static int conclude(struct lctx *c)
{
	struct lyr_thresholds t = lyr_default_thresholds;
	struct ios_run *run = &c->lr->run;
	struct lyr_check ck[64];
	int nc, nsus = 0;

	t.tolerance = c->o->tolerance;
	nc = lyr_check_ceilings(&c->n, &t, ck, 64);
	add_layer_rows(c);
	run->verdict = lyr_verdict(&c->n, ck, nc, &t);
	add_fio_check(c, &t, &run->verdict);
	for (int i = 0; i < nc; i++)
		if (ck[i].suspect)
			nsus++;
	ios_runrec_status(run, c->failed || c->invalid ? "failed" : "complete");
	if (save(c->lr) < 0)
		c->failed = true; /* as the plain run */
	if (!c->cfg->quiet)
		print_layers(c, run->verdict);
	return c->failed    ? MB_EXIT_FAILED
	       : c->invalid ? MB_EXIT_INVALID
	       : nsus       ? MB_EXIT_SUSPECT
			    : MB_EXIT_OK;
}

int lyr_main(int argc, char **argv)
{
	struct lyr_opts o;
	struct mb_config cfg;
	struct ios_err err = {0};
	struct lctx c;
	struct lrun lr;
	struct ceph_facts facts = {0};
	int rc, exit_code = MB_EXIT_OK;

	memset(&c, 0, sizeof(c));
	memset(&lr, 0, sizeof(lr));
	MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
	rc = lyr_parse(argc, argv, &o, &cfg, &err);
	if (rc < 0) {
		if (c.rank == 0)
			fprintf(stderr, "iostrata-bench: %s\n", err.msg);
		return MB_EXIT_USAGE;
	}
	if (cfg.help) {
		if (c.rank == 0) {
			mb_config_usage(stdout);
			lyr_usage(stdout);
		}
		mb_config_free(&cfg);
		return MB_EXIT_OK;
	}
	MPI_Bcast(&cfg.seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	if (!cfg.keep) /* SIGTERM: remove the files this rank created */
		mb_own_cleanup_on_signal();
	c.o = &o;
	c.cfg = &cfg;
	for (int l = 0; l < LYR_NLAYERS; l++) {
		c.n.bw[l][0] = c.n.bw[l][1] = NAN;
		c.n.direct[l] = true;
	}
	c.fio_bw[0] = c.fio_bw[1] = NAN;

	rc = check_before_start(&c, &facts);
	if (rc == 0) {
		mb_watchdog_start(on_watchdog);
		rc = open_world(&c);
		if (rc)
			mb_watchdog_stop();
	}
	if (rc) {
		mb_config_free(&cfg);
		return rc;
	}
	g_lc = &c;
	count_nodes(&c, &facts);
	start_record(&c, &lr);

	/* 1. device: one rank per node, direct I/O, fio alongside */
	if (!o.skip[LYR_DEVICE]) {
		run_layer(&c, LYR_DEVICE, c.leaders);
		if (strcmp(o.fio, "none"))
			device_fio(&c, c.devdir, c.w->node);
		nb_quiet_barrier(MPI_COMM_WORLD);
	}
	/* 2. network: every ordered node pair */
	if (!o.skip[LYR_NETWORK])
		run_network(&c);
	/* 3. protocol: rados */
	if (!o.skip[LYR_PROTOCOL])
		run_layer(&c, LYR_PROTOCOL, MPI_COMM_WORLD);
	/* 4. full stack: posix on the mount, then libcephfs */
	if (!o.skip[LYR_FULLSTACK])
		run_layer(&c, LYR_FULLSTACK, MPI_COMM_WORLD);
	if (!o.skip[LYR_FULLLIB])
		run_layer(&c, LYR_FULLLIB, MPI_COMM_WORLD);

	if (c.rank == 0)
		exit_code = conclude(&c);
	MPI_Bcast(&exit_code, 1, MPI_INT, 0, MPI_COMM_WORLD);
	g_lc = NULL;
	mb_watchdog_stop();
	if (c.rank == 0) {
		for (int i = 0; i < lr.run.nphases; i++)
			ios_phase_result_clear(&lr.run.phases[i]);
	}
	if (c.leaders != MPI_COMM_NULL)
		MPI_Comm_free(&c.leaders);
	mb_world_free(c.w);
	mb_config_free(&cfg);
	return exit_code;
}
