/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * siteconf: load and check site descriptions (INI via inih).  Every key has a
 * declared type in keys[] below; the loader rejects what it does not know,
 * naming file:line, so a site file is either fully valid or not loaded.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <ini.h>

#include "siteconf.h"
#include "siteconf_internal.h"
#include "units.h"

static const struct key_def keys[] = {
	{"site", "name", IOS_SITE_STRING, NULL, false},
	{"site", "description", IOS_SITE_STRING, NULL, false},
	{"storage", "nodes", IOS_SITE_UINT, NULL, false},
	{"storage", "nodelist", IOS_SITE_STRING, NULL, false},
	{"storage", "partition", IOS_SITE_STRING, NULL, false},
	{"storage", "disks_per_node", IOS_SITE_UINT, NULL, false},
	{"storage", "disk_bw", IOS_SITE_RATE, NULL, false},
	{"storage", "disk_bw_measured", IOS_SITE_RATE, NULL, false},
	{"storage", "controller_bw", IOS_SITE_RATE, NULL, false},
	{"storage", "nic_bw", IOS_SITE_RATE, NULL, false},
	{"storage", "cores", IOS_SITE_UINT, NULL, false},
	{"storage", "memory", IOS_SITE_SIZE, NULL, false},
	{"storage", "osds_per_node", IOS_SITE_UINT, NULL, false},
	{"storage", "nvme_per_node", IOS_SITE_UINT, NULL, false},
	{"storage", "replication", IOS_SITE_UINT, NULL, false},
	{"storage", "policy", IOS_SITE_STRING, NULL, true},
	{"storage", "state_dir", IOS_SITE_STRING, NULL, true},
	{"storage", "device_dir", IOS_SITE_STRING, NULL, false},
	{"storage", "disk_class", IOS_SITE_STRING, NULL, false},
	{"compute", "nodes", IOS_SITE_UINT, NULL, false},
	{"compute", "nodelist", IOS_SITE_STRING, NULL, false},
	{"compute", "partition", IOS_SITE_STRING, NULL, false},
	{"compute", "ranks_per_node", IOS_SITE_UINT, NULL, false},
	{"workload", "file_size", IOS_SITE_SIZE, NULL, false},
	{"workload", "seq_bs", IOS_SITE_SIZE, NULL, false},
	{"workload", "rand_bs", IOS_SITE_SIZE, NULL, false},
	{"workload", "runtime", IOS_SITE_DURATION, NULL, false},
	{"workload", "reps", IOS_SITE_UINT, NULL, false},
	{"workload", "iodepth", IOS_SITE_UINT, NULL, false},
	{"workload", "ioengine", IOS_SITE_ENUM, "psync|libaio|io_uring", false},
	{"workload", "dir", IOS_SITE_STRING, NULL, false},
	{"workload", "interval", IOS_SITE_DURATION, NULL, false},
	{"workload", "bs", IOS_SITE_SIZE, NULL, false},
	{"workload", "rwmixread", IOS_SITE_UINT, NULL, false},
	{"workload", "reuse_dataset", IOS_SITE_ENUM, "0|1", false},
	{"sweep", "cpus", IOS_SITE_UINT_LIST, NULL, false},
	{"sweep", "mem", IOS_SITE_SIZE_LIST, NULL, false},
	{"sweep", "disk_bw", IOS_SITE_RATE_LIST, NULL, false},
	{"sweep", "throttle", IOS_SITE_UINT, NULL, false},
	{"sweep", "ranks", IOS_SITE_UINT_LIST, NULL, false},
	{"sweep", "noscrub", IOS_SITE_ENUM, "0|1", false},
	{"sweep", "replication", IOS_SITE_UINT_LIST, NULL, false},
	{"sweep", "replication_pool", IOS_SITE_STRING, NULL, false},
	{"sweep", "replication_pg_num", IOS_SITE_UINT, NULL, false},
	{"sweep", "baseline", IOS_SITE_ENUM, "both|first|none", false},
	{"sweep", "baseline_replication", IOS_SITE_UINT_LIST, NULL, false},
	{"prices", "currency", IOS_SITE_STRING, NULL, false},
	{"prices", "core", IOS_SITE_DOUBLE, NULL, false},
	{"prices", "mem_gb", IOS_SITE_DOUBLE, NULL, false},
	{"prices", "hdd", IOS_SITE_DOUBLE, NULL, false},
	{"prices", "nvme", IOS_SITE_DOUBLE, NULL, false},
	{"prices", "node_base", IOS_SITE_DOUBLE, NULL, false},
	{"catalogue", "cores", IOS_SITE_UINT_LIST, NULL, false},
	{"catalogue", "memory", IOS_SITE_SIZE_LIST, NULL, false},
	{"slurm", "time", IOS_SITE_STRING, NULL, false},
	{"slurm", "account", IOS_SITE_STRING, NULL, false},
	{"slurm", "qos", IOS_SITE_STRING, NULL, false},
	{"slurm", "mpi", IOS_SITE_STRING, NULL, false},
	{"slurm", "extra", IOS_SITE_STRING, NULL, false},
	{"health", "file_size", IOS_SITE_SIZE, NULL, false},
	{"health", "runtime", IOS_SITE_DURATION, NULL, false},
	{"health", "reps", IOS_SITE_UINT, NULL, false},
	{"health", "history", IOS_SITE_STRING, NULL, true},
	{"health", "textfile", IOS_SITE_STRING, NULL, true},
	{"health", "threshold", IOS_SITE_DOUBLE, NULL, false},
	{"health", "k", IOS_SITE_DOUBLE, NULL, false},
	{"health", "layer_threshold", IOS_SITE_STRING, NULL, false},
	{"health", "last", IOS_SITE_UINT, NULL, false},
	{"health", "keep", IOS_SITE_UINT, NULL, false},
	{"health", "osd_bench_size", IOS_SITE_SIZE, NULL, false},
	{"health", "md_files", IOS_SITE_UINT, NULL, false},
	{"health", "net_objects", IOS_SITE_UINT, NULL, false},
	{"accept", "tiers", IOS_SITE_STRING, NULL, true},
	{"accept", "tier", IOS_SITE_STRING, NULL, false},
	{"accept", "fio_tolerance", IOS_SITE_DOUBLE, NULL, false},
	{"accept", "fio", IOS_SITE_UINT, NULL, false},
	{"accept", "profile", IOS_SITE_ENUM, "tiers|nersc", false},
	{"accept", "nersc_bs", IOS_SITE_SIZE, NULL, false},
	{"accept", "nersc_data_factor", IOS_SITE_DOUBLE, NULL, false},
	{"tier", "seq_read_bw", IOS_SITE_RATE, NULL, false},
	{"tier", "seq_write_bw", IOS_SITE_RATE, NULL, false},
	{"tier", "rand_read_bw", IOS_SITE_RATE, NULL, false},
	{"tier", "rand_write_bw", IOS_SITE_RATE, NULL, false},
	{"tier", "rand_read_iops", IOS_SITE_DOUBLE, NULL, false},
	{"tier", "rand_write_iops", IOS_SITE_DOUBLE, NULL, false},
	{"tier", "seq_read_iops", IOS_SITE_DOUBLE, NULL, false},
	{"tier", "seq_write_iops", IOS_SITE_DOUBLE, NULL, false},
	{"tier", "bw_bs", IOS_SITE_SIZE, NULL, false},
	{"tier", "iops_bs", IOS_SITE_SIZE, NULL, false},
	{"tier", "ioengine", IOS_SITE_ENUM, "psync|libaio|io_uring|posixaio",
	 false},
	{"tier", "iodepth", IOS_SITE_UINT, NULL, false},
	{"tier", "file_size", IOS_SITE_SIZE, NULL, false},
	{"tier", "direct", IOS_SITE_UINT, NULL, false},
	{"tier", "runtime", IOS_SITE_DURATION, NULL, false},
	{"tier", "description", IOS_SITE_STRING, NULL, false},
	{"disk", "bw", IOS_SITE_RATE, NULL, false},
	{"disk", "iops", IOS_SITE_DOUBLE, NULL, false},
	{"disk", "price", IOS_SITE_DOUBLE, NULL, false},
	{"disk", "description", IOS_SITE_STRING, NULL, false},
};

