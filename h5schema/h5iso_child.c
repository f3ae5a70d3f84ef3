/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * h5iso_child: the isolated reader's child (h5iso.c forks it through the
 * spawner): it drops to the file's owner, sets its limits, copies the open
 * file into a private memfd, parses it with the HDF5 reader and writes the
 * answer as runwire bytes into its pipe.  Nothing else comes back.
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

/* ---- the child ------------------------------------------------------- */

static int write_all(int fd, const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n) {
		ssize_t k = write(fd, b, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		b += k;
		n -= (size_t)k;
	}
	return 0;
}

static void frame_head(struct ios_wire *w, enum iso_stage stage, int rc,
		       const char *msg)
{
	gid_t g[1];
	int ng = getgroups(0, g);

	ios_wire_u32(w, FRAME_MAGIC);
	ios_wire_u32(w, stage);
	ios_wire_u32(w, (uint32_t)getuid());
	ios_wire_u32(w, (uint32_t)geteuid());
	ios_wire_u32(w, (uint32_t)getgid());
	ios_wire_u32(w, (uint32_t)getegid());
	ios_wire_u32(w, ng < 0 ? UINT32_MAX : (uint32_t)ng);
	ios_wire_u32(w, (uint32_t)rc);
	ios_wire_str(w, msg);
}

static __attribute__((noreturn)) void child_fail(int wfd, const char *what,
						 int e)
{
	struct ios_wire w = {0};
	char msg[IOS_ERR_MSGLEN];

	snprintf(msg, sizeof(msg), "%s: %s", what, strerror(e));
	frame_head(&w, STAGE_SETUP, -e, msg);
	if (w.failed || write_all(wfd, w.p, w.len) < 0)
		_exit(CHILD_EXIT + 3);
	_exit(0);
}

static void set_limit(int wfd, int res, rlim_t cur, rlim_t max,
		      const char *what)
{
	struct rlimit rl = {.rlim_cur = cur, .rlim_max = max};

	if (setrlimit(res, &rl) < 0)
		child_fail(wfd, what, errno);
}

/* The address space in use now (VmSize), in bytes. */
static unsigned long long vm_size(void)
{
	unsigned long long pages = 0;
	FILE *fp = fopen("/proc/self/statm", "re");

	if (fp) {
		if (fscanf(fp, "%llu", &pages) != 1)
			pages = 0;
		fclose(fp);
	}
	return pages * (unsigned long long)sysconf(_SC_PAGESIZE);
}

/* Replace every [from] in [msg] by [to], within the message's size. */
static void replace_all(char *msg, size_t size, const char *from,
			const char *to)
{
	char out[IOS_ERR_MSGLEN];
	size_t o = 0, nf = strlen(from);
	const char *s = msg, *hit;

	if (size > sizeof(out))
		size = sizeof(out);
	while ((hit = strstr(s, from)) && o < size) {
		size_t pre = (size_t)(hit - s);

		o += (size_t)snprintf(out + o, size - o, "%.*s%s", (int)pre, s,
				      to);
		s = hit + nf;
	}
	if (o < size)
		snprintf(out + o, size - o, "%s", s);
	snprintf(msg, size, "%s", out);
}

static herr_t alloc_cb(unsigned n, const H5E_error2_t *e, void *arg)
{
	(void)n;
	if (e->min_num == H5E_CANTALLOC || e->min_num == H5E_NOSPACE)
		*(bool *)arg = true;
	return 0;
}

/* Did the failed parse fail for memory (the address space limit)?  The
 * reader maps HDF5's errors to -EBADMSG; HDF5's error stack, still that
 * of the failing call, says whether an allocation failed. */
static bool out_of_memory(void)
{
	bool oom = false;

	H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, alloc_cb, &oom);
	return oom;
}

