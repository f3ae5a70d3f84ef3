/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests: what another user plants in a shared sticky --dir (symbolic
 * links to a file, a directory, a fifo, dangling; sidecar marks that are
 * links or belong to someone else; hard links to a victim) is refused by
 * the target check, by the posix backend's open and by its cleanup, and
 * neither the victim nor the planted entry is changed: first through the
 * interfaces the benchmark's core uses (mb_config_check_target, the posix
 * ops table), then ownfile.h itself (signal-time cleanup, sidecar marks,
 * the --dir link rule, the layered run's fio file).  Cases that need
 * another uid chown as root, else skip.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <cmocka.h>

#include "backend.h"
#include "mb_config.h"
#include "ownfile.h"

#define OTHER_UID 65534 /* nobody */
#define PRECIOUS "precious data of somebody else\n"

static char top[PATH_MAX], shared[PATH_MAX + 16], victim[PATH_MAX + 16];

static int setup(void **state)
{
	(void)state;
	snprintf(top, sizeof(top), "/tmp/test_mb_hostile.XXXXXX");
	if (!mkdtemp(top))
		return -1;
	chmod(top, 0755);
	snprintf(shared, sizeof(shared), "%s/shared", top);
	snprintf(victim, sizeof(victim), "%s/victim", top);
	if (mkdir(shared, 0777) || chmod(shared, 01777) || mkdir(victim, 0755))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	mb_dir_forget_all();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	return system(cmd) == 0 ? 0 : -1;
}

static void path_in(char *buf, size_t len, const char *dir, const char *name)
{
	assert_true((size_t)snprintf(buf, len, "%s/%s", dir, name) < len);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void assert_content(const char *path, const char *text)
{
	char buf[256] = "";
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	assert_string_equal(buf, text);
}

/* An entry someone planted, and what it looked like. */
struct planted {
	char path[PATH_MAX + 64];
	struct stat st;
};

static void plant_seen(struct planted *p, const char *dir, const char *name)
{
	path_in(p->path, sizeof(p->path), dir, name);
	assert_int_equal(lstat(p->path, &p->st), 0);
}

static void assert_untouched(const struct planted *p)
{
	struct stat st;

	assert_int_equal(lstat(p->path, &st), 0);
	assert_int_equal(st.st_ino, p->st.st_ino);
	assert_int_equal(st.st_mode, p->st.st_mode);
	assert_int_equal(st.st_uid, p->st.st_uid);
	assert_int_equal(st.st_size, p->st.st_size);
	assert_int_equal(st.st_nlink, p->st.st_nlink);
}

static void as_other(const char *path)
{
	assert_int_equal(lchown(path, OTHER_UID, OTHER_UID), 0);
}

/* A sidecar mark "iostrata-bench.R.iostrata" next to rank R's name. */
static void plant_sidecar(int rank, bool other, struct planted *p)
{
	char name[64];

	snprintf(name, sizeof(name), "iostrata-bench.%d.iostrata", rank);
	path_in(p->path, sizeof(p->path), shared, name);
	write_file(p->path, "");
	if (other)
		as_other(p->path);
	plant_seen(p, shared, name);
}

/*
 * Everything the benchmark does with rank [rank]'s file: the target check,
 * open for writing (create allowed) and a write, then cleanup.  Each must
 * refuse; [want] is a piece of the reason expected in the check's message.
 */
static void attempt(int rank, const char *want)
{
	const struct mb_backend *be = mb_backend_find("posix");
	struct mb_config cfg;
	struct ios_err err = {0};
	struct mb_ctx ctx = {.cfg = &cfg, .err = &err, .rank = rank};
	struct mb_file *f = NULL;
	char name[64];
	int rc;

	mb_config_defaults(&cfg);
	cfg.dir = shared;
	cfg.bs = 4096;
	cfg.size = 1 << 20;
	cfg.force = true;
	snprintf(name, sizeof(name), "iostrata-bench.%d", rank);
	/* a planted fifo must not hang the run: fail instead */
	alarm(10);
	rc = mb_config_check_target(&cfg, rank, 1, 1, &err);
	assert_true(rc < 0);
	if (want && !strstr(err.msg, want))
		fail_msg("check of %s: \"%s\" lacks \"%s\"", name, err.msg,
			 want);
	assert_non_null(strstr(err.msg, name));
	memset(&err, 0, sizeof(err));
	rc = be->open(&ctx, name, MB_O_WRITE | MB_O_CREATE, &f);
	if (rc == 0) {
		static const char junk[4096] = "benchmark data";

		be->pwrite(f, junk, sizeof(junk), 0);
		be->close(f);
		fail_msg("posix open of %s accepted a planted entry", name);
	}
	if (want && !strstr(err.msg, want))
		fail_msg("open of %s: \"%s\" lacks \"%s\"", name, err.msg,
			 want);
	memset(&err, 0, sizeof(err));
	rc = be->unlink(&ctx, name);
	assert_true(rc < 0);
	alarm(0);
}

static void test_link_to_file(void **state)
{
	char vpath[PATH_MAX + 64];
	struct planted l, s;

	(void)state;
	path_in(vpath, sizeof(vpath), victim, "precious.txt");
	write_file(vpath, PRECIOUS);
	path_in(l.path, sizeof(l.path), shared, "iostrata-bench.0");
	assert_int_equal(symlink("../victim/precious.txt", l.path), 0);
	plant_seen(&l, shared, "iostrata-bench.0");
	plant_sidecar(0, geteuid() == 0, &s);
	attempt(0, "symbolic link");
	assert_content(vpath, PRECIOUS);
	assert_untouched(&l);
	assert_untouched(&s);
}

static void test_link_to_dir(void **state)
{
	struct planted l, s;

	(void)state;
	path_in(l.path, sizeof(l.path), shared, "iostrata-bench.1");
	assert_int_equal(symlink("../victim", l.path), 0);
	plant_seen(&l, shared, "iostrata-bench.1");
	plant_sidecar(1, geteuid() == 0, &s);
	attempt(1, "symbolic link");
	assert_untouched(&l);
	assert_untouched(&s);
}

static void test_link_to_fifo(void **state)
{
	char fifo[PATH_MAX + 64];
	struct planted l, s;

	(void)state;
	path_in(fifo, sizeof(fifo), victim, "fifo");
	assert_int_equal(mkfifo(fifo, 0666), 0);
	path_in(l.path, sizeof(l.path), shared, "iostrata-bench.2");
	assert_int_equal(symlink(fifo, l.path), 0);
	plant_seen(&l, shared, "iostrata-bench.2");
	plant_sidecar(2, geteuid() == 0, &s);
	attempt(2, "symbolic link");
	assert_untouched(&l);
	assert_untouched(&s);
}

static void test_dangling_link(void **state)
{
	char vpath[PATH_MAX + 64];
	struct planted l, s;
	struct stat st;

	(void)state;
	path_in(vpath, sizeof(vpath), victim, "created-by-a-follower");
	path_in(l.path, sizeof(l.path), shared, "iostrata-bench.3");
	assert_int_equal(symlink(vpath, l.path), 0);
	plant_seen(&l, shared, "iostrata-bench.3");
	plant_sidecar(3, geteuid() == 0, &s);
	attempt(3, "symbolic link");
	/* O_CREAT through the link would have made the file */
	assert_int_equal(lstat(vpath, &st), -1);
	assert_untouched(&l);
	assert_untouched(&s);
}

static void test_fifo(void **state)
{
	struct planted p, s;

	(void)state;
	path_in(p.path, sizeof(p.path), shared, "iostrata-bench.4");
	assert_int_equal(mkfifo(p.path, 0666), 0);
	plant_seen(&p, shared, "iostrata-bench.4");
	plant_sidecar(4, geteuid() == 0, &s);
	attempt(4, "named pipe");
	assert_untouched(&p);
	assert_untouched(&s);
}

/* A file of ours without a mark, whose sidecar is a link. */
static void test_sidecar_link(void **state)
{
	char mine[PATH_MAX + 64], side[PATH_MAX + 64];
	struct planted s;

	(void)state;
	path_in(mine, sizeof(mine), shared, "iostrata-bench.5");
	write_file(mine, PRECIOUS);
	path_in(side, sizeof(side), shared, "iostrata-bench.5.iostrata");
	assert_int_equal(symlink("/etc/hostname", side), 0);
	plant_seen(&s, shared, "iostrata-bench.5.iostrata");
	attempt(5, "is a symbolic link");
	assert_content(mine, PRECIOUS);
	assert_untouched(&s);
}

/* A root file without a mark; the sidecar next to it is nobody's. */
static void test_sidecar_other_owner(void **state)
{
	char mine[PATH_MAX + 64];
	struct planted s;

	(void)state;
	if (geteuid() != 0)
		skip(); /* needs a file of another uid */
	path_in(mine, sizeof(mine), shared, "iostrata-bench.6");
	write_file(mine, PRECIOUS);
	plant_sidecar(6, true, &s);
	attempt(6, "owned by another user");
	assert_content(mine, PRECIOUS);
	assert_untouched(&s);
}

/* Another user's file, with the xattr mark (say of their own run). */
static void test_other_owner_marked(void **state)
{
	struct planted p;

	(void)state;
	if (geteuid() != 0)
		skip();
	path_in(p.path, sizeof(p.path), shared, "iostrata-bench.7");
	write_file(p.path, PRECIOUS);
	if (setxattr(p.path, "user.iostrata", "iostrata-bench rank=7", 21, 0))
		skip(); /* no user xattrs here */
	as_other(p.path);
	plant_seen(&p, shared, "iostrata-bench.7");
	attempt(7, "owner uid 65534");
	assert_content(p.path, PRECIOUS);
	assert_untouched(&p);
}

/* A hard link to a victim of another user, with a sidecar of theirs. */
static void test_hard_link_other(void **state)
{
	char vpath[PATH_MAX + 64];
	struct planted l, s;

	(void)state;
	if (geteuid() != 0)
		skip();
	path_in(vpath, sizeof(vpath), victim, "theirs.txt");
	write_file(vpath, PRECIOUS);
	as_other(vpath);
	path_in(l.path, sizeof(l.path), shared, "iostrata-bench.8");
	assert_int_equal(link(vpath, l.path), 0);
	plant_seen(&l, shared, "iostrata-bench.8");
	plant_sidecar(8, true, &s);
	attempt(8, "owner uid 65534");
	assert_content(vpath, PRECIOUS);
	assert_untouched(&l);
	assert_untouched(&s);
}

/* Hard links to two files of the caller's: as target and as sidecar
 * (what fs.protected_hardlinks=0 lets anybody plant). */
static void test_hard_link_mine(void **state)
{
	char vpath[PATH_MAX + 64], vside[PATH_MAX + 64];
	struct planted l, s;

	(void)state;
	path_in(vpath, sizeof(vpath), victim, "mine.txt");
	write_file(vpath, PRECIOUS);
	path_in(vside, sizeof(vside), victim, "other.txt");
	write_file(vside, "x");
	path_in(l.path, sizeof(l.path), shared, "iostrata-bench.9");
	assert_int_equal(link(vpath, l.path), 0);
	plant_seen(&l, shared, "iostrata-bench.9");
	path_in(s.path, sizeof(s.path), shared, "iostrata-bench.9.iostrata");
	assert_int_equal(link(vside, s.path), 0);
	plant_seen(&s, shared, "iostrata-bench.9.iostrata");
	attempt(9, "hard links");
	assert_content(vpath, PRECIOUS);
	assert_untouched(&l);
	assert_untouched(&s);
}

static const struct mb_dir *shared_dir(void)
{
	const struct mb_dir *d = NULL;
	struct ios_err err = {0};

	assert_int_equal(mb_dir_get(shared, false, &d, &err), 0);
	assert_false(d->device);
	return d;
}

static bool has_mark(int fd)
{
	char v[64];

	return fgetxattr(fd, MB_XATTR_NAME, v, sizeof(v)) > 0;
}

static void test_create_reuse_remove(void **state)
{
	const struct mb_dir *d = shared_dir();
	struct ios_err err = {0};
	char path[PATH_MAX + 64];
	uint64_t size = 0;
	int fd;

	(void)state;
	fd = mb_own_open(d, "f.0", O_RDWR, false, "iostrata-bench rank=0",
			 "test", &err);
	assert_int_equal(fd, -ENOENT);
	fd = mb_own_open(d, "f.0", O_RDWR, true, "iostrata-bench rank=0",
			 "test", &err);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "abcd", 4), 4);
	assert_true(has_mark(fd) || errno == ENOTSUP);
	assert_int_equal(close(fd), 0);
	assert_int_equal(mb_own_check(d, "f.0", "test", &size, &err), 1);
	assert_int_equal(size, 4);
	/* reused: the same file, not a new one */
	fd = mb_own_open(d, "f.0", O_RDONLY, true, "x", "test", &err);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(mb_own_remove(d, "f.0", "test", &err), 0);
	path_in(path, sizeof(path), shared, "f.0");
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(mb_own_remove(d, "f.0", "test", &err), -ENOENT);
}

