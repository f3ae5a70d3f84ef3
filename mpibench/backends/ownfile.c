/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ownfile: create, reuse and remove iostrata-bench's files relative to a
 * --dir fd, never through a symbolic link, trusting only what an open fd
 * shows (owner, type, link count, the user.iostrata mark).  Other users may
 * plant anything in a shared scratch directory; none of it is followed,
 * written or removed.  Nothing here relies on fs.protected_symlinks or
 * fs.protected_regular.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "ownfile.h"

#define REFUSE "refusing to touch it (remove it or choose another --dir)"

/* ---- --dir ---------------------------------------------------------- */

#define MAX_DIRS 8
static struct mb_dir g_dirs[MAX_DIRS];
static int g_ndirs;

static bool untrusted_link(const struct stat *lnk, const struct stat *parent)
{
	/* fs.protected_symlinks=1: in a sticky world-writable directory, a
	 * link is followed only by its owner or when the directory's owner
	 * owns it. */
	return (parent->st_mode & S_ISVTX) && (parent->st_mode & S_IWOTH) &&
	       lnk->st_uid != geteuid() && lnk->st_uid != parent->st_uid;
}

/* Resolve [path] to an O_PATH fd of what it names, following links only
 * where untrusted_link() allows.  fd or -errno with [err] set. */
