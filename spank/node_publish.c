/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * node_publish: what a node publishes for a job (node_internal.h): the
 * contract's <jobid>.applied.json (requested, applied, snapshot, or the
 * refusal) and <jobid>.env for the job's steps, and the JSON shape of a
 * node's state that the status shares.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonw.h"
#include "node.h"
#include "node_internal.h"

static void json_limits(struct jsonw *w, const struct snapshot *s)
{
	char dev[32];

	jsonw_key(w, "throttles");
	jsonw_arr_begin(w);
	for (size_t i = 0; i < s->n_thr; i++) {
		const struct snap_thr *t = &s->thr[i];

		snprintf(dev, sizeof(dev), "%u:%u", t->dev.maj, t->dev.min);
		jsonw_obj_begin(w);
		jsonw_kv_str(w, "cgroup", t->cg);
		jsonw_kv_str(w, "interface", t->ver == BLKIO_V1 ? "v1" : "v2");
		jsonw_kv_str(w, "device", dev);
		jsonw_kv_uint(w, "read_bps", t->lim.rbps);
		jsonw_kv_uint(w, "write_bps", t->lim.wbps);
		jsonw_kv_uint(w, "read_iops", t->lim.riops);
		jsonw_kv_uint(w, "write_iops", t->lim.wiops);
		jsonw_obj_end(w);
	}
	jsonw_arr_end(w);
}

void node_json_state(struct jsonw *w, const struct snapshot *s,
		     unsigned cpus_online, const char *cpu_list,
		     uint64_t mem_bytes)
{
	unsigned off_blocks = 0;

	for (size_t i = 0; i < s->n_mem; i++)
		off_blocks += !s->mem[i].online;
	jsonw_obj_begin(w);
	jsonw_kv_uint(w, "cpus_online", cpus_online);
	jsonw_kv_str(w, "cpu_list", cpu_list);
	jsonw_kv_uint(w, "mem_online_bytes", mem_bytes);
	jsonw_kv_uint(w, "mem_block_size", s->block_size);
	jsonw_kv_uint(w, "mem_blocks_offline", off_blocks);
	json_limits(w, s);
	jsonw_obj_end(w);
}

static void snap_cpu_list(const struct snapshot *s, char *buf, size_t len,
			  unsigned *n)
{
	/* cpu0 (not hot-pluggable) is always online. */
	size_t off = (size_t)snprintf(buf, len, "0");

	*n = 1;
	for (size_t i = 0; i < s->n_cpu; i++)
		if (s->cpu[i].online) {
			(*n)++;
			if (off < len)
				off += (size_t)snprintf(buf + off, len - off,
							",%d", s->cpu[i].id);
		}
}

static uint64_t snap_mem(const struct snapshot *s)
{
	uint64_t k = 0;

	for (size_t i = 0; i < s->n_mem; i++)
		k += s->mem[i].online;
	return k * s->block_size;
}

static void json_req(struct jsonw *w, const struct iostrata_req *req)
{
	jsonw_obj_begin(w);
	if (req->has_cpus)
		jsonw_kv_uint(w, "cpus", req->cpus);
	if (req->has_mem)
		jsonw_kv_uint(w, "mem_bytes", req->mem);
	if (req->has_bw) {
		jsonw_kv_uint(w, "write_bps", req->wbps);
		jsonw_kv_uint(w, "read_bps", req->rbps);
	}
	if (req->has_iops)
		jsonw_kv_uint(w, "iops", req->iops);
	if (req->has_profile)
		jsonw_kv_str(w, "profile", req->profile);
	if (req->has_mds_cpus)
		jsonw_kv_double(w, "mds_cpus", req->mds_mcpus / 1000.0);
	if (req->has_mds_mem)
		jsonw_kv_uint(w, "mds_mem_bytes", req->mds_mem);
	if (req->has_mds_cache)
		jsonw_kv_uint(w, "mds_cache_bytes", req->mds_cache);
	jsonw_obj_end(w);
}

