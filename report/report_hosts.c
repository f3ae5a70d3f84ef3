/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_hosts: `iostrata-report show --hosts`: every host record of each
 * run (/hosts, SCHEMA.md) in a few lines per host: role, system, CPU,
 * memory and DIMMs, disks, links, Slurm, MPI, the SPANK shape, and every
 * fact that is unknown with its reason.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "report.h"
#include "results.h"

/* A scalar as text ("unknown" stays), an object or array as compact JSON
 * (into [buf]). */
static const char *txt(json_t *v, char *buf, size_t len)
{
	char *s;

	if (!v)
		return "-";
	if (json_is_string(v)) {
		/* JSON decodes \u001b: another user's record must not reach
		 * the terminal as control characters */
		snprintf(buf, len, "%s", json_string_value(v));
		ios_text_sanitize(buf, false);
		return buf;
	}
	if (json_is_integer(v)) {
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
		return buf;
	}
	s = json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER);
	snprintf(buf, len, "%s", s ? s : "?");
	free(s);
	return buf;
}

/* o[k] as text, in one of 12 rotating buffers (a printf takes up to 9). */
static const char *T(json_t *o, const char *k)
{
	static char b[12][1024];
	static unsigned nb;

	return txt(json_object_get(o, k), b[nb++ % 12], sizeof(b[0]));
}

/* Every why_unknown below [o], as "path: reason" lines. */
static void print_unknown(FILE *o, json_t *j, const char *path, int *header)
{
	const char *k;
	json_t *v;
	size_t i;
	char sub[256];

	if (json_is_array(j)) {
		json_array_foreach(j, i, v)
		{
			snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
			print_unknown(o, v, sub, header);
		}
		return;
	}
	if (!json_is_object(j))
		return;
	json_object_foreach(j, k, v)
	{
		snprintf(sub, sizeof(sub), "%s%s%s", path, path[0] ? "." : "",
			 k);
		if (!strcmp(k, "why_unknown") && json_is_object(v)) {
			const char *uk;
			json_t *why;

			json_object_foreach(v, uk, why)
			{
				if (!(*header)++)
					fprintf(o, "    unknown:\n");
				char line[1536];

				snprintf(line, sizeof(line), "%s%s%s: %s", path,
					 path[0] ? "." : "", uk,
					 json_is_string(why)
						 ? json_string_value(why)
						 : "?");
				ios_text_sanitize(line, false);
				fprintf(o, "      %s\n", line);
			}
		} else if (strcmp(k, "shape")) {
			print_unknown(o, v, sub, header);
		}
	}
}

