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
#include "runrec.h"
#include "layers.h"
#include "layers_run.h"
#include "mb_config.h"
#include "netbench.h"
#include "ownfile.h"
#include "phase.h"
#include "units.h"
#include "watchdog.h"

#define EXIT_OK 0
#define EXIT_SUSPECT 1
#define EXIT_USAGE 2
#define MAX_ARGS 256

/* What the layered run is told besides iostrata-bench's own options. */
struct lyr_opts {
	bool skip[LYR_NLAYERS];
	const char *device_dir; /* pattern: %n node index, %h node name */
	const char *fio;        /* fio binary, or "none" */
	struct nb_opts net;
	const char *cephfs_dir; /* libcephfs layer: path inside CephFS */
	int osds;               /* 0: ask the cluster */
	double tolerance;
	/* Ceph options handed to the rados and cephfs backends */
	int nceph;
	struct mb_bopt ceph[8];
};

static const char *const ceph_opt_names[] = {
	"rados-pool",   "ceph-conf",    "ceph-id",
	"ceph-keyring", "ceph-timeout", "cephfs-root",
};

void lyr_usage(FILE *f)
{
	fputs("Layered run (seeds/003): iostrata-bench --layers [options]\n"
	      "  --layers                    device, network, protocol, full stack into one results file\n"
	      "  --layers-device-dir=PATTERN directory on the OSDs' filesystem per node (%n node index,\n"
	      "                              %h node name); default: no device layer\n"
	      "  --layers-skip=LIST          skip layers: device,network,protocol,fullstack,fullstack-lib\n"
	      "  --layers-fio=PATH|none      fio for the device cross-check (default: fio)\n"
	      "  --layers-net-msg=SIZE       network message size (default 8M)\n"
	      "  --layers-net-streams=N      concurrent messages per pair (default 4)\n"
	      "  --layers-net-time=SECONDS   bandwidth time per node pair (default 1)\n"
	      "  --layers-osds=N             OSDs behind the pool (default: asked from the cluster)\n"
	      "  --layers-tolerance=FRACTION ceiling slack for noise (default 0.10)\n"
	      "  --cephfs-dir=PATH           directory inside CephFS for the libcephfs layer\n"
	      "                              (default: no libcephfs layer)\n"
	      "  --rados-pool=POOL --ceph-conf=FILE --ceph-id=ID --ceph-keyring=FILE\n"
	      "  --ceph-timeout=SECONDS --cephfs-root=PATH   as for the rados/cephfs backends\n"
	      "  --dir=PATH                  the CephFS mount (posix full stack); --buffered applies to\n"
	      "                              the full-stack layers only (device and protocol stay direct)\n",
	      f);
}

bool lyr_requested(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--layers"))
			return true;
	return false;
}

static int layer_index(const char *s, size_t len)
{
	for (int l = 0; l < LYR_NLAYERS; l++)
		if (strlen(lyr_layer_names[l]) == len &&
		    !strncmp(lyr_layer_names[l], s, len))
			return l;
	return -1;
}

/* Split argv: the layered options into [o], the rest into [rest]. */
static int parse_layer_opts(int argc, char **argv, struct lyr_opts *o,
			    char **rest, int *nrest, bool *have_dir,
			    struct ios_err *err)
{
	int i;