int node_publish(struct node_ctx *c, const char *jobid,
		 const struct iostrata_req *req, const struct snapshot *snap,
		 const struct snapshot *now, const struct node_omt *omt,
		 const char *refused)
{
	char name[STATE_ID_MAX + 16], list[512], path[4200];
	char *buf = NULL;
	size_t len = 0;
	unsigned ncpu = 0;
	uint64_t mem = 0;
	struct jsonw w;
	FILE *f;
	int rc;

	if (sysfs_pathf(name, sizeof(name), "%s.applied.json", jobid) < 0 ||
	    sysfs_pathf(path, sizeof(path), "%s/%s", c->sd.path, name) < 0)
		return -ENAMETOOLONG;
	f = open_memstream(&buf, &len);
	if (!f)
		return -ENOMEM;
	jsonw_init(&w, f, true);
	jsonw_obj_begin(&w);
	jsonw_kv_str(&w, "jobid", jobid);
	jsonw_kv_str(&w, "node", c->node);
	jsonw_key(&w, "requested");
	json_req(&w, req);
	if (refused) {
		jsonw_kv_str(&w, "refused", refused);
	} else {
		ncpu = node_count_online_cpus(&c->fs, list, sizeof(list));
		mem = node_online_mem(&c->fs);
		jsonw_key(&w, "applied");
		node_json_state(&w, now, ncpu, list, mem);
		snap_cpu_list(snap, list, sizeof(list), &ncpu);
		jsonw_key(&w, "snapshot");
		node_json_state(&w, snap, ncpu, list, snap_mem(snap));
		if (omt && omt->active)
			node_omt_json(&w, omt);
		node_mds_json(&w, c, req, snap);
		if (req->has_bw || req->has_iops) {
			/* where the job's own tasks on this host do I/O */
			jsonw_key(&w, "job_cgroup");
			if (snap->jobcg[0])
				jsonw_str(&w, snap->jobcg);
			else
				jsonw_null(&w);
			jsonw_kv_str(
				&w, "job_throttle",
				snap->jobcg[0]
					? "the job's tasks join job_cgroup, throttled like the OSDs"
				: c->pol->throttle_job
					? "not applied: the OSDs' throttles are cgroup v2 (the job's cgroup is Slurm's)"
					: "off (policy throttle_job = no): the job's tasks are not throttled");
		}
	}
	jsonw_obj_end(&w);
	rc = jsonw_finish(&w);
	if (fclose(f) != 0 && rc == 0)
		rc = -EIO;
	if (rc == 0)
		rc = state_write_public(&c->sd, name, buf, len, 0644);
	free(buf);
	buf = NULL;
	len = 0;
	if (rc < 0)
		return rc;
	f = open_memstream(&buf, &len);
	if (!f)
		return -ENOMEM;
	if (req->has_cpus)
		fprintf(f, "IOSTRATA_REQ_CPUS=%s\n", req->raw_cpus);
	if (req->has_mem)
		fprintf(f, "IOSTRATA_REQ_MEM=%s\n", req->raw_mem);
	if (req->has_bw)
		fprintf(f, "IOSTRATA_REQ_DISK_BW=%s\n", req->raw_bw);
	if (req->has_iops)
		fprintf(f, "IOSTRATA_REQ_DISK_IOPS=%s\n", req->raw_iops);
	if (req->has_profile)
		fprintf(f, "IOSTRATA_REQ_PROFILE=%s\n", req->profile);
	node_mds_env(f, c, req, refused ? NULL : snap);
	if (refused) {
		fputs("IOSTRATA_REFUSED=", f);
		for (const char *p = refused; *p; p++)
			fputc((unsigned char)*p < 0x20 ? '?' : *p, f);
		fputc('\n', f);
	} else {
		ncpu = node_count_online_cpus(&c->fs, list, sizeof(list));
		fprintf(f, "IOSTRATA_APPLIED_CPUS=%u\n", ncpu);
		fprintf(f, "IOSTRATA_APPLIED_CPU_LIST=%s\n", list);
		fprintf(f, "IOSTRATA_APPLIED_MEM=%" PRIu64 "\n", mem);
		if (now->n_thr) {
			fprintf(f,
				"IOSTRATA_APPLIED_DISK_BW=%" PRIu64 ",%" PRIu64
				"\n",
				now->thr[0].lim.wbps, now->thr[0].lim.rbps);
			fprintf(f, "IOSTRATA_APPLIED_DISK_IOPS=%" PRIu64 "\n",
				now->thr[0].lim.wiops);
		}
		if (snap->jobcg[0])
			fprintf(f, "IOSTRATA_APPLIED_JOB_CGROUP=%s\n",
				snap->jobcg);
	}
	fprintf(f, "IOSTRATA_APPLIED_FILE=%s\n", path);
	if (fclose(f) != 0) {
		free(buf);
		return -EIO;
	}
	if (sysfs_pathf(name, sizeof(name), "%s.env", jobid) < 0) {
		free(buf);
		return -ENAMETOOLONG;
	}
	rc = state_write_public(&c->sd, name, buf, len, 0644);
	free(buf);
	return rc;
}

int node_publish_refusal(struct node_ctx *c, const char *jobid,
			 const struct iostrata_req *req, const char *msg)
{
	return node_publish(c, jobid, req, NULL, NULL, NULL, msg);
}
