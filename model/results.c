/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results: releasing the in-memory model of a run (results.h).  One routine
 * frees what every producer of a run allocates: the reader, the benchmark's
 * rank 0 and the layered run.
 */
#include "config.h"

#include <stdbool.h>
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
	for (int i = 0; run->host_json && i < run->nhosts; i++)
		free(run->host_json[i]);
	free(run->host_json);
	free(run->job_json);
	free(run->ceph_json);
	free_kv(run->attachments, run->nattach);
	for (int k = 0; run->phases && k < run->nphases; k++)
		ios_phase_result_clear(&run->phases[k]);
	free(run->phases);
	free(run->layers);
	free(run->net);
	for (int k = 0; run->meta && k < run->nmeta; k++)
		ios_meta_phase_clear(&run->meta[k]);
	free(run->meta);
	memset(run, 0, sizeof(*run));
}

/*
 * Make [s] safe to print on a terminal, in place: C0 control bytes
 * (ESC included) and DEL become '?', and so do both bytes of a UTF-8 C1
 * control (U+0080-U+009F, e.g. CSI); newlines and tabs are kept only when
 * [lines] is set.  Other UTF-8 is left alone.
 */
static void clean(char *s, bool lines)
{
	for (unsigned char *p = (unsigned char *)s; p && *p; p++) {
		if ((*p < 0x20 && !(lines && (*p == '\n' || *p == '\t'))) ||
		    *p == 0x7f)
			*p = '?';
		else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			*p = p[1] = '?';
	}
}

void ios_text_sanitize(char *s, bool lines)
{
	clean(s, lines);
}

void ios_run_sanitize_text(struct ios_run *run)
{
	char *hdr[] = {run->run_id,       run->created_utc,  run->tool,
		       run->tool_version, run->git_revision, run->build_options,
		       run->command_line, run->status};

	for (size_t i = 0; i < sizeof(hdr) / sizeof(hdr[0]); i++)
		clean(hdr[i], false);
	clean(run->verdict, true);
	for (size_t i = 0; run->config && i < run->nconfig; i++) {
		clean(run->config[i].key, false);
		clean(run->config[i].value, false);
	}
	for (size_t i = 0; run->attachments && i < run->nattach; i++)
		clean(run->attachments[i].key, false);
	for (int i = 0; run->rank_info && i < run->nranks; i++)
		clean(run->rank_info[i].host, false);
	for (int k = 0; run->phases && k < run->nphases; k++) {
		struct ios_phase_result *ph = &run->phases[k];

		clean(ph->name, false);
		clean(ph->layer, false);
		clean(ph->backend, false);
		for (int r = 0; ph->reps && r < ph->nreps; r++)
			clean(ph->reps[r].invalid_reason, false);
	}
	for (int i = 0; run->layers && i < run->nlayers; i++) {
		clean(run->layers[i].name, false);
		clean(run->layers[i].source, false);
		clean(run->layers[i].note, false);
	}
}

void ios_run_free(struct ios_run *run)
{
	if (!run)
		return;
	ios_run_clear(run);
	free(run);
}
