// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * netbench: TCP stream and MPI point-to-point bandwidth (large messages,
 * several streams) and latency (ping-pong) between ordered pairs of nodes,
 * one pair at a time.  The network layer of the layered run (netbench.h).
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "layers.h"
#include "netbench.h"

#define NAME_LEN 64
#define TAG_BW 0x4e00
#define TAG_CTL 0x4e80
#define TAG_LAT 0x4e90
#define TAG_TCP 0x4ea0
#define TCP_WAIT_MS 10000 /* accept / read idle limit */
#define TCP_CHUNK (1u << 20)

static int mpi_fail(struct ios_err *err, const char *what, int rc)
{
	char s[MPI_MAX_ERROR_STRING];
	int len = 0;

	if (MPI_Error_string(rc, s, &len) != MPI_SUCCESS)
		snprintf(s, sizeof(s), "MPI error %d", rc);
	return ios_errf(err, -EIO, "netbench: %s: %s", what, s);
}

int nb_quiet_barrier(MPI_Comm comm)
{
	MPI_Request req;
	int done = 0, rc;

	rc = MPI_Ibarrier(comm, &req);
	while (rc == MPI_SUCCESS && !done) {
		rc = MPI_Test(&req, &done, MPI_STATUS_IGNORE);
		if (rc == MPI_SUCCESS && !done)
			usleep(1000);
	}
	return rc == MPI_SUCCESS ? 0 : -EIO;
}

int nb_node_of(MPI_Comm comm, int *node, int *nnodes, int *leader, char *name,
	       size_t len)
{
	char me[NAME_LEN] = "", *all;
	const char *s = getenv("SLURMD_NODENAME");
	int rank, size, i, j, n = 0, rc;

	MPI_Comm_rank(comm, &rank);
	MPI_Comm_size(comm, &size);
	if (s && *s)
		snprintf(me, sizeof(me), "%s", s);
	else if (gethostname(me, sizeof(me) - 1) < 0)
		snprintf(me, sizeof(me), "unknown");
	all = calloc((size_t)size, NAME_LEN);
	if (!all)
		return -ENOMEM;
	rc = MPI_Allgather(me, NAME_LEN, MPI_CHAR, all, NAME_LEN, MPI_CHAR,
			   comm);
	if (rc != MPI_SUCCESS) {
		free(all);
		return -EIO;
	}
	*node = -1;
	*leader = 0;
	for (i = 0; i < size; i++) {
		const char *ni = all + (size_t)i * NAME_LEN;

		for (j = 0; j < i; j++)
			if (!strcmp(ni, all + (size_t)j * NAME_LEN))
				break;
		if (j == i) { /* first rank of a new node */
			if (i == rank)
				*leader = 1;
			if (!strcmp(ni, me) && *node < 0)
				*node = n;
			n++;
		}
	}
	*nnodes = n;
	if (name && len)
		snprintf(name, len, "%s", me);
	free(all);
	return 0;
}

/* Bandwidth from [src] to [dst]; both call it, the others do not. */
static int pair_bw(MPI_Comm comm, int me, int src, int dst,
		   const struct nb_opts *o, char *buf, double *bw,
		   struct ios_err *err)
{
	MPI_Request req[64];
	int s, k = o->streams, rc;
	long rounds = 1, r;
	double t0, t1, dt = 0;
	char ack = 0;

