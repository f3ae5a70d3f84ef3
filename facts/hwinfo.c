/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hwinfo: collect node, Slurm job and Ceph facts as JSON.  Every file is
 * read relative to a root directory ("/" in production, a fake tree under
 * mkdtemp in tests, see hwinfo_internal.h); topology comes from hwloc when
 * the root is the real one.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef HAVE_JANSSON
#include <jansson.h>
#endif
#ifdef HAVE_HWLOC
#include <hwloc.h>
#endif
#include "ceph_conn.h"
#include "hostfs.h"
#include "hwinfo.h"
#include "hwinfo_internal.h"

#define UNKNOWN "unknown"

extern char **environ;

#ifndef HAVE_JANSSON
/* Built without jansson: the facts cannot be assembled; say so in the
 * file instead of failing the run. */
char *ios_hw_node_json(const char *target_dir)
{
	(void)target_dir;
	return strdup(
		"{\"error\":\"iostrata built without jansson: no hardware metadata\"}");
}

char *ios_hw_job_json(void)
{
	return NULL;
}

char *ios_hw_host_json(const char *root, const struct ios_hw_host_opts *opts)
{
	(void)root;
	(void)opts;
	return ios_hw_node_json(NULL);
}

char *ios_hw_ceph_json(const struct ios_ceph_opts *opts, const char *target_dir)
{
	(void)opts;
	(void)target_dir;
	return NULL;
}
#else

#define rd ios_hw_rd
#define set_str ios_hw_set_str
#define dump ios_hw_dump

/* Set key to the string read from root/rel, or "unknown". */
static void set_file_str(json_t *o, const char *key, const char *root,
			 const char *rel)
{
	char buf[4096];

	if (rd(root, rel, buf, sizeof(buf)) == 0 && buf[0])
		json_object_set_new(o, key, json_string(buf));
	else
		json_object_set_new(o, key, json_string(UNKNOWN));
}

void ios_hw_set_str(json_t *o, const char *key, const char *v)
{
	json_object_set_new(o, key, json_string(v && v[0] ? v : UNKNOWN));
}

/* Number of CPUs in a list like "0-3,8,10-11"; -1 on syntax error. */
long ios_hw_count_list(const char *s)
{
	long n = 0;

	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b;

		if (end == s || a < 0)
			return -1;
		b = a;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a)
				return -1;
			s = end;
		}
		n += b - a + 1;
		if (*s == ',')
			s++;
		else if (*s && !isspace((unsigned char)*s))
			return -1;
		while (isspace((unsigned char)*s))
			s++;
	}
	return n;
}

static json_t *cpu_info(const char *root)
{
	json_t *o = json_object();
	char buf[65536], *p;
	long n;

	/* model: first "model name" line of /proc/cpuinfo */
	if (rd(root, "proc/cpuinfo", buf, sizeof(buf)) == 0 &&
	    (p = strstr(buf, "model name"))) {
		char *colon = strchr(p, ':'), *nl;

		if (colon) {
			colon++;
			while (*colon == ' ' || *colon == '\t')
				colon++;
			nl = strchr(colon, '\n');
			if (nl)
				*nl = '\0';
			set_str(o, "model", colon);
		}
	}
	if (!json_object_get(o, "model"))
		set_str(o, "model", NULL);

	set_file_str(o, "online", root, "sys/devices/system/cpu/online");
	set_file_str(o, "possible", root, "sys/devices/system/cpu/possible");
	for (int k = 0; k < 2; k++) {
		const char *key = k ? "possible" : "online";
		const char *v = json_string_value(json_object_get(o, key));

		n = v && strcmp(v, UNKNOWN) ? ios_hw_count_list(v) : -1;
		json_object_set_new(o, k ? "possible_count" : "online_count",
				    n >= 0 ? json_integer(n)
					   : json_string(UNKNOWN));
	}

#ifdef HAVE_HWLOC
	if (!strcmp(root, "/")) {
		hwloc_topology_t topo;

		if (hwloc_topology_init(&topo) == 0 &&
		    hwloc_topology_load(topo) == 0) {
			static const struct {
				const char *key;
				hwloc_obj_type_t type;
			} t[] = {
				{"sockets", HWLOC_OBJ_PACKAGE},
				{"cores", HWLOC_OBJ_CORE},
				{"threads", HWLOC_OBJ_PU},
				{"numa_nodes", HWLOC_OBJ_NUMANODE},
			};
			for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
				int c = hwloc_get_nbobjs_by_type(topo,
								 t[i].type);

				json_object_set_new(
					o, t[i].key,
					c > 0 ? json_integer(c)
					      : json_string(UNKNOWN));
			}
			json_object_set_new(o, "topology_source",
					    json_string("hwloc"));
		}
		hwloc_topology_destroy(topo);
	}
