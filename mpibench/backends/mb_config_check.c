/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mb_config_check: the consistency checks of iostrata-bench's options
 * (mb_config_parse runs them once every option is read): the options
 * against each other and against what the backend can do.  No file is
 * touched here; the target is checked by mb_target.c.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "mb_config.h"
#include "mb_config_internal.h"

/* --file-layout and --shared-block: a backend with files, a block that
 * is whole I/Os and tiles --size. */
static int check_file_layout(const struct mb_config *cfg, struct ios_err *err)
{
	if (cfg->file_layout != MB_LAYOUT_SHARED) {
		if (cfg->shared_block)
			return ios_errf(
				err, -EINVAL,
				"--shared-block: only with --file-layout=shared (given --file-layout=%s)",
				mb_file_layout_name(cfg->file_layout));
		return 0;
	}
	if (!(cfg->backend->flags & MB_BF_SHARED_FILE))
		return ios_errf(
			err, -EINVAL,
			"--file-layout: \"shared\" is not available with backend \"%s\" (it has no file that all ranks can open; accepted: --file-layout=per-rank, or shared with --backend=posix, cephfs or null)",
			cfg->backend->name);
	if (cfg->shared_block && cfg->shared_block % cfg->bs)
		return ios_errf(
			err, -EINVAL,
			"--shared-block: %" PRIu64
			" is not a multiple of --bs %" PRIu64
			" (accepted: a multiple of --bs that divides --size)",
			cfg->shared_block, cfg->bs);
	if (cfg->shared_block && cfg->size % cfg->shared_block)
		return ios_errf(
			err, -EINVAL,
			"--shared-block: %" PRIu64
			" does not divide --size %" PRIu64
			" (accepted: a multiple of --bs that divides --size)",
			cfg->shared_block, cfg->size);
	return 0;
}

int mb_config_check_options(const struct mb_config *cfg, struct ios_err *err)
{
	unsigned p;
	int rc;

	if (!cfg->backend)
		return ios_errf(
			err, -EINVAL,
			"--backend: the default backend \"posix\" is not built");
	if (cfg->bs > cfg->size)
		return ios_errf(err, -EINVAL,
				"--bs: %" PRIu64
				" bytes is larger than --size %" PRIu64
				" (accepted: bs <= size)",
				cfg->bs, cfg->size);
	if (cfg->size % cfg->bs)
		return ios_errf(err, -EINVAL,
				"--size: %" PRIu64
				" is not a multiple of --bs %" PRIu64
				" (accepted: size = N x bs)",
				cfg->size, cfg->bs);
	rc = check_file_layout(cfg, err);
	if (rc)
		return rc;
	if (cfg->iodepth_batch > cfg->iodepth)
		return ios_errf(
			err, -EINVAL,
			"--iodepth_batch: %u is more than --iodepth=%u (accepted: 1 to --iodepth)",
			cfg->iodepth_batch, cfg->iodepth);
	if (cfg->iodepth > 1 && cfg->ioengine == MB_ENG_PSYNC &&
	    !strcmp(cfg->backend->name, "posix"))
		return ios_errf(
			err, -EINVAL,
			"--iodepth: %u needs an asynchronous engine (accepted: --iodepth=1 with psync, or --ioengine=libaio|io_uring|posixaio)",
			cfg->iodepth);
	if (cfg->iodepth > 1 && !(cfg->backend->flags & MB_BF_ASYNC))
		return ios_errf(
			err, -EINVAL,
			"--iodepth: %u: backend \"%s\" has no asynchronous path (accepted: --iodepth=1)",
			cfg->iodepth, cfg->backend->name);
	if (cfg->verify && (cfg->backend->flags & MB_BF_NO_DATA))
		return ios_errf(
			err, -EINVAL,
			"--verify: backend \"%s\" moves no data (accepted: --verify with a backend that stores data, e.g. posix)",
			cfg->backend->name);
	if (cfg->verify && cfg->bs < 64)
		return ios_errf(
			err, -EINVAL,
			"--verify: --bs %" PRIu64
			" is too small for the block stamp (accepted: bs >= 64)",
			cfg->bs);
	if (cfg->reuse_dataset && !cfg->seed_given)
		return ios_errf(
			err, -EINVAL,
			"--reuse-dataset: needs --seed=N (the content is part of the dataset's identity: a random seed would never match; accepted: --reuse-dataset --seed=N)");
	if (cfg->reuse_dataset &&
	    (cfg->allow_device || !cfg->backend->xattr_get ||
	     (cfg->backend->flags & MB_BF_NO_DATA)))
		return ios_errf(
			err, -EINVAL,
			"--reuse-dataset: backend \"%s\"%s keeps no dataset mark (accepted: posix on a directory, cephfs or rados)",
			cfg->backend->name,
			cfg->allow_device ? " on a block device" : "");
	if (cfg->once && cfg->runtime_given)
		return ios_errf(
			err, -EINVAL,
			"--once: cannot be combined with --runtime=%g (--once moves each rank's file once, --runtime runs for a time: accepted: one of them)",
			cfg->runtime);
	if (!cfg->once && cfg->interval > cfg->runtime)
		return ios_errf(
			err, -EINVAL,
			"--interval: %g s is longer than --runtime %g s (accepted: interval <= runtime)",
			cfg->interval, cfg->runtime);
	if (!cfg->once && cfg->runtime / cfg->interval > 1e6)
		return ios_errf(
			err, -EINVAL,
			"--interval: %g s gives more than 10^6 samples over --runtime %g s",
			cfg->interval, cfg->runtime);
	if (cfg->direct && !(cfg->backend->flags & MB_BF_NO_DATA) &&
	    !(cfg->backend->flags & MB_BF_NO_LOCAL_FS) && cfg->bs % 512)
		return ios_errf(
			err, -EINVAL,
			"--bs: %" PRIu64
			" is not a multiple of 512, which direct I/O needs (accepted: a multiple of the device's logical block size, or --buffered)",
			cfg->bs);
	if (!(cfg->backend->flags & (MB_BF_NO_LOCAL_FS | MB_BF_NO_DATA)) &&
	    !cfg->dir)
		return ios_errf(
			err, -EINVAL,
			"--dir: missing (accepted: --dir=PATH, an existing writable directory)");
	for (p = 0; p < (unsigned)cfg->nbopts; p++) {
		const struct mb_option *o;
		bool mine = false;

		for (o = cfg->backend->options; o && o->name; o++)
			if (!strcmp(o->name, cfg->bopts[p].name))
				mine = true;
		if (!mine)
			return ios_errf(err, -EINVAL,
					"--%s: not an option of backend \"%s\"",
					cfg->bopts[p].name, cfg->backend->name);
	}
	return mb_meta_check(cfg, err);
}
