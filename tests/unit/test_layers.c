// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of model/layers.c: ceilings with replication, violations
 * flagged as suspected caching, the verdict's branches in seeds/003's
 * order, the fio JSON parser and the peaks (table-driven).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "layers.h"
#include "results.h"

#define MB 1e6

/* A cluster like the paper's shape, in MB/s: all layers measured. */
static struct lyr_numbers base(void)
{
	struct lyr_numbers n;

	memset(&n, 0, sizeof(n));
	for (int l = 0; l < LYR_NLAYERS; l++) {
		n.bw[l][LYR_READ] = NAN;
		n.bw[l][LYR_WRITE] = NAN;
		n.direct[l] = true;
	}
	n.device_ranks = 3;
	n.osds = 3;
	n.replicas = 3;
	n.fs_replicas = 3;
	n.storage_nodes = 3;
	return n;
}

struct ceil_case {
	int layer, below, dir, osds, ranks, rep, fsrep;
	double below_bw, want;
};

static void test_ceiling_table(void **state)
{
	static const struct ceil_case cases[] = {
		/* protocol write <= device x OSDs / targets / replicas */
		{LYR_PROTOCOL, LYR_DEVICE, LYR_WRITE, 3, 3, 3, 3, 300, 100},
		{LYR_PROTOCOL, LYR_DEVICE, LYR_WRITE, 3, 3, 1, 3, 300, 300},
		{LYR_PROTOCOL, LYR_DEVICE, LYR_WRITE, 3, 3, 2, 3, 300, 150},
		{LYR_PROTOCOL, LYR_DEVICE, LYR_WRITE, 12, 1, 3, 3, 250, 1000},
		/* reads hit one copy */
		{LYR_PROTOCOL, LYR_DEVICE, LYR_READ, 3, 3, 3, 3, 300, 300},
		{LYR_PROTOCOL, LYR_DEVICE, LYR_READ, 12, 1, 3, 3, 250, 3000},
		/* network: writes cross the links r times */
		{LYR_PROTOCOL, LYR_NETWORK, LYR_WRITE, 3, 3, 3, 3, 1200, 400},
		{LYR_PROTOCOL, LYR_NETWORK, LYR_READ, 3, 3, 3, 3, 1200, 1200},
		/* full stack vs protocol, pools of different size */
		{LYR_FULLSTACK, LYR_PROTOCOL, LYR_WRITE, 3, 3, 3, 3, 90, 90},
		{LYR_FULLSTACK, LYR_PROTOCOL, LYR_WRITE, 3, 3, 1, 3, 300, 300},
		{LYR_FULLSTACK, LYR_PROTOCOL, LYR_WRITE, 3, 3, 3, 1, 300, 900},
		{LYR_FULLSTACK, LYR_PROTOCOL, LYR_WRITE, 3, 3, 2, 2, 300, 300},
		{LYR_FULLLIB, LYR_PROTOCOL, LYR_READ, 3, 3, 1, 3, 500, 500},
		{LYR_FULLSTACK, LYR_DEVICE, LYR_WRITE, 3, 3, 1, 2, 300, 150},
		/* no ceiling: network is not above device; same layer */
		{LYR_NETWORK, LYR_DEVICE, LYR_WRITE, 3, 3, 3, 3, 300, NAN},
		{LYR_DEVICE, LYR_DEVICE, LYR_WRITE, 3, 3, 3, 3, 300, NAN},
		{LYR_PROTOCOL, LYR_PROTOCOL, LYR_READ, 3, 3, 3, 3, 300, NAN},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct ceil_case *c = &cases[i];
		struct lyr_numbers n = base();
		double got;

		n.osds = c->osds;
		n.device_ranks = c->ranks;
		n.replicas = c->rep;
		n.fs_replicas = c->fsrep;
		n.bw[c->below][c->dir] = c->below_bw * MB;
		got = lyr_ceiling(&n, c->layer, c->below, c->dir);
		if (isnan(c->want)) {
			if (!isnan(got))
				fail_msg("case %zu: want NAN, got %g", i, got);
		} else if (fabs(got - c->want * MB) > 1.0) {
			fail_msg("case %zu: want %g MB/s, got %g", i, c->want,
				 got / MB);
		}
	}
}

