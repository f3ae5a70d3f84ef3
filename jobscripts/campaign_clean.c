/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * campaign_clean: `iostrata-campaign clean`.  It removes only what it can
 * derive itself from the site and the campaign: per [sweep] replication
 * factor the pool PREFIX-rN and the directory WORKLOAD_DIR/PREFIX-rN, and
 * the shared datasets ROOT/iostrata-datasets/CAMPAIGN/KEY (ROOT the
 * workload directory or a factor's).  The records (replication.tsv,
 * datasets.tsv) sit in a directory a team may share (2770): a line is at
 * most a hint, checked against that derivation, and a line that names
 * anything else is refused by file and line, nothing of it removed.  A
 * pool goes only when the cluster says the campaign made it (application
 * "iostrata", key "campaign" = this campaign's id, set at creation), a
 * directory only when it is the caller's, reached without a symlink and
 * (a factor's) marked with the id too; removal walks by descriptors.
 *
 * The id: DIR/campaign.id, made by the first submit that creates a pool
 * ("iostrata-campaign-id 1 DEV:INO HEX", DEV:INO the campaign directory's,
 * HEX 128 random bits).  Trusted only as the caller's own regular file
 * with one link, writable by nobody else, naming this very directory: a
 * group member can delete it (then nothing is removed) but cannot forge
 * it, nor move another campaign's id in.
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
#include <unistd.h>

#include <jansson.h>

#include "campaign.h"
#include "siteconf.h"

#include "campaign_internal.h"

#define REPL_RECORD "replication.tsv"
#define DATASETS "datasets.tsv"
#define DATASETS_DIR "iostrata-datasets"
/* a record line longer than this is refused */
#define LINE_MAX_LEN (PATH_MAX + 256)
/* a record file larger than this is refused whole */
#define RECORD_MAX (1 << 20)

/* ------------------------------------------------------------ walk */

/* Open [root] (the site's own path, followed) and then each of [comp]
 * ([n]) below it without following a link: the last directory's fd, or
 * -1 with [why] set (*gone when a component does not exist). */
static int walk(const char *root, const char *const *comp, size_t n, bool *gone,
		char *why, size_t wlen)
{
	int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	*gone = false;
	if (fd < 0) {
		*gone = errno == ENOENT;
		snprintf(why, wlen, "%s: %s", root, strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		int next =
			openat(fd, comp[i],
			       O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

		if (next < 0) {
			*gone = errno == ENOENT;
			snprintf(why, wlen, "%s: %s", comp[i],
				 errno == ELOOP || errno == ENOTDIR
					 ? "a symlink or not a directory"
					 : strerror(errno));
			close(fd);
			return -1;
		}
		close(fd);
		fd = next;
	}
	return fd;
}

/* ------------------------------------------------------------ records */

/* One line of a record: its number, text (NUL-terminated), and the
 * checker's answer. */
typedef const char *(*line_fn)(int no, char *line, void *arg, char *why,
			       size_t wlen);

/*
 * Each line of DIR/[name] (opened without following a link) to [fn],
 * comments and blank lines skipped; a NUL byte, an overlong line or [fn]'s
 * refusal is said as "FILE:LINE: why" and counted.  Returns the count
 * refused, or -1 when the file cannot be read as a whole (said; *absent
 * when it does not exist).
 */
static int each_line(const struct campaign *c, const char *name, line_fn fn,
		     void *arg, bool *absent)
{
	char path[PATH_MAX + 32], why[PATH_MAX + 256], *buf;
	struct stat st;
	int dfd, fd, bad = 0, no = 0;
	size_t got = 0;

	*absent = false;
	snprintf(path, sizeof(path), "%s/%s", c->dir, name);
	dfd = open(c->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	fd = dfd < 0 ? -1
		     : openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd >= 0)
		close(dfd);
	if (fd < 0) {
		if (errno == ENOENT) {
			*absent = true;
			return 0;
		}
		fprintf(stderr, PROG ": clean: %s: %s: refused\n", path,
			errno == ELOOP ? "a symlink" : strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size > RECORD_MAX) {
		fprintf(stderr,
			PROG
			": clean: %s: not a regular file of at most %d bytes: refused, nothing it lists removed\n",
			path, RECORD_MAX);
		close(fd);
		return -1;
	}
	buf = malloc((size_t)st.st_size + 1);
	while (buf && got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);

		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (!buf) {
		fprintf(stderr, PROG ": clean: %s: out of memory\n", path);
		return -1;
	}
	for (size_t at = 0; at < got;) {
		char *p = buf + at, *nl = memchr(p, '\n', got - at);
		size_t len = nl ? (size_t)(nl - p) : got - at;
		const char *no_why = NULL;

		at += len + 1;
		no++;
		p[len] = '\0';
		why[0] = '\0';
		if (memchr(p, '\0', len))
			no_why = "a NUL byte in the line";
		else if (len > LINE_MAX_LEN)
			no_why = "line too long";
		else if (len == 0 || p[0] == '#')
			continue;
		else
			no_why = fn(no, p, arg, why, sizeof(why));
		if (!no_why)
			continue;
		fprintf(stderr,
			PROG
			": clean: %s:%d: %s%s%s: refused, nothing of this record removed\n",
			path, no, no_why, why[0] ? ": " : "", why);
		bad++;
	}
	free(buf);
	return bad;
}

/* Split [line] at tabs into exactly [n] fields: true, else false. */
static bool fields(char *line, char **f, size_t n)
{
	size_t k = 0;

	for (char *p = line;; p++) {
		if (k == n)
			return false;
		f[k++] = p;
		p = strchr(p, '\t');
		if (!p)
			break;
		*p = '\0';
	}
	return k == n;
}

/* Does [path] have a ".." component (trailing too)? */
static bool has_dotdot(const char *path)
{
	for (const char *p = path; (p = strstr(p, "..")); p += 2)
		if ((p == path || p[-1] == '/') && (p[2] == '/' || !p[2]))
			return true;
	return false;
}

/* A single safe name component: [A-Za-z0-9._+-], not "." or "..". */
static bool safe_component(const char *s)
{
	if (!*s || !strcmp(s, ".") || !strcmp(s, "..") || strlen(s) > 255)
		return false;
	return strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			 "0123456789._+-") == strlen(s);
}

/* ------------------------------------------------------------ derivation */

/* What the campaign derives for one replication factor. */
struct factor {
	unsigned n;
	const char *pool;
	char dir[PATH_MAX];
	int line; /* its record's line, 0: none yet */
	bool pool_made, fs_added, dir_made;
	char fs[128];
};

struct derived {
	const struct campaign *c;
	const char *wdir; /* [workload] dir, NULL: not set */
	const char *name; /* the campaign directory's last component */
	struct factor f[16];
	size_t nf;
	/* datasets.tsv: the lines accepted, root 0 the workload directory,
	 * 1+i factor i's */
	struct dataset {
		char key[256];
		int line, root;
	} * ds;
	size_t nds, cap;
};

static int derive(const struct campaign *c, struct derived *d)
{
	memset(d, 0, sizeof(*d));
	d->c = c;
	d->wdir = ios_site_get(c->site, "workload", "dir");
	d->name = strrchr(c->dir, '/') ? strrchr(c->dir, '/') + 1 : c->dir;
	for (size_t i = 0; i < c->nel; i++) {
		const struct camp_element *e = &c->el[i];
		size_t k;

		if (!e->replication)
			continue;
		for (k = 0; k < d->nf; k++)
			if (d->f[k].n == e->replication)
				break;
		if (k < d->nf || d->nf == 16)
			continue;
		d->f[k].n = e->replication;
		d->f[k].pool = e->pool;
		if (camp_repl_dir(c, e, d->f[k].dir, sizeof(d->f[k].dir)) < 0)
			return -1;
		d->nf++;
	}
	return 0;
}

/* ------------------------------------------------------------ datasets */

/* Count one removal's answer [rc]: >0 refused, <0 left, 0 done. */
static void tally(int rc, int *refused, int *left, int *done)
{
	if (rc > 0)
		(*refused)++;
	else if (rc < 0)
		(*left)++;
	else
		(*done)++;
}

static const char *dataset_line(int no, char *line, void *arg, char *why,
				size_t wlen)
{
	struct derived *d = arg;
	char *f[2], want[PATH_MAX + 600];
	int root = -1;

	if (!fields(line, f, 2))
		return "not KEY<TAB>DIRECTORY (2 fields)";
	if (!safe_component(f[0])) {
		snprintf(why, wlen, "\"%.200s\"", f[0]);
		return "the key is not one name of [A-Za-z0-9._+-]";
	}
	if (has_dotdot(f[1])) {
		snprintf(why, wlen, "%.600s", f[1]);
		return "a '..' component";
	}
	for (size_t k = 0; k < d->nds; k++)
		if (!strcmp(d->ds[k].key, f[0])) {
			snprintf(why, wlen, "key %s already on line %d", f[0],
				 d->ds[k].line);
			return "a duplicate";
		}
	for (int r = 0; d->wdir && r <= (int)d->nf && root < 0; r++) {
		snprintf(want, sizeof(want), "%s/" DATASETS_DIR "/%s/%s",
			 r ? d->f[r - 1].dir : d->wdir, d->name, f[0]);
		if (!strcmp(want, f[1]))
			root = r;
	}
	if (root < 0) {
		snprintf(
			why, wlen,
			"%.600s (accepted: %.600s/" DATASETS_DIR
			"/%s/KEY, or the same below a replication factor's directory)",
			f[1], d->wdir ? d->wdir : "[workload] dir", d->name);
		return "not a dataset directory of this campaign";
	}
	if (d->nds == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 16;
		struct dataset *m = realloc(d->ds, cap * sizeof(*m));

		if (!m)
			return "out of memory";
		d->ds = m;
		d->cap = cap;
	}
	snprintf(d->ds[d->nds].key, sizeof(d->ds[0].key), "%s", f[0]);
	d->ds[d->nds].line = no;
	d->ds[d->nds++].root = root;
	return NULL;
}

/* Remove the dataset [key] below root [r] (accepted line [no] of [path]):
 * 0 removed or absent, 1 refused, -1 failed; said. */
static int dataset_rm(const struct derived *d, const char *path, int no,
		      const char *key, int r)
{
	const char *comp[3] = {d->f[r > 0 ? r - 1 : 0].pool, DATASETS_DIR,
			       d->name};
	char why[PATH_MAX + 64], shown[PATH_MAX + 600];
	bool gone;
	int fd, rc;

	snprintf(shown, sizeof(shown), "%s/" DATASETS_DIR "/%s/%s",
		 r ? d->f[r - 1].dir : d->wdir, d->name, key);
	fd = walk(d->wdir, r ? comp : comp + 1, r ? 3 : 2, &gone, why,
		  sizeof(why));
	if (fd < 0) {
		if (gone) {
			printf("dataset %s: %s already gone\n", key, shown);
			return 0;
		}
		fprintf(stderr,
			PROG
			": clean: %s:%d: %s: %s: refused (reached only without a symlink), not removed\n",
			path, no, shown, why);
		return 1;
	}
	rc = camp_rm_tree_at(fd, key, NULL, why, sizeof(why));
	close(fd);
	if (rc == 0 || rc == 1) {
		printf("dataset %s: %s %s\n", key,
		       rc ? "already gone:" : "removed", shown);
		return 0;
	}
	fprintf(stderr, PROG ": clean: %s:%d: %s: %s: %s\n", path, no, shown,
		why, rc == -2 ? "refused, not removed" : "not fully removed");
	return rc == -2 ? 1 : -1;
}

/*
 * The datasets the elements shared ([workload] reuse_dataset = 1), each
 * line of DATASETS checked against the derivation; then the list and its
 * locks.  Adds to *refused and *left; said.
 */
static void clean_datasets(const struct derived *dd, int *refused, int *left)
{
	struct derived d = *dd;
	char path[PATH_MAX + 32];
	int bad, n = 0, dfd;
	bool absent;

	snprintf(path, sizeof(path), "%s/" DATASETS, d.c->dir);
	bad = each_line(d.c, DATASETS, dataset_line, &d, &absent);
	if (absent || bad < 0) {
		*refused += bad < 0;
		goto out;
	}
	*refused += bad;
	dfd = open(d.c->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	for (size_t k = 0; k < d.nds; k++) {
		int rc = dataset_rm(&d, path, d.ds[k].line, d.ds[k].key,
				    d.ds[k].root);

		tally(rc, refused, left, &n);
		/* the job scripts' lock and ready marks (a checked key) */
		for (int s = 0; !rc && s < 2 && dfd >= 0; s++) {
			char lock[300];

			snprintf(lock, sizeof(lock), "dataset.%s.%s",
				 d.ds[k].key, s ? "ready" : "lock");
			unlinkat(dfd, lock, 0);
		}
	}
	if (!bad && n == (int)d.nds && dfd >= 0 &&
	    unlinkat(dfd, DATASETS, 0) < 0 && errno != ENOENT)
		fprintf(stderr, PROG ": clean: remove %s: %s\n", path,
			strerror(errno));
	if (dfd >= 0)
		close(dfd);
	if (n)
		printf("campaign %s: removed %d dataset(s)\n", d.c->dir, n);
	if (n != (int)d.nds || bad)
		fprintf(stderr,
			PROG
			": clean %s: %zu dataset record(s) refused or not removed: see above; the list %s is kept\n",
			d.c->job, (size_t)bad + d.nds - (size_t)n, path);
out:
	free(d.ds);
}

/* ------------------------------------------------------------ replication */

static const char *repl_line(int no, char *line, void *arg, char *why,
			     size_t wlen)
{
	struct derived *d = arg;
	char *f[7], *end;
	unsigned long n;
	struct factor *x = NULL;

	if (!fields(line, f, 7))
		return "not FACTOR<TAB>POOL<TAB>0|1<TAB>FS<TAB>0|1<TAB>DIRECTORY<TAB>0|1 (7 fields)";
	errno = 0;
	n = strtoul(f[0], &end, 10);
	for (size_t k = 0; !errno && *f[0] && !*end && k < d->nf; k++)
		if (d->f[k].n == n)
			x = &d->f[k];
	if (!x) {
		snprintf(why, wlen, "\"%.40s\"", f[0]);
		return "not a replication factor of this campaign's plan";
	}
	for (int k = 2; k < 7; k += 2)
		if (strcmp(f[k], "0") && strcmp(f[k], "1"))
			return "a made flag is not 0 or 1";
	if (strcmp(f[1], x->pool)) {
		snprintf(why, wlen, "\"%.200s\" (accepted: %s)", f[1], x->pool);
		return "not the pool this campaign derives for the factor";
	}
	if (has_dotdot(f[5])) {
		snprintf(why, wlen, "%.600s", f[5]);
		return "a '..' component";
	}
	if (strcmp(f[5], x->dir)) {
		snprintf(why, wlen, "%.600s (accepted: %.600s)", f[5], x->dir);
		return "not the directory this campaign derives for the factor";
	}
	if (strcmp(f[3], "-") && !safe_component(f[3])) {
		snprintf(why, wlen, "\"%.200s\"", f[3]);
		return "not a file system name";
	}
	if (x->line) {
		snprintf(why, wlen, "factor %u already on line %d", x->n,
			 x->line);
		return "a duplicate";
	}
	x->line = no;
	x->pool_made = f[2][0] == '1';
	x->fs_added = f[4][0] == '1';
	x->dir_made = f[6][0] == '1';
	snprintf(x->fs, sizeof(x->fs), "%s", strcmp(f[3], "-") ? f[3] : "");
	return NULL;
}

/* The campaign's mark on [pool] (application "iostrata", key
 * "campaign") into [mark] ("" none): 0; 1 no such pool; -1 said. */
static int pool_mark(const char *pool, char *mark, size_t len)
{
	const char *args[] = {"osd", "pool",          "application", "get",
			      pool,  "--format=json", NULL};
	char out[8192];
	json_t *j, *v;
	int rc = camp_ceph(out, sizeof(out), args);

	mark[0] = '\0';
	if (rc == ENOENT)
		return 1;
	if (rc != 0) {
		fprintf(stderr,
			PROG
			": clean: ceph osd pool application get %s: exit %d (see above)\n",
			pool, rc);
		return -1;
	}
	j = json_loads(out, 0, NULL);
	if (!json_is_object(j)) {
		fprintf(stderr,
			PROG
			": clean: ceph osd pool application get %s: unexpected answer \"%.200s\"\n",
			pool, out);
		json_decref(j);
		return -1;
	}
	v = json_object_get(json_object_get(j, CAMP_POOL_APP), CAMP_POOL_KEY);
	if (json_is_string(v))
		snprintf(mark, len, "%s", json_string_value(v));
	json_decref(j);
	return 0;
}

/* The pool, CephFS entry and directory of factor [x] (its record line
 * accepted), each checked: 0 done, 1 something refused, -1 failed. */
static int factor_rm(const struct derived *d, const char *path,
		     struct factor *x, const char *id)
{
	char why[PATH_MAX + 64], mark[128];
	int rc = 0, r;

	if (x->dir_made) {
		bool gone;
		int fd = walk(d->wdir, NULL, 0, &gone, why, sizeof(why));

		r = fd < 0 ? (gone ? 1 : -1)
			   : camp_rm_tree_at(fd, x->pool, id, why, sizeof(why));
		if (fd >= 0)
			close(fd);
		if (r >= 0)
			printf("replication %u: %s %s\n", x->n,
			       r ? "already gone:" : "removed", x->dir);
		else {
			fprintf(stderr, PROG ": clean: %s:%d: %s: %s: %s\n",
				path, x->line, x->dir, why,
				r == -2 ? "refused, not removed"
					: "not fully removed");
			rc = r == -2 ? 1 : -1;
		}
	}
	if (!x->pool_made && !x->fs_added)
		return rc;
	r = pool_mark(x->pool, mark, sizeof(mark));
	if (r < 0)
		return -1;
	if (r == 1) {
		printf("replication %u: pool %s already gone\n", x->n, x->pool);
		return rc;
	}
	if (strcmp(mark, id)) {
		fprintf(stderr,
			PROG
			": clean: %s:%d: pool %s: not made by this campaign (its " CAMP_POOL_APP
			" " CAMP_POOL_KEY
			" mark is %s%s%s): refused, the pool and its CephFS entry left alone\n",
			path, x->line, x->pool, mark[0] ? "\"" : "absent", mark,
			mark[0] ? "\", another campaign's" : "");
		return 1;
	}
	if (x->fs_added) {
		bool has = false;
		char fs[128];

		if (camp_repl_fs_of(x->pool, fs, sizeof(fs), &has) < 0)
			return -1;
		if (has) {
			const char *rm_fs[] = {"fs", "rm_data_pool", fs,
					       x->pool, NULL};

			if (camp_ceph_do("ceph fs rm_data_pool", rm_fs) < 0)
				return -1;
			printf("replication %u: pool %s no longer a data pool of %s\n",
			       x->n, x->pool, fs);
		}
	}
	if (x->pool_made) {
		const char *rm_pool[] = {
			"osd",   "pool",  "rm",
			x->pool, x->pool, "--yes-i-really-really-mean-it",
			NULL};

		if (camp_ceph_do(
			    "ceph osd pool rm (the monitors need mon_allow_pool_delete = true)",
			    rm_pool) < 0)
			return -1;
		printf("replication %u: removed pool %s\n", x->n, x->pool);
	}
	return rc;
}

static void clean_repl(struct derived *d, int *refused, int *left)
{
	char path[PATH_MAX + 32], id[CAMP_ID_LEN + 1];
	bool absent, have_id;
	int bad, n = 0, dfd, r = 0, l = 0;

	snprintf(path, sizeof(path), "%s/" REPL_RECORD, d->c->dir);
	bad = each_line(d->c, REPL_RECORD, repl_line, d, &absent);
	if (absent) {
		printf("campaign %s: nothing recorded as made by it (no %s)\n",
		       d->c->dir, REPL_RECORD);
		return;
	}
	if (bad < 0) {
		(*refused)++;
		return;
	}
	r = bad;
	have_id = false;
	for (size_t k = 0; k < d->nf; k++) {
		const struct factor *x = &d->f[k];

		/* asked once, when an accepted line needs it */
		if (x->line && (x->pool_made || x->fs_added || x->dir_made)) {
			have_id = camp_id(d->c, false, id, sizeof(id)) == 0;
			break;
		}
	}
	for (int k = (int)d->nf - 1; k >= 0; k--) {
		struct factor *x = &d->f[k];

		if (!x->line)
			continue;
		if (!have_id && (x->pool_made || x->fs_added || x->dir_made)) {
			fprintf(stderr,
				PROG
				": clean: %s:%d: no trusted campaign id (above): the marks cannot be checked: refused, nothing of this record removed\n",
				path, x->line);
			r++;
			continue;
		}
		tally(factor_rm(d, path, x, id), &r, &l, &n);
	}
	*refused += r;
	*left += l;
	if (!r && !l) {
		dfd = open(d->c->dir,
			   O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (dfd < 0 ||
		    (unlinkat(dfd, REPL_RECORD, 0) < 0 && errno != ENOENT))
			fprintf(stderr, PROG ": clean: remove %s: %s\n", path,
				strerror(errno));
		if (dfd >= 0)
			close(dfd);
		printf("campaign %s: removed what it made for %d replication factor(s)\n",
		       d->c->dir, n);
	}
}

int camp_cmd_clean(struct campaign *c)
{
	struct derived d;
	int refused = 0, left = 0, n;

	n = camp_read_jobids(c);
	if (n == -ESTALE) /* said: which element is which is not known */
		return 2;
	if (n > 0)
		for (size_t i = 0; i < c->nel; i++) {
			enum camp_state st;

			if (!c->el[i].jobid)
				continue;
			st = camp_element_state(c->dir, &c->el[i]);
			if (st == CAMP_PENDING || st == CAMP_RUNNING) {
				fprintf(stderr,
					PROG
					": clean %s: element %d (%s, job %u) is %s: cancel it or wait; nothing removed\n",
					c->job, c->el[i].index, c->el[i].label,
					c->el[i].jobid, camp_state_name(st));
				return 1;
			}
		}
	if (derive(c, &d) < 0)
		return 2;
	/* first: the datasets may live in a factor's directory */
	clean_datasets(&d, &refused, &left);
	clean_repl(&d, &refused, &left);
	if (refused || left)
		fprintf(stderr,
			PROG
			": clean %s: %d record(s) refused, %d thing(s) not removed (see above); what was valid went; the records are kept in %s\n",
			c->job, refused, left, c->dir);
	return refused ? 2 : left ? 1 : 0;
}
