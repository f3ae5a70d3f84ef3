/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iostrata-bench: the MPI storage benchmark.  main.c parses and validates
 * everything before any file is created, runs the phases, writes the
 * results file after each repetition, prints the summary and decides the
 * exit code.  It is the only place that aborts the MPI job (watchdog).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <malloc.h>
#include <math.h>
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
#include "layers_run.h"
#include "jsonw.h"
#include "mb_config.h"
#include "mb_exit.h"
#include "ownfile.h"
#include "phase.h"
#include "units.h"
#include "watchdog.h"

static struct mb_config g_cfg;
static struct ios_run *g_run; /* rank 0 */
static int g_rank;
static bool g_files_created;

static void remove_own_file(void)
{
	const struct mb_dir *d;
	struct ios_err e = {0};
	char name[64];

	if (!g_files_created || g_cfg.keep || !g_cfg.dir ||
	    (g_cfg.backend->flags & (MB_BF_NO_DATA | MB_BF_NO_LOCAL_FS)))
		return;
	if (mb_dir_get(g_cfg.dir, g_cfg.allow_device, &d, &e) || d->device)
		return;
	mb_own_remove(d, mb_target_name(g_rank, name, sizeof(name)),
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

		ios_runrec_status(g_run, "failed");
		if (mb_h5_write(g_cfg.output, g_run, &e))
			fprintf(stderr, "%s\n", e.msg);
		else
			fprintf(stderr,
				"iostrata-bench: finished repetitions kept in %s\n",
				g_cfg.output);
	}
	remove_own_file();
	MPI_Abort(MPI_COMM_WORLD, MB_EXIT_WATCHDOG);
	_exit(MB_EXIT_WATCHDOG);
}