static const struct lyr_check *find(const struct lyr_check *c, int nc,
				    int layer, int below, int dir)
{
	for (int i = 0; i < nc; i++)
		if (c[i].layer == layer && c[i].below == below &&
		    c[i].dir == dir)
			return &c[i];
	return NULL;
}

struct viol_case {
	double dev_w, proto_w, full_w;
	bool full_direct;
	int rep;
	bool want_proto_viol, want_full_viol, want_full_suspect;
};

static void test_violations_table(void **state)
{
	static const struct viol_case cases[] = {
		/* clean: 300/3 = 100 >= 90 >= 40 */
		{300, 90, 40, true, 3, false, false, false},
		/* within the 10% tolerance */
		{300, 109, 40, true, 3, false, false, false},
		/* protocol above device/replicas: caching */
		{300, 120, 40, true, 3, true, false, false},
		/* the same at size 1 is fine */
		{300, 120, 40, true, 1, false, false, false},
		/* full stack above protocol */
		{300, 90, 200, true, 3, false, true, true},
		/* buffered full stack below ceiling: still suspect */
		{300, 90, 40, false, 3, false, false, true},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct viol_case *c = &cases[i];
		struct lyr_numbers n = base();
		struct lyr_check ck[32];
		const struct lyr_check *p, *f;
		int nc;

		n.replicas = n.fs_replicas = c->rep;
		n.bw[LYR_DEVICE][LYR_WRITE] = c->dev_w * MB;
		n.bw[LYR_PROTOCOL][LYR_WRITE] = c->proto_w * MB;
		n.bw[LYR_FULLSTACK][LYR_WRITE] = c->full_w * MB;
		n.direct[LYR_FULLSTACK] = c->full_direct;
		nc = lyr_check_ceilings(&n, NULL, ck, 32);
		p = find(ck, nc, LYR_PROTOCOL, LYR_DEVICE, LYR_WRITE);
		f = find(ck, nc, LYR_FULLSTACK, LYR_PROTOCOL, LYR_WRITE);
		assert_non_null(p);
		assert_non_null(f);
		if (p->violated != c->want_proto_viol ||
		    f->violated != c->want_full_viol ||
		    f->suspect != c->want_full_suspect)
			fail_msg("case %zu: proto %d full %d suspect %d", i,
				 p->violated, f->violated, f->suspect);
		if (f->suspect)
			assert_non_null(strstr(
				f->text,
				"suspected caching, not durable throughput"));
		if (p->violated)
			assert_non_null(strstr(p->text, "EXCEEDS"));
		/* no checks for unmeasured layers */
		assert_null(find(ck, nc, LYR_FULLLIB, LYR_PROTOCOL, LYR_WRITE));
	}
}

static void test_loopback_not_provable(void **state)
{
	struct lyr_numbers n = base();
	struct lyr_check ck[32];
	const struct lyr_check *c;
	int nc;

	(void)state;
	n.one_host = true;
	n.bw[LYR_NETWORK][LYR_WRITE] = 1000 * MB;
	n.bw[LYR_PROTOCOL][LYR_WRITE] = 100 * MB;
	nc = lyr_check_ceilings(&n, NULL, ck, 32);
	c = find(ck, nc, LYR_PROTOCOL, LYR_NETWORK, LYR_WRITE);
	assert_non_null(c);
	assert_false(c->provable);
	assert_non_null(strstr(c->text, "loopback"));
	n.one_host = false;
	nc = lyr_check_ceilings(&n, NULL, ck, 32);
	c = find(ck, nc, LYR_PROTOCOL, LYR_NETWORK, LYR_WRITE);
	assert_true(c->provable);
}

struct verdict_case {
	double dev, net, proto, full;
	bool one_host;
	const char *want; /* in the write paragraph */
	const char *not_want;
};

