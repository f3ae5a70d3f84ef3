/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report_fx: see report_fx.h. */
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
#include "report_health.h"
#include "report_layers.h"
#include "synth.h"
#include "report_fx.h"

char dir[64];
char sticky[64]; /* test_outputs_hostile's, removed on teardown */

int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test_report.XXXXXX");
	assert_non_null(mkdtemp(dir));
	return 0;
}

int teardown(void **state)
{
	char cmd[256];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", dir, sticky);
	return system(cmd);
}

/* Write a synthetic run to dir/name. */
void synth_file(const char *name, const struct ios_synth *s)
{
	char path[256];
	struct ios_err err = {0};
	struct ios_run *run = ios_synth_run(s);

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_non_null(run);
	assert_int_equal(ios_h5_write_run(path, run, &err), 0);
	ios_synth_free(run);
}

/* Run a subcommand with stdout captured into *out (malloc'd). */
int run_cmd(char **out, int argc, ...)
{
	char *argv[32], path[256];
	va_list ap;
	int saved, fd, rc;
	FILE *f;
	long n;

	va_start(ap, argc);
	for (int i = 0; i < argc; i++)
		argv[i] = va_arg(ap, char *);
	argv[argc] = NULL;
	va_end(ap);
	snprintf(path, sizeof(path), "%s/stdout.txt", dir);
	fflush(stdout);
	saved = dup(1);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fd, 1);
	close(fd);
	if (!strcmp(argv[0], "show"))
		rc = report_show(argc, argv);
	else if (!strcmp(argv[0], "export"))
		rc = report_export(argc, argv);
	else if (!strcmp(argv[0], "accept"))
		rc = report_accept(argc, argv);
	else if (!strcmp(argv[0], "trend"))
		rc = report_trend(argc, argv);
	else if (!strcmp(argv[0], "efficiency"))
		rc = report_efficiency(argc, argv);
	else if (!strcmp(argv[0], "plot"))
		rc = report_plot(argc, argv);
	else if (!strcmp(argv[0], "health"))
		rc = report_health(argc, argv);
	else if (!strcmp(argv[0], "health-record"))
		rc = report_health_record(argc, argv);
	else if (!strcmp(argv[0], "layers"))
		rc = report_layers(argc, argv);
	else
		rc = report_validate(argc, argv);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	f = fopen(path, "r");
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	*out = calloc(1, (size_t)n + 1);
	if (fread(*out, 1, (size_t)n, f) != (size_t)n)
		fail();
	fclose(f);
	return rc;
}

char *P(const char *name)
{
	static char buf[8][256];
	static int k;

	k = (k + 1) % 8;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", dir, name);
	return buf[k];
}
