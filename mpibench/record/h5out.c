/* SPDX-License-Identifier: GPL-2.0-or-later */
/* h5out: glue to the results writer and hwinfo (see h5out.h). */
#include "config.h"

#include <stdlib.h>

#include "h5out.h"
#include "h5run.h"
#include "hwinfo.h"
#include "mpit.h"

int mb_h5_write(const char *path, struct ios_run *run, struct ios_err *err)
{
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
}

char *mb_hw_node_json(const char *target_dir)
{
	return ios_hw_node_json(target_dir);
}

char *mb_hw_host_json(const char *target_dir, const char *fs_client,
		      const char *mpi_library, const struct mb_mpit *mpit)
{
	struct ios_hw_host_opts o = {
		.target_dir = target_dir,
		.fs_client = fs_client,
		.mpi_library = mpi_library,
		.mpi_cvars = mpit && mpit->ok ? mpit->cv : NULL,
		.n_mpi_cvars = mpit && mpit->ok ? MB_MPIT_NCVARS : 0,
		.mpi_t_why = mpit ? mpit->t_why : NULL,
	};

	return ios_hw_host_json("/", &o);
}

int mb_hw_hosts_merge(char *const *nodes, int nnodes, char *const *extra,
		      const char *const *extra_names, int nextra, char ***out,
		      char *msg, size_t msglen)
{
	return ios_hw_hosts_merge(nodes, nnodes, extra, extra_names, nextra,
				  out, msg, msglen);
}

char *mb_hw_job_json(void)
{
	return ios_hw_job_json();
}

char *mb_hw_ceph_json(const struct ios_ceph_opts *ceph, const char *target_dir)
{
	return ios_hw_ceph_json(ceph, target_dir);
}
