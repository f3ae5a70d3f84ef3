// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * layers: ceilings, verdict, fio cross-check and peak of the layered run
 * (seeds/003, paper Table 4).  Pure functions over numbers: the run
 * (layers_run.c), the report (report/report_layers.c) and the unit tests
 * share them, so a printed verdict can be recomputed from a results file.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_JANSSON
#include <jansson.h>
#endif

#include "layers.h"
#include "results.h"
#include "units.h"

const char *const lyr_layer_names[LYR_NLAYERS] = {
	[LYR_DEVICE] = "device",         [LYR_NETWORK] = "network",
	[LYR_PROTOCOL] = "protocol",     [LYR_FULLSTACK] = "fullstack",
	[LYR_FULLLIB] = "fullstack-lib",
};

static const char *const dir_names[2] = {"read", "write"};

const struct lyr_thresholds lyr_default_thresholds = {
	.tolerance = 0.10,
	.close = 0.80,
	.far_below = 0.50,
	.fio_disagree = 0.05,
};

/* Layer shown to people: what it is, not its key. */
static const char *const layer_titles[LYR_NLAYERS] = {
	[LYR_DEVICE] = "device",
	[LYR_NETWORK] = "network",
	[LYR_PROTOCOL] = "protocol (rados)",
	[LYR_FULLSTACK] = "full stack (posix on the CephFS mount)",
	[LYR_FULLLIB] = "full stack (libcephfs)",
};

static double osds_per_target(const struct lyr_numbers *n)
{
	if (n->osds > 0 && n->device_ranks > 0)
		return (double)n->osds / n->device_ranks;
	return 1.0;
}

static int replicas_of(const struct lyr_numbers *n, int layer)
{
	int r = n->replicas;

	if ((layer == LYR_FULLSTACK || layer == LYR_FULLLIB) &&
	    n->fs_replicas > 0)
		r = n->fs_replicas;
	return r > 0 ? r : 1;
}

/* The device number the ceilings use: the balanced bound when below
 * the aggregate. */
static double dev_used(const struct lyr_numbers *n, int dir, bool *bound)
{
	double b = n->bw[LYR_DEVICE][dir];

	*bound = n->dev_bound[dir] > 0 && n->dev_bound[dir] < b;
	return *bound ? n->dev_bound[dir] : b;
}

double lyr_ceiling(const struct lyr_numbers *n, int layer, int below, int dir)
{
	double b = n->bw[below][dir];
	int r = replicas_of(n, layer);
	bool bound;

	if (isnan(b) || layer <= below || layer == LYR_NETWORK)
		return NAN;
	switch (below) {
	case LYR_DEVICE:
		/* the slowest target holds back its OSDs' even share */
		b = dev_used(n, dir, &bound);
		/* each write lands on r devices; a read on one */
		b *= osds_per_target(n);
		return dir == LYR_WRITE ? b / r : b;
	case LYR_NETWORK:
		/* a write crosses links r times (client -> primary ->
		 * r - 1 replicas); a read once */
		return dir == LYR_WRITE ? b / r : b;
	case LYR_PROTOCOL:
		if (layer != LYR_FULLSTACK && layer != LYR_FULLLIB)
			return NAN;
		/* The protocol pool may keep another number of copies than
		 * the CephFS data pool.  More copies never write faster, so
		 * only fewer copies in CephFS raise the ceiling (by the
		 * ratio, the bound if bandwidth-limited); more copies keep
		 * it (not lowered: the protocol number need not be
		 * bandwidth-limited). */
		if (dir == LYR_WRITE && n->replicas > r)
			return b * n->replicas / r;
		return b;
	default:
		return NAN;
	}
}

