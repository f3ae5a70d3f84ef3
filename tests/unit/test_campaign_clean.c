/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for jobscripts/campaign_clean.c: `iostrata-campaign clean`
 * with hostile records in the campaign directory (datasets.tsv,
 * replication.tsv), table-driven.  Each hostile line is refused naming the
 * file and line, and nothing outside what the campaign derives (the
 * victim's files, the pools it did not make) is removed; valid lines
 * still go.  Ceph is a fake (camp_ceph_fn): pools with or without the
 * campaign's mark, the CephFS data pools, and a log of what was removed.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <cmocka.h>

#include "campaign.h"

#include "campaign_internal.h"

/* ------------------------------------------------------------ fake ceph */

struct pool {
	char name[64];
	char mark[64]; /* "" none */
	bool exists, in_fs;
};

static struct pool pools[4];
static char ceph_log[4096]; /* the removals asked for, one per line */

static struct pool *find_pool(const char *name)
{
	for (size_t i = 0; i < 4; i++)
		if (pools[i].exists && !strcmp(pools[i].name, name))
			return &pools[i];
	return NULL;
}

static int fake_ceph(char *out, size_t len, const char *const *a)
{
	struct pool *p;
	size_t n = 0;

	while (a[n])
		n++;
	if (out && len)
		out[0] = '\0';
	if (n >= 5 && !strcmp(a[0], "osd") && !strcmp(a[2], "application") &&
	    !strcmp(a[3], "get")) {
		if (!(p = find_pool(a[4])))
			return ENOENT;
		if (p->mark[0])
			snprintf(
				out, len,
				"{\"cephfs\": {}, \"iostrata\": {\"campaign\": \"%s\"}}",
				p->mark);
		else
			snprintf(out, len, "{\"cephfs\": {}}");
		return 0;
	}
	if (n >= 2 && !strcmp(a[0], "fs") && !strcmp(a[1], "ls")) {
		size_t k = (size_t)snprintf(
			out, len,
			"[{\"name\": \"cephfs\", \"data_pools\": [\"cephfs.data\"");

		for (size_t i = 0; i < 4; i++)
			if (pools[i].exists && pools[i].in_fs)
				k += (size_t)snprintf(out + k, len - k,
						      ", \"%s\"",
						      pools[i].name);
		snprintf(out + k, len - k, "]}]");
		return 0;
	}
	if (n >= 4 && !strcmp(a[0], "fs") && !strcmp(a[1], "rm_data_pool")) {
		snprintf(ceph_log + strlen(ceph_log),
			 sizeof(ceph_log) - strlen(ceph_log),
			 "fs rm_data_pool %s %s\n", a[2], a[3]);
		if ((p = find_pool(a[3])))
			p->in_fs = false;
		return 0;
	}
	if (n >= 4 && !strcmp(a[0], "osd") && !strcmp(a[2], "rm")) {
		snprintf(ceph_log + strlen(ceph_log),
			 sizeof(ceph_log) - strlen(ceph_log),
			 "osd pool rm %s\n", a[3]);
		if (!(p = find_pool(a[3])))
			return ENOENT;
		p->exists = false;
		return 0;
	}
	snprintf(ceph_log + strlen(ceph_log),
		 sizeof(ceph_log) - strlen(ceph_log), "unexpected %s %s\n",
		 a[0], n > 1 ? a[1] : "");
	return 22;
}

/* ------------------------------------------------------------ fixture */

static char top[64], wdir[PATH_MAX], cdir[PATH_MAX], victim[PATH_MAX];
static char id[CAMP_ID_LEN + 1];
static struct campaign camp;

static void sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void sh(const char *fmt, ...)
{
	char cmd[4 * PATH_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	assert_int_equal(system(cmd), 0);
}

static void put(const char *path, const char *text, size_t len)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	assert_int_equal(fwrite(text, 1, len, fp), len);
	fclose(fp);
}

static bool exists(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static bool exists(const char *fmt, ...)
{
	char p[2 * PATH_MAX];
	struct stat st;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p, sizeof(p), fmt, ap);
	va_end(ap);
	return lstat(p, &st) == 0;
}

/*
 * A fresh campaign each test: site TOP/site.conf (workload dir TOP/w,
 * replication 2 and 3, pools tp-r2 tp-r3), campaign TOP/camp (2770) with
 * its id; the campaign's own things (both pools marked and in the CephFS,
 * both factor directories marked, a dataset in each root); the victim's
 * things (TOP/victim/data, W/keep, another campaign's dataset, the pool
 * cephfs.data and another campaign's pool other-r2).
 */
static int setup(void **state)
{
	char site[PATH_MAX + 16];

	(void)state;
	snprintf(top, sizeof(top), "/tmp/test_campaign_clean.XXXXXX");
	if (!mkdtemp(top))
		return -1;
	snprintf(wdir, sizeof(wdir), "%s/w", top);
	snprintf(cdir, sizeof(cdir), "%s/camp", top);
	snprintf(victim, sizeof(victim), "%s/victim", top);
	snprintf(site, sizeof(site), "%s/site.conf", top);
	sh("mkdir -p %s/iostrata-datasets/camp/k0 %s/iostrata-datasets/other/k "
	   "%s/tp-r2/iostrata-datasets/camp/r2-k %s/tp-r3 %s/sub && "
	   "mkdir -m 2770 %s && chmod 1777 %s/iostrata-datasets && "
	   "echo x >%s/iostrata-datasets/camp/k0/f && echo precious >%s/data && "
	   "echo precious >%s/sub/data && echo precious >%s/keep && "
	   "echo precious >%s/iostrata-datasets/other/k/data",
	   wdir, wdir, wdir, wdir, victim, cdir, wdir, wdir, victim, victim,
	   wdir, wdir);
	put(site, "", 0);
	{
		char text[2 * PATH_MAX];
		int n = snprintf(text, sizeof(text),
				 "[site]\nname = t\n[workload]\ndir = %s\n"
				 "[sweep]\ndisk_bw = 40MB, 60MB\n"
				 "replication = 2, 3\nreplication_pool = tp\n",
				 wdir);

		put(site, text, (size_t)n);
	}
	memset(&camp, 0, sizeof(camp));
	if (camp_open(&camp, site, "sweep-disk-bw", cdir) < 0)
		return -1;
	if (camp_id(&camp, true, id, sizeof(id)) < 0)
		return -1;
	for (int r = 2; r <= 3; r++) {
		char d[PATH_MAX + 16];

		snprintf(d, sizeof(d), "%s/tp-r%d", wdir, r);
		if (setxattr(d, CAMP_DIR_MARK, id, strlen(id), 0) < 0)
			return -1;
	}
	memset(pools, 0, sizeof(pools));
	snprintf(pools[0].name, sizeof(pools[0].name), "tp-r2");
	snprintf(pools[1].name, sizeof(pools[1].name), "tp-r3");
	snprintf(pools[0].mark, sizeof(pools[0].mark), "%s", id);
	snprintf(pools[1].mark, sizeof(pools[1].mark), "%s", id);
	snprintf(pools[2].name, sizeof(pools[2].name), "cephfs.data");
	snprintf(pools[3].name, sizeof(pools[3].name), "other-r2");
	snprintf(pools[3].mark, sizeof(pools[3].mark),
		 "0123456789abcdef0123456789abcdef");
	for (int i = 0; i < 4; i++)
		pools[i].exists = pools[i].in_fs = true;
	ceph_log[0] = '\0';
	camp_ceph_fn = fake_ceph;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	camp_close(&camp);
	sh("rm -rf %s", top);
	return 0;
}

/* clean with stderr into [err]: its exit code. */
static int clean(char *err, size_t len)
{
	char path[PATH_MAX + 16];
	int saved, fd, rc;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/stderr", top);
	fflush(stderr);
	fflush(stdout);
	saved = dup(2);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0 && saved >= 0);
	dup2(fd, 2);
	rc = camp_cmd_clean(&camp);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = pread(fd, err, len - 1, 0);
	err[n > 0 ? n : 0] = '\0';
	close(fd);
	fprintf(stderr, "%s", err); /* for the test's log */
	return rc;
}

