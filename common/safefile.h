/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * safefile: create an output file (a report, a plot, an index) in a
 * directory other users may write to, without following what they planted
 * there: the content goes to a new temporary file in the same directory,
 * created with O_CREAT | O_EXCL | O_NOFOLLOW, which then replaces the final
 * name with rename() (which replaces a symlink at that name, never follows
 * it).  A directory at the final name is refused.
 */
#ifndef IOSTRATA_SAFEFILE_H
#define IOSTRATA_SAFEFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "errbuf.h"

/* fsync the file before the rename and its directory after it */
#define SF_SYNC 0x1

struct sf_file {
	FILE *fp;  /* write the content here (or to fileno(fp)) */
	int dirfd; /* the directory of path, -1 when closed */
	unsigned flags;
	char *path;    /* the final path, for messages */
	char *name;    /* its last component, in dirfd */
	char tmp[256]; /* the temporary file's name, in dirfd */
};

/*
 * Start writing [path]: a temporary file ".NAME.XXXXXX" in its directory,
 * mode 0644 less the umask, open in f->fp.  [flags]: SF_SYNC or 0.
 * Returns 0, or a negative errno with a message naming the path in [err]
 * (-EISDIR: [path] is a directory; -EINVAL: it names no file).
 */
int sf_create(struct sf_file *f, const char *path, unsigned flags,
	      struct ios_err *err);

/*
 * Finish [f]: flush (and with SF_SYNC fsync) and close the temporary file,
 * rename it to the final name (and fsync the directory).  On failure the
 * temporary file is removed and the final name left as it was.  [f] is
 * released either way.  Returns 0 or a negative errno (message in [err]).
 */
int sf_commit(struct sf_file *f, struct ios_err *err);

/* Give up [f]: close and remove the temporary file, release [f]. */
void sf_discard(struct sf_file *f);

/* sf_create + the [len] bytes of [data] + sf_commit. */
int sf_write(const char *path, const void *data, size_t len, unsigned flags,
	     struct ios_err *err);

/*
 * Append the [len] bytes of [data] to the log [path], creating it (0644
 * less the umask) when missing.  Refused (-ELOOP, -EINVAL) when [path] is
 * a symlink, not a regular file, or a file with other hard links: a log
 * is appended to in place, so it must be the file it claims to be.
 */
int sf_append(const char *path, const void *data, size_t len,
	      struct ios_err *err);

#endif
