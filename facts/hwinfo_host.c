/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hwinfo_host: the host facts that change a benchmark beyond CPU and
 * memory counts: CPU frequency and governor, microcode, DMI system and
 * DIMMs, InfiniBand ports, the Slurm build and slurm.conf keys, the host's
 * role and the SPANK shape.  Every file is read under a root directory
 * (hwinfo_internal.h); a fact that cannot be read is "unknown" and the
 * object's "why_unknown" member says why.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <jansson.h>

#if defined(HAVE_SLURM) || defined(HAVE_LIBSLURM)
#include <slurm/slurm_version.h>
#endif

#include "hostfs.h"
#include "hwinfo_internal.h"

#define UNKNOWN "unknown"

int ios_hw_rd(const char *root, const char *rel, char *buf, size_t len)
{
	ssize_t n = sysfs_read_path(root, rel, buf, len);

	return n < 0 ? (int)n : 0;
}

void ios_hw_unknown(json_t *o, const char *key, const char *fmt, ...)
{
	json_t *why = json_object_get(o, "why_unknown");
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	json_object_set_new(o, key, json_string(UNKNOWN));
	if (!why) {
		why = json_object();
		json_object_set_new(o, "why_unknown", why);
	}
	json_object_set_new(why, key, json_string(msg));
}

/* A text fact: printable, no control characters (a garbage file is not a
 * model name). */
static int printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 0;
	return 1;
}

int ios_hw_str(json_t *o, const char *key, const char *root, const char *rel)
{
	char buf[1024];
	int rc = ios_hw_rd(root, rel, buf, sizeof(buf));

	if (rc)
		ios_hw_unknown(o, key, "/%s: %s", rel, strerror(-rc));
	else if (!buf[0])
		ios_hw_unknown(o, key, "/%s: empty", rel);
	else if (!printable(buf))
		ios_hw_unknown(o, key, "/%s: not text", rel);
	else if (!strcmp(buf, UNKNOWN)) /* operstate of lo, tunnels */
		ios_hw_unknown(o, key, "/%s: the kernel reports \"unknown\"",
			       rel);
	else
		json_object_set_new(o, key, json_string(buf));
	return rc ? rc : buf[0] && printable(buf) ? 0 : -EINVAL;
}

int ios_hw_int(json_t *o, const char *key, const char *root, const char *rel)
{
	char buf[128], *end;
	long long v;
	int rc = ios_hw_rd(root, rel, buf, sizeof(buf));

	if (rc) {
		ios_hw_unknown(o, key, "/%s: %s", rel, strerror(-rc));
		return rc;
	}
	errno = 0;
	v = strtoll(buf, &end, 10);
	if (errno || end == buf || *end || v < 0) {
		ios_hw_unknown(o, key, "/%s: \"%.64s\" is not a count", rel,
			       buf);
		return -EINVAL;
	}
	json_object_set_new(o, key, json_integer(v));
	return 0;
}

/* ---- CPU frequency, microcode ---------------------------------------- */

static int cpu_dir(const struct dirent *e)
{
	return !strncmp(e->d_name, "cpu", 3) &&
	       isdigit((unsigned char)e->d_name[3]);
}