/* The victim's things are all there, and no pool but the campaign's was
 * touched. */
static void assert_victim_intact(void)
{
	assert_true(exists("%s/data", victim));
	assert_true(exists("%s/sub/data", victim));
	assert_true(exists("%s/keep", wdir));
	assert_true(exists("%s/iostrata-datasets/other/k/data", wdir));
	assert_null(strstr(ceph_log, "cephfs.data"));
	assert_null(strstr(ceph_log, "other-r2"));
	assert_null(strstr(ceph_log, "unexpected"));
	assert_true(pools[2].exists && pools[2].in_fs);
	assert_true(pools[3].exists && pools[3].in_fs);
}

/* ------------------------------------------------------------ the table */

enum prep {
	P_NONE,
	P_LINK_MID,    /* iostrata-datasets/camp is a link to the victim */
	P_LINK_LAST,   /* iostrata-datasets/camp/k0 is a link */
	P_OTHER_OWNER, /* iostrata-datasets/camp/k0 is uid 65534's */
	P_POOL_NOMARK, /* tp-r2 carries no mark */
	P_POOL_OTHER,  /* tp-r2 carries another campaign's mark */
	P_DIR_NOMARK,  /* W/tp-r2 carries no mark */
	P_ID_FORGED,   /* campaign.id replaced by a group member's */
	P_ID_LINKED,   /* campaign.id a hard link (a second name) */
};

