/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * layers_run: `iostrata-bench --layers`, the layered run of seeds/003 on the
 * ranks of MPI_COMM_WORLD: device (one rank per node, direct I/O in a
 * directory on the OSDs' filesystem, fio alongside), network (MPI
 * point-to-point between node pairs), protocol (rados backend against a
 * pool), full stack (posix on the CephFS mount, cephfs backend), into one
 * results file with ceilings and the verdict.  Documented in LAYERS.md.
 */
#ifndef IOSTRATA_LAYERS_RUN_H
#define IOSTRATA_LAYERS_RUN_H

#include "layers_opts.h"

/*
 * Run the layered benchmark: parses argv (the layered options below plus
 * iostrata-bench's own --bs, --size, --runtime, --reps, --interval,
 * --iodepth, --ioengine, --dir, --output, --buffered, --keep, --seed,
 * --quiet), runs the layers and writes the results file on rank 0.
 * Call after MPI_Init on every rank.  Returns the process exit code
 * (mb_exit.h, the plain run's table): MB_EXIT_OK, MB_EXIT_INVALID (a
 * layer's repetition invalid) or MB_EXIT_SUSPECT (a number suspect),
 * MB_EXIT_USAGE (bad input, Ceph unreachable: nothing touched),
 * MB_EXIT_FAILED (a layer could not run, the results file not written);
 * the watchdog aborts with MB_EXIT_WATCHDOG.
 */
int lyr_main(int argc, char **argv);

#endif
