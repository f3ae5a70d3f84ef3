/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fake_root: temp-dir stand-in for / in unit tests (see fake_root.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <dirent.h>

#include <cmocka.h>

#include "fake_root.h"

struct fake_root *fake_root_new(void)
{
	struct fake_root *r = calloc(1, sizeof(*r));
	const char *tmp = getenv("TMPDIR");

	assert_non_null(r);
	snprintf(r->dir, sizeof(r->dir), "%s/iostrata-fake.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(r->dir));
	return r;
}

static int rm_one(const char *p, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p);
}

void fake_root_free(struct fake_root *r)
{
	if (!r)
		return;
	nftw(r->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(r);
}

struct fake_host *fake_host_new(void (*lay_out)(struct fake_root *r))
{
	struct fake_host *h = calloc(1, sizeof(*h));

	assert_non_null(h);
	h->r = fake_root_new();
	if (lay_out)
		lay_out(h->r);
	assert_int_equal(sysfs_open(&h->fs, h->r->dir), 0);
	return h;
}

void fake_host_free(struct fake_host *h)
{
	if (!h)
		return;
	sysfs_read_fault_hook = NULL;
	sysfs_close(&h->fs);
	fake_root_free(h->r);
	free(h);
}

const char *fake_path(struct fake_root *r, const char *rel)
{
	static char buf[8192];

	while (*rel == '/')
		rel++;
	snprintf(buf, sizeof(buf), "%s/%s", r->dir, rel);
	return buf;
}

static void mkparents(const char *path)
{
	char tmp[8192];

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
				fail_msg("mkdir %s: %s", tmp, strerror(errno));
			*p = '/';
		}
}

void fake_write(struct fake_root *r, const char *rel, const char *content)
{
	char p[8192];
	FILE *f;

	snprintf(p, sizeof(p), "%s", fake_path(r, rel));
	mkparents(p);
	f = fopen(p, "w");
	if (!f)
		fail_msg("fopen %s: %s", p, strerror(errno));
	fputs(content, f);
	assert_int_equal(fclose(f), 0);
}

void fake_mkdir(struct fake_root *r, const char *rel)
{
	char p[8192];

	snprintf(p, sizeof(p), "%s/", fake_path(r, rel));
	mkparents(p);
}

void fake_symlink(struct fake_root *r, const char *target, const char *rel)
{
	char p[8192];

	snprintf(p, sizeof(p), "%s", fake_path(r, rel));
	mkparents(p);
	assert_int_equal(symlink(target, p), 0);
}

void fake_mkfifo(struct fake_root *r, const char *rel)
{
	char p[8192];

	snprintf(p, sizeof(p), "%s", fake_path(r, rel));
	mkparents(p);
	unlink(p);
	assert_int_equal(mkfifo(p, 0600), 0);
}

const char *fake_read(struct fake_root *r, const char *rel)
{
	static char buf[8192];
	size_t n;
	FILE *f = fopen(fake_path(r, rel), "r");

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return buf;
}

void fake_cpus(struct fake_root *r, int n, int npkg)
{
	char rel[256], v[32];

	for (int i = 0; i < n; i++) {
		if (i > 0) {
			snprintf(rel, sizeof(rel),
				 "sys/devices/system/cpu/cpu%d/online", i);
			fake_write(r, rel, "1\n");
		}
		snprintf(
			rel, sizeof(rel),
			"sys/devices/system/cpu/cpu%d/topology/physical_package_id",
			i);
		snprintf(v, sizeof(v), "%d\n", i % npkg);
		fake_write(r, rel, v);
		snprintf(rel, sizeof(rel),
			 "sys/devices/system/cpu/cpu%d/node%d", i, i % npkg);
		fake_symlink(r, "../../node", rel);
	}
	fake_write(r, "sys/devices/system/cpu/online", "0-1\n");
}

void fake_mem(struct fake_root *r, int n, unsigned long long bs, int nnode)
{
	char rel[256], v[32];

	snprintf(v, sizeof(v), "%llx\n", bs);
	fake_write(r, "sys/devices/system/memory/block_size_bytes", v);
	for (int i = 0; i < n; i++) {
		snprintf(rel, sizeof(rel),
			 "sys/devices/system/memory/memory%d/online", i);
		fake_write(r, rel, "1\n");
		snprintf(rel, sizeof(rel),
			 "sys/devices/system/memory/memory%d/node%d", i,
			 i % nnode);
		fake_symlink(r, "../../node", rel);
	}
}

int fake_run_bounded(int (*fn)(void *), void *arg, int timeout_ms)
{
	int status = 0, waited = 0;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0)
		_exit(fn(arg) & 0xff);
	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (waited >= timeout_ms) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -1;
		}
		usleep(10000);
		waited += 10;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void fake_meminfo(struct fake_root *r, unsigned long long total_kb,
		  unsigned long long avail_kb)
{
	char v[256];

	snprintf(
		v, sizeof(v),
		"MemTotal:       %llu kB\nMemFree:        %llu kB\nMemAvailable:   %llu kB\n",
		total_kb, avail_kb, avail_kb);
	fake_write(r, "proc/meminfo", v);
}