void ios_h5_iso_child_main(enum iso_op op, const char *path, int fd, int wfd,
			   off_t size, const struct ios_h5_iso_limits *l,
			   const struct iso_creds *c, pid_t parent)
{
	struct ios_err err = {0};
	struct ios_run *run = NULL;
	struct ios_wire w = {0};
	char mpath[64];
	int nul, mfd, rc;
	off_t off = 0;

	/* only the file and the answer pipe; std streams on /dev/null (a
	 * taken-over parse must not write to the admin's terminal) */
	fd = fcntl(fd, F_DUPFD, 10);
	wfd = fcntl(wfd, F_DUPFD, 10);
	nul = open("/dev/null", O_RDWR);
	if (fd < 0 || wfd < 0 || nul < 0)
		_exit(CHILD_EXIT + 4);
	for (int i = 0; i < 3; i++)
		if (dup2(nul, i) < 0)
			_exit(CHILD_EXIT + 4);
	{
		int lo = fd < wfd ? fd : wfd, hi = fd < wfd ? wfd : fd;

		close_range(3, (unsigned)lo - 1, 0);
		if (hi > lo + 1)
			close_range((unsigned)lo + 1, (unsigned)hi - 1, 0);
		close_range((unsigned)hi + 1, ~0u, 0);
	}
	if (c->drop) {
		if (setgroups(0, NULL) < 0)
			child_fail(wfd, "drop supplementary groups", errno);
		if (setresgid(c->gid, c->gid, c->gid) < 0)
			child_fail(wfd, "set group id", errno);
		if (setresuid(c->uid, c->uid, c->uid) < 0)
			child_fail(wfd, "set user id", errno);
		if (setuid(0) == 0)
			child_fail(wfd, "drop root", EPERM);
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0 ||
	    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
		child_fail(wfd, "prctl", errno);
	if (getppid() != parent)
		_exit(CHILD_EXIT + 5);
	set_limit(wfd, RLIMIT_CORE, 0, 0, "limit core size");
	set_limit(wfd, RLIMIT_NPROC, 0, 0, "limit processes");
	set_limit(wfd, RLIMIT_CPU, l->cpu_s, l->cpu_s + 5, "limit CPU time");
	{
		unsigned long long as = vm_size() + l->mem_bytes;

		set_limit(wfd, RLIMIT_AS, as, as, "limit address space");
	}
	/* the copy the reader opens by name, whatever the dropped uid may
	 * open: only this process holds it */
	mfd = memfd_create("iostrata-parse", 0);
	if (mfd < 0)
		child_fail(wfd, "memfd_create", errno);
	while (off < size) {
		ssize_t k = sendfile(mfd, fd, &off, (size_t)(size - off));

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			child_fail(wfd, "copy the file", errno);
		if (k == 0)
			break; /* shrank meanwhile: HDF5 says truncated */
	}
	close(fd);
	/* no file writes: HDF5 gets EFBIG, not a SIGXFSZ that would read
	 * as a crash */
	signal(SIGXFSZ, SIG_IGN);
	set_limit(wfd, RLIMIT_FSIZE, 0, 0, "limit file size");
	snprintf(mpath, sizeof(mpath), "/proc/self/fd/%d", mfd);
	ios_h5_read_in_core = true;
	if (op == ISO_READ)
		rc = ios_h5_read_run(mpath, &run, &err);
	else
		rc = ios_h5_validate(mpath, &err);
	if (rc < 0 && rc != -ENOMEM && out_of_memory())
		rc = -ENOMEM;
	if (rc < 0)
		replace_all(err.msg, sizeof(err.msg), mpath, path);
	frame_head(&w, STAGE_PARSED, rc < 0 ? rc : 0, rc < 0 ? err.msg : "");
	if (!rc && op == ISO_READ)
		ios_wire_run(&w, run);
	if (w.failed)
		_exit(CHILD_EXIT + 6);
	if (write_all(wfd, w.p, w.len) < 0)
		_exit(CHILD_EXIT + 7);
	_exit(0);
}
