/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_report: iostrata-report paths, table-driven: the paper's peak and
 * Table 4 layout, accept PASS/FAIL per metric, export rows and columns,
 * show tables, trend regressions, bad files among good ones.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <dirent.h>
#include <jansson.h>
#include <stdbool.h>

#include "h5run.h"
#include "hostile.h"
#include "report.h"
#include "runrec.h"
#include "synth.h"

#include "report_fx.h"

/* The paper's section 3.2: 12 x 277 MiB/s, ~3100 MiB/s controller
 * (measured through the disks), 12.5 GB/s NIC, 10 nodes -> 32.5 GiB/s. */
/*
 * The report and the benchmark's summary compute a figure's statistics with
 * the same code (model/figures.c): the report once had a one-pass
 * sum-of-squares stddev, which cancels to nonsense on rates near 1 TB/s.
 */
static void test_stats_agree(void **state)
{
	struct ios_rep_result reps[3];
	struct ios_phase_result ph;
	struct report_stats st;
	struct ios_stats all;
	const struct ios_fig_desc *f = ios_fig_find("stonewall_bw");

	(void)state;
	memset(reps, 0, sizeof(reps));
	memset(&ph, 0, sizeof(ph));
	for (int r = 0; r < 3; r++) {
		reps[r].valid = true;
		reps[r].fig = (struct ios_figures){0};
		reps[r].fig.stonewall_bw = 1e12 + r;
	}
	ph.reps = reps;
	ph.nreps = 3;
	assert_non_null(f);
	report_phase_stats(&ph, f, &st);
	ios_figures_over_reps(&ph, &all);
	assert_int_equal(st.n, 3);
	assert_true(fabs(st.mean - (1e12 + 1)) <= 1e-3);
	assert_true(fabs(st.stddev - 1.0) <= 1e-6);
	assert_true(fabs(st.stddev - all.fig[IOS_FIG_STONEWALL_BW].stddev) <=
		    1e-9);
	assert_true(st.min == all.fig[IOS_FIG_STONEWALL_BW].min);
	assert_true(st.max == all.fig[IOS_FIG_STONEWALL_BW].max);
}