static void test_verdict_table(void **state)
{
	static const struct verdict_case cases[] = {
		/* device 900/3 = 300, net 3000/3 = 1000 both well above 100:
		 * Ceph's own overhead */
		{900, 3000, 100, 90, false, "Ceph's own protocol",
		 "network is the limit"},
		/* network 330/3 = 110 close to protocol 100, device 300 */
		{900, 330, 100, 90, false, "the network is the limit",
		 "Ceph's own protocol"},
		/* the same on one host: cannot be concluded */
		{900, 330, 100, 90, true, "cannot be concluded", NULL},
		/* protocol at the device ceiling */
		{300, 3000, 95, 90, false, "devices are the limit", NULL},
		/* protocol far above the device ceiling (cached): no layer
		 * named (it read "devices are the limit" at 1099%) */
		{300, 3000, 700, 90, false, "no layer can be named",
		 "devices are the limit"},
		/* full stack far below protocol: client path */
		{900, 3000, 100, 30, false, "client path", NULL},
		/* full stack close to protocol */
		{900, 3000, 100, 95, false, "costs little",
		 "where to look next"},
		/* caching flagged in the verdict */
		{900, 3000, 100, 400, false,
		 "suspected caching, not durable throughput", NULL},
		/* one host: the caveat is said */
		{900, 3000, 100, 90, true, "cannot prove", NULL},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct verdict_case *c = &cases[i];
		struct lyr_numbers n = base();
		struct lyr_check ck[32];
		char *v;
		int nc;

		n.one_host = c->one_host;
		n.bw[LYR_DEVICE][LYR_WRITE] = c->dev * MB;
		n.bw[LYR_NETWORK][LYR_WRITE] = c->net * MB;
		n.bw[LYR_PROTOCOL][LYR_WRITE] = c->proto * MB;
		n.bw[LYR_FULLSTACK][LYR_WRITE] = c->full * MB;
		nc = lyr_check_ceilings(&n, NULL, ck, 32);
		v = lyr_verdict(&n, ck, nc, NULL);
		assert_non_null(v);
		if (!strstr(v, c->want))
			fail_msg("case %zu: '%s' not in:\n%s", i, c->want, v);
		if (c->not_want && strstr(v, c->not_want))
			fail_msg("case %zu: '%s' unexpectedly in:\n%s", i,
				 c->not_want, v);
		/* the numbers that led to it are in the text */
		char want[64];

		snprintf(want, sizeof(want), "protocol %.2f MB/s", c->proto);
		if (!strstr(v, want))
			fail_msg("case %zu: '%s' not in:\n%s", i, want, v);
		/* write is read before read */
		assert_true(strstr(v, "Write:") < strstr(v, "Read:"));
		if (!c->one_host)
			assert_null(strstr(v, "cannot prove"));
		free(v);
	}
}

/* One slow device target (an emulated or failing disk on one storage
 * host): its share x the targets bounds the devices, not the aggregate
 * (CRUSH gives every OSD the same share), and the verdict names the
 * devices; with the aggregate alone it named Ceph's protocol. */
static void test_slow_target(void **state)
{
	struct ios_rank_result rk[3];
	struct ios_rep_result rep[2];
	struct ios_phase_result ph;
	struct lyr_numbers n = base();
	struct lyr_check ck[32];
	char *v;
	int nc;

	(void)state;
	memset(rk, 0, sizeof(rk));
	memset(rep, 0, sizeof(rep));
	memset(&ph, 0, sizeof(ph));
	/* 3 targets, 20 MB, 200 MB, 200 MB before the stonewall: 420 MB/s
	 * aggregate over 1 s; the slowest x 3 = 60 MB/s */
	rk[0].stonewall_bytes = 20000000;
	rk[1].stonewall_bytes = rk[2].stonewall_bytes = 200000000;
	rep[0].valid = rep[1].valid = true;
	rep[0].nranks = rep[1].nranks = 3;
	rep[0].ranks = rep[1].ranks = rk;
	rep[0].fig.stonewall_bw = 420 * MB;
	rep[1].fig.stonewall_bw = 0; /* no bytes: left out */
	ph.nreps = 2;
	ph.reps = rep;
	rep[1].valid = false;
	assert_true(fabs(lyr_balanced_bw(&ph) - 60 * MB) < 1);
	rep[0].valid = false;
	assert_true(isnan(lyr_balanced_bw(&ph)));

	n.bw[LYR_DEVICE][LYR_WRITE] = 420 * MB;
	n.bw[LYR_NETWORK][LYR_WRITE] = 3000 * MB;
	n.bw[LYR_PROTOCOL][LYR_WRITE] = 19 * MB;
	n.bw[LYR_FULLSTACK][LYR_WRITE] = 18 * MB;
	/* aggregate only: 420 / 3 replicas = 140, protocol 14% of it */
	assert_true(fabs(lyr_ceiling(&n, LYR_PROTOCOL, LYR_DEVICE, LYR_WRITE) -
			 140 * MB) < 1);
	n.dev_bound[LYR_WRITE] = 60 * MB;
	assert_true(fabs(lyr_ceiling(&n, LYR_PROTOCOL, LYR_DEVICE, LYR_WRITE) -
			 20 * MB) < 1);
	/* never above the aggregate */
	n.dev_bound[LYR_READ] = 9999 * MB;
	n.bw[LYR_DEVICE][LYR_READ] = 500 * MB;
	assert_true(fabs(lyr_ceiling(&n, LYR_PROTOCOL, LYR_DEVICE, LYR_READ) -
			 500 * MB) < 1);
	nc = lyr_check_ceilings(&n, NULL, ck, 32);
	v = lyr_verdict(&n, ck, nc, NULL);
	if (!strstr(v, "the devices are the limit"))
		fail_msg("slow target: not the devices:\n%s", v);
	free(v);
}

