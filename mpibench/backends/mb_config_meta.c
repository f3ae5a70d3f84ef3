/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mb_config_meta: the options of the metadata phases (--meta,
 * --meta-layout, --meta-files, --meta-size, --meta-time; engine/meta.h):
 * their names, the parse of the phase list and the checks between them
 * and against the backend.  Touches no file.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "mb_config.h"
#include "mb_config_internal.h"

static const char *const op_names[MB_META_NOPS] = {
	"create", "stat", "read", "remove", "mkdir", "dirstat", "rmdir",
};

#define META_ACCEPTED                                                          \
	"accepted: a comma list of create, stat, read, remove, mkdir, dirstat, rmdir, each at most once, e.g. create,stat,read,remove"

const char *mb_meta_op_name(enum mb_meta_op op)
{
	return (unsigned)op < MB_META_NOPS ? op_names[op] : NULL;
}

const char *mb_meta_layout_name(enum mb_meta_layout l)
{
	return l == MB_META_HARD ? "hard" : "easy";
}

bool mb_meta_op_dir(enum mb_meta_op op)
{
	return op == MB_META_MKDIR || op == MB_META_DIRSTAT ||
	       op == MB_META_RMDIR;
}

bool mb_meta_op_makes(enum mb_meta_op op)
{
	return op == MB_META_CREATE || op == MB_META_MKDIR;
}

int mb_meta_parse_ops(struct mb_config *cfg, const char *v, struct ios_err *err)
{
	char buf[256];
	char *save = NULL, *tok;
	bool seen[MB_META_NOPS] = {false};
	int n = 0;

	if (strlen(v) >= sizeof(buf) || !*v || *v == ',' ||
	    v[strlen(v) - 1] == ',' || strstr(v, ",,"))
		return ios_errf(
			err, -EINVAL,
			"--meta: invalid value \"%.200s\" (" META_ACCEPTED ")",
			v);
	strcpy(buf, v);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		unsigned op;

		for (op = 0; op < MB_META_NOPS; op++)
			if (!strcmp(tok, op_names[op]))
				break;
		if (op == MB_META_NOPS)
			return ios_errf(
				err, -EINVAL,
				"--meta: unknown phase \"%s\" (" META_ACCEPTED
				")",
				tok);
		if (seen[op])
			return ios_errf(
				err, -EINVAL,
				"--meta: \"%s\" given twice (" META_ACCEPTED
				")",
				tok);
		seen[op] = true;
		cfg->meta[n++] = (enum mb_meta_op)op;
	}
	cfg->nmeta = n;
	return 0;
}

int mb_meta_parse_layout(struct mb_config *cfg, const char *v,
			 struct ios_err *err)
{
	if (!strcmp(v, "easy"))
		cfg->meta_layout = MB_META_EASY;
	else if (!strcmp(v, "hard"))
		cfg->meta_layout = MB_META_HARD;
	else
		return ios_errf(
			err, -EINVAL,
			"--meta-layout: unknown layout \"%.200s\" (accepted: easy, a directory per rank; hard, one directory shared by every rank)",
			v);
	return 0;
}

/* Whether what phase [k] works on was made before it in the list and not
 * removed since. */
static bool made_before(const struct mb_config *cfg, int k)
{
	bool dir = mb_meta_op_dir(cfg->meta[k]);
	enum mb_meta_op maker = dir ? MB_META_MKDIR : MB_META_CREATE;
	enum mb_meta_op remover = dir ? MB_META_RMDIR : MB_META_REMOVE;
	bool made = false;
	int j;

	for (j = 0; j < k; j++) {
		if (cfg->meta[j] == maker)
			made = true;
		if (cfg->meta[j] == remover)
			made = false;
	}
	return made;
}

/* Options that belong to the --rw phases only. */
static const char *rw_only_option(const struct mb_config *cfg)
{
	if (cfg->rw_given)
		return "--rw";
	if (cfg->once)
		return "--once";
	if (cfg->runtime_given)
		return "--runtime";
	if (cfg->verify)
		return "--verify";
	if (cfg->reuse_dataset)
		return "--reuse-dataset";
	if (cfg->file_layout != MB_LAYOUT_PER_RANK)
		return "--file-layout";
	if (cfg->iodepth != 1)
		return "--iodepth";
	if (cfg->allow_device)
		return "--allow-device";
	return NULL;
}

int mb_meta_check(const struct mb_config *cfg, struct ios_err *err)
{
	const char *rw;
	int k;

	if (!cfg->nmeta) {
		if (cfg->meta_files_given || cfg->meta_size ||
		    cfg->meta_time > 0 || cfg->meta_layout != MB_META_EASY)
			return ios_errf(
				err, -EINVAL,
				"--meta-layout, --meta-files, --meta-size and --meta-time: only with --meta (accepted: --meta=create,stat,read,remove,...)");
		return 0;
	}
	rw = rw_only_option(cfg);
	if (rw)
		return ios_errf(
			err, -EINVAL,
			"--meta: not with %s (the metadata phases are a run of their own; accepted with --meta: --meta-layout, --meta-files, --meta-size, --meta-time, --reps, --dir, --backend, --output, --summary, --quiet, --keep, --seed, --attach, --host-facts)",
			rw);
	if (!mb_backend_has_meta(cfg->backend))
		return ios_errf(
			err, -EINVAL,
			"--meta: backend \"%s\" has no metadata (no files or directories to create; accepted with --meta: --backend=posix, cephfs or null)",
			cfg->backend->name);
	for (k = 0; k < cfg->nmeta; k++)
		if (!mb_meta_op_makes(cfg->meta[k]) && !made_before(cfg, k))
			return ios_errf(
				err, -EINVAL,
				"--meta: \"%s\" needs \"%s\" before it in the list and no removal between (it works on the %s this run made; e.g. --meta=%s)",
				mb_meta_op_name(cfg->meta[k]),
				mb_meta_op_dir(cfg->meta[k]) ? "mkdir"
							     : "create",
				mb_meta_op_dir(cfg->meta[k]) ? "directories"
							     : "files",
				mb_meta_op_dir(cfg->meta[k])
					? "mkdir,dirstat,rmdir"
					: "create,stat,read,remove");
	return 0;
}