static void test_peak_paper(void **state)
{
	static const struct {
		struct report_peak_in in;
		double total_gib;
		const char *limit;
	} cases[] = {
		{{10, 12, 277 * MIB, 3100 * MIB, 12.5e9}, 32.46, "disks"},
		/* a controller well below the disks limits */
		{{10, 12, 277 * MIB, 2000 * MIB, 12.5e9}, 19.53, "controller"},
		/* a slow NIC limits */
		{{10, 12, 277 * MIB, 3100 * MIB, 1.25e9}, 11.64, "NIC"},
		/* measured disk maximum instead of rated */
		{{10, 12, 260.07 * MIB, 3100 * MIB, 12.5e9}, 30.48, "disks"},
		/* no controller / NIC figures */
		{{2, 4, 100 * MIB, 0, 0}, 0.78, "disks"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct report_peak pk;

		report_peak_compute(&cases[i].in, &pk);
		if (fabs(pk.total / GIB - cases[i].total_gib) > 0.01 ||
		    strcmp(pk.limit, cases[i].limit))
			fail_msg("case %zu: %.3f GiB/s limit %s, want %.2f %s",
				 i, pk.total / GIB, pk.limit,
				 cases[i].total_gib, cases[i].limit);
	}
}

/* Table 4 layout and values from the paper's efficiencies. */
static void test_table4(void **state)
{
	struct report_peak_in in = {10, 12, 277 * MIB, 3100 * MIB, 12.5e9};
	struct report_peak pk;
	struct report_eff_row rows[3] = {{1, 0, 0}, {2, 0, 0}, {3, 0, 0}};
	static const double eff[3][2] = {
		{0.144, 0.479}, {0.138, 0.258}, {0.141, 0.176}};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	report_peak_compute(&in, &pk);
	for (int i = 0; i < 3; i++) {
		rows[i].read_bw = eff[i][0] * pk.total;
		rows[i].write_bw = eff[i][1] * pk.total;
	}
	report_eff_table(f, &pk, rows, 3);
	fclose(f);
	assert_non_null(strstr(buf, "peak of 32.5 GiB/s"));
	assert_non_null(strstr(
		buf,
		"| Replication factor | Read efficiency | Write efficiency |\n| --- | --- | --- |\n"
		"| 1 | 0.144 | 0.479 |\n| 2 | 0.138 | 0.258 |\n| 3 | 0.141 | 0.176 |\n"));
	free(buf);
}

/* efficiency end to end: site file + runs per replication factor */
static void test_efficiency_cmd(void **state)
{
	struct ios_synth s;
	char *out;
	FILE *f;

	(void)state;
	f = fopen(P("site.conf"), "w");
	fputs("[storage]\nnodes = 1\ndisks_per_node = 2\ndisk_bw = 100M\ncontroller_bw = 1000M\nnic_bw = 10GB\n",
	      f);
	fclose(f);
	ios_synth_defaults(&s);
	s.nnodes = 1;
	s.rank_bw = 50 * MIB;
	s.replication = 2;
	synth_file("r2.h5", &s);
	s.replication = 1;
	s.rank_bw = 80 * MIB;
	synth_file("r1.h5", &s);
	assert_int_equal(run_cmd(&out, 4, "efficiency", "--site",
				 P("site.conf"), P("r*.h5")),
			 0);
	assert_non_null(
		strstr(out, "theoretical peak: 200.00 MiB/s x 1 nodes"));
	assert_non_null(strstr(out, "| 1 | 0."));
	assert_non_null(strstr(out, "| 2 | 0."));
	assert_true(strstr(out, "| 1 |") < strstr(out, "| 2 |"));
	free(out);
	assert_int_equal(run_cmd(&out, 2, "efficiency", P("r1.h5")),
			 REPORT_EXIT_USAGE);
	free(out);
	/* Table 4 is the unconstrained node's (issue 29): factor 3 has a
	 * baseline element (2 x 60 MiB/s of a 200 MiB/s peak: 0.6) and a
	 * faster constrained run (2 x 90: 0.9, the best run before) */
	s.replication = 3;
	s.rank_bw = 60 * MIB;
	s.element = 0;
	s.baseline = true;
	synth_file("b3.h5", &s);
	s.rank_bw = 90 * MIB;
	s.element = 1;
	s.baseline = false;
	synth_file("c3.h5", &s);
	assert_int_equal(run_cmd(&out, 5, "efficiency", "--site",
				 P("site.conf"), P("b3.h5"), P("c3.h5")),
			 0);
	{
		const char *row = strstr(out, "| 3 | ");
		double r = 0;

		if (!row || sscanf(row, "| 3 | %lf", &r) != 1 || r < 0.55 ||
		    r > 0.65 ||
		    !strstr(out, "every row from the unconstrained baseline"))
			fail_msg(
				"Table 4 not from the baseline (want 0.6):\n%s",
				out);
	}
	free(out);
}

/* In a layered run only the full stack counts towards efficiency: a device
 * layer four times faster must not raise the filesystem's row. */
static void test_efficiency_layered(void **state)
{
	struct ios_synth s;
	struct ios_err err = {0};
	struct ios_run *run;
	char *out;
	FILE *f;

	(void)state;
	f = fopen(P("site-l.conf"), "w");
	fputs("[storage]\nnodes = 1\ndisks_per_node = 2\ndisk_bw = 100M\ncontroller_bw = 1000M\nnic_bw = 10GB\n",
	      f);
	fclose(f);
	ios_synth_defaults(&s);
	s.nnodes = 1;
	s.phases = "write,write";
	s.rank_bw = 50 * MIB;
	s.replication = 3;
	run = ios_synth_run(&s);
	assert_non_null(run);
	assert_int_equal(run->nphases, 2);
	strcpy(run->phases[0].layer, "device");
	strcpy(run->phases[1].layer, "fullstack");
	for (int r = 0; r < run->phases[0].nreps; r++) {
		struct ios_rep_result *rep = &run->phases[0].reps[r];

		for (int i = 0; i < rep->nranks; i++) {
			struct ios_rank_result *rr = &rep->ranks[i];

			rr->bytes[IOS_OP_WRITE] *= 4;
			rr->stonewall_bytes *= 4;
			for (uint32_t k = 0; k < rr->nsamples; k++)
				rr->sample_bytes[k] *= 4;
		}
	}
	assert_int_equal(ios_h5_write_run(P("layered.h5"), run, &err), 0);
	ios_synth_free(run);
	assert_int_equal(run_cmd(&out, 4, "efficiency", "--site",
				 P("site-l.conf"), P("layered.h5")),
			 0);
	/* 2 ranks x 50 MiB/s of a 200 MiB/s peak: ~0.5, not ~2 */
	{
		const char *row = strstr(out, "| 3 | - | ");
		double w = 0;

		if (!row || sscanf(row, "| 3 | - | %lf", &w) != 1 || w < 0.3 ||
		    w > 0.7)
			fail_msg("layered efficiency row (want ~0.5): %s", out);
	}
	free(out);
	/* show keeps the layers apart: one row each */
	assert_int_equal(run_cmd(&out, 2, "show", P("layered.h5")), 0);
	assert_non_null(strstr(out, "| write@device       |"));
	assert_non_null(strstr(out, "| write@fullstack    |"));
	assert_non_null(strstr(out, " write@device "));
	free(out);
}

/* A layered run whose full stack went through [client] on c1 and c2
 * ([type] on /mnt/cephfs), s1 a storage host, at [fs] B/s both ways. */
static void layered_client(const char *name, const char *client,
			   const char *type, double fs)
{
	static const char *const lname[3] = {"device", "protocol", "fullstack"};
	struct ios_synth s;
	struct ios_err err = {0};
	struct ios_run *run;
	const char *cfg[][2] = {{"layers", "1"}, {"layers.replicas", "3"}};

	ios_synth_defaults(&s);
	run = ios_synth_run(&s);
	assert_non_null(run);
	run->config =
		realloc(run->config, (run->nconfig + 2) * sizeof(*run->config));
	assert_non_null(run->config);
	for (int i = 0; i < 2; i++) {
		run->config[run->nconfig].key = strdup(cfg[i][0]);
		run->config[run->nconfig++].value = strdup(cfg[i][1]);
	}
	run->nlayers = 4;
	run->layers = calloc(4, sizeof(*run->layers));
	for (int i = 0; i < 3; i++) {
		strcpy(run->layers[i].name, lname[i]);
		run->layers[i].read_bw = run->layers[i].write_bw =
			i < 2 ? 400 * MIB : fs;
		run->layers[i].read_iops = run->layers[i].write_iops = NAN;
	}
	strcpy(run->layers[3].name, "fullstack-lib");
	run->layers[3].read_bw = run->layers[3].write_bw = 90 * MIB;
	run->layers[3].read_iops = run->layers[3].write_iops = NAN;
	/* host records: c1 c2 clients through [client], s1 storage */
	run->nhosts = 3;
	run->host_json = calloc(3, sizeof(char *));
	assert_non_null(run->host_json);
	for (int i = 0; i < 3; i++) {
		json_t *h;
		char hn[8], *rec;

		snprintf(hn, sizeof(hn), i < 2 ? "c%d" : "s1", i + 1);
		rec = ios_synth_host_record(hn, i < 2 ? "client" : "storage",
					    "Open MPI", false);
		assert_non_null(rec);
		h = json_loads(rec, 0, NULL);
		free(rec);
		assert_non_null(h);
		if (i < 2)
			json_object_set_new(h, "filesystem",
					    json_pack("{s:s, s:s, s:s}",
						      "client", client, "type",
						      type, "mount_point",
						      "/mnt/cephfs"));
		run->host_json[i] = json_dumps(h, JSON_COMPACT);
		json_decref(h);
	}
	assert_int_equal(ios_h5_write_run(P(name), run, &err), 0);
	ios_synth_free(run);
}

/* `layers` names the client its full stack went through, and compares
 * the kinds when the runs have several (issue 33). */
static void test_layers_client(void **state)
{
	char *out;

	(void)state;
	layered_client("lfuse.h5", "fuse", "fuse.ceph-fuse", 60 * MIB);
	layered_client("lkern.h5", "kernel", "ceph", 120 * MIB);
	run_cmd(&out, 3, "layers", P("lfuse.h5"), P("lkern.h5"));
	assert_non_null(strstr(
		out,
		"  full stack through: fuse (fuse.ceph-fuse on /mnt/cephfs: c1 c2)\n"));
	assert_non_null(strstr(
		out,
		"  full stack through: kernel (ceph on /mnt/cephfs: c1 c2)\n"));
	assert_non_null(strstr(out, "Full stack by client"));
	assert_non_null(strstr(out, "| fuse | 1 | "));
	assert_non_null(strstr(out, "| kernel | 1 | "));
	assert_non_null(strstr(out, "| libcephfs | 2 | "));
	free(out);
	/* one run: its mount's client next to its libcephfs layer */
	run_cmd(&out, 2, "layers", P("lfuse.h5"));
	assert_non_null(strstr(out, "| fuse | 1 | "));
	assert_non_null(strstr(out, "| libcephfs | 1 | "));
	assert_null(strstr(out, "| kernel |"));
	free(out);
}

/* A text row "METRIC CLIENT SCOPE RESULT ..." of accept's output. */
static bool has_row(const char *out, const char *metric, const char *client,
		    const char *scope, const char *result)
{
	for (const char *l = out; l && *l;
	     l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char m[64], c[64], sc[64], r[64];

		if (sscanf(l, " %63s %63s %63s %63s", m, c, sc, r) == 4 &&
		    !strcmp(m, metric) && !strcmp(c, client) &&
		    !strcmp(sc, scope) && !strcmp(r, result))
			return true;
	}
	return false;
}

static void test_accept(void **state)
{
	static const struct {
		double rank_bw; /* B/s per rank: 3 nodes x 2 ranks */
		const char *tier;
		int rc;
		const char *row[4]; /* metric client scope result */
		const char *want;
	} cases[] = {
		/* 6 x 20 MB/s = 120 MB/s in all, 36-44 MB/s per client: the
		 * aggregate met the old check, a client does not */
		{20e6,
		 "Agg",
		 1,
		 {"seq_read_bw", "n2", "together", "FAIL"},
		 "=> FAIL"},
		/* per client above 30 MB/s: together PASS, but no client ran
		 * alone: NOTRUN, exit 3 */
		{20e6,
		 "PerClient",
		 3,
		 {"seq_write_bw", "n3", "together", "PASS"},
		 "no write phase on n1 alone"},
		{20e6,
		 "PerClient",
		 3,
		 {"seq_read_bw", "n1", "alone", "NOTRUN"},
		 "=> NOTRUN"},
		/* seeds/002 measures random 4 MB: a sequential phase is not
		 * its measurement */
		{20e6,
		 "Rand",
		 3,
		 {"rand_read_bw", "n1", "together", "NOTRUN"},
		 "pattern sequential (tier: random)"},
		/* the tier's bs is 4 MiB, the file's 8 MiB */
		{20e6,
		 "Bs",
		 3,
		 {"seq_read_bw", "n1", "together", "NOTRUN"},
		 "bs 8 MiB (tier: 4 MiB)"},
	};
	struct ios_synth s;
	FILE *f;
	char *out;

	(void)state;
	f = fopen(P("tiers.conf"), "w");
	fputs("[tier \"Agg\"]\nseq_read_bw = 100MB\nseq_write_bw = 100MB\n\n"
	      "[tier \"PerClient\"]\nseq_read_bw = 30MB\nseq_write_bw = 30MB\n\n"
	      "[tier \"Rand\"]\nrand_read_bw = 1MB\n\n"
	      "[tier \"Bs\"]\nseq_read_bw = 1MB\nbw_bs = 4M\n",
	      f);
	fclose(f);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char tier[64];
		int rc;

		ios_synth_defaults(&s);
		s.rank_bw = cases[i].rank_bw;
		synth_file("acc.h5", &s);
		snprintf(tier, sizeof(tier), "--tier=%s", cases[i].tier);
		rc = run_cmd(&out, 5, "accept", "--tiers", P("tiers.conf"),
			     tier, P("acc.h5"));
		if (rc != cases[i].rc ||
		    !has_row(out, cases[i].row[0], cases[i].row[1],
			     cases[i].row[2], cases[i].row[3]) ||
		    !strstr(out, cases[i].want))
			fail_msg(
				"case %zu: exit %d (want %d), want row %s %s %s %s and '%s':\n%s",
				i, rc, cases[i].rc, cases[i].row[0],
				cases[i].row[1], cases[i].row[2],
				cases[i].row[3], cases[i].want, out);
		free(out);
	}
	/* all tiers: the best tier's verdict (PerClient: NOTRUN) */
	assert_int_equal(run_cmd(&out, 4, "accept", "--tiers", P("tiers.conf"),
				 P("acc.h5")),
			 3);
	free(out);
	/* bad input: exit 2 */
	assert_int_equal(run_cmd(&out, 5, "accept", "--tiers", P("tiers.conf"),
				 "--tier=Nope", P("acc.h5")),
			 2);
	free(out);
	assert_int_equal(run_cmd(&out, 5, "accept", "--tiers", P("tiers.conf"),
				 "--tier=Agg", P("missing.h5")),
			 2);
	free(out);
	/* the other formats */
	assert_int_equal(run_cmd(&out, 6, "accept", "--tiers", P("tiers.conf"),
				 "--tier=Agg", "--format=md", P("acc.h5")),
			 1);
	assert_non_null(
		strstr(out, "| seq\\_read\\_bw | n1 | together | **FAIL** |"));
	free(out);
	assert_int_equal(run_cmd(&out, 6, "accept", "--tiers", P("tiers.conf"),
				 "--tier=Agg", "--format=json", P("acc.h5")),
			 1);
	{
		json_error_t je;
		json_t *j = json_loads(out, 0, &je), *t, *r;

		if (!j)
			fail_msg("accept --format=json: %s:\n%s", je.text, out);
		assert_int_equal(json_integer_value(json_object_get(j, "exit")),
				 1);
		t = json_array_get(json_object_get(j, "tiers"), 0);
		assert_string_equal(
			json_string_value(json_object_get(t, "verdict")),
			"FAIL");
		r = json_array_get(json_object_get(t, "rows"), 0);
		assert_string_equal(
			json_string_value(json_object_get(r, "metric")),
			"seq_read_bw");
		assert_true(json_number_value(json_object_get(r, "margin")) <
			    0.5);
		json_decref(j);
	}
	free(out);
	assert_int_equal(run_cmd(&out, 6, "accept", "--tiers", P("tiers.conf"),
				 "--tier=Agg", "--format=html", P("acc.h5")),
			 1);
	assert_non_null(strstr(out, "<!DOCTYPE html>"));
	assert_non_null(strstr(out, "<td class=\"fail\">FAIL</td>"));
	/* self-contained: nothing fetched from elsewhere */
	assert_null(strstr(out, "http"));
	assert_null(strstr(out, "src="));
	free(out);
}