struct hostile {
	const char *what;
	const char *file; /* datasets.tsv or replication.tsv */
	const char *text; /* %W the workload dir, %V the victim's, %0 a NUL */
	enum prep prep;
	const char *want; /* in stderr after "FILE:" */
};

static const struct hostile cases[] = {
	{"trailing ..", "datasets.tsv", "k\t%W/iostrata-datasets/..\n", P_NONE,
	 "datasets.tsv:1: a '..' component"},
	{"middle ..", "datasets.tsv",
	 "k\t%W/iostrata-datasets/camp/../other/k\n", P_NONE,
	 "datasets.tsv:1: a '..' component"},
	{"an absolute path elsewhere", "datasets.tsv", "# c\n\nk\t%V\n", P_NONE,
	 "datasets.tsv:3: not a dataset directory of this campaign"},
	{"another campaign's dataset", "datasets.tsv",
	 "k\t%W/iostrata-datasets/other/k\n", P_NONE,
	 "datasets.tsv:1: not a dataset directory of this campaign"},
	{"a key with a slash", "datasets.tsv",
	 "../other/k\t%W/iostrata-datasets/camp/../other/k\n", P_NONE,
	 "datasets.tsv:1: the key is not one name"},
	{"a symlink component", "datasets.tsv",
	 "k0\t%W/iostrata-datasets/camp/k0\n", P_LINK_MID, "datasets.tsv:1: "},
	{"a symlink as the dataset", "datasets.tsv",
	 "k0\t%W/iostrata-datasets/camp/k0\n", P_LINK_LAST, "datasets.tsv:1: "},
	{"another user's directory", "datasets.tsv",
	 "k0\t%W/iostrata-datasets/camp/k0\n", P_OTHER_OWNER,
	 "datasets.tsv:1: "},
	{"a duplicate line", "datasets.tsv",
	 "k0\t%W/iostrata-datasets/camp/k0\nk0\t%W/iostrata-datasets/camp/k0\n",
	 P_NONE, "datasets.tsv:2: a duplicate: key k0 already on line 1"},
	{"a NUL byte", "datasets.tsv", "k0%0\t%W/iostrata-datasets/camp/k0\n",
	 P_NONE, "datasets.tsv:1: a NUL byte"},
	{"an overlong line", "datasets.tsv", "k\t%L\n", P_NONE,
	 "datasets.tsv:1: line too long"},
	{"a missing field", "datasets.tsv", "k0\n", P_NONE,
	 "datasets.tsv:1: not KEY<TAB>DIRECTORY"},
	{"a pool outside the prefix", "replication.tsv",
	 "2\tcephfs.data\t1\tcephfs\t1\t%V\t1\n", P_NONE,
	 "replication.tsv:1: not the pool this campaign derives"},
	{"another campaign's pool name", "replication.tsv",
	 "2\tother-r2\t1\tcephfs\t1\t%W/other-r2\t1\n", P_NONE,
	 "replication.tsv:1: not the pool this campaign derives"},
	{"a directory elsewhere", "replication.tsv",
	 "2\ttp-r2\t0\t-\t0\t%V\t1\n", P_NONE,
	 "replication.tsv:1: not the directory this campaign derives"},
	{"a trailing .. in the directory", "replication.tsv",
	 "2\ttp-r2\t0\t-\t0\t%W/tp-r2/..\t1\n", P_NONE,
	 "replication.tsv:1: a '..' component"},
	{"a factor not planned", "replication.tsv",
	 "5\ttp-r5\t1\t-\t0\t%W/tp-r5\t1\n", P_NONE,
	 "replication.tsv:1: not a replication factor of this campaign's plan"},
	{"a pool without the mark", "replication.tsv",
	 "2\ttp-r2\t1\tcephfs\t1\t%W/tp-r2\t0\n", P_POOL_NOMARK,
	 "replication.tsv:1: pool tp-r2: not made by this campaign (its iostrata campaign mark is absent)"},
	{"a pool of another campaign", "replication.tsv",
	 "2\ttp-r2\t1\tcephfs\t1\t%W/tp-r2\t0\n", P_POOL_OTHER,
	 "replication.tsv:1: pool tp-r2: not made by this campaign (its iostrata campaign mark is \"0123456789abcdef0123456789abcdef\", another campaign's)"},
	{"a directory without the mark", "replication.tsv",
	 "2\ttp-r2\t0\t-\t0\t%W/tp-r2\t1\n", P_DIR_NOMARK,
	 "replication.tsv:1: "},
	{"a duplicate factor", "replication.tsv",
	 "3\ttp-r3\t0\t-\t0\t%W/tp-r3\t0\n3\ttp-r3\t1\t-\t0\t%W/tp-r3\t1\n",
	 P_NONE, "replication.tsv:2: a duplicate: factor 3 already on line 1"},
	{"a NUL byte", "replication.tsv", "2\ttp-r2\t1\t-%0\t0\t%W/tp-r2\t1\n",
	 P_NONE, "replication.tsv:1: a NUL byte"},
	{"a missing field", "replication.tsv", "2\ttp-r2\t1\n", P_NONE,
	 "replication.tsv:1: not FACTOR"},
	{"a made flag not 0 or 1", "replication.tsv",
	 "2\ttp-r2\tyes\t-\t0\t%W/tp-r2\t1\n", P_NONE,
	 "replication.tsv:1: a made flag is not 0 or 1"},
	{"a forged campaign id", "replication.tsv",
	 "2\ttp-r2\t1\tcephfs\t1\t%W/tp-r2\t1\n", P_ID_FORGED,
	 "replication.tsv:1: no trusted campaign id"},
	{"a campaign id with two links", "replication.tsv",
	 "2\ttp-r2\t1\tcephfs\t1\t%W/tp-r2\t1\n", P_ID_LINKED,
	 "replication.tsv:1: no trusted campaign id"},
};