double lyr_balanced_bw(const struct ios_phase_result *ph)
{
	double sum_bound = 0;
	int n = 0;

	for (int r = 0; r < ph->nreps; r++) {
		const struct ios_rep_result *rep = &ph->reps[r];
		uint64_t min = UINT64_MAX;
		double tot = 0;

		if (!rep->valid || rep->nranks < 1 ||
		    !(rep->fig.stonewall_bw > 0))
			continue;
		for (int i = 0; i < rep->nranks; i++) {
			uint64_t b = rep->ranks[i].stonewall_bytes;

			tot += (double)b;
			if (b < min)
				min = b;
		}
		if (!(tot > 0))
			continue;
		sum_bound +=
			rep->fig.stonewall_bw * rep->nranks * (double)min / tot;
		n++;
	}
	return n ? sum_bound / n : NAN;
}

static const char *rate(double v, char *buf, size_t len)
{
	if (isnan(v))
		return "not measured";
	return ios_fmt_rate(v, buf, len);
}

/* How the ceiling of [below] for [layer] was derived, for the message. */
static void ceiling_how(const struct lyr_numbers *n, int layer, int below,
			int dir, char *buf, size_t len)
{
	char a[32];
	int r = replicas_of(n, layer);

	rate(n->bw[below][dir], a, sizeof(a));
	switch (below) {
	case LYR_DEVICE: {
		bool bound;
		char d[96];

		rate(dev_used(n, dir, &bound), a, sizeof(a));
		if (bound)
			snprintf(d, sizeof(d),
				 "device %s (slowest target x %d)", a,
				 n->device_ranks > 0 ? n->device_ranks : 1);
		else
			snprintf(d, sizeof(d), "device %s", a);
		if (dir == LYR_WRITE && r > 1)
			snprintf(buf, len,
				 "%s x %d OSDs / %d targets / %d replicas", d,
				 n->osds > 0 ? n->osds : 1,
				 n->device_ranks > 0 ? n->device_ranks : 1, r);
		else
			snprintf(buf, len, "%s x %d OSDs / %d targets", d,
				 n->osds > 0 ? n->osds : 1,
				 n->device_ranks > 0 ? n->device_ranks : 1);
		break;
	}
	case LYR_NETWORK:
		if (dir == LYR_WRITE)
			snprintf(buf, len, "network %s / %d replicas", a, r);
		else
			snprintf(buf, len, "network %s", a);
		break;
	default:
		if (dir == LYR_WRITE && n->fs_replicas > 0 &&
		    n->replicas > n->fs_replicas)
			snprintf(buf, len, "protocol %s x %d / %d replicas", a,
				 n->replicas, n->fs_replicas);
		else
			snprintf(buf, len, "protocol %s", a);
		break;
	}
}

int lyr_check_ceilings(const struct lyr_numbers *n,
		       const struct lyr_thresholds *t, struct lyr_check *out,
		       int max)
{
	static const int pairs[][2] = {
		{LYR_PROTOCOL, LYR_DEVICE},    {LYR_PROTOCOL, LYR_NETWORK},
		{LYR_FULLSTACK, LYR_PROTOCOL}, {LYR_FULLSTACK, LYR_DEVICE},
		{LYR_FULLSTACK, LYR_NETWORK},  {LYR_FULLLIB, LYR_PROTOCOL},
		{LYR_FULLLIB, LYR_DEVICE},     {LYR_FULLLIB, LYR_NETWORK},
	};
	int k = 0;
	size_t i;

	if (!t)
		t = &lyr_default_thresholds;
	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		for (int dir = LYR_WRITE; dir >= LYR_READ; dir--) {
			int layer = pairs[i][0], below = pairs[i][1];
			double v = n->bw[layer][dir];
			double c = lyr_ceiling(n, layer, below, dir);
			struct lyr_check *ck;
			char how[160], a[32], b[32];

			if (isnan(v) || isnan(c) || k >= max)
				continue;
			ck = &out[k++];
			memset(ck, 0, sizeof(*ck));
			ck->layer = layer;
			ck->below = below;
			ck->dir = dir;
			ck->value = v;
			ck->ceiling = c;
			ck->violated = v > c * (1.0 + t->tolerance);
			ck->suspect = ck->violated || !n->direct[layer];
			ck->provable = !(below == LYR_NETWORK && n->one_host);
			ceiling_how(n, layer, below, dir, how, sizeof(how));
			rate(v, a, sizeof(a));
			rate(c, b, sizeof(b));
			snprintf(
				ck->text, sizeof(ck->text),
				"%s %s %s %s ceiling %s (%s)%s%s%s",
				layer_titles[layer], dir_names[dir], a,
				ck->violated ? "EXCEEDS" : "<=", b, how,
				ck->violated
					? ": suspected caching, not durable throughput"
					: "",
				!ck->violated && !n->direct[layer]
					? ": measured without direct I/O, suspected caching, not durable throughput"
					: "",
				ck->provable
					? ""
					: " [one machine (loopback or virtual links): proves nothing about a real network]");
		}
	}
	return k;
}