static void test_export(void **state)
{
	struct ios_synth s;
	char *out, *line;
	int rows = 0;

	(void)state;
	ios_synth_defaults(&s);
	synth_file("e1.h5", &s);
	s.nreps = 2;
	s.phases = "randwrite";
	synth_file("e2.h5", &s);
	assert_int_equal(run_cmd(&out, 3, "export", "--format=csv", P("e*.h5")),
			 0);
	assert_true(!strncmp(
		out,
		"file,run_id,created_utc,job,label,phase,layer,backend,bs,nranks,nnodes,rep,valid,invalid_reason,figure,value,unit,cpus,mem_bytes,disk_bw,replication,note,req_cpus,req_mem_bytes\n",
		130));
	for (line = out; (line = strchr(line, '\n')); line++)
		rows++;
	/* header + (2 phases x 3 reps + 1 phase x 2 reps) x 12 figures */
	assert_int_equal(rows, 1 + (6 + 2) * 12);
	assert_non_null(strstr(out, ",randwrite,"));
	assert_non_null(strstr(out, ",stonewall_iops,"));
	free(out);
	assert_int_equal(
		run_cmd(&out, 3, "export", "--format=json", P("e2.h5")), 0);
	assert_true(out[0] == '[');
	assert_non_null(strstr(out, "\"figure\":\"lat_p99_ns\""));
	free(out);
	assert_int_equal(run_cmd(&out, 3, "export", "--format=xml", P("e2.h5")),
			 REPORT_EXIT_USAGE);
	free(out);
}