/* The record text of [h] with %W, %V, %0 and %L (an overlong path)
 * expanded into [out]; its length. */
static size_t expand(const char *t, char *out, size_t cap)
{
	size_t k = 0;

	for (; *t; t++) {
		const char *s = NULL;

		if (*t == '%' && t[1] == 'W')
			s = wdir;
		else if (*t == '%' && t[1] == 'V')
			s = victim;
		else if (*t == '%' && t[1] == '0') {
			out[k++] = '\0';
			t++;
			continue;
		} else if (*t == '%' && t[1] == 'L') {
			out[k++] = '/';
			for (int i = 0; i < PATH_MAX + 300; i++)
				out[k++] = 'a';
			t++;
			continue;
		}
		if (s) {
			memcpy(out + k, s, strlen(s));
			k += strlen(s);
			t++;
		} else
			out[k++] = *t;
		assert_true(k < cap - PATH_MAX - 400);
	}
	return k;
}

static void prepare(enum prep p)
{
	char d[PATH_MAX + 64];

	snprintf(d, sizeof(d), "%s/iostrata-datasets/camp", wdir);
	switch (p) {
	case P_LINK_MID:
		sh("mkdir -p %s/k0 && echo precious >%s/k0/data && rm -rf %s && "
		   "ln -s %s %s",
		   victim, victim, d, victim, d);
		break;
	case P_LINK_LAST:
		sh("rm -rf %s/k0 && ln -s %s %s/k0", d, victim, d);
		break;
	case P_OTHER_OWNER:
		sh("chown -R 65534:65534 %s/k0", d);
		break;
	case P_POOL_NOMARK:
		pools[0].mark[0] = '\0';
		break;
	case P_POOL_OTHER:
		snprintf(pools[0].mark, sizeof(pools[0].mark),
			 "0123456789abcdef0123456789abcdef");
		break;
	case P_DIR_NOMARK:
		snprintf(d, sizeof(d), "%s/tp-r2", wdir);
		assert_int_equal(removexattr(d, CAMP_DIR_MARK), 0);
		break;
	case P_ID_FORGED:
		/* a group member's file in its place (mode 0664 as the umask
		 * of a team leaves it; owned by another uid when root) */
		sh("cp %s/campaign.id %s/x && rm -f %s/campaign.id && "
		   "mv %s/x %s/campaign.id && chmod 664 %s/campaign.id",
		   cdir, cdir, cdir, cdir, cdir, cdir);
		if (geteuid() == 0)
			sh("chown 65534 %s/campaign.id", cdir);
		break;
	case P_ID_LINKED:
		sh("ln %s/campaign.id %s/id2", cdir, top);
		break;
	default:
		break;
	}
}

