/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mb_config: the settings of a run (struct mb_config, mb_config.h): the
 * names of patterns, engines and layouts, the defaults, a backend
 * option's value, the command line as recorded, and release.  The parser
 * that fills them from argv is mb_config_parse.c; the consistency checks
 * between options are mb_config_check.c, the target's mb_target.c.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "mb_config.h"

static const char *const pattern_names[] = {
	[MB_PAT_WRITE] = "write",         [MB_PAT_READ] = "read",
	[MB_PAT_RANDWRITE] = "randwrite", [MB_PAT_RANDREAD] = "randread",
	[MB_PAT_RANDRW] = "randrw",
};

static const char *const engine_names[] = {
	[MB_ENG_PSYNC] = "psync",
	[MB_ENG_LIBAIO] = "libaio",
	[MB_ENG_IO_URING] = "io_uring",
	[MB_ENG_POSIXAIO] = "posixaio",
};

const char *mb_file_layout_name(enum mb_file_layout l)
{
	return l == MB_LAYOUT_SHARED ? "shared" : "per-rank";
}

const char *mb_pattern_name(enum mb_pattern p)
{
	return (unsigned)p < 5 ? pattern_names[p] : "?";
}

const char *mb_engine_name(enum mb_engine e)
{
	return (unsigned)e < MB_ENG_COUNT ? engine_names[e] : "?";
}

const char *mb_config_engine(const struct mb_config *cfg)
{
	if (cfg->iodepth > 1 && cfg->backend && cfg->backend->async_engine)
		return cfg->backend->async_engine;
	return mb_engine_name(cfg->ioengine);
}

bool mb_pattern_writes(enum mb_pattern p)
{
	return p == MB_PAT_WRITE || p == MB_PAT_RANDWRITE || p == MB_PAT_RANDRW;
}

bool mb_pattern_reads(enum mb_pattern p)
{
	return p == MB_PAT_READ || p == MB_PAT_RANDREAD || p == MB_PAT_RANDRW;
}

bool mb_pattern_random(enum mb_pattern p)
{
	return p == MB_PAT_RANDWRITE || p == MB_PAT_RANDREAD ||
	       p == MB_PAT_RANDRW;
}

void mb_config_defaults(struct mb_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->npatterns = 1;
	cfg->patterns[0] = MB_PAT_WRITE;
	cfg->rwmixread = 70;
	cfg->bs = 8ull << 20;
	cfg->size = 16ull << 30;
	cfg->iodepth = 1;
	cfg->iodepth_batch = 1;
	cfg->ioengine = MB_ENG_PSYNC;
	cfg->backend = mb_backend_find("posix");
	cfg->runtime = 150.0;
	cfg->reps = 7;
	cfg->meta_files = 1000;
	cfg->interval = 1.0;
	cfg->summary = MB_SUM_TEXT;
	cfg->direct = true;
	cfg->scramble = true;
}

char *mb_command_line(int argc, char **argv)
{
	size_t len = 1;
	char *s, *p;
	int i;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) * 4 + 3;
	s = malloc(len);
	if (!s)
		return NULL;
	p = s;
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];
		bool plain = *a != '\0';
		const char *c;

		for (c = a; *c; c++)
			if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=,./:+@%",
				    *c))
				plain = false;
		if (i)
			*p++ = ' ';
		if (plain) {
			p = stpcpy(p, a);
			continue;
		}
		*p++ = '\'';
		for (c = a; *c; c++) {
			if (*c == '\'')
				p = stpcpy(p, "'\\''");
			else
				*p++ = *c;
		}
		*p++ = '\'';
	}
	*p = '\0';
	return s;
}

void mb_config_free(struct mb_config *cfg)
{
	int i;

	free(cfg->dir);
	free(cfg->output);
	free(cfg->command_line);
	for (i = 0; i < cfg->nhost_facts; i++)
		free(cfg->host_facts[i]);
	for (i = 0; i < cfg->nattach; i++) {
		free(cfg->attach[i].name);
		free(cfg->attach[i].path);
	}
	for (i = 0; i < cfg->nbopts; i++)
		free(cfg->bopts[i].value);
	memset(cfg, 0, sizeof(*cfg));
}

const char *mb_config_opt(const struct mb_config *cfg, const char *name)
{
	const struct mb_option *o;
	int i;

	for (i = cfg->nbopts - 1; i >= 0; i--)
		if (!strcmp(cfg->bopts[i].name, name))
			return cfg->bopts[i].value;
	if (cfg->backend)
		for (o = cfg->backend->options; o && o->name; o++)
			if (!strcmp(o->name, name))
				return o->def;
	return NULL;
}