/* Sections with a quoted name: `tier "NAME"`, `disk "NAME"`. */
static const char *const named_sections[] = {"tier", "disk"};

static const char *const plain_sections[] = {
	"site",   "storage", "compute", "workload", "sweep",
	"prices", "slurm",   "health",  "accept",   "catalogue",
};

struct entry {
	char *section;
	char *key;
	char *value;
	int line;
};

struct section {
	char *name;  /* normalised: `tier "NAME"` */
	char *label; /* NAME for tiers, else == name */
	int line;
};

struct ios_site {
	char *path;
	char *dir;
	struct entry *entries;
	size_t nentries;
	struct section *sections;
	size_t nsections;
};

/* Parser state shared by the line reader and the inih handler. */
struct load_ctx {
	struct ios_site *site;
	FILE *fp;
	int line; /* line number of the last line handed to inih */
	int err;  /* first error (negative errno) */
	struct ios_err *errp;
	char cursec[256]; /* normalised current section */
};

/* "tier" for `tier "NAME"` (the kind of a named section), else NULL. */
static const char *named_kind(const char *section)
{
	for (size_t i = 0; i < sizeof(named_sections) / sizeof(*named_sections);
	     i++) {
		size_t l = strlen(named_sections[i]);

		if (strncmp(section, named_sections[i], l) == 0 &&
		    strncmp(section + l, " \"", 2) == 0)
			return named_sections[i];
	}
	return NULL;
}

