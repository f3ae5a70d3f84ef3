/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * log: message sinks for the plugin, the admin CLI and the unit tests
 * (chaos log_add_dest idea: core code never knows where messages go).
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

static log_sink_fn sink_fn;
static void *sink_arg;

static const char *cli_prog = "iostrata";
static int cli_verbosity = LOG_LVL_INFO;

static char *cap_buf;
static size_t cap_len, cap_size;

void log_set_sink(log_sink_fn fn, void *arg)
{
	sink_fn = fn;
	sink_arg = arg;
}

static void cli_sink(enum log_level lvl, const char *msg, void *arg)
{
	(void)arg;
	if ((int)lvl > cli_verbosity)
		return;
	fprintf(stderr, "%s: %s\n", cli_prog, msg);
}

void log_use_cli(const char *prog, int verbosity)
{
	cli_prog = prog;
	cli_verbosity = verbosity;
	log_set_sink(cli_sink, NULL);
}

static void capture_sink(enum log_level lvl, const char *msg, void *arg)
{
	size_t n = strlen(msg);
	char *p;

	(void)lvl;
	(void)arg;
	if (cap_len + n + 2 > cap_size) {
		size_t sz = (cap_size ? cap_size * 2 : 4096) + n;

		p = realloc(cap_buf, sz);
		if (!p)
			return;
		cap_buf = p;
		cap_size = sz;
	}
	memcpy(cap_buf + cap_len, msg, n);
	cap_len += n;
	cap_buf[cap_len++] = '\n';
	cap_buf[cap_len] = '\0';
}

void log_use_capture(void)
{
	log_capture_reset();
	log_set_sink(capture_sink, NULL);
}

const char *log_captured(void)
{
	return cap_buf ? cap_buf : "";
}

void log_capture_reset(void)
{
	free(cap_buf);
	cap_buf = NULL;
	cap_len = cap_size = 0;
}

void log_msg(enum log_level lvl, const char *fmt, ...)
{
	char buf[1024];
	int saved = errno;
	va_list ap;

	if (!sink_fn)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	sink_fn(lvl, buf, sink_arg);
	errno = saved;
}