	/* Calibrate with one round, then agree on a count.  A round that
	 * took half the pair's time or more (a slow link, large messages) is
	 * the measurement itself (rounds 0: no second phase): the test stays
	 * within about o->seconds per pair instead of three rounds of it. */
	for (int phase = 0; phase < 2; phase++) {
		if (phase == 1) {
			if (me == src) {
				rounds = dt > 0 ? (long)(o->seconds / dt) : 1;
				if (dt >= o->seconds / 2)
					rounds = 0;
				else if (rounds < 2)
					rounds = 2;
				rc = MPI_Send(&rounds, 1, MPI_LONG, dst,
					      TAG_CTL, comm);
			} else {
				rc = MPI_Recv(&rounds, 1, MPI_LONG, src,
					      TAG_CTL, comm, MPI_STATUS_IGNORE);
			}
			if (rc != MPI_SUCCESS)
				return mpi_fail(err, "exchange round count",
						rc);
			if (rounds == 0) { /* the calibration round stands */
				rounds = 1;
				break;
			}
		}
		t0 = MPI_Wtime();
		for (r = 0; r < rounds; r++) {
			for (s = 0; s < k; s++) {
				char *b = buf + (size_t)s * o->msg_bytes;

				if (me == src)
					rc = MPI_Isend(
						b, (int)o->msg_bytes, MPI_BYTE,
						dst, TAG_BW + s, comm, &req[s]);
				else
					rc = MPI_Irecv(
						b, (int)o->msg_bytes, MPI_BYTE,
						src, TAG_BW + s, comm, &req[s]);
				if (rc != MPI_SUCCESS)
					return mpi_fail(err, "post message",
							rc);
			}
			rc = MPI_Waitall(k, req, MPI_STATUSES_IGNORE);
			if (rc != MPI_SUCCESS)
				return mpi_fail(err, "wait for messages", rc);
		}
		/* the sender's clock stops when the receiver has it all */
		if (me == src)
			rc = MPI_Recv(&ack, 1, MPI_CHAR, dst, TAG_CTL + 1, comm,
				      MPI_STATUS_IGNORE);
		else
			rc = MPI_Send(&ack, 1, MPI_CHAR, src, TAG_CTL + 1,
				      comm);
		if (rc != MPI_SUCCESS)
			return mpi_fail(err, "acknowledge", rc);
		t1 = MPI_Wtime();
		dt = t1 - t0;
	}
	*bw = dt > 0 ? (double)rounds * k * (double)o->msg_bytes / dt : 0;
	return 0;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* What the receiver of a TCP pair tells the sender: where to connect, or
 * why not (errno). */
struct tcp_hello {
	struct sockaddr_in sa;
	int32_t err;
};

/* What the receiver tells the sender at the end. */
struct tcp_ack {
	uint64_t bytes;
	int32_t err;
};

/* The receiver: listen on [host]'s address, port 0 (no fixed port), tell
 * [src], take [k] connections, read them to the end. */
static void tcp_recv(MPI_Comm comm, int src, int k, const char *host, char *buf,
		     size_t chunk, struct tcp_ack *ack)
{
	struct addrinfo hints = {.ai_family = AF_INET,
				 .ai_socktype = SOCK_STREAM};
	struct addrinfo *res = NULL;
	struct tcp_hello hello;
	struct pollfd pf[65];
	int fds[64], nfd = 0, lfd = -1, open_fds;
	socklen_t sl = sizeof(hello.sa);

	memset(&hello, 0, sizeof(hello));
	memset(ack, 0, sizeof(*ack));
	if (getaddrinfo(host, NULL, &hints, &res) || !res)
		hello.err = EHOSTUNREACH;
	else
		memcpy(&hello.sa, res->ai_addr, sizeof(hello.sa));
	if (res)
		freeaddrinfo(res);
	hello.sa.sin_port = 0;
	if (!hello.err &&
	    ((lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0 ||
	     bind(lfd, (struct sockaddr *)&hello.sa, sizeof(hello.sa)) < 0 ||
	     listen(lfd, k) < 0 ||
	     getsockname(lfd, (struct sockaddr *)&hello.sa, &sl) < 0))
		hello.err = errno;
	MPI_Send(&hello, sizeof(hello), MPI_BYTE, src, TAG_TCP, comm);
	ack->err = hello.err;
	while (!ack->err && nfd < k) {
		pf[0].fd = lfd;
		pf[0].events = POLLIN;
		if (poll(pf, 1, TCP_WAIT_MS) <= 0) {
			ack->err = ETIMEDOUT;
			break;
		}
		fds[nfd] = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fds[nfd] < 0)
			ack->err = errno;
		else
			nfd++;
	}
	open_fds = nfd;
	while (!ack->err && open_fds > 0) {
		int n = 0, ready;

		for (int i = 0; i < nfd; i++)
			if (fds[i] >= 0) {
				pf[n].fd = fds[i];
				pf[n].events = POLLIN;
				n++;
			}
		ready = poll(pf, (nfds_t)n, TCP_WAIT_MS);
		if (ready <= 0) {
			ack->err = ready ? errno : ETIMEDOUT;
			break;
		}
		for (int i = 0; i < n; i++) {
			ssize_t r;

			if (!pf[i].revents)
				continue;
			r = read(pf[i].fd, buf, chunk);
			if (r > 0) {
				ack->bytes += (uint64_t)r;
			} else if (r == 0) {
				for (int j = 0; j < nfd; j++)
					if (fds[j] == pf[i].fd)
						fds[j] = -1;
				close(pf[i].fd);
				open_fds--;
			} else if (errno != EINTR && errno != EAGAIN) {
				ack->err = errno;
			}
		}
	}
	for (int i = 0; i < nfd; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	if (lfd >= 0)
		close(lfd);
	MPI_Send(ack, sizeof(*ack), MPI_BYTE, src, TAG_TCP + 1, comm);
}

/* The sender: [k] connections to what [dst] names, written for o->seconds;
 * the bandwidth is what [dst] read over the time until it had it all. */
static int tcp_send(MPI_Comm comm, int dst, const struct nb_opts *o,
		    const char *buf, size_t chunk, double *bw, char *why,
		    size_t wlen)
{
	struct tcp_hello hello;
	struct tcp_ack ack;
	struct pollfd pf[64];
	int fds[64], nfd = 0, err = 0, k = o->streams;
	char addr[INET_ADDRSTRLEN] = "?";
	double t0 = now_s(), t1;

	MPI_Recv(&hello, sizeof(hello), MPI_BYTE, dst, TAG_TCP, comm,
		 MPI_STATUS_IGNORE);
	inet_ntop(AF_INET, &hello.sa.sin_addr, addr, sizeof(addr));
	err = hello.err;
	for (; !err && nfd < k; nfd++) {
		fds[nfd] = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fds[nfd] < 0 ||
		    connect(fds[nfd], (struct sockaddr *)&hello.sa,
			    sizeof(hello.sa)) < 0 ||
		    fcntl(fds[nfd], F_SETFL, O_NONBLOCK) < 0)
			err = errno;
		if (err && fds[nfd] >= 0)
			close(fds[nfd]);
		if (err)
			break;
	}
	t0 = now_s();
	while (!err && now_s() - t0 < o->seconds) {
		for (int i = 0; i < nfd; i++) {
			pf[i].fd = fds[i];
			pf[i].events = POLLOUT;
		}
		if (poll(pf, (nfds_t)nfd, 1000) < 0 && errno != EINTR)
			err = errno;
		for (int i = 0; !err && i < nfd; i++)
			if (pf[i].revents &&
			    send(fds[i], buf, chunk, MSG_NOSIGNAL) < 0 &&
			    errno != EAGAIN && errno != EINTR)
				err = errno;
	}
	for (int i = 0; i < nfd; i++)
		close(fds[i]); /* the rest still arrives: dst reads to EOF */
	MPI_Recv(&ack, sizeof(ack), MPI_BYTE, dst, TAG_TCP + 1, comm,
		 MPI_STATUS_IGNORE);
	t1 = now_s();
	if (!err)
		err = ack.err;
	if (err) {
		snprintf(why, wlen, "TCP to %s port %u: %s", addr,
			 (unsigned)ntohs(hello.sa.sin_port), strerror(err));
		return -err;
	}
	*bw = t1 > t0 ? (double)ack.bytes / (t1 - t0) : 0;
	return 0;
}

static int pair_lat(MPI_Comm comm, int me, int src, int dst,
		    const struct nb_opts *o, double *lat_ns,
		    struct ios_err *err)
{
	char b[8] = {0};
	double t0 = 0;
	int i, rc;