static void test_hostile_records(void **state)
{
	static char text[4 * PATH_MAX], err[16384];
	int refused = 0;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		const struct hostile *h = &cases[i];
		char path[PATH_MAX + 32];
		size_t len;
		int rc;

		if (i)
			assert_int_equal(setup(state), 0);
		if (h->prep == P_OTHER_OWNER && geteuid() != 0) {
			print_message("skip %s: needs root (chown)\n", h->what);
			teardown(state);
			continue;
		}
		print_message("case %zu: %s: %s\n", i, h->file, h->what);
		prepare(h->prep);
		len = expand(h->text, text, sizeof(text));
		snprintf(path, sizeof(path), "%s/%s", cdir, h->file);
		put(path, text, len);
		rc = clean(err, sizeof(err));
		if (rc != 2 || !strstr(err, h->want) ||
		    !strstr(err, "refused")) {
			print_error(
				"case %s (%s): exit %d, want 2 and \"%s\": %s\n",
				h->what, h->file, rc, h->want, err);
			fail();
		}
		assert_victim_intact();
		/* the refused line's record is kept */
		assert_true(exists("%s", path));
		/* a pool refused is not removed */
		if (h->prep == P_POOL_NOMARK || h->prep == P_POOL_OTHER ||
		    h->prep == P_ID_FORGED || h->prep == P_ID_LINKED) {
			assert_true(pools[0].exists && pools[0].in_fs);
			assert_true(exists("%s/tp-r2", wdir));
		}
		if (h->prep == P_LINK_MID)
			assert_true(exists("%s/k0/data", victim));
		if (h->prep == P_OTHER_OWNER || h->prep == P_NONE)
			assert_true(
				exists("%s/iostrata-datasets/camp/k0", wdir) ||
				strstr(h->what, "duplicate"));
		if (h->prep == P_DIR_NOMARK)
			assert_true(exists("%s/tp-r2", wdir));
		refused++;
		if (i + 1 < sizeof(cases) / sizeof(*cases))
			teardown(state);
	}
	print_message("%d hostile records refused\n", refused);
}

