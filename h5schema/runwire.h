/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runwire: a run (model/results.h) as a flat byte string, the answer the
 * isolated reader's child (h5iso.c) hands back to its parent.  The parent
 * decodes it with this small, bounded, fuzzed decoder instead of HDF5, so
 * a child the hostile file took over can send it nothing HDF5 would parse.
 * Not a file format: both ends are the same binary (a fork), so structs
 * without pointers travel as their bytes.  Internal to h5schema/.
 */
#ifndef IOSTRATA_RUNWIRE_H
#define IOSTRATA_RUNWIRE_H

#include <stddef.h>
#include <stdint.h>

#include "errbuf.h"
#include "results.h"

/* A growing byte buffer; any failed append sets [failed] and appends
 * nothing more. */
struct ios_wire {
	uint8_t *p;
	size_t len, cap;
	int failed; /* -ENOMEM after a failed append */
};

void ios_wire_u32(struct ios_wire *w, uint32_t v);
void ios_wire_u64(struct ios_wire *w, uint64_t v);
void ios_wire_str(struct ios_wire *w, const char *s); /* NULL is kept */
void ios_wire_run(struct ios_wire *w, const struct ios_run *run);

/* A cursor over received bytes; a read past the end or a bad value sets
 * [bad] (a short description) and every later read returns 0 / NULL. */
struct ios_unwire {
	const uint8_t *p;
	size_t len, pos;
	const char *bad;
};

uint32_t ios_unwire_u32(struct ios_unwire *u);
uint64_t ios_unwire_u64(struct ios_unwire *u);
/* A new string (malloc) of at most [max] bytes, or NULL (sent as NULL, or
 * u->bad set: check it). */
char *ios_unwire_str(struct ios_unwire *u, size_t max);

/*
 * Decode a run written by ios_wire_run, holding every promise the HDF5
 * reader makes about the runs it returns: counts within the reader's
 * bounds and equal to the arrays they count, fixed strings terminated,
 * booleans 0 or 1, the arrays the reader always allocates allocated, text
 * terminal-safe (ios_run_sanitize_text).  Nothing is allocated beyond what
 * the bytes hold.  Returns 0 and sets *out, or -EBADMSG (u->bad says why)
 * or -ENOMEM.
 */
int ios_unwire_run(struct ios_unwire *u, struct ios_run **out);

#endif
