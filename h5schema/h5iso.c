/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * h5iso: the isolated reader (h5iso.h).  This process opens the file, a
 * child with limits and the owner's rights parses it with the HDF5 reader
 * and answers in runwire bytes; only those bytes come back here.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <hdf5.h>

#include "h5iso.h"
#include "h5run.h"
#include "h5run_internal.h"
#include "runwire.h"
#include "h5iso_internal.h"

struct ios_h5_iso_seen ios_h5_iso_test_seen;

static unsigned long long env_num(const char *name, unsigned long long def,
				  unsigned long long scale)
{
	const char *s = getenv(name);
	char *end;
	unsigned long long v;

	if (!s || !*s)
		return def;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v < 1 || s[0] == '-' || v > UINT64_MAX / scale)
		return def;
	return v * scale;
}

void ios_h5_iso_limits_default(struct ios_h5_iso_limits *l)
{
	l->max_file_bytes = env_num("IOSTRATA_PARSE_MAX_FILE_MIB",
				    IOS_H5_ISO_MAX_FILE, MIB);
	l->mem_bytes = env_num("IOSTRATA_PARSE_MEM_MIB", IOS_H5_ISO_MEM, MIB);
	l->cpu_s =
		(unsigned)env_num("IOSTRATA_PARSE_CPU_S", IOS_H5_ISO_CPU_S, 1);
	l->wall_s = (unsigned)env_num("IOSTRATA_PARSE_TIMEOUT_S",
				      IOS_H5_ISO_WALL_S, 1);
}

static void limits_fill(const struct ios_h5_iso_limits *in,
			struct ios_h5_iso_limits *l)
{
	struct ios_h5_iso_limits d;

	ios_h5_iso_limits_default(&d);
	*l = in ? *in : d;
	if (!l->max_file_bytes)
		l->max_file_bytes = d.max_file_bytes;
	if (!l->mem_bytes)
		l->mem_bytes = d.mem_bytes;
	if (!l->cpu_s)
		l->cpu_s = d.cpu_s;
	if (!l->wall_s)
		l->wall_s = d.wall_s;
}

/* ---- the parent: open ------------------------------------------------ */

/*
 * Open [path] for the child.  A symbolic link (O_NOFOLLOW fails with
 * ELOOP) is followed when not root, and as root only to a file owned by
 * the owner of the link: whoever planted it could read the target anyway.
 */
static int open_input(const char *path, unsigned long long max, int *out,
		      struct stat *st, struct ios_err *err)
{
	const int flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
	struct stat lst;
	int fd, rc;

	*out = -1;
	fd = open(path, flags | O_NOFOLLOW);
	if (fd < 0 && errno == ELOOP) {
		if (lstat(path, &lst) < 0 || !S_ISLNK(lst.st_mode))
			return ios_errf(err, -ELOOP, "h5schema: read %s: %s",
					path, strerror(ELOOP));
		fd = open(path, flags);
		if (fd >= 0 && geteuid() == 0 &&
		    (fstat(fd, st) < 0 || st->st_uid != lst.st_uid)) {
			close(fd);
			return ios_errf(
				err, -ELOOP,
				"h5schema: read %s: a symbolic link owned by uid %u to a file owned by uid %u: not followed as root (name the file itself)",
				path, (unsigned)lst.st_uid,
				(unsigned)st->st_uid);
		}
	}
	if (fd < 0) {
		rc = -errno;
		return ios_errf(err, rc, "h5schema: read %s: %s", path,
				strerror(-rc));
	}
	if (fstat(fd, st) < 0) {
		rc = -errno;
		close(fd);
		return ios_errf(err, rc, "h5schema: read %s: %s", path,
				strerror(-rc));
	}
	if (!S_ISREG(st->st_mode)) {
		close(fd);
		return ios_errf(err, -EBADMSG,
				"h5schema: read %s: not a regular file", path);
	}
	if ((unsigned long long)st->st_size > max) {
		close(fd);
		return ios_errf(
			err, -EFBIG,
			"h5schema: read %s: %llu bytes, beyond the isolated reader's bound of %llu MiB per file (IOSTRATA_PARSE_MAX_FILE_MIB)",
			path, (unsigned long long)st->st_size, max / MIB);
	}
	*out = fd;
	return 0;
}

/*
 * Under root the child becomes the file's owner, with the owner's primary
 * group: a user's file is parsed with that user's own rights, so a parse
 * the file takes over gains nothing.  A root-owned file (or group 0, or an
 * owner without a passwd entry, for the group) gets `nobody` instead.
 */