/* The SIGTERM path removes what it created, and nothing that replaced it. */
static void test_remove_created(void **state)
{
	const struct mb_dir *d = shared_dir();
	struct ios_err err = {0};
	char a[PATH_MAX + 64], b[PATH_MAX + 64], other[PATH_MAX + 64];
	int fd;

	(void)state;
	path_in(a, sizeof(a), shared, "c.a");
	path_in(b, sizeof(b), shared, "c.b");
	path_in(other, sizeof(other), shared, "c.other");
	fd = mb_own_open(d, "c.a", O_RDWR, true, "iostrata-bench rank=0",
			 "test", &err);
	assert_true(fd >= 0);
	close(fd);
	fd = mb_own_open(d, "c.b", O_RDWR, true, "iostrata-bench rank=1",
			 "test", &err);
	assert_true(fd >= 0);
	close(fd);
	write_file(other, PRECIOUS);
	assert_int_equal(rename(other, a), 0); /* c.a is now another inode */
	mb_own_remove_created();
	assert_content(a, PRECIOUS);
	assert_int_equal(access(b, F_OK), -1);
	unlink(a);
}

/* Where user xattrs are missing, a sidecar of ours marks the file. */
static void test_sidecar_counts(void **state)
{
	const struct mb_dir *d = shared_dir();
	struct ios_err err = {0};
	char p[PATH_MAX + 64], s[PATH_MAX + 64];

	(void)state;
	path_in(p, sizeof(p), shared, "s.0");
	path_in(s, sizeof(s), shared, "s.0" MB_SIDECAR_SUFFIX);
	write_file(p, "data");
	assert_int_equal(mb_own_check(d, "s.0", "test", NULL, &err), -EEXIST);
	assert_non_null(strstr(err.msg, "not created by iostrata"));
	write_file(s, "iostrata-bench rank=0");
	assert_int_equal(mb_own_check(d, "s.0", "test", NULL, &err), 1);
	assert_int_equal(mb_own_remove(d, "s.0", "test", &err), 0);
	assert_int_equal(access(p, F_OK), -1);
	assert_int_equal(access(s, F_OK), -1);
}