/* CSV fields of one line, quotes honoured ("" inside quotes is one "). */
static int csv_fields(const char *line, char *phase, size_t len)
{
	int n = 1;
	bool q = false;
	size_t k = 0;

	for (const char *c = line; *c && *c != '\n'; c++) {
		if (*c == '"' && q && c[1] == '"') {
			c++;
		} else if (*c == '"') {
			q = !q;
			continue;
		} else if (*c == ',' && !q) {
			n++;
			continue;
		}
		if (n == 6 && k + 1 < len) /* the phase column */
			phase[k++] = *c;
	}
	if (len)
		phase[k < len ? k : len - 1] = '\0';
	return n;
}

/*
 * A results file is a user's: the phase, layer and backend names it holds
 * reach the CSV export and the Prometheus textfile that root's nightly
 * trend writes.  Quotes, commas and backslashes in them stay inside their
 * field and label (the CSV had them raw, so a comma shifted every column
 * after it; the textfile's phase label took a quote raw, forging labels
 * or making node_exporter reject the whole file).
 */
static void test_export_hostile_names(void **state)
{
	struct ios_synth s;
	struct ios_err err = {0};
	char *out, *line, path[256], phase[64], prom[300], buf[8192] = {0};
	int rows = 0;
	FILE *f;

	(void)state;
	ios_synth_defaults(&s);
	s.phases = "write";
	s.job_name = "hostile";
	for (int k = 0; k < 2; k++) {
		struct ios_run *run;

		s.seed = (unsigned)(k + 3);
		run = ios_synth_run(&s);
		assert_non_null(run);
		snprintf(run->phases[0].name, sizeof(run->phases[0].name), "%s",
			 "w\"r,i\\te");
		snprintf(run->phases[0].layer, sizeof(run->phases[0].layer),
			 "%s", "a,b");
		snprintf(run->phases[0].backend, sizeof(run->phases[0].backend),
			 "%s", "\"x");
		snprintf(path, sizeof(path), "%s/hn%d.h5", dir, k);
		assert_int_equal(ios_h5_write_run(path, run, &err), 0);
		ios_synth_free(run);
	}
	assert_int_equal(
		run_cmd(&out, 3, "export", "--format=csv", P("hn*.h5")), 0);
	for (line = strchr(out, '\n'); line && line[1];
	     line = strchr(line, '\n')) {
		line++;
		rows++;
		if (csv_fields(line, phase, sizeof(phase)) != 24)
			fail_msg("not 24 fields: %.200s", line);
		assert_string_equal(phase, "w\"r,i\\te");
	}
	assert_true(rows > 0);
	free(out);
	snprintf(prom, sizeof(prom), "--prometheus=%s/hn.prom", dir);
	run_cmd(&out, 3, "trend", prom, P("hn*.h5"));
	free(out);
	f = fopen(P("hn.prom"), "r");
	assert_non_null(f);
	if (fread(buf, 1, sizeof(buf) - 1, f) == 0)
		fail();
	fclose(f);
	if (!strstr(buf, "{job=\"hostile\",phase=\"w\\\"r,i\\\\te\",figure=\""))
		fail_msg("phase label not escaped:\n%.600s", buf);
	for (line = buf; (line = strstr(line, "phase=\"")); line++)
		assert_true(strncmp(line, "phase=\"w\\\"r,i\\\\te\"", 18) == 0);
}