static void pick_creds(const struct stat *st, struct iso_creds *c)
{
	struct passwd *nob = getpwnam("nobody"), *pw;
	uid_t nuid = nob ? nob->pw_uid : 65534;
	gid_t ngid = nob ? nob->pw_gid : 65534;

	c->drop = geteuid() == 0;
	c->uid = st->st_uid ? st->st_uid : nuid;
	pw = st->st_uid ? getpwuid(st->st_uid) : NULL;
	c->gid = pw && pw->pw_gid ? pw->pw_gid : ngid;
	if (!c->uid) /* nobody resolved to 0: never keep root */
		c->uid = 65534;
	if (!c->gid)
		c->gid = 65534;
}

/* ---- the parent: wait and decode ------------------------------------ */

/* ---- the spawner ---------------------------------------------------- */

/*
 * The children are forked by a small helper process (the spawner), itself
 * forked at the first isolated read, before the caller holds any run: a
 * fork of a report holding a thousand runs cost more than the parse (page
 * tables, copy-on-write), and a child forked from it would carry other
 * users' runs in its memory.  The spawner keeps root, runs no HDF5 over
 * any input, forks one child per request, enforces the wall-clock limit
 * (it kills the child by PID) and sends back how the child ended.  The
 * child's answer goes straight to the caller through a pipe.
 */
struct iso_req {
	uint32_t op;
	struct iso_creds creds;
	int64_t size;
	struct ios_h5_iso_limits lim;
	char path[4096];
};

struct iso_end {
	int32_t status;
	uint32_t timed_out;
	int64_t cpu_s;
};

static int spawner_fd = -1;
static pid_t spawner_pid = -1, spawner_owner = -1;

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Reap [pid], killing it at [deadline] (ms, CLOCK_MONOTONIC). */
static void reap(pid_t pid, long long deadline, struct iso_end *end)
{
	int pfd = (int)syscall(SYS_pidfd_open, pid, 0);
	struct rusage ru;
	bool killed = false;

	for (unsigned us = 50;;) {
		pid_t w = wait4(pid, &end->status, WNOHANG, &ru);
		long long left = deadline - now_ms();

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			end->status = -1;
			break;
		}
		if (w == 0 && left <= 0 && !killed) {
			end->timed_out = 1;
			kill(pid, SIGKILL);
			killed = true;
			left = 1000;
		}
		if (pfd >= 0) {
			struct pollfd p = {.fd = pfd, .events = POLLIN};

			poll(&p, 1,
			     left > 1000 ? 1000 : (int)(left > 0 ? left : 1));
		} else {
			struct timespec ts = {0, (long)us * 1000};

			nanosleep(&ts, NULL);
			if (us < 20000)
				us *= 2;
		}
	}
	if (pfd >= 0)
		close(pfd);
	end->cpu_s = ru.ru_utime.tv_sec + ru.ru_stime.tv_sec;
}

/*
 * The caller's signal handlers are not the spawner's nor its children's:
 * a handler that longjmps back into the caller's code (a test framework's
 * SIGSEGV handler does) would go on running the caller's program in a
 * crashed child, as the file's owner; one that cleans up on SIGTERM would
 * clean up the caller's files.  Every disposition back to its default,
 * nothing blocked.
 */