static void test_verdict_unmeasured(void **state)
{
	struct lyr_numbers n = base();
	char *v;

	(void)state;
	v = lyr_verdict(&n, NULL, 0, NULL);
	assert_non_null(v);
	assert_non_null(strstr(v, "protocol layer not measured"));
	free(v);
}

static const char fio_one[] =
	"note: both iodepth >= 1 and synchronous I/O engine are selected\n"
	"{\"fio version\":\"fio-3.33\",\"jobs\":[{\"jobname\":\"d\",\"error\":0,"
	"\"job_runtime\":2000,"
	"\"read\":{\"bw_bytes\":0,\"iops\":0.0},"
	"\"write\":{\"bw_bytes\":209715200,\"iops\":50.0}}]}";
static const char fio_two[] =
	"{\"jobs\":[{\"error\":0,\"job_runtime\":1000,"
	"\"read\":{\"bw_bytes\":100,\"iops\":1.5},\"write\":{\"bw_bytes\":0,\"iops\":0}},"
	"{\"error\":5,\"job_runtime\":3000,"
	"\"read\":{\"bw_bytes\":300,\"iops\":2.5},\"write\":{\"bw_bytes\":0,\"iops\":0}}]}";
static const char fio_old[] =
	"{\"jobs\":[{\"read\":{\"bw\":1000,\"iops\":1},\"write\":{\"bw\":0}}]}";

struct fio_case {
	const char *in;
	int rc;
	double rbw, wbw, wiops, rt;
	int jobs, error;
};

static void test_fio_parse_table(void **state)
{
	static const struct fio_case cases[] = {
		{fio_one, 0, 0, 209715200, 50, 2.0, 1, 0},
		{fio_two, 0, 400, 0, 0, 3.0, 2, 5},
		{fio_old, 0, 1024000, 0, 0, 0, 1, 0},
		{"fio: no such file", -EINVAL, 0, 0, 0, 0, 0, 0},
		{"{\"jobs\":[]}", -EINVAL, 0, 0, 0, 0, 0, 0},
		{"{\"jobs\": [ {", -EINVAL, 0, 0, 0, 0, 0, 0},
		{"{\"other\":1}", -EINVAL, 0, 0, 0, 0, 0, 0},
	};
	(void)state;
#ifndef HAVE_JANSSON
	skip();
#endif
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct fio_case *c = &cases[i];
		struct lyr_fio f;
		struct ios_err err = {0};
		int rc = lyr_fio_parse(c->in, &f, &err);

		if (rc != c->rc)
			fail_msg("case %zu: rc %d want %d (%s)", i, rc, c->rc,
				 err.msg);
		if (rc < 0) {
			assert_non_null(strstr(err.msg, "parse fio output"));
			continue;
		}
		assert_float_equal(f.bw[LYR_READ], c->rbw, 0.5);
		assert_float_equal(f.bw[LYR_WRITE], c->wbw, 0.5);
		assert_float_equal(f.iops[LYR_WRITE], c->wiops, 0.01);
		assert_float_equal(f.runtime_s, c->rt, 0.001);
		assert_int_equal(f.jobs, c->jobs);
		assert_int_equal(f.error, c->error);
	}
}