static int walk(const char *path, struct ios_err *err)
{
	char rest[2 * PATH_MAX], tgt[PATH_MAX], comp[NAME_MAX + 1];
	struct stat st, pst;
	int fd, nfd, links = 0;
	size_t n;
	char *p;

	if (snprintf(rest, sizeof(rest), "%s", path) >= (int)sizeof(rest))
		return ios_errf(err, -ENAMETOOLONG, "--dir: \"%s\": %s", path,
				strerror(ENAMETOOLONG));
	fd = open(rest[0] == '/' ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return ios_errf(err, -errno, "--dir: open \"%s\": %s", path,
				strerror(errno));
	p = rest;
	for (;;) {
		while (*p == '/')
			p++;
		if (!*p)
			return fd;
		n = strcspn(p, "/");
		if (n > NAME_MAX) {
			close(fd);
			return ios_errf(err, -ENAMETOOLONG, "--dir: \"%s\": %s",
					path, strerror(ENAMETOOLONG));
		}
		memcpy(comp, p, n);
		comp[n] = '\0';
		p += n;
		nfd = openat(fd, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (nfd < 0 || fstat(nfd, &st)) {
			int e = errno;

			if (nfd >= 0)
				close(nfd);
			close(fd);
			return ios_errf(
				err, -e,
				"--dir: stat \"%s\": %s (accepted: an existing writable directory)",
				path, strerror(e));
		}
		if (!S_ISLNK(st.st_mode)) {
			close(fd);
			fd = nfd;
			continue;
		}
		if (fstat(fd, &pst) || untrusted_link(&st, &pst)) {
			close(nfd);
			close(fd);
			return ios_errf(
				err, -EPERM,
				"--dir: \"%s\": the symbolic link \"%s\" sits in a sticky world-writable directory and is owned by uid %u (not you, uid %u, nor the directory's owner, uid %u): refusing to follow it (accepted: the path it should lead to, without that link)",
				path, comp, (unsigned)st.st_uid,
				(unsigned)geteuid(), (unsigned)pst.st_uid);
		}
		n = 0;
		if (++links <= 40) {
			ssize_t k = readlinkat(nfd, "", tgt, sizeof(tgt) - 1);

			n = k > 0 ? (size_t)k : 0;
		}
		close(nfd);
		if (!n || strlen(p) + n + 2 > sizeof(rest)) {
			close(fd);
			return ios_errf(err, links > 40 ? -ELOOP : -EINVAL,
					"--dir: resolve \"%s\": %s", path,
					strerror(links > 40 ? ELOOP : EINVAL));
		}
		/* rest := target "/" what followed the link */
		memmove(rest + n + 1, p, strlen(p) + 1);
		memcpy(rest, tgt, n);
		rest[n] = '/';
		p = rest;
		if (tgt[0] == '/') {
			close(fd);
			fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
			if (fd < 0)
				return ios_errf(err, -errno,
						"--dir: open \"/\": %s",
						strerror(errno));
		}
	}
}

int mb_dir_get(const char *path, bool allow_device, const struct mb_dir **out,
	       struct ios_err *err)
{
	struct mb_dir *d;
	struct stat st;
	int i, fd;

	for (i = 0; i < g_ndirs; i++)
		if (!strcmp(g_dirs[i].path, path))
			break;
	if (i == g_ndirs) {
		if (g_ndirs == MAX_DIRS)
			return ios_errf(
				err, -ENOMEM,
				"--dir: \"%s\": more than %d directories", path,
				MAX_DIRS);
		fd = walk(path, err);
		if (fd < 0)
			return fd;
		if (fstat(fd, &st)) {
			int e = -errno;

			close(fd);
			return ios_errf(err, e, "--dir: stat \"%s\": %s", path,
					strerror(-e));
		}
		if (!S_ISDIR(st.st_mode) && !S_ISBLK(st.st_mode)) {
			close(fd);
			return ios_errf(
				err, -ENOTDIR,
				"--dir: \"%s\" is not a directory (accepted: an existing writable directory)",
				path);
		}
		d = &g_dirs[g_ndirs];
		d->path = strdup(path);
		if (!d->path) {
			close(fd);
			return ios_errf(err, -ENOMEM, "--dir: %s",
					strerror(ENOMEM));
		}
		d->fd = fd;
		d->device = S_ISBLK(st.st_mode);
		g_ndirs++;
	}
	d = &g_dirs[i];
	if (d->device && !allow_device)
		return ios_errf(
			err, -EPERM,
			"--dir: \"%s\" is a block device: refusing to overwrite it (accepted: a directory, or --allow-device to destroy the device's data)",
			path);
	*out = d;
	return 0;
}

int mb_dir_open_device(const struct mb_dir *d, int oflags, struct ios_err *err)
{
	char p[64];
	struct stat a, b;
	int fd;

	/* Reopen the very inode resolved (no path walk again). */
	snprintf(p, sizeof(p), "/proc/self/fd/%d", d->fd);
	fd = open(p, oflags | O_CLOEXEC);
	if (fd < 0)
		return ios_errf(err, -errno,
				"--dir: open \"%s\" (through %s): %s", d->path,
				p, strerror(errno));
	if (fstat(fd, &a) || fstat(d->fd, &b) || !S_ISBLK(a.st_mode) ||
	    a.st_rdev != b.st_rdev) {
		close(fd);
		return ios_errf(
			err, -EPERM,
			"--dir: \"%s\": reopened, it is no longer the block device resolved",
			d->path);
	}
	return fd;
}

void mb_dir_forget_all(void)
{
	int i;

	for (i = 0; i < g_ndirs; i++) {
		close(g_dirs[i].fd);
		free(g_dirs[i].path);
	}
	memset(g_dirs, 0, sizeof(g_dirs));
	g_ndirs = 0;
}

/* ---- what is ours --------------------------------------------------- */

static const char *kind(mode_t m)
{
	switch (m & S_IFMT) {
	case S_IFLNK:
		return "a symbolic link";
	case S_IFDIR:
		return "a directory";
	case S_IFIFO:
		return "a named pipe";
	case S_IFSOCK:
		return "a socket";
	case S_IFBLK:
		return "a block device";
	case S_IFCHR:
		return "a character device";
	default:
		return "not a regular file";
	}
}

static int sidecar_name(const char *name, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s%s", name, MB_SIDECAR_SUFFIX);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* Refusal of a file whose type, owner or links (in [st]) are not those of
 * an iostrata file; 0 when they are. */
static int check_stat(const struct mb_dir *d, const char *name, const char *who,
		      const struct stat *st, struct ios_err *err)
{
	char tgt[PATH_MAX];
	ssize_t n;

	if (S_ISLNK(st->st_mode)) {
		n = readlinkat(d->fd, name, tgt, sizeof(tgt) - 1);
		tgt[n > 0 ? n : 0] = '\0';
		return ios_errf(
			err, -EPERM,
			"%s: \"%s/%s\" is a symbolic link (to \"%s\"): " REFUSE,
			who, d->path, name, tgt);
	}
	if (!S_ISREG(st->st_mode))
		return ios_errf(err, -EPERM,
				"%s: \"%s/%s\" exists and is %s: " REFUSE, who,
				d->path, name, kind(st->st_mode));
	if (st->st_uid != geteuid())
		return ios_errf(
			err, -EPERM,
			"%s: \"%s/%s\" is not ours: owner uid %u, you are uid %u: " REFUSE,
			who, d->path, name, (unsigned)st->st_uid,
			(unsigned)geteuid());
	if (st->st_nlink != 1)
		return ios_errf(
			err, -EPERM,
			"%s: \"%s/%s\" has %lu hard links (an iostrata file has one): " REFUSE,
			who, d->path, name, (unsigned long)st->st_nlink);
	return 0;
}

/* Is the sidecar of [name] a mark we made?  1 yes (its stat in [ss]),
 * 0 absent, or a refusal. */
static int check_sidecar(const struct mb_dir *d, const char *name,
			 const char *who, const struct stat *owner,
			 struct stat *ss, struct ios_err *err)
{
	char side[NAME_MAX + 1];
	int rc = sidecar_name(name, side, sizeof(side));

	if (rc)
		return ios_errf(err, rc, "%s: mark of \"%s/%s\": %s", who,
				d->path, name, strerror(-rc));
	if (fstatat(d->fd, side, ss, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT
			       ? 0
			       : ios_errf(err, -errno, "%s: stat \"%s/%s\": %s",
					  who, d->path, side, strerror(errno));
	if (!S_ISREG(ss->st_mode))
		return ios_errf(
			err, -EPERM,
			"%s: the mark \"%s/%s\" of \"%s\" is %s: " REFUSE, who,
			d->path, side, name, kind(ss->st_mode));
	if (ss->st_uid != geteuid() || ss->st_uid != owner->st_uid)
		return ios_errf(
			err, -EPERM,
			"%s: the mark \"%s/%s\" of \"%s\" is owned by another user (uid %u; you are uid %u, the file uid %u): " REFUSE,
			who, d->path, side, name, (unsigned)ss->st_uid,
			(unsigned)geteuid(), (unsigned)owner->st_uid);
	if (ss->st_nlink != 1)
		return ios_errf(
			err, -EPERM,
			"%s: the mark \"%s/%s\" of \"%s\" has %lu hard links: " REFUSE,
			who, d->path, side, name, (unsigned long)ss->st_nlink);
	return 1;
}

/* The open [fd] of [name]: 0 ours, or a refusal.  [st] is fstat(fd). */
static int check_fd(const struct mb_dir *d, const char *name, const char *who,
		    int fd, const struct stat *st, struct ios_err *err)
{
	char v[64];
	struct stat ss;
	ssize_t n;
	int rc = check_stat(d, name, who, st, err);

	if (rc)
		return rc;
	n = fgetxattr(fd, MB_XATTR_NAME, v, sizeof(v));
	if (mb_own_mark_ours(v, n))
		return 0;
	if (n < 0 && errno != ENODATA && errno != ENOTSUP &&
	    errno != EOPNOTSUPP && errno != ERANGE)
		return ios_errf(err, -errno,
				"%s: read the mark of \"%s/%s\": %s", who,
				d->path, name, strerror(errno));
	rc = check_sidecar(d, name, who, st, &ss, err);
	if (rc < 0)
		return rc;
	if (rc == 0)
		return ios_errf(
			err, -EEXIST,
			"%s: \"%s/%s\" exists and was not created by iostrata (no %s mark, no sidecar %s%s): refusing to overwrite it (remove it or choose another --dir)",
			who, d->path, name, MB_XATTR_NAME, name,
			MB_SIDECAR_SUFFIX);
	return 0;
}

/* Open an existing [name] without following a link or blocking on a fifo,
 * and check it on the fd.  fd, -ENOENT, or a refusal. */
static int open_existing(const struct mb_dir *d, const char *name,
			 const char *who, int oflags, struct stat *st,
			 struct ios_err *err)
{
	int fd, rc, fl;

	/* A readable message for what is plainly not ours; the fd decides. */
	if (fstatat(d->fd, name, st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT
			       ? -ENOENT
			       : ios_errf(err, -errno, "%s: stat \"%s/%s\": %s",
					  who, d->path, name, strerror(errno));
	rc = check_stat(d, name, who, st, err);
	if (rc)
		return rc;
	fd = openat(d->fd, name,
		    oflags | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return -ENOENT;
		return ios_errf(err, -errno, "%s: open \"%s/%s\": %s%s", who,
				d->path, name, strerror(errno),
				errno == ELOOP ? " (a symbolic link): " REFUSE
					       : "");
	}
	if (fstat(fd, st)) {
		rc = ios_errf(err, -errno, "%s: stat \"%s/%s\": %s", who,
			      d->path, name, strerror(errno));
		goto out_close;
	}
	rc = check_fd(d, name, who, fd, st, err);
	if (rc)
		goto out_close;
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK)) {
		rc = ios_errf(err, -errno, "%s: open \"%s/%s\": %s", who,
			      d->path, name, strerror(errno));
		goto out_close;
	}
	return fd;
out_close:
	close(fd);
	return rc;
}

int mb_own_check(const struct mb_dir *d, const char *name, const char *who,
		 uint64_t *size, struct ios_err *err)
{
	struct stat st;
	int fd = open_existing(d, name, who, O_RDONLY, &st, err);

	if (fd == -ENOENT)
		return 0;
	if (fd < 0)
		return fd;
	close(fd);
	if (size)
		*size = (uint64_t)st.st_size;
	return 1;
}

/* ---- files this process created (for a signal handler) -------------- */

#define MAX_CREATED 16
struct created {
	volatile sig_atomic_t used;
	int dirfd;
	char name[NAME_MAX + 1];
	dev_t dev;
	ino_t ino;
	bool side; /* a sidecar mark of the same owner goes too */
	dev_t sdev;
	ino_t sino;
};
static struct created g_created[MAX_CREATED];

static void remember(const struct mb_dir *d, const char *name,
		     const struct stat *st, const struct stat *ss)
{
	int i;

	for (i = 0; i < MAX_CREATED; i++)
		if (!g_created[i].used)
			break;
	if (i == MAX_CREATED)
		return; /* still removed at the normal end */
	g_created[i].dirfd = d->fd;
	snprintf(g_created[i].name, sizeof(g_created[i].name), "%s", name);
	g_created[i].dev = st->st_dev;
	g_created[i].ino = st->st_ino;
	g_created[i].side = ss != NULL;
	if (ss) {
		g_created[i].sdev = ss->st_dev;
		g_created[i].sino = ss->st_ino;
	}
	g_created[i].used = 1;
}

static void forget(const struct mb_dir *d, const char *name)
{
	int i;

	for (i = 0; i < MAX_CREATED; i++)
		if (g_created[i].used && g_created[i].dirfd == d->fd &&
		    !strcmp(g_created[i].name, name))
			g_created[i].used = 0;
}

/* unlinkat [name] only while it is the inode [dev]/[ino].  Async-signal-
 * safe.  0, -ENOENT, -ESTALE (another inode now), -errno. */
static int unlink_same(int dirfd, const char *name, dev_t dev, ino_t ino)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return -errno;
	if (st.st_dev != dev || st.st_ino != ino)
		return -ESTALE;
	return unlinkat(dirfd, name, 0) ? -errno : 0;
}

void mb_own_remove_created(void)
{
	char side[NAME_MAX + 1];
	size_t n;
	int i;

	for (i = 0; i < MAX_CREATED; i++) {
		struct created *c = &g_created[i];

		if (!c->used)
			continue;
		unlink_same(c->dirfd, c->name, c->dev, c->ino);
		n = strlen(c->name);
		if (c->side && n + sizeof(MB_SIDECAR_SUFFIX) <= sizeof(side)) {
			memcpy(side, c->name, n);
			memcpy(side + n, MB_SIDECAR_SUFFIX,
			       sizeof(MB_SIDECAR_SUFFIX));
			unlink_same(c->dirfd, side, c->sdev, c->sino);
		}
		c->used = 0;
	}
}

static void on_signal(int sig)
{
	mb_own_remove_created();
	signal(sig, SIG_DFL);
	raise(sig);
}

void mb_own_cleanup_on_signal(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
}

/* ---- create, open, remove ------------------------------------------- */

/* Mark the new file [fd] as ours: the xattr, else a new sidecar (or a
 * stale one of ours).  0 (*[side] set when a sidecar marks it) or -errno. */
static int mark(const struct mb_dir *d, const char *name, const char *who,
		int fd, const struct stat *st, const char *value,
		struct stat *ss, bool *side, struct ios_err *err)
{
	char sname[NAME_MAX + 1];
	size_t len = strlen(value);
	int sfd, rc;

	*side = false;
	if (!fsetxattr(fd, MB_XATTR_NAME, value, len, 0))
		return 0;
	if (errno != ENOTSUP && errno != EOPNOTSUPP && errno != EPERM)
		return ios_errf(err, -errno, "%s: mark \"%s/%s\": %s", who,
				d->path, name, strerror(errno));
	/* No user xattrs here: a sidecar file marks ownership instead. */
	rc = sidecar_name(name, sname, sizeof(sname));
	if (rc)
		return ios_errf(err, rc, "%s: mark \"%s/%s\": %s", who, d->path,
				name, strerror(-rc));
	sfd = openat(d->fd, sname,
		     O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		     0644);
	if (sfd < 0 && errno == EEXIST) {
		rc = check_sidecar(d, name, who, st, ss, err);
		if (rc == 0)
			return ios_errf(err, -EEXIST,
					"%s: create \"%s/%s\": %s", who,
					d->path, sname, strerror(EEXIST));
		*side = rc == 1;
		return rc == 1 ? 0 : rc;
	}
	if (sfd < 0)
		return ios_errf(err, -errno, "%s: create \"%s/%s\": %s", who,
				d->path, sname, strerror(errno));
	if (write(sfd, value, len) != (ssize_t)len || fstat(sfd, ss)) {
		rc = ios_errf(err, -errno, "%s: write \"%s/%s\": %s", who,
			      d->path, sname, strerror(errno));
		close(sfd);
		unlink_same(d->fd, sname, ss->st_dev, ss->st_ino);
		return rc;
	}
	if (close(sfd))
		return ios_errf(err, -errno, "%s: write \"%s/%s\": %s", who,
				d->path, sname, strerror(errno));
	*side = true;
	return 0;
}

int mb_own_open(const struct mb_dir *d, const char *name, int oflags,
		bool create, const char *value, const char *who,
		struct ios_err *err)
{
	struct stat st, ss;
	bool side;
	int fd, rc, tries;

	for (tries = 0; tries < 2; tries++) {
		fd = open_existing(d, name, who, oflags, &st, err);
		if (fd != -ENOENT)
			return fd;
		if (!create)
			return ios_errf(err, -ENOENT, "%s: open \"%s/%s\": %s",
					who, d->path, name, strerror(ENOENT));
		fd = openat(d->fd, name,
			    oflags | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    0644);
		if (fd >= 0)
			break;
		if (errno != EEXIST) /* EEXIST: planted meanwhile, look again */
			return ios_errf(err, -errno, "%s: create \"%s/%s\": %s",
					who, d->path, name, strerror(errno));
	}
	if (fd < 0)
		return ios_errf(err, -EEXIST, "%s: create \"%s/%s\": %s", who,
				d->path, name, strerror(EEXIST));
	if (fstat(fd, &st)) {
		rc = ios_errf(err, -errno, "%s: stat \"%s/%s\": %s", who,
			      d->path, name, strerror(errno));
		goto out_unlink;
	}
	rc = mark(d, name, who, fd, &st, value, &ss, &side, err);
	if (rc)
		goto out_unlink;
	remember(d, name, &st, side ? &ss : NULL);
	return fd;
out_unlink:
	close(fd);
	unlink_same(d->fd, name, st.st_dev, st.st_ino);
	return rc;
}

/* Remove [name], checked on [fd] (fstat [st]), and its sidecar if ours. */
static int remove_checked(const struct mb_dir *d, const char *name,
			  const char *who, const struct stat *st,
			  struct ios_err *err)
{
	char side[NAME_MAX + 1];
	struct stat ss;
	struct ios_err e2 = {0};
	int ours_side = check_sidecar(d, name, who, st, &ss, &e2);
	int rc = unlink_same(d->fd, name, st->st_dev, st->st_ino);

	if (rc == -ESTALE)
		return ios_errf(
			err, -EPERM,
			"%s: remove \"%s/%s\": replaced since it was checked: left alone",
			who, d->path, name);
	if (rc && rc != -ENOENT)
		return ios_errf(err, rc, "%s: remove \"%s/%s\": %s", who,
				d->path, name, strerror(-rc));
	forget(d, name);
	if (ours_side == 1 && !sidecar_name(name, side, sizeof(side)))
		unlink_same(d->fd, side, ss.st_dev, ss.st_ino);
	return rc;
}

int mb_own_remove(const struct mb_dir *d, const char *name, const char *who,
		  struct ios_err *err)
{
	struct stat st;
	int fd = open_existing(d, name, who, O_RDONLY, &st, err);
	int rc;

	if (fd < 0)
		return fd == -EEXIST ? -EPERM : fd; /* not ours: left alone */
	rc = remove_checked(d, name, who, &st, err);
	close(fd);
	return rc;
}

/* ---- the fio file of the layered run -------------------------------- */

static int fio_name(int node, char *buf, size_t len)
{
	int n = snprintf(buf, len, "iostrata-fio.%d", node);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int mb_own_fio_prepare(const struct mb_dir *d, int node, uint64_t size,
		       char *arg, size_t arglen, struct ios_err *err)
{
	char name[64], value[64];
	struct stat st;
	int fd, n;

	if (fio_name(node, name, sizeof(name)))
		return ios_errf(err, -ENAMETOOLONG, "layers: fio file: %s",
				strerror(ENAMETOOLONG));
	snprintf(value, sizeof(value), "iostrata-bench fio node=%d", node);
	fd = mb_own_open(d, name, O_RDWR, true, value, "layers: fio file", err);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) ||
	    ((uint64_t)st.st_size < size && ftruncate(fd, (off_t)size))) {
		int e = -errno;

		close(fd);
		return ios_errf(err, e, "layers: fio file \"%s/%s\": size: %s",
				d->path, name, strerror(-e));
	}
	/* fio is exec'd with this fd: clear close-on-exec. */
	if (fcntl(fd, F_SETFD, 0)) {
		int e = -errno;

		close(fd);
		return ios_errf(err, e, "layers: fio file \"%s/%s\": %s",
				d->path, name, strerror(-e));
	}
	n = snprintf(arg, arglen, "--filename=/proc/self/fd/%d", fd);
	if (n < 0 || (size_t)n >= arglen) {
		close(fd);
		return ios_errf(err, -ENAMETOOLONG, "layers: fio file: %s",
				strerror(ENAMETOOLONG));
	}
	return fd;
}

int mb_own_fill_holes(int fd, uint64_t size, struct ios_err *err)
{
	static char buf[1 << 20];
	off_t data, hole = 0;
	ssize_t n;
	size_t i;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (char)(i * 2654435761u >> 13);
	while ((uint64_t)hole < size) {
		hole = lseek(fd, hole, SEEK_HOLE);
		if (hole < 0)
			return ios_errf(err, -errno, "layers: fio file: %s",
					strerror(errno));
		if ((uint64_t)hole >= size)
			break;
		data = lseek(fd, hole, SEEK_DATA);
		if (data < 0 || (uint64_t)data > size)
			data = (off_t)size;
		while (hole < data) {
			size_t len = (size_t)(data - hole) < sizeof(buf)
					     ? (size_t)(data - hole)
					     : sizeof(buf);

			n = pwrite(fd, buf, len, hole);
			if (n <= 0)
				return ios_errf(
					err, n < 0 ? -errno : -EIO,
					"layers: fio file: lay out at offset %lld: %s",
					(long long)hole,
					n < 0 ? strerror(errno)
					      : "short write");
			hole += n;
		}
	}
	return fsync(fd) ? ios_errf(err, -errno, "layers: fio file: fsync: %s",
				    strerror(errno))
			 : 0;
}

int mb_own_fio_finish(const struct mb_dir *d, int node, int fd, bool keep,
		      struct ios_err *err)
{
	char name[64];
	struct stat st;
	int rc;

	if (fio_name(node, name, sizeof(name)) || fstat(fd, &st)) {
		close(fd);
		return ios_errf(err, -EIO, "layers: fio file of node %d: %s",
				node, strerror(errno));
	}
	if (st.st_nlink == 0) {
		close(fd);
		return ios_errf(
			err, -EPERM,
			"layers: fio file \"%s/%s\": removed or replaced while fio ran: left alone",
			d->path, name);
	}
	rc = check_fd(d, name, "layers: fio file", fd, &st, err);
	if (!rc && !keep)
		rc = remove_checked(d, name, "layers: fio file", &st, err);
	close(fd);
	return rc == -ENOENT ? 0 : rc;
}
