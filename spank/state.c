/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state: state directory, lock and journal (see state.h).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "state.h"

void snapshot_free(struct snapshot *s)
{
	free(s->cpu);
	free(s->mem);
	free(s->thr);
	free(s->ioen);
	free(s->omt);
	s->cpu = s->mem = NULL;
	s->thr = NULL;
	s->ioen = NULL;
	s->omt = NULL;
	s->n_cpu = s->n_mem = s->n_thr = s->n_ioen = s->n_omt = 0;
	s->jobcg[0] = '\0';
	memset(&s->mds, 0, sizeof(s->mds));
}

int snapshot_push_thr(struct snapshot *s, const struct snap_thr *t)
{
	struct snap_thr *nv = realloc(s->thr, (s->n_thr + 1) * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	s->thr = nv;
	nv[s->n_thr++] = *t;
	return 0;
}

static int check_dir(int fd, mode_t forbidden, const char *path,
		     struct ios_err *err)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return ios_errf(err, -errno, "iostrata: stat %s: %s", path,
				strerror(errno));
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & forbidden))
		return ios_errf(
			err, -EPERM,
			"iostrata: state directory %s: refused: must be a directory owned by uid %u with mode without %04o (owner %u, mode %04o)",
			path, (unsigned)geteuid(), (unsigned)forbidden,
			(unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
	return 0;
}

static int open_dir_at(int at, const char *name, bool create, mode_t mode)
{
	int fd;

	fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && create) {
		if (mkdirat(at, name, mode) < 0 && errno != EEXIST)
			return -errno;
		fd = openat(at, name,
			    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	return fd < 0 ? -errno : fd;
}

int state_open(struct state_dir *sd, const char *path, bool create,
	       struct ios_err *err)
{
	char parent[4096], *slash;
	const char *base;
	int pfd, rc;

	sd->dirfd = sd->jdirfd = -1;
	if (!path || path[0] != '/' || strlen(path) >= sizeof(sd->path) ||
	    strstr(path, "/.."))
		return ios_errf(
			err, -EINVAL,
			"iostrata: state directory \"%s\": must be an absolute path without \"..\"",
			path ? path : "");
	snprintf(sd->path, sizeof(sd->path), "%s", path);
	snprintf(parent, sizeof(parent), "%s", path);
	while (strlen(parent) > 1 && parent[strlen(parent) - 1] == '/')
		parent[strlen(parent) - 1] = '\0';
	slash = strrchr(parent, '/');
	base = slash + 1;
	if (slash == parent)
		pfd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	else {
		*slash = '\0';
		pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
	if (pfd < 0)
		return ios_errf(err, -errno, "iostrata: open %s: %s",
				slash == parent ? "/" : parent,
				strerror(errno));
	rc = open_dir_at(pfd, base, create, 0755);
	close(pfd);
	if (rc == -ENOTDIR)
		rc = -ELOOP; /* O_NOFOLLOW|O_DIRECTORY on a symlink */
	if (rc < 0)
		return ios_errf(err, rc,
				"iostrata: open state directory %s: %s", path,
				strerror(-rc));
	sd->dirfd = rc;
	rc = check_dir(sd->dirfd, 022, path, err);
	if (rc < 0)
		goto fail;
	rc = open_dir_at(sd->dirfd, "journal", create, 0700);
	if (rc == -ENOTDIR)
		rc = -ELOOP;
	if (rc < 0) {
		ios_errf(err, rc,
			 "iostrata: open state directory %s/journal: %s", path,
			 strerror(-rc));
		goto fail;
	}
	sd->jdirfd = rc;
	rc = check_dir(sd->jdirfd, 077, "journal", err);
	if (rc < 0)
		goto fail;
	return 0;
fail:
	state_close(sd);
	return rc;
}

void state_close(struct state_dir *sd)
{
	if (sd->jdirfd >= 0)
		close(sd->jdirfd);
	if (sd->dirfd >= 0)
		close(sd->dirfd);
	sd->dirfd = sd->jdirfd = -1;
}

int state_lock(struct state_dir *sd, int timeout_ms)
{
	struct timespec nap = {0, 10 * 1000 * 1000};
	int fd, waited = 0;

	fd = openat(sd->jdirfd, "lock",
		    O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno != EWOULDBLOCK && errno != EINTR) {
			int e = errno;

			close(fd);
			return -e;
		}
		if (waited >= timeout_ms) {
			close(fd);
			return -ETIMEDOUT;
		}
		nanosleep(&nap, NULL);
		waited += 10;
	}
	return fd;
}

void state_unlock(int fd)
{
	if (fd >= 0) {
		flock(fd, LOCK_UN);
		close(fd);
	}
}

bool state_valid_id(const char *id)
{
	size_t n = 0;

	if (!id || !*id || *id == '.')
		return false;
	for (; id[n]; n++)
		if (!(isalnum((unsigned char)id[n]) || id[n] == '_' ||
		      id[n] == '-' || id[n] == '.'))
			return false;
	return n < STATE_ID_MAX;
}

/* Write [data] to [name] in [dirfd]: temp, fsync, rename, fsync dir. */
static int write_atomic(int dirfd, const char *name, const char *data,
			size_t len, mode_t mode)
{
	char tmp[STATE_ID_MAX + 32];
	size_t off = 0;
	int fd, rc = 0;

	if (snprintf(tmp, sizeof(tmp), ".%s.tmp", name) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	if (unlinkat(dirfd, tmp, 0) < 0 && errno != ENOENT)
		return -errno;
	fd = openat(dirfd, tmp,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	if (fd < 0)
		return -errno;
	while (off < len) {
		ssize_t n = write(fd, data + off, len - off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			break;
		}
		off += (size_t)n;
	}
	if (rc == 0 && fchmod(fd, mode) < 0)
		rc = -errno;
	if (rc == 0 && fsync(fd) < 0)
		rc = -errno;
	if (close(fd) < 0 && rc == 0)
		rc = -errno;
	if (rc == 0 && renameat(dirfd, tmp, dirfd, name) < 0)
		rc = -errno;
	if (rc < 0) {
		unlinkat(dirfd, tmp, 0);
		return rc;
	}
	if (fsync(dirfd) < 0)
		return -errno;
	return 0;
}

/* Open a regular file we own in [dirfd] (no symlink) for reading. */
static int open_owned(int dirfd, const char *name)
{
	struct stat st;
	int fd;

	/* O_NONBLOCK: a FIFO planted here must not hang the reader. */
	fd = openat(dirfd, name,
		    O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || (st.st_mode & 022) ||
	    fcntl(fd, F_SETFL, 0) < 0) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

/* [cg] is exactly job [jobid]'s own blkio cgroup. */
static bool jobcg_ok(const char *jobid, const char *cg)
{
	char want[BLKIO_CG_MAX];

	return blkio_job_cgroup(jobid, want, sizeof(want)) == 0 &&
	       strcmp(want, cg) == 0;
}

int state_journal_write(struct state_dir *sd, const struct snapshot *s)
{
	char name[STATE_ID_MAX + 16];
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int rc;

	if (!state_valid_id(s->jobid))
		return -EINVAL;
	/* Never journal what the reader would refuse: the restore must be
	 * able to read it back. */
	for (size_t i = 0; i < s->n_thr; i++)
		if (blkio_check_cgroup(s->thr[i].cg, NULL) < 0)
			return -EINVAL;
	for (size_t i = 0; i < s->n_ioen; i++)
		if (blkio_check_cgroup_dir(s->ioen[i].cg, NULL) < 0)
			return -EINVAL;
	if (!state_valid_id(s->node) && strcmp(s->node, "-") != 0 && s->node[0])
		return -EINVAL;
	if (s->jobcg[0] && !jobcg_ok(s->jobid, s->jobcg))
		return -EINVAL;
	if (s->mds.id[0] && (!policy_valid_mds_id(s->mds.id) ||
			     !policy_valid_mds_cgroup(s->mds.cg)))
		return -EINVAL;
	f = open_memstream(&buf, &len);
	if (!f)
		return -ENOMEM;
	fprintf(f, "iostrata-journal 1\njob %s\nuid %u\nnode %s\ntime %lld\n",
		s->jobid, s->uid, s->node[0] ? s->node : "-", s->time);
	for (size_t i = 0; i < s->n_cpu; i++)
		fprintf(f, "cpu %d %d\n", s->cpu[i].id, s->cpu[i].online);
	fprintf(f, "memblock %" PRIu64 "\n", s->block_size);
	for (size_t i = 0; i < s->n_mem; i++)
		fprintf(f, "mem %d %d\n", s->mem[i].id, s->mem[i].online);
	for (size_t i = 0; i < s->n_thr; i++) {
		const struct snap_thr *t = &s->thr[i];

		fprintf(f,
			"thr %d %u:%u %" PRIu64 " %" PRIu64 " %" PRIu64
			" %" PRIu64 " %s\n",
			(int)t->ver, t->dev.maj, t->dev.min, t->lim.rbps,
			t->lim.wbps, t->lim.riops, t->lim.wiops, t->cg);
	}
	for (size_t i = 0; i < s->n_ioen; i++)
		fprintf(f, "ioen %s\n", s->ioen[i].cg);
	if (s->jobcg[0])
		fprintf(f, "jobcg %s\n", s->jobcg);
	if (s->n_omt || (s->mds.id[0] && s->mds.cache))
		fprintf(f, "ceph %s %s %d\n",
			s->ceph.path[0] ? s->ceph.path : "-",
			s->ceph.conf[0] ? s->ceph.conf : "-",
			s->ceph.timeout_ms);
	for (size_t i = 0; i < s->n_omt; i++)
		fprintf(f, "omt %d %d %" PRIu64 " %" PRIu64 "\n", s->omt[i].id,
			s->omt[i].explicit_old ? 1 : 0, s->omt[i].old_bytes,
			s->omt[i].new_bytes);
	if (s->mds.id[0]) {
		const struct snap_mds *m = &s->mds;

		fprintf(f, "mds %s %s\n", m->id, m->cg);
		if (m->cpu)
			fprintf(f,
				"mdscpu %d %" PRIu64 " %" PRIu64 " %" PRIu64
				"\n",
				m->cpu_ver, m->cpu_old, m->cpu_period,
				m->cpu_new);
		if (m->mem)
			fprintf(f, "mdsmem %d %" PRIu64 " %" PRIu64 "\n",
				m->mem_ver, m->mem_old, m->mem_new);
		if (m->cache)
			fprintf(f, "mdscache %d %" PRIu64 " %" PRIu64 "\n",
				m->cache_explicit_old ? 1 : 0, m->cache_old,
				m->cache_new);
	}
	fprintf(f, "end\n");
	if (fclose(f) != 0) {
		free(buf);
		return -ENOMEM;
	}
	snprintf(name, sizeof(name), "%s.state", s->jobid);
	rc = write_atomic(sd->jdirfd, name, buf, len, 0600);
	free(buf);
	return rc;
}

static int push_item(struct snap_item **v, size_t *n, int id, int on)
{
	struct snap_item *nv = realloc(*v, (*n + 1) * sizeof(**v));

	if (!nv)
		return -ENOMEM;
	*v = nv;
	nv[*n].id = id;
	nv[*n].online = on != 0;
	(*n)++;
	return 0;
}

/* A decimal number without sign, spaces or leading junk, at most [max]. */
static bool parse_dec(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		uint64_t d = (uint64_t)(*s - '0');

		if (d > max || v > (max - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

#define JOURNAL_LINE_MAX 1024
#define JOURNAL_ID_MAX 9999999 /* cpuN / memoryN (sysfs_parse_id) */
#define JOURNAL_MAX_TOK 9

/*
 * Split [line] at single spaces into at most JOURNAL_MAX_TOK words.
 * Returns the count, or -1 for an empty word (two spaces, a leading or
 * trailing space) or too many words.
 */
static int split_words(char *line, char **w)
{
	int n = 0;

	for (char *p = line;;) {
		char *sp = strchr(p, ' ');

		if (n == JOURNAL_MAX_TOK || (sp ? sp == p : !*p))
			return -1;
		w[n++] = p;
		if (!sp)
			return n;
		*sp = '\0';
		p = sp + 1;
	}
}

/* One journal line (not the first): 0, 1 for "end", -EINVAL, -ENOMEM. */
static int journal_line(struct snapshot *s, char *line, unsigned *seen)
{
	static const char *const hdr[] = {"job", "uid", "node", "time",
					  "memblock"};
	char *w[JOURNAL_MAX_TOK];
	int n = split_words(line, w);
	uint64_t a, b;

	if (n < 1)
		return -EINVAL;
	for (unsigned i = 0; i < sizeof(hdr) / sizeof(hdr[0]); i++)
		if (strcmp(w[0], hdr[i]) == 0) {
			if (n != 2 || (*seen & (1u << i)))
				return -EINVAL; /* repeated header line */
			*seen |= 1u << i;
		}
	if (strcmp(w[0], "end") == 0 && n == 1)
		return 1;
	if (strcmp(w[0], "job") == 0 && n == 2 && state_valid_id(w[1])) {
		snprintf(s->jobid, sizeof(s->jobid), "%s", w[1]);
		return 0;
	}
	if (strcmp(w[0], "node") == 0 && n == 2 &&
	    (strcmp(w[1], "-") == 0 || state_valid_id(w[1]))) {
		snprintf(s->node, sizeof(s->node), "%s", w[1]);
		return 0;
	}
	if (strcmp(w[0], "uid") == 0 && n == 2 &&
	    parse_dec(w[1], UINT32_MAX, &a)) {
		s->uid = (unsigned)a;
		return 0;
	}
	if (strcmp(w[0], "time") == 0 && n == 2 &&
	    parse_dec(w[1], INT64_MAX, &a)) {
		s->time = (long long)a;
		return 0;
	}
	if (strcmp(w[0], "memblock") == 0 && n == 2 &&
	    parse_dec(w[1], UINT64_C(1) << 40, &a)) {
		s->block_size = a;
		return 0;
	}
	if ((strcmp(w[0], "cpu") == 0 || strcmp(w[0], "mem") == 0) && n == 3 &&
	    parse_dec(w[1], JOURNAL_ID_MAX, &a) && parse_dec(w[2], 1, &b)) {
		if (w[0][0] == 'c')
			/* cpu0 is never hot-plugged (cpu.h) */
			return a == 0 ? -EINVAL
				      : push_item(&s->cpu, &s->n_cpu, (int)a,
						  (int)b);
		return push_item(&s->mem, &s->n_mem, (int)a, (int)b);
	}
	if (strcmp(w[0], "jobcg") == 0 && n == 2) {
		/* only the job's own path (after its "job" line) */
		if (!s->jobid[0] || s->jobcg[0] || !jobcg_ok(s->jobid, w[1]))
			return -EINVAL;
		memcpy(s->jobcg, w[1], strlen(w[1]) + 1);
		return 0;
	}
	if (strcmp(w[0], "ioen") == 0 && n == 2 &&
	    blkio_check_cgroup_dir(w[1], NULL) == 0) {
		struct snap_ioen *nv =
			realloc(s->ioen, (s->n_ioen + 1) * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		s->ioen = nv;
		memcpy(nv[s->n_ioen++].cg, w[1], strlen(w[1]) + 1);
		return 0;
	}
	if (strcmp(w[0], "ceph") == 0 && n == 4) {
		if ((strcmp(w[1], "-") != 0 && !policy_valid_file(w[1])) ||
		    (strcmp(w[2], "-") != 0 && !policy_valid_file(w[2])) ||
		    !parse_dec(w[3], 3600000, &a) || a == 0)
			return -EINVAL;
		snprintf(s->ceph.path, sizeof(s->ceph.path), "%s",
			 strcmp(w[1], "-") ? w[1] : "");
		snprintf(s->ceph.conf, sizeof(s->ceph.conf), "%s",
			 strcmp(w[2], "-") ? w[2] : "");
		s->ceph.timeout_ms = (int)a;
		return 0;
	}
	if (strcmp(w[0], "omt") == 0 && n == 5) {
		struct snap_omt o, *nv;
		uint64_t x;

		if (!parse_dec(w[1], JOURNAL_ID_MAX, &a) ||
		    !parse_dec(w[2], 1, &x) ||
		    !parse_dec(w[3], UINT64_MAX, &o.old_bytes) ||
		    !parse_dec(w[4], UINT64_MAX, &o.new_bytes))
			return -EINVAL;
		o.id = (int)a;
		o.explicit_old = x == 1;
		nv = realloc(s->omt, (s->n_omt + 1) * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		s->omt = nv;
		nv[s->n_omt++] = o;
		return 0;
	}
	if (strcmp(w[0], "mds") == 0 && n == 3) {
		/* once, before its mdscpu/mdsmem/mdscache lines */
		if (s->mds.id[0] || !policy_valid_mds_id(w[1]) ||
		    !policy_valid_mds_cgroup(w[2]))
			return -EINVAL;
		snprintf(s->mds.id, sizeof(s->mds.id), "%s", w[1]);
		snprintf(s->mds.cg, sizeof(s->mds.cg), "%s", w[2]);
		return 0;
	}
	if (strcmp(w[0], "mdscpu") == 0 && n == 5) {
		struct snap_mds *m = &s->mds;

		if (!m->id[0] || m->cpu || !parse_dec(w[1], 2, &a) || a < 1 ||
		    !parse_dec(w[2], UINT64_MAX, &m->cpu_old) ||
		    !parse_dec(w[3], 1000000, &m->cpu_period) ||
		    m->cpu_period < 1000 ||
		    !parse_dec(w[4], UINT64_MAX, &m->cpu_new))
			return -EINVAL;
		m->cpu_ver = (int)a;
		m->cpu = true;
		return 0;
	}
	if (strcmp(w[0], "mdsmem") == 0 && n == 4) {
		struct snap_mds *m = &s->mds;

		if (!m->id[0] || m->mem || !parse_dec(w[1], 2, &a) || a < 1 ||
		    !parse_dec(w[2], UINT64_MAX, &m->mem_old) ||
		    !parse_dec(w[3], UINT64_MAX, &m->mem_new))
			return -EINVAL;
		m->mem_ver = (int)a;
		m->mem = true;
		return 0;
	}
	if (strcmp(w[0], "mdscache") == 0 && n == 4) {
		struct snap_mds *m = &s->mds;

		if (!m->id[0] || m->cache || !parse_dec(w[1], 1, &a) ||
		    !parse_dec(w[2], UINT64_MAX, &m->cache_old) ||
		    !parse_dec(w[3], UINT64_MAX, &m->cache_new))
			return -EINVAL;
		m->cache_explicit_old = a == 1;
		m->cache = true;
		return 0;
	}
	if (strcmp(w[0], "thr") == 0 && n == 8) {
		struct snap_thr t;
		uint64_t ver;

		memset(&t, 0, sizeof(t));
		if (!parse_dec(w[1], 2, &ver) || ver < 1 ||
		    blkio_parse_devnum(w[2], &t.dev) < 0 ||
		    !parse_dec(w[3], UINT64_MAX, &t.lim.rbps) ||
		    !parse_dec(w[4], UINT64_MAX, &t.lim.wbps) ||
		    !parse_dec(w[5], UINT64_MAX, &t.lim.riops) ||
		    !parse_dec(w[6], UINT64_MAX, &t.lim.wiops) ||
		    blkio_check_cgroup(w[7], NULL) < 0)
			return -EINVAL;
		t.ver = (enum blkio_ver)ver;
		memcpy(t.cg, w[7], strlen(w[7]) + 1); /* fits: checked */
		return snapshot_push_thr(s, &t);
	}
	return -EINVAL;
}

int state_journal_read(struct state_dir *sd, const char *jobid,
		       struct snapshot *s, struct ios_err *err)
{
	char name[STATE_ID_MAX + 16], *line = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned lineno = 0, seen = 0;
	bool ended = false;
	FILE *f;
	int fd, rc = 0;

	memset(s, 0, sizeof(*s));
	if (!state_valid_id(jobid))
		return ios_errf(err, -EINVAL, "iostrata: invalid job id \"%s\"",
				jobid);
	snprintf(name, sizeof(name), "%s.state", jobid); /* fits: valid id */
	fd = open_owned(sd->jdirfd, name);
	if (fd < 0)
		return fd == -ENOENT
			       ? fd
			       : ios_errf(
					 err, fd,
					 "iostrata: open journal %s/journal/%s: %s",
					 sd->path, name, strerror(-fd));
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return -ENOMEM;
	}
	while ((len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		/* Every line as written: one "\n" at its end, no NUL, not
		 * overlong, nothing after "end". */
		if (len == 0 || line[len - 1] != '\n' ||
		    len > JOURNAL_LINE_MAX || strlen(line) != (size_t)len ||
		    ended) {
			rc = -EINVAL;
			break;
		}
		line[len - 1] = '\0';
		if (lineno == 1) {
			if (strcmp(line, "iostrata-journal 1") != 0) {
				rc = -EINVAL;
				break;
			}
			continue;
		}
		rc = journal_line(s, line, &seen);
		if (rc == 1) {
			ended = true;
			rc = 0;
		}
		if (rc < 0)
			break;
	}
	free(line);
	if (rc == 0 && ferror(f))
		rc = -EIO;
	fclose(f);
	if (rc == 0 && (!ended || strcmp(s->jobid, jobid) != 0)) {
		lineno++;
		rc = -EINVAL;
	}
	/* Ceph values to restore (omt, mdscache) without a "ceph" line:
	 * the CLI as the policy's defaults run it ("ceph" in PATH, Ceph's
	 * configuration, 30 s), which the writer then writes out, so that
	 * what is read writes back the same (a timeout of 0 it would write
	 * is refused by the reader) */
	if (rc == 0 && (s->n_omt || s->mds.cache) && s->ceph.timeout_ms == 0)
		s->ceph.timeout_ms = POLICY_DEFAULT_CEPH_TIMEOUT_MS;
	if (rc == -EINVAL || rc == -EIO) {
		snapshot_free(s);
		return ios_errf(
			err, -EINVAL,
			"iostrata: journal %s/journal/%s:%u: corrupt or truncated",
			sd->path, name, lineno);
	}
	if (rc < 0)
		snapshot_free(s);
	return rc;
}

int state_journal_remove(struct state_dir *sd, const char *jobid)
{
	char name[STATE_ID_MAX + 16];

	if (!state_valid_id(jobid))
		return -EINVAL;
	snprintf(name, sizeof(name), "%s.state", jobid);
	if (unlinkat(sd->jdirfd, name, 0) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (fsync(sd->jdirfd) < 0)
		return -errno;
	return 0;
}

/* Ids of the files "<id><suffix>" in [dirfd] for any of the NULL-ended
 * [suffixes], each id once. */
static int list_ids(int dirfd, const char *const *suffixes, char ***ids,
		    size_t *n)
{
	struct dirent *de;
	char **v = NULL;
	size_t k = 0;
	DIR *d;
	int fd;

	*ids = NULL;
	*n = 0;
	fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name), sl = 0;
		char id[STATE_ID_MAX], **nv;
		bool dup = false;

		for (const char *const *sf = suffixes; *sf; sf++) {
			size_t x = strlen(*sf);

			if (l > x && strcmp(de->d_name + l - x, *sf) == 0) {
				sl = x;
				break;
			}
		}
		if (!sl || l - sl >= sizeof(id))
			continue;
		memcpy(id, de->d_name, l - sl);
		id[l - sl] = '\0';
		if (!state_valid_id(id))
			continue;
		for (size_t i = 0; i < k && !dup; i++)
			dup = strcmp(v[i], id) == 0;
		if (dup)
			continue;
		nv = realloc(v, (k + 1) * sizeof(*v));
		if (!nv || !(nv[k] = strdup(id))) {
			if (nv)
				v = nv;
			state_list_free(v, k);
			closedir(d);
			return -ENOMEM;
		}
		v = nv;
		k++;
	}
	closedir(d);
	*ids = v;
	*n = k;
	return 0;
}

int state_journal_list(struct state_dir *sd, char ***ids, size_t *n)
{
	static const char *const sfx[] = {".state", NULL};

	return list_ids(sd->jdirfd, sfx, ids, n);
}

int state_public_list(struct state_dir *sd, char ***ids, size_t *n)
{
	static const char *const sfx[] = {STATE_APPLIED_SUFFIX,
					  STATE_ENV_SUFFIX, NULL};

	return list_ids(sd->dirfd, sfx, ids, n);
}

void state_list_free(char **ids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
}

int state_write_public(struct state_dir *sd, const char *name, const char *data,
		       size_t len, mode_t mode)
{
	if (!name || !*name || strchr(name, '/') || name[0] == '.')
		return -EINVAL;
	return write_atomic(sd->dirfd, name, data, len, mode);
}

int state_remove_public(struct state_dir *sd, const char *name)
{
	struct stat st;

	if (!name || !*name || strchr(name, '/') || name[0] == '.')
		return -EINVAL;
	/* Only what we wrote: a regular file of ours.  Never followed
	 * (unlinkat on the directory fd removes a link, not its target),
	 * and anything else planted under our name is left for an admin. */
	if (fstatat(sd->dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid())
		return -EPERM;
	if (unlinkat(sd->dirfd, name, 0) < 0 && errno != ENOENT)
		return -errno;
	return 0;
}

int state_remove_published(struct state_dir *sd, const char *jobid)
{
	static const char *const sfx[] = {STATE_APPLIED_SUFFIX,
					  STATE_ENV_SUFFIX};
	int rc = 0;

	if (!state_valid_id(jobid))
		return -EINVAL;
	for (size_t i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
		char name[STATE_ID_MAX + 16];
		int r;

		snprintf(name, sizeof(name), "%s%s", jobid, sfx[i]);
		r = state_remove_public(sd, name);
		if (r < 0 && rc == 0)
			rc = r;
	}
	return rc;
}

ssize_t state_read_public(struct state_dir *sd, const char *name, char *buf,
			  size_t len)
{
	ssize_t n, off = 0;
	int fd;

	if (!name || strchr(name, '/') || len == 0)
		return -EINVAL;
	fd = open_owned(sd->dirfd, name);
	if (fd < 0)
		return fd;
	while ((size_t)off < len - 1) {
		n = read(fd, buf + off, len - 1 - (size_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += n;
	}
	close(fd);
	buf[off] = '\0';
	return off;
}
