/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * h5iso_internal: what the isolated reader's parent side (h5iso.c) and its
 * child (h5iso_child.c) share: the answer's frame, the operations, who the
 * child becomes.  Not an interface of the library.
 */
#ifndef IOSTRATA_H5ISO_INTERNAL_H
#define IOSTRATA_H5ISO_INTERNAL_H

#include <stdbool.h>
#include <sys/types.h>

#include "h5iso.h"

#define FRAME_MAGIC 0x314f5349u /* "ISO1" */
#define MIB (1ull << 20)
/* The child's own failures exit CHILD_EXIT + 3..7; any other exit status
 * is the parse dying (a sanitizer build's report exits 1) */
#define CHILD_EXIT 120

enum iso_op { ISO_READ, ISO_VALIDATE };
enum iso_stage { STAGE_PARSED = 0, STAGE_SETUP = 1 };

/* Who the child becomes (under root only). */
struct iso_creds {
	bool drop;
	uid_t uid;
	gid_t gid;
};

/* Parse [path] (open as [fd], [size] bytes) as [op] with limits [l], as
 * [c], writing the answer to [wfd]; exits when its [parent] is gone.
 * Never returns. */
__attribute__((noreturn)) void
ios_h5_iso_child_main(enum iso_op op, const char *path, int fd, int wfd,
		      off_t size, const struct ios_h5_iso_limits *l,
		      const struct iso_creds *c, pid_t parent);

#endif