static void default_signals(void)
{
	sigset_t none;

	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			signal(sig, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

static __attribute__((noreturn)) void spawner_main(int sock, pid_t caller)
{
	pid_t self = getpid();

	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 ||
	    getppid() != caller)
		_exit(0);
	close_range(3, (unsigned)sock - 1, 0);
	close_range((unsigned)sock + 1, ~0u, 0);
	default_signals();
	signal(SIGPIPE, SIG_IGN);
	/* libhdf5 initialised once, here, not in every child (most of a
	 * child's time otherwise): no input is involved */
	H5open();
	for (;;) {
		struct iso_req req;
		struct iso_end end = {0};
		char cbuf[CMSG_SPACE(2 * sizeof(int))];
		struct iovec iov = {.iov_base = &req, .iov_len = sizeof(req)};
		struct msghdr mh = {.msg_iov = &iov,
				    .msg_iovlen = 1,
				    .msg_control = cbuf,
				    .msg_controllen = sizeof(cbuf)};
		struct cmsghdr *cm;
		int fds[2];
		ssize_t n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
		long long deadline;
		pid_t pid;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			_exit(0); /* the caller is gone */
		cm = CMSG_FIRSTHDR(&mh);
		if (n != sizeof(req) || !cm || cm->cmsg_type != SCM_RIGHTS ||
		    cm->cmsg_len != CMSG_LEN(2 * sizeof(int)))
			_exit(1);
		memcpy(fds, CMSG_DATA(cm), sizeof(fds));
		req.path[sizeof(req.path) - 1] = '\0';
		deadline = now_ms() + (long long)req.lim.wall_s * 1000;
		pid = fork();
		if (pid == 0) {
			close(sock);
			signal(SIGPIPE, SIG_DFL);
			ios_h5_iso_child_main(req.op, req.path, fds[0], fds[1],
					      req.size, &req.lim, &req.creds,
					      self);
		}
		close(fds[0]);
		close(fds[1]);
		if (pid < 0)
			end.status = -1;
		else
			reap(pid, deadline, &end);
		if (send(sock, &end, sizeof(end), MSG_NOSIGNAL) != sizeof(end))
			_exit(0);
	}
}

/* At exit: the spawner ends at EOF on its socket; reap it (its CPU time
 * and its children's then count in this process's RUSAGE_CHILDREN). */
static void spawner_exit(void)
{
	if (spawner_fd < 0 || spawner_owner != getpid())
		return;
	close(spawner_fd);
	spawner_fd = -1;
	waitpid(spawner_pid, NULL, 0);
}

/* Start the spawner unless this process has one.  0 or -errno. */
static int spawner_start(void)
{
	static bool registered;
	int sv[2];
	pid_t me = getpid();

	if (spawner_fd >= 0 && spawner_owner == me)
		return 0;
	if (spawner_fd >= 0) { /* a fork of the caller: not its spawner */
		close(spawner_fd);
		spawner_fd = -1;
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return -errno;
	fflush(NULL); /* nothing buffered twice */
	spawner_pid = fork();
	if (spawner_pid < 0) {
		int e = errno;

		close(sv[0]);
		close(sv[1]);
		return -e;
	}
	if (spawner_pid == 0) {
		close(sv[0]);
		spawner_main(sv[1], me);
	}
	close(sv[1]);
	spawner_fd = sv[0];
	spawner_owner = me;
	if (!registered && atexit(spawner_exit) == 0)
		registered = true;
	return 0;
}

/* Stop a spawner that stopped answering (this process's child). */
static void spawner_stop(void)
{
	if (spawner_fd >= 0)
		close(spawner_fd);
	if (spawner_pid > 0 && spawner_owner == getpid()) {
		kill(spawner_pid, SIGKILL);
		waitpid(spawner_pid, NULL, 0);
	}
	spawner_fd = -1;
	spawner_pid = -1;
}

/* ---- the parent: the answer ------------------------------------------ */

struct iso_result {
	uint8_t *buf;
	size_t len;
	bool timed_out, too_big;
	struct iso_end end;
};

/*
 * Read the child's answer from *[rfdp] until EOF (at most [max] bytes:
 * beyond, the pipe is closed and the child dies writing; *[rfdp] is then
 * -1), then how it ended from the spawner.  [deadline] guards against a
 * spawner that stopped answering.
 */
static int collect(int *rfdp, size_t max, long long deadline,
		   struct iso_result *res)
{
	size_t cap = 0;
	int rfd = *rfdp;
	ssize_t k;

	for (;;) {
		struct pollfd p = {.fd = rfd, .events = POLLIN};
		long long left = deadline - now_ms();

		if (left <= 0)
			return -ETIMEDOUT;
		if (poll(&p, 1, left > 60000 ? 60000 : (int)left) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (!p.revents)
			continue;
		if (res->len == cap) {
			void *q;

			if (cap >= max) {
				res->too_big = true;
				break;
			}
			q = realloc(res->buf, cap ? cap * 2 : 64 * 1024);
			if (!q)
				return -ENOMEM;
			res->buf = q;
			cap = cap ? cap * 2 : 64 * 1024;
		}
		k = read(rfd, res->buf + res->len, cap - res->len);
		if (k < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (k < 0)
			return -errno;
		if (k == 0)
			break;
		res->len += (size_t)k;
	}
	close(rfd); /* a child still writing gets EPIPE */
	*rfdp = -1;
	for (;;) {
		struct pollfd p = {.fd = spawner_fd, .events = POLLIN};
		long long left = deadline - now_ms();

		if (left <= 0)
			return -ETIMEDOUT;
		if (poll(&p, 1, (int)(left > 60000 ? 60000 : left)) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (!p.revents)
			continue;
		k = recv(spawner_fd, &res->end, sizeof(res->end), 0);
		if (k < 0 && errno == EINTR)
			continue;
		if (k != sizeof(res->end))
			return -EPIPE;
		res->timed_out = res->end.timed_out != 0;
		return 0;
	}
}

static int decode(enum iso_op op, const char *path,
		  const struct iso_result *res, const struct iso_creds *c,
		  unsigned long long mem_mib, struct ios_run **out,
		  struct ios_err *err)
{
	struct ios_unwire u = {.p = res->buf, .len = res->len};
	uint32_t magic, stage, uid, euid, gid, egid, ngroups;
	int32_t code;
	char *msg;
	char as[64] = "";
	int rc;

	magic = ios_unwire_u32(&u);
	stage = ios_unwire_u32(&u);
	uid = ios_unwire_u32(&u);
	euid = ios_unwire_u32(&u);
	gid = ios_unwire_u32(&u);
	egid = ios_unwire_u32(&u);
	ngroups = ios_unwire_u32(&u);
	code = (int32_t)ios_unwire_u32(&u);
	msg = ios_unwire_str(&u, IOS_ERR_MSGLEN - 1);
	if (!u.bad && (magic != FRAME_MAGIC || stage > STAGE_SETUP ||
		       code > 0 || code < -4095 || !msg))
		u.bad = "a bad header";
	if (u.bad) {
		free(msg);
		return ios_errf(
			err, -EBADMSG,
			"h5schema: read %s: the isolated reader's answer is malformed (%s): the file may have taken over its parse",
			path, u.bad);
	}
	ios_text_sanitize(msg, false);
	ios_h5_iso_test_seen = (struct ios_h5_iso_seen){
		.uid = uid,
		.euid = euid,
		.gid = gid,
		.egid = egid,
		.ngroups = ngroups,
	};
	if (c->drop) {
		if (uid != c->uid || euid != c->uid || gid != c->gid ||
		    egid != c->gid || ngroups != 0) {
			free(msg);
			return ios_errf(
				err, -ECHILD,
				"h5schema: read %s: the isolated reader ran as uid %u/%u gid %u/%u with %u groups, not uid %u gid %u",
				path, uid, euid, gid, egid, ngroups,
				(unsigned)c->uid, (unsigned)c->gid);
		}
		snprintf(as, sizeof(as), " (parsed as uid %u gid %u)", uid,
			 gid);
	}
	if (stage == STAGE_SETUP) {
		rc = ios_errf(
			err, -ECHILD,
			"h5schema: read %s: cannot set up the isolated reader: %s",
			path, msg);
	} else if (code == -ENOMEM) {
		rc = ios_errf(
			err, -ENOMEM,
			"%s: needs more than %llu MiB of memory to parse (IOSTRATA_PARSE_MEM_MIB)%s",
			msg, mem_mib, as);
	} else if (code < 0) {
		rc = ios_errf(err, code, "%s%s", msg, as);
	} else if (op == ISO_READ) {
		rc = ios_unwire_run(&u, out);
		if (rc < 0)
			rc = ios_errf(
				err, rc,
				"h5schema: read %s: the isolated reader's answer is malformed (%s): the file may have taken over its parse",
				path, u.bad ? u.bad : "?");
		else if (u.pos != u.len) {
			ios_run_free(*out);
			*out = NULL;
			rc = ios_errf(
				err, -EBADMSG,
				"h5schema: read %s: the isolated reader's answer is malformed (bytes after the run): the file may have taken over its parse",
				path);
		}
		/* the child checked it too, but the answer is another
		 * process's: check what this process will compute from */
		else if ((rc = ios_h5_check_shape(path, *out, err)) < 0) {
			ios_run_free(*out);
			*out = NULL;
		}
	} else {
		rc = 0;
	}
	free(msg);
	return rc;
}

static int send_req(const struct iso_req *req, int fd, int wfd)
{
	char cbuf[CMSG_SPACE(2 * sizeof(int))] = {0};
	struct iovec iov = {.iov_base = (void *)req, .iov_len = sizeof(*req)};
	struct msghdr mh = {.msg_iov = &iov,
			    .msg_iovlen = 1,
			    .msg_control = cbuf,
			    .msg_controllen = sizeof(cbuf)};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
	int fds[2] = {fd, wfd};

	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(fds));
	memcpy(CMSG_DATA(cm), fds, sizeof(fds));
	return sendmsg(spawner_fd, &mh, MSG_NOSIGNAL) == sizeof(*req) ? 0
								      : -errno;
}

static int isolated(enum iso_op op, const char *path,
		    const struct ios_h5_iso_limits *lim, struct ios_run **out,
		    struct ios_err *err)
{
	struct iso_req req = {.op = op};
	struct iso_result res = {0};
	struct stat st;
	int fd, p[2] = {-1, -1}, rc;
	char as[32] = "";
	const struct ios_h5_iso_limits *l = &req.lim;

	if (out)
		*out = NULL;
	limits_fill(lim, &req.lim);
	if ((rc = open_input(path, l->max_file_bytes, &fd, &st, err)))
		return rc;
	pick_creds(&st, &req.creds);
	req.size = st.st_size;
	snprintf(req.path, sizeof(req.path), "%s", path); /* for messages */
	for (int attempt = 0;; attempt++) {
		if ((rc = spawner_start()) < 0 ||
		    (pipe2(p, O_CLOEXEC) < 0 && (rc = -errno)))
			break;
		rc = send_req(&req, fd, p[1]);
		close(p[1]);
		if (!rc || attempt)
			break;
		close(p[0]); /* the spawner died: once more with a new one */
		spawner_stop();
	}
	close(fd);
	if (rc < 0) {
		if (p[0] >= 0)
			close(p[0]);
		return ios_errf(
			err, -ECHILD,
			"h5schema: read %s: cannot start the isolated reader: %s",
			path, strerror(-rc));
	}
	rc = collect(&p[0], (size_t)l->mem_bytes + MIB,
		     now_ms() + ((long long)l->wall_s + 10) * 1000, &res);
	if (p[0] >= 0)
		close(p[0]);
	if (req.creds.drop)
		snprintf(as, sizeof(as), " as uid %u", (unsigned)req.creds.uid);
	if (rc < 0) {
		spawner_stop();
		rc = ios_errf(
			err, -ECHILD,
			"h5schema: read %s: the isolated reader stopped answering: %s",
			path, strerror(-rc));
	} else if (res.timed_out) {
		rc = ios_errf(
			err, -ETIMEDOUT,
			"h5schema: read %s: took longer than %u s to parse (IOSTRATA_PARSE_TIMEOUT_S): stopped; the HDF5 library loops on some corrupt files (parsed%s)",
			path, l->wall_s, as[0] ? as : " in a separate process");
	} else if (res.too_big) {
		rc = ios_errf(
			err, -EBADMSG,
			"h5schema: read %s: the isolated reader's answer is larger than %llu MiB: the file may have taken over its parse",
			path, l->mem_bytes / MIB + 1);
	} else if (res.end.status == -1) {
		rc = ios_errf(
			err, -ECHILD,
			"h5schema: read %s: cannot fork the isolated reader",
			path);
	} else if (WIFSIGNALED(res.end.status) &&
		   (WTERMSIG(res.end.status) == SIGXCPU ||
		    (WTERMSIG(res.end.status) == SIGKILL &&
		     res.end.cpu_s >= (int64_t)l->cpu_s))) {
		rc = ios_errf(
			err, -ETIMEDOUT,
			"h5schema: read %s: took more than %u s of CPU to parse (IOSTRATA_PARSE_CPU_S): stopped; the HDF5 library loops on some corrupt files (parsed%s)",
			path, l->cpu_s, as[0] ? as : " in a separate process");
	} else if (WIFSIGNALED(res.end.status)) {
		int sig = WTERMSIG(res.end.status);
		const char *abbrev = sigabbrev_np(sig);

		rc = ios_errf(
			err, -EBADMSG,
			"h5schema: read %s: the HDF5 library crashed reading it (signal %d, SIG%s): a corrupt or crafted file (parsed in a separate process%s; nothing else was affected)",
			path, sig, abbrev ? abbrev : "?", as);
	} else if (!WIFEXITED(res.end.status) ||
		   WEXITSTATUS(res.end.status) > CHILD_EXIT) {
		rc = ios_errf(
			err, -ECHILD,
			"h5schema: read %s: the isolated reader failed (exit status %d)",
			path,
			WIFEXITED(res.end.status) ? WEXITSTATUS(res.end.status)
						  : -1);
	} else if (WEXITSTATUS(res.end.status)) {
		rc = ios_errf(
			err, -EBADMSG,
			"h5schema: read %s: the HDF5 library crashed reading it (exit status %d): a corrupt or crafted file (parsed in a separate process%s; nothing else was affected)",
			path, WEXITSTATUS(res.end.status), as);
	} else {
		rc = decode(op, path, &res, &req.creds, l->mem_bytes / MIB, out,
			    err);
	}
	free(res.buf);
	return rc;
}

int ios_h5_read_run_isolated(const char *path,
			     const struct ios_h5_iso_limits *limits,
			     struct ios_run **out, struct ios_err *err)
{
	return isolated(ISO_READ, path, limits, out, err);
}

int ios_h5_validate_isolated(const char *path,
			     const struct ios_h5_iso_limits *limits,
			     struct ios_err *err)
{
	return isolated(ISO_VALIDATE, path, limits, NULL, err);
}