static void test_disagreement(void **state)
{
	(void)state;
	assert_float_equal(lyr_disagreement(100, 100), 0.0, 1e-12);
	assert_float_equal(lyr_disagreement(95, 100), 0.05, 1e-12);
	assert_float_equal(lyr_disagreement(100, 95), 0.05, 1e-12);
	assert_float_equal(lyr_disagreement(0, 0), 0.0, 1e-12);
	assert_true(isnan(lyr_disagreement(NAN, 1)));
	assert_true(lyr_disagreement(100, 94) >
		    lyr_default_thresholds.fio_disagree);
}

static void test_peaks(void **state)
{
	struct lyr_numbers n = base();

	(void)state;
	/* paper: 10 nodes x min(12 x 277 MiB/s, 3100 MiB/s, 12.5 GB/s) */
	assert_float_equal(lyr_peak_rated(10, 12, 277.0 * 1048576,
					  3100.0 * 1048576, 12.5e9),
			   31000.0 * 1048576, 1.0);
	assert_float_equal(lyr_peak_rated(2, 1, 100, 0, 0), 200, 1e-9);
	assert_float_equal(lyr_peak_rated(2, 1, 100, 0, 50), 100, 1e-9);
	assert_true(isnan(lyr_peak_rated(0, 1, 100, 0, 0)));
	assert_true(isnan(lyr_peak_rated(2, 0, 100, 0, 50)));
	n.osds = 12;
	n.device_ranks = 1;
	n.bw[LYR_DEVICE][LYR_READ] = 250;
	assert_float_equal(lyr_peak_measured(&n, LYR_READ), 3000, 1e-9);
	n.bw[LYR_NETWORK][LYR_READ] = 2000;
	assert_float_equal(lyr_peak_measured(&n, LYR_READ), 2000, 1e-9);
	assert_true(isnan(lyr_peak_measured(&n, LYR_WRITE)));
}

struct hl_case {
	const char *list, *host;
	int want; /* 1, 0, or -EINVAL */
};

static void test_hostlist_table(void **state)
{
	static const struct hl_case cases[] = {
		{"s1,s2", "s1", 1},
		{"s1,s2", "s2", 1},
		{"s1,s2", "s3", 0},
		{"s1,s2", "s", 0},
		{"s1,s2", "s11", 0},
		{"s[1-3]", "s2", 1},
		{"s[1-3]", "s4", 0},
		{"s[1-3]", "c2", 0},
		{"s[1,3]", "s2", 0},
		{"s[1,3]", "s3", 1},
		{"c1,s[2-3],x", "x", 1},
		{"c1,s[2-3],x", "s3", 1},
		{"node[01-04]-ib", "node03-ib", 1},
		{"node[01-04]-ib", "node3-ib", 0},
		{"node[01-04]-ib", "node05-ib", 0},
		{"n[1-10]", "n10", 1},
		{"n[1-10]", "n01", 0},
		{"", "s1", -EINVAL},
		{"s1,", "s1", -EINVAL},
		{",s1", "s1", -EINVAL},
		{"s[1-", "s1", -EINVAL},
		{"s[3-1]", "s1", -EINVAL},
		{"s[a-b]", "s1", -EINVAL},
		{"s[]", "s1", -EINVAL},
		{"s[1[2]]", "s1", -EINVAL},
		{"s]1", "s1", -EINVAL},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ios_err e = {0};
		int got = lyr_hostlist_has(cases[i].list, cases[i].host, &e);

		if (got != cases[i].want)
			fail_msg(
				"case %zu (\"%s\" has \"%s\"): want %d, got %d (%s)",
				i, cases[i].list, cases[i].host, cases[i].want,
				got, e.msg);
		if (got < 0 && !strstr(e.msg, "hostlist"))
			fail_msg(
				"case %zu: message \"%s\" does not name the hostlist",
				i, e.msg);
	}
}

struct role_case {
	const char *storage_nodes, *host;
	int het_size, het_group;
	int want; /* enum lyr_role or -EINVAL */
	enum lyr_roles_from from;
};

