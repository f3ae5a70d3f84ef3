/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench/clock-loop.c: the limit of a harness that times every operation:
 * a loop doing nothing but one clock_gettime(CLOCK_MONOTONIC) per
 * iteration (and the test of its deadline), for SECONDS seconds.  Prints
 * the iterations per second of wall time and per second of the process's
 * CPU time (the second holds on a busy machine, where the first falls
 * with the share of the CPU the loop gets).  Built and run by
 * bench/compare-harness.sh.
 *
 * Usage: clock-loop SECONDS
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	struct timespec ts, c0, c1;
	int64_t t0, t, end;
	uint64_t n = 0;
	double secs = argc == 2 ? strtod(argv[1], NULL) : 0;

	if (!(secs > 0 && secs <= 3600)) {
		fprintf(stderr,
			"clock-loop: SECONDS \"%s\": expected a number in (0, 3600]\n",
			argc == 2 ? argv[1] : "");
		return 2;
	}
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	t0 = (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
	end = t0 + (int64_t)(secs * 1e9);
	do {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		t = (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
		n++;
	} while (t < end);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
	printf("%.0f %.0f\n", (double)n / ((double)(t - t0) / 1e9),
	       (double)n / ((double)(c1.tv_sec - c0.tv_sec) +
			    (double)(c1.tv_nsec - c0.tv_nsec) / 1e9));
	return 0;
}
