/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results: releasing the in-memory model of a run (results.h).  One routine
 * frees what every producer of a run allocates: the reader, the benchmark's
 * rank 0 and the layered run.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "results.h"

void ios_phase_result_clear(struct ios_phase_result *ph)
{
	for (int i = 0; ph->reps && i < ph->nreps; i++) {
		struct ios_rep_result *rep = &ph->reps[i];

		for (int j = 0; rep->ranks && j < rep->nranks; j++) {
			free(rep->ranks[j].sample_bytes);
			free(rep->ranks[j].sample_ops);
		}
		free(rep->ranks);
		free(rep->lat_hist);
		free(rep->errors);
		free(rep->node_bw);
	}
	free(ph->reps);
	ph->reps = NULL;
	ph->nreps = 0;
}

static void free_kv(struct ios_kv *kv, size_t n)
{
	for (size_t i = 0; kv && i < n; i++) {
		free(kv[i].key);
		free(kv[i].value);
	}
	free(kv);
}

void ios_run_clear(struct ios_run *run)
{
	free(run->run_id);
	free(run->created_utc);
	free(run->tool);
	free(run->tool_version);
	free(run->git_revision);
	free(run->build_options);
	free(run->command_line);
	free(run->status);
	free(run->verdict);
	free_kv(run->config, run->nconfig);
	free(run->rank_info);
	for (int i = 0; run->node_json && i < run->nnodes; i++)
		free(run->node_json[i]);
	free(run->node_json);
	free(run->job_json);
	free(run->ceph_json);
	free_kv(run->attachments, run->nattach);
	for (int k = 0; run->phases && k < run->nphases; k++)
		ios_phase_result_clear(&run->phases[k]);
	free(run->phases);
	free(run->layers);
	free(run->net);
	memset(run, 0, sizeof(*run));
}

void ios_run_free(struct ios_run *run)
{
	if (!run)
		return;
	ios_run_clear(run);
	free(run);
}
