/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mb_target: the target of iostrata-bench's files (mb_config.h): the
 * rank's file name, and the checks of --dir before anything is created
 * (a writable directory or an allowed block device, the logical block
 * size for direct I/O, foreign files, free space).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "mb_config.h"
#include "ownfile.h"
#include "units.h"

const char *mb_target_name(int rank, char *buf, size_t len)
{
	snprintf(buf, len, "iostrata-bench.%d", rank);
	return buf;
}

const char *mb_target_file(const struct mb_config *cfg, int rank, char *buf,
			   size_t len)
{
	if (cfg->file_layout == MB_LAYOUT_SHARED) {
		snprintf(buf, len, "iostrata-bench.shared");
		return buf;
	}
	return mb_target_name(rank, buf, len);
}

static unsigned read_uint_file(const char *path)
{
	FILE *f = fopen(path, "re");
	unsigned v = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%u", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

unsigned int mb_logical_block_size(int fd)
{
	struct stat st;
	char p[PATH_MAX];
	unsigned v;
	dev_t dev;

	if (fstat(fd, &st))
		return 512;
	dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	if (major(dev) == 0) /* tmpfs, fuse, nfs: no block queue */
		return 512;
	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/queue/logical_block_size",
		 major(dev), minor(dev));
	v = read_uint_file(p);
	if (!v) { /* a partition: the queue is the parent's */
		snprintf(p, sizeof(p),
			 "/sys/dev/block/%u:%u/../queue/logical_block_size",
			 major(dev), minor(dev));
		v = read_uint_file(p);
	}
	return v ? v : 512;
}

static bool fs_is_shared(int dirfd)
{
	struct statfs sf;

	if (fstatfs(dirfd, &sf))
		return false;
	switch ((unsigned long)sf.f_type) {
	case 0x00c36400: /* ceph */
	case 0x65735546: /* fuse (ceph-fuse, ...) */
	case 0x6969:     /* nfs */
	case 0x0bd00bd0: /* lustre */
	case 0x47504653: /* gpfs */
	case 0x19830326: /* beegfs */
	case 0xfe534d42: /* smb2 */
		return true;
	default:
		return false;
	}
}

int mb_config_check_target(const struct mb_config *cfg, int rank, int nranks,
			   int ranks_on_node, struct ios_err *err)
{
	const struct mb_dir *d;
	char name[64];
	struct statvfs sv;
	unsigned lbs;
	uint64_t need, have, existing = 0;
	bool shared;
	int rc;

	if (!cfg->dir)
		return 0;
	rc = mb_dir_get(cfg->dir, cfg->allow_device, &d, err);
	if (rc)
		return rc;
	if (d->device && cfg->file_layout == MB_LAYOUT_SHARED)
		return ios_errf(
			err, -EINVAL,
			"--file-layout: \"shared\" is not available with the block device \"%s\" as --dir (accepted: a directory, on a shared filesystem when the ranks run on several nodes, or --file-layout=per-rank)",
			cfg->dir);
	if (d->device) {
		uint64_t devsz = 0;
		int fd = mb_dir_open_device(d, O_RDONLY, err);

		if (fd < 0)
			return fd;
		devsz = (uint64_t)lseek(fd, 0, SEEK_END);
		close(fd);
		if (devsz < (uint64_t)nranks * cfg->size)
			return ios_errf(
				err, -ENOSPC,
				"--dir: device \"%s\" holds %" PRIu64
				" bytes, less than %d ranks x --size %" PRIu64,
				cfg->dir, devsz, nranks, cfg->size);
		lbs = mb_logical_block_size(d->fd);
		if (cfg->direct && cfg->bs % lbs)
			return ios_errf(
				err, -EINVAL,
				"--bs: %" PRIu64
				" is not a multiple of the logical block size %u of \"%s\" (accepted: a multiple of %u, or --buffered)",
				cfg->bs, lbs, cfg->dir, lbs);
		return 0;
	}
	if (faccessat(d->fd, ".", W_OK | X_OK, 0))
		return ios_errf(
			err, -errno,
			"--dir: \"%s\" is not writable: %s (accepted: an existing writable directory)",
			cfg->dir, strerror(errno));
	lbs = mb_logical_block_size(d->fd);
	if (cfg->direct && cfg->bs % lbs)
		return ios_errf(
			err, -EINVAL,
			"--bs: %" PRIu64
			" is not a multiple of the logical block size %u under \"%s\" (accepted: a multiple of %u, or --buffered)",
			cfg->bs, lbs, cfg->dir, lbs);
	rc = mb_own_check(d, mb_target_file(cfg, rank, name, sizeof(name)),
			  "--dir", &existing, err);
	if (rc < 0)
		return rc;
	if (fstatvfs(d->fd, &sv))
		return ios_errf(err, -errno, "--dir: statvfs \"%s\": %s",
				cfg->dir, strerror(errno));
	have = (uint64_t)sv.f_bavail * sv.f_frsize;
	shared = fs_is_shared(d->fd);
	if (cfg->file_layout == MB_LAYOUT_SHARED && !shared &&
	    ranks_on_node < nranks)
		return ios_errf(
			err, -EINVAL,
			"--file-layout: \"shared\" needs one file that every rank sees, but \"%s\" is a local filesystem and the %d ranks run on more than one node (accepted: a --dir on a shared filesystem such as CephFS, the ranks on one node, or --file-layout=per-rank)",
			cfg->dir, nranks);
	need = (uint64_t)(shared ? nranks : ranks_on_node) * cfg->size;
	if (cfg->file_layout == MB_LAYOUT_SHARED) /* one file, all ranks */
		need = (uint64_t)nranks * cfg->size;
	if (cfg->file_layout == MB_LAYOUT_SHARED)
		need = need > existing ? need - existing : 0;
	else
		need = need > existing * (uint64_t)ranks_on_node
			       ? need - existing * (uint64_t)ranks_on_node
			       : 0;
	if (!cfg->force && need > have) {
		char a[32], b[32];

		return ios_errf(
			err, -ENOSPC,
			"--size: %s needed under \"%s\" (%d ranks x %" PRIu64
			" bytes) but only %s free (accepted: a smaller --size, fewer ranks, or --force)",
			ios_fmt_size(need, a, sizeof(a)), cfg->dir,
			shared ? nranks : ranks_on_node, cfg->size,
			ios_fmt_size(have, b, sizeof(b)));
	}
	return 0;
}