static void test_role_table(void **state)
{
	static const struct role_case cases[] = {
		/* no het job, no option: every layer everywhere, said so */
		{NULL, "c1", 0, -1, LYR_ROLE_ALL, LYR_ROLES_UNKNOWN},
		{NULL, "s1", 0, 0, LYR_ROLE_ALL, LYR_ROLES_UNKNOWN},
		/* het job: compute component first, storage last */
		{NULL, "c1", 2, 0, LYR_ROLE_CLIENT, LYR_ROLES_HETJOB},
		{NULL, "s1", 2, 1, LYR_ROLE_STORAGE, LYR_ROLES_HETJOB},
		{NULL, "c9", 3, 1, LYR_ROLE_CLIENT, LYR_ROLES_HETJOB},
		{NULL, "s9", 3, 2, LYR_ROLE_STORAGE, LYR_ROLES_HETJOB},
		/* het job whose component a rank cannot tell: refused */
		{NULL, "c1", 2, -1, -EINVAL, LYR_ROLES_UNKNOWN},
		{NULL, "c1", 2, 5, -EINVAL, LYR_ROLES_UNKNOWN},
		{NULL, "c1", 1, 0, -EINVAL, LYR_ROLES_UNKNOWN},
		/* the option wins over the het job */
		{"s[1-2]", "s1", 0, -1, LYR_ROLE_STORAGE, LYR_ROLES_OPTION},
		{"s[1-2]", "c1", 0, -1, LYR_ROLE_CLIENT, LYR_ROLES_OPTION},
		{"c1", "c1", 2, 1, LYR_ROLE_STORAGE, LYR_ROLES_OPTION},
		{"s1", "s1", 2, 0, LYR_ROLE_STORAGE, LYR_ROLES_OPTION},
		{"s[1-", "s1", 0, -1, -EINVAL, LYR_ROLES_UNKNOWN},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct role_case *c = &cases[i];
		struct lyr_role_in in = {
			.storage_nodes = c->storage_nodes,
			.host = c->host,
			.het_size = c->het_size,
			.het_group = c->het_group,
		};
		enum lyr_roles_from from = LYR_ROLES_OPTION;
		struct ios_err e = {0};
		int got = lyr_role_of(&in, &from, &e);

		if (got != c->want)
			fail_msg("case %zu: want role %d, got %d (%s)", i,
				 c->want, got, e.msg);
		if (got >= 0 && from != c->from)
			fail_msg("case %zu: want roles from %d, got %d", i,
				 c->from, from);
		if (got < 0 && !e.msg[0])
			fail_msg("case %zu: refused without a message", i);
	}
}

struct net_case {
	bool roles;
	int clients, storage, replicas;
	double pub, cluster, all; /* MB/s */
	double want_r, want_w, want_ceil_w;
};

static void test_net_numbers_table(void **state)
{
	static const struct net_case cases[] = {
		/* roles unknown: slowest pair x nodes, as before */
		{false, 0, 5, 3, 0, 0, 100, 500, 500, 500.0 / 3},
		/* 2 clients, 3 storage hosts, size 3: reads 2 x public;
		 * writes: every copy enters a storage link: 3 x 100 / 3 */
		{true, 2, 3, 3, 100, 100, 0, 200, 300, 100},
		/* a slow cluster network (the 200mbit s1-s2 link) bounds
		 * writes only */
		{true, 2, 3, 3, 100, 25, 0, 200, 75, 25},
		/* one client: its link bounds everything (one copy out) */
		{true, 1, 3, 3, 100, 100, 0, 100, 300, 100},
		{true, 1, 3, 1, 100, 100, 0, 100, 100, 100},
		/* one storage host: no cluster pair */
		{true, 2, 1, 1, 100, 0, 0, 100, 100, 100},
		/* no public pair measured: no number */
		{true, 2, 3, 3, 0, 100, 0, NAN, NAN, NAN},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct net_case *c = &cases[i];
		struct lyr_numbers n = base();
		double got[3];
		const double want[3] = {c->want_r, c->want_w, c->want_ceil_w};

		n.roles_known = c->roles;
		n.clients = c->clients;
		n.storage_nodes = c->storage;
		n.replicas = c->replicas;
		n.net_public_min = c->pub * MB;
		n.net_cluster_min = c->cluster * MB;
		n.net_link_min = c->all * MB;
		lyr_net_numbers(&n);
		got[0] = n.bw[LYR_NETWORK][LYR_READ];
		got[1] = n.bw[LYR_NETWORK][LYR_WRITE];
		got[2] = lyr_ceiling(&n, LYR_PROTOCOL, LYR_NETWORK, LYR_WRITE);
		for (int k = 0; k < 3; k++) {
			if (isnan(want[k]) ? !isnan(got[k])
					   : fabs(got[k] - want[k] * MB) > 1.0)
				fail_msg(
					"case %zu value %d: want %g MB/s, got %g",
					i, k, want[k], got[k] / MB);
		}
	}
}