static void test_show_and_bad_files(void **state)
{
	struct ios_synth s;
	char *out;
	FILE *f;

	(void)state;
	ios_synth_defaults(&s);
	s.cpus = 8;
	s.mem = 32ull << 30;
	synth_file("s1.h5", &s);
	s.cpus = 16;
	synth_file("s2.h5", &s);
	f = fopen(P("s3.h5"), "w");
	fputs("not hdf5", f);
	fclose(f);
	/* the bad file is reported, the others shown, exit code 1 */
	assert_int_equal(run_cmd(&out, 2, "show", P("s*.h5")), 1);
	assert_non_null(strstr(
		out,
		"^mode                ^ ranks^     c8/m32G^    c16/m32G^"));
	assert_non_null(strstr(out, "| write              |     6|"));
	assert_non_null(strstr(out, "write: stonewall_bw [MiB/s]"));
	assert_non_null(strstr(out, "min        avg        max"));
	free(out);
	assert_int_equal(run_cmd(&out, 2, "validate", P("s*.h5")), 1);
	assert_non_null(strstr(out, "OK      "));
	assert_non_null(strstr(out, "INVALID "));
	free(out);
	assert_int_equal(run_cmd(&out, 3, "show", "--figure=nope", P("s1.h5")),
			 REPORT_EXIT_USAGE);
	free(out);
}

/* The value in the first configuration column of show's row "| MODE |
 * RANKS | REPL |", NAN when there is no such row. */
static double repl_cell(const char *out, const char *mode, int ranks, int repl)
{
	char head[96];
	const char *row;
	double v = NAN;

	snprintf(head, sizeof(head), "| %-19s| %5d|%12d|", mode, ranks, repl);
	row = strstr(out, head);
	if (row && sscanf(row + strlen(head), "%lf", &v) != 1)
		v = NAN;
	return v;
}

/* A campaign with [sweep] replication = 2, 3: the same configuration on
 * pools of size 2 and 3 (the pool size recorded in each file).  show has a
 * row per factor (a replication column), not one mean over both; Table 4
 * (efficiency) a row per factor. */