static char *read_text(const char *path, struct ios_err *err)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		ios_errf(err, -errno, "--attach: open \"%s\": %s", path,
			 strerror(errno));
		return NULL;
	}
	do {
		if (cap - len < 4096) {
			char *p = realloc(buf, cap + 65536);

			if (!p) {
				free(buf);
				fclose(f);
				ios_errf(err, -ENOMEM,
					 "--attach: read \"%s\": %s", path,
					 strerror(ENOMEM));
				return NULL;
			}
			buf = p;
			cap += 65536;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
		if (len > (64u << 20)) {
			free(buf);
			fclose(f);
			ios_errf(err, -EFBIG,
				 "--attach: \"%s\" is larger than 64 MiB",
				 path);
			return NULL;
		}
	} while (n > 0);
	if (ferror(f)) {
		free(buf);
		fclose(f);
		ios_errf(err, -EIO, "--attach: read \"%s\": %s", path,
			 strerror(EIO));
		return NULL;
	}
	fclose(f);
	buf[len] = '\0';
	return buf;
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

/* ---- summary ------------------------------------------------------ */

static void fmt_fig(enum ios_fig f, double v, char *buf, size_t len)
{
	if (isnan(v)) {
		snprintf(buf, len, "n/a");
		return;
	}
	switch (f) {
	case IOS_FIG_STONEWALL_BW:
	case IOS_FIG_WINDOW_BW:
	case IOS_FIG_SUM_RANK_BW:
		ios_fmt_rate(v, buf, len);
		return;
	case IOS_FIG_LAT_P50:
	case IOS_FIG_LAT_P90:
	case IOS_FIG_LAT_P99:
	case IOS_FIG_LAT_P999:
	case IOS_FIG_LAT_MAX:
		if (v >= 1e6)
			snprintf(buf, len, "%.2f ms", v / 1e6);
		else
			snprintf(buf, len, "%.1f us", v / 1e3);
		return;
	case IOS_FIG_CPU_S_PER_GIB:
		snprintf(buf, len, "%.3f s/GiB", v);
		return;
	default:
		snprintf(buf, len, "%.0f", v);
	}
}

/* Host name of node [k]: the host of its first rank. */
static const char *node_name(const struct ios_run *run, int k)
{
	int r;

	for (r = 0; r < run->nranks; r++)
		if (run->rank_info[r].node == k)
			return run->rank_info[r].host;
	return "?";
}

static void summary_text(const struct ios_run *run)
{
	int p, r, k;

	printf("iostrata-bench %s: %d ranks on %d node(s), backend %s, results %s\n",
	       PACKAGE_VERSION, run->nranks, run->nnodes, g_cfg.backend->name,
	       g_cfg.output ? g_cfg.output : "(none)");
	for (p = 0; p < run->nphases; p++) {
		const struct ios_phase_result *ph = &run->phases[p];
		struct ios_stats st;
		char a[32], b[32], c[32], d[32];
		bool iops = !strncmp(ph->name, "rand", 4);
		enum ios_fig head;

		head = iops ? IOS_FIG_STONEWALL_IOPS : IOS_FIG_STONEWALL_BW;
		ios_figures_over_reps(ph, &st);
		printf("\n%s, bs %" PRIu64 ": %d of %d repetition(s) valid\n",
		       ph->name, ph->bs, st.nvalid, st.nreps);
		fmt_fig(head, st.fig[head].mean, a, sizeof(a));
		fmt_fig(head, st.fig[head].min, b, sizeof(b));
		fmt_fig(head, st.fig[head].max, c, sizeof(c));
		fmt_fig(head, st.fig[head].stddev, d, sizeof(d));
		printf("  headline: stonewalled aggregate %s (bytes moved while all ranks ran / that window)\n",
		       iops ? "IOPS" : "bandwidth");
		printf("            mean %s  min %s  max %s  stddev %s  over %d valid rep(s)\n",
		       a, b, c, d, st.fig[head].n);
		printf("  %-4s %-5s %12s %12s %12s %10s %10s %10s %10s %5s\n",
		       "rep", "valid", "stonewall", "window", "sum-ranks",
		       "sw-IOPS", "p50", "p99", "max", "outl");
		for (r = 0; r < ph->nreps; r++) {
			const struct ios_rep_result *rep = &ph->reps[r];
			char s1[32], s2[32], s3[32], s4[32], s5[32], s6[32],
				s7[32];

			fmt_fig(IOS_FIG_STONEWALL_BW, rep->fig.stonewall_bw, s1,
				sizeof(s1));
			fmt_fig(IOS_FIG_WINDOW_BW, rep->fig.window_bw, s2,
				sizeof(s2));
			fmt_fig(IOS_FIG_SUM_RANK_BW, rep->fig.sum_rank_bw, s3,
				sizeof(s3));
			fmt_fig(IOS_FIG_STONEWALL_IOPS, rep->fig.stonewall_iops,
				s4, sizeof(s4));
			fmt_fig(IOS_FIG_LAT_P50, rep->fig.lat_p50_ns, s5,
				sizeof(s5));
			fmt_fig(IOS_FIG_LAT_P99, rep->fig.lat_p99_ns, s6,
				sizeof(s6));
			fmt_fig(IOS_FIG_LAT_MAX, rep->fig.lat_max_ns, s7,
				sizeof(s7));
			printf("  %-4d %-5s %12s %12s %12s %10s %10s %10s %10s %5d\n",
			       r + 1, rep->valid ? "yes" : "NO", s1, s2, s3, s4,
			       s5, s6, s7, rep->fig.outliers);
			if (!rep->valid)
				printf("       invalid: %s\n",
				       rep->invalid_reason);
			for (k = 0; k < rep->nranks; k++) {
				const struct ios_rank_result *rk =
					&rep->ranks[k];
				double dur = (double)(rk->t_end_ns -
						      rk->t_start_ns) /
					     1e9;

				if (!rk->outlier)
					continue;
				ios_fmt_rate(dur > 0 ? (double)(rk->bytes[0] +
								rk->bytes[1]) /
							       dur
						     : 0,
					     s1, sizeof(s1));
				printf("       outlier: rank %d on %s: %s%s rate %s, ended at %.3f s\n",
				       rk->rank, run->rank_info[rk->rank].host,
				       rk->outlier & IOS_OUTLIER_RATE ? "rate "
								      : "",
				       rk->outlier & IOS_OUTLIER_END
					       ? "end-time"
					       : "",
				       s1, (double)rk->t_end_ns / 1e9);
			}
		}
		if (ph->nreps && run->nnodes > 1) {
			const struct ios_rep_result *last =
				&ph->reps[ph->nreps - 1];

			printf("  per node (last rep):");
			for (k = 0; k < last->nnodes && last->node_bw; k++) {
				ios_fmt_rate(last->node_bw[k], a, sizeof(a));
				printf(" %s %s", node_name(run, k), a);
			}
			printf("\n");
		}
		printf("  over valid reps:       %12s %12s %12s %12s\n", "min",
		       "mean", "max", "stddev");
		for (k = 0; k < IOS_FIG_COUNT; k++) {
			fmt_fig((enum ios_fig)k, st.fig[k].min, a, sizeof(a));
			fmt_fig((enum ios_fig)k, st.fig[k].mean, b, sizeof(b));
			fmt_fig((enum ios_fig)k, st.fig[k].max, c, sizeof(c));
			fmt_fig((enum ios_fig)k, st.fig[k].stddev, d,
				sizeof(d));
			printf("    %-20s %12s %12s %12s %12s\n",
			       ios_fig_name((enum ios_fig)k), a, b, c, d);
		}
	}
	fflush(stdout);
}

static void summary_json(const struct ios_run *run, bool valid)
{
	struct jsonw w;
	int p, r, k, f, t = 0;

	jsonw_init(&w, stdout, false);
	jsonw_obj_begin(&w);
	jsonw_kv_str(&w, "tool", run->tool);
	jsonw_kv_str(&w, "version", run->tool_version);
	jsonw_kv_str(&w, "run_id", run->run_id);
	jsonw_kv_str(&w, "output", g_cfg.output);
	jsonw_kv_str(&w, "status", run->status);
	jsonw_kv_int(&w, "ranks", run->nranks);
	jsonw_kv_int(&w, "nodes", run->nnodes);
	jsonw_kv_bool(&w, "valid", valid);
	jsonw_kv_uint(&w, "rss_max_bytes", g_rss_max);
	jsonw_kv_uint(&w, "rss_median_bytes", g_rss_median);
	jsonw_kv_uint(&w, "rss_rank0_bytes", g_rss_rank0);
	jsonw_key(&w, "node_names");
	jsonw_arr_begin(&w);
	for (k = 0; k < run->nnodes; k++)
		jsonw_str(&w, node_name(run, k));
	jsonw_arr_end(&w);
	jsonw_key(&w, "reasons");
	jsonw_arr_begin(&w);
	for (p = 0; p < run->nphases; p++)
		for (r = 0; r < run->phases[p].nreps; r++)
			if (!run->phases[p].reps[r].valid) {
				char buf[600];

				snprintf(buf, sizeof(buf), "%s rep %d: %s",
					 run->phases[p].name, r + 1,
					 run->phases[p].reps[r].invalid_reason);
				jsonw_str(&w, buf);
			}
	jsonw_arr_end(&w);
	jsonw_key(&w, "phases");
	jsonw_arr_begin(&w);
	for (p = 0; p < run->nphases; p++) {
		const struct ios_phase_result *ph = &run->phases[p];
		struct ios_stats st;

		ios_figures_over_reps(ph, &st);
		jsonw_obj_begin(&w);
		jsonw_kv_str(&w, "name", ph->name);
		jsonw_kv_str(&w, "backend", ph->backend);
		jsonw_kv_uint(&w, "bs", ph->bs);
		jsonw_kv_int(&w, "rwmixread", ph->rwmixread);
		jsonw_kv_str(&w, "headline",
			     strncmp(ph->name, "rand", 4) ? "stonewall_bw"
							  : "stonewall_iops");
		jsonw_kv_int(&w, "nreps", st.nreps);
		jsonw_kv_int(&w, "nvalid", st.nvalid);
		jsonw_key(&w, "stats");
		jsonw_obj_begin(&w);
		for (f = 0; f < IOS_FIG_COUNT; f++) {
			jsonw_key(&w, ios_fig_name((enum ios_fig)f));
			jsonw_obj_begin(&w);
			jsonw_kv_double(&w, "min", st.fig[f].min);
			jsonw_kv_double(&w, "mean", st.fig[f].mean);
			jsonw_kv_double(&w, "max", st.fig[f].max);
			jsonw_kv_double(&w, "stddev", st.fig[f].stddev);
			jsonw_kv_int(&w, "n", st.fig[f].n);
			jsonw_obj_end(&w);
		}
		jsonw_obj_end(&w);
		jsonw_key(&w, "reps");
		jsonw_arr_begin(&w);
		for (r = 0; r < ph->nreps; r++) {
			const struct ios_rep_result *rep = &ph->reps[r];

			jsonw_obj_begin(&w);
			jsonw_kv_int(&w, "rep", r + 1);
			jsonw_kv_bool(&w, "valid", rep->valid);
			jsonw_kv_str(&w, "invalid_reason", rep->invalid_reason);
			jsonw_kv_uint(&w, "bytes", rep->fig.bytes);
			jsonw_kv_uint(&w, "ops", rep->fig.ops);
			for (f = 0; f < IOS_FIG_COUNT; f++)
				jsonw_kv_double(&w,
						ios_fig_name((enum ios_fig)f),
						ios_fig_value(&rep->fig,
							      (enum ios_fig)f));
			jsonw_kv_double(&w, "rank_bw_min",
					rep->fig.rank_bw_min);
			jsonw_kv_double(&w, "rank_bw_median",
					rep->fig.rank_bw_median);
			jsonw_kv_double(&w, "rank_bw_max",
					rep->fig.rank_bw_max);
			jsonw_kv_uint(&w, "errors", rep->nerrors);
			if (t < g_ntimed) {
				jsonw_kv_double(&w, "gather_s", g_gather_s[t]);
				jsonw_kv_double(&w, "write_s", g_write_s[t]);
				t++;
			}
			jsonw_key(&w, "node_bw");
			jsonw_arr_begin(&w);
			for (k = 0; rep->node_bw && k < rep->nnodes; k++)
				jsonw_double(&w, rep->node_bw[k]);
			jsonw_arr_end(&w);
			jsonw_key(&w, "stragglers");
			jsonw_arr_begin(&w);
			for (k = 0; k < rep->nranks; k++) {
				const struct ios_rank_result *rk =
					&rep->ranks[k];
				double dur = (double)(rk->t_end_ns -
						      rk->t_start_ns) /
					     1e9;

				if (!rk->outlier)
					continue;
				jsonw_obj_begin(&w);
				jsonw_kv_int(&w, "rank", rk->rank);
				jsonw_kv_str(&w, "host",
					     run->rank_info[rk->rank].host);
				jsonw_kv_int(&w, "node",
					     run->rank_info[rk->rank].node);
				jsonw_kv_bool(&w, "rate",
					      rk->outlier & IOS_OUTLIER_RATE);
				jsonw_kv_bool(&w, "end",
					      rk->outlier & IOS_OUTLIER_END);
				jsonw_kv_double(
					&w, "bw",
					dur > 0 ? (double)(rk->bytes[0] +
							   rk->bytes[1]) /
							  dur
						: 0);
				jsonw_kv_double(&w, "end_s",
						(double)rk->t_end_ns / 1e9);
				jsonw_obj_end(&w);
			}
			jsonw_arr_end(&w);
			jsonw_obj_end(&w);
		}
		jsonw_arr_end(&w);
		jsonw_obj_end(&w);
	}
	jsonw_arr_end(&w);
	jsonw_obj_end(&w);
	jsonw_finish(&w);
}

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

int main(int argc, char **argv)
{
	struct ios_err err = {0};
	struct mb_world *w = NULL;
	struct ios_run run;
	int provided, nranks, rc, p, exit_code = 0;
	bool any_invalid = false, failed = false;

	/* Large temporary blocks (rank 0's gather and histogram buffers, one
	 * repetition at a time) always come from mmap and go back to the
	 * system when freed: a fixed threshold instead of glibc's sliding one,
	 * so the footprint of a long run does not creep up. */
	mallopt(M_MMAP_THRESHOLD, 256 * 1024);
	MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);
	if (lyr_requested(argc, argv)) { /* the layered run (layers area) */
		rc = lyr_main(argc, argv);
		MPI_Finalize();
		return rc;
	}

	rc = mb_config_parse(&g_cfg, argc, argv, &err);
	if (rc) {
		if (g_rank == 0)
			fprintf(stderr, "iostrata-bench: %s\n", err.msg);
		MPI_Finalize();
		return MB_EXIT_USAGE;
	}
	if (g_cfg.help || g_cfg.version) {
		if (g_rank == 0) {
			if (g_cfg.help)
				mb_config_usage(stdout);
			else
				/* "results writer: yes" for scripts that
				 * asked when it was optional */
				printf("iostrata-bench %s (%s)\nresults writer: yes\n",
				       PACKAGE_VERSION, IOSTRATA_GIT_REVISION);
		}
		mb_config_free(&g_cfg);
		MPI_Finalize();
		return MB_EXIT_OK;
	}
	/* From the first collective on, a rank that died (or hangs) must not
	 * leave the others waiting forever: the watchdog bounds start-up. */
	mb_watchdog_start(on_watchdog);
	mb_watchdog_arm(120.0, "start-up");
	/* Same seed on every rank: rank 0's. */
	MPI_Bcast(&g_cfg.seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	rc = mb_backend_validate(g_cfg.backend, &err);
	if (agree_fail(rc, &err))
		goto out_usage;
	if (g_cfg.backend->check) {
		struct mb_ctx ctx = {.cfg = &g_cfg,
				     .rank = g_rank,
				     .nranks = nranks,
				     .err = &err};

		rc = g_cfg.backend->check(&ctx);
		if (agree_fail(rc, &err))
			goto out_usage;
	}
	rc = mb_world_create(MPI_COMM_WORLD, &w, &err);
	if (rc) {
		fprintf(stderr, "iostrata-bench: rank %d: %s\n", g_rank,
			err.msg);
		MPI_Abort(MPI_COMM_WORLD, MB_EXIT_FAILED);
	}

	/* Validate the target and the output before creating anything. */
	rc = 0;
	if (!(g_cfg.backend->flags & (MB_BF_NO_LOCAL_FS | MB_BF_NO_DATA)))
		rc = mb_config_check_target(&g_cfg, g_rank, nranks,
					    w->ranks_on_node, &err);
	if (agree_fail(rc, &err))
		goto out_usage;
	memset(&run, 0, sizeof(run));
	rc = 0;
	if (g_rank == 0 && g_cfg.output) {
		struct stat st;
		char dir[PATH_MAX], *slash;

		snprintf(dir, sizeof(dir), "%s", g_cfg.output);
		slash = strrchr(dir, '/');
		if (slash)
			*(slash == dir ? slash + 1 : slash) = '\0';
		else
			snprintf(dir, sizeof(dir), ".");
		if (!stat(g_cfg.output, &st) && !g_cfg.force)
			rc = ios_errf(
				&err, -EEXIST,
				"--output: \"%s\" exists: refusing to overwrite it (accepted: a new file name, or --force)",
				g_cfg.output);
		else if (access(dir, W_OK | X_OK))
			rc = ios_errf(
				&err, -errno,
				"--output: directory \"%s\" is not writable: %s",
				dir, strerror(errno));
	}
	if (g_rank == 0 && !rc) {
		int i;

		run.attachments = calloc((size_t)g_cfg.nattach + 1,
					 sizeof(*run.attachments));
		for (i = 0; i < g_cfg.nattach && !rc; i++) {
			char *t = read_text(g_cfg.attach[i].path, &err);

			if (!t) {
				rc = err.code ? err.code : -EIO;
				break;
			}
			run.attachments[i].key = strdup(g_cfg.attach[i].name);
			run.attachments[i].value = t;
			run.nattach++;
		}
	}
	if (agree_fail(rc, &err))
		goto out_usage;

	/* The run record (rank 0). */
	if (g_rank == 0) {
		if (mb_runrec_start(&run, &g_cfg)) {
			fprintf(stderr, "iostrata-bench: run record: %s\n",
				strerror(ENOMEM));
			MPI_Abort(MPI_COMM_WORLD, MB_EXIT_FAILED);
		}
		run.nranks = nranks;
		run.rank_info = w->ri;
		run.phases =
			calloc((size_t)g_cfg.npatterns, sizeof(*run.phases));
		run.job_json = mb_hw_job_json();
		{
			struct ios_ceph_opts copts;

			/* the backend's --ceph-* options (checked above) */
			mb_ceph_opts(&g_cfg, &copts, NULL);
			run.ceph_json = mb_hw_ceph_json(&copts, g_cfg.dir);
		}
		g_run = &run;
	}
	mb_gather_node_json(w, g_cfg.dir, &run);
	mb_watchdog_disarm();
	if (g_rank == 0)
		write_results(NULL);

	install_signal_cleanup();
	g_files_created = true;
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
			out = &run.phases[p];
			run.nphases = p + 1;
		}
		rc = mb_phase_run(&spec, MPI_COMM_WORLD, out, &err);
		if (rc) {
			if (g_rank == 0)
				fprintf(stderr, "%s\n", err.msg);
			failed = true;
			break;
		}
	}
	{
		uint64_t mine = peak_rss();
		uint64_t *all =
			g_rank == 0 ? calloc((size_t)nranks, sizeof(uint64_t))
				    : NULL;

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
	if (g_rank == 0) {
		int r;

		for (p = 0; p < run.nphases; p++)
			for (r = 0; r < run.phases[p].nreps; r++)
				if (!run.phases[p].reps[r].valid)
					any_invalid = true;
		ios_runrec_status(&run, failed ? "failed" : "complete");
		if (g_cfg.output) {
			struct ios_err e = {0};

			if (mb_h5_write(g_cfg.output, &run, &e)) {
				fprintf(stderr, "%s\n", e.msg);
				failed = true;
			}
		}
		if (g_cfg.summary == MB_SUM_TEXT)
			summary_text(&run);
		else if (g_cfg.summary == MB_SUM_JSON)
			summary_json(&run, !any_invalid && !failed);
		if (any_invalid && g_cfg.summary != MB_SUM_JSON)
			fprintf(stderr,
				"iostrata-bench: the run is INVALID (see the reasons above)\n");
	}
	/* Remove the files unless --keep, also after a failure. */
	mb_watchdog_arm(120.0, "cleanup");
	if (!g_cfg.keep && !(g_cfg.backend->flags & MB_BF_NO_DATA)) {
		struct mb_phase_spec spec = {.cfg = &g_cfg};
		struct ios_err e = {0};

		if (mb_phase_cleanup(&spec, MPI_COMM_WORLD, &e) && e.msg[0])
			fprintf(stderr, "iostrata-bench: rank %d: %s\n", g_rank,
				e.msg);
	}
	{
		int flags[2] = {any_invalid, failed}, all[2];

		MPI_Allreduce(flags, all, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
		exit_code = all[1]   ? MB_EXIT_FAILED
			    : all[0] ? MB_EXIT_INVALID
				     : MB_EXIT_OK;
	}
	mb_watchdog_disarm();
	mb_watchdog_stop();
	if (g_rank == 0) {
		for (p = 0; p < run.nphases; p++)
			ios_phase_result_clear(&run.phases[p]);
		g_run = NULL;
	}
	mb_world_free(w);
	mb_config_free(&g_cfg);
	MPI_Finalize();
	return exit_code;

out_usage:
	mb_watchdog_stop();
	mb_world_free(w);
	mb_config_free(&g_cfg);
	MPI_Finalize();
	return MB_EXIT_USAGE;
}
