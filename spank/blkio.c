/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * blkio: read and write cgroup v1/v2 throttles, resolve device numbers.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "blkio.h"

static const char *const v1_files[4] = {
	"blkio.throttle.read_bps_device",
	"blkio.throttle.write_bps_device",
	"blkio.throttle.read_iops_device",
	"blkio.throttle.write_iops_device",
};

static uint64_t *lim_field(struct blkio_limit *l, int i)
{
	switch (i) {
	case 0:
		return &l->rbps;
	case 1:
		return &l->wbps;
	case 2:
		return &l->riops;
	default:
		return &l->wiops;
	}
}

int blkio_check_cgroup(const char *cg, const char **why)
{
	static const char prefix[] = "/sys/fs/cgroup/";
	const char *p, *r = NULL;
	size_t len;
	int rc = -EINVAL;

	if (!cg || strncmp(cg, prefix, sizeof(prefix) - 1) != 0) {
		r = "not below /sys/fs/cgroup/";
		goto out;
	}
	len = strlen(cg);
	if (len >= BLKIO_CG_MAX) {
		r = "longer than 255 characters";
		rc = -ENAMETOOLONG;
		goto out;
	}
	/* Component by component after the prefix: "a/b.c", never "",
	 * "." or "..", never a trailing "/". */
	for (p = cg + sizeof(prefix) - 1;;) {
		size_t n = strcspn(p, "/");

		if (n == 0 || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.')) {
			r = "empty, \".\" or \"..\" component";
			goto out;
		}
		for (size_t i = 0; i < n; i++) {
			/* systemd's escape of unit names ("\x2d" for a
			 * '-' in system-ceph\x2d<fsid>.slice): exactly a
			 * backslash, 'x' and two hex digits */
			if (p[i] == '\\' && i + 3 < n && p[i + 1] == 'x' &&
			    isxdigit((unsigned char)p[i + 2]) &&
			    isxdigit((unsigned char)p[i + 3])) {
				i += 3;
				continue;
			}
			if (!(isalnum((unsigned char)p[i]) ||
			      strchr("._-:@+", p[i]))) {
				r = "characters other than letters, digits, ._-:@+ and \\xHH escapes";
				goto out;
			}
		}
		if (!p[n])
			break;
		p += n + 1;
	}
	rc = 0;
out:
	if (why)
		*why = r;
	return rc;
}

/* Refuse a cgroup reached through a symlink: openat2(RESOLVE_BENEATH)
 * keeps it below the root but would follow a link to another cgroup. */