/* growable string */
struct sbuf {
	char *s;
	size_t len, cap;
	bool oom;
};

__attribute__((format(printf, 2, 3))) static void
sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->oom)
		return;
	for (;;) {
		size_t room = b->cap - b->len;

		va_start(ap, fmt);
		n = vsnprintf(b->s ? b->s + b->len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->oom = true;
			return;
		}
		if ((size_t)n < room) {
			b->len += (size_t)n;
			return;
		}
		size_t cap = b->cap ? b->cap * 2 : 1024;
		while (cap < b->len + (size_t)n + 1)
			cap *= 2;
		char *p = realloc(b->s, cap);
		if (!p) {
			b->oom = true;
			return;
		}
		b->s = p;
		b->cap = cap;
	}
}

static double pct(double a, double b)
{
	return b > 0 ? 100.0 * a / b : NAN;
}

static void verdict_dir(struct sbuf *sb, const struct lyr_numbers *n,
			const struct lyr_check *c, int nc,
			const struct lyr_thresholds *t, int dir)
{
	double p = n->bw[LYR_PROTOCOL][dir];
	double dc = lyr_ceiling(n, LYR_PROTOCOL, LYR_DEVICE, dir);
	double nt = lyr_ceiling(n, LYR_PROTOCOL, LYR_NETWORK, dir);
	char a[32], b[32], d[32], e[32], f[32];
	int i, nsus = 0;

	sb_printf(
		sb,
		"%s: device ceiling %s, network ceiling %s%s, protocol %s, full stack %s (posix on the mount), %s (libcephfs).\n",
		dir == LYR_WRITE ? "Write" : "Read", rate(dc, a, sizeof(a)),
		rate(nt, b, sizeof(b)),
		n->one_host && !isnan(nt) ? " (one machine)" : "",
		rate(p, d, sizeof(d)),
		rate(n->bw[LYR_FULLSTACK][dir], e, sizeof(e)),
		rate(n->bw[LYR_FULLLIB][dir], f, sizeof(f)));
	for (i = 0; i < nc; i++) {
		if (c[i].dir != dir || !c[i].suspect)
			continue;
		sb_printf(sb, "  - %s\n", c[i].text);
		nsus++;
	}
	if (isnan(p)) {
		sb_printf(
			sb,
			"  - protocol layer not measured: no verdict on where the %s throughput is lost.\n",
			dir_names[dir]);
		return;
	}
	/* 0. protocol above a ceiling: a cached (or wrongly modelled)
	 * number names no layer */
	if ((!isnan(dc) && p > dc * (1.0 + t->tolerance)) ||
	    (!isnan(nt) && p > nt * (1.0 + t->tolerance))) {
		bool over_dev = !isnan(dc) && p > dc * (1.0 + t->tolerance);

		sb_printf(
			sb,
			"  - Protocol is above the %s ceiling (%.0f%% of it): suspected caching, not durable throughput; no layer can be named as the limit from this number.\n",
			over_dev ? "device" : "network",
			pct(p, over_dev ? dc : nt));
	} else if (!isnan(dc) && p < t->close * dc &&
		   (isnan(nt) || p < t->close * nt)) {
		char share[96] = "";

		if (!isnan(nt))
			snprintf(share, sizeof(share),
				 ", %.0f%% of the network ceiling%s",
				 pct(p, nt),
				 n->one_host ? " (one machine)" : "");
		sb_printf(
			sb,
			"  - Device%s comfortably above protocol (protocol is %.0f%% of the device ceiling%s): the overhead is in Ceph's own protocol or cluster-side placement; look at OSD CPU use, the replication factor (%d) and the pool's PG count for its %d OSDs.\n",
			isnan(nt) ? "" : " and network both", pct(p, dc), share,
			n->replicas, n->osds);
		if (isnan(nt))
			sb_printf(
				sb,
				"    (network layer not measured: it is not ruled out)\n");
		else if (n->one_host)
			sb_printf(
				sb,
				"    (the network ceiling here is one machine's loopback or virtual links: on real hardware the network could still be the limit)\n");
	} else if (!isnan(nt) && p >= t->close * nt &&
		   (isnan(dc) || nt < t->close * dc)) {
		/* 2. network close to protocol, both well below device */
		char share[96] = "";

		if (!isnan(dc))
			snprintf(
				share, sizeof(share),
				", which itself is %.0f%% of the device ceiling",
				pct(nt, dc));
		sb_printf(
			sb,
			"  - Network close to protocol (protocol is %.0f%% of the network ceiling%s): the network is the limit; no OSD tuning will move the full-stack number.%s\n",
			pct(p, nt), share,
			n->one_host
				? " But this network is one machine's loopback or virtual links: on one host this cannot be concluded."
				: "");
	} else if (!isnan(dc) && p >= t->close * dc) {
		sb_printf(
			sb,
			"  - Protocol reaches %.0f%% of the device ceiling: the devices are the limit (faster or more disks, or fewer replicas, raise it).\n",
			pct(p, dc));
	} else {
		sb_printf(
			sb,
			"  - Device and network ceilings not both measured: the protocol number cannot be attributed.\n");
	}
	/* 3. full stack far below protocol */
	for (int l = LYR_FULLSTACK; l <= LYR_FULLLIB; l++) {
		double fs = n->bw[l][dir];
		double pc = lyr_ceiling(n, l, LYR_PROTOCOL, dir);

		if (isnan(fs) || isnan(pc))
			continue;
		if (fs < t->far_below * pc)
			sb_printf(
				sb,
				"  - %s is far below protocol (%.0f%% of %s): the client path (queue depth, cache settings, block size, the client itself) is where to look next.\n",
				layer_titles[l], pct(fs, pc),
				rate(pc, a, sizeof(a)));
		else if (fs <= pc * (1.0 + t->tolerance))
			sb_printf(
				sb,
				"  - %s is %.0f%% of protocol: the client path costs %s%s.\n",
				layer_titles[l], pct(fs, pc),
				fs >= t->close * pc ? "little"
						    : "a noticeable share",
				n->direct[l]
					? ""
					: " (but measured without direct I/O: suspect)");
	}
	if (nsus)
		sb_printf(
			sb,
			"  - %d number%s above %s suspect: not a clean result.\n",
			nsus, nsus > 1 ? "s" : "", nsus > 1 ? "are" : "is");
}

