/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hwinfo_mpi: the MPI transport of a host record, as far as it can be
 * known: what was requested (the environment Open MPI and UCX read, and
 * the MPI_T control variables the benchmark read after MPI_Init), and
 * why what was selected is not recorded.
 */
#include "config.h"

#include <string.h>

#include <jansson.h>

#include "hwinfo_internal.h"

/* Open MPI 4.1 gives no MPI_T variable naming the component selected at
 * MPI_Init: its framework variables (pml, btl, mtl) keep the request, and
 * no performance variable names the transport (open-mpi/ompi#7519). */
#define SELECTED_WHY                                                           \
	"not known reliably: Open MPI 4.1's MPI_T variables pml, btl and mtl hold the request, not the component selected at MPI_Init, and no variable names it (see requested)"

/* A variable Open MPI or UCX reads to choose the transport ([name]: the
 * variable's name): the environment recorded is this allow-list, less any
 * name that looks like a credential's (UCX_* is a prefix). */
static int transport_var(const char *name)
{
	static const char *const exact[] = {"OMPI_MCA_pml", "OMPI_MCA_btl",
					    "OMPI_MCA_mtl", NULL};

	if (ios_hw_secret_name(name))
		return 0;
	for (size_t i = 0; exact[i]; i++)
		if (!strcmp(name, exact[i]))
			return 1;
	return !strncmp(name, "UCX_", 4);
}

void ios_hw_mpi_transport(json_t *host, char *const *envp,
			  const struct ios_hw_host_opts *opts)
{
	json_t *o, *req, *env, *cv;

	if (!opts->mpi_library) {
		ios_hw_unknown(host, "mpi_transport",
			       "collected outside an MPI process");
		return;
	}
	o = json_object();
	req = json_object();
	env = json_object();
	for (size_t i = 0; envp && envp[i]; i++) {
		const char *eq = strchr(envp[i], '=');
		char name[128];

		if (!eq || (size_t)(eq - envp[i]) >= sizeof(name))
			continue;
		memcpy(name, envp[i], (size_t)(eq - envp[i]));
		name[eq - envp[i]] = '\0';
		if (!transport_var(name))
			continue;
		/* not UTF-8: json_string gives NULL, nothing is set */
		json_object_set_new(env, name, json_string(eq + 1));
	}
	json_object_set_new(req, "env", env);
	if (!opts->mpi_cvars) {
		ios_hw_unknown(req, "cvars", "%s",
			       opts->mpi_t_why ? opts->mpi_t_why
					       : "MPI_T not asked");
	} else {
		cv = json_object();
		for (size_t i = 0; i < opts->n_mpi_cvars; i++) {
			const struct ios_hw_mpi_cvar *c = &opts->mpi_cvars[i];

			if (c->value &&
			    !json_object_set_new(cv, c->name,
						 json_string(c->value)))
				continue;
			ios_hw_unknown(cv, c->name, "%s",
				       c->why ? c->why : "not readable");
		}
		json_object_set_new(req, "cvars", cv);
	}
	json_object_set_new(o, "requested", req);
	ios_hw_unknown(o, "selected", "%s", SELECTED_WHY);
	json_object_set_new(host, "mpi_transport", o);
}
