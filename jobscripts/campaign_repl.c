/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * campaign_repl: the replication factors of a campaign ([sweep]
 * replication).  Per factor N one RADOS pool PREFIX-rN of size N, a data
 * pool of the CephFS, and one directory WORKLOAD_DIR/PREFIX-rN whose layout
 * (ceph.dir.layout.pool) points at it.  `submit` makes what is missing
 * before any element is submitted and reuses a pool that exists with size
 * N; what it made is in DIR/replication.tsv, rewritten after every step,
 * and a failed step undoes all this submit made.  A pool made carries the
 * campaign's id as application metadata (iostrata: campaign=ID), a
 * directory made as the xattr user.iostrata.campaign: `clean`
 * (campaign_clean.c) removes only what is so marked.  Ceph through the `ceph`
 * command (CEPH_CONF, CEPH_ARGS as for any client; the site's admin key),
 * the directory through the CephFS mount of the host that submits.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <jansson.h>

#include "campaign.h"
#include "siteconf.h"

#include "campaign_internal.h"

#define RECORD "replication.tsv"
#define LAYOUT_XATTR "ceph.dir.layout.pool"

/* What one factor uses, and which parts the campaign made. */
struct repl {
	unsigned factor;
	char pool[96];
	char fs[128];
	char dir[PATH_MAX];
	bool pool_made, fs_added, dir_made;
};

/* ------------------------------------------------------------ ceph */

/*
 * Run `ceph ARGS...` (a NULL-terminated list), its stdout into [out] (may
 * be NULL).  Returns its exit status (0 ok; ceph exits with the errno of a
 * failed command, e.g. 2 ENOENT), or a negative errno when it cannot run.
 */
static int ceph_run(char *out, size_t len, const char *const *args)
{
	struct argv a = {0};
	int rc = camp_argv_add(&a, "ceph");

	rc |= camp_argv_add(&a, "--connect-timeout=30");
	for (size_t i = 0; args[i] && !rc; i++)
		rc = camp_argv_add(&a, "%s", args[i]);
	if (rc) {
		camp_argv_free(&a);
		return -ENOMEM;
	}
	rc = camp_run_capture(a.v, out, len, false);
	camp_argv_free(&a);
	return rc;
}

int (*camp_ceph_fn)(char *out, size_t len, const char *const *args) = ceph_run;

int camp_ceph(char *out, size_t len, const char *const *args)
{
	return camp_ceph_fn(out, len, args);
}

/* The size of [pool] (*size) and its id (*id, -1 when the answer has
 * none), 0; 1: no such pool; -1 said. */
static int pool_size(const char *pool, unsigned *size, long long *id)
{
	const char *args[] = {"osd",  "pool",          "get", pool,
			      "size", "--format=json", NULL};
	char out[1024];
	json_t *j;
	int rc = camp_ceph(out, sizeof(out), args);

	if (rc == ENOENT)
		return 1;
	if (rc != 0) {
		fprintf(stderr,
			PROG
			": replication: ceph osd pool get %s size: exit %d (see its message above; a Ceph client key allowed to read the OSD map is needed)\n",
			pool, rc);
		return -1;
	}
	j = json_loads(out, 0, NULL);
	rc = json_is_integer(json_object_get(j, "size")) ? 0 : -1;
	*id = json_is_integer(json_object_get(j, "pool_id"))
		      ? (long long)json_integer_value(
				json_object_get(j, "pool_id"))
		      : -1;
	if (!rc)
		*size = (unsigned)json_integer_value(
			json_object_get(j, "size"));
	else
		fprintf(stderr,
			PROG
			": replication: ceph osd pool get %s size: unexpected answer \"%.200s\"\n",
			pool, out);
	json_decref(j);
	return rc;
}

int camp_repl_fs_of(const char *pool, char *fs, size_t len, bool *has)
{
	const char *args[] = {"fs", "ls", "--format=json", NULL};
	char out[8192];
	json_t *j, *f, *p;
	size_t i;
	int rc = camp_ceph(out, sizeof(out), args);

	if (rc != 0) {
		fprintf(stderr,
			PROG ": replication: ceph fs ls: exit %d (see above)\n",
			rc);
		return -1;
	}
	j = json_loads(out, 0, NULL);
	f = json_array_get(j, 0);
	if (!json_is_string(json_object_get(f, "name"))) {
		fprintf(stderr, PROG
			": replication: ceph fs ls: no CephFS in this cluster (the directories of the factors need one)\n");
		json_decref(j);
		return -1;
	}
	snprintf(fs, len, "%s", json_string_value(json_object_get(f, "name")));
	*has = false;
	json_array_foreach(json_object_get(f, "data_pools"), i, p)
	{
		if (json_is_string(p) && !strcmp(json_string_value(p), pool))
			*has = true;
	}
	json_decref(j);
	return 0;
}

int camp_ceph_do(const char *what, const char *const *args)
{
	int rc = camp_ceph(NULL, 0, args);

	if (rc == 0)
		return 0;
	fprintf(stderr, PROG ": replication: %s: ceph exit %d (see above)\n",
		what, rc);
	return -1;
}

/* ------------------------------------------------------------ record */

static int record_write(const struct campaign *c, const struct repl *r,
			size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int rc;

	if (!m)
		return -ENOMEM;
	fprintf(m, "# factor\tpool\tpool_made\tfs\tfs_added\tdir\tdir_made\n");
	for (size_t i = 0; i < n; i++)
		fprintf(m, "%u\t%s\t%d\t%s\t%d\t%s\t%d\n", r[i].factor,
			r[i].pool, r[i].pool_made, r[i].fs[0] ? r[i].fs : "-",
			r[i].fs_added, r[i].dir, r[i].dir_made);
	fclose(m);
	rc = camp_write_atomic(c->dir, RECORD, buf);
	free(buf);
	if (rc < 0)
		fprintf(stderr, PROG ": replication: write %s/" RECORD ": %s\n",
			c->dir, strerror(-rc));
	return rc;
}

/* The recorded factors into [r] (at most [cap]); their count, or -1. */
static int record_read(const struct campaign *c, struct repl *r, size_t cap)
{
	char path[PATH_MAX + 32], line[PATH_MAX + 512];
	FILE *fp;
	int n = 0;

	snprintf(path, sizeof(path), "%s/" RECORD, c->dir);
	fp = fopen(path, "re");
	if (!fp) {
		if (errno == ENOENT)
			return 0;
		fprintf(stderr, PROG ": replication: read %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), fp) && (size_t)n < cap) {
		struct repl *x = &r[n];
		int pm, fa, dm;

		if (line[0] == '#')
			continue;
		line[strcspn(line, "\n")] = '\0';
		memset(x, 0, sizeof(*x));
		if (sscanf(line,
			   "%u\t%95[^\t]\t%d\t%127[^\t]\t%d\t%4095[^\t]\t%d",
			   &x->factor, x->pool, &pm, x->fs, &fa, x->dir,
			   &dm) != 7)
			continue;
		if (!strcmp(x->fs, "-"))
			x->fs[0] = '\0';
		x->pool_made = pm, x->fs_added = fa, x->dir_made = dm;
		n++;
	}
	fclose(fp);
	return n;
}

/* ------------------------------------------------------------ undo */

/* Remove what this very process made for [r] (a submit's failure: the
 * flags are its own, not a record's), the directory first (its files live
 * in the pool), by descriptors.  Clears each flag done; 0 when all went,
 * else -1. */
static int undo(const struct campaign *c, struct repl *r)
{
	const char *rm_fs[] = {"fs", "rm_data_pool", r->fs, r->pool, NULL};
	const char *rm_pool[] = {"osd",   "pool",
				 "rm",    r->pool,
				 r->pool, "--yes-i-really-really-mean-it",
				 NULL};

	if (r->dir_made) {
		const char *wd = ios_site_get(c->site, "workload", "dir");
		int fd = wd ? open(wd, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
		char why[PATH_MAX];

		if (fd < 0 ||
		    camp_rm_tree_at(fd, r->pool, NULL, why, sizeof(why)) < 0) {
			fprintf(stderr,
				PROG ": replication %u: remove %s: %s\n",
				r->factor, r->dir,
				fd < 0 ? strerror(errno) : why);
			if (fd >= 0)
				close(fd);
			return -1;
		}
		close(fd);
		r->dir_made = false;
		printf("replication %u: removed %s\n", r->factor, r->dir);
	}
	if (r->fs_added) {
		if (camp_ceph_do("ceph fs rm_data_pool", rm_fs) < 0)
			return -1;
		r->fs_added = false;
		printf("replication %u: pool %s no longer a data pool of %s\n",
		       r->factor, r->pool, r->fs);
	}
	if (r->pool_made) {
		if (camp_ceph_do(
			    "ceph osd pool rm (the monitors need mon_allow_pool_delete = true)",
			    rm_pool) < 0)
			return -1;
		r->pool_made = false;
		printf("replication %u: removed pool %s\n", r->factor, r->pool);
	}
	return 0;
}

/* ------------------------------------------------------------ make */

/* The directory of pool [pool]: WORKLOAD_DIR/POOL. */
static int repl_dir(const struct campaign *c, const char *pool, char *out,
		    size_t len)
{
	const char *wd = ios_site_get(c->site, "workload", "dir");

	if (!wd) {
		fprintf(stderr,
			PROG
			": replication: %s: [workload] dir: not set (the factors' directories go below it)\n",
			ios_site_path(c->site));
		return -1;
	}
	if (snprintf(out, len, "%s/%s", wd, pool) >= (int)len) {
		fprintf(stderr, PROG ": replication: %s/%s: path too long\n",
			wd, pool);
		return -1;
	}
	return 0;
}

/* [dir]'s layout pool equals [pool] (whose id is [id])?  0 yes; -1 said.
 * A client whose OSD map does not have a pool made a moment ago yet names
 * it by its id: that id is the pool too. */
static int check_layout(const char *dir, const char *pool, long long id,
			unsigned factor)
{
	char v[256], *end;
	ssize_t n = getxattr(dir, LAYOUT_XATTR, v, sizeof(v) - 1);

	if (n < 0) {
		fprintf(stderr,
			PROG ": replication %u: read " LAYOUT_XATTR
			     " of %s: %s (is it on CephFS?)\n",
			factor, dir, strerror(errno));
		return -1;
	}
	v[n] = '\0';
	if (id >= 0 && n > 0 && v[0] >= '0' && v[0] <= '9' &&
	    strtoll(v, &end, 10) == id && !*end)
		return 0;
	if (strcmp(v, pool)) {
		fprintf(stderr,
			PROG
			": replication %u: %s: its layout pool is \"%s\", not \"%s\": remove the directory or choose another [sweep] replication_pool\n",
			factor, dir, v, pool);
		return -1;
	}
	return 0;
}

/* Make what factor [r] lacks, recording each step in [all] ([n]). */
static int make_one(const struct campaign *c, struct repl *r,
		    const struct repl *all, size_t n, const char *id)
{
	uint64_t pg = CAMP_REPL_PG_NUM;
	char pgs[32], sz[16], msz[16];
	unsigned size = 0;
	long long pid = -1;
	bool has = false;
	int rc;

	ios_site_get_uint(c->site, "sweep", "replication_pg_num", &pg, NULL);
	snprintf(pgs, sizeof(pgs), "%llu", (unsigned long long)pg);
	snprintf(sz, sizeof(sz), "%u", r->factor);
	/* Ceph's own default: size - size / 2 copies must be up for I/O */
	snprintf(msz, sizeof(msz), "%u", r->factor - r->factor / 2);
	if ((rc = pool_size(r->pool, &size, &pid)) < 0)
		return -1;
	if (rc == 1) {
		const char *create[] = {"osd", "pool", "create", r->pool,
					pgs,   pgs,    NULL};
		const char *set_size[] = {"osd",
					  "pool",
					  "set",
					  r->pool,
					  "size",
					  sz,
					  "--yes-i-really-mean-it",
					  NULL};
		const char *set_min[] = {"osd",      "pool", "set", r->pool,
					 "min_size", msz,    NULL};

		/* cephfs first: `fs add_data_pool` refuses a pool whose
		 * only application is another */
		const char *fsapp[] = {"osd",
				       "pool",
				       "application",
				       "enable",
				       r->pool,
				       "cephfs",
				       "--yes-i-really-mean-it",
				       NULL};
		const char *app[] = {"osd",
				     "pool",
				     "application",
				     "enable",
				     r->pool,
				     CAMP_POOL_APP,
				     "--yes-i-really-mean-it",
				     NULL};
		const char *mark[] = {"osd",         "pool",  "application",
				      "set",         r->pool, CAMP_POOL_APP,
				      CAMP_POOL_KEY, id,      NULL};

		if (camp_ceph_do("ceph osd pool create", create) < 0)
			return -1;
		r->pool_made = true;
		/* the mark clean checks on the cluster before it removes the
		 * pool: this campaign made it */
		if (camp_ceph_do("ceph osd pool application enable cephfs",
				 fsapp) < 0 ||
		    camp_ceph_do("ceph osd pool application enable", app) < 0 ||
		    camp_ceph_do("ceph osd pool application set", mark) < 0 ||
		    record_write(c, all, n) < 0 ||
		    camp_ceph_do("ceph osd pool set size", set_size) < 0 ||
		    camp_ceph_do("ceph osd pool set min_size", set_min) < 0 ||
		    pool_size(r->pool, &size, &pid) != 0)
			return -1;
		printf("replication %u: created pool %s (size %u, min_size %s, pg_num %s)\n",
		       r->factor, r->pool, size, msz, pgs);
	}
	if (size != r->factor) {
		fprintf(stderr,
			PROG
			": replication %u: pool %s has size %u, not %u: remove it, set its size, or choose another [sweep] replication_pool\n",
			r->factor, r->pool, size, r->factor);
		return -1;
	}
	if (camp_repl_fs_of(r->pool, r->fs, sizeof(r->fs), &has) < 0)
		return -1;
	if (!has) {
		const char *add[] = {"fs", "add_data_pool", r->fs, r->pool,
				     NULL};

		if (camp_ceph_do("ceph fs add_data_pool", add) < 0)
			return -1;
		r->fs_added = true;
		if (record_write(c, all, n) < 0)
			return -1;
	}
	if (mkdir(r->dir, 0755) == 0) {
		r->dir_made = true;
		if (record_write(c, all, n) < 0)
			return -1;
		/* the mark clean checks before it removes the directory */
		if (lsetxattr(r->dir, CAMP_DIR_MARK, id, strlen(id), 0) < 0) {
			fprintf(stderr,
				PROG ": replication %u: set " CAMP_DIR_MARK
				     " of %s: %s\n",
				r->factor, r->dir, strerror(errno));
			return -1;
		}
		if (setxattr(r->dir, LAYOUT_XATTR, r->pool, strlen(r->pool),
			     0) < 0) {
			fprintf(stderr,
				PROG ": replication %u: set " LAYOUT_XATTR
				     " of %s to %s: %s\n",
				r->factor, r->dir, r->pool, strerror(errno));
			return -1;
		}
	} else if (errno != EEXIST) {
		fprintf(stderr, PROG ": replication %u: create %s: %s\n",
			r->factor, r->dir, strerror(errno));
		return -1;
	}
	if (check_layout(r->dir, r->pool, pid, r->factor) < 0)
		return -1;
	printf("replication %u: pool %s (size %u) in %s, directory %s\n",
	       r->factor, r->pool, size, r->fs, r->dir);
	return 0;
}

/* The distinct factors of the elements into [r]; their count. */
static size_t factors(const struct campaign *c, struct repl *r, size_t cap)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nel; i++) {
		size_t k;

		if (!c->el[i].replication)
			continue;
		for (k = 0; k < n; k++)
			if (r[k].factor == c->el[i].replication)
				break;
		if (k < n || n == cap)
			continue;
		memset(&r[n], 0, sizeof(r[n]));
		r[n].factor = c->el[i].replication;
		snprintf(r[n].pool, sizeof(r[n].pool), "%s", c->el[i].pool);
		n++;
	}
	return n;
}

int camp_repl_dir(const struct campaign *c, const struct camp_element *e,
		  char *out, size_t len)
{
	return repl_dir(c, e->pool, out, len);
}

int camp_repl_prepare(struct campaign *c)
{
	struct repl r[16], old[16];
	char id[CAMP_ID_LEN + 1];
	size_t n = factors(c, r, 16);
	int nold, rc = 0;
	size_t i;

	if (n == 0)
		return 0;
	if ((nold = record_read(c, old, 16)) < 0)
		return -1;
	if (camp_id(c, true, id, sizeof(id)) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (repl_dir(c, r[i].pool, r[i].dir, sizeof(r[i].dir)) < 0)
			return -1;
		/* an earlier submit (--resume) made it: still the campaign's */
		for (int k = 0; k < nold; k++)
			if (old[k].factor == r[i].factor &&
			    !strcmp(old[k].pool, r[i].pool)) {
				r[i].pool_made = old[k].pool_made;
				r[i].fs_added = old[k].fs_added;
				r[i].dir_made = old[k].dir_made;
			}
	}
	for (i = 0; i < n && rc == 0; i++)
		rc = make_one(c, &r[i], r, n, id);
	if (rc < 0) {
		/* nothing half-made: undo all this submit made, the made
		 * flags of earlier submits kept as they were */
		for (size_t k = 0; k < i && k < n; k++) {
			struct repl mine = r[k], was = {0};

			for (int o = 0; o < nold; o++)
				if (old[o].factor == r[k].factor)
					was = old[o];
			mine.pool_made &= !was.pool_made;
			mine.fs_added &= !was.fs_added;
			mine.dir_made &= !was.dir_made;
			if (undo(c, &mine) < 0)
				fprintf(stderr,
					PROG
					": replication %u: could not undo everything: what is left is in %s/" RECORD
					", remove it with `" PROG
					" clean %s %s`\n",
					r[k].factor, c->dir, c->site_arg,
					c->job);
			r[k].pool_made = was.pool_made || mine.pool_made;
			r[k].fs_added = was.fs_added || mine.fs_added;
			r[k].dir_made = was.dir_made || mine.dir_made;
		}
		record_write(c, r, n);
		return -1;
	}
	return record_write(c, r, n) < 0 ? -1 : 0;
}
