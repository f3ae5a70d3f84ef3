/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iostrata-bench: the MPI storage benchmark.  main.c parses and validates
 * everything before any file is created, runs the phases, writes the
 * results file after each repetition, prints the summary (summary.c) and
 * decides the exit code.  It is the only place that aborts the MPI job
 * (watchdog).
 *
 * It stands on the rooms below it (mpibench/README.md, "Code map: the
 * rooms"): layers/ (--layers), record/ (run record, summaries, exit),
 * engine/ (mb_phase_run: one access pattern on the ranks) and backends/
 * (the options and the ops table).  A new kind of workload, such as the
 * metadata phases (create, stat, unlink), is a per-rank loop in engine/
 * beside phase_rank.c with optional hooks in backends/backend.h; a new
 * backend is a backends/be_NAME.c.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <malloc.h>
#include <signal.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "ceph_conn.h"
#include "figures.h"
#include "h5out.h"
#include "mb_runrec.h"
#include "runrec.h"
#include "layers.h"
#include "layers_run.h"
#include "mb_config.h"
#define IOSTRATA_MB_META_MPI
#include "meta.h"
#include "mb_exit.h"
#include "ownfile.h"
#include "phase.h"
#include "summary.h"
#include "crashlog.h"
#include "watchdog.h"

static struct mb_config g_cfg;
static struct ios_run *g_run; /* rank 0 */
static int g_rank;
static bool g_files_created;

/* MPI_Finalize; then, in a heterogeneous step, this rank's component ends
 * a moment after the one before it: srun before Slurm 24.05.4 hangs when
 * two components end together (layers.h, lyr_het_exit_delay_ms). */
static void finalize(void)
{
	MPI_Finalize();
	lyr_het_exit_wait();
}

static void remove_own_file(void)
{
	const struct mb_dir *d;
	struct ios_err e = {0};
	char name[64];

	if (!g_files_created || g_cfg.keep || !g_cfg.dir ||
	    (g_cfg.backend->flags & (MB_BF_NO_DATA | MB_BF_NO_LOCAL_FS)))
		return;
	/* the shared file is rank 0's to remove */
	if (g_cfg.file_layout == MB_LAYOUT_SHARED && g_rank != 0)
		return;
	if (mb_dir_get(g_cfg.dir, g_cfg.allow_device, &d, &e) || d->device)
		return;
	mb_own_remove(d, mb_target_file(&g_cfg, g_rank, name, sizeof(name)),
		      "posix: remove", &e);
}

/* SIGTERM/SIGINT (scancel, Ctrl-C): remove the files this rank created
 * (ownfile.c keeps their directory fd and names ready, async-signal-safe),
 * then die of the signal. */
static void install_signal_cleanup(void)
{
	if (g_cfg.keep || !g_cfg.dir ||
	    (g_cfg.backend->flags & (MB_BF_NO_DATA | MB_BF_NO_LOCAL_FS)))
		return;
	mb_own_cleanup_on_signal();
}

static void on_watchdog(const char *stage, double seconds)
{
	fprintf(stderr,
		"iostrata-bench: rank %d: watchdog: stage \"%s\" took longer than %.0f s (a rank hung or died); aborting the job\n",
		g_rank, stage, seconds);
	if (g_rank == 0 && g_run && g_cfg.output) {
		struct ios_err e = {0};

		ios_runrec_status(g_run,
				  mb_outcome_status(MB_OUTCOME_WATCHDOG));
		if (mb_h5_write(g_cfg.output, g_run, &e))
			fprintf(stderr, "%s\n", e.msg);
		else
			fprintf(stderr,
				"iostrata-bench: finished repetitions kept in %s\n",
				g_cfg.output);
	}
	remove_own_file();
	MPI_Abort(MPI_COMM_WORLD, mb_outcome_exit(MB_OUTCOME_WATCHDOG));
	_exit(mb_outcome_exit(MB_OUTCOME_WATCHDOG));
}

static void write_results(const struct ios_phase_result *ph)
{
	struct ios_err e = {0};

	(void)ph;
	if (!g_cfg.output || !g_run)
		return;
	if (mb_h5_write(g_cfg.output, g_run, &e)) {
		static bool warned;

		if (!warned)
			fprintf(stderr, "%s\n", e.msg);
		warned = true;
	}
}

/* Cost of the bookkeeping per repetition (for --summary=json). */
#define MAX_TIMED 4096
static double g_gather_s[MAX_TIMED], g_write_s[MAX_TIMED];
static int g_ntimed;

static void rep_done(void *arg, const struct ios_phase_result *ph)
{
	struct timespec a, b;

	(void)arg;
	clock_gettime(CLOCK_MONOTONIC, &a);
	write_results(ph);
	clock_gettime(CLOCK_MONOTONIC, &b);
	if (g_ntimed < MAX_TIMED) {
		g_gather_s[g_ntimed] = mb_phase_last_gather_s;
		g_write_s[g_ntimed] = (double)(b.tv_sec - a.tv_sec) +
				      (double)(b.tv_nsec - a.tv_nsec) / 1e9;
		g_ntimed++;
	}
}

/* Peak resident set size of this process (VmHWM), bytes; 0 unknown. */
static uint64_t peak_rss(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	uint64_t kb = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %" SCNu64, &kb) == 1)
			break;
	fclose(f);
	return kb * 1024;
}

static uint64_t g_rss_max, g_rss_median, g_rss_rank0;
/* Start-up costs (bench/reference-shape): the wall clock at main() of the
 * earliest and the latest rank, MPI_Init's time on rank 0 and its longest
 * over the ranks, and rank 0's time from MPI_Init's end to the first
 * phase (every host's facts, the checks, the record's first write). */
static double g_main_epoch, g_main_first, g_main_last, g_init_s, g_init_max,
	g_startup_s;

/* ---- main --------------------------------------------------------- */

/* Every rank reports; rank 0 prints the lowest failing rank's message. */
static int agree_fail(int rc, struct ios_err *e)
{
	int who;

	rc = mb_agree(MPI_COMM_WORLD, g_rank, rc, e, &who);
	if (rc && g_rank == 0)
		fprintf(stderr, "iostrata-bench: rank %d: %s\n", who, e->msg);
	return rc;
}

/* Parse the command line into g_cfg.  Returns -1 to go on, else the exit
 * code (bad usage; --help, --version: done). */
static int parse_options(int argc, char **argv)
{
	struct ios_err err = {0};

	if (mb_config_parse(&g_cfg, argc, argv, &err)) {
		if (g_rank == 0)
			fprintf(stderr, "iostrata-bench: %s\n", err.msg);
		return MB_EXIT_USAGE;
	}
	if (!g_cfg.help && !g_cfg.version)
		return -1;
	if (g_rank == 0) {
		if (g_cfg.help) {
			mb_config_usage(stdout);
			mb_outcome_usage(stdout);
		} else {
			/* "results writer: yes" for scripts that
			 * asked when it was optional */
			printf("iostrata-bench %s (%s)\nresults writer: yes\n",
			       PACKAGE_VERSION, IOSTRATA_GIT_REVISION);
		}
	}
	mb_config_free(&g_cfg);
	return MB_EXIT_OK;
}

/* Rank 0's seed on every rank, the backend's table and its own checks;
 * agreed. */
static int check_backend(int nranks, struct ios_err *err)
{
	int rc;

	MPI_Bcast(&g_cfg.seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	rc = mb_backend_validate(g_cfg.backend, err);
	if (agree_fail(rc, err))
		return -1;
	if (g_cfg.backend->check) {
		struct mb_ctx ctx = {.cfg = &g_cfg,
				     .rank = g_rank,
				     .nranks = nranks,
				     .err = err};

		rc = g_cfg.backend->check(&ctx);
		if (agree_fail(rc, err))
			return -1;
	}
	return 0;
}

/* Rank 0: --output must be new (unless --force) in a writable directory. */
static int check_output(struct ios_err *err)
{
	struct stat st;
	char dir[PATH_MAX], *slash;

	snprintf(dir, sizeof(dir), "%s", g_cfg.output);
	slash = strrchr(dir, '/');
	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	if (!stat(g_cfg.output, &st) && !g_cfg.force)
		return ios_errf(
			err, -EEXIST,
			"--output: \"%s\" exists: refusing to overwrite it (accepted: a new file name, or --force)",
			g_cfg.output);
	if (access(dir, W_OK | X_OK))
		return ios_errf(
			err, -errno,
			"--output: directory \"%s\" is not writable: %s", dir,
			strerror(errno));
	return 0;
}

/* Rank 0: the text of every --attach file into [run]. */
static int read_attachments(struct ios_run *run, struct ios_err *err)
{
	int i;

	run->attachments =
		calloc((size_t)g_cfg.nattach + 1, sizeof(*run->attachments));
	for (i = 0; i < g_cfg.nattach; i++) {
		char *t = mb_read_text("--attach", g_cfg.attach[i].path, err);

		if (!t)
			return err->code ? err->code : -EIO;
		run->attachments[i].key = strdup(g_cfg.attach[i].name);
		run->attachments[i].value = t;
		run->nattach++;
	}
	return 0;
}

/* Validate the target, the output and the attachments before creating
 * anything; agreed. */
static int check_inputs(const struct mb_world *w, int nranks,
			struct ios_run *run, struct ios_err *err)
{
	int rc = 0;

	/* the metadata phases make their own directory under --dir (meta.h),
	 * resolved by the backend with the same link rule */
	if (!(g_cfg.backend->flags & (MB_BF_NO_LOCAL_FS | MB_BF_NO_DATA)) &&
	    !g_cfg.nmeta)
		rc = mb_config_check_target(&g_cfg, g_rank, nranks,
					    w->ranks_on_node, err);
	if (agree_fail(rc, err))
		return -1;
	memset(run, 0, sizeof(*run));
	rc = 0;
	if (g_rank == 0 && g_cfg.output)
		rc = check_output(err);
	if (g_rank == 0 && !rc)
		rc = read_attachments(run, err);
	if (agree_fail(rc, err))
		return -1;
	return 0;
}

/* The run record (rank 0) with every node's facts, written once before
 * the first phase. */
static void start_record(struct mb_world *w, int nranks, struct ios_run *run)
{
	if (g_rank == 0) {
		if (mb_runrec_start(run, &g_cfg)) {
			fprintf(stderr, "iostrata-bench: run record: %s\n",
				strerror(ENOMEM));
			MPI_Abort(MPI_COMM_WORLD, MB_EXIT_FAILED);
		}
		run->nranks = nranks;
		run->rank_info = w->ri;
		run->phases =
			calloc((size_t)g_cfg.npatterns, sizeof(*run->phases));
		run->job_json = mb_hw_job_json();
		{
			struct ios_ceph_opts copts;

			/* the backend's --ceph-* options (checked above) */
			mb_ceph_opts(&g_cfg, &copts, NULL);
			run->ceph_json = mb_hw_ceph_json(&copts, g_cfg.dir);
		}
		g_run = run;
	}
	mb_gather_node_json(w, &g_cfg, run);
	mb_crashlog_stage("start-up");
	mb_watchdog_disarm();
	if (g_rank == 0)
		write_results(NULL);
}

/* Every phase in order; false when one could not run (the rest do not). */
static bool run_phases(struct mb_world *w, struct ios_run *run,
		       struct ios_err *err)
{
	int p;

	for (p = 0; p < g_cfg.npatterns; p++) {
		struct mb_phase_spec spec = {
			.cfg = &g_cfg,
			.pattern = g_cfg.patterns[p],
			.layer = "",
			.phase_index = p,
			.rep_done = rep_done,
			.world = w,
		};
		struct ios_phase_result tmp, *out = &tmp;

		if (g_rank == 0) {
			out = &run->phases[p];
			run->nphases = p + 1;
		}
		if (mb_phase_run(&spec, MPI_COMM_WORLD, out, err)) {
			if (g_rank == 0)
				fprintf(stderr, "%s\n", err->msg);
			return false;
		}
	}
	return true;
}

static void meta_rep_done(void *arg)
{
	(void)arg;
	write_results(NULL);
}

/* The metadata phases (--meta), instead of the --rw ones. */
static bool run_meta(struct ios_run *run, struct ios_err *err)
{
	if (mb_meta_run(&g_cfg, MPI_COMM_WORLD, g_rank == 0 ? run : NULL,
			meta_rep_done, NULL, err)) {
		if (g_rank == 0)
			fprintf(stderr, "iostrata-bench: %s\n", err->msg);
		return false;
	}
	return true;
}

/* Peak RSS over the ranks, for the JSON summary (rank 0). */
static void gather_rss(int nranks)
{
	uint64_t mine = peak_rss();
	uint64_t *all =
		g_rank == 0 ? calloc((size_t)nranks, sizeof(uint64_t)) : NULL;

	MPI_Gather(&mine, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, 0,
		   MPI_COMM_WORLD);
	if (g_rank == 0 && all) {
		int k;
		double *v = calloc((size_t)nranks, sizeof(double));

		g_rss_rank0 = all[0];
		for (k = 0; k < nranks; k++) {
			if (all[k] > g_rss_max)
				g_rss_max = all[k];
			if (v)
				v[k] = (double)all[k];
		}
		if (v)
			g_rss_median = (uint64_t)ios_median(v, nranks);
		free(v);
	}
	free(all);
}

static double epoch_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The start-up figures of every rank, to rank 0 (g_main_first, _last,
 * g_init_max). */
static void gather_startup(void)
{
	double mine[3] = {-g_main_epoch, g_main_epoch, g_init_s}, all[3];

	MPI_Reduce(mine, all, 3, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
	g_main_first = -all[0];
	g_main_last = all[1];
	g_init_max = all[2];
}

/* Rank 0: the final results file and the summary.  Sets *any_invalid;
 * sets *failed when the file cannot be written. */
static void finish_record(struct ios_run *run, bool *any_invalid, bool *failed)
{
	const struct mb_summary_extra x = {
		.backend = g_cfg.backend->name,
		.output = g_cfg.output,
		.rss_max = g_rss_max,
		.rss_median = g_rss_median,
		.rss_rank0 = g_rss_rank0,
		.main_first = g_main_first,
		.main_last = g_main_last,
		.init_s = g_init_s,
		.init_max = g_init_max,
		.startup_s = g_startup_s,
		.gather_s = g_gather_s,
		.write_s = g_write_s,
		.ntimed = g_ntimed,
	};
	int p, r;

	for (p = 0; p < run->nphases; p++)
		for (r = 0; r < run->phases[p].nreps; r++)
			if (!run->phases[p].reps[r].valid)
				*any_invalid = true;
	ios_runrec_status(run, mb_outcome_status(mb_outcome_of(
				       *failed, *any_invalid, false)));
	if (g_cfg.output) {
		struct ios_err e = {0};

		if (mb_h5_write(g_cfg.output, run, &e)) {
			fprintf(stderr, "%s\n", e.msg);
			*failed = true;
		}
	}
	if (g_cfg.summary == MB_SUM_TEXT)
		mb_summary_text(run, &x);
	else if (g_cfg.summary == MB_SUM_JSON)
		mb_summary_json(run,
				mb_outcome_of(*failed, *any_invalid, false) ==
					MB_OUTCOME_OK,
				&x);
	if (*any_invalid && g_cfg.summary != MB_SUM_JSON)
		fprintf(stderr,
			"iostrata-bench: the run is INVALID (see the reasons above)\n");
}

/* Remove the files unless --keep, also after a failure. */
static void remove_files(void)
{
	struct mb_phase_spec spec = {.cfg = &g_cfg};
	struct ios_err e = {0};

	if (g_cfg.keep || g_cfg.nmeta || (g_cfg.backend->flags & MB_BF_NO_DATA))
		return;
	if (mb_phase_cleanup(&spec, MPI_COMM_WORLD, &e) && e.msg[0])
		fprintf(stderr, "iostrata-bench: rank %d: %s\n", g_rank, e.msg);
}

/* The exit code every rank returns: the worst over the ranks. */
static int agree_exit_code(bool any_invalid, bool failed)
{
	int flags[2] = {any_invalid, failed}, all[2];

	MPI_Allreduce(flags, all, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	return mb_outcome_exit(mb_outcome_of(all[1], all[0], false));
}

int main(int argc, char **argv)
{
	struct ios_err err = {0};
	struct mb_world *w = NULL;
	struct ios_run run;
	int provided, nranks, rc, p, exit_code;
	bool any_invalid = false, failed = false;

	/* Large temporary blocks (rank 0's gather and histogram buffers, one
	 * repetition at a time) always come from mmap and go back to the
	 * system when freed: a fixed threshold instead of glibc's sliding one,
	 * so the footprint of a long run does not creep up. */
	mallopt(M_MMAP_THRESHOLD, 256 * 1024);
	/* a crash says which rank, host and stage, from MPI_Init on (again
	 * with the rank once it is known: over Open MPI's own handler) */
	mb_crashlog_install(-1, NULL);
	mb_crashlog_stage("MPI_Init");
	g_main_epoch = epoch_now();
	MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
	g_init_s = epoch_now() - g_main_epoch;
	MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
	mb_crashlog_install(g_rank, NULL);
	mb_crashlog_stage("start-up");
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	if (lyr_requested(argc, argv)) { /* the layered run (layers area) */
		rc = lyr_main(argc, argv);
		finalize();
		return rc;
	}
	rc = parse_options(argc, argv);
	if (rc >= 0) {
		finalize();
		return rc;
	}
	/* From the first collective on, a rank that died (or hangs) must not
	 * leave the others waiting forever: the watchdog bounds start-up. */
	mb_watchdog_start(on_watchdog);
	mb_watchdog_arm(120.0, "start-up");
	if (check_backend(nranks, &err))
		goto out_usage;
	rc = mb_world_create(MPI_COMM_WORLD, &w, &err);
	if (rc) {
		fprintf(stderr, "iostrata-bench: rank %d: %s\n", g_rank,
			err.msg);
		MPI_Abort(MPI_COMM_WORLD, MB_EXIT_FAILED);
	}
	if (check_inputs(w, nranks, &run, &err))
		goto out_usage;
	start_record(w, nranks, &run);

	install_signal_cleanup();
	g_files_created = true;
	g_startup_s = epoch_now() - g_main_epoch - g_init_s;
	failed = g_cfg.nmeta ? !run_meta(&run, &err)
			     : !run_phases(w, &run, &err);
	gather_rss(nranks);
	gather_startup();
	if (g_rank == 0)
		finish_record(&run, &any_invalid, &failed);
	mb_watchdog_arm(120.0, "cleanup");
	remove_files();
	exit_code = agree_exit_code(any_invalid, failed);
	mb_watchdog_disarm();
	mb_watchdog_stop();
	if (g_rank == 0) {
		for (p = 0; p < run.nphases; p++)
			ios_phase_result_clear(&run.phases[p]);
		g_run = NULL;
	}
	mb_world_free(w);
	mb_config_free(&g_cfg);
	finalize();
	return exit_code;

out_usage:
	mb_watchdog_stop();
	mb_world_free(w);
	mb_config_free(&g_cfg);
	finalize();
	return MB_EXIT_USAGE;
}