static void print_host(FILE *o, int i, json_t *h)
{
	json_t *cpu = json_object_get(h, "cpu"),
	       *fq = json_object_get(cpu, "frequency"),
	       *sys = json_object_get(h, "system"),
	       *mem = json_object_get(h, "memory"),
	       *sl = json_object_get(h, "slurm"),
	       *cg = json_object_get(sl, "cgroup"), *v;
	size_t k;
	int header = 0;

	fprintf(o, "  host %d: %s (%s), role %s (%s)\n", i, T(h, "hostname"),
		T(h, "slurm_node"), T(h, "role"), T(h, "role_source"));
	fprintf(o, "    system   %s %s, board %s %s, BIOS %s (%s)\n",
		T(sys, "sys_vendor"), T(sys, "product_name"),
		T(sys, "board_vendor"), T(sys, "board_name"),
		T(sys, "bios_version"), T(sys, "bios_date"));
	fprintf(o, "    kernel   %s; os %s\n", T(h, "kernel"), T(h, "os"));
	fprintf(o,
		"    cpu      %s, %s online, microcode %s; cpufreq %s, governor %s, base %s min %s max %s kHz\n",
		T(cpu, "model"), T(cpu, "online_count"), T(cpu, "microcode"),
		T(fq, "driver"), T(fq, "governor"), T(fq, "base_khz"),
		T(fq, "min_khz"), T(fq, "max_khz"));
	fprintf(o, "    memory   %s bytes online of %s\n",
		T(mem, "online_bytes"), T(mem, "total_bytes"));
	v = json_object_get(sys, "dimms");
	if (json_is_array(v)) {
		json_t *d;

		json_array_foreach(v, k, d)
		{
			fprintf(o,
				"    dimm     %s: %s bytes, %s MT/s, %s %s\n",
				T(d, "locator"), T(d, "size_bytes"),
				T(d, "speed_mts"), T(d, "manufacturer"),
				T(d, "part_number"));
		}
	}
	v = json_object_get(h, "block_devices");
	if (json_is_array(v)) {
		json_t *d;

		json_array_foreach(v, k, d)
		{
			fprintf(o,
				"    disk     %s: %s %s, serial %s, firmware %s, rotational %s, %s, nr_requests %s, queue_depth %s\n",
				T(d, "name"), T(d, "vendor"), T(d, "model"),
				T(d, "serial"), T(d, "firmware"),
				T(d, "rotational"), T(d, "scheduler"),
				T(d, "nr_requests"), T(d, "queue_depth"));
		}
	}
	v = json_object_get(h, "nics");
	if (json_is_array(v)) {
		json_t *d;

		json_array_foreach(v, k, d)
		{
			fprintf(o, "    nic      %s: %s Mb/s, mtu %s, %s, %s\n",
				T(d, "name"), T(d, "speed_mbps"), T(d, "mtu"),
				T(d, "driver"), T(d, "state"));
		}
	}
	v = json_object_get(h, "infiniband");
	if (json_is_array(v)) {
		json_t *d;

		json_array_foreach(v, k, d)
		{
			fprintf(o, "    ib       %s port %s: %s, %s, %s\n",
				T(d, "device"), T(d, "port"), T(d, "rate"),
				T(d, "state"), T(d, "link_layer"));
		}
	}
	fprintf(o,
		"    slurm    %s (%s): SelectType %s %s, TaskPlugin %s, ProctrackType %s, PrologFlags %s\n",
		T(sl, "version_built"), T(sl, "conf"), T(sl, "SelectType"),
		T(sl, "SelectTypeParameters"), T(sl, "TaskPlugin"),
		T(sl, "ProctrackType"), T(sl, "PrologFlags"));
	if (json_object_get(sl, "version_mismatch"))
		fprintf(o,
			"    running  slurmctld %s, slurmd %s (built %s): mismatch %s\n",
			T(sl, "version_slurmctld"), T(sl, "version_slurmd"),
			T(sl, "version_built"), T(sl, "version_mismatch"));
	fprintf(o,
		"    cgroup   %s: CgroupPlugin %s, ConstrainCores %s, ConstrainRAMSpace %s, ConstrainDevices %s\n",
		T(cg, "conf"), T(cg, "CgroupPlugin"), T(cg, "ConstrainCores"),
		T(cg, "ConstrainRAMSpace"), T(cg, "ConstrainDevices"));
	fprintf(o, "    mpi      %s\n", T(h, "mpi_library"));
	{
		json_t *tr = json_object_get(h, "mpi_transport"),
		       *cv = json_object_get(json_object_get(tr, "requested"),
					     "cvars");

		if (json_is_object(tr))
			fprintf(o,
				"    mpi req  pml %s, btl %s, mtl %s (MPI_T); selected %s\n",
				T(cv, "pml"), T(cv, "btl"), T(cv, "mtl"),
				T(tr, "selected"));
	}
	fprintf(o, "    shape    %s\n", T(h, "shape"));
	print_unknown(o, h, "", &header);
}

void report_print_hosts(FILE *o, const struct report_run *runs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct ios_run *run = runs[i].run;

		fprintf(o, "\nhosts of %s (%s):\n", runs[i].path,
			runs[i].label);
		if (run->nhosts == 0 && run->schema_version < 2) {
			fprintf(o,
				"  none recorded (schema version %d: written before host records)\n",
				run->schema_version);
			continue;
		}
		for (int k = 0; k < run->nhosts; k++) {
			json_error_t jerr;
			json_t *h = json_loads(
				run->host_json[k] ? run->host_json[k] : "", 0,
				&jerr);

			if (!json_is_object(h)) {
				ios_text_sanitize(jerr.text, false);
				fprintf(o, "  host %d: not a JSON record: %s\n",
					k, jerr.text);
			} else
				print_host(o, k, h);
			json_decref(h);
		}
	}
}

void report_show_hosts(const struct report_run *runs, size_t n)
{
	report_print_hosts(stdout, runs, n);
}