json_t *ios_hw_cpufreq(const char *root)
{
	static const char base[] = "sys/devices/system/cpu";
	json_t *o = json_object();
	char path[PATH_MAX], rel[320], buf[128];
	char govs[256] = "";
	struct dirent **ents = NULL;
	int n, seen = 0, e;
	struct stat st;

	snprintf(rel, sizeof(rel), "%s/cpu0/cpufreq", base);
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	e = stat(path, &st) < 0 ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
	if (e) {
		static const char *const k[] = {
			"driver", "governor", "base_khz", "min_khz", "max_khz"};
		const char *why =
			e == ENOENT ? "no cpufreq driver (a VM, or none loaded)"
				    : strerror(e);

		for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++)
			ios_hw_unknown(o, k[i], "/%s: %s", rel, why);
		return o;
	}
	snprintf(rel, sizeof(rel), "%s/cpu0/cpufreq/scaling_driver", base);
	ios_hw_str(o, "driver", root, rel);
	/* the governor of every CPU that has one: "performance", or
	 * "performance,powersave" when they differ */
	snprintf(path, sizeof(path), "%s/%s", root, base);
	n = scandir(path, &ents, cpu_dir, versionsort);
	for (int i = 0; i < n; i++) {
		snprintf(rel, sizeof(rel), "%s/%s/cpufreq/scaling_governor",
			 base, ents[i]->d_name);
		if (ios_hw_rd(root, rel, buf, sizeof(buf)) == 0 && buf[0] &&
		    printable(buf) && !strstr(govs, buf)) {
			size_t l = strlen(govs);

			snprintf(govs + l, sizeof(govs) - l, "%s%s",
				 l ? "," : "", buf);
			seen++;
		}
		free(ents[i]);
	}
	free(ents);
	if (seen)
		json_object_set_new(o, "governor", json_string(govs));
	else
		ios_hw_unknown(
			o, "governor",
			"/%s/cpu*/cpufreq/scaling_governor: none readable",
			base);
	/* base_frequency: intel_pstate and amd-pstate only */
	snprintf(rel, sizeof(rel), "%s/cpu0/cpufreq/base_frequency", base);
	ios_hw_int(o, "base_khz", root, rel);
	snprintf(rel, sizeof(rel), "%s/cpu0/cpufreq/cpuinfo_min_freq", base);
	ios_hw_int(o, "min_khz", root, rel);
	snprintf(rel, sizeof(rel), "%s/cpu0/cpufreq/cpuinfo_max_freq", base);
	ios_hw_int(o, "max_khz", root, rel);
	return o;
}

/* The value of the first "[key]\t: value" line of cpuinfo text, or NULL. */
static const char *cpuinfo_value(char *text, const char *key, char *out,
				 size_t len)
{
	size_t kl = strlen(key);

	for (char *l = text; l && *l;
	     l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char *c, *nl;

		if (strncmp(l, key, kl) ||
		    (l[kl] != ' ' && l[kl] != '\t' && l[kl] != ':'))
			continue;
		c = strchr(l, ':');
		nl = strchr(l, '\n');
		if (!c || (nl && c > nl))
			continue;
		c++;
		while (*c == ' ' || *c == '\t')
			c++;
		snprintf(out, len, "%.*s",
			 (int)(nl ? (size_t)(nl - c) : strlen(c)), c);
		return out;
	}
	return NULL;
}

void ios_hw_microcode(json_t *cpu, const char *root)
{
	static char text[1 << 16];
	char v[128];
	int rc = ios_hw_rd(root, "proc/cpuinfo", text, sizeof(text));

	if (rc)
		ios_hw_unknown(cpu, "microcode", "/proc/cpuinfo: %s",
			       strerror(-rc));
	else if (!cpuinfo_value(text, "microcode", v, sizeof(v)) || !v[0] ||
		 !printable(v))
		ios_hw_unknown(
			cpu, "microcode",
			"/proc/cpuinfo: no microcode line (a VM, or not x86)");
	else
		json_object_set_new(cpu, "microcode", json_string(v));
}

/* ---- DMI: system and DIMMs ------------------------------------------- */

/* SMBIOS string [idx] (1-based) of the structure at [s] (formatted
 * length [flen]) ending before [end]; NULL when absent. */
static const char *smbios_str(const uint8_t *s, size_t flen, const uint8_t *end,
			      uint8_t idx)
{
	const char *p = (const char *)s + flen;

	if (!idx)
		return NULL;
	while (--idx) {
		const char *z = memchr(p, 0, (size_t)((const char *)end - p));

		if (!z || z + 1 >= (const char *)end || !z[1])
			return NULL;
		p = z + 1;
	}
	return memchr(p, 0, (size_t)((const char *)end - p)) ? p : NULL;
}

static void dimm_str(json_t *d, const char *key, const char *v)
{
	char buf[128];
	size_t n;

	if (!v || !printable(v)) {
		ios_hw_unknown(d, key, "not in the SMBIOS type 17 entry");
		return;
	}
	snprintf(buf, sizeof(buf), "%s", v);
	n = strlen(buf);
	while (n > 0 && buf[n - 1] == ' ')
		buf[--n] = '\0';
	if (!n)
		ios_hw_unknown(d, key, "empty in the SMBIOS type 17 entry");
	else
		json_object_set_new(d, key, json_string(buf));
}

