/* SPDX-License-Identifier: GPL-2.0-or-later */
/* watchdog: bound every stage of the run (see watchdog.h). */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <time.h>

#include "crashlog.h"
#include "units.h"
#include "watchdog.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static pthread_t thread;
static bool running, stopping, armed;
static struct timespec deadline;
static double bound_s;
static const char *stage_name = "?";
static void (*on_expire)(const char *, double);

static void *watch(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	while (!stopping) {
		int rc;

		if (!armed) {
			pthread_cond_wait(&cond, &lock);
			continue;
		}
		rc = pthread_cond_timedwait(&cond, &lock, &deadline);
		if (rc == ETIMEDOUT && armed && !stopping) {
			struct timespec now;

			clock_gettime(CLOCK_MONOTONIC, &now);
			if (now.tv_sec > deadline.tv_sec ||
			    (now.tv_sec == deadline.tv_sec &&
			     now.tv_nsec >= deadline.tv_nsec)) {
				const char *s = stage_name;
				double b = bound_s;

				pthread_mutex_unlock(&lock);
				on_expire(s, b);
				pthread_mutex_lock(&lock);
				armed = false;
			}
		}
	}
	pthread_mutex_unlock(&lock);
	return NULL;
}

int mb_watchdog_start(void (*handler)(const char *stage, double seconds))
{
	pthread_condattr_t ca;
	int rc;

	on_expire = handler;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_destroy(&cond);
	pthread_cond_init(&cond, &ca);
	pthread_condattr_destroy(&ca);
	rc = pthread_create(&thread, NULL, watch, NULL);
	if (rc)
		return -rc;
	running = true;
	return 0;
}

void mb_watchdog_arm(double seconds, const char *stage)
{
	struct timespec rel = {
		.tv_sec = (time_t)seconds,
		.tv_nsec = (long)((seconds - (double)(time_t)seconds) * 1e9)};

	if (!running)
		return;
	pthread_mutex_lock(&lock);
	ios_deadline(CLOCK_MONOTONIC, &rel, &deadline);
	bound_s = seconds;
	stage_name = stage;
	mb_crashlog_stage(stage);
	armed = true;
	pthread_cond_signal(&cond);
	pthread_mutex_unlock(&lock);
}

void mb_watchdog_disarm(void)
{
	if (!running)
		return;
	pthread_mutex_lock(&lock);
	armed = false;
	pthread_cond_signal(&cond);
	pthread_mutex_unlock(&lock);
}

void mb_watchdog_stop(void)
{
	if (!running)
		return;
	pthread_mutex_lock(&lock);
	stopping = true;
	pthread_cond_signal(&cond);
	pthread_mutex_unlock(&lock);
	pthread_join(thread, NULL);
	running = false;
}

double mb_watchdog_bound(double runtime)
{
	return runtime + (runtime / 4 > 30.0 ? runtime / 4 : 30.0);
}
