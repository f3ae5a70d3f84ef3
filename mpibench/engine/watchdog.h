/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * watchdog: a thread that fires when a stage of the run takes longer than
 * its bound (runtime plus grace), so a hung or killed rank cannot hang the
 * job forever.  The expiry handler is main.c's (it alone may MPI_Abort).
 */
#ifndef IOSTRATA_MB_WATCHDOG_H
#define IOSTRATA_MB_WATCHDOG_H

/* Start the thread; [handler] is called once, from the watchdog thread,
 * with the stage name, and must not return.  0 or -errno. */
int mb_watchdog_start(void (*handler)(const char *stage, double seconds));

/* Arm for [seconds] from now, naming [stage] (a static string); re-arming
 * replaces the previous bound.  No-op when the thread is not running. */
void mb_watchdog_arm(double seconds, const char *stage);

/* Disarm (no bound). */
void mb_watchdog_disarm(void);

/* Stop the thread. */
void mb_watchdog_stop(void);

/* The bound of a timed stage: runtime + max(30 s, runtime / 4). */
double mb_watchdog_bound(double runtime);

#endif