#endif
	if (!json_object_get(o, "numa_nodes")) {
		/* no hwloc (or a fake root): count sysfs node dirs */
		size_t c = 0;

		(void)sysfs_count_units(root, "sys/devices/system/node", "node",
					NULL, NULL, &c, NULL);
		json_object_set_new(o, "numa_nodes",
				    c ? json_integer((json_int_t)c)
				      : json_string(UNKNOWN));
		set_str(o, "sockets", NULL);
		set_str(o, "cores", NULL);
		set_str(o, "threads", NULL);
		json_object_set_new(o, "topology_source", json_string("sysfs"));
	}
	return o;
}

static json_t *mem_info(const char *root)
{
	json_t *o = json_object();
	char buf[8192], *p;
	long long bs = -1;
	size_t on = 0, tot = 0;

	if (rd(root, "proc/meminfo", buf, sizeof(buf)) == 0 &&
	    (p = strstr(buf, "MemTotal:")))
		json_object_set_new(
			o, "total_bytes",
			json_integer(strtoll(p + 9, NULL, 10) * 1024));
	else
		set_str(o, "total_bytes", NULL);
	if (rd(root, "sys/devices/system/memory/block_size_bytes", buf,
	       sizeof(buf)) == 0)
		bs = strtoll(buf, NULL, 16);
	if (bs > 0)
		(void)sysfs_count_units(root, "sys/devices/system/memory",
					"memory", "state", "online", &tot, &on);
	if (bs > 0 && tot > 0) {
		json_object_set_new(o, "block_size_bytes", json_integer(bs));
		json_object_set_new(o, "blocks_online",
				    json_integer((json_int_t)on));
		json_object_set_new(o, "blocks_total",
				    json_integer((json_int_t)tot));
		json_object_set_new(o, "online_bytes",
				    json_integer((json_int_t)on * bs));
	} else {
		set_str(o, "block_size_bytes", NULL);
		set_str(o, "blocks_online", NULL);
		set_str(o, "blocks_total", NULL);
		/* no memory hotplug interface: all of MemTotal is online */
		json_object_set(o, "online_bytes",
				json_object_get(o, "total_bytes"));
	}
	return o;
}

