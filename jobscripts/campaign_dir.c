/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * campaign_dir: a campaign's directory (the site, the job, the elements
 * and their job ids in elements.tsv, written atomically), the argv lists
 * the submit builds and running them (camp_run_capture), the campaign's
 * id (DIR/campaign.id) and the removal of a tree by descriptors: what
 * submit, clean and the replication factors (campaign_repl.c) all use.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <glob.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include "campaign.h"
#include "safefile.h"
#include "siteconf.h"
#include "slurmcompat.h"
#include "units.h"

#include "campaign_internal.h"

/* ------------------------------------------------------------ argv */

int camp_argv_add(struct argv *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

int camp_argv_add(struct argv *a, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int rc;

	if (a->n + 2 > a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 32;
		char **v = realloc(a->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		a->v = v;
		a->cap = cap;
	}
	va_start(ap, fmt);
	rc = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (rc < 0)
		return -ENOMEM;
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
	return 0;
}

/* Split [s] on blanks into [a] (site [slurm] extra, element options). */
int camp_argv_split(struct argv *a, const char *s)
{
	char *copy = strdup(s ? s : ""), *tok, *save = NULL;
	int rc = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, " \t", &save); tok && !rc;
	     tok = strtok_r(NULL, " \t", &save))
		rc = camp_argv_add(a, "%s", tok);
	free(copy);
	return rc;
}

void camp_argv_free(struct argv *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	memset(a, 0, sizeof(*a));
}

/* Shell-quote for display (dry run, the campaign's record). */
void camp_print_quoted(FILE *fp, char *const *v)
{
	for (size_t i = 0; v[i]; i++) {
		const char *p = v[i];
		bool plain = *p != '\0';

		for (; *p; p++)
			if (!isalnum((unsigned char)*p) &&
			    !strchr("-_=./,:%+@", *p))
				plain = false;
		if (i)
			fputc(' ', fp);
		if (plain) {
			fputs(v[i], fp);
			continue;
		}
		fputc('\'', fp);
		for (p = v[i]; *p; p++) {
			if (*p == '\'')
				fputs("'\\''", fp);
			else
				fputc(*p, fp);
		}
		fputc('\'', fp);
	}
	fputc('\n', fp);
}

/* ------------------------------------------------------------ campaign */

int camp_mkdir_p(const char *path)
{
	char buf[PATH_MAX];
	size_t len = strlen(path);

	if (len >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

/* Write [text] to DIR/[name] via a new temporary file, fsync and rename
 * (safefile: a symlink planted at either name is never followed).
 * Returns 0 or a negative errno, also left in errno. */
int camp_write_atomic(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX + 64];
	int rc;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    (int)sizeof(path))
		rc = -ENAMETOOLONG;
	else
		rc = sf_write(path, text, strlen(text), SF_SYNC, NULL);
	if (rc < 0)
		errno = -rc;
	return rc;
}

int camp_open(struct campaign *c, const char *site_arg, const char *job,
	      const char *dir)
{
	struct ios_err err = {0};
	const char *root = getenv("IOSTRATA_CAMPAIGNS");
	const char *name;
	int rc;

	c->site_arg = site_arg;
	c->job = job;
	if (!camp_job_known(job)) {
		fprintf(stderr,
			PROG ": job \"%s\": unknown job: accepted: " CAMP_JOBS
			     "\n",
			job);
		return -EINVAL;
	}
	rc = ios_site_load(site_arg, &c->site, &err);
	if (rc < 0) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		return rc;
	}
	if (!realpath(ios_site_path(c->site), c->site_abs))
		snprintf(c->site_abs, sizeof(c->site_abs), "%s",
			 ios_site_path(c->site));
	name = ios_site_get(c->site, "site", "name");
	{
		char rel[PATH_MAX], cwd[PATH_MAX / 2];

		if (dir)
			snprintf(rel, sizeof(rel), "%s", dir);
		else
			snprintf(rel, sizeof(rel), "%s/%s-%s",
				 root && *root ? root : "campaigns",
				 name ? name : "site", job);
		/* jobs run elsewhere: always an absolute path */
		if (rel[0] != '/' && getcwd(cwd, sizeof(cwd)))
			snprintf(c->dir, sizeof(c->dir), "%s/%.*s", cwd,
				 (int)(sizeof(c->dir) - sizeof(cwd) - 2), rel);
		else
			snprintf(c->dir, sizeof(c->dir), "%s", rel);
	}
	rc = camp_plan(c->site, job, &c->el, &c->nel, &err);
	if (rc < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return rc;
	}
	return 0;
}

