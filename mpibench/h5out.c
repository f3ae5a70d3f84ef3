/* SPDX-License-Identifier: GPL-2.0-or-later */
/* h5out: glue to the results writer and hwinfo (see h5out.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "h5out.h"

#ifdef MB_HAVE_H5RUN
#include "h5run.h"
#include "hwinfo.h"
#endif

int mb_h5_write(const char *path, struct ios_run *run, struct ios_err *err)
{
#ifdef MB_HAVE_H5RUN
	int rc = ios_h5_write_run(path, run, err);

	/* The histograms are in the file now: rank 0 keeps one
	 * repetition's, not the whole run's (the next write copies them). */
	for (int k = 0; !rc && k < run->nphases; k++)
		for (int r = 0; r < run->phases[k].nreps; r++) {
			struct ios_rep_result *rep = &run->phases[k].reps[r];

			if (rep->lat_hist) {
				free(rep->lat_hist);
				rep->lat_hist = NULL;
				rep->lat_hist_in_file = true;
			}
		}
	return rc;
#else
	(void)run;
	return ios_errf(
		err, -ENOSYS,
		"iostrata-bench: write %s: this build has no results writer (h5schema/h5run.h)",
		path);
#endif
}

char *mb_hw_node_json(const char *target_dir)
{
#ifdef MB_HAVE_H5RUN
	return ios_hw_node_json(target_dir);
#else
	struct utsname u;
	char host[64] = "unknown", *s;
	const char *nn = getenv("SLURMD_NODENAME");

	(void)target_dir;
	gethostname(host, sizeof(host) - 1);
	if (uname(&u))
		memset(&u, 0, sizeof(u));
	if (asprintf(
		    &s,
		    "{\"hostname\":\"%s\",\"slurm_node\":\"%s\",\"kernel\":\"%s\"}",
		    host, nn ? nn : "unknown",
		    u.release[0] ? u.release : "unknown") < 0)
		return NULL;
	return s;
#endif
}

char *mb_hw_job_json(void)
{
#ifdef MB_HAVE_H5RUN
	return ios_hw_job_json();
#else
	const char *j = getenv("SLURM_JOB_ID");
	char *s;

	if (!j)
		return NULL;
	if (asprintf(&s, "{\"jobid\":\"%s\"}", j) < 0)
		return NULL;
	return s;
#endif
}

char *mb_hw_ceph_json(const struct ios_ceph_opts *ceph, const char *target_dir)
{
#ifdef MB_HAVE_H5RUN
	return ios_hw_ceph_json(ceph, target_dir);
#else
	(void)ceph;
	(void)target_dir;
	return NULL;
#endif
}