static const struct key_def *find_key(const char *section, const char *key)
{
	const char *kind = named_kind(section);

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (strcmp(keys[i].key, key) != 0)
			continue;
		if (strcmp(keys[i].section, kind ? kind : section) == 0)
			return &keys[i];
	}
	return NULL;
}

int ios_site_key_kind(const char *section, const char *key)
{
	const struct key_def *d = find_key(section, key);

	return d ? (int)d->kind : -1;
}

int ios_site_keys(const char *section, int (*cb)(const char *key, void *arg),
		  void *arg)
{
	const char *kind = named_kind(section);

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		int rc;

		if (strcmp(keys[i].section, kind ? kind : section) != 0)
			continue;
		rc = cb(keys[i].key, arg);
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * Normalise a section header's inside ("tier  \"X\"" -> `tier "X"`) into
 * [out]; returns 0 or -EINVAL when it is not a known section.
 */
static int normalise_section(const char *raw, char *out, size_t outlen,
			     char *label, size_t labellen)
{
	char buf[256];
	char *s, *q, *end;
	const char *kind;

	if (strlen(raw) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, raw);
	s = ios_trim(buf);
	for (size_t i = 0; i < sizeof(plain_sections) / sizeof(*plain_sections);
	     i++) {
		if (strcmp(s, plain_sections[i]) == 0) {
			snprintf(out, outlen, "%s", s);
			snprintf(label, labellen, "%s", s);
			return 0;
		}
	}
	kind = NULL;
	for (size_t i = 0; i < sizeof(named_sections) / sizeof(*named_sections);
	     i++) {
		size_t l = strlen(named_sections[i]);

		if (strncmp(s, named_sections[i], l) == 0 &&
		    isspace((unsigned char)s[l]))
			kind = named_sections[i];
	}
	if (!kind)
		return -EINVAL;
	q = ios_trim(s + strlen(kind));
	end = q + strlen(q);
	if (end - q < 3 || q[0] != '"' || end[-1] != '"')
		return -EINVAL;
	end[-1] = '\0';
	q++;
	if (strchr(q, '"') || !*ios_trim(q))
		return -EINVAL;
	snprintf(out, outlen, "%s \"%s\"", kind, q);
	snprintf(label, labellen, "%s", q);
	return 0;
}

static int load_fail(struct load_ctx *c, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int load_fail(struct load_ctx *c, int code, const char *fmt, ...)
{
	char msg[IOS_ERR_MSGLEN];
	va_list ap;

	if (c->err)
		return code;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	c->err = code;
	ios_errf(c->errp, code, "siteconf: load %s:%d: %s", c->site->path,
		 c->line, msg);
	return code;
}

static int add_section(struct load_ctx *c, const char *name, const char *label)
{
	struct ios_site *s = c->site;
	struct section *n;

	for (size_t i = 0; i < s->nsections; i++)
		if (strcmp(s->sections[i].name, name) == 0)
			return 0; /* repeated header: keys merge */
	n = realloc(s->sections, (s->nsections + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	s->sections = n;
	n += s->nsections;
	n->name = strdup(name);
	n->label = strdup(label);
	n->line = c->line;
	if (!n->name || !n->label) {
		free(n->name);
		free(n->label);
		return -ENOMEM;
	}
	s->nsections++;
	return 0;
}

/*
 * The first control character of [s] (a byte below 0x20 other than a tab,
 * or 0x7f), or NULL.  Site text reaches terminals and gnuplot scripts.  A
 * [line] read from the file may end in LF or CRLF.
 */
static const char *control_char(const char *s, bool line)
{
	for (const char *p = s; *p; p++) {
		unsigned char b = (unsigned char)*p;

		if (line && (b == '\n' || (b == '\r' && p[1] == '\n')) &&
		    !p[b == '\r' ? 2 : 1])
			continue;
		if ((b < 0x20 && b != '\t') || b == 0x7f)
			return p;
	}
	return NULL;
}

/*
 * inih reader: hands inih one line at a time so we know the line number,
 * and checks section headers ourselves (inih does not report empty
 * sections).  Returning NULL ends the parse (EOF or our error).
 */
static char *reader(char *str, int num, void *stream)
{
	struct load_ctx *c = stream;
	char label[256], name[256], *p, *e;

	if (c->err)
		return NULL;
	if (!fgets(str, num, c->fp))
		return NULL;
	c->line++;
	if (!strchr(str, '\n') && !feof(c->fp)) {
		load_fail(c, -EINVAL, "line longer than %d characters",
			  num - 2);
		return NULL;
	}
	if ((p = (char *)control_char(str, true))) {
		load_fail(
			c, -EINVAL,
			"byte 0x%02x at column %d: control characters are not accepted (printable text and tabs only)",
			(unsigned char)*p, (int)(p - str) + 1);
		return NULL;
	}
	p = str;
	while (isspace((unsigned char)*p))
		p++;
	if (*p != '[')
		return str;
	e = strchr(p, ']');
	if (!e) {
		load_fail(c, -EINVAL,
			  "malformed section header \"%s\": expected [NAME]",
			  ios_trim(p));
		return NULL;
	}
	*e = '\0';
	if (normalise_section(p + 1, name, sizeof(name), label, sizeof(label)) <
	    0) {
		load_fail(
			c, -EINVAL,
			"unknown section \"[%s]\": accepted: [site], [storage], [compute], [workload], [sweep], [prices], [slurm], [health], [accept], [catalogue], [tier \"NAME\"], [disk \"NAME\"]",
			p + 1);
		return NULL;
	}
	*e = ']';
	snprintf(c->cursec, sizeof(c->cursec), "%s", name);
	if (add_section(c, name, label) < 0) {
		load_fail(c, -ENOMEM, "out of memory");
		return NULL;
	}
	return str;
}

/* Replace ${VAR} by its value when set.  Returns a malloc'd string. */
static char *expand(const char *v)
{
	size_t cap = strlen(v) + 1, len = 0;
	char *out = malloc(cap), *n;

	if (!out)
		return NULL;
	while (*v) {
		const char *val = NULL, *end = NULL;
		size_t add;

		if (v[0] == '$' && v[1] == '{' && (end = strchr(v + 2, '}'))) {
			char name[128];
			size_t nl = (size_t)(end - (v + 2));

			if (nl > 0 && nl < sizeof(name)) {
				memcpy(name, v + 2, nl);
				name[nl] = '\0';
				val = getenv(name);
			}
		}
		if (val) {
			add = strlen(val);
		} else {
			add = 1;
		}
		if (len + add + 1 > cap) {
			cap = (len + add + 1) * 2;
			n = realloc(out, cap);
			if (!n) {
				free(out);
				return NULL;
			}
			out = n;
		}
		if (val) {
			memcpy(out + len, val, add);
			v = end + 1;
		} else {
			out[len] = *v++;
		}
		len += add;
	}
	out[len] = '\0';
	return out;
}

static int handler(void *user, const char *section, const char *name,
		   const char *value)
{
	struct load_ctx *c = user;
	struct ios_site *s = c->site;
	const struct key_def *d;
	struct ios_err verr;
	struct entry *n;
	char *v;
	char what[320];

	if (c->err)
		return 0;
	(void)section; /* we track the normalised section in the reader */
	if (!c->cursec[0])
		return load_fail(c, -EINVAL, "key \"%s\" outside any section",
				 name),
		       0;
	d = find_key(c->cursec, name);
	if (!d)
		return load_fail(c, -EINVAL,
				 "unknown key \"%s\" in section [%s]", name,
				 c->cursec),
		       0;
	for (size_t i = 0; i < s->nentries; i++)
		if (strcmp(s->entries[i].section, c->cursec) == 0 &&
		    strcmp(s->entries[i].key, name) == 0)
			return load_fail(
				       c, -EINVAL,
				       "duplicate key \"%s\" in section [%s] (first set on line %d)",
				       name, c->cursec, s->entries[i].line),
			       0;
	v = expand(value);
	if (!v)
		return load_fail(c, -ENOMEM, "out of memory"), 0;
	snprintf(what, sizeof(what), "%s.%s", c->cursec, name);
	if (control_char(v, false)) {
		const char *p = control_char(v, false);

		load_fail(
			c, -EINVAL,
			"%s: byte 0x%02x at offset %d (after ${VAR} expansion): control characters are not accepted",
			what, (unsigned char)*p, (int)(p - v));
		free(v);
		return 0;
	}
	ios_err_clear(&verr);
	if (ios_site_check_value(d, v, what, &verr) < 0) {
		free(v);
		return load_fail(c, -EINVAL, "%s", verr.msg), 0;
	}
	if (d->path && v[0] != '/' && strchr(v, '$') == NULL) {
		char *abs;

		if (asprintf(&abs, "%s/%s", s->dir, v) < 0) {
			free(v);
			return load_fail(c, -ENOMEM, "out of memory"), 0;
		}
		free(v);
		v = abs;
	}
	n = realloc(s->entries, (s->nentries + 1) * sizeof(*n));
	if (!n) {
		free(v);
		return load_fail(c, -ENOMEM, "out of memory"), 0;
	}
	s->entries = n;
	n += s->nentries;
	n->section = strdup(c->cursec);
	n->key = strdup(name);
	n->value = v;
	n->line = c->line;
	if (!n->section || !n->key) {
		free(n->section);
		free(n->key);
		free(v);
		return load_fail(c, -ENOMEM, "out of memory"), 0;
	}
	s->nentries++;
	return 1;
}

static const struct entry *find_entry(const struct ios_site *s,
				      const char *section, const char *key)
{
	for (size_t i = 0; i < s->nentries; i++)
		if (strcmp(s->entries[i].section, section) == 0 &&
		    strcmp(s->entries[i].key, key) == 0)
			return &s->entries[i];
	return NULL;
}

/*
 * What one line cannot show: every disk class has its rate and price, and
 * storage.disk_class names one of them.  Returns 0 or load_fail's code.
 */
static int check_complete(struct load_ctx *c)
{
	const struct ios_site *s = c->site;
	const struct entry *dc = find_entry(s, "storage", "disk_class");
	char names[512] = "";
	size_t nl = 0;
	bool found = false;

	for (size_t i = 0; i < s->nsections; i++) {
		const struct section *x = &s->sections[i];
		static const char *const need_keys[] = {"bw", "price"};

		if (strncmp(x->name, "disk \"", 6) != 0)
			continue;
		for (size_t k = 0; k < 2; k++)
			if (!find_entry(s, x->name, need_keys[k])) {
				c->line = x->line;
				return load_fail(
					c, -EINVAL,
					"[%s]: key \"%s\" missing: a disk class needs bw (sustained rate, e.g. 180MB), price (per drive) and may have iops",
					x->name, need_keys[k]);
			}
		if (dc && strcmp(dc->value, x->label) == 0)
			found = true;
		if (nl < sizeof(names))
			nl += (size_t)snprintf(names + nl, sizeof(names) - nl,
					       "%s\"%s\"", nl ? ", " : "",
					       x->label);
	}
	if (dc && !found) {
		c->line = dc->line;
		return load_fail(
			c, -EINVAL,
			"storage.disk_class: unknown disk class \"%s\": accepted: %s",
			dc->value,
			nl ? names : "none (define [disk \"NAME\"] sections)");
	}
	return 0;
}

int ios_site_load(const char *path, struct ios_site **out, struct ios_err *err)
{
	struct load_ctx c = {0};
	struct ios_site *s;
	struct stat st;
	char *slash;
	int rc;

	*out = NULL;
	if (!path || !*path)
		return ios_errf(
			err, -EINVAL,
			"siteconf: load site: empty path: expected a site.conf file or a directory holding one");
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		rc = asprintf(&s->path, "%s/site.conf", path);
	else
		rc = asprintf(&s->path, "%s", path);
	if (rc < 0) {
		free(s);
		return -ENOMEM;
	}
	s->dir = strdup(s->path);
	if (!s->dir) {
		ios_site_free(s);
		return -ENOMEM;
	}
	slash = strrchr(s->dir, '/');
	if (slash == s->dir)
		slash[1] = '\0';
	else if (slash)
		*slash = '\0';
	else
		strcpy(s->dir, ".");
	c.site = s;
	c.errp = err;
	c.fp = fopen(s->path, "re");
	if (!c.fp) {
		rc = -errno;
		ios_errf(err, rc, "siteconf: open %s: %s", s->path,
			 strerror(-rc));
		ios_site_free(s);
		return rc;
	}
	rc = ini_parse_stream(reader, &c, handler, &c);
	if (!c.err && ferror(c.fp))
		load_fail(&c, -EIO, "read error: %s", strerror(EIO));
	fclose(c.fp);
	if (!c.err && rc > 0) {
		c.line = rc;
		load_fail(
			&c, -EINVAL,
			"malformed line: expected [SECTION], KEY = VALUE, or a comment starting with ; or #");
	} else if (!c.err && rc < 0) {
		load_fail(&c, -ENOMEM, "out of memory");
	}
	if (!c.err)
		check_complete(&c);
	if (c.err) {
		ios_site_free(s);
		return c.err;
	}
	*out = s;
	return 0;
}

void ios_site_free(struct ios_site *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nentries; i++) {
		free(s->entries[i].section);
		free(s->entries[i].key);
		free(s->entries[i].value);
	}
	for (size_t i = 0; i < s->nsections; i++) {
		free(s->sections[i].name);
		free(s->sections[i].label);
	}
	free(s->entries);
	free(s->sections);
	free(s->path);
	free(s->dir);
	free(s);
}

const char *ios_site_path(const struct ios_site *s)
{
	return s->path;
}

const char *ios_site_dir(const struct ios_site *s)
{
	return s->dir;
}

const char *ios_site_get(const struct ios_site *s, const char *section,
			 const char *key)
{
	for (size_t i = 0; i < s->nentries; i++)
		if (strcmp(s->entries[i].section, section) == 0 &&
		    strcmp(s->entries[i].key, key) == 0)
			return s->entries[i].value;
	return NULL;
}

static const char *need(const struct ios_site *s, const char *section,
			const char *key, struct ios_err *err)
{
	const char *v = ios_site_get(s, section, key);

	if (!v)
		ios_errf(err, -ENOENT, "siteconf: %s: [%s] %s: not set",
			 s->path, section, key);
	return v;
}

/* Run [fn] on [section].[key] with "file:section.key" as its name. */
#define TYPED_GET(fn, ...)                                                     \
	do {                                                                   \
		const char *v = need(s, section, key, err);                    \
		char what[512];                                                \
		if (!v)                                                        \
			return -ENOENT;                                        \
		snprintf(what, sizeof(what), "%s:%s.%s", s->path, section,     \
			 key);                                                 \
		return fn(v, what, __VA_ARGS__);                               \
	} while (0)

int ios_site_get_size(const struct ios_site *s, const char *section,
		      const char *key, uint64_t *out, struct ios_err *err)
{
	TYPED_GET(ios_parse_size, out, err);
}

int ios_site_get_rate(const struct ios_site *s, const char *section,
		      const char *key, uint64_t *out, struct ios_err *err)
{
	TYPED_GET(ios_parse_rate, out, err);
}

int ios_site_get_uint(const struct ios_site *s, const char *section,
		      const char *key, uint64_t *out, struct ios_err *err)
{
	TYPED_GET(ios_parse_uint, 0, UINT64_MAX, out, err);
}

int ios_site_get_double(const struct ios_site *s, const char *section,
			const char *key, double *out, struct ios_err *err)
{
	TYPED_GET(ios_site_parse_double, out, err);
}

int ios_site_get_duration(const struct ios_site *s, const char *section,
			  const char *key, double *out, struct ios_err *err)
{
	TYPED_GET(ios_parse_duration, out, err);
}

int ios_site_get_list(const struct ios_site *s, const char *section,
		      const char *key, uint64_t **out, struct ios_err *err)
{
	const struct key_def *d = find_key(section, key);
	enum ios_site_kind kind = d ? d->kind : IOS_SITE_UINT_LIST;
	const char *v = need(s, section, key, err);
	char what[512];

	if (!v)
		return -ENOENT;
	if (kind == IOS_SITE_SIZE)
		kind = IOS_SITE_SIZE_LIST;
	else if (kind == IOS_SITE_RATE)
		kind = IOS_SITE_RATE_LIST;
	else if (kind != IOS_SITE_SIZE_LIST && kind != IOS_SITE_RATE_LIST)
		kind = IOS_SITE_UINT_LIST;
	snprintf(what, sizeof(what), "%s:%s.%s", s->path, section, key);
	if (d && d->kind == IOS_SITE_UINT_LIST)
		return ios_site_parse_key_list(d, v, what, out, err);
	return ios_site_parse_list(kind, v, what, out, err);
}

int ios_site_sections(const struct ios_site *s, const char *prefix,
		      ios_site_section_cb cb, void *arg)
{
	size_t pl = prefix ? strlen(prefix) : 0;

	for (size_t i = 0; i < s->nsections; i++) {
		int rc;

		if (pl && strncmp(s->sections[i].name, prefix, pl) != 0)
			continue;
		rc = cb(s->sections[i].name, s->sections[i].label, arg);
		if (rc)
			return rc;
	}
	return 0;
}