int ios_hw_dimms_parse(const uint8_t *t, size_t len, json_t *out)
{
	const uint8_t *p = t, *end = t + len;

	while (p + 4 <= end) {
		uint8_t type = p[0], flen = p[1];
		const uint8_t *q;

		if (flen < 4 || p + flen > end)
			return -EBADMSG;
		/* the string set ends with two NULs */
		for (q = p + flen; q + 1 < end && (q[0] || q[1]); q++)
			;
		if (q + 1 >= end)
			return -EBADMSG;
		q += 2;
		if (type == 127)
			break;
		if (type == 17 && flen >= 0x15) {
			json_t *d = json_object();
			uint16_t size = (uint16_t)(p[0x0c] | p[0x0d] << 8);
			long long mib;

			if (size == 0) { /* empty slot */
				json_decref(d);
				p = q;
				continue;
			}
			dimm_str(d, "locator", smbios_str(p, flen, q, p[0x10]));
			if (size == 0xffff) {
				ios_hw_unknown(d, "size_bytes",
					       "SMBIOS: size unknown");
			} else {
				if (size == 0x7fff && flen >= 0x20)
					mib = (long long)(p[0x1c] |
							  p[0x1d] << 8 |
							  p[0x1e] << 16 |
							  (uint32_t)p[0x1f]
								  << 24);
				else if (size & 0x8000)
					mib = (size & 0x7fff) / 1024;
				else
					mib = size;
				json_object_set_new(d, "size_bytes",
						    json_integer(mib << 20));
			}
			if (flen >= 0x17 && (p[0x15] | p[0x16] << 8))
				json_object_set_new(
					d, "speed_mts",
					json_integer(p[0x15] | p[0x16] << 8));
			else
				ios_hw_unknown(d, "speed_mts",
					       "SMBIOS: speed not given");
			dimm_str(d, "manufacturer",
				 flen > 0x17 ? smbios_str(p, flen, q, p[0x17])
					     : NULL);
			dimm_str(d, "part_number",
				 flen > 0x1a ? smbios_str(p, flen, q, p[0x1a])
					     : NULL);
			json_array_append_new(out, d);
		}
		p = q;
	}
	return 0;
}

json_t *ios_hw_dmi(const char *root)
{
	static const char *const keys[][2] = {
		{"sys_vendor", "sys_vendor"},
		{"product_name", "product_name"},
		{"product_version", "product_version"},
		{"board_vendor", "board_vendor"},
		{"board_name", "board_name"},
		{"bios_vendor", "bios_vendor"},
		{"bios_version", "bios_version"},
		{"bios_date", "bios_date"},
	};
	static const char tab[] = "sys/firmware/dmi/tables/DMI";
	json_t *o = json_object(), *dimms;
	char rel[128], path[PATH_MAX];
	uint8_t *buf;
	size_t n = 0;
	FILE *f;
	int rc;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		snprintf(rel, sizeof(rel), "sys/class/dmi/id/%s", keys[i][1]);
		ios_hw_str(o, keys[i][0], root, rel);
	}
	/* DIMMs: the raw SMBIOS table (root only on most systems) */
	snprintf(path, sizeof(path), "%s/%s", root, tab);
	f = fopen(path, "re");
	if (!f) {
		ios_hw_unknown(o, "dimms", "/%s: %s%s", tab, strerror(errno),
			       errno == EACCES ? " (readable by root only)"
					       : "");
		return o;
	}
	buf = malloc(1 << 20);
	if (buf)
		n = fread(buf, 1, 1 << 20, f);
	rc = ferror(f) ? -EIO : 0;
	fclose(f);
	dimms = json_array();
	if (!buf || rc || !n) {
		ios_hw_unknown(o, "dimms", "/%s: %s", tab,
			       !buf ? strerror(ENOMEM)
			       : rc ? strerror(EIO)
				    : "empty");
		json_decref(dimms);
	} else if ((rc = ios_hw_dimms_parse(buf, n, dimms)) < 0) {
		ios_hw_unknown(
			o, "dimms",
			"/%s: not an SMBIOS table (a structure runs past the end)",
			tab);
		json_decref(dimms);
	} else if (!json_array_size(dimms)) {
		ios_hw_unknown(o, "dimms",
			       "/%s: no memory device (type 17) entry (a VM?)",
			       tab);
		json_decref(dimms);
	} else {
		json_object_set_new(o, "dimms", dimms);
	}
	free(buf);
	return o;
}