/* --dir: a link of another user in a sticky world-writable directory is
 * not followed (fs.protected_symlinks=1 semantics, whatever the sysctl);
 * a link of ours is. */
static void test_dir_links(void **state)
{
	char l[PATH_MAX + 64], sub[PATH_MAX + 96];
	const struct mb_dir *d;
	struct ios_err err = {0};

	(void)state;
	path_in(l, sizeof(l), shared, "mylink");
	assert_int_equal(symlink("../victim", l), 0);
	assert_int_equal(mb_dir_get(l, false, &d, &err), 0);
	if (geteuid() != 0)
		skip(); /* a link of another uid needs root to make */
	path_in(l, sizeof(l), shared, "theirlink");
	assert_int_equal(symlink("../victim", l), 0);
	assert_int_equal(lchown(l, 65534, 65534), 0);
	assert_int_equal(mb_dir_get(l, false, &d, &err), -EPERM);
	assert_non_null(strstr(err.msg, "\"theirlink\""));
	assert_non_null(strstr(err.msg, "uid 65534"));
	/* also in the middle of the path */
	snprintf(sub, sizeof(sub), "%s/.", l);
	assert_int_equal(mb_dir_get(sub, false, &d, &err), -EPERM);
}

static void test_fio_planted_link(void **state)
{
	const struct mb_dir *d = shared_dir();
	struct ios_err err = {0};
	char v[PATH_MAX + 64], l[PATH_MAX + 64], arg[64];
	struct stat st;

	(void)state;
	path_in(v, sizeof(v), victim, "fio-victim");
	write_file(v, PRECIOUS);
	path_in(l, sizeof(l), shared, "iostrata-fio.3");
	assert_int_equal(symlink(v, l), 0);
	assert_true(mb_own_fio_prepare(d, 3, 1 << 20, arg, sizeof(arg), &err) <
		    0);
	assert_non_null(strstr(err.msg, "iostrata-fio.3"));
	assert_non_null(strstr(err.msg, "symbolic link"));
	assert_content(v, PRECIOUS);
	assert_int_equal(lstat(l, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	unlink(l);
}

static void test_fio_file(void **state)
{
	const struct mb_dir *d = shared_dir();
	struct ios_err err = {0};
	char p[PATH_MAX + 64], arg[64], want[64];
	struct stat st;
	int fd;

	(void)state;
	path_in(p, sizeof(p), shared, "iostrata-fio.4");
	fd = mb_own_fio_prepare(d, 4, 1 << 20, arg, sizeof(arg), &err);
	assert_true(fd >= 0);
	snprintf(want, sizeof(want), "--filename=/proc/self/fd/%d", fd);
	assert_string_equal(arg, want);
	assert_int_equal(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_size, 1 << 20);
	assert_int_equal(mb_own_fill_holes(fd, 1 << 20, &err), 0);
	assert_int_equal(lseek(fd, 0, SEEK_HOLE), 1 << 20);
	/* --keep: kept, and still ours for the next run */
	assert_int_equal(mb_own_fio_finish(d, 4, fd, true, &err), 0);
	assert_int_equal(mb_own_check(d, "iostrata-fio.4", "t", NULL, &err), 1);
	fd = mb_own_fio_prepare(d, 4, 1 << 20, arg, sizeof(arg), &err);
	assert_true(fd >= 0);
	assert_int_equal(mb_own_fio_finish(d, 4, fd, false, &err), 0);
	assert_int_equal(access(p, F_OK), -1);
}

/* The name replaced while fio ran: the replacement is left alone. */
static void test_fio_replaced(void **state)
{
	const struct mb_dir *d = shared_dir();
	struct ios_err err = {0};
	char p[PATH_MAX + 64], o[PATH_MAX + 64], arg[64];
	int fd;

	(void)state;
	path_in(p, sizeof(p), shared, "iostrata-fio.5");
	path_in(o, sizeof(o), shared, "planted");
	fd = mb_own_fio_prepare(d, 5, 4096, arg, sizeof(arg), &err);
	assert_true(fd >= 0);
	write_file(o, PRECIOUS);
	assert_int_equal(rename(o, p), 0);
	assert_int_equal(mb_own_fio_finish(d, 5, fd, false, &err), -EPERM);
	assert_non_null(strstr(err.msg, "left alone"));
	assert_content(p, PRECIOUS);
	unlink(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_link_to_file),
		cmocka_unit_test(test_link_to_dir),
		cmocka_unit_test(test_link_to_fifo),
		cmocka_unit_test(test_dangling_link),
		cmocka_unit_test(test_fifo),
		cmocka_unit_test(test_sidecar_link),
		cmocka_unit_test(test_sidecar_other_owner),
		cmocka_unit_test(test_other_owner_marked),
		cmocka_unit_test(test_hard_link_other),
		cmocka_unit_test(test_hard_link_mine),
		cmocka_unit_test(test_create_reuse_remove),
		cmocka_unit_test(test_remove_created),
		cmocka_unit_test(test_sidecar_counts),
		cmocka_unit_test(test_dir_links),
		cmocka_unit_test(test_fio_planted_link),
		cmocka_unit_test(test_fio_file),
		cmocka_unit_test(test_fio_replaced),
	};

	return cmocka_run_group_tests_name("mb_hostile", tests, setup,
					   teardown);
}