	memset(o, 0, sizeof(*o));
	nb_opts_default(&o->net);
	o->fio = "fio";
	o->tolerance = lyr_default_thresholds.tolerance;
	*nrest = 0;
	*have_dir = false;
	rest[(*nrest)++] = argv[0];
	for (i = 1; i < argc; i++) {
		char *a = argv[i], *v = strchr(a, '=');
		size_t nl = v ? (size_t)(v - a) : strlen(a);
		bool ceph = false;
		uint64_t u;
		int rc = 0;

		if (v)
			v++;
		if (!strcmp(a, "--layers"))
			continue;
		for (size_t k = 0;
		     k < sizeof(ceph_opt_names) / sizeof(ceph_opt_names[0]);
		     k++) {
			if (nl == strlen(ceph_opt_names[k]) + 2 &&
			    !strncmp(a + 2, ceph_opt_names[k], nl - 2)) {
				if (!v || !*v)
					return ios_errf(
						err, -EINVAL,
						"--%s: needs a value (--%s=VALUE)",
						ceph_opt_names[k],
						ceph_opt_names[k]);
				o->ceph[o->nceph].name = ceph_opt_names[k];
				o->ceph[o->nceph].value = v;
				o->nceph++;
				ceph = true;
				break;
			}
		}
		if (ceph)
			continue;
		if (!strncmp(a, "--layers-", 9) ||
		    !strncmp(a, "--cephfs-dir", nl)) {
			if (!v || !*v)
				return ios_errf(
					err, -EINVAL,
					"%.*s: needs a value (see --help)",
					(int)nl, a);
		}
		if (!strncmp(a, "--layers-device-dir=", 20)) {
			o->device_dir = v;
		} else if (!strncmp(a, "--layers-fio=", 13)) {
			o->fio = v;
		} else if (!strncmp(a, "--cephfs-dir=", 13)) {
			o->cephfs_dir = v;
		} else if (!strncmp(a, "--layers-skip=", 14)) {
			const char *p = v;

			while (*p) {
				size_t l = strcspn(p, ",");
				int li = layer_index(p, l);

				if (li < 0)
					return ios_errf(
						err, -EINVAL,
						"--layers-skip: unknown layer \"%.*s\" (accepted: device, network, protocol, fullstack, fullstack-lib)",
						(int)l, p);
				o->skip[li] = true;
				p += l + (p[l] == ',');
			}
		} else if (!strncmp(a, "--layers-net-msg=", 17)) {
			rc = ios_parse_size(v, "--layers-net-msg",
					    &o->net.msg_bytes, err);
		} else if (!strncmp(a, "--layers-net-streams=", 21)) {
			rc = ios_parse_uint(v, "--layers-net-streams", 1, 64,
					    &u, err);
			o->net.streams = (int)u;
		} else if (!strncmp(a, "--layers-net-time=", 18)) {
			rc = ios_parse_duration(v, "--layers-net-time",
						&o->net.seconds, err);
		} else if (!strncmp(a, "--layers-osds=", 14)) {
			rc = ios_parse_uint(v, "--layers-osds", 1, 100000, &u,
					    err);
			o->osds = (int)u;
		} else if (!strncmp(a, "--layers-tolerance=", 19)) {
			char *end;

			o->tolerance = strtod(v, &end);
			if (*end || o->tolerance < 0 || o->tolerance > 1)
				return ios_errf(
					err, -EINVAL,
					"--layers-tolerance: \"%s\" is not a fraction (accepted: 0 to 1, e.g. 0.10)",
					v);
		} else if (!strncmp(a, "--layers", 8)) {
			return ios_errf(
				err, -EINVAL,
				"unknown option \"%.*s\" (see --help for the layered options)",
				(int)nl, a);
		} else {
			if (!strncmp(a, "--backend", 9) ||
			    !strncmp(a, "--rw", 4))
				return ios_errf(
					err, -EINVAL,
					"%.*s: not with --layers (each layer picks its backend; the layers run write then read)",
					(int)nl, a);
			if (!strncmp(a, "--dir=", 6))
				*have_dir = true;
			if (*nrest >= MAX_ARGS - 4)
				return ios_errf(err, -EINVAL,
						"too many arguments");
			rest[(*nrest)++] = a;
		}
		if (rc < 0)
			return rc;
	}
	if (!o->device_dir)
		o->skip[LYR_DEVICE] = true;
	if (!o->cephfs_dir)
		o->skip[LYR_FULLLIB] = true;
	if (!*have_dir)
		o->skip[LYR_FULLSTACK] = true;
	return 0;
}

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

static char *xstrdup(const char *s)
{
	return strdup(s ? s : "");
}

__attribute__((format(printf, 3, 4))) static void
add_kv(struct ios_run *run, const char *k, const char *fmt, ...)
{
	struct ios_kv *kv;
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	kv = realloc(run->config, (run->nconfig + 1) * sizeof(*kv));
	if (!kv)
		return;
	run->config = kv;
	kv[run->nconfig].key = strdup(k);
	kv[run->nconfig].value = strdup(buf);
	run->nconfig++;
}