/* Undo mountinfo's octal escapes (\040 for space) in place. */
static void unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] &&
		    s[3]) {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

static int under(const char *path, const char *mnt)
{
	size_t n = strlen(mnt);

	if (!strcmp(mnt, "/"))
		return 1;
	return !strncmp(path, mnt, n) && (path[n] == '/' || path[n] == '\0');
}

/*
 * The mount options as a results file keeps them: the value of an option
 * named like a credential (secret=, key=, secretfile=: ios_hw_secret_name)
 * becomes <hidden>, whatever the kernel showed.
 */
static void redact_options(char *out, size_t outlen, const char *opts)
{
	size_t n = 0;
	const char *p = opts;

	out[0] = '\0';
	while (*p) {
		size_t len = strcspn(p, ","), klen = strcspn(p, "=,");
		char name[128];
		int w;

		snprintf(name, sizeof(name), "%.*s", (int)klen, p);
		if (klen < len && ios_hw_secret_name(name))
			w = snprintf(out + n, outlen - n, "%s%s=<hidden>",
				     n ? "," : "", name);
		else
			w = snprintf(out + n, outlen - n, "%s%.*s",
				     n ? "," : "", (int)len, p);
		if (w < 0 || (size_t)w >= outlen - n)
			break; /* cut at the last whole option */
		n += (size_t)w;
		p += len;
		if (*p == ',')
			p++;
	}
}

const char *ios_hw_fs_client(const char *type)
{
	if (!type || !*type || !strcmp(type, "unknown"))
		return "unknown";
	if (!strcmp(type, "ceph"))
		return "kernel";
	if (!strncmp(type, "fuse.ceph", 9))
		return "fuse";
	return "none";
}

json_t *ios_hw_filesystem(const char *root, const char *target_dir)
{
	json_t *o = json_object();
	char path[PATH_MAX], mi[PATH_MAX], line[8192];
	char best_mnt[PATH_MAX] = "", best_type[256] = "",
	     best_src[PATH_MAX] = "", best_opts[4096] = "", best_dev[64] = "",
	     opts[4096];
	FILE *f;

	if (!strcmp(root, "/") && realpath(target_dir, path))
		;
	else
		snprintf(path, sizeof(path), "%s", target_dir);
	set_str(o, "path", path);
	snprintf(mi, sizeof(mi), "%s/proc/self/mountinfo", root);
	f = fopen(mi, "re");
	while (f && fgets(line, sizeof(line), f)) {
		/* id parent maj:min root mnt opts [optional...] - type src
		 * sopts */
		char *fld[64], *save = NULL, *t;
		int nf = 0, dash = -1;

		for (t = strtok_r(line, " \n", &save); t && nf < 64;
		     t = strtok_r(NULL, " \n", &save)) {
			if (!strcmp(t, "-") && dash < 0)
				dash = nf;
			fld[nf++] = t;
		}
		if (nf < 6 || dash < 0 || dash + 2 >= nf)
			continue;
		unescape(fld[4]);
		/* later mounts over the same point win: use >= */
		if (under(path, fld[4]) && strlen(fld[4]) >= strlen(best_mnt)) {
			snprintf(best_mnt, sizeof(best_mnt), "%s", fld[4]);
			snprintf(best_dev, sizeof(best_dev), "%s", fld[2]);
			snprintf(best_type, sizeof(best_type), "%s",
				 fld[dash + 1]);
			unescape(fld[dash + 2]);
			snprintf(best_src, sizeof(best_src), "%s",
				 fld[dash + 2]);
			snprintf(best_opts, sizeof(best_opts), "%s%s%s", fld[5],
				 dash + 3 < nf ? "," : "",
				 dash + 3 < nf ? fld[dash + 3] : "");
		}
	}
	if (f)
		fclose(f);
	set_str(o, "mount_point", best_mnt);
	set_str(o, "type", best_type);
	set_str(o, "source", best_src);
	redact_options(opts, sizeof(opts), best_opts);
	set_str(o, "options", opts);
	set_str(o, "dev", best_dev);
	set_str(o, "client", ios_hw_fs_client(best_type[0] ? best_type : NULL));
	return o;
}

/* The filesystem member of a run on a client that is no mount. */
static json_t *fs_of_client(const char *target_dir, const char *client)
{
	json_t *o = json_object();

	set_str(o, "path", target_dir);
	set_str(o, "mount_point", "none");
	set_str(o, "type", client);
	set_str(o, "source", "none");
	set_str(o, "options", "none");
	set_str(o, "dev", "none");
	set_str(o, "client", client);
	return o;
}

char *ios_hw_dump(json_t *o)
{
	char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);

	json_decref(o);
	return s;
}

