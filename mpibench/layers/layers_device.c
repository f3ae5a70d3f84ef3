// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * layers_device: the device layer's directory on each storage host
 * (--layers-device-dir with %n and %h) and fio run alongside it as a
 * cross-check, on a file the run creates and checks itself (ownfile.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <mpi.h>

#include "layers_internal.h"
#include "ownfile.h"

/* Expand %n (node index) and %h (node name) in the device pattern. */
void lrun_device_dir(const char *pat, int node, const char *host, char *out,
		     size_t len)
{
	size_t k = 0;

	for (const char *p = pat; *p && k + 1 < len; p++) {
		int n = 0;

		if (p[0] == '%' && p[1] == 'n') {
			n = snprintf(out + k, len - k, "%d", node);
			p++;
		} else if (p[0] == '%' && p[1] == 'h') {
			n = snprintf(out + k, len - k, "%s", host);
			p++;
		} else {
			out[k] = *p;
			n = 1;
		}
		if (n < 0 || (size_t)n >= len - k)
			break;
		k += (size_t)n;
	}
	out[k < len ? k : len - 1] = '\0';
}

/* Run fio once with [args]; its JSON into [out]. 0 or -errno. */
static int run_fio(char *const *args, double timeout_s, struct lyr_fio *out,
		   struct ios_err *err)
{
	char *text = NULL;
	int fd, st = 0, rc;
	pid_t pid;
	struct timespec t0, t;
	FILE *f;
	long sz;

	/* fio's stdout: a memory file, no name in a shared /tmp. */
	fd = memfd_create("iostrata-fio-out", MFD_CLOEXEC);
	if (fd < 0)
		return ios_errf(err, -errno,
				"layers: create fio output file: %s",
				strerror(errno));
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		close(fd);
		return ios_errf(err, rc, "layers: start fio: %s",
				strerror(-rc));
	}
	if (pid == 0) {
		int nul = open("/dev/null", O_WRONLY);

		dup2(fd, 1);
		if (nul >= 0)
			dup2(nul, 2);
		execvp(args[0], args);
		_exit(127);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		pid_t r = waitpid(pid, &st, WNOHANG);

		if (r == pid)
			break;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > timeout_s) {
			kill(pid, SIGKILL); /* our own child */
			waitpid(pid, &st, 0);
			close(fd);
			return ios_errf(
				err, -ETIMEDOUT,
				"layers: fio ran longer than %.0f s: killed",
				timeout_s);
		}
		usleep(100000);
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		close(fd);
		return ios_errf(err, -EIO, "layers: fio %s %d",
				WIFEXITED(st) ? "exited with"
					      : "killed by signal",
				WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	}
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return ios_errf(err, -errno, "layers: read fio output: %s",
				strerror(errno));
	}
	fseek(f, 0, SEEK_END);
	sz = ftell(f);
	rewind(f);
	text = calloc((size_t)(sz > 0 ? sz : 0) + 1, 1);
	if (text && sz > 0 && fread(text, 1, (size_t)sz, f) != (size_t)sz)
		sz = 0;
	fclose(f);
	rc = text ? lyr_fio_parse(text, out, err) : -ENOMEM;
	free(text);
	return rc;
}

/* fio alongside the device layer: the same job on every device rank, on
 * a file we create and check ourselves (ownfile.h), handed to fio as an
 * inherited fd so that fio cannot open, unlink or recreate anything else
 * (fio follows links and unlinks a file it lays out). */
