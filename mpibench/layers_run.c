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
#include "runwire.h"
#include "summary.h"
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
	int osd_hosts; /* hosts with an OSD (osd metadata), 0 unknown */
	char osds_per_host[512]; /* "s1=1,s2=1,s3=1" */
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

/* The OSDs per host of `osd metadata` ([{"id":0,"hostname":"s1",...}]):
 * f->osd_hosts and f->osds_per_host ("s1=1,s2=1"). */
static void osd_hosts(json_t *j, struct ceph_facts *f)
{
	const char *names[256];
	int count[256], n = 0;
	size_t i, len = 0;
	json_t *o;

	json_array_foreach(j, i, o)
	{
		json_t *h = json_object_get(o, "hostname");
		int k;

		if (!json_is_string(h))
			continue;
		for (k = 0; k < n; k++)
			if (!strcmp(names[k], json_string_value(h)))
				break;
		if (k == n) {
			if (n == 256)
				continue;
			names[n] = json_string_value(h);
			count[n++] = 0;
		}
		count[k]++;
	}
	f->osd_hosts = n;
	f->osds_per_host[0] = '\0';
	for (int k = 0; k < n; k++) {
		int w = snprintf(f->osds_per_host + len,
				 sizeof(f->osds_per_host) - len, "%s%s=%d",
				 k ? "," : "", names[k], count[k]);

		if (w < 0 || (size_t)w >= sizeof(f->osds_per_host) - len) {
			/* too many hosts to list: say so, not a cut name */
			snprintf(f->osds_per_host, sizeof(f->osds_per_host),
				 "%d hosts", n);
			break;
		}
		len += (size_t)w;
	}
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
		if (mon_json(
			    c,
			    "{\"prefix\":\"osd metadata\",\"format\":\"json\"}",
			    &j) == 0) {
			osd_hosts(j, f);
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
	/* Roles (lyr_role_of): the same source on every rank */
	int role;                 /* enum lyr_role of this rank */
	enum lyr_roles_from from; /* where the roles came from */
	MPI_Comm storage; /* device: one rank per storage host, or NULL */
	MPI_Comm clients; /* protocol, full stack: the client ranks, or NULL */
	int *lead_roles;  /* [leaders] the role of each leader (leaders) */
	int *rank_roles;  /* [nranks] the role of every rank (rank 0) */
	struct lrun *lr;  /* rank 0 only */
	struct lyr_numbers n;
	char note[LYR_NLAYERS][256];
	char source[LYR_NLAYERS][32];
	bool failed;  /* a layer could not run (MB_EXIT_FAILED) */
	bool invalid; /* a layer's repetition is invalid (MB_EXIT_INVALID) */
	double fio_bw[2];
	double mpi_bw[2]; /* the network layer by MPI point-to-point */
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

/* Receive into [buf] without spinning (rank 0 waits out a whole layer it
 * does not run, on a machine whose cores the measuring ranks need). */
static int quiet_recv(void *buf, int count, MPI_Datatype type, int src, int tag)
{
	MPI_Request rq;
	int done = 0, rc;

	rc = MPI_Irecv(buf, count, type, src, tag, MPI_COMM_WORLD, &rq);
	while (rc == MPI_SUCCESS && !done) {
		rc = MPI_Test(&rq, &done, MPI_STATUS_IGNORE);
		if (rc == MPI_SUCCESS && !done)
			usleep(2000);
	}
	return rc == MPI_SUCCESS ? 0 : -EIO;
}

#define TAG_PHASE 0x4c00

/*
 * The layer's root (rank 0 of its communicator, not world rank 0) hands
 * one phase to world rank 0, which holds the run record: its result code,
 * its message and the phase as runwire bytes (both ends are this binary).
 */
static void ship_phase(int rc, const struct ios_err *err,
		       struct ios_phase_result *ph)
{
	struct ios_wire w = {0};
	struct ios_run one;
	char *nodes[1] = {NULL};
	int hdr[2];

	memset(&one, 0, sizeof(one));
	one.run_id = one.created_utc = one.tool = one.tool_version = "";
	one.git_revision = one.build_options = one.command_line = "";
	one.status = "";
	one.node_json = nodes;
	if (rc == 0) {
		one.nphases = 1;
		one.phases = ph;
		ios_wire_run(&w, &one);
		if (w.failed)
			rc = w.failed;
	}
	hdr[0] = rc;
	hdr[1] = rc == 0 ? (int)w.len : 0;
	MPI_Send(hdr, 2, MPI_INT, 0, TAG_PHASE, MPI_COMM_WORLD);
	MPI_Send(err->msg, (int)sizeof(err->msg), MPI_CHAR, 0, TAG_PHASE + 1,
		 MPI_COMM_WORLD);
	if (hdr[1])
		MPI_Send(w.p, hdr[1], MPI_BYTE, 0, TAG_PHASE + 2,
			 MPI_COMM_WORLD);
	free(w.p);
}

/* World rank 0: the phase [root] ships; its rc (and [err]), the phase
 * moved into [ph] on success. */
static int fetch_phase(int root, struct ios_phase_result *ph,
		       struct ios_err *err)
{
	struct ios_unwire u = {0};
	struct ios_run *one = NULL;
	uint8_t *bytes = NULL;
	int hdr[2] = {-EIO, 0}, rc;

	memset(ph, 0, sizeof(*ph));
	if (quiet_recv(hdr, 2, MPI_INT, root, TAG_PHASE) < 0 ||
	    quiet_recv(err->msg, (int)sizeof(err->msg), MPI_CHAR, root,
		       TAG_PHASE + 1) < 0)
		return ios_errf(
			err, -EIO,
			"layers: receive a phase from rank %d: MPI failed",
			root);
	err->msg[sizeof(err->msg) - 1] = '\0';
	if (hdr[0] < 0 || hdr[1] <= 0)
		return hdr[0] < 0 ? hdr[0] : -EIO;
	bytes = malloc((size_t)hdr[1]);
	if (!bytes)
		return ios_errf(err, -ENOMEM, "layers: receive a phase: %s",
				strerror(ENOMEM));
	rc = MPI_Recv(bytes, hdr[1], MPI_BYTE, root, TAG_PHASE + 2,
		      MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	u.p = bytes;
	u.len = (size_t)hdr[1];
	if (rc != MPI_SUCCESS)
		rc = ios_errf(
			err, -EIO,
			"layers: receive a phase from rank %d: MPI failed",
			root);
	else if ((rc = ios_unwire_run(&u, &one)) < 0 || one->nphases != 1)
		rc = ios_errf(err, rc < 0 ? rc : -EBADMSG,
			      "layers: decode the phase from rank %d: %s", root,
			      u.bad ? u.bad : "not one phase");
	if (rc == 0) {
		*ph = one->phases[0];
		memset(&one->phases[0], 0, sizeof(one->phases[0]));
	}
	ios_run_free(one);
	free(bytes);
	return rc;
}

/* Ranks of [comm] as world ranks in [ph]'s records (rank 0 of comm):
 * the results file indexes its rank table with them. */
static void world_ranks(struct ios_phase_result *ph, const int *map, int nmap)
{
	for (int r = 0; r < ph->nreps; r++) {
		struct ios_rep_result *rep = &ph->reps[r];

		for (int i = 0; i < rep->nranks; i++)
			if (rep->ranks[i].rank >= 0 &&
			    rep->ranks[i].rank < nmap)
				rep->ranks[i].rank = map[rep->ranks[i].rank];
		for (size_t e = 0; e < rep->nerrors; e++)
			if (rep->errors[e].rank >= 0 &&
			    rep->errors[e].rank < nmap)
				rep->errors[e].rank = map[rep->errors[e].rank];
	}
}

/* Book one finished phase on world rank 0 (see run_layer). */
static void book_phase(struct lctx *c, int layer, int k, int rc,
		       const struct ios_err *err, struct ios_phase_result *ph,
		       bool in_run)
{
	static const enum mb_pattern pats[2] = {MB_PAT_WRITE, MB_PAT_READ};
	static const int dirs[2] = {LYR_WRITE, LYR_READ};
	char why[200] = "";

	if (rc < 0) {
		snprintf(c->note[layer], sizeof(c->note[layer]),
			 "%s failed: %.200s", mb_pattern_name(pats[k]),
			 err->msg);
		fprintf(stderr, "iostrata-bench: layer %s: %s\n",
			lyr_layer_names[layer], err->msg);
		c->failed = true;
	} else {
		c->n.bw[layer][dirs[k]] = phase_bw(ph, why, sizeof(why));
		if (why[0]) {
			snprintf(c->note[layer], sizeof(c->note[layer]),
				 "%s: %s", mb_pattern_name(pats[k]), why);
			c->invalid = true;
		}
		if (in_run) {
			c->lr->run.nphases++;
		} else {
			struct ios_phase_result *slot = new_phase(c->lr);

			if (slot) {
				*slot = *ph;
				memset(ph, 0, sizeof(*ph));
				c->lr->run.nphases++;
			}
		}
	}
	if (!in_run)
		ios_phase_result_clear(ph);
	save(c->lr);
}

/*
 * Run write then read for [layer] on [comm] (ranks outside it skip).
 * World rank 0 holds the record: it books the phases, running them itself
 * when it is in [comm] (rank 0 of it), else receiving them from the root
 * of [comm].  Fills c->n.bw[layer][*] on rank 0.
 */
static void run_layer(struct lctx *c, int layer, MPI_Comm comm)
{
	static const enum mb_pattern pats[2] = {MB_PAT_WRITE, MB_PAT_READ};
	const struct mb_config *lc = &c->lcfg[layer];
	int rank = -1, size = 0, rc = 0, root = -1, *map = NULL;

	c->n.direct[layer] = lc->direct;
	snprintf(c->source[layer], sizeof(c->source[layer]), "iostrata %s",
		 lc->backend ? lc->backend->name : "?");
	if (comm != MPI_COMM_NULL) {
		MPI_Comm_rank(comm, &rank);
		MPI_Comm_size(comm, &size);
	}
	/* who is the root of comm, in the world */
	{
		int me = rank == 0 ? c->rank : -1;

		MPI_Allreduce(&me, &root, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	}
	if (comm != MPI_COMM_NULL) {
		if (rank == 0)
			map = calloc((size_t)size, sizeof(*map));
		MPI_Gather(&c->rank, 1, MPI_INT, map, 1, MPI_INT, 0, comm);
	}
	if (comm == MPI_COMM_NULL && c->rank == 0 && root > 0) {
		/* world rank 0 books what the root runs */
		for (int k = 0; k < 2; k++) {
			struct ios_phase_result ph;
			struct ios_err err = {0};

			rc = fetch_phase(root, &ph, &err);
			book_phase(c, layer, k, rc, &err, &ph, false);
			if (rc < 0)
				break;
		}
	}
	if (comm == MPI_COMM_NULL)
		goto out;
	for (int k = 0; k < 2; k++) {
		struct mb_phase_spec s = {0};
		struct ios_phase_result tmp, *ph = &tmp;
		struct ios_err err = {0};
		bool here = rank == 0 && c->lr;

		memset(&tmp, 0, sizeof(tmp));
		s.cfg = lc;
		s.pattern = pats[k];
		s.layer = lyr_layer_names[layer];
		s.phase_index = c->lr ? c->lr->run.nphases : 0;
		if (here) {
			ph = new_phase(c->lr);
			if (!ph)
				ph = &tmp;
			s.rep_done = lrun_rep_done;
			s.rep_arg = c;
		}
		rc = mb_phase_run(&s, comm, ph, &err);
		if (rank == 0 && map && rc == 0)
			world_ranks(ph, map, size);
		if (here)
			book_phase(c, layer, k, rc, &err, ph, ph != &tmp);
		else if (rank == 0) {
			ship_phase(rc, &err, ph);
			ios_phase_result_clear(&tmp);
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
	free(map);
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
static void device_fio(struct lctx *c, const char *dir)
{
	static const char *const rw[2] = {"write", "read"};
	static const int dirs[2] = {LYR_WRITE, LYR_READ};
	const char *eng = mb_engine_name(c->cfg->ioengine);
	const struct mb_dir *d = NULL;
	char a_name[64], a_file[64], a_rw[32], a_bs[48], a_size[48], a_eng[48],
		a_qd[48], a_rt[48], a_direct[32];
	double mine[2] = {0, 0}, sum[2] = {0, 0};
	int ok = 1, all_ok = 0, nlead, node, fd = -1;
	double got[3] = {NAN, NAN, 0}; /* write, read, all ok */
	struct ios_err err = {0};

	if (c->storage == MPI_COMM_NULL)
		goto out;
	MPI_Comm_size(c->storage, &nlead);
	MPI_Comm_rank(c->storage, &node);
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
		MPI_Barrier(c->storage); /* all device ranks at once */
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
	MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, c->storage);
	MPI_Reduce(mine, sum, 2, MPI_DOUBLE, MPI_SUM, 0, c->storage);
	if (ok < 1)
		fprintf(stderr, "iostrata-bench: %s: device fio: %s\n",
			c->w->host, err.msg);
	got[0] = all_ok == 1 ? sum[LYR_WRITE] : NAN;
	got[1] = all_ok == 1 ? sum[LYR_READ] : NAN;
	got[2] = all_ok;
	(void)nlead;
	/* to world rank 0 (the storage hosts' root may be another rank) */
	if (node == 0 && c->rank != 0)
		MPI_Send(got, 3, MPI_DOUBLE, 0, TAG_PHASE + 3, MPI_COMM_WORLD);
out:
	if (c->rank == 0) {
		if (c->storage == MPI_COMM_NULL &&
		    quiet_recv(got, 3, MPI_DOUBLE, MPI_ANY_SOURCE,
			       TAG_PHASE + 3) < 0)
			got[2] = 0;
		c->fio_bw[LYR_WRITE] = got[0];
		c->fio_bw[LYR_READ] = got[1];
		if (got[2] < 0)
			c->failed = true;
	}
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

/* The communicators and role tables of open_world. */
static void free_comms(struct lctx *c)
{
	MPI_Comm *cs[] = {&c->leaders, &c->storage, &c->clients};

	for (size_t i = 0; i < sizeof(cs) / sizeof(cs[0]); i++)
		if (*cs[i] != MPI_COMM_NULL)
			MPI_Comm_free(cs[i]);
	free(c->lead_roles);
	free(c->rank_roles);
	c->lead_roles = c->rank_roles = NULL;
}

static const char *env_get(const char *name, void *arg)
{
	(void)arg;
	return getenv(name);
}

/*
 * Each rank's role (lyr_role_of, from --layers-storage-nodes or the het
 * job), the same source on every rank, at least one storage host and one
 * client when known.  0, or -EINVAL with a message on rank 0 (every rank
 * returns it).
 */
static int decide_roles(struct lctx *c)
{
	const char *hs = getenv("SLURM_HET_SIZE");
	struct lyr_role_in in = {
		.storage_nodes = c->o->storage_nodes,
		.host = c->w->host,
		.het_size = hs && *hs ? atoi(hs) : 0,
		.het_group = -1,
	};
	struct ios_err err = {0};
	int role, v[4], lo[4], hi[4];

	if (in.het_size > 0)
		in.het_group =
			lyr_het_group(in.het_size, c->w->host, env_get, NULL);
	role = lyr_role_of(&in, &c->from, &err);
	if (role < 0)
		fprintf(stderr, "iostrata-bench: rank %d: %s\n", c->rank,
			err.msg);
	v[0] = role < 0;
	v[1] = (int)c->from;
	v[2] = role == LYR_ROLE_STORAGE && c->w->node_rank == 0;
	v[3] = role == LYR_ROLE_CLIENT;
	MPI_Allreduce(v, hi, 4, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	MPI_Allreduce(v, lo, 4, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	if (hi[0])
		return -EINVAL;
	if (lo[1] != hi[1]) {
		if (c->rank == 0)
			fprintf(stderr,
				"iostrata-bench: layers: roles: the ranks disagree on where the roles come from (some see a heterogeneous job, some not)\n");
		return -EINVAL;
	}
	if (c->from != LYR_ROLES_UNKNOWN && (!hi[2] || !hi[3])) {
		if (c->rank == 0)
			fprintf(stderr,
				"iostrata-bench: layers: roles (from %s): no %s: the layered run needs storage hosts and clients (--layers-storage-nodes=\"%s\")\n",
				lyr_roles_from_names[c->from],
				hi[2] ? "client rank" : "storage host",
				c->o->storage_nodes ? c->o->storage_nodes : "");
		return -EINVAL;
	}
	c->role = role;
	return 0;
}

/*
 * Ranks, nodes, roles, the communicators of the layers (node leaders for
 * the network, storage hosts for the device, clients for the rest) and
 * each layer's configuration; then the posix targets (device dirs, the
 * CephFS mount) exist and take our files, on the ranks that use them,
 * before anything is written.  0, or MB_EXIT_USAGE on every rank (c->w and
 * the communicators released).
 */
static int open_world(struct lctx *c)
{
	const struct lyr_opts *o = c->o;
	struct ios_err err = {0};
	int rc, bad, anybad = 0, nstor = 0, sidx = -1, nclient_nodes = 0;

	mb_watchdog_arm(120.0, "start-up");
	rc = mb_world_create(MPI_COMM_WORLD, &c->w, &err);
	if (rc < 0) {
		fprintf(stderr, "iostrata-bench: rank %d: %s\n", c->rank,
			err.msg);
		MPI_Abort(MPI_COMM_WORLD, MB_EXIT_FAILED);
	}
	mb_watchdog_disarm();
	c->storage = c->clients = MPI_COMM_NULL;
	MPI_Comm_split(MPI_COMM_WORLD, c->w->node_rank == 0 ? 0 : MPI_UNDEFINED,
		       c->w->node, &c->leaders);
	rc = decide_roles(c);
	if (rc == 0) {
		MPI_Comm_split(MPI_COMM_WORLD,
			       c->w->node_rank == 0 &&
					       c->role != LYR_ROLE_CLIENT
				       ? 0
				       : MPI_UNDEFINED,
			       c->w->node, &c->storage);
		MPI_Comm_split(MPI_COMM_WORLD,
			       c->role != LYR_ROLE_STORAGE ? 0 : MPI_UNDEFINED,
			       c->rank, &c->clients);
		if (c->storage != MPI_COMM_NULL) {
			MPI_Comm_rank(c->storage, &sidx);
			MPI_Comm_size(c->storage, &nstor);
		}
		/* every rank: the device targets and the client hosts */
		{
			int v[2] = {sidx == 0 ? nstor : 0,
				    c->w->node_rank == 0 &&
					    c->role != LYR_ROLE_STORAGE},
			    sum[2];

			MPI_Allreduce(v, sum, 2, MPI_INT, MPI_SUM,
				      MPI_COMM_WORLD);
			nstor = sum[0];
			nclient_nodes = sum[1];
		}
		c->n.roles_known = c->from != LYR_ROLES_UNKNOWN;
		c->n.device_ranks = nstor;
		c->n.storage_nodes = nstor;
		c->n.clients = c->n.roles_known ? nclient_nodes : 0;
		if (c->leaders != MPI_COMM_NULL) {
			int nl;

			MPI_Comm_size(c->leaders, &nl);
			c->lead_roles = calloc((size_t)nl, sizeof(int));
			if (!c->lead_roles)
				MPI_Abort(MPI_COMM_WORLD, MB_EXIT_FAILED);
			MPI_Allgather(&c->role, 1, MPI_INT, c->lead_roles, 1,
				      MPI_INT, c->leaders);
		}
		if (c->rank == 0) {
			c->rank_roles =
				calloc((size_t)c->w->nranks, sizeof(int));
			if (!c->rank_roles)
				MPI_Abort(MPI_COMM_WORLD, MB_EXIT_FAILED);
		}
		MPI_Gather(&c->role, 1, MPI_INT, c->rank_roles, 1, MPI_INT, 0,
			   MPI_COMM_WORLD);
	}
	if (rc == 0 && !o->skip[LYR_DEVICE] && sidx >= 0)
		/* %n: the index among the device targets (the node index
		 * when roles are unknown) */
		expand(o->device_dir, sidx, c->w->host, c->devdir,
		       sizeof(c->devdir));
	for (int l = 0; rc == 0 && l < LYR_NLAYERS; l++)
		lyr_layer_config(c->cfg, o, l, c->devdir,
				 c->n.roles_known ? c->n.clients : c->w->nnodes,
				 &c->lcfg[l]);

	if (rc == 0 && !o->skip[LYR_DEVICE] && sidx >= 0) {
		rc = mb_config_check_target(&c->lcfg[LYR_DEVICE], sidx, nstor,
					    1, &err);
		if (rc < 0)
			fprintf(stderr,
				"iostrata-bench: rank %d: device layer: --layers-device-dir: %s\n",
				c->rank, err.msg);
	}
	if (rc == 0 && !o->skip[LYR_FULLSTACK] && c->clients != MPI_COMM_NULL) {
		int cr, cn;

		MPI_Comm_rank(c->clients, &cr);
		MPI_Comm_size(c->clients, &cn);
		rc = mb_config_check_target(&c->lcfg[LYR_FULLSTACK], cr, cn,
					    c->w->ranks_on_node, &err);
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
	free_comms(c);
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
	/* device_ranks, storage_nodes, clients: open_world; the links
	 * carrying Ceph traffic are every OSD host's, when known */
	if (c->n.roles_known && facts->osd_hosts > 0)
		c->n.storage_nodes = facts->osd_hosts;
	c->n.replicas = facts->pool_size > 0 ? facts->pool_size : 0;
	c->n.fs_replicas = facts->fs_size > 0 ? facts->fs_size : 0;
	c->n.osds = c->o->osds ? c->o->osds : facts->osds_up;
}

/* Does layer [l] run on a rank of role [role]? */
static bool runs_on(int l, int role)
{
	if (role == LYR_ROLE_ALL || l == LYR_NETWORK)
		return true;
	return l == LYR_DEVICE ? role == LYR_ROLE_STORAGE
			       : role == LYR_ROLE_CLIENT;
}

/* Rank 0: who ran which layer, into the record: layers.roles (unknown,
 * hetjob, option), layers.clients, layers.osds_per_host and
 * layers.<layer>.hosts, the hosts (comma-separated, in rank order) of the
 * ranks that run that layer. */
static int record_roles(struct lctx *c, const struct ceph_facts *facts)
{
	struct ios_run *r = &c->lr->run;
	int rc = 0;

	rc |= ios_runrec_kv(r, "layers.roles", "%s",
			    lyr_roles_from_names[c->from]);
	rc |= ios_runrec_kv(r, "layers.clients", "%d", c->n.clients);
	rc |= ios_runrec_kv(r, "layers.osds_per_host", "%s",
			    facts->osds_per_host);
	for (int l = 0; l < LYR_NLAYERS; l++) {
		size_t cap = (size_t)c->w->nranks * 65 + 1, len = 0;
		char key[64], *list;

		if (c->o->skip[l])
			continue;
		list = calloc(cap, 1);
		if (!list)
			return -ENOMEM;
		for (int i = 0; i < c->w->nranks; i++) {
			const char *h = c->w->ri[i].host;
			bool dup = false;

			if (!runs_on(l, c->rank_roles[i]))
				continue;
			for (int j = 0; j < i && !dup; j++)
				dup = runs_on(l, c->rank_roles[j]) &&
				      !strcmp(c->w->ri[j].host, h);
			if (!dup)
				len += (size_t)snprintf(list + len, cap - len,
							"%s%s", len ? "," : "",
							h);
		}
		snprintf(key, sizeof(key), "layers.%s.hosts",
			 lyr_layer_names[l]);
		rc |= ios_runrec_kv(r, key, "%s", list);
		free(list);
	}
	return rc ? -ENOMEM : 0;
}

/* The run record (rank 0), the nodes' hardware, the first write. */
static void start_record(struct lctx *c, struct lrun *lr,
			 const struct ceph_facts *facts)
{
	const struct mb_config *cfg = c->cfg;

	if (c->rank == 0) {
		struct ios_run *r = &lr->run;
		struct ios_ceph_opts co;

		lr->output = cfg->output;
		c->lr = lr;
		if (lyr_runrec_start(r, cfg, c->o, &c->n) ||
		    record_roles(c, facts)) {
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
	mb_gather_node_json(c->w, cfg->dir, &lr->run);
	if (c->rank == 0)
		save(lr);
}

/* Slowest pair of a kind: cluster (storage <-> storage) or public
 * (client <-> storage); every pair when [roles] is NULL.  0 when none. */
static double slowest(const struct ios_net_pair *p, const double *bw, size_t n,
		      const int *roles, int kind)
{
	double mn = 0;

	for (size_t i = 0; i < n; i++) {
		bool cl = roles && roles[p[i].src_node] == LYR_ROLE_STORAGE &&
			  roles[p[i].dst_node] == LYR_ROLE_STORAGE;

		if (roles && (kind == 1) != cl)
			continue;
		if (mn == 0 || bw[i] < mn)
			mn = bw[i];
	}
	return mn;
}

/* The network layer's numbers from pair bandwidths [bw] (lyr_net_numbers
 * on the counts of [c]): out[LYR_READ], out[LYR_WRITE]. */
static void net_numbers(const struct lctx *c, const struct ios_net_pair *p,
			const double *bw, size_t n, struct lyr_numbers *out)
{
	const int *roles = c->n.roles_known ? c->lead_roles : NULL;

	*out = c->n;
	out->net_link_min = slowest(p, bw, n, NULL, 0);
	out->net_public_min = roles ? slowest(p, bw, n, roles, 0) : 0;
	out->net_cluster_min = roles ? slowest(p, bw, n, roles, 1) : 0;
	lyr_net_numbers(out);
}

/* The network layer on the node leaders: TCP streams (the layer's number)
 * and MPI point-to-point (an extra row, network-mpi) between every ordered
 * pair, or with roles known between the storage hosts (cluster network)
 * and between clients and storage hosts (public network). */
static void run_network(struct lctx *c)
{
	const struct nb_opts *net = &c->o->net;
	struct nb_result res;
	struct ios_err err = {0};
	double mn, med, lat;

	memset(&res, 0, sizeof(res));
	if (c->leaders != MPI_COMM_NULL &&
	    nb_run(c->leaders, net, c->n.roles_known ? c->lead_roles : NULL,
		   c->w->host, &res, &err) < 0 &&
	    c->rank == 0) {
		snprintf(c->note[LYR_NETWORK], 256, "%.250s", err.msg);
		c->failed = true;
	}
	if (c->rank == 0) {
		struct ios_net_pair *p = res.pairs;
		struct lyr_numbers tn, mn_mpi;
		double *tbw = calloc(res.npairs + 1, sizeof(double));

		for (size_t i = 0; tbw && i < res.npairs; i++)
			tbw[i] = p[i].bw;
		nb_summary(p, res.npairs, &mn, &med, &lat);
		c->lr->run.net = p;
		c->lr->run.nnet = res.npairs;
		if (res.npairs && tbw) {
			char kinds[192] = "";

			net_numbers(c, p, tbw, res.npairs, &tn);
			net_numbers(c, p, res.mpi_bw, res.npairs, &mn_mpi);
			c->n.net_link_min = tn.net_link_min;
			c->n.net_public_min = tn.net_public_min;
			c->n.net_cluster_min = tn.net_cluster_min;
			c->n.bw[LYR_NETWORK][LYR_READ] =
				tn.bw[LYR_NETWORK][LYR_READ];
			c->n.bw[LYR_NETWORK][LYR_WRITE] =
				tn.bw[LYR_NETWORK][LYR_WRITE];
			c->mpi_bw[LYR_READ] = mn_mpi.bw[LYR_NETWORK][LYR_READ];
			c->mpi_bw[LYR_WRITE] =
				mn_mpi.bw[LYR_NETWORK][LYR_WRITE];
			if (c->n.roles_known)
				snprintf(
					kinds, sizeof(kinds),
					"public (client-storage) slowest %.3g GB/s, cluster (storage-storage) slowest %.3g GB/s; ",
					tn.net_public_min / 1e9,
					tn.net_cluster_min / 1e9);
			snprintf(
				c->note[LYR_NETWORK], 256,
				"%zu node pairs, %d TCP streams%s: %sslowest %.3g GB/s, median %.3g GB/s; MPI latency %.1f us%s",
				res.npairs, net->streams,
				res.tcp_pairs == res.npairs
					? ""
					: " (MPI figure where TCP failed)",
				kinds, mn / 1e9, med / 1e9, lat / 1e3,
				c->n.one_host ? "; one host: not a real network"
					      : "");
			if (res.tcp_pairs != res.npairs)
				fprintf(stderr,
					"iostrata-bench: network layer: TCP stream test failed for %zu of %zu pairs (the MPI figure stands in): %s\n",
					res.npairs - res.tcp_pairs, res.npairs,
					res.tcp_error);
		} else if (!c->note[LYR_NETWORK][0]) {
			snprintf(c->note[LYR_NETWORK], 256,
				 "one node: no pair to measure");
		}
		free(tbw);
		free(res.mpi_bw);
		snprintf(c->source[LYR_NETWORK], 32, "TCP streams");
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
		if (l == LYR_NETWORK && !isnan(c->mpi_bw[LYR_READ]))
			add_layer(
				c, "network-mpi", "MPI point-to-point",
				c->mpi_bw[LYR_READ], c->mpi_bw[LYR_WRITE],
				"the same pairs and aggregation with MPI messages (not a ceiling)");
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
	if (!isnan(c->mpi_bw[LYR_READ])) {
		char a[32], b[32];

		ios_fmt_rate(c->mpi_bw[LYR_WRITE], a, sizeof(a));
		ios_fmt_rate(c->mpi_bw[LYR_READ], b, sizeof(b));
		printf("  %-14s write %-14s read %-14s the network layer's pairs by MPI point-to-point (not a ceiling)\n",
		       "network-mpi", a, b);
	}
	for (int l = 0; l < LYR_NLAYERS; l++) {
		char key[64];
		const char *h;

		snprintf(key, sizeof(key), "layers.%s.hosts",
			 lyr_layer_names[l]);
		h = ios_runrec_get(&c->lr->run, key);
		if (h && !c->o->skip[l])
			printf("  %-14s ran on %s\n", lyr_layer_names[l], h);
	}
	printf("  roles: %s\n",
	       c->from == LYR_ROLES_HETJOB
		       ? "from the heterogeneous job (its last component: the storage hosts)"
	       : c->from == LYR_ROLES_OPTION
		       ? "from --layers-storage-nodes"
		       : "not known (no heterogeneous job, no --layers-storage-nodes): all nodes did all layers");
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
	if (c->cfg->summary == MB_SUM_JSON) {
		const struct mb_summary_extra x = {
			.backend = "layers",
			.output = c->cfg->output,
		};

		mb_summary_json(run, !c->failed && !c->invalid && !nsus, &x);
	} else if (c->cfg->summary == MB_SUM_TEXT && !c->cfg->quiet) {
		print_layers(c, run->verdict);
	}
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
	c.mpi_bw[0] = c.mpi_bw[1] = NAN;

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
	start_record(&c, &lr, &facts);

	/* 1. device: one rank per storage host, direct I/O, fio alongside */
	if (!o.skip[LYR_DEVICE]) {
		run_layer(&c, LYR_DEVICE, c.storage);
		if (strcmp(o.fio, "none"))
			device_fio(&c, c.devdir);
		nb_quiet_barrier(MPI_COMM_WORLD);
	}
	/* 2. network: storage <-> storage, client <-> storage */
	if (!o.skip[LYR_NETWORK])
		run_network(&c);
	/* 3. protocol: rados */
	if (!o.skip[LYR_PROTOCOL])
		run_layer(&c, LYR_PROTOCOL, c.clients);
	/* 4. full stack from the clients: posix on the mount, libcephfs */
	if (!o.skip[LYR_FULLSTACK])
		run_layer(&c, LYR_FULLSTACK, c.clients);
	if (!o.skip[LYR_FULLLIB])
		run_layer(&c, LYR_FULLLIB, c.clients);

	if (c.rank == 0)
		exit_code = conclude(&c);
	MPI_Bcast(&exit_code, 1, MPI_INT, 0, MPI_COMM_WORLD);
	g_lc = NULL;
	mb_watchdog_stop();
	if (c.rank == 0) {
		for (int i = 0; i < lr.run.nphases; i++)
			ios_phase_result_clear(&lr.run.phases[i]);
	}
	free_comms(&c);
	mb_world_free(c.w);
	mb_config_free(&cfg);
	return exit_code;
}