static void set_status(struct ios_run *run, const char *s)
{
	free(run->status);
	run->status = strdup(s);
}

static void save(struct lrun *lr)
{
	struct ios_err e = {0};

	if (!lr->output)
		return;
	if (mb_h5_write(lr->output, &lr->run, &e) < 0)
		fprintf(stderr, "iostrata-bench: %s\n", e.msg);
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
static void save_invalid(const struct mb_config *cfg, const struct ios_err *e)
{
	struct lrun lr;
	char *v = NULL;

	if (!cfg->output)
		return;
	memset(&lr, 0, sizeof(lr));
	lr.output = cfg->output;
	lr.run.run_id = mb_run_id();
	lr.run.created_utc = mb_now_utc();
	lr.run.tool = strdup("iostrata-bench");
	lr.run.tool_version = strdup(PACKAGE_VERSION);
	lr.run.git_revision = strdup(IOSTRATA_GIT_REVISION);
	lr.run.build_options = strdup("");
	lr.run.command_line = xstrdup(cfg->command_line);
	lr.run.status = strdup("failed");
	add_kv(&lr.run, "layers", "1");
	if (asprintf(&v, "invalid: the layered run did not start: %s", e->msg) <
	    0)
		v = NULL;
	lr.run.verdict = v;
	save(&lr);
	ios_run_clear(&lr.run); /* frees v, the verdict, too */
}

/* ---- layers ------------------------------------------------------- */

struct lctx {
	struct lyr_opts *o;
	const struct mb_config *cfg; /* parsed common options */
	struct mb_config ceph_cfg;   /* cfg + Ceph options */
	struct mb_world *w;
	MPI_Comm leaders; /* one rank per node; MPI_COMM_NULL elsewhere */
	struct lrun *lr;  /* rank 0 only */
	struct lyr_numbers n;
	char note[LYR_NLAYERS][256];
	char source[LYR_NLAYERS][32];
	bool failed;
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
static void run_layer(struct lctx *c, int layer, MPI_Comm comm,
		      const char *backend, const char *dir,
		      const struct mb_config *cfg, bool direct,
		      unsigned int iodepth, bool reorder)
{
	static const enum mb_pattern pats[2] = {MB_PAT_WRITE, MB_PAT_READ};
	static const int dirs[2] = {LYR_WRITE, LYR_READ};
	int rank = -1, rc = 0;

	c->n.direct[layer] = direct;
	snprintf(c->source[layer], sizeof(c->source[layer]), "iostrata %s",
		 backend);
	if (comm == MPI_COMM_NULL)
		goto out;
	MPI_Comm_rank(comm, &rank);
	for (int k = 0; k < 2; k++) {
		struct mb_phase_spec s = {0};
		struct ios_phase_result tmp, *ph = &tmp;
		struct ios_err err = {0};
		char why[200] = "";

		s.pattern = pats[k];
		s.backend = backend;
		s.dir = dir;
		s.bs = c->cfg->bs;
		s.size = c->cfg->size;
		s.iodepth = iodepth;
		s.iodepth_batch = c->cfg->iodepth_batch < iodepth
					  ? c->cfg->iodepth_batch
					  : iodepth;
		s.ioengine = c->cfg->ioengine;
		s.runtime = c->cfg->runtime;
		s.reps = c->cfg->reps;
		s.interval = c->cfg->interval;
		s.direct = direct;
		s.fsync = c->cfg->fsync;
		s.verify = c->cfg->verify;
		s.reorder = reorder && pats[k] == MB_PAT_READ;
		s.layer = lyr_layer_names[layer];
		s.cfg = cfg;
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
					c->failed = true;
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
		struct mb_phase_spec s = {0};
		struct ios_err err = {0};

		s.pattern = MB_PAT_WRITE;
		s.backend = backend;
		s.dir = dir;
		s.bs = c->cfg->bs;
		s.size = c->cfg->size;
		s.cfg = cfg;
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
		set_status(&g_lc->lr->run, "failed");
		save(g_lc->lr);
	}
	MPI_Abort(MPI_COMM_WORLD, 3);
	_exit(3);
}

int lyr_main(int argc, char **argv)
{
	struct lyr_opts o;
	struct mb_config cfg;
	struct ios_err err = {0};
	struct lctx c;
	struct lrun lr;
	struct ceph_facts facts = {0};
	struct ios_ceph_opts copts = {0};
	char *rest[MAX_ARGS];
	int nrest, rank, nranks, rc, exit_code = EXIT_OK;
	bool have_dir;
	char host[64] = "", devdir[4096] = "";

	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	memset(&c, 0, sizeof(c));
	memset(&lr, 0, sizeof(lr));
	rc = parse_layer_opts(argc, argv, &o, rest, &nrest, &have_dir, &err);
	if (rc == 0) {
		rest[nrest++] = have_dir ? "--backend=posix" : "--backend=null";
		rest[nrest] = NULL;
		rc = mb_config_parse(&cfg, nrest, rest, &err);
	}
	if (rc < 0) {
		if (rank == 0)
			fprintf(stderr, "iostrata-bench: %s\n", err.msg);
		return EXIT_USAGE;
	}
	if (cfg.help) {
		if (rank == 0) {
			mb_config_usage(stdout);
			lyr_usage(stdout);
		}
		mb_config_free(&cfg);
		return EXIT_OK;
	}
	MPI_Bcast(&cfg.seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	if (!cfg.keep) /* SIGTERM: remove the files this rank created */
		mb_own_cleanup_on_signal();
	c.o = &o;
	c.cfg = &cfg;
	c.ceph_cfg = cfg;
	c.ceph_cfg.nbopts = o.nceph;
	for (int i = 0; i < o.nceph; i++)
		c.ceph_cfg.bopts[i] = o.ceph[i];
	for (int l = 0; l < LYR_NLAYERS; l++) {
		c.n.bw[l][0] = c.n.bw[l][1] = NAN;
		c.n.direct[l] = true;
	}
	c.fio_bw[0] = c.fio_bw[1] = NAN;

	/* The output is new; Ceph is reachable and the pool is there:
	 * checked before anything is touched. */
	rc = 0;
	if (rank == 0 && cfg.output && !cfg.force &&
	    access(cfg.output, F_OK) == 0)
		rc = ios_errf(
			&err, -EEXIST,
			"--output: \"%s\" exists: refusing to overwrite it (accepted: a new file name, or --force)",
			cfg.output);
	if (rank == 0 && rc == 0)
		rc = mb_ceph_opts(&c.ceph_cfg, &copts, &err);
	if (rank == 0 && rc == 0 &&
	    (!o.skip[LYR_PROTOCOL] || !o.skip[LYR_FULLLIB] ||
	     !o.skip[LYR_FULLSTACK]))
		rc = ceph_preflight(&o, &copts, !o.skip[LYR_PROTOCOL], &facts,
				    &err);
	MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (rc < 0) {
		if (rank == 0) {
			fprintf(stderr, "iostrata-bench: %s\n", err.msg);
			fprintf(stderr,
				"iostrata-bench: layered run invalid: nothing was written to the cluster or the disks\n");
			if (rc != -EEXIST)
				save_invalid(&cfg, &err);
		}
		mb_config_free(&cfg);
		return EXIT_USAGE;
	}
	mb_watchdog_start(on_watchdog);
	mb_watchdog_arm(120.0, "start-up");
	rc = mb_world_create(MPI_COMM_WORLD, &c.w, &err);
	if (rc < 0) {
		fprintf(stderr, "iostrata-bench: rank %d: %s\n", rank, err.msg);
		MPI_Abort(MPI_COMM_WORLD, 3);
	}
	mb_watchdog_disarm();
	MPI_Comm_split(MPI_COMM_WORLD, c.w->node_rank == 0 ? 0 : MPI_UNDEFINED,
		       c.w->node, &c.leaders);

	/* The posix targets (device dirs, the CephFS mount) exist and take
	 * our files, on every rank, before anything is written. */
	rc = 0;
	if (!o.skip[LYR_DEVICE] && c.leaders != MPI_COMM_NULL) {
		struct mb_config dc = cfg;
		int lr_rank;

		expand(o.device_dir, c.w->node, c.w->host, devdir,
		       sizeof(devdir));
		dc.dir = devdir;
		dc.direct = true;
		MPI_Comm_rank(c.leaders, &lr_rank);
		rc = mb_config_check_target(&dc, lr_rank, c.w->nnodes, 1, &err);
		if (rc < 0)
			fprintf(stderr,
				"iostrata-bench: rank %d: device layer: --layers-device-dir: %s\n",
				rank, err.msg);
	}
	if (rc == 0 && !o.skip[LYR_FULLSTACK]) {
		rc = mb_config_check_target(&cfg, rank, nranks,
					    c.w->ranks_on_node, &err);
		if (rc < 0)
			fprintf(stderr,
				"iostrata-bench: rank %d: full stack: %s\n",
				rank, err.msg);
	}
	{
		int bad = rc < 0, anybad = 0;

		MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX,
			      MPI_COMM_WORLD);
		if (anybad) {
			if (rank == 0)
				fprintf(stderr,
					"iostrata-bench: layered run invalid: nothing was written\n");
			if (c.leaders != MPI_COMM_NULL)
				MPI_Comm_free(&c.leaders);
			mb_world_free(c.w);
			mb_config_free(&cfg);
			return EXIT_USAGE;
		}
	}
	g_lc = &c;

	/* one host? (hostnames, not Slurm node names) */
	{
		char *all = NULL;
		int same = 1;

		gethostname(host, sizeof(host) - 1);
		if (rank == 0)
			all = calloc((size_t)nranks, sizeof(host));
		MPI_Gather(host, sizeof(host), MPI_CHAR, all, sizeof(host),
			   MPI_CHAR, 0, MPI_COMM_WORLD);
		if (rank == 0) {
			for (int i = 1; i < nranks && all; i++)
				if (strcmp(all, all + (size_t)i * sizeof(host)))
					same = 0;
			c.n.one_host = same;
		}
		free(all);
	}
	c.n.device_ranks = c.w->nnodes;
	c.n.storage_nodes = c.w->nnodes;
	c.n.replicas = facts.pool_size > 0 ? facts.pool_size : 0;
	c.n.fs_replicas = facts.fs_size > 0 ? facts.fs_size : 0;
	c.n.osds = o.osds ? o.osds : facts.osds_up;

	/* The run record. */
	if (rank == 0) {
		struct ios_run *r = &lr.run;

		lr.output = cfg.output;
		c.lr = &lr;
		r->run_id = mb_run_id();
		r->created_utc = mb_now_utc();
		r->tool = strdup("iostrata-bench");
		r->tool_version = strdup(PACKAGE_VERSION);
		r->git_revision = strdup(IOSTRATA_GIT_REVISION);
		r->build_options = strdup("");
		r->command_line = xstrdup(cfg.command_line);
		r->status = strdup("running");
		r->nranks = nranks;
		r->rank_info = c.w->ri;
		r->job_json = mb_hw_job_json();
		r->ceph_json = mb_hw_ceph_json(&copts, cfg.dir);
		add_kv(r, "layers", "1");
		add_kv(r, "bs", "%" PRIu64, cfg.bs);
		add_kv(r, "size", "%" PRIu64, cfg.size);
		add_kv(r, "iodepth", "%u", cfg.iodepth);
		add_kv(r, "iodepth_batch", "%u", cfg.iodepth_batch);
		add_kv(r, "ioengine", "%s", mb_engine_name(cfg.ioengine));
		add_kv(r, "runtime", "%g", cfg.runtime);
		add_kv(r, "reps", "%u", cfg.reps);
		add_kv(r, "direct", "%d", cfg.direct);
		add_kv(r, "dir", "%s", cfg.dir ? cfg.dir : "");
		add_kv(r, "seed", "%" PRIu64, cfg.seed);
		for (int i = 0; i < o.nceph; i++)
			add_kv(r, o.ceph[i].name, "%s", o.ceph[i].value);
		add_kv(r, "layers.device_dir", "%s",
		       o.device_dir ? o.device_dir : "");
		add_kv(r, "layers.cephfs_dir", "%s",
		       o.cephfs_dir ? o.cephfs_dir : "");
		add_kv(r, "layers.replicas", "%d", c.n.replicas);
		add_kv(r, "layers.fs_replicas", "%d", c.n.fs_replicas);
		add_kv(r, "layers.osds", "%d", c.n.osds);
		add_kv(r, "layers.device_ranks", "%d", c.n.device_ranks);
		add_kv(r, "layers.storage_nodes", "%d", c.n.storage_nodes);
		add_kv(r, "layers.one_host", "%d", c.n.one_host);
		add_kv(r, "layers.tolerance", "%g", o.tolerance);
	}
	mb_gather_node_json(c.w, cfg.dir, &lr.run);
	if (rank == 0)
		save(&lr);

	/* 1. device: one rank per node, direct I/O, fio alongside */
	if (!o.skip[LYR_DEVICE]) {
		expand(o.device_dir, c.w->node, c.w->host, devdir,
		       sizeof(devdir));
		run_layer(&c, LYR_DEVICE, c.leaders, "posix", devdir, &cfg,
			  true, cfg.iodepth, false);
		if (strcmp(o.fio, "none"))
			device_fio(&c, devdir, c.w->node);
		nb_quiet_barrier(MPI_COMM_WORLD);
	}
	/* 2. network: every ordered node pair */
	if (!o.skip[LYR_NETWORK]) {
		struct ios_net_pair *pairs = NULL;
		size_t np = 0;

		if (c.leaders != MPI_COMM_NULL) {
			rc = nb_run(c.leaders, &o.net, &pairs, &np, &err);
			if (rc < 0 && rank == 0) {
				snprintf(c.note[LYR_NETWORK], 256, "%.250s",
					 err.msg);
				c.failed = true;
			}
		}
		if (rank == 0) {
			double mn, med, lat;

			nb_summary(pairs, np, &mn, &med, &lat);
			lr.run.net = pairs;
			lr.run.nnet = np;
			c.n.net_link_min = mn;
			if (np) {
				c.n.bw[LYR_NETWORK][LYR_READ] =
					mn * c.n.storage_nodes;
				c.n.bw[LYR_NETWORK][LYR_WRITE] =
					mn * c.n.storage_nodes;
				snprintf(
					c.note[LYR_NETWORK], 256,
					"%zu node pairs, %d x %" PRIu64
					" B streams: slowest link %.3g GB/s, median %.3g GB/s, latency %.1f us; aggregate = slowest x %d nodes%s",
					np, o.net.streams, o.net.msg_bytes,
					mn / 1e9, med / 1e9, lat / 1e3,
					c.n.storage_nodes,
					c.n.one_host
						? "; loopback: not a real network"
						: "");
			} else if (!c.note[LYR_NETWORK][0]) {
				snprintf(c.note[LYR_NETWORK], 256,
					 "one node: no pair to measure");
			}
			snprintf(c.source[LYR_NETWORK], 32,
				 "MPI point-to-point");
		}
		nb_quiet_barrier(MPI_COMM_WORLD);
	}
	/* 3. protocol: rados */
	if (!o.skip[LYR_PROTOCOL]) {
		run_layer(&c, LYR_PROTOCOL, MPI_COMM_WORLD, "rados", NULL,
			  &c.ceph_cfg, true, cfg.iodepth, false);
	}
	/* 4. full stack: posix on the mount, then libcephfs */
	if (!o.skip[LYR_FULLSTACK]) {
		run_layer(&c, LYR_FULLSTACK, MPI_COMM_WORLD, "posix", cfg.dir,
			  &cfg, cfg.direct, cfg.iodepth, c.w->nnodes > 1);
	}
	if (!o.skip[LYR_FULLLIB]) {
		run_layer(&c, LYR_FULLLIB, MPI_COMM_WORLD, "cephfs",
			  o.cephfs_dir, &c.ceph_cfg, cfg.direct, 1,
			  c.w->nnodes > 1);
	}

	/* ceilings and verdict */
	if (rank == 0) {
		struct lyr_thresholds t = lyr_default_thresholds;
		struct lyr_check ck[64];
		int nc, nsus = 0;
		char *v;

		t.tolerance = o.tolerance;
		nc = lyr_check_ceilings(&c.n, &t, ck, 64);
		for (int l = 0; l < LYR_NLAYERS; l++) {
			char note[256];

			if (o.skip[l] && !c.note[l][0])
				continue;
			snprintf(note, sizeof(note), "%s", c.note[l]);
			if (l == LYR_PROTOCOL)
				snprintf(note + strlen(note),
					 sizeof(note) - strlen(note),
					 "%spool %s size %d",
					 note[0] ? "; " : "",
					 ceph_opt(&o, "rados-pool"),
					 c.n.replicas);
			if (!c.n.direct[l])
				snprintf(note + strlen(note),
					 sizeof(note) - strlen(note),
					 "%sbuffered (no direct I/O)",
					 note[0] ? "; " : "");
			add_layer(&c, lyr_layer_names[l], c.source[l],
				  c.n.bw[l][LYR_READ], c.n.bw[l][LYR_WRITE],
				  note);
		}
		v = lyr_verdict(&c.n, ck, nc, &t);
		if (!isnan(c.fio_bw[LYR_WRITE]) || !isnan(c.fio_bw[LYR_READ])) {
			double dw =
				lyr_disagreement(c.n.bw[LYR_DEVICE][LYR_WRITE],
						 c.fio_bw[LYR_WRITE]);
			double dr =
				lyr_disagreement(c.n.bw[LYR_DEVICE][LYR_READ],
						 c.fio_bw[LYR_READ]);
			char note[256], *v2 = NULL;
			bool bad = (!isnan(dw) && dw > t.fio_disagree) ||
				   (!isnan(dr) && dr > t.fio_disagree);

			snprintf(
				note, sizeof(note),
				"fio cross-check of the device layer: write %.0f%% apart, read %.0f%% apart%s",
				dw * 100, dr * 100,
				bad ? " (more than 5%: the device ceiling is uncertain)"
				    : "");
			add_layer(&c, "device-fio", "fio", c.fio_bw[LYR_READ],
				  c.fio_bw[LYR_WRITE], note);
			if (v && asprintf(&v2, "%s%s.\n", v, note) > 0) {
				free(v);
				v = v2;
			}
		}
		for (int i = 0; i < nc; i++)
			if (ck[i].suspect)
				nsus++;
		lr.run.verdict = v;
		set_status(&lr.run, c.failed ? "failed" : "complete");
		save(&lr);
		if (!cfg.quiet) {
			printf("iostrata-bench --layers: stonewalled aggregate bandwidth per layer\n");
			for (int l = 0; l < LYR_NLAYERS; l++) {
				char a[32], b[32];

				if (o.skip[l])
					continue;
				printf("  %-14s write %-14s read %-14s %s%s%s\n",
				       lyr_layer_names[l],
				       isnan(c.n.bw[l][LYR_WRITE])
					       ? "-"
					       : ios_fmt_rate(
							 c.n.bw[l][LYR_WRITE],
							 a, sizeof(a)),
				       isnan(c.n.bw[l][LYR_READ])
					       ? "-"
					       : ios_fmt_rate(
							 c.n.bw[l][LYR_READ], b,
							 sizeof(b)),
				       c.note[l],
				       !c.n.direct[l] && c.note[l][0] ? "; "
								      : "",
				       c.n.direct[l]
					       ? ""
					       : "buffered (no direct I/O)");
			}
			if (v)
				fputs(v, stdout);
			if (cfg.output)
				printf("results: %s\n", cfg.output);
			fflush(stdout);
		}
		exit_code = c.failed || nsus ? EXIT_SUSPECT : EXIT_OK;
	}
	MPI_Bcast(&exit_code, 1, MPI_INT, 0, MPI_COMM_WORLD);
	g_lc = NULL;
	mb_watchdog_stop();
	if (rank == 0) {
		for (int i = 0; i < lr.run.nphases; i++)
			ios_phase_result_clear(&lr.run.phases[i]);
	}
	if (c.leaders != MPI_COMM_NULL)
		MPI_Comm_free(&c.leaders);
	mb_world_free(c.w);
	mb_config_free(&cfg);
	return exit_code;
}