/* ---- InfiniBand ports ------------------------------------------------ */

static int not_dot(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

json_t *ios_hw_infiniband(const char *root)
{
	json_t *a = json_array();
	char path[PATH_MAX], rel[PATH_MAX];
	struct dirent **hca = NULL, **port = NULL;
	int nh, np;

	snprintf(path, sizeof(path), "%s/sys/class/infiniband", root);
	nh = scandir(path, &hca, not_dot, alphasort);
	for (int i = 0; i < nh; i++) {
		snprintf(path, sizeof(path), "%s/sys/class/infiniband/%s/ports",
			 root, hca[i]->d_name);
		np = scandir(path, &port, not_dot, versionsort);
		for (int k = 0; k < np; k++) {
			json_t *o = json_object();
			char *e;
			long pn = strtol(port[k]->d_name, &e, 10);

			json_object_set_new(o, "device",
					    json_string(hca[i]->d_name));
			json_object_set_new(o, "port",
					    *e ? json_string(UNKNOWN)
					       : json_integer(pn));
#define PORT(f)                                                                \
	(snprintf(rel, sizeof(rel), "sys/class/infiniband/%s/ports/%s/" f,     \
		  hca[i]->d_name, port[k]->d_name),                            \
	 rel)
			ios_hw_str(o, "rate", root, PORT("rate"));
			ios_hw_str(o, "state", root, PORT("state"));
			ios_hw_str(o, "link_layer", root, PORT("link_layer"));
#undef PORT
			json_array_append_new(a, o);
			free(port[k]);
		}
		free(port);
		port = NULL;
		free(hca[i]);
	}
	free(hca);
	return a;
}

/* ---- Slurm ----------------------------------------------------------- */

/* The keys of slurm.conf and cgroup.conf that change a benchmark. */
static const char *const slurm_keys[] = {
	"SelectType",        "SelectTypeParameters",
	"TaskPlugin",        "TaskPluginParam",
	"ProctrackType",     "PrologFlags",
	"JobAcctGatherType", NULL,
};
static const char *const cgroup_keys[] = {
	"CgroupPlugin",       "ConstrainCores",   "ConstrainRAMSpace",
	"ConstrainSwapSpace", "ConstrainDevices", "AllowedRAMSpace",
	"AllowedSwapSpace",   "MemorySwappiness", NULL,
};

int ios_hw_conf_parse(const char *text, const char *const *keys, json_t *o)
{
	int found = 0;

	for (const char *l = text; l && *l;) {
		const char *nl = strchr(l, '\n');
		size_t ll = nl ? (size_t)(nl - l) : strlen(l);
		char line[1024], *p, *eq;

		if (ll >= sizeof(line))
			ll = sizeof(line) - 1;
		memcpy(line, l, ll);
		line[ll] = '\0';
		l = nl ? nl + 1 : NULL;
		if ((p = strchr(line, '#')))
			*p = '\0';
		for (p = line; isspace((unsigned char)*p); p++)
			;
		eq = strchr(p, '=');
		if (!eq)
			continue;
		*eq++ = '\0';
		for (char *t = eq - 2; t >= p && isspace((unsigned char)*t);
		     t--)
			*t = '\0';
		while (isspace((unsigned char)*eq))
			eq++;
		for (char *t = eq + strlen(eq) - 1;
		     t >= eq && isspace((unsigned char)*t); t--)
			*t = '\0';
		for (size_t k = 0; keys[k]; k++)
			if (!strcasecmp(p, keys[k]) && printable(eq)) {
				/* Slurm: the last setting wins */
				json_object_set_new(o, keys[k],
						    json_string(eq));
				found++;
			}
	}
	return found;
}

/* Read [path] (absolute, under [root]) and set [keys] in [o]; a key the
 * file does not set is "unset" (Slurm's default applies). */
static void conf_keys(json_t *o, const char *root, const char *path,
		      const char *const *keys)
{
	static char text[1 << 17];
	int rc = ios_hw_rd(root, path[0] == '/' ? path + 1 : path, text,
			   sizeof(text));

	for (size_t k = 0; keys[k]; k++) {
		if (rc)
			ios_hw_unknown(o, keys[k], "%s: %s", path,
				       strerror(-rc));
	}
	if (rc)
		return;
	ios_hw_conf_parse(text, keys, o);
	for (size_t k = 0; keys[k]; k++)
		if (!json_object_get(o, keys[k]))
			json_object_set_new(o, keys[k],
					    json_string("unset (default)"));
}

json_t *ios_hw_slurm(const char *root)
{
	json_t *o = json_object(), *cg;
	const char *conf = getenv("SLURM_CONF");
	char dir[PATH_MAX], cgpath[PATH_MAX + 16];
	char *slash;

#ifdef SLURM_VERSION_NUMBER
	{
		char v[32];

		snprintf(v, sizeof(v), "%d.%02d.%d",
			 (int)SLURM_VERSION_MAJOR(SLURM_VERSION_NUMBER),
			 (int)SLURM_VERSION_MINOR(SLURM_VERSION_NUMBER),
			 (int)SLURM_VERSION_MICRO(SLURM_VERSION_NUMBER));
		json_object_set_new(o, "version_built", json_string(v));
	}
#else
	ios_hw_unknown(
		o, "version_built",
		"built without the Slurm headers (slurm/slurm_version.h)");
#endif
	if (!conf || !conf[0])
		conf = "/etc/slurm/slurm.conf";
	json_object_set_new(o, "conf", json_string(conf));
	conf_keys(o, root, conf, slurm_keys);
	/* cgroup.conf lives next to slurm.conf */
	snprintf(dir, sizeof(dir) - 16, "%s", conf);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof(dir), ".");
	snprintf(cgpath, sizeof(cgpath), "%s/cgroup.conf", dir);
	cg = json_object();
	json_object_set_new(cg, "conf", json_string(cgpath));
	conf_keys(cg, root, cgpath, cgroup_keys);
	json_object_set_new(o, "cgroup", cg);
	return o;
}

