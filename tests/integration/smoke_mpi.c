/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * smoke_mpi: end-to-end check of the local site. Every MPI rank writes a
 * file with O_DIRECT in a directory on CephFS and reads it back verified;
 * rank 0 also writes, reads back and removes one object in a rados pool
 * with librados. Rank 0 prints one summary line per check and "SMOKE OK"
 * when every rank and the rados check passed; the exit status is non-zero
 * otherwise.
 *
 * Usage: smoke_mpi -d DIR [-p POOL] [-s BYTES] [-c CEPH_CONF]
 */
#include "config.h"

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* O_DIRECT */
#endif
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <mpi.h>
#include <rados/librados.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "layers.h"

#define SMOKE_ALIGN 4096
#define SMOKE_BLOCK (1024 * 1024)
#define SMOKE_NAME_MAX 64

struct smoke_opts {
	const char *dir;
	const char *pool;
	const char *conf;
	size_t size;
};

/* Fill [buf] (holding bytes [off, off + len) of the stream) with a pattern
 * that encodes the rank and the byte offset of every 8-byte word. */
static void pattern_fill(uint64_t *buf, size_t len, uint64_t off, int rank)
{
	for (size_t i = 0; i < len / 8; i++)
		buf[i] = ((uint64_t)rank << 48) ^ (off + i * 8) ^
			 0x5a5a000000000000ULL;
}

/* Return the byte index of the first mismatch, or -1 if [buf] matches. */
static ssize_t pattern_check(const uint64_t *buf, size_t len, uint64_t off,
			     int rank)
{
	for (size_t i = 0; i < len / 8; i++) {
		uint64_t want = ((uint64_t)rank << 48) ^ (off + i * 8) ^
				0x5a5a000000000000ULL;
		if (buf[i] != want)
			return (ssize_t)(i * 8);
	}
	return -1;
}

static int write_all(int fd, const char *buf, size_t len, off_t off)
{
	while (len > 0) {
		ssize_t n = pwrite(fd, buf, len, off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		buf += n;
		len -= (size_t)n;
		off += n;
	}
	return 0;
}

static int read_all(int fd, char *buf, size_t len, off_t off)
{
	while (len > 0) {
		ssize_t n = pread(fd, buf, len, off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -ENODATA;
		buf += n;
		len -= (size_t)n;
		off += n;
	}
	return 0;
}

/* Write [size] bytes to [path] with O_DIRECT, read them back with O_DIRECT
 * and verify. Returns 0 or a negative errno; [what] names the failed step. */
static int posix_check(const char *path, size_t size, int rank,
		       const char **what)
{
	void *buf = NULL;
	int fd, rc;

	if (posix_memalign(&buf, SMOKE_ALIGN, SMOKE_BLOCK) != 0) {
		*what = "allocate buffer";
		return -ENOMEM;
	}
	*what = "open for writing (O_DIRECT)";
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_DIRECT, 0644);
	if (fd < 0) {
		rc = -errno;
		goto out_free;
	}
	for (size_t off = 0; off < size; off += SMOKE_BLOCK) {
		pattern_fill(buf, SMOKE_BLOCK, off, rank);
		*what = "write";
		rc = write_all(fd, buf, SMOKE_BLOCK, (off_t)off);
		if (rc < 0)
			goto out_close;
	}
	*what = "fsync";
	if (fsync(fd) < 0) {
		rc = -errno;
		goto out_close;
	}
	*what = "close";
	if (close(fd) < 0) {
		rc = -errno;
		goto out_free;
	}
	*what = "open for reading (O_DIRECT)";
	fd = open(path, O_RDONLY | O_DIRECT);
	if (fd < 0) {
		rc = -errno;
		goto out_free;
	}
	for (size_t off = 0; off < size; off += SMOKE_BLOCK) {
		memset(buf, 0, SMOKE_BLOCK);
		*what = "read";
		rc = read_all(fd, buf, SMOKE_BLOCK, (off_t)off);
		if (rc < 0)
			goto out_close;
		*what = "verify data read back";
		if (pattern_check(buf, SMOKE_BLOCK, off, rank) >= 0) {
			rc = -EILSEQ;
			goto out_close;
		}
	}
	*what = "close";
	rc = close(fd) < 0 ? -errno : 0;
	goto out_free;
out_close:
	close(fd);
out_free:
	free(buf);
	return rc;
}

/* Write one object of [size] bytes to [pool], read it back, verify, remove
 * it. Returns 0 or a negative errno; [what] names the failed step. */
static int rados_check(const struct smoke_opts *o, const char *oid, size_t size,
		       const char **what)
{
	rados_t cl;
	rados_ioctx_t io;
	char *buf;
	int rc;

	buf = malloc(size);
	if (buf == NULL) {
		*what = "allocate buffer";
		return -ENOMEM;
	}
	*what = "rados_create2";
	rc = rados_create2(&cl, "ceph", "client.admin", 0);
	if (rc < 0)
		goto out_free;
	*what = "rados_conf_read_file";
	rc = rados_conf_read_file(cl, o->conf); /* NULL: $CEPH_CONF */
	if (rc < 0)
		goto out_shutdown;
	*what = "rados_connect";
	rc = rados_connect(cl);
	if (rc < 0)
		goto out_shutdown;
	*what = "rados_ioctx_create";
	rc = rados_ioctx_create(cl, o->pool, &io);
	if (rc < 0)
		goto out_shutdown;
	pattern_fill((uint64_t *)buf, size, 0, 0xffff);
	*what = "rados_write_full";
	rc = rados_write_full(io, oid, buf, size);
	if (rc < 0)
		goto out_ioctx;
	memset(buf, 0, size);
	*what = "rados_read";
	rc = rados_read(io, oid, buf, size, 0);
	if (rc >= 0 && (size_t)rc != size) {
		*what = "rados_read (short read)";
		rc = -EIO;
	}
	if (rc < 0)
		goto out_remove;
	rc = 0;
	*what = "verify object read back";
	if (pattern_check((uint64_t *)buf, size, 0, 0xffff) >= 0)
		rc = -EILSEQ;
out_remove:
	if (rados_remove(io, oid) < 0 && rc == 0) {
		*what = "rados_remove";
		rc = -EIO;
	}
out_ioctx:
	rados_ioctx_destroy(io);
out_shutdown:
	rados_shutdown(cl);
out_free:
	free(buf);
	return rc;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: smoke_mpi -d DIR [-p POOL] [-s BYTES] [-c CEPH_CONF]\n"
		"  -d DIR    directory (on CephFS) for one file per rank\n"
		"  -p POOL   rados pool for rank 0's object check (default: bench; \"\" skips it)\n"
		"  -s BYTES  bytes per rank, a multiple of 1 MiB (default: 4 MiB)\n"
		"  -c CONF   ceph.conf (default: $CEPH_CONF)\n");
}

