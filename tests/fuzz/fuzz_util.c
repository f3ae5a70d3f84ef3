/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_util: input as a string, scratch directory and files (fuzz_util.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_util.h"

static char scratch[4096];
static char file_path[4200];

char *fuzz_strndup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

static int rm_cb(const char *path, const struct stat *st, int flag,
		 struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) < 0 ? -1 : 0;
}

static void rm_scratch(void)
{
	if (scratch[0])
		nftw(scratch, rm_cb, 16, FTW_DEPTH | FTW_PHYS);
}

const char *fuzz_scratch(void)
{
	const char *base = getenv("IOSTRATA_FUZZ_TMPDIR");

	if (scratch[0])
		return scratch;
	if (!base || !*base)
		base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : NULL;
	if (!base)
		base = getenv("TMPDIR");
	if (!base || !*base)
		base = "/tmp";
	if (snprintf(scratch, sizeof(scratch), "%s/iostrata-fuzz.XXXXXX",
		     base) >= (int)sizeof(scratch) ||
	    !mkdtemp(scratch)) {
		fprintf(stderr, "fuzz: make scratch directory under %s: %s\n",
			base, strerror(errno));
		abort();
	}
	atexit(rm_scratch);
	return scratch;
}

const char *fuzz_write_file(const char *name, const uint8_t *data, size_t size)
{
	size_t off = 0;
	int fd;

	if (snprintf(file_path, sizeof(file_path), "%s/%s", fuzz_scratch(),
		     name) >= (int)sizeof(file_path))
		abort();
	fd = open(file_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		fprintf(stderr, "fuzz: create %s: %s\n", file_path,
			strerror(errno));
		abort();
	}
	while (off < size) {
		ssize_t n = write(fd, data + off, size - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			fprintf(stderr, "fuzz: write %s: %s\n", file_path,
				strerror(errno));
			abort();
		}
		off += (size_t)n;
	}
	if (close(fd) < 0)
		abort();
	return file_path;
}

void fuzz_note(const char *parser, int rc, const char *msg)
{
	static int verbose = -1;

	if (verbose < 0)
		verbose = getenv("IOSTRATA_FUZZ_VERBOSE") != NULL;
	if (verbose)
		fprintf(stderr, "fuzz: %s: %d (%s): %s\n", parser, rc,
			rc < 0 ? strerror(-rc) : "ok", msg && *msg ? msg : "-");
}