/* The verdict says where the roles came from, never a silent guess. */
static void test_verdict_roles(void **state)
{
	struct lyr_numbers n = base();
	char *v;

	(void)state;
	n.bw[LYR_DEVICE][LYR_WRITE] = n.bw[LYR_DEVICE][LYR_READ] = 300 * MB;
	n.bw[LYR_PROTOCOL][LYR_WRITE] = n.bw[LYR_PROTOCOL][LYR_READ] = 50 * MB;
	v = lyr_verdict(&n, NULL, 0, NULL);
	assert_non_null(v);
	assert_non_null(strstr(v, "Roles not known"));
	assert_non_null(strstr(v, "all nodes did all layers"));
	free(v);
	n.roles_known = true;
	n.device_ranks = 2;
	n.clients = 2;
	v = lyr_verdict(&n, NULL, 0, NULL);
	assert_non_null(v);
	assert_null(strstr(v, "Roles not known"));
	assert_non_null(strstr(
		v,
		"device layer ran on 2 storage hosts, protocol and full stack on 2 client hosts"));
	free(v);
}

/* A task's environment as "KEY=VALUE" strings, NULL-terminated. */
static const char *fake_env(const char *name, void *arg)
{
	const char *const *e = arg;
	size_t n = strlen(name);

	for (; *e; e++)
		if (!strncmp(*e, name, n) && (*e)[n] == '=')
			return *e + n + 1;
	return NULL;
}

static void test_het_group_table(void **state)
{
	/* what srun of Slurm 22.05 exported to the tasks of a het step of the
	 * local site (compute c1 first, storage s1; a batch script's `srun
	 * --het-group=0,1`): no component index, one SLURM_JOB_ID, and
	 * SLURM_JOB_PARTITION the last component's on every task */
	static const char *const site[] = {
		"SLURM_HET_SIZE=2",
		"SLURM_JOB_ID=1",
		"SLURM_JOB_ID_HET_GROUP_0=1",
		"SLURM_JOB_ID_HET_GROUP_1=2",
		"SLURM_JOB_PARTITION=storage",
		"SLURM_JOB_PARTITION_HET_GROUP_0=compute",
		"SLURM_JOB_PARTITION_HET_GROUP_1=storage",
		"SLURM_JOB_NODELIST_HET_GROUP_0=c[1-2]",
		"SLURM_JOB_NODELIST_HET_GROUP_1=s[1-2]",
		"SLURM_NTASKS_HET_GROUP_0=4",
		"SLURM_NTASKS_HET_GROUP_1=2",
		NULL,
	};
	/* no node lists: the partition is not the task's, so nothing tells */
	static const char *const no_lists[] = {
		"SLURM_HET_SIZE=2",
		"SLURM_JOB_PARTITION=storage",
		"SLURM_JOB_PARTITION_HET_GROUP_0=compute",
		"SLURM_JOB_PARTITION_HET_GROUP_1=storage",
		NULL,
	};
	/* a node in both components: unknown, not the last partition's */
	static const char *const both[] = {
		"SLURM_JOB_PARTITION=storage",
		"SLURM_JOB_PARTITION_HET_GROUP_0=compute",
		"SLURM_JOB_PARTITION_HET_GROUP_1=storage",
		"SLURM_JOB_NODELIST_HET_GROUP_0=n[1-2]",
		"SLURM_JOB_NODELIST_HET_GROUP_1=n1",
		NULL,
	};

	(void)state;
	assert_int_equal(lyr_het_group(2, "c1", fake_env, (void *)site), 0);
	assert_int_equal(lyr_het_group(2, "c2", fake_env, (void *)site), 0);
	assert_int_equal(lyr_het_group(2, "s2", fake_env, (void *)site), 1);
	assert_int_equal(lyr_het_group(2, "x9", fake_env, (void *)site), -1);
	assert_int_equal(lyr_het_group(2, NULL, fake_env, (void *)site), -1);
	assert_int_equal(lyr_het_group(2, "c1", fake_env, (void *)no_lists),
			 -1);
	assert_int_equal(lyr_het_group(2, "s1", fake_env, (void *)no_lists),
			 -1);
	assert_int_equal(lyr_het_group(2, "n1", fake_env, (void *)both), -1);
	assert_int_equal(lyr_het_group(2, "n2", fake_env, (void *)both), 0);
}

