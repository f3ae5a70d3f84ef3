/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * log: the only way spank/ core modules report anything.  Messages go to a
 * sink chosen at start-up: the SPANK sink (plugin.c), the CLI sink (stderr,
 * iostrata-node) or the test sink (a buffer tests assert on).
 */
#ifndef IOSTRATA_LOG_H
#define IOSTRATA_LOG_H

#include <stddef.h>

enum log_level {
	LOG_LVL_ERR = 0,  /* a failure (slurm_error) */
	LOG_LVL_USER = 1, /* the job's user must see it (slurm_spank_log) */
	LOG_LVL_INFO = 2, /* one line per node change (slurm_info) */
	LOG_LVL_VERBOSE = 3,
	LOG_LVL_DEBUG = 4,
};

typedef void (*log_sink_fn)(enum log_level lvl, const char *msg, void *arg);

/* Route messages to [fn] (NULL: drop them). */
void log_set_sink(log_sink_fn fn, void *arg);

/* CLI sink: "prog: message" on stderr for levels <= [verbosity]. */
void log_use_cli(const char *prog, int verbosity);

/* Test sink: every message is appended (one per line) to a buffer. */
void log_use_capture(void);
/* The captured text so far ("" when nothing); valid until the next call. */
const char *log_captured(void);
void log_capture_reset(void);

void log_msg(enum log_level lvl, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define log_err(...) log_msg(LOG_LVL_ERR, __VA_ARGS__)
#define log_user(...) log_msg(LOG_LVL_USER, __VA_ARGS__)
#define log_info(...) log_msg(LOG_LVL_INFO, __VA_ARGS__)
#define log_verbose(...) log_msg(LOG_LVL_VERBOSE, __VA_ARGS__)
#define log_debug(...) log_msg(LOG_LVL_DEBUG, __VA_ARGS__)

#endif