static void test_show_replication(void **state)
{
	struct ios_synth s;
	char *out;
	double w2, w3, r2, r3;
	FILE *f;

	(void)state;
	ios_synth_defaults(&s);
	s.cpus = 8;
	s.mem = 32ull << 30;
	s.replication = 2;
	s.rank_bw = 100e6;
	synth_file("rf-2.h5", &s);
	s.replication = 3;
	s.rank_bw = 50e6;
	synth_file("rf-3.h5", &s);
	assert_int_equal(run_cmd(&out, 2, "show", P("rf-*.h5")), 0);
	assert_non_null(strstr(
		out,
		"^mode                ^ ranks^ replication^     c8/m32G^\n"));
	w2 = repl_cell(out, "write", 6, 2);
	w3 = repl_cell(out, "write", 6, 3);
	r2 = repl_cell(out, "read", 6, 2);
	r3 = repl_cell(out, "read", 6, 3);
	/* size 3 ran at half the rank rate of size 2: one mean over both
	 * (the bug) gives one row, or two equal ones */
	if (!(w2 / w3 > 1.8 && w2 / w3 < 2.2 && r2 / r3 > 1.8 && r2 / r3 < 2.2))
		fail_msg(
			"rows per factor: write %g %g read %g %g, want a ratio of ~2:\n%s",
			w2, w3, r2, r3, out);
	/* the write block's rows in factor order, then the read block */
	assert_true(strstr(out, "| write              |     6|           2|") <
		    strstr(out, "| write              |     6|           3|"));
	assert_true(strstr(out, "| write              |     6|           3|") <
		    strstr(out, "| read               |     6|           2|"));
	free(out);
	f = fopen(P("site-rf.conf"), "w");
	assert_non_null(f);
	fputs("[storage]\nnodes = 1\ndisks_per_node = 1\ndisk_bw = 1GB\n", f);
	fclose(f);
	assert_int_equal(run_cmd(&out, 4, "efficiency", "--site",
				 P("site-rf.conf"), P("rf-*.h5")),
			 0);
	if (!strstr(out, "\n| 2 | ") || !strstr(out, "\n| 3 | ") ||
	    strstr(out, "| unknown |"))
		fail_msg("Table 4 lacks a row per factor:\n%s", out);
	free(out);
}

/* show prints each run's mode: /config mode and how many repetitions are
 * size-based (a file without the key says "unknown"). */
static void test_show_mode(void **state)
{
	static const struct {
		const char *name, *mode;
		bool size_based;
		const char *want;
	} cases[] = {
		{"mo.h5", "once", true,
		 "mode once    6 of 6 repetition(s) size-based"},
		{"mt.h5", "time", false,
		 "mode time    0 of 6 repetition(s) size-based"},
		{"mu.h5", NULL, false,
		 "mode unknown 0 of 6 repetition(s) size-based"},
	};
	struct ios_err err = {0};
	struct ios_synth s;
	char *out;

	(void)state;
	ios_synth_defaults(&s);
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct ios_run *run;
		char lb[16];

		s.mode = cases[i].mode;
		s.size_based = cases[i].size_based;
		run = ios_synth_run(&s);
		assert_non_null(run);
		snprintf(lb, sizeof(lb), "run-%zu", i);
		assert_int_equal(ios_runrec_kv(run, "label", "%s", lb), 0);
		assert_int_equal(ios_h5_write_run(P(cases[i].name), run, &err),
				 0);
		ios_synth_free(run);
	}
	assert_int_equal(run_cmd(&out, 2, "show", P("m*.h5")), 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char line[128];

		snprintf(line, sizeof(line), "  run-%-20zu %s\n", i,
			 cases[i].want);
		if (!strstr(out, line))
			fail_msg("show lacks \"%s\":\n%s", line, out);
	}
	free(out);
}

static void test_trend(void **state)
{
	static const struct {
		double latest_bw;
		int rc;
		const char *verdict;
	} cases[] = {
		{100e6, 0, " ok "},
		{90e6, 0, " ok "},
		{70e6, 1, "REGRESSION"},
	};
	struct ios_synth s;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *out, prom[300], name[32];
		FILE *f;
		char buf[4096] = {0};

		ios_synth_defaults(&s);
		s.job_name = "nightly";
		s.phases = "write";
		for (int k = 0; k < 4; k++) {
			snprintf(name, sizeof(name), "t-%zu-%d.h5", i, k);
			s.seed = (unsigned)(k + 10);
			s.rank_bw = k == 3 ? cases[i].latest_bw : 100e6;
			synth_file(name, &s);
		}
		/* created_utc is equal: order falls back to the path */
		snprintf(prom, sizeof(prom), "--prometheus=%s/t.prom", dir);
		snprintf(name, sizeof(name), "t-%zu-*.h5", i);
		assert_int_equal(
			run_cmd(&out, 4, "trend", "--last=3", prom, P(name)),
			cases[i].rc);
		if (!strstr(out, cases[i].verdict))
			fail_msg("case %zu: no '%s' in:\n%s", i,
				 cases[i].verdict, out);
		free(out);
		f = fopen(P("t.prom"), "r");
		assert_non_null(f);
		if (fread(buf, 1, sizeof(buf) - 1, f) == 0)
			fail();
		fclose(f);
		assert_non_null(strstr(
			buf,
			"iostrata_regression{job=\"nightly\",phase=\"write\",figure=\"stonewall_bw\"} "));
	}
}

