/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_layers: `iostrata-report layers` (layers area; see
 * report_layers.c): layered runs, their verdicts and Table 4.
 */
#ifndef IOSTRATA_REPORT_LAYERS_H
#define IOSTRATA_REPORT_LAYERS_H

/* Subcommand entry: argv[0] is "layers".  Returns a REPORT_EXIT_* code. */
int report_layers(int argc, char **argv);

#endif