char *ios_hw_host_json(const char *root, const struct ios_hw_host_opts *opts)
{
	static const struct ios_hw_host_opts none = {0};
	json_t *o = json_object(), *cpu;
	char buf[1024], rel[64];
	const char *sn;

	if (!o)
		return NULL;
	if (!opts)
		opts = &none;
	if (!root)
		root = "/";
	set_file_str(o, "hostname", root, "proc/sys/kernel/hostname");
	ios_hw_role(o, opts->role, opts->role_source);
	sn = getenv("SLURMD_NODENAME");
	if (!sn || !sn[0])
		sn = getenv("SLURM_TOPOLOGY_ADDR");
	set_str(o, "slurm_node", sn);
	if (rd(root, "proc/sys/kernel/osrelease", buf, sizeof(buf)) == 0) {
		char ver[512];

		if (rd(root, "proc/sys/kernel/version", ver, sizeof(ver)) ==
		    0) {
			size_t l = strlen(buf);

			snprintf(buf + l, sizeof(buf) - l, " %s", ver);
		}
		set_str(o, "kernel", buf);
	} else {
		set_str(o, "kernel", NULL);
	}
	{
		char osr[8192], *p;

		buf[0] = '\0';
		snprintf(rel, sizeof(rel), "etc/os-release");
		if (rd(root, rel, osr, sizeof(osr)) == 0 &&
		    (p = strstr(osr, "PRETTY_NAME="))) {
			char *nl;

			p += 12;
			nl = strchr(p, '\n');
			if (nl)
				*nl = '\0';
			if (*p == '"') {
				p++;
				if (p[0] && p[strlen(p) - 1] == '"')
					p[strlen(p) - 1] = '\0';
			}
			snprintf(buf, sizeof(buf), "%s", p);
		}
		set_str(o, "os", buf);
	}
	cpu = cpu_info(root);
	ios_hw_microcode(cpu, root);
	json_object_set_new(cpu, "frequency", ios_hw_cpufreq(root));
	json_object_set_new(o, "cpu", cpu);
	json_object_set_new(o, "memory", mem_info(root));
	json_object_set_new(o, "system", ios_hw_dmi(root));
	json_object_set_new(o, "block_devices", ios_hw_block_devices(root));
	json_object_set_new(o, "nics", ios_hw_nics(root));
	json_object_set_new(o, "infiniband", ios_hw_infiniband(root));
	{
		json_t *sl = ios_hw_slurm(root);

		ios_hw_slurm_running(sl, getenv("IOSTRATA_SCONTROL"), sn,
				     IOS_SLURM_PROBE_TIMEOUT_MS);
		json_object_set_new(o, "slurm", sl);
	}
	if (opts->mpi_library)
		json_object_set_new(o, "mpi_library",
				    json_string(opts->mpi_library));
	else
		ios_hw_unknown(o, "mpi_library",
			       "collected outside an MPI process");
	ios_hw_mpi_transport(o, environ, opts);
	ios_hw_shape(o, opts->applied_file);
	if (opts->target_dir)
		json_object_set_new(
			o, "filesystem",
			opts->fs_client
				? fs_of_client(opts->target_dir,
					       opts->fs_client)
				: ios_hw_filesystem(root, opts->target_dir));
	return dump(o);
}

char *ios_hw_node_json_root(const char *root, const char *target_dir)
{
	struct ios_hw_host_opts o = {.target_dir = target_dir};

	return ios_hw_host_json(root, &o);
}

char *ios_hw_node_json(const char *target_dir)
{
	return ios_hw_node_json_root("/", target_dir);
}

/* ---- Slurm ----------------------------------------------------------- */

/* A job record member and the variable it comes from. */
struct env_fact {
	const char *key, *var;
};

static void env_str(json_t *o, const char *key, const char *var)
{
	const char *v = getenv(var);

	if (v && v[0])
		json_object_set_new(o, key, json_string(v));
}

/*
 * A het step: every task has the leader's SLURM_JOB_ID and the last
 * component's SLURM_JOB_PARTITION (Slurm 22.05: the clients' tasks read
 * "storage"), so "partition" is each component's, in component order,
 * joined with ","; "het_size" and "het_components" (job_id, partition,
 * nodelist, nnodes, ntasks of each, from SLURM_*_HET_GROUP_<n>) say the
 * rest.  Nothing when SLURM_HET_SIZE is not a number of 2..1000.
 */