	for (i = -10; i < o->lat_iters; i++) { /* 10 warm-up round trips */
		if (i == 0)
			t0 = MPI_Wtime();
		if (me == src) {
			rc = MPI_Send(b, 8, MPI_BYTE, dst, TAG_LAT, comm);
			if (rc == MPI_SUCCESS)
				rc = MPI_Recv(b, 8, MPI_BYTE, dst, TAG_LAT,
					      comm, MPI_STATUS_IGNORE);
		} else {
			rc = MPI_Recv(b, 8, MPI_BYTE, src, TAG_LAT, comm,
				      MPI_STATUS_IGNORE);
			if (rc == MPI_SUCCESS)
				rc = MPI_Send(b, 8, MPI_BYTE, src, TAG_LAT,
					      comm);
		}
		if (rc != MPI_SUCCESS)
			return mpi_fail(err, "ping-pong", rc);
	}
	*lat_ns = (MPI_Wtime() - t0) / (2.0 * o->lat_iters) * 1e9;
	return 0;
}

/* Whether the pair [src] -> [dst] is measured: not between two clients
 * (their traffic never crosses to each other in Ceph). */
static bool pair_wanted(const int *roles, int src, int dst)
{
	return src != dst && (!roles || roles[src] != LYR_ROLE_CLIENT ||
			      roles[dst] != LYR_ROLE_CLIENT);
}

int nb_run(MPI_Comm comm, const struct nb_opts *o, const int *roles,
	   const char *host, struct nb_result *res, struct ios_err *err)
{
	struct ios_net_pair *out = NULL;
	double *mpi = NULL;
	int rank, size, src, dst, rc = 0, grc;
	size_t k = 0, chunk;
	char *buf;

	memset(res, 0, sizeof(*res));
	if (o->streams < 1 || o->streams > 64 || o->msg_bytes == 0 ||
	    o->msg_bytes > (1u << 30) || o->seconds <= 0 || o->lat_iters < 1)
		return ios_errf(
			err, -EINVAL,
			"netbench: options: streams %d (1-64), message %llu bytes (1 B-1 GiB), %g s per pair (> 0), %d latency iterations (>= 1)",
			o->streams, (unsigned long long)o->msg_bytes,
			o->seconds, o->lat_iters);
	MPI_Comm_rank(comm, &rank);
	MPI_Comm_size(comm, &size);
	chunk = (size_t)o->streams * o->msg_bytes;
	if (chunk > TCP_CHUNK)
		chunk = TCP_CHUNK;
	buf = malloc((size_t)o->streams * o->msg_bytes);
	/* every rank must agree before anyone starts a pair */
	grc = buf ? 0 : 1;
	MPI_Allreduce(MPI_IN_PLACE, &grc, 1, MPI_INT, MPI_MAX, comm);
	if (grc) {
		free(buf);
		return ios_errf(err, -ENOMEM,
				"netbench: allocate %d x %llu byte buffers: %s",
				o->streams, (unsigned long long)o->msg_bytes,
				strerror(ENOMEM));
	}
	memset(buf, 0x5a, (size_t)o->streams * o->msg_bytes);
	if (rank == 0 && size > 1) {
		out = calloc((size_t)size * (size - 1), sizeof(*out));
		mpi = calloc((size_t)size * (size - 1), sizeof(*mpi));
		if (!out || !mpi)
			rc = -ENOMEM;
	}
	for (src = 0; src < size; src++) {
		for (dst = 0; dst < size; dst++) {
			/* MPI bandwidth, latency, TCP bandwidth, TCP ok */
			double v[4] = {0, 0, 0, 0};
			char why[200] = "";
			int prc = 0;

			if (!pair_wanted(roles, src, dst))
				continue;
			nb_quiet_barrier(comm);
			if (rank == src || rank == dst) {
				prc = pair_bw(comm, rank, src, dst, o, buf,
					      &v[0], err);
				if (prc == 0)
					prc = pair_lat(comm, rank, src, dst, o,
						       &v[1], err);
			}
			if (prc == 0 && rank == dst) {
				struct tcp_ack ack;

				tcp_recv(comm, src, o->streams, host, buf,
					 chunk, &ack);
			} else if (prc == 0 && rank == src) {
				v[3] = tcp_send(comm, dst, o, buf, chunk, &v[2],
						why, sizeof(why)) == 0;
			}
			/* results to rank 0 (from the sender) */
			if (rank == src && src != 0) {
				MPI_Send(v, 4, MPI_DOUBLE, 0, TAG_CTL + 2,
					 comm);
				MPI_Send(why, sizeof(why), MPI_CHAR, 0,
					 TAG_CTL + 3, comm);
			}
			if (rank == 0 && src != 0) {
				MPI_Request rq;
				int done = 0;

				MPI_Irecv(v, 4, MPI_DOUBLE, src, TAG_CTL + 2,
					  comm, &rq);
				while (!done) {
					MPI_Test(&rq, &done, MPI_STATUS_IGNORE);
					if (!done)
						usleep(1000);
				}
				MPI_Recv(why, sizeof(why), MPI_CHAR, src,
					 TAG_CTL + 3, comm, MPI_STATUS_IGNORE);
			}
			if (prc < 0 && rc == 0)
				rc = prc;
			if (rank == 0 && out && mpi) {
				out[k].src_node = src;
				out[k].dst_node = dst;
				out[k].msg_bytes = o->msg_bytes;
				out[k].streams = o->streams;
				/* the layer's figure is TCP's, what Ceph
				 * speaks; MPI's where TCP failed */
				out[k].bw = v[3] > 0 ? v[2] : v[0];
				out[k].lat_ns = v[1];
				mpi[k] = v[0];
				if (v[3] > 0) {
					res->tcp_pairs++;
				} else if (!res->tcp_error[0]) {
					why[sizeof(why) - 1] = '\0';
					snprintf(res->tcp_error,
						 sizeof(res->tcp_error),
						 "pair %d -> %d: %s", src, dst,
						 why[0] ? why : "not measured");
				}
				k++;
			}
		}
	}
	free(buf);
	grc = rc < 0;
	MPI_Allreduce(MPI_IN_PLACE, &grc, 1, MPI_INT, MPI_MAX, comm);
	if (grc) {
		free(out);
		free(mpi);
		if (rc == 0)
			rc = ios_errf(
				err, -EIO,
				"netbench: a pair failed on another rank");
		return rc;
	}
	res->pairs = out;
	res->mpi_bw = mpi;
	res->npairs = k;
	return 0;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void nb_summary(const struct ios_net_pair *p, size_t n, double *min_bw,
		double *median_bw, double *median_lat_ns)
{
	double *v;
	size_t i;

	*min_bw = *median_bw = *median_lat_ns = 0;
	if (n == 0)
		return;
	v = malloc(n * sizeof(*v));
	if (!v)
		return;
	for (i = 0; i < n; i++)
		v[i] = p[i].bw;
	qsort(v, n, sizeof(*v), cmp_d);
	*min_bw = v[0];
	*median_bw = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	for (i = 0; i < n; i++)
		v[i] = p[i].lat_ns;
	qsort(v, n, sizeof(*v), cmp_d);
	*median_lat_ns = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	free(v);
}