void lrun_device_fio(struct lctx *c, const char *dir)
{
	static const char *const rw[2] = {"write", "read"};
	static const int dirs[2] = {LYR_WRITE, LYR_READ};
	const char *eng = mb_engine_name(c->cfg->ioengine);
	const struct mb_dir *d = NULL;
	char a_name[64], a_file[64], a_rw[32], a_bs[48], a_size[48], a_eng[48],
		a_qd[48], a_rt[48], a_direct[32];
	double mine[2] = {0, 0}, sum[2] = {0, 0};
	int ok = 1, all_ok = 0, nlead, node, fd = -1;
	double got[3] = {NAN, NAN, 0}; /* write, read, all ok */
	struct ios_err err = {0};

	if (c->storage == MPI_COMM_NULL)
		goto out;
	MPI_Comm_size(c->storage, &nlead);
	MPI_Comm_rank(c->storage, &node);
	/* ok: 1, 0 fio failed, -1 the file was refused (fails the run) */
	if (mb_dir_get(dir, false, &d, &err) ||
	    (fd = mb_own_fio_prepare(d, node, c->cfg->size, a_file,
				     sizeof(a_file), &err)) < 0)
		ok = -1;
	snprintf(a_name, sizeof(a_name), "--name=iostrata-device-%d", node);
	snprintf(a_bs, sizeof(a_bs), "--bs=%" PRIu64, c->cfg->bs);
	snprintf(a_size, sizeof(a_size), "--size=%" PRIu64, c->cfg->size);
	snprintf(a_eng, sizeof(a_eng), "--ioengine=%s", eng);
	snprintf(a_qd, sizeof(a_qd), "--iodepth=%u", c->cfg->iodepth);
	snprintf(a_rt, sizeof(a_rt), "--runtime=%.0f",
		 c->cfg->runtime < 1 ? 1 : c->cfg->runtime);
	snprintf(a_direct, sizeof(a_direct), "--direct=1");
	for (int k = 0; k < 2; k++) {
		struct lyr_fio f;
		char *args[] = {(char *)c->o->fio,
				a_name,
				a_file,
				a_rw,
				a_bs,
				a_size,
				a_eng,
				a_qd,
				a_rt,
				"--time_based=1",
				a_direct,
				"--output-format=json",
				NULL};

		snprintf(a_rw, sizeof(a_rw), "--rw=%s", rw[k]);
		MPI_Barrier(c->storage); /* all device ranks at once */
		if (ok < 1)
			continue; /* still meet the others at the barrier */
		if (dirs[k] == LYR_READ &&
		    mb_own_fill_holes(fd, c->cfg->size, &err)) {
			ok = 0;
			continue;
		}
		if (run_fio(args, c->cfg->runtime + 120, &f, &err) < 0 ||
		    f.error) {
			if (!err.msg[0])
				ios_errf(&err, -EIO, "layers: fio job error %d",
					 f.error);
			ok = 0;
			continue;
		}
		mine[dirs[k]] = f.bw[dirs[k]];
	}
	if (fd >= 0) {
		struct ios_err e2 = {0};

		if (mb_own_fio_finish(d, node, fd, c->cfg->keep, &e2)) {
			err = e2;
			ok = -1;
		}
	}
	MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, c->storage);
	MPI_Reduce(mine, sum, 2, MPI_DOUBLE, MPI_SUM, 0, c->storage);
	if (ok < 1)
		fprintf(stderr, "iostrata-bench: %s: device fio: %s\n",
			c->w->host, err.msg);
	got[0] = all_ok == 1 ? sum[LYR_WRITE] : NAN;
	got[1] = all_ok == 1 ? sum[LYR_READ] : NAN;
	got[2] = all_ok;
	(void)nlead;
	/* to world rank 0 (the storage hosts' root may be another rank) */
	if (node == 0 && c->rank != 0)
		MPI_Send(got, 3, MPI_DOUBLE, 0, LRUN_TAG_PHASE + 3,
			 MPI_COMM_WORLD);
out:
	if (c->rank == 0) {
		if (c->storage == MPI_COMM_NULL &&
		    lrun_quiet_recv(got, 3, MPI_DOUBLE, MPI_ANY_SOURCE,
				    LRUN_TAG_PHASE + 3) < 0)
			got[2] = 0;
		c->fio_bw[LYR_WRITE] = got[0];
		c->fio_bw[LYR_READ] = got[1];
		if (got[2] < 0)
			c->failed = true;
	}
}
