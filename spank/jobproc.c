/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jobproc: find the slurmstepd processes of a job in /proc (see jobproc.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jobproc.h"

/* Real uid from a /proc/PID/status text: "Uid:\t0\t0\t0\t0". */
static int real_uid(const char *status, unsigned long *uid)
{
	const char *p = strstr(status, "\nUid:");
	char *end;

	if (!p)
		return -EINVAL;
	p += 5;
	while (*p == '\t' || *p == ' ')
		p++;
	if (*p < '0' || *p > '9')
		return -EINVAL;
	errno = 0;
	*uid = strtoul(p, &end, 10);
	return errno || (*end != '\t' && *end != ' ') ? -EINVAL : 0;
}

/* Is the NUL-separated [cmd] ([n] bytes) "slurmstepd: [<jobid>.x]"? */
static int title_of_job(const char *cmd, size_t n, const char *jobid)
{
	static const char pre[] = "slurmstepd: [";
	size_t pl = sizeof(pre) - 1, jl = strlen(jobid);

	if (n < pl + jl + 2 || memcmp(cmd, pre, pl) != 0 ||
	    memcmp(cmd + pl, jobid, jl) != 0)
		return 0;
	return cmd[pl + jl] == '.' || cmd[pl + jl] == ']';
}

int jobproc_find_stepd(const struct sysfs *fs, const char *jobid, pid_t *pid)
{
	struct dirent *de;
	DIR *d;
	int found = 0;

	if (!jobid || !*jobid)
		return -EINVAL;
	d = sysfs_opendir(fs, "proc");
	if (!d)
		return -errno;
	while (!found && (de = readdir(d))) {
		char path[64], buf[4096];
		unsigned long uid;
		ssize_t n;
		int id = sysfs_parse_id(de->d_name, "");

		if (id <= 0)
			continue;
		if (sysfs_pathf(path, sizeof(path), "proc/%d/comm", id) < 0 ||
		    sysfs_read(fs, path, buf, sizeof(buf)) < 0 ||
		    strcmp(buf, "slurmstepd") != 0)
			continue;
		if (sysfs_pathf(path, sizeof(path), "proc/%d/status", id) < 0)
			continue;
		buf[0] = '\n';
		if (sysfs_read(fs, path, buf + 1, sizeof(buf) - 1) < 0 ||
		    real_uid(buf, &uid) < 0 || uid != 0)
			continue;
		if (sysfs_pathf(path, sizeof(path), "proc/%d/cmdline", id) < 0)
			continue;
		{
			int fd = sysfs_openat(fs, path, O_RDONLY, 0);

			if (fd < 0)
				continue;
			n = read(fd, buf, sizeof(buf));
			close(fd);
		}
		if (n > 0 && title_of_job(buf, (size_t)n, jobid)) {
			found = 1;
			if (pid)
				*pid = (pid_t)id;
		}
	}
	closedir(d);
	return found;
}

int jobproc_alive(const struct sysfs *fs, const char *jobid, jobproc_ctl_fn ctl,
		  char *why, size_t len)
{
	char said[200] = "";
	unsigned long long id;
	char *end;
	pid_t pid = 0;
	int rc;

	rc = jobproc_find_stepd(fs, jobid, &pid);
	if (rc == 1) {
		snprintf(why, len, "its slurmstepd (pid %d) still runs",
			 (int)pid);
		return 1;
	}
	errno = 0;
	id = strtoull(jobid, &end, 10);
	if (errno || *end || end == jobid || jobid[0] < '0' || jobid[0] > '9' ||
	    id > UINT32_MAX) {
		snprintf(why, len, "not a Slurm job id");
		return 0;
	}
	rc = ctl ? ctl((uint32_t)id, said, sizeof(said)) : -ENOSYS;
	if (rc > 0)
		snprintf(why, len, "no slurmstepd here now, but %s", said);
	else if (rc == 0)
		snprintf(why, len, "no slurmstepd here, %s", said);
	else
		snprintf(
			why, len,
			"no slurmstepd here, and cannot tell whether it still runs: %s",
			said[0] ? said : strerror(-rc));
	return rc > 0 ? 1 : rc;
}
