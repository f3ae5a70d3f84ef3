/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * config_record: the configuration a run ran with, as run record keys
 * (mb_runrec.h).  No MPI: unit tests build records of both kinds of run.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "mb_runrec.h"
#include "runrec.h"

int mb_runrec_config(struct ios_run *run, const struct mb_config *c)
{
	char rw[128] = "";
	int i, rc = 0;

	for (i = 0; i < c->npatterns; i++) {
		if (i)
			strcat(rw, ",");
		strcat(rw, mb_pattern_name(c->patterns[i]));
	}
	rc |= ios_runrec_kv(run, "rw", "%s", rw);
	rc |= ios_runrec_kv(run, "rwmixread", "%d", c->rwmixread);
	rc |= ios_runrec_kv(run, "bs", "%" PRIu64, c->bs);
	rc |= ios_runrec_kv(run, "size", "%" PRIu64, c->size);
	rc |= ios_runrec_kv(run, "dir", "%s", c->dir ? c->dir : "");
	rc |= ios_runrec_kv(run, "iodepth", "%u", c->iodepth);
	rc |= ios_runrec_kv(run, "iodepth_batch", "%u", c->iodepth_batch);
	rc |= ios_runrec_kv(run, "ioengine", "%s", mb_config_engine(c));
	rc |= ios_runrec_kv(run, "backend", "%s", c->backend->name);
	/* "once": size-based, each rank moved its file once (runtime 0);
	 * "time": time-based, for runtime seconds */
	rc |= ios_runrec_kv(run, "mode", "%s", c->once ? "once" : "time");
	rc |= ios_runrec_kv(run, "runtime", "%g", c->runtime);
	/* "per-rank" (N-to-N) or "shared" (N-to-1: one file of ranks x size
	 * bytes, IOR's segmented layout with segments of shared_block bytes
	 * per rank; mpibench/engine/segment.h) */
	rc |= ios_runrec_kv(run, "file_layout", "%s",
			    mb_file_layout_name(c->file_layout));
	if (c->file_layout == MB_LAYOUT_SHARED)
		rc |= ios_runrec_kv(run, "shared_block", "%" PRIu64,
				    c->shared_block);
	if (c->nmeta) { /* the metadata phases (engine/meta.h) */
		char meta[128] = "";

		for (i = 0; i < c->nmeta; i++) {
			if (i)
				strcat(meta, ",");
			strcat(meta, mb_meta_op_name(c->meta[i]));
		}
		rc |= ios_runrec_kv(run, "meta", "%s", meta);
		rc |= ios_runrec_kv(run, "meta_layout", "%s",
				    mb_meta_layout_name(c->meta_layout));
		rc |= ios_runrec_kv(run, "meta_files", "%" PRIu64,
				    c->meta_files);
		rc |= ios_runrec_kv(run, "meta_size", "%" PRIu64, c->meta_size);
		rc |= ios_runrec_kv(run, "meta_time", "%g", c->meta_time);
	}
	rc |= ios_runrec_kv(run, "reps", "%u", c->reps);
	rc |= ios_runrec_kv(run, "interval", "%g", c->interval);
	rc |= ios_runrec_kv(run, "output", "%s",
			    c->output ? c->output : "none");
	rc |= ios_runrec_kv(run, "reorder", "%d", c->reorder);
	rc |= ios_runrec_kv(run, "fsync", "%d", c->fsync);
	rc |= ios_runrec_kv(run, "verify", "%d", c->verify);
	rc |= ios_runrec_kv(run, "keep", "%d", c->keep);
	rc |= ios_runrec_kv(run, "reuse_dataset", "%d", c->reuse_dataset);
	rc |= ios_runrec_kv(run, "seed", "%" PRIu64, c->seed);
	rc |= ios_runrec_kv(run, "direct", "%d", c->direct);
	rc |= ios_runrec_kv(run, "allow_device", "%d", c->allow_device);
	rc |= ios_runrec_kv(run, "force", "%d", c->force);
	rc |= ios_runrec_kv(run, "scramble_buffers", "%d",
			    c->scramble && !c->verify);
	rc |= ios_runrec_kv(run, "buffer_compress", "%d", c->buffer_compress);
	for (i = 0; i < c->nbopts; i++)
		rc |= ios_runrec_kv(run, c->bopts[i].name, "%s",
				    c->bopts[i].value);
	for (const struct mb_option *o = c->backend->options; o && o->name;
	     o++) {
		bool given = false;

		for (i = 0; i < c->nbopts; i++)
			if (!strcmp(c->bopts[i].name, o->name))
				given = true;
		if (!given && o->def)
			rc |= ios_runrec_kv(run, o->name, "%s", o->def);
	}
	return rc ? -ENOMEM : 0;
}

int mb_runrec_start(struct ios_run *run, const struct mb_config *cfg)
{
	int rc = ios_runrec_header(run, "iostrata-bench", cfg->command_line);

	return rc ? rc : mb_runrec_config(run, cfg);
}