/* Applied configuration, replication, label and job key from metadata. */
static void test_derive(void **state)
{
	static const struct {
		const char *attach, *job, *node, *ceph, *repl_opt, *label_opt;
		long cpus;
		unsigned long long mem, disk_bw;
		int repl;
		const char *src, *label;
	} cases[] = {
		/* iostrata-node status attachment wins; lowest write throttle
		 */
		{"{\"applied\":{\"cpus_online\":8,\"mem_online_bytes\":34359738368,\"throttles\":[{\"write_bps\":200000000},{\"write_bps\":175000000}]}}",
		 "{\"applied\":{\"cpus\":\"1\",\"mem\":\"1\"}}", NULL, NULL,
		 NULL, NULL, 8, 34359738368ull, 175000000ull, 0, "attachment",
		 "c8/m32G/d175MB"},
		/* the plugin's applied file: the label is the request (20G
		 * is 20.6 GiB applied in this run, 20.9 in the next: issue
		 * 29), not c1/m21G */
		{"{\"requested\":{\"cpus\":1,\"mem_bytes\":21474836480},\"applied\":{\"cpus_online\":1,\"mem_online_bytes\":22100000000}}",
		 NULL, NULL, NULL, NULL, NULL, 1, 22100000000ull, 0, 0,
		 "attachment", "c1/m20G"},
		/* the job's IOSTRATA_APPLIED_* as strings */
		{"not json",
		 "{\"applied\":{\"cpus\":\"2\",\"mem\":\"1073741824\",\"disk_bw\":\"50000000\"}}",
		 NULL, NULL, NULL, NULL, 2, 1073741824ull, 50000000ull, 0,
		 "job", "c2/m1G/d50MB"},
		/* only the node's hardware: label falls back to the file */
		{NULL, "{\"applied\":{}}",
		 "{\"cpu\":{\"online_count\":2},\"memory\":{\"online_bytes\":2147483648}}",
		 NULL, NULL, NULL, 2, 2147483648ull, 0, 0, "node hardware",
		 "x"},
		/* replication from the data pool's size; label option wins */
		{NULL, NULL, "{}",
		 "{\"data_pool\":\"d\",\"pools\":[{\"name\":\"m\",\"size\":3},{\"name\":\"d\",\"size\":2}]}",
		 NULL, "mine", -1, 0, 0, 2, "node hardware", "mine"},
		/* the replication option overrides the pool */
		{NULL, NULL, "{}",
		 "{\"data_pool\":\"d\",\"pools\":[{\"name\":\"d\",\"size\":2}]}",
		 "3", NULL, -1, 0, 0, 3, "node hardware", "x"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ios_run run = {0};
		struct report_run rr = {0};
		struct ios_kv att = {"status", (char *)cases[i].attach};
		struct ios_kv cfg[2];
		char *node = (char *)cases[i].node;

		run.nnodes = 1;
		run.node_json = &node;
		run.job_json = (char *)cases[i].job;
		run.ceph_json = (char *)cases[i].ceph;
		if (cases[i].attach) {
			run.attachments = &att;
			run.nattach = 1;
		}
		if (cases[i].repl_opt) {
			cfg[run.nconfig].key = "replication";
			cfg[run.nconfig++].value = (char *)cases[i].repl_opt;
		}
		if (cases[i].label_opt) {
			cfg[run.nconfig].key = "label";
			cfg[run.nconfig++].value = (char *)cases[i].label_opt;
		}
		run.config = cfg;
		rr.run = &run;
		rr.path = "/some/dir/x.h5";
		report_derive(&rr);
		if (rr.cpus != cases[i].cpus || rr.mem != cases[i].mem ||
		    rr.disk_bw != cases[i].disk_bw ||
		    rr.replication != cases[i].repl ||
		    strcmp(rr.applied_src ? rr.applied_src : "",
			   cases[i].src) ||
		    strcmp(rr.label, cases[i].label))
			fail_msg(
				"case %zu: cpus %ld mem %llu disk %llu repl %d src %s label %s",
				i, rr.cpus, rr.mem, rr.disk_bw, rr.replication,
				rr.applied_src, rr.label);
		free(rr.label_buf);
		free(rr.job_buf);
	}
}

/*
 * A repetition run by a group of the run's ranks (a layered run's layer on
 * the storage hosts alone) numbers ranks and nodes within its group: the
 * recomputed figures keep its own per-node rates instead of mapping its
 * ranks through the run's rank table (before: its 2-entry node_bw was
 * rewritten with the run's 3 nodes, and with other hosts' rates).
 */
static void test_recompute_group(void **state)
{
	struct ios_synth s;
	struct ios_run *run;
	struct ios_rep_result *rep;

	(void)state;
	ios_synth_defaults(&s);
	run = ios_synth_run(&s);
	assert_non_null(run);
	assert_int_equal(run->nnodes, 3);
	rep = &run->phases[0].reps[0];
	rep->nranks = 4; /* two nodes' ranks: a group of the run's 6 */
	free(rep->node_bw);
	rep->node_bw = calloc(2, sizeof(double));
	assert_non_null(rep->node_bw);
	rep->node_bw[0] = 123.0;
	rep->node_bw[1] = 456.0;
	rep->nnodes = 2;
	report_recompute(run);
	assert_int_equal(rep->nnodes, 2);
	assert_true(rep->node_bw[0] == 123.0 && rep->node_bw[1] == 456.0);
	assert_true(rep->fig.window_bw > 0);
	/* the whole run's repetitions are recomputed over its nodes */
	assert_int_equal(run->phases[0].reps[1].nnodes, 3);
	rep->nranks = 6; /* the ranks' own arrays are freed by count */
	ios_synth_free(run);
}

/*
 * Issue 29 row 6: show's ranks column counts the ranks that ran the phase
 * (a layered run's device phase ran on the 3 storage ranks of 7); it said
 * the run's rank count on every phase.  export's nranks the same.
 */
static void test_show_phase_ranks(void **state)
{
	struct ios_synth s;
	struct ios_err err = {0};
	struct ios_run *run;
	char *out = NULL, *l;
	int seen = 0;

	(void)state;
	ios_synth_defaults(&s);
	run = ios_synth_run(&s);
	assert_non_null(run);
	assert_int_equal(run->nranks, 6);
	/* a layer's group (the reader refuses fewer ranks in a plain phase) */
	snprintf(run->phases[0].layer, sizeof(run->phases[0].layer), "%s",
		 "protocol");
	for (int r = 0; r < run->phases[0].nreps; r++)
		run->phases[0].reps[r].nranks = 4; /* a group of the 6 */
	assert_int_equal(ios_h5_write_run(P("group.h5"), run, &err), 0);
	for (int r = 0; r < run->phases[0].nreps; r++)
		run->phases[0].reps[r].nranks = 6; /* freed by count */
	ios_synth_free(run);
	assert_int_equal(run_cmd(&out, 2, "show", P("group.h5")), 0);
	for (l = out; (l = strstr(l, "stonewall_bw ")); l++) {
		const char *e = l;
		char phase[32];
		int nr = -1;

		while (e > out && e[-1] != '\n')
			e--;
		if (strncmp(e, "c2/m24G ", 8)) /* a table's title */
			continue;
		assert_int_equal(sscanf(e, "%*s %31s %d", phase, &nr), 2);
		assert_int_equal(nr, strcmp(phase, "write@protocol") ? 6 : 4);
		seen++;
	}
	assert_int_equal(seen, 2);
	/* the mode table's ranks column too */
	assert_non_null(strstr(out, "| write@protocol     |     4|"));
	assert_non_null(strstr(out, "| read               |     6|"));
	free(out);
	assert_int_equal(
		run_cmd(&out, 3, "export", "--format=json", P("group.h5")), 0);
	assert_non_null(strstr(out, "\"nranks\":4,"));
	assert_non_null(strstr(out, "\"nranks\":6,"));
	free(out);
}

/*
 * show --hosts over another user's host records: JSON decodes \u001b, so
 * an escape sequence in a field, a why_unknown key or reason reached the
 * terminal as ESC (the reader's text cleaning sees only the raw JSON).
 */
static void test_hosts_escapes(void **state)
{
	struct ios_synth s;
	struct ios_err err = {0};
	struct ios_run *run;
	char *out = NULL;

	(void)state;
	ios_synth_defaults(&s);
	run = ios_synth_run(&s);
	assert_non_null(run);
	for (int i = 0; i < run->nhosts; i++)
		free(run->host_json[i]);
	free(run->host_json);
	run->nhosts = 1;
	run->host_json = calloc(2, sizeof(char *));
	assert_non_null(run->host_json);
	run->host_json[0] = strdup(
		"{\"hostname\": \"h\\u001b]0;owned\\u0007\", \"role\": "
		"\"client\\u001b[2J\", \"why_unknown\": {\"k\\u001b[31m\": "
		"\"r\\u009b1m\"}}");
	assert_int_equal(ios_h5_write_run(P("hosts.h5"), run, &err), 0);
	ios_synth_free(run);
	assert_int_equal(run_cmd(&out, 3, "show", "--hosts", P("hosts.h5")), 0);
	assert_non_null(strstr(out, "host 0: h?]0;owned?"));
	assert_non_null(strstr(out, "role client?[2J"));
	assert_null(strchr(out, '\x1b'));
	assert_null(strchr(out, '\x07'));
	assert_null(strstr(out, "\xc2\x9b"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stats_agree),
		cmocka_unit_test(test_peak_paper),
		cmocka_unit_test(test_table4),
		cmocka_unit_test(test_efficiency_cmd),
		cmocka_unit_test(test_efficiency_layered),
		cmocka_unit_test(test_layers_client),
		cmocka_unit_test(test_accept),
		cmocka_unit_test(test_export),
		cmocka_unit_test(test_export_hostile_names),
		cmocka_unit_test(test_show_and_bad_files),
		cmocka_unit_test(test_show_mode),
		cmocka_unit_test(test_show_replication),
		cmocka_unit_test(test_trend),
		cmocka_unit_test(test_derive),
		cmocka_unit_test(test_hosts_escapes),
		cmocka_unit_test(test_recompute_group),
		cmocka_unit_test(test_show_phase_ranks),
	};

	return cmocka_run_group_tests_name("report", tests, setup, teardown);
}