void fake_cg_v1(struct fake_root *r, const char *rel)
{
	static const char *const f[] = {
		"blkio.throttle.read_bps_device",
		"blkio.throttle.write_bps_device",
		"blkio.throttle.read_iops_device",
		"blkio.throttle.write_iops_device",
	};
	char p[512];

	for (int i = 0; i < 4; i++) {
		snprintf(p, sizeof(p), "%s/%s", rel, f[i]);
		fake_write(r, p, "");
	}
}

void fake_cg_v2(struct fake_root *r, const char *rel)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/io.max", rel);
	fake_write(r, p, "");
}

void fake_osd_proc(struct fake_root *r, int pid, const char *comm,
		   const char *const *argv, const char *netns,
		   const char *cgroup)
{
	char rel[256], p[8192];
	FILE *f;

	snprintf(rel, sizeof(rel), "proc/%d/comm", pid);
	fake_write(r, rel, comm);
	snprintf(rel, sizeof(rel), "proc/%d/cgroup", pid);
	fake_write(r, rel, cgroup);
	snprintf(rel, sizeof(rel), "proc/%d/ns/net", pid);
	unlink(fake_path(r, rel));
	fake_symlink(r, netns, rel);
	/* the executable: a file of ours, as an installed one is root's */
	fake_write(r, "usr/bin/ceph-osd", "");
	snprintf(rel, sizeof(rel), "proc/%d/exe", pid);
	unlink(fake_path(r, rel));
	fake_symlink(r, "../../usr/bin/ceph-osd", rel);
	snprintf(rel, sizeof(rel), "proc/%d/cmdline", pid);
	snprintf(p, sizeof(p), "%s", fake_path(r, rel));
	f = fopen(p, "w");
	assert_non_null(f);
	for (; argv && *argv; argv++)
		fwrite(*argv, 1, strlen(*argv) + 1, f);
	assert_int_equal(fclose(f), 0);
}

void fake_proc_self(struct fake_root *r, const char *netns)
{
	fake_symlink(r, netns, "proc/self/ns/net");
}

void fake_cg2_dir(struct fake_root *r, const char *rel, const char *ctrls,
		  const char *sub)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/cgroup.controllers", rel);
	fake_write(r, p, ctrls);
	snprintf(p, sizeof(p), "%s/cgroup.subtree_control", rel);
	fake_write(r, p, sub);
	snprintf(p, sizeof(p), "%s/cgroup.procs", rel);
	fake_write(r, p, "");
	if (strstr(ctrls, "io")) {
		snprintf(p, sizeof(p), "%s/io.max", rel);
		fake_write(r, p, "");
	}
}

