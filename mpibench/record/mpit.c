/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mpit: read a few MPI_T control variables by name (MPI 3.1
 * MPI_T_cvar_get_index), as text.  Only reads: nothing is written, so the
 * library's choices stay as the job asked.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <mpi.h>

#include "mpit.h"

static const char *const names[MB_MPIT_NCVARS] = {"pml", "btl", "mtl",
						  "mpi_add_procs_cutoff"};

/* The value of cvar [idx] of [dt] ([count] elements) as text in [out];
 * 0, or -1 with [why]. */
static int read_cvar(int idx, MPI_Datatype dt, char *out, size_t len, char *why,
		     size_t wlen)
{
	MPI_T_cvar_handle h;
	char buf[4096];
	int count = 0, rc;

	memset(buf, 0, sizeof(buf));
	rc = MPI_T_cvar_handle_alloc(idx, NULL, &h, &count);
	if (rc != MPI_SUCCESS) {
		snprintf(why, wlen, "MPI_T_cvar_handle_alloc: error %d", rc);
		return -1;
	}
	if (dt == MPI_CHAR && (count < 0 || (size_t)count >= sizeof(buf))) {
		snprintf(why, wlen, "string of %d bytes: longer than read",
			 count);
		rc = -1;
	} else if (dt != MPI_CHAR && count != 1) {
		snprintf(why, wlen, "%d elements: only single values read",
			 count);
		rc = -1;
	} else if ((rc = MPI_T_cvar_read(h, buf)) != MPI_SUCCESS) {
		snprintf(why, wlen, "MPI_T_cvar_read: error %d", rc);
		rc = -1;
	} else if (dt == MPI_CHAR && strlen(buf) >= len) {
		snprintf(why, wlen, "a string of %zu bytes: longer than kept",
			 strlen(buf));
		rc = -1;
	} else if (dt == MPI_CHAR) {
		memcpy(out, buf, strlen(buf) + 1);
	} else if (dt == MPI_INT) {
		snprintf(out, len, "%d", *(int *)buf);
	} else if (dt == MPI_UNSIGNED) {
		snprintf(out, len, "%u", *(unsigned *)buf);
	} else if (dt == MPI_UNSIGNED_LONG) {
		snprintf(out, len, "%lu", *(unsigned long *)buf);
	} else if (dt == MPI_UNSIGNED_LONG_LONG) {
		snprintf(out, len, "%llu", *(unsigned long long *)buf);
	} else if (dt == MPI_DOUBLE) {
		snprintf(out, len, "%g", *(double *)buf);
	} else {
		snprintf(why, wlen, "a datatype not read");
		rc = -1;
	}
	MPI_T_cvar_handle_free(&h);
	return rc == MPI_SUCCESS ? 0 : -1;
}

void mb_mpit_read(struct mb_mpit *m)
{
	int provided, rc;

	memset(m, 0, sizeof(*m));
	rc = MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
	if (rc != MPI_SUCCESS) {
		snprintf(m->t_why, sizeof(m->t_why),
			 "MPI_T_init_thread: error %d", rc);
		return;
	}
	for (int i = 0; i < MB_MPIT_NCVARS; i++) {
		char nm[128], desc[8];
		int idx, nl = sizeof(nm), dl = sizeof(desc), verb, bind, scope;
		MPI_Datatype dt;
		MPI_T_enum et;

		m->cv[i].name = names[i];
		m->cv[i].why = m->why[i];
		rc = MPI_T_cvar_get_index(names[i], &idx);
		if (rc == MPI_T_ERR_INVALID_NAME) {
			snprintf(m->why[i], sizeof(m->why[i]),
				 "this MPI has no control variable \"%s\"",
				 names[i]);
			continue;
		}
		if (rc == MPI_SUCCESS)
			rc = MPI_T_cvar_get_info(idx, nm, &nl, &verb, &dt, &et,
						 desc, &dl, &bind, &scope);
		if (rc != MPI_SUCCESS) {
			snprintf(
				m->why[i], sizeof(m->why[i]),
				"MPI_T_cvar_get_index/get_info \"%s\": error %d",
				names[i], rc);
			continue;
		}
		if (bind != MPI_T_BIND_NO_OBJECT) {
			snprintf(m->why[i], sizeof(m->why[i]),
				 "bound to an MPI object: not read");
			continue;
		}
		if (read_cvar(idx, dt, m->val[i], sizeof(m->val[i]), m->why[i],
			      sizeof(m->why[i])) == 0)
			m->cv[i].value = m->val[i];
	}
	m->ok = 1;
	MPI_T_finalize();
}