char *lyr_verdict(const struct lyr_numbers *n, const struct lyr_check *c,
		  int nc, const struct lyr_thresholds *t)
{
	struct sbuf sb = {0};

	if (!t)
		t = &lyr_default_thresholds;
	sb_printf(
		&sb,
		"Layered verdict (seeds/003 order: device and network vs protocol, then full stack vs protocol); pool size %d, CephFS data pool size %d, %d OSDs, %d device targets.\n",
		n->replicas, n->fs_replicas, n->osds, n->device_ranks);
	if (n->roles_known)
		sb_printf(
			&sb,
			"Roles: the device layer ran on %d storage host%s, protocol and full stack on %d client host%s; the network between the storage hosts and between clients and storage hosts.\n",
			n->device_ranks, n->device_ranks == 1 ? "" : "s",
			n->clients, n->clients == 1 ? "" : "s");
	else
		sb_printf(
			&sb,
			"Roles not known (no heterogeneous job, no --layers-storage-nodes): all nodes did all layers, so the device layer also ran where there is no OSD and the ceilings count every node as a storage host.\n");
	verdict_dir(&sb, n, c, nc, t, LYR_WRITE);
	verdict_dir(&sb, n, c, nc, t, LYR_READ);
	if (n->one_host)
		sb_printf(
			&sb,
			"What this environment cannot prove: every node runs on one host, so the network layer measured that machine's loopback or virtual links (veth, a bridge, tc shaping), not a NIC, switch or cable, and the device targets share the host's disks; the ordering of the layers is shown, the network's place in it is not.\n");
	if (sb.oom) {
		free(sb.s);
		return NULL;
	}
	return sb.s;
}