struct fake_root *fake_cg2_root;
char fake_cg2_log[4096];

/* [list] with [word] added ([on]) or removed, in [out]. */
static void edit_words(const char *list, const char *word, bool on, char *out,
		       size_t len)
{
	char tmp[1024], *save = NULL;
	size_t off = 0;

	snprintf(tmp, sizeof(tmp), "%s", list);
	out[0] = '\0';
	for (char *t = strtok_r(tmp, " \n", &save); t;
	     t = strtok_r(NULL, " \n", &save))
		if (strcmp(t, word) != 0)
			off += (size_t)snprintf(out + off, len - off, "%s%s",
						off ? " " : "", t);
	if (on)
		snprintf(out + off, len - off, "%s%s", off ? " " : "", word);
}

static bool lists_word(const char *list, const char *word)
{
	char tmp[1024], *save = NULL;

	snprintf(tmp, sizeof(tmp), "%s", list ? list : "");
	for (char *t = strtok_r(tmp, " \n", &save); t;
	     t = strtok_r(NULL, " \n", &save))
		if (strcmp(t, word) == 0)
			return true;
	return false;
}

int fake_cg2_write(const char *path, const char *val)
{
	static const char sc[] = "/cgroup.subtree_control";
	char dir[1024], rel[1200], words[1024];
	size_t l = strlen(path), off = strlen(fake_cg2_log);
	bool on;
	DIR *d;
	struct dirent *de;

	if (off < sizeof(fake_cg2_log))
		snprintf(fake_cg2_log + off, sizeof(fake_cg2_log) - off,
			 "%s %s\n", path, val);
	if (l <= strlen(sc) || strcmp(path + l - strlen(sc), sc) != 0)
		return 0;
	if (strcmp(val, "+io") != 0 && strcmp(val, "-io") != 0)
		return -EINVAL;
	on = val[0] == '+';
	snprintf(dir, sizeof(dir), "%.*s", (int)(l - strlen(sc)), path);
	snprintf(rel, sizeof(rel), "%s/cgroup.procs", dir);
	if (on && strcmp(dir, "sys/fs/cgroup") != 0 &&
	    fake_read(fake_cg2_root, rel) && *fake_read(fake_cg2_root, rel))
		return -EBUSY;
	d = opendir(fake_path(fake_cg2_root, dir));
	if (!d)
		return -ENOENT;
	while ((de = readdir(d))) {
		char c[1400], cw[1024];
		const char *cur;

		if (de->d_name[0] == '.')
			continue;
		snprintf(c, sizeof(c), "%s/%s/cgroup.controllers", dir,
			 de->d_name);
		cur = fake_read(fake_cg2_root, c);
		if (!cur)
			continue;
		snprintf(cw, sizeof(cw), "%s", cur);
		snprintf(c, sizeof(c), "%s/%s/cgroup.subtree_control", dir,
			 de->d_name);
		if (!on && lists_word(fake_read(fake_cg2_root, c), "io")) {
			closedir(d);
			return -EBUSY;
		}
		edit_words(cw, "io", on, words, sizeof(words));
		snprintf(c, sizeof(c), "%s/%s/cgroup.controllers", dir,
			 de->d_name);
		fake_write(fake_cg2_root, c, words);
		snprintf(c, sizeof(c), "%s/%s/io.max", dir, de->d_name);
		if (on)
			fake_write(fake_cg2_root, c, "");
		else
			unlink(fake_path(fake_cg2_root, c));
	}
	closedir(d);
	snprintf(rel, sizeof(rel), "%s", dir);
	snprintf(rel + strlen(rel), sizeof(rel) - strlen(rel), "%s", sc);
	edit_words(fake_read(fake_cg2_root, rel) ? fake_read(fake_cg2_root, rel)
						 : "",
		   "io", on, words, sizeof(words));
	fake_write(fake_cg2_root, rel, words);
	return 1;
}