/* Valid records go, hostile ones beside them stay: exit 2, said. */
static void test_valid_beside_hostile(void **state)
{
	char ds[4 * PATH_MAX], rp[4 * PATH_MAX], path[PATH_MAX + 32];
	static char err[16384];
	int n;

	(void)state;
	n = snprintf(ds, sizeof(ds),
		     "k0\t%s/iostrata-datasets/camp/k0\n"
		     "k\t%s/iostrata-datasets/..\n"
		     "r2-k\t%s/tp-r2/iostrata-datasets/camp/r2-k\n",
		     wdir, wdir, wdir);
	snprintf(path, sizeof(path), "%s/datasets.tsv", cdir);
	put(path, ds, (size_t)n);
	n = snprintf(rp, sizeof(rp),
		     "# factor\tpool\tpool_made\tfs\tfs_added\tdir\tdir_made\n"
		     "2\ttp-r2\t1\tcephfs\t1\t%s/tp-r2\t1\n"
		     "3\tcephfs.data\t1\tcephfs\t1\t%s/tp-r3\t1\n",
		     wdir, wdir);
	snprintf(path, sizeof(path), "%s/replication.tsv", cdir);
	put(path, rp, (size_t)n);
	sh("echo x >%s/dataset.k0.lock && echo x >%s/dataset.k0.ready", cdir,
	   cdir);
	assert_int_equal(clean(err, sizeof(err)), 2);
	assert_non_null(strstr(err, "datasets.tsv:2: a '..' component"));
	assert_non_null(strstr(
		err, "replication.tsv:3: not the pool this campaign derives"));
	assert_victim_intact();
	/* the valid ones went */
	assert_false(exists("%s/iostrata-datasets/camp/k0", wdir));
	assert_false(exists("%s/tp-r2", wdir));
	assert_false(exists("%s/dataset.k0.lock", cdir));
	assert_false(pools[0].exists);
	assert_non_null(strstr(ceph_log, "fs rm_data_pool cephfs tp-r2\n"));
	assert_non_null(strstr(ceph_log, "osd pool rm tp-r2\n"));
	/* factor 3's line was refused: its pool and directory stay */
	assert_true(pools[1].exists && exists("%s/tp-r3", wdir));
	assert_true(exists("%s/datasets.tsv", cdir) &&
		    exists("%s/replication.tsv", cdir));
}

/* All valid: everything the campaign made goes, exit 0, records too. */
static void test_all_valid(void **state)
{
	char rp[4 * PATH_MAX], ds[2 * PATH_MAX], path[PATH_MAX + 32];
	static char err[16384];
	int n;

	(void)state;
	n = snprintf(rp, sizeof(rp),
		     "2\ttp-r2\t1\tcephfs\t1\t%s/tp-r2\t1\n"
		     "3\ttp-r3\t1\tcephfs\t1\t%s/tp-r3\t1\n",
		     wdir, wdir);
	snprintf(path, sizeof(path), "%s/replication.tsv", cdir);
	put(path, rp, (size_t)n);
	n = snprintf(ds, sizeof(ds), "k0\t%s/iostrata-datasets/camp/k0\n",
		     wdir);
	snprintf(path, sizeof(path), "%s/datasets.tsv", cdir);
	put(path, ds, (size_t)n);
	assert_int_equal(clean(err, sizeof(err)), 0);
	assert_false(pools[0].exists || pools[1].exists);
	assert_false(exists("%s/tp-r2", wdir) || exists("%s/tp-r3", wdir));
	assert_false(exists("%s/iostrata-datasets/camp/k0", wdir));
	assert_false(exists("%s/replication.tsv", cdir) ||
		     exists("%s/datasets.tsv", cdir));
	assert_victim_intact();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_hostile_records, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_valid_beside_hostile,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_all_valid, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