double lyr_disagreement(double a, double b)
{
	double m;

	if (isnan(a) || isnan(b))
		return NAN;
	m = fmax(fabs(a), fabs(b));
	return m > 0 ? fabs(a - b) / m : 0.0;
}

#ifdef HAVE_JANSSON
static double num(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Option [key] of a fio job: the job's own, else the global one. */
static const char *fio_opt(json_t *job, json_t *global, const char *key)
{
	json_t *v = json_object_get(json_object_get(job, "job options"), key);

	if (!json_is_string(v))
		v = json_object_get(global, key);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

static int fio_options(json_t *job, json_t *global, struct lyr_fio *out,
		       struct ios_err *err)
{
	const char *rw = fio_opt(job, global, "rw");
	const char *bs = fio_opt(job, global, "bs");
	const char *s;

	if (!rw)
		rw = fio_opt(job, global, "readwrite");
	snprintf(out->rw, sizeof(out->rw), "%s", rw ? rw : "read");
	if (!bs)
		bs = fio_opt(job, global, "blocksize");
	if (lyr_fio_size(bs ? bs : "4k", &out->bs) < 0)
		return ios_errf(
			err, -EINVAL,
			"layers: parse fio output: option bs \"%s\": not a size",
			bs);
	s = fio_opt(job, global, "ioengine");
	snprintf(out->ioengine, sizeof(out->ioengine), "%s", s ? s : "psync");
	s = fio_opt(job, global, "iodepth");
	out->iodepth = s ? atoi(s) : 1;
	s = fio_opt(job, global, "size");
	if (!s || lyr_fio_size(s, &out->file_size) < 0)
		out->file_size = 0;
	s = fio_opt(job, global, "direct");
	out->direct = s && atoi(s) != 0;
	s = fio_opt(job, global, "buffered");
	if (s && atoi(s) == 0)
		out->direct = 1;
	return 0;
}
#endif

int lyr_fio_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	int shift = 0;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	switch (tolower((unsigned char)*end)) {
	case '\0':
		break;
	case 'k':
		shift = 10;
		break;
	case 'm':
		shift = 20;
		break;
	case 'g':
		shift = 30;
		break;
	case 't':
		shift = 40;
		break;
	case 'p':
		shift = 50;
		break;
	default:
		return -EINVAL;
	}
	if (*end) {
		end++;
		if (tolower((unsigned char)*end) == 'i')
			end++;
		if (tolower((unsigned char)*end) == 'b')
			end++;
	}
	if (*end || (shift && v > (UINT64_MAX >> shift)))
		return -EINVAL;
	*out = (uint64_t)v << shift;
	return 0;
}

int lyr_fio_parse(const char *text, struct lyr_fio *out, struct ios_err *err)
{
#ifdef HAVE_JANSSON
	json_error_t je;
	json_t *root, *jobs, *job;
	const char *start = text ? strchr(text, '{') : NULL;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (!start)
		return ios_errf(
			err, -EINVAL,
			"layers: parse fio output: no JSON object in it");
	root = json_loads(start, JSON_DISABLE_EOF_CHECK, &je);
	if (!root)
		return ios_errf(err, -EINVAL,
				"layers: parse fio output: line %d: %s",
				je.line, je.text);
	jobs = json_object_get(root, "jobs");
	if (!json_is_array(jobs) || json_array_size(jobs) == 0) {
		json_decref(root);
		return ios_errf(err, -EINVAL,
				"layers: parse fio output: no \"jobs\" array");
	}
	if (fio_options(json_array_get(jobs, 0),
			json_object_get(root, "global options"), out,
			err) < 0) {
		json_decref(root);
		return err ? err->code : -EINVAL;
	}
	json_array_foreach(jobs, i, job)
	{
		for (int d = LYR_READ; d <= LYR_WRITE; d++) {
			json_t *o = json_object_get(job, dir_names[d]);
			double bw = num(o, "bw_bytes"), io = num(o, "iops");
			double ib = num(o, "io_bytes");

			if (!isnan(ib))
				out->io_bytes[d] += ib;

			if (isnan(bw)) {
				/* older fio: "bw" in KiB/s */
				bw = num(o, "bw");
				bw = isnan(bw) ? NAN : bw * 1024.0;
			}
			if (!isnan(bw))
				out->bw[d] += bw;
			if (!isnan(io))
				out->iops[d] += io;
		}
		double rt = num(job, "job_runtime");
		if (!isnan(rt) && rt / 1000.0 > out->runtime_s)
			out->runtime_s = rt / 1000.0;
		json_t *e = json_object_get(job, "error");
		if (json_is_integer(e) && json_integer_value(e) && !out->error)
			out->error = (int)json_integer_value(e);
		out->jobs++;
	}
	json_decref(root);
	return 0;
#else
	(void)text;
	memset(out, 0, sizeof(*out));
	return ios_errf(err, -ENOSYS,
			"layers: parse fio output: built without jansson");
#endif
}

double lyr_peak_measured(const struct lyr_numbers *n, int dir)
{
	double d = n->bw[LYR_DEVICE][dir], net = n->bw[LYR_NETWORK][dir];

	if (isnan(d))
		return NAN;
	d *= osds_per_target(n);
	return isnan(net) ? d : fmin(d, net);
}

double lyr_peak_rated(int nodes, int disks_per_node, double disk_bw,
		      double controller_bw, double nic_bw)
{
	double node = NAN;

	if (nodes <= 0)
		return NAN;
	if (disks_per_node > 0 && disk_bw > 0)
		node = disks_per_node * disk_bw;
	if (controller_bw > 0 && !isnan(node))
		node = fmin(node, controller_bw);
	if (nic_bw > 0)
		node = isnan(node) ? NAN : fmin(node, nic_bw);
	return isnan(node) ? NAN : node * nodes;
}

void lyr_net_numbers(struct lyr_numbers *n)
{
	double *bw = n->bw[LYR_NETWORK];

	bw[LYR_READ] = bw[LYR_WRITE] = NAN;
	if (!n->roles_known) {
		if (n->net_link_min > 0 && n->storage_nodes > 0)
			bw[LYR_READ] = bw[LYR_WRITE] =
				n->net_link_min * n->storage_nodes;
		return;
	}
	if (!(n->net_public_min > 0) || n->clients <= 0 ||
	    n->storage_nodes <= 0)
		return;
	{
		int r = n->replicas > 0 ? n->replicas : 1;
		int m = n->clients < n->storage_nodes ? n->clients
						      : n->storage_nodes;
		double link = n->net_public_min;

		if (n->net_cluster_min > 0 && n->net_cluster_min < link)
			link = n->net_cluster_min;
		bw[LYR_READ] = n->net_public_min * m;
		bw[LYR_WRITE] =
			fmin(link * n->storage_nodes,
			     (double)r * n->clients * n->net_public_min);
	}
}