static void het_components(json_t *o)
{
	static const struct env_fact per[] = {
		{"job_id", "SLURM_JOB_ID"},
		{"partition", "SLURM_JOB_PARTITION"},
		{"nodelist", "SLURM_JOB_NODELIST"},
		{"nnodes", "SLURM_JOB_NUM_NODES"},
		{"ntasks", "SLURM_NTASKS"},
	};
	const char *hs = getenv("SLURM_HET_SIZE");
	json_t *arr;
	char *end, *parts = NULL;
	size_t plen = 0;
	long n;

	if (!hs || !*hs)
		return;
	errno = 0;
	n = strtol(hs, &end, 10);
	if (errno || *end || n < 2 || n > 1000)
		return;
	arr = json_array();
	if (!arr)
		return;
	for (int g = 0; g < n; g++) {
		json_t *c = json_object();
		const char *part = NULL;

		if (!c)
			break;
		for (size_t i = 0; i < sizeof(per) / sizeof(per[0]); i++) {
			char var[64];
			const char *v;

			snprintf(var, sizeof(var), "%s_HET_GROUP_%d",
				 per[i].var, g);
			v = getenv(var);
			if (v && v[0])
				json_object_set_new(c, per[i].key,
						    json_string(v));
			if (i == 1)
				part = v && v[0] ? v : "unknown";
		}
		json_array_append_new(arr, c);
		{
			size_t l = strlen(part);
			char *p = realloc(parts, plen + l + 2);

			if (!p)
				break;
			parts = p;
			if (plen)
				parts[plen++] = ',';
			memcpy(parts + plen, part, l + 1);
			plen += l;
		}
	}
	json_object_set_new(o, "het_size", json_integer(n));
	json_object_set_new(o, "het_components", arr);
	if (parts)
		json_object_set_new(o, "partition", json_string(parts));
	free(parts);
}

char *ios_hw_job_json(void)
{
	static const struct env_fact facts[] = {
		{"job_id", "SLURM_JOB_ID"},
		{"array_job_id", "SLURM_ARRAY_JOB_ID"},
		{"array_task_id", "SLURM_ARRAY_TASK_ID"},
		{"het_job_id", "SLURM_HET_JOB_ID"},
		{"het_job_offset", "SLURM_HET_JOB_OFFSET"},
		{"partition", "SLURM_JOB_PARTITION"},
		{"nodelist", "SLURM_JOB_NODELIST"},
		{"nnodes", "SLURM_JOB_NUM_NODES"},
		{"ntasks", "SLURM_NTASKS"},
		{"tasks_per_node", "SLURM_TASKS_PER_NODE"},
		{"cpus_per_task", "SLURM_CPUS_PER_TASK"},
		{"job_name", "SLURM_JOB_NAME"},
		{"cluster", "SLURM_CLUSTER_NAME"},
		{"step_id", "SLURM_STEP_ID"},
		{"submit_dir", "SLURM_SUBMIT_DIR"},
	};
	static const struct env_fact req[] = {
		{"cpus", "IOSTRATA_REQ_CPUS"},
		{"mem", "IOSTRATA_REQ_MEM"},
		{"disk_bw", "IOSTRATA_REQ_DISK_BW"},
		{"disk_iops", "IOSTRATA_REQ_DISK_IOPS"},
		{"profile", "IOSTRATA_REQ_PROFILE"},
	};
	static const struct env_fact app[] = {
		{"cpus", "IOSTRATA_APPLIED_CPUS"},
		{"cpu_list", "IOSTRATA_APPLIED_CPU_LIST"},
		{"mem", "IOSTRATA_APPLIED_MEM"},
		{"disk_bw", "IOSTRATA_APPLIED_DISK_BW"},
		{"disk_iops", "IOSTRATA_APPLIED_DISK_IOPS"},
		{"file", "IOSTRATA_APPLIED_FILE"},
	};
	json_t *o, *r, *a;
	const char *file;

	if (!getenv("SLURM_JOB_ID"))
		return NULL;
	o = json_object();
	if (!o)
		return NULL;
	for (size_t i = 0; i < sizeof(facts) / sizeof(facts[0]); i++)
		env_str(o, facts[i].key, facts[i].var);
	het_components(o);
	r = json_object();
	for (size_t i = 0; i < sizeof(req) / sizeof(req[0]); i++)
		env_str(r, req[i].key, req[i].var);
	json_object_set_new(o, "requested", r);
	a = json_object();
	for (size_t i = 0; i < sizeof(app) / sizeof(app[0]); i++)
		env_str(a, app[i].key, app[i].var);
	json_object_set_new(o, "applied", a);
	json_object_set_new(
		o, "spank_plugin",
		json_string(json_object_size(a) ? "active" : "not active"));
	file = getenv("IOSTRATA_APPLIED_FILE");
	if (file && file[0]) {
		json_error_t jerr;
		json_t *j = json_load_file(file, 0, &jerr);

		if (j)
			json_object_set_new(o, "applied_file", j);
		else
			json_object_set_new(o, "applied_file_error",
					    json_string(jerr.text));
	}
	return dump(o);
}

#endif /* HAVE_JANSSON */
