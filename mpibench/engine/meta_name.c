/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * meta_name: the MPI-free part of the metadata phases (meta.h): the names
 * under the run's directory, the stonewall test, what each phase works on.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>

#include "meta.h"

static int fits(int n, size_t len)
{
	return (n < 0 || (size_t)n >= len) ? -ENAMETOOLONG : 0;
}

int mb_meta_run_name(char *buf, size_t len, const char *stamp, const char *job,
		     long pid)
{
	if (job && *job)
		return fits(snprintf(buf, len, "iostrata-meta.%s-job%s.%ld",
				     stamp, job, pid),
			    len);
	return fits(snprintf(buf, len, "iostrata-meta.%s.%ld", stamp, pid),
		    len);
}

int mb_meta_rep_dir(char *buf, size_t len, const char *run, unsigned rep)
{
	return fits(snprintf(buf, len, "%s/rep.%u", run, rep), len);
}

int mb_meta_work_dir(char *buf, size_t len, const char *run,
		     enum mb_meta_layout l, unsigned rep, int rank)
{
	if (l == MB_META_HARD)
		return fits(snprintf(buf, len, "%s/rep.%u/shared", run, rep),
			    len);
	return fits(snprintf(buf, len, "%s/rep.%u/rank.%d", run, rep, rank),
		    len);
}

int mb_meta_item(char *buf, size_t len, const char *run, enum mb_meta_layout l,
		 unsigned rep, int rank, bool dir, uint64_t i)
{
	const char *kind = dir ? "dir" : "file";

	if (l == MB_META_HARD)
		return fits(snprintf(buf, len, "%s/rep.%u/shared/%s.%d.%llu",
				     run, rep, kind, rank,
				     (unsigned long long)i),
			    len);
	return fits(snprintf(buf, len, "%s/rep.%u/rank.%d/%s.%llu", run, rep,
			     rank, kind, (unsigned long long)i),
		    len);
}

bool mb_meta_go_on(uint64_t done, uint64_t limit, double elapsed,
		   double stonewall)
{
	if (done >= limit)
		return false;
	return !(stonewall > 0 && elapsed >= stonewall);
}

uint64_t mb_meta_todo(enum mb_meta_op op, const struct mb_meta_made *made,
		      uint64_t limit)
{
	if (mb_meta_op_makes(op))
		return limit;
	return made->hi - made->lo;
}

void mb_meta_after(enum mb_meta_op op, struct mb_meta_made *made, uint64_t ops)
{
	if (mb_meta_op_makes(op)) {
		made->lo = 0;
		made->hi = ops;
	} else if (op == MB_META_REMOVE || op == MB_META_RMDIR) {
		made->lo += ops;
	}
}