/* ---- role and shape -------------------------------------------------- */

void ios_hw_role(json_t *o, const char *role, const char *source)
{
	const char *env = getenv("IOSTRATA_ROLE");
	const char *applied = getenv("IOSTRATA_APPLIED_FILE");

	if (role) {
		json_object_set_new(o, "role", json_string(role));
		json_object_set_new(o, "role_source",
				    json_string(source ? source : "caller"));
	} else if (env && (!strcmp(env, "storage") || !strcmp(env, "client"))) {
		json_object_set_new(o, "role", json_string(env));
		json_object_set_new(o, "role_source",
				    json_string("IOSTRATA_ROLE"));
	} else if (applied && applied[0]) {
		json_object_set_new(o, "role", json_string("storage"));
		json_object_set_new(
			o, "role_source",
			json_string(
				"IOSTRATA_APPLIED_FILE (the SPANK plugin shaped this host for the job)"));
	} else {
		char why[160];

		json_object_set_new(o, "role", json_string(UNKNOWN));
		if (env)
			snprintf(
				why, sizeof(why),
				"IOSTRATA_ROLE \"%.64s\" is not storage or client",
				env);
		else
			snprintf(
				why, sizeof(why),
				"no IOSTRATA_ROLE and no SPANK applied file in the environment");
		json_object_set_new(o, "role_source", json_string(why));
	}
}

void ios_hw_shape(json_t *o, const char *applied_file)
{
	json_error_t jerr;
	json_t *j;

	if (!applied_file || !applied_file[0])
		applied_file = getenv("IOSTRATA_APPLIED_FILE");
	if (!applied_file || !applied_file[0]) {
		ios_hw_unknown(
			o, "shape",
			"no SPANK applied file (IOSTRATA_APPLIED_FILE unset: the plugin did not shape this host)");
		return;
	}
	j = json_load_file(applied_file, 0, &jerr);
	if (!j) {
		ios_hw_unknown(o, "shape", "%s: %s", applied_file, jerr.text);
		return;
	}
	if (!json_is_object(j)) {
		json_decref(j);
		ios_hw_unknown(o, "shape", "%s: not a JSON object",
			       applied_file);
		return;
	}
	json_object_set_new(j, "file", json_string(applied_file));
	json_object_set_new(o, "shape", j);
}

