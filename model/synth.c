/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * synth: a synthetic run with raw per-rank data that agrees with itself
 * (bytes = sum of samples, stonewall bytes before the first end, ...).
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "synth.h"

void ios_synth_defaults(struct ios_synth *s)
{
	memset(s, 0, sizeof(*s));
	s->nnodes = 3;
	s->ranks_per_node = 2;
	s->phases = "write,read";
	s->nreps = 3;
	s->bs = 8u << 20;
	s->rank_bw = 100e6;
	s->runtime_s = 10;
	s->nsamples = 10;
	s->seed = 1;
	s->straggler = -1;
	s->early_rank = -1;
	s->element = -1;
}

static double rnd(unsigned *st)
{
	*st = *st * 1103515245u + 12345u;
	return ((*st >> 8) & 0xffff) / 65536.0;
}

static void kv(struct ios_kv *k, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void kv(struct ios_kv *k, const char *key, const char *fmt, ...)
{
	va_list ap;

	k->key = strdup(key);
	va_start(ap, fmt);
	if (vasprintf(&k->value, fmt, ap) < 0)
		k->value = NULL;
	va_end(ap);
}

static void fill_rep(const struct ios_synth *s, struct ios_rep_result *rep,
		     int r, int is_read, unsigned *st)
{
	int n = s->nnodes * s->ranks_per_node;
	int64_t t0 = (int64_t)r * (int64_t)((s->runtime_s + 1) * 1e9);
	int64_t win = (int64_t)(s->runtime_s * 1e9);
	int64_t first_end = INT64_MAX;
	uint64_t total = 0, ops = 0;
	double sum_bw = 0;

	rep->rep = r;
	rep->valid = true;
	rep->size_based = s->size_based;
	rep->interval_s = s->runtime_s / s->nsamples;
	rep->nranks = n;
	rep->nnodes = s->nnodes;
	rep->t_start_ns = t0;
	rep->ranks = calloc((size_t)n, sizeof(*rep->ranks));
	rep->lat_hist = calloc((size_t)n * IOS_LAT_BUCKETS, sizeof(uint64_t));
	rep->node_bw = calloc((size_t)s->nnodes, sizeof(double));
	for (int i = 0; i < n; i++) {
		struct ios_rank_result *rr = &rep->ranks[i];
		struct ios_lathist h;
		double bw = s->rank_bw * (0.9 + 0.2 * rnd(st));
		int64_t end = t0 + win;
		uint64_t bytes, nops;

		if (i == s->straggler)
			bw *= 0.5;
		if (i == s->early_rank)
			end = t0 + (int64_t)(win * 0.96);
		if (s->disk_bw && !is_read &&
		    bw > (double)s->disk_bw / s->ranks_per_node)
			bw = (double)s->disk_bw / s->ranks_per_node *
			     (0.92 + 0.08 * rnd(st));
		if (s->cpus)
			bw *= 0.6 + 0.4 * fmin(1.0, s->cpus / 16.0);
		if (s->mem)
			bw *= 0.7 +
			      0.3 * fmin(1.0, s->mem / (64.0 * (1 << 30)));
		nops = (uint64_t)(bw * (end - t0) / 1e9 / s->bs);
		bytes = nops * s->bs;
		rr->rank = i;
		rr->bytes[is_read ? IOS_OP_READ : IOS_OP_WRITE] = bytes;
		rr->ops[is_read ? IOS_OP_READ : IOS_OP_WRITE] = nops;
		rr->t_start_ns = t0 + 1000 * i;
		rr->t_end_ns = end;
		rr->cpu_user_s = 0.01 * s->runtime_s;
		rr->cpu_sys_s = 0.05 * s->runtime_s;
		ios_lathist_init(&h);
		for (uint64_t k = 0; k < (nops < 2000 ? nops : 2000); k++)
			ios_lathist_add(&h, (uint64_t)(s->bs / bw * 1e9 *
						       (0.5 + rnd(st))));
		rr->lat = ios_lathist_summary(&h);
		memcpy(rep->lat_hist + (size_t)i * IOS_LAT_BUCKETS, h.count,
		       sizeof(h.count));
		rr->nsamples = (uint32_t)s->nsamples;
		rr->sample_bytes =
			calloc((size_t)s->nsamples, sizeof(uint64_t));
		rr->sample_ops = calloc((size_t)s->nsamples, sizeof(uint64_t));
		for (int k = 0; k < s->nsamples; k++) {
			uint64_t o = nops * (uint64_t)(k + 1) /
				     (uint64_t)s->nsamples;

			rr->sample_ops[k] = o;
			rr->sample_bytes[k] = o * s->bs;
		}
		if (end < first_end)
			first_end = end;
		rep->node_bw[i / s->ranks_per_node] += bw;
		if (end > rep->t_end_ns)
			rep->t_end_ns = end;
		total += bytes;
		ops += nops;
		sum_bw += bytes / ((end - rr->t_start_ns) / 1e9);
	}
	for (int i = 0; i < n; i++) {
		struct ios_rank_result *rr = &rep->ranks[i];
		double frac = (double)(first_end - rr->t_start_ns) /
			      (double)(rr->t_end_ns - rr->t_start_ns);
		uint64_t nops = rr->ops[0] + rr->ops[1];

		rr->stonewall_ops = (uint64_t)(nops * fmin(1.0, frac));
		rr->stonewall_bytes = rr->stonewall_ops * s->bs;
		rep->fig.stonewall_bw += rr->stonewall_bytes;
	}
	if (s->early_rank >= 0) {
		rep->valid = false;
		snprintf(rep->invalid_reason, sizeof(rep->invalid_reason),
			 "rank %d ended early", s->early_rank);
		rep->ranks[s->early_rank].ended_early = 1;
	}
	rep->fig.bytes = total;
	rep->fig.ops = ops;
	rep->fig.stonewall_bw /= (first_end - t0) / 1e9;
	rep->fig.window_bw = total / ((rep->t_end_ns - t0) / 1e9);
	rep->fig.sum_rank_bw = sum_bw;
	rep->fig.stonewall_iops = rep->fig.stonewall_bw / s->bs;
	rep->fig.window_iops = rep->fig.window_bw / s->bs;
	rep->fig.sum_rank_iops = sum_bw / s->bs;
	rep->fig.cpu_s_per_gib =
		0.06 * s->runtime_s * n / (total / 1073741824.0);
	if (s->early_rank >= 0) {
		rep->errors = calloc(1, sizeof(*rep->errors));
		rep->nerrors = 1;
		rep->errors[0].rank = s->early_rank;
		rep->errors[0].op = is_read ? IOS_OP_READ : IOS_OP_WRITE;
		rep->errors[0].offset = 4096;
		rep->errors[0].len = s->bs;
		rep->errors[0].result = -5;
		rep->errors[0].t_ns = first_end;
		rep->ranks[s->early_rank].errors = 1;
		rep->ranks[s->early_rank].first_errno = 5;
	}
}

struct ios_run *ios_synth_run(const struct ios_synth *s)
{
	struct ios_run *run = calloc(1, sizeof(*run));
	unsigned st = s->seed ? s->seed : 1;
	char *phases, *save = NULL, *tok;
	int n = s->nnodes * s->ranks_per_node, k = 0;

	if (!run)
		return NULL;
	if (asprintf(&run->run_id, "synth-%08x-%u", s->seed, (unsigned)rand()) <
	    0)
		run->run_id = NULL;
	run->created_utc = strdup("2026-11-29T22:00:00Z");
	run->tool = strdup("iostrata-synth");
	run->command_line = strdup("iostrata-synth --rw=write,read 'a b'");
	run->status = strdup("complete");
	run->nranks = n;
	run->nnodes = s->nnodes;
	run->rank_info = calloc((size_t)n, sizeof(*run->rank_info));
	for (int i = 0; i < n; i++) {
		run->rank_info[i].rank = i;
		run->rank_info[i].node = i / s->ranks_per_node;
		snprintf(run->rank_info[i].host, sizeof(run->rank_info[i].host),
			 "n%d", i / s->ranks_per_node + 1);
		run->rank_info[i].cpu = i % 2;
		run->rank_info[i].pid = 1000 + i;
		run->rank_info[i].clock_skew_ns = 500;
	}
	run->node_json = calloc((size_t)s->nnodes, sizeof(char *));
	for (int i = 0; i < s->nnodes; i++)
		if (asprintf(
			    &run->node_json[i],
			    "{\"hostname\":\"host\",\"slurm_node\":\"n%d\",\"cpu\":{\"model\":\"AMD EPYC\",\"online\":\"0-1\",\"online_count\":2},\"memory\":{\"total_bytes\":25769803776,\"online_bytes\":%llu},\"block_devices\":[{\"name\":\"vda\",\"rotational\":0,\"size_bytes\":1000}],\"nics\":[]}",
			    i + 1,
			    (unsigned long long)(s->mem ? s->mem
							: 25769803776ull)) < 0)
			run->node_json[i] = NULL;
	if (asprintf(
		    &run->job_json,
		    "{\"job_id\":\"42\",\"partition\":\"local\",\"nodelist\":\"n[1-3]\",\"requested\":{\"cpus\":\"%d\",\"mem\":\"%llu\"},\"applied\":{\"cpus\":\"%d\",\"mem\":\"%llu\",\"disk_bw\":\"%llu\"}}",
		    s->req_cpus ? s->req_cpus : s->cpus,
		    (unsigned long long)(s->req_mem ? s->req_mem : s->mem),
		    s->cpus, (unsigned long long)s->mem,
		    (unsigned long long)s->disk_bw) < 0)
		run->job_json = NULL;
	run->ceph_json = strdup(
		"{\"fsid\":\"00000000-0000-0000-0000-000000000000\",\"version\":\"16.2.15\",\"osds\":{\"total\":3,\"up\":3,\"in\":3},\"pools\":[{\"name\":\"bench\",\"size\":3,\"min_size\":2,\"pg_num\":8,\"crush_rule\":0},{\"name\":\"cephfs_data\",\"size\":%REPL%,\"min_size\":1,\"pg_num\":8,\"crush_rule\":0}],\"data_pool\":\"cephfs_data\"%OMT%}");
	if (run->ceph_json) {
		char *p = strstr(run->ceph_json, "%OMT%"), *nj;

		/* the monitors' osd_memory_target, as facts record it */
		if (p) {
			*p = '\0';
			if (s->osd_memory_target &&
			    asprintf(
				    &nj,
				    "%s,\"config\":[{\"section\":\"osd\",\"name\":\"osd_memory_target\",\"value\":\"%llu\",\"mask\":\"\"}]%s",
				    run->ceph_json,
				    (unsigned long long)s->osd_memory_target,
				    p + 5) >= 0) {
				free(run->ceph_json);
				run->ceph_json = nj;
			} else {
				memmove(p, p + 5, strlen(p + 5) + 1);
			}
		}
	}
	if (run->ceph_json) {
		char *p = strstr(run->ceph_json, "%REPL%");

		if (p) {
			char *nj;

			*p = '\0';
			if (asprintf(&nj, "%s%d%s", run->ceph_json,
				     s->replication ? s->replication : 3,
				     p + 6) >= 0) {
				free(run->ceph_json);
				run->ceph_json = nj;
			}
		}
	}
	run->config = calloc(9, sizeof(*run->config));
	kv(&run->config[run->nconfig++], "bs", "%llu",
	   (unsigned long long)s->bs);
	kv(&run->config[run->nconfig++], "rw", "%s", s->phases);
	kv(&run->config[run->nconfig++], "reps", "%d", s->nreps);
	kv(&run->config[run->nconfig++], "backend", "%s", "posix");
	kv(&run->config[run->nconfig++], "job_name", "%s",
	   s->job_name ? s->job_name : "synth");
	if (s->replication)
		kv(&run->config[run->nconfig++], "replication", "%d",
		   s->replication);
	if (s->mode)
		kv(&run->config[run->nconfig++], "mode", "%s", s->mode);
	if (s->size)
		kv(&run->config[run->nconfig++], "size", "%llu",
		   (unsigned long long)s->size);
	run->attachments = calloc(2, sizeof(*run->attachments));
	run->nattach = 1;
	run->attachments[0].key = strdup("node_status");
	if (asprintf(
		    &run->attachments[0].value,
		    "{\"node\":\"n1\",\"applied\":{\"cpus_online\":%d,\"cpu_list\":\"0\",\"mem_online_bytes\":%llu,\"throttles\":[{\"cgroup\":\"osd.0\",\"device\":\"254:0\",\"read_bps\":0,\"write_bps\":%llu,\"read_iops\":0,\"write_iops\":0}]}}",
		    s->cpus ? s->cpus : 2,
		    (unsigned long long)(s->mem ? s->mem : 25769803776ull),
		    (unsigned long long)s->disk_bw) < 0)
		run->attachments[0].value = NULL;
	if (s->element >= 0) {
		run->attachments[1].key = strdup("element");
		if (asprintf(
			    &run->attachments[1].value,
			    "{\"index\": %d, \"label\": \"e%d\", \"baseline\": %s}",
			    s->element, s->element,
			    s->baseline ? "true" : "false") < 0)
			run->attachments[1].value = NULL;
		run->nattach = 2;
	}

	phases = strdup(s->phases);
	for (tok = strtok_r(phases, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		k++;
	free(phases);
	run->phases = calloc((size_t)k + 1, sizeof(*run->phases));
	phases = strdup(s->phases);
	for (tok = strtok_r(phases, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		struct ios_phase_result *ph = &run->phases[run->nphases++];
		int is_read = strstr(tok, "read") != NULL;

		snprintf(ph->name, sizeof(ph->name), "%s", tok);
		snprintf(ph->backend, sizeof(ph->backend), "posix");
		ph->bs = s->bs;
		ph->rwmixread = is_read ? 100 : 0;
		ph->nreps = s->nreps;
		ph->reps = calloc((size_t)s->nreps, sizeof(*ph->reps));
		for (int r = 0; r < s->nreps; r++)
			fill_rep(s, &ph->reps[r], r, is_read, &st);
	}
	free(phases);
	return run;
}

char *ios_synth_host_record(const char *name, const char *role, const char *mpi,
			    bool why)
{
	char *s = NULL;

	if (asprintf(
		    &s,
		    "{\"hostname\":\"%s\",\"role\":\"%s\",\"role_source\":\"test\",\"slurm_node\":\"%s\",\"kernel\":\"6.1\",\"os\":\"Debian\","
		    "\"cpu\":{\"model\":\"X\",\"online_count\":2,\"microcode\":\"0x1\",\"frequency\":{\"driver\":\"unknown\",\"governor\":\"unknown\",\"base_khz\":\"unknown\",\"min_khz\":\"unknown\",\"max_khz\":\"unknown\",\"why_unknown\":{\"driver\":\"no cpufreq\",\"governor\":\"no cpufreq\",\"base_khz\":\"no cpufreq\",\"min_khz\":\"no cpufreq\",\"max_khz\":\"no cpufreq\"}}},"
		    "\"memory\":{\"total_bytes\":1024},"
		    "\"system\":{\"sys_vendor\":\"Dell\",\"product_name\":\"R760\",\"product_version\":\"1\",\"board_vendor\":\"Dell\",\"board_name\":\"B\",\"bios_vendor\":\"Dell\",\"bios_version\":\"2.1\",\"bios_date\":\"01/01/2026\","
		    "\"dimms\":[{\"locator\":\"A1\",\"size_bytes\":17179869184,\"speed_mts\":4800,\"manufacturer\":\"Samsung\",\"part_number\":\"M321\"}]},"
		    "\"block_devices\":[{\"name\":\"sda\",\"model\":\"M\",\"vendor\":\"V\",\"serial\":\"S\",\"firmware\":\"F\",\"rotational\":1,\"scheduler\":\"none\",\"nr_requests\":64,\"queue_depth\":32,\"size_bytes\":1000}],"
		    "\"nics\":[{\"name\":\"eth0\",\"speed_mbps\":25000,\"mtu\":9000,\"driver\":\"mlx5_core\",\"state\":\"up\"}],"
		    "\"infiniband\":[{\"device\":\"mlx5_0\",\"port\":1,\"rate\":\"100 Gb/sec (4X EDR)\",\"state\":\"4: ACTIVE\",\"link_layer\":\"InfiniBand\"}],"
		    "\"slurm\":{\"version_built\":\"22.05.8\",\"conf\":\"/etc/slurm/slurm.conf\",\"SelectType\":\"select/cons_tres\",\"SelectTypeParameters\":\"CR_Core\",\"TaskPlugin\":\"task/cgroup\",\"ProctrackType\":\"proctrack/cgroup\",\"PrologFlags\":\"unset (default)\","
		    "\"cgroup\":{\"conf\":\"/etc/slurm/cgroup.conf\",\"CgroupPlugin\":\"autodetect\",\"ConstrainCores\":\"yes\",\"ConstrainRAMSpace\":\"yes\",\"ConstrainDevices\":\"no\"}},"
		    "\"mpi_library\":\"%s\",\"shape\":{\"requested\":{\"cpus\":2},\"applied\":{\"cpus\":2}}%s}",
		    name, role, name, mpi,
		    why ? ",\"why_unknown\":{\"mpi_library\":\"not MPI\"}"
			: "") < 0)
		return NULL;
	return s;
}

void ios_synth_free(struct ios_run *run)
{
	/* same ownership as the reader's runs */
	ios_run_free(run);
}