int blkio_no_symlinks(const struct sysfs *fs, const char *cg)
{
	char comp[BLKIO_CG_MAX];
	const char *p = cg;
	int fd = -1, at = fs->dirfd;

	while (*p) {
		size_t n;
		int nfd;

		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if (n == 0)
			break;
		if (n >= sizeof(comp)) {
			if (fd >= 0)
				close(fd);
			return -ENAMETOOLONG;
		}
		memcpy(comp, p, n);
		comp[n] = '\0';
		nfd = openat(at, comp,
			     O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (nfd < 0) {
			int e = errno;
			struct stat st;

			/* O_NOFOLLOW|O_DIRECTORY on a symlink: ENOTDIR */
			if (e == ENOTDIR &&
			    fstatat(at, comp, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    S_ISLNK(st.st_mode))
				e = ELOOP;
			if (fd >= 0)
				close(fd);
			return -e;
		}
		if (fd >= 0)
			close(fd);
		fd = at = nfd;
		p += n;
	}
	if (fd >= 0)
		close(fd);
	return 0;
}

int blkio_detect(const struct sysfs *fs, const char *cg, enum blkio_ver *ver)
{
	char path[PATH_MAX];
	struct stat st;
	int fd, rc;

	rc = blkio_check_cgroup(cg, NULL);
	if (rc < 0)
		return rc;
	rc = blkio_no_symlinks(fs, cg);
	if (rc == -ENOTDIR)
		return -ENOENT;
	if (rc < 0)
		return rc;
	fd = sysfs_openat(fs, cg, O_RDONLY | O_DIRECTORY, 0);
	if (fd < 0)
		return fd == -ENOTDIR || fd == -ELOOP ? -ENOENT : fd;
	if (fstat(fd, &st) < 0 || !S_ISDIR(st.st_mode)) {
		close(fd);
		return -ENOENT;
	}
	close(fd);
	if (sysfs_pathf(path, sizeof(path), "%s/%s", cg, v1_files[1]) < 0)
		return -ENAMETOOLONG;
	if (sysfs_exists(fs, path)) {
		*ver = BLKIO_V1;
		return 0;
	}
	if (sysfs_pathf(path, sizeof(path), "%s/io.max", cg) < 0)
		return -ENAMETOOLONG;
	if (sysfs_exists(fs, path)) {
		*ver = BLKIO_V2;
		return 0;
	}
	return -EOPNOTSUPP;
}

int blkio_parse_devnum(const char *s, struct blkio_dev *out)
{
	unsigned long maj, min;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	maj = strtoul(s, &end, 10);
	if (errno || *end != ':' || end[1] < '0' || end[1] > '9')
		return -EINVAL;
	min = strtoul(end + 1, &end, 10);
	if (errno || *end || maj > 0xfff || min > 0xfffff)
		return -EINVAL;
	out->maj = (unsigned)maj;
	out->min = (unsigned)min;
	return 0;
}

/* v2 io.max value: "max" or a number. */
static int parse_v2_val(const char *s, uint64_t *out)
{
	char *end;

	if (strcmp(s, "max") == 0) {
		*out = 0;
		return 0;
	}
	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return errno || *end ? -EINVAL : 0;
}

int blkio_get(const struct sysfs *fs, const char *cg, enum blkio_ver ver,
	      struct blkio_dev dev, struct blkio_limit *out)
{
	char path[PATH_MAX], buf[8192], key[32];
	int rc;

	memset(out, 0, sizeof(*out));
	snprintf(key, sizeof(key), "%u:%u ", dev.maj, dev.min);
	if (ver == BLKIO_V1) {
		for (int i = 0; i < 4; i++) {
			char *line, *save = NULL;
			ssize_t n;

			if (sysfs_pathf(path, sizeof(path), "%s/%s", cg,
					v1_files[i]) < 0)
				return -ENAMETOOLONG;
			n = sysfs_read(fs, path, buf, sizeof(buf));
			if (n < 0)
				return (int)n;
			for (line = strtok_r(buf, "\n", &save); line;
			     line = strtok_r(NULL, "\n", &save)) {
				char *end;

				if (strncmp(line, key, strlen(key)) != 0)
					continue;
				errno = 0;
				*lim_field(out, i) =
					strtoull(line + strlen(key), &end, 10);
				if (errno || *end)
					return -EINVAL;
			}
		}
		return 0;
	}
	if (sysfs_pathf(path, sizeof(path), "%s/io.max", cg) < 0)
		return -ENAMETOOLONG;
	rc = (int)sysfs_read(fs, path, buf, sizeof(buf));
	if (rc < 0)
		return rc;
	{
		char *line, *save = NULL;

		for (line = strtok_r(buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			char *tok, *s2 = NULL;

			if (strncmp(line, key, strlen(key)) != 0)
				continue;
			for (tok = strtok_r(line + strlen(key), " ", &s2); tok;
			     tok = strtok_r(NULL, " ", &s2)) {
				static const char *const names[4] = {
					"rbps=", "wbps=", "riops=", "wiops="};

				for (int i = 0; i < 4; i++) {
					size_t l = strlen(names[i]);

					if (strncmp(tok, names[i], l) == 0 &&
					    parse_v2_val(tok + l,
							 lim_field(out, i)) < 0)
						return -EINVAL;
				}
			}
		}
	}
	return 0;
}

int blkio_set(const struct sysfs *fs, const char *cg, enum blkio_ver ver,
	      struct blkio_dev dev, const struct blkio_limit *lim)
{
	struct blkio_limit l = *lim;
	char path[PATH_MAX], val[160];
	int rc = 0, r;

	if (ver == BLKIO_V1) {
		for (int i = 0; i < 4; i++) {
			if (sysfs_pathf(path, sizeof(path), "%s/%s", cg,
					v1_files[i]) < 0)
				return -ENAMETOOLONG;
			snprintf(val, sizeof(val), "%u:%u %" PRIu64, dev.maj,
				 dev.min, *lim_field(&l, i));
			r = sysfs_write(fs, path, val);
			if (r < 0 && rc == 0)
				rc = r;
		}
		return rc;
	}
	{
		char v[4][24];

		for (int i = 0; i < 4; i++) {
			uint64_t x = *lim_field(&l, i);

			if (x)
				snprintf(v[i], sizeof(v[i]), "%" PRIu64, x);
			else
				snprintf(v[i], sizeof(v[i]), "max");
		}
		snprintf(val, sizeof(val),
			 "%u:%u rbps=%s wbps=%s riops=%s wiops=%s", dev.maj,
			 dev.min, v[0], v[1], v[2], v[3]);
	}
	if (sysfs_pathf(path, sizeof(path), "%s/io.max", cg) < 0)
		return -ENAMETOOLONG;
	return sysfs_write(fs, path, val);
}

/* A partition's whole disk: sys/dev/block/M:m/partition exists. */
static int whole_disk(const struct sysfs *fs, struct blkio_dev *d)
{
	char path[128], buf[64];
	ssize_t n;

	if (sysfs_pathf(path, sizeof(path), "sys/dev/block/%u:%u/partition",
			d->maj, d->min) < 0)
		return -ENAMETOOLONG;
	if (!sysfs_exists(fs, path))
		return 0;
	if (sysfs_pathf(path, sizeof(path), "sys/dev/block/%u:%u/../dev",
			d->maj, d->min) < 0)
		return -ENAMETOOLONG;
	n = sysfs_read(fs, path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	return blkio_parse_devnum(buf, d);
}

int blkio_resolve_dev(const struct sysfs *fs, const char *spec,
		      struct blkio_dev *out, struct ios_err *err)
{
	char path[PATH_MAX], buf[64];
	struct stat st;
	int rc;

	if (!spec || !*spec)
		return ios_errf(
			err, -EINVAL,
			"iostrata: resolve device: empty name (accepted: MAJ:MIN, /dev/NAME, NAME, or a path on the device)");
	if (blkio_parse_devnum(spec, out) == 0)
		return 0;
	if (spec[0] == '/') {
		const char *r = spec;

		while (*r == '/')
			r++;
		if (fstatat(fs->dirfd, *r ? r : ".", &st, 0) < 0)
			return ios_errf(err, -errno,
					"iostrata: resolve device \"%s\": %s",
					spec, strerror(errno));
		if (S_ISBLK(st.st_mode)) {
			out->maj = major(st.st_rdev);
			out->min = minor(st.st_rdev);
		} else {
			out->maj = major(st.st_dev);
			out->min = minor(st.st_dev);
		}
		if (out->maj == 0)
			return ios_errf(
				err, -ENODEV,
				"iostrata: resolve device \"%s\": not on a block device (%u:%u)",
				spec, out->maj, out->min);
	} else {
		for (const char *p = spec; *p; p++)
			if (!((*p >= 'a' && *p <= 'z') ||
			      (*p >= '0' && *p <= '9') || *p == '-' ||
			      *p == '_'))
				return ios_errf(
					err, -EINVAL,
					"iostrata: resolve device \"%s\": invalid name (accepted: MAJ:MIN, /dev/NAME, NAME, or a path on the device)",
					spec);
		rc = sysfs_pathf(path, sizeof(path), "sys/class/block/%s/dev",
				 spec);
		if (rc == 0)
			rc = (int)sysfs_read(fs, path, buf, sizeof(buf));
		if (rc < 0)
			return ios_errf(err, rc,
					"iostrata: resolve device \"%s\": %s",
					spec, strerror(-rc));
		if (blkio_parse_devnum(buf, out) < 0)
			return ios_errf(
				err, -EINVAL,
				"iostrata: resolve device \"%s\": bad dev \"%s\"",
				spec, buf);
	}
	rc = whole_disk(fs, out);
	if (rc < 0)
		return ios_errf(
			err, rc,
			"iostrata: resolve device \"%s\": whole disk: %s", spec,
			strerror(-rc));
	return 0;
}

int blkio_check_cgroup_dir(const char *cg, const char **why)
{
	if (cg && strcmp(cg, "/sys/fs/cgroup") == 0) {
		if (why)
			*why = NULL;
		return 0;
	}
	return blkio_check_cgroup(cg, why);
}

/* Is [word] one of the space-separated words of [list]? */
static bool has_word(const char *list, const char *word)
{
	size_t l = strlen(word);

	for (const char *p = list; *p;) {
		size_t n = strcspn(p, " \n");

		if (n == l && strncmp(p, word, l) == 0)
			return true;
		p += n;
		p += strspn(p, " \n");
	}
	return false;
}

static int read_words(const struct sysfs *fs, const char *dir, const char *file,
		      char *buf, size_t len)
{
	char path[PATH_MAX];
	ssize_t n;

	if (sysfs_pathf(path, sizeof(path), "%s/%s", dir, file) < 0)
		return -ENAMETOOLONG;
	n = sysfs_read(fs, path, buf, len);
	return n < 0 ? (int)n : 0;
}

int blkio_v2_has_io(const struct sysfs *fs, const char *dir)
{
	char buf[1024];
	int rc =
		read_words(fs, dir, "cgroup.subtree_control", buf, sizeof(buf));

	return rc < 0 ? rc : has_word(buf, "io");
}

int blkio_v2_plan(const struct sysfs *fs, const char *cg,
		  char (*dirs)[BLKIO_CG_MAX], size_t max, size_t *n)
{
	char dir[BLKIO_CG_MAX], buf[1024], path[PATH_MAX];
	size_t len, end;
	bool root = false;
	int rc;

	*n = 0;
	rc = blkio_check_cgroup(cg, NULL);
	if (rc < 0)
		return rc;
	if (sysfs_pathf(path, sizeof(path), "%s/cgroup.controllers", cg) < 0)
		return -ENAMETOOLONG;
	if (!sysfs_exists(fs, path))
		return -EOPNOTSUPP;
	len = strlen(cg);
	/* Parents from the top: /sys/fs/cgroup, /sys/fs/cgroup/a, ...; the
	 * first with cgroup.controllers is the cgroup2 root (/sys/fs/cgroup,
	 * or /sys/fs/cgroup/unified on a hybrid host). */
	for (end = strlen("/sys/fs/cgroup"); end < len;) {
		memcpy(dir, cg, end);
		dir[end] = '\0';
		if (!root) {
			rc = read_words(fs, dir, "cgroup.controllers", buf,
					sizeof(buf));
			if (rc == 0) {
				if (!has_word(buf, "io"))
					return -EOPNOTSUPP;
				root = true;
			}
		}
		if (root) {
			rc = blkio_v2_has_io(fs, dir);
			if (rc < 0)
				return rc;
			if (rc == 0) {
				if (*n >= max)
					return -E2BIG;
				memcpy(dirs[*n], dir, end + 1);
				(*n)++;
			}
		}
		end += 1 + strcspn(cg + end + 1, "/");
	}
	return root ? 0 : -EOPNOTSUPP;
}

int blkio_v2_set_io(const struct sysfs *fs, const char *dir, bool on)
{
	char path[PATH_MAX];
	int rc;

	if (sysfs_pathf(path, sizeof(path), "%s/cgroup.subtree_control", dir) <
	    0)
		return -ENAMETOOLONG;
	rc = sysfs_write(fs, path, on ? "+io" : "-io");
	if (rc < 0)
		return rc;
	rc = blkio_v2_has_io(fs, dir);
	if (rc < 0)
		return rc;
	return rc == (int)on ? 0 : -EIO;
}

int blkio_job_cgroup(const char *jobid, char *buf, size_t len)
{
	if (!jobid[0] || strlen(jobid) > 64)
		return -EINVAL;
	for (const char *p = jobid; *p; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= 'a' && *p <= 'z') || *p == '_' || *p == '.' ||
		      *p == '-'))
			return -EINVAL;
	return sysfs_pathf(buf, len, "/sys/fs/cgroup/blkio/iostrata.job_%s",
			   jobid);
}