/*
 * The directory holds what clean acts on with the caller's Ceph key
 * (replication.tsv: pools and directories to remove; datasets.tsv:
 * directories to delete) and the element directories the jobs write.  In a
 * shared current directory (the default is ./campaigns/SITE-JOB) a
 * stranger could make it first and plant those records.
 */
int camp_dir_check(const char *dir)
{
	struct stat st;

	if (lstat(dir, &st) < 0) {
		if (errno == ENOENT)
			return 0;
		fprintf(stderr, PROG ": campaign directory %s: %s\n", dir,
			strerror(errno));
		return -errno;
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr,
			PROG
			": campaign directory %s is not a directory (a symlink?): refused (accepted: a directory of yours, or --campaign=DIR)\n",
			dir);
		return -ENOTDIR;
	}
	if (st.st_uid != geteuid()) {
		fprintf(stderr,
			PROG
			": campaign directory %s belongs to uid %u, not to you (uid %u): refused, as its records say what clean removes (accepted: a directory of yours, or --campaign=DIR)\n",
			dir, (unsigned)st.st_uid, (unsigned)geteuid());
		return -EPERM;
	}
	if (st.st_mode & S_IWOTH) {
		fprintf(stderr,
			PROG
			": campaign directory %s is writable by others (mode %04o): refused, as anyone could plant its records (chmod o-w it)\n",
			dir, (unsigned)(st.st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

void camp_close(struct campaign *c)
{
	ios_site_free(c->site);
	camp_elements_free(c->el, c->nel);
}

/*
 * Read DIR/elements.tsv (written by submit): fills jobid of each element.
 * Returns the number of elements recorded, 0 when the file does not exist,
 * -ESTALE (said) when a recorded element is not the plan's element of that
 * index: the site's sweep was changed after submit (another list, or a
 * version that plans the unconstrained baseline elements), and status,
 * --resume or clean would otherwise take one element's records and
 * directory for another's.
 */
int camp_read_jobids(struct campaign *c)
{
	char path[PATH_MAX + 64], line[1024];
	FILE *fp;
	int n = 0, stale = 0;

	snprintf(path, sizeof(path), "%s/elements.tsv", c->dir);
	fp = fopen(path, "re");
	if (!fp)
		return errno == ENOENT ? 0 : -errno;
	while (fgets(line, sizeof(line), fp)) {
		unsigned idx, jobid;
		char label[128];

		if (line[0] == '#')
			continue;
		if (sscanf(line, "%u\t%127s\t%u", &idx, label, &jobid) != 3)
			continue;
		if (idx < c->nel && strcmp(c->el[idx].label, label) == 0) {
			c->el[idx].jobid = jobid;
			n++;
		} else if (!stale++) {
			fprintf(stderr,
				PROG
				": %s: element %u was submitted as %s, but the site's plan now has %s%s at that index: the campaign was planned otherwise (the site's [sweep] changed since submit; campaigns submitted before the unconstrained baseline elements are planned as before with [sweep] baseline = none): refused, nothing read, submitted or removed (accepted: the site as it was at submit, or --campaign=DIR for a new campaign)\n",
				c->dir, idx, label,
				idx < c->nel ? c->el[idx].label : "no element",
				idx < c->nel ? "" : " (fewer elements)");
		}
	}
	fclose(fp);
	return stale ? -ESTALE : n;
}

int camp_write_jobids(const struct campaign *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int rc;

	if (!m)
		return -ENOMEM;
	fprintf(m, "# index\tlabel\tjobid\toptions\n");
	for (size_t i = 0; i < c->nel; i++)
		fprintf(m, "%d\t%s\t%u\t%s\n", c->el[i].index, c->el[i].label,
			c->el[i].jobid, c->el[i].options);
	fclose(m);
	rc = camp_write_atomic(c->dir, "elements.tsv", buf);
	free(buf);
	return rc;
}

int camp_load_recorded(struct campaign *c)
{
	int n = camp_read_jobids(c);

	if (n == -ESTALE) /* said */
		return -1;
	if (n < 0) {
		fprintf(stderr, PROG ": read %s/elements.tsv: %s\n", c->dir,
			strerror(-n));
		return -1;
	}
	if (n == 0) {
		fprintf(stderr,
			PROG
			": %s: no campaign here (no elements.tsv): run `" PROG
			" submit %s %s` first\n",
			c->dir, c->site_arg, c->job);
		return -1;
	}
	return n;
}

/* ------------------------------------------------------------ run */

int camp_run_capture(char *const *argv, char *out, size_t len, bool first_line)
{
	int pfd[2], status;
	pid_t pid;
	ssize_t n;
	size_t got = 0;

	if (pipe(pfd) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -errno;
	}
	if (pid == 0) {
		dup2(pfd[1], 1);
		close(pfd[0]);
		close(pfd[1]);
		execvp(argv[0], argv);
		fprintf(stderr, PROG ": exec %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	for (;;) {
		char sink[512];
		char *to = out && got + 1 < len ? out + got : sink;
		size_t room =
			out && got + 1 < len ? len - got - 1 : sizeof(sink);

		n = read(pfd[0], to, room);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (to != sink)
			got += (size_t)n;
	}
	if (out && len)
		out[got] = '\0';
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (out && len && first_line)
		out[strcspn(out, "\n")] = '\0';
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* ------------------------------------------------------------ id */

#define ID_FILE "campaign.id"
#define ID_MAGIC "iostrata-campaign-id 1"

int camp_id(const struct campaign *c, bool create, char *id, size_t len)
{
	char buf[160], hex[CAMP_ID_LEN + 1], extra;
	unsigned long long dev, ino;
	struct stat ds, st;
	ssize_t n;
	int dfd, fd, rc = -1;

	dfd = open(c->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0 || fstat(dfd, &ds) < 0) {
		fprintf(stderr, PROG ": campaign %s: %s\n", c->dir,
			strerror(errno));
		if (dfd >= 0)
			close(dfd);
		return -1;
	}
	fd = openat(dfd, ID_FILE, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && create) {
		unsigned char r[CAMP_ID_LEN / 2];

		if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r)) {
			fprintf(stderr, PROG ": campaign id: getrandom: %s\n",
				strerror(errno));
			close(dfd);
			return -1;
		}
		for (size_t i = 0; i < sizeof(r); i++)
			snprintf(hex + 2 * i, 3, "%02x", r[i]);
		n = snprintf(buf, sizeof(buf), ID_MAGIC " %llu:%llu %s\n",
			     (unsigned long long)ds.st_dev,
			     (unsigned long long)ds.st_ino, hex);
		fd = openat(dfd, ID_FILE,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				    O_CLOEXEC,
			    0444);
		if (fd < 0 || write(fd, buf, (size_t)n) != n || fsync(fd) < 0) {
			fprintf(stderr,
				PROG ": campaign id: create %s/" ID_FILE
				     ": %s\n",
				c->dir, strerror(errno));
			if (fd >= 0)
				close(fd);
			close(dfd);
			return -1;
		}
		close(fd);
		close(dfd);
		snprintf(id, len, "%s", hex);
		return 0;
	}
	if (fd < 0) {
		fprintf(stderr,
			PROG
			": campaign id: %s/" ID_FILE
			": %s (submit makes it with the first pool; without it nothing made for [sweep] replication is removed)\n",
			c->dir, strerror(errno));
		close(dfd);
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || st.st_nlink != 1 ||
	    (st.st_mode & (S_IWGRP | S_IWOTH))) {
		fprintf(stderr,
			PROG
			": campaign id: %s/" ID_FILE
			" is not trusted (uid %u, mode %04o, %u link(s); accepted: a regular file of yours, one link, writable by nobody else): not used\n",
			c->dir, (unsigned)st.st_uid,
			(unsigned)(st.st_mode & 07777), (unsigned)st.st_nlink);
		goto out;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	if (n <= 0 ||
	    sscanf(buf, ID_MAGIC " %llu:%llu %32[0-9a-f]%c", &dev, &ino, hex,
		   &extra) != 4 ||
	    extra != '\n' || strlen(hex) != CAMP_ID_LEN ||
	    dev != (unsigned long long)ds.st_dev ||
	    ino != (unsigned long long)ds.st_ino) {
		fprintf(stderr,
			PROG ": campaign id: %s/" ID_FILE
			     " is not this campaign directory's id: not used\n",
			c->dir);
		goto out;
	}
	snprintf(id, len, "%s", hex);
	rc = 0;
out:
	close(fd);
	close(dfd);
	return rc;
}

/* ------------------------------------------------------------ removal */

/* Remove every entry of the directory [fd], never following a link.
 * 0, or -1 with [err] set. */
static int rm_contents(int fd, char *err, size_t elen)
{
	int dup_fd = dup(fd);
	DIR *d = dup_fd < 0 ? NULL : fdopendir(dup_fd);
	struct dirent *e;
	int rc = 0;

	if (!d) {
		snprintf(err, elen, "read the directory: %s", strerror(errno));
		if (dup_fd >= 0)
			close(dup_fd);
		return -1;
	}
	while (!rc && (e = readdir(d))) {
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			if (errno == ENOENT)
				continue;
			snprintf(err, elen, "%s: %s", e->d_name,
				 strerror(errno));
			rc = -1;
		} else if (S_ISDIR(st.st_mode)) {
			int sub = openat(fd, e->d_name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
						 O_CLOEXEC);

			if (sub < 0) {
				snprintf(err, elen, "%s: %s", e->d_name,
					 strerror(errno));
				rc = -1;
				continue;
			}
			rc = rm_contents(sub, err, elen);
			close(sub);
			if (!rc && unlinkat(fd, e->d_name, AT_REMOVEDIR) < 0) {
				snprintf(err, elen, "%s: %s", e->d_name,
					 strerror(errno));
				rc = -1;
			}
		} else if (unlinkat(fd, e->d_name, 0) < 0) {
			snprintf(err, elen, "%s: %s", e->d_name,
				 strerror(errno));
			rc = -1;
		}
	}
	closedir(d);
	return rc;
}

int camp_rm_tree_at(int parent, const char *name, const char *id, char *why,
		    size_t wlen)
{
	struct stat a, b;
	char mark[CAMP_ID_LEN + 8], err[PATH_MAX];
	ssize_t n;
	int fd, rc;

	if (fstatat(parent, name, &a, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno == ENOENT)
			return 1;
		snprintf(why, wlen, "%s", strerror(errno));
		return -1;
	}
	if (!S_ISDIR(a.st_mode)) {
		snprintf(why, wlen, "not a directory (a symlink?)");
		return -2;
	}
	if (a.st_uid != geteuid()) {
		snprintf(why, wlen, "belongs to uid %u, not to you (uid %u)",
			 (unsigned)a.st_uid, (unsigned)geteuid());
		return -2;
	}
	fd = openat(parent, name,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &b) < 0 || b.st_dev != a.st_dev ||
	    b.st_ino != a.st_ino) {
		snprintf(why, wlen, "changed while being checked%s%s",
			 fd < 0 ? ": " : "", fd < 0 ? strerror(errno) : "");
		if (fd >= 0)
			close(fd);
		return -2;
	}
	if (id) {
		n = fgetxattr(fd, CAMP_DIR_MARK, mark, sizeof(mark) - 1);
		mark[n > 0 ? n : 0] = '\0';
		if (n < 0 || strcmp(mark, id)) {
			snprintf(why, wlen,
				 "not marked as this campaign's (" CAMP_DIR_MARK
				 " %s)",
				 n < 0 ? "absent" : "of another campaign");
			close(fd);
			return -2;
		}
	}
	rc = rm_contents(fd, err, sizeof(err));
	close(fd);
	if (rc < 0 || unlinkat(parent, name, AT_REMOVEDIR) < 0) {
		snprintf(why, wlen, "%s", rc < 0 ? err : strerror(errno));
		return -1;
	}
	return 0;
}