/* ---- one record per host --------------------------------------------- */

/* The host's name for matching: slurm_node when known, else hostname. */
static const char *host_key(json_t *o)
{
	const char *k = json_string_value(json_object_get(o, "slurm_node"));

	if (!k || !strcmp(k, UNKNOWN))
		k = json_string_value(json_object_get(o, "hostname"));
	return k && strcmp(k, UNKNOWN) ? k : NULL;
}

static int is_unknown(json_t *v)
{
	return !v ||
	       (json_is_string(v) && !strcmp(json_string_value(v), UNKNOWN));
}

int ios_hw_hosts_merge(char *const *nodes, int nnodes, char *const *extra,
		       const char *const *extra_names, int nextra, char ***out,
		       char *msg, size_t msglen)
{
	json_t **rec = calloc((size_t)(nnodes + nextra) + 1, sizeof(*rec));
	char **res;
	int n = 0;

	*out = NULL;
	if (msg && msglen)
		msg[0] = '\0';
	if (!rec)
		return -ENOMEM;
	for (int i = 0; i < nnodes; i++) {
		json_t *j = nodes[i] ? json_loads(nodes[i], 0, NULL) : NULL;

		/* a node whose record was lost still took part */
		if (!json_is_object(j)) {
			json_decref(j);
			j = json_object();
			json_object_set_new(j, "hostname",
					    json_string(UNKNOWN));
			ios_hw_role(j, UNKNOWN,
				    "the node's record did not reach rank 0");
		}
		rec[n++] = j;
	}
	for (int i = 0; i < nextra; i++) {
		json_error_t jerr;
		json_t *j = json_loads(extra[i] ? extra[i] : "", 0, &jerr);
		const char *name = extra_names ? extra_names[i] : "";
		const char *k;
		int match = -1;

		if (!json_is_object(j) || !(k = host_key(j)) ||
		    !json_object_get(j, "role")) {
			if (msg && msglen && !msg[0])
				snprintf(
					msg, msglen, "host record \"%s\": %s",
					name,
					!j ? jerr.text
					   : "not a host record (no role, or no host name)");
			json_decref(j);
			continue;
		}
		for (int m = 0; m < n && match < 0; m++) {
			const char *mk = host_key(rec[m]);

			if (mk && !strcmp(mk, k))
				match = m;
		}
		if (match < 0) {
			rec[n++] = j;
			continue;
		}
		/* the host ran ranks too: its own record stays, it learns
		 * the role and shape the other record knows */
		if (is_unknown(json_object_get(rec[match], "role")) &&
		    !is_unknown(json_object_get(j, "role"))) {
			char src[256];

			snprintf(src, sizeof(src), "%s (host record \"%s\")",
				 json_string_value(
					 json_object_get(j, "role_source")),
				 name);
			ios_hw_role(
				rec[match],
				json_string_value(json_object_get(j, "role")),
				src);
		}
		if (is_unknown(json_object_get(rec[match], "shape")) &&
		    !is_unknown(json_object_get(j, "shape"))) {
			json_object_set(rec[match], "shape",
					json_object_get(j, "shape"));
			json_object_del(
				json_object_get(rec[match], "why_unknown"),
				"shape");
		}
		json_decref(j);
	}
	res = calloc((size_t)n + 1, sizeof(*res));
	for (int i = 0; i < n; i++) {
		if (res)
			res[i] = json_dumps(rec[i],
					    JSON_COMPACT | JSON_PRESERVE_ORDER);
		json_decref(rec[i]);
		if (res && !res[i]) {
			for (int k = 0; k < i; k++)
				free(res[k]);
			free(res);
			res = NULL;
		}
	}
	free(rec);
	if (!res)
		return -ENOMEM;
	*out = res;
	return n;
}