static void test_het_exit_delay_table(void **state)
{
	/* what the tasks of t00's het step saw (compute c[1-2] first,
	 * storage s1; SLURM_JOB_PARTITION the same on all of them) */
#define HET_ENV(node)                                                          \
	"SLURM_HET_SIZE=2", "SLURMD_NODENAME=" node,                           \
		"SLURM_JOB_PARTITION=storage",                                 \
		"SLURM_JOB_PARTITION_HET_GROUP_0=compute",                     \
		"SLURM_JOB_PARTITION_HET_GROUP_1=storage",                     \
		"SLURM_JOB_NODELIST_HET_GROUP_0=c[1-2]",                       \
		"SLURM_JOB_NODELIST_HET_GROUP_1=s1"
	static const char *const c2[] = {HET_ENV("c2"), NULL};
	static const char *const s1[] = {HET_ENV("s1"), NULL};
#undef HET_ENV
	static const char *const plain[] = {"SLURMD_NODENAME=c1", NULL};
	static const char *const one[] = {
		"SLURM_HET_SIZE=1", "SLURMD_NODENAME=c1",
		"SLURM_JOB_NODELIST_HET_GROUP_0=c1", NULL};
	static const char *const junk[] = {
		"SLURM_HET_SIZE=2x", "SLURMD_NODENAME=s1",
		"SLURM_JOB_NODELIST_HET_GROUP_1=s1", NULL};
	static const char *const nohost[] = {
		"SLURM_HET_SIZE=2", "SLURM_JOB_NODELIST_HET_GROUP_1=s1", NULL};
	/* component 20 of 21: capped */
	static const char *const far[] = {
		"SLURM_HET_SIZE=21", "SLURMD_NODENAME=z1",
		"SLURM_JOB_NODELIST_HET_GROUP_20=z1", NULL};

	(void)state;
	assert_int_equal(lyr_het_exit_delay_ms(fake_env, (void *)c2), 0);
	assert_int_equal(lyr_het_exit_delay_ms(fake_env, (void *)s1),
			 LYR_HET_EXIT_STAGGER_MS);
	assert_int_equal(lyr_het_exit_delay_ms(fake_env, (void *)plain), 0);
	assert_int_equal(lyr_het_exit_delay_ms(fake_env, (void *)one), 0);
	assert_int_equal(lyr_het_exit_delay_ms(fake_env, (void *)junk), 0);
	assert_int_equal(lyr_het_exit_delay_ms(fake_env, (void *)nohost), 0);
	assert_int_equal(lyr_het_exit_delay_ms(fake_env, (void *)far),
			 LYR_HET_EXIT_STAGGER_MAX_MS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ceiling_table),
		cmocka_unit_test(test_violations_table),
		cmocka_unit_test(test_loopback_not_provable),
		cmocka_unit_test(test_slow_target),
		cmocka_unit_test(test_verdict_table),
		cmocka_unit_test(test_verdict_unmeasured),
		cmocka_unit_test(test_fio_parse_table),
		cmocka_unit_test(test_disagreement),
		cmocka_unit_test(test_peaks),
		cmocka_unit_test(test_hostlist_table),
		cmocka_unit_test(test_role_table),
		cmocka_unit_test(test_net_numbers_table),
		cmocka_unit_test(test_verdict_roles),
		cmocka_unit_test(test_het_group_table),
		cmocka_unit_test(test_het_exit_delay_table),
	};

	return cmocka_run_group_tests_name("layers", tests, NULL, NULL);
}