static int parse_opts(int argc, char **argv, struct smoke_opts *o)
{
	int c;
	char *end;
	unsigned long long v;

	o->dir = NULL;
	o->pool = "bench";
	o->conf = NULL;
	o->size = 4 * SMOKE_BLOCK;
	while ((c = getopt(argc, argv, "d:p:s:c:h")) != -1) {
		switch (c) {
		case 'd':
			o->dir = optarg;
			break;
		case 'p':
			o->pool = optarg;
			break;
		case 'c':
			o->conf = optarg;
			break;
		case 's':
			errno = 0;
			v = strtoull(optarg, &end, 10);
			if (errno != 0 || *end != '\0' || v == 0 ||
			    v % SMOKE_BLOCK != 0) {
				fprintf(stderr,
					"smoke_mpi: invalid size \"%s\": a positive multiple of %d bytes is accepted\n",
					optarg, SMOKE_BLOCK);
				return -EINVAL;
			}
			o->size = (size_t)v;
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			usage(stderr);
			return -EINVAL;
		}
	}
	if (o->dir == NULL) {
		fprintf(stderr, "smoke_mpi: missing -d DIR\n");
		usage(stderr);
		return -EINVAL;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct smoke_opts o;
	int rank, nranks, prc, ok, all_ok, rados_ok = 1;
	char path[4096], node[SMOKE_NAME_MAX] = "", oid[128];
	char *nodes = NULL;
	const char *what = "", *env, *jobid;
	int rc;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &nranks);

	prc = parse_opts(argc, argv, &o);
	if (prc != 0) {
		MPI_Finalize();
		return prc > 0 ? 0 : 2;
	}
	env = getenv("SLURMD_NODENAME");
	if (env == NULL)
		env = "?";
	snprintf(node, sizeof(node), "%s", env);
	jobid = getenv("SLURM_JOB_ID");
	if (jobid == NULL)
		jobid = "nojob";

	snprintf(path, sizeof(path), "%s/smoke.%s.%d", o.dir, jobid, rank);
	rc = posix_check(path, o.size, rank, &what);
	ok = rc == 0;
	if (!ok)
		fprintf(stderr, "smoke_mpi: rank %d on %s: %s %s: %s\n", rank,
			node, what, path, strerror(-rc));
	else if (unlink(path) < 0)
		fprintf(stderr, "smoke_mpi: rank %d: unlink %s: %s\n", rank,
			path, strerror(errno));

	if (rank == 0)
		nodes = calloc((size_t)nranks, SMOKE_NAME_MAX);
	MPI_Gather(node, SMOKE_NAME_MAX, MPI_CHAR, nodes, SMOKE_NAME_MAX,
		   MPI_CHAR, 0, MPI_COMM_WORLD);
	MPI_Reduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, 0, MPI_COMM_WORLD);

	if (rank == 0) {
		int distinct = 0;
		for (int i = 0; i < nranks; i++) {
			bool seen = false;
			for (int j = 0; j < i; j++)
				if (strcmp(nodes + i * SMOKE_NAME_MAX,
					   nodes + j * SMOKE_NAME_MAX) == 0)
					seen = true;
			distinct += !seen;
		}
		printf("smoke: %d ranks on %d nodes: O_DIRECT write+read of %zu bytes per rank in %s: %s\n",
		       nranks, distinct, o.size, o.dir,
		       all_ok ? "verified" : "FAILED");
		if (o.pool[0] != '\0') {
			snprintf(oid, sizeof(oid), "iostrata-smoke-%s", jobid);
			rc = rados_check(&o, oid, SMOKE_BLOCK, &what);
			rados_ok = rc == 0;
			if (rados_ok)
				printf("smoke: rados object %s/%s write+read of %d bytes: verified\n",
				       o.pool, oid, SMOKE_BLOCK);
			else
				printf("smoke: rados object %s/%s: %s: %s: FAILED\n",
				       o.pool, oid, what, strerror(-rc));
		}
		if (all_ok && rados_ok)
			printf("SMOKE OK\n");
		fflush(stdout);
		free(nodes);
	}
	MPI_Bcast(&rados_ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Bcast(&all_ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Finalize();
	/* the het step's components end apart (srun < 24.05.4 hangs else) */
	lyr_het_exit_wait();
	return all_ok && rados_ok ? 0 : 1;
}
