/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hostile: a shared directory where another user (nobody) planted symlinks
 * at the names a command will write, all pointing at a root-owned victim
 * file.  For tests of commands an admin runs as root over users' files
 * (issue 11).  Include after cmocka.h; the helpers need root (skip()
 * otherwise).
 */
#ifndef IOSTRATA_TEST_HOSTILE_H
#define IOSTRATA_TEST_HOSTILE_H

#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define HOSTILE_VICTIM "precious root-owned content\n"

/* A new sticky world-writable directory /tmp/[tag].XXXXXX into [dir]
 * (mode 1777, as /tmp or a shared scratch area); skip() unless root. */
static void __attribute__((unused))
hostile_dir(char *dir, size_t len, const char *tag)
{
	if (geteuid() != 0)
		skip(); /* nobody must plant, root must write */
	snprintf(dir, len, "/tmp/%s.XXXXXX", tag);
	assert_non_null(mkdtemp(dir));
	assert_int_equal(chmod(dir, 01777), 0);
}

/* The victim: a root-owned file [path] (mode 0600) with known content. */
static void __attribute__((unused)) hostile_victim(const char *path)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(HOSTILE_VICTIM, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, 0600), 0);
}

/* As user nobody (65534), create [dir]/[names[i]] -> [target]. */
static void __attribute__((unused))
hostile_plant(const char *dir, const char *const *names, size_t n,
	      const char *target)
{
	int st = -1;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		int bad = 0;

		if (setgroups(0, NULL) < 0 || setgid(65534) < 0 ||
		    setuid(65534) < 0)
			_exit(100);
		for (size_t i = 0; i < n; i++) {
			char p[1024];

			snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
			if (symlink(target, p) < 0) {
				fprintf(stderr, "plant %s: %s\n", p,
					strerror(errno));
				bad++;
			}
		}
		_exit(bad ? 1 : 0);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

/* The victim is byte for byte what hostile_victim wrote, and each of
 * [dir]/[names[i]] is a regular file (not the planted symlink).  Returns
 * a description of what is wrong into [bad] (empty when nothing). */
static void __attribute__((unused))
hostile_check(const char *victim, const char *dir, const char *const *names,
	      size_t n, char *bad, size_t len)
{
	char buf[256] = "";
	FILE *f = fopen(victim, "r");
	size_t got = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

	bad[0] = '\0';
	if (f)
		fclose(f);
	buf[got] = '\0';
	if (strcmp(buf, HOSTILE_VICTIM))
		snprintf(bad, len, "the victim was overwritten (%zu bytes); ",
			 got);
	for (size_t i = 0; i < n; i++) {
		char p[1024];
		struct stat st;
		size_t l = strlen(bad);

		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		if (lstat(p, &st) < 0)
			snprintf(bad + l, len - l, "%s: missing; ", names[i]);
		else if (!S_ISREG(st.st_mode))
			snprintf(bad + l, len - l, "%s: not a regular file; ",
				 names[i]);
	}
}

#endif
