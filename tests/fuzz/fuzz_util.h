/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_util: what the libFuzzer harnesses of tests/fuzz/ share: the input
 * as a C string, a private scratch directory (removed at exit) and files in
 * it for the parsers that take a path.
 */
#ifndef IOSTRATA_FUZZ_UTIL_H
#define IOSTRATA_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* libFuzzer's entry points (no header of its own ships them). */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* [data] as a malloc'd NUL-terminated string (aborts on ENOMEM). */
char *fuzz_strndup(const uint8_t *data, size_t size);

/*
 * The harness's scratch directory: made on first use under
 * $IOSTRATA_FUZZ_TMPDIR, else /dev/shm (no disk I/O per input), else
 * $TMPDIR or /tmp; removed with its files at exit.  Aborts when it cannot
 * be made (a harness without its files would test nothing).
 */
const char *fuzz_scratch(void);

/*
 * Write [data] as the whole content of [name] in the scratch directory,
 * mode 0600, and return its path (static storage).  Aborts on error.
 */
const char *fuzz_write_file(const char *name, const uint8_t *data, size_t size);

/*
 * With IOSTRATA_FUZZ_VERBOSE set, print what the parser said about the
 * input (for reproducing one input by hand); silent otherwise.
 */
void fuzz_note(const char *parser, int rc, const char *msg);

#endif
