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
#include "units.h"

#define MAX_LIST_ITEMS 10000

struct key_def {
	const char *section; /* "tier" matches every tier "NAME" section */
	const char *key;
	enum ios_site_kind kind;
	const char *choices; /* IOS_SITE_ENUM: '|'-separated */
	bool path;           /* relative values are resolved against the dir */
};

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
	{"sweep", "cpus", IOS_SITE_UINT_LIST, NULL, false},
	{"sweep", "mem", IOS_SITE_SIZE_LIST, NULL, false},
	{"sweep", "disk_bw", IOS_SITE_RATE_LIST, NULL, false},
	{"sweep", "throttle", IOS_SITE_UINT, NULL, false},
	{"prices", "currency", IOS_SITE_STRING, NULL, false},
	{"prices", "core", IOS_SITE_DOUBLE, NULL, false},
	{"prices", "mem_gb", IOS_SITE_DOUBLE, NULL, false},
	{"prices", "hdd", IOS_SITE_DOUBLE, NULL, false},
	{"prices", "nvme", IOS_SITE_DOUBLE, NULL, false},
	{"prices", "node_base", IOS_SITE_DOUBLE, NULL, false},
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
	{"accept", "tiers", IOS_SITE_STRING, NULL, true},
	{"accept", "tier", IOS_SITE_STRING, NULL, false},
	{"accept", "fio_tolerance", IOS_SITE_DOUBLE, NULL, false},
	{"accept", "fio", IOS_SITE_UINT, NULL, false},
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
};

static const char *const plain_sections[] = {
	"site",   "storage", "compute", "workload", "sweep",
	"prices", "slurm",   "health",  "accept",
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

static const struct key_def *find_key(const char *section, const char *key)
{
	bool tier = strncmp(section, "tier \"", 6) == 0;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (strcmp(keys[i].key, key) != 0)
			continue;
		if (tier ? strcmp(keys[i].section, "tier") == 0
			 : strcmp(keys[i].section, section) == 0)
			return &keys[i];
	}
	return NULL;
}

int ios_site_key_kind(const char *section, const char *key)
{
	const struct key_def *d = find_key(section, key);

	return d ? (int)d->kind : -1;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
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

	if (strlen(raw) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, raw);
	s = trim(buf);
	for (size_t i = 0; i < sizeof(plain_sections) / sizeof(*plain_sections);
	     i++) {
		if (strcmp(s, plain_sections[i]) == 0) {
			snprintf(out, outlen, "%s", s);
			snprintf(label, labellen, "%s", s);
			return 0;
		}
	}
	if (strncmp(s, "tier", 4) != 0 || !isspace((unsigned char)s[4]))
		return -EINVAL;
	q = trim(s + 4);
	end = q + strlen(q);
	if (end - q < 3 || q[0] != '"' || end[-1] != '"')
		return -EINVAL;
	end[-1] = '\0';
	q++;
	if (strchr(q, '"') || !*trim(q))
		return -EINVAL;
	snprintf(out, outlen, "tier \"%s\"", q);
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
	p = str;
	while (isspace((unsigned char)*p))
		p++;
	if (*p != '[')
		return str;
	e = strchr(p, ']');
	if (!e) {
		load_fail(c, -EINVAL,
			  "malformed section header \"%s\": expected [NAME]",
			  trim(p));
		return NULL;
	}
	*e = '\0';
	if (normalise_section(p + 1, name, sizeof(name), label, sizeof(label)) <
	    0) {
		load_fail(
			c, -EINVAL,
			"unknown section \"[%s]\": accepted: [site], [storage], [compute], [workload], [sweep], [prices], [slurm], [health], [accept], [tier \"NAME\"]",
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

static int parse_double(const char *v, const char *what, double *out,
			struct ios_err *err)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(v, &end);
	if (end == v || *trim(end) || errno || !isfinite(d) || d < 0)
		return ios_errf(
			err, -EINVAL,
			"%s: invalid number \"%s\": expected a non-negative decimal number",
			what, v);
	*out = d;
	return 0;
}

static int parse_item(enum ios_site_kind kind, const char *v, const char *what,
		      uint64_t *out, struct ios_err *err)
{
	switch (kind) {
	case IOS_SITE_SIZE_LIST:
		return ios_parse_size(v, what, out, err);
	case IOS_SITE_RATE_LIST:
		return ios_parse_rate(v, what, out, err);
	default:
		return ios_parse_uint(v, what, 0, UINT64_MAX, out, err);
	}
}

/*
 * Parse a list value into a malloc'd array.  Returns the count or a
 * negative errno with [err] set.
 */
static int parse_list(enum ios_site_kind kind, const char *value,
		      const char *what, uint64_t **out, struct ios_err *err)
{
	char *copy = strdup(value), *tok, *save = NULL;
	uint64_t *vals = NULL;
	size_t n = 0;
	int rc = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ", \t", &save); tok;
	     tok = strtok_r(NULL, ", \t", &save)) {
		char *dots = strstr(tok, ".."), *colon;
		uint64_t a, b, step = 1;

		if (dots) {
			*dots = '\0';
			colon = strchr(dots + 2, ':');
			if (!colon) {
				rc = ios_errf(
					err, -EINVAL,
					"%s: invalid range \"%s..%s\": expected A..B:STEP",
					what, tok, dots + 2);
				goto out;
			}
			*colon = '\0';
			if ((rc = parse_item(kind, tok, what, &a, err)) < 0 ||
			    (rc = parse_item(kind, dots + 2, what, &b, err)) <
				    0 ||
			    (rc = parse_item(kind, colon + 1, what, &step,
					     err)) < 0)
				goto out;
			if (step == 0 || b < a) {
				rc = ios_errf(
					err, -EINVAL,
					"%s: invalid range \"%s..%s:%s\": need A <= B and STEP > 0",
					what, tok, dots + 2, colon + 1);
				goto out;
			}
		} else {
			if ((rc = parse_item(kind, tok, what, &a, err)) < 0)
				goto out;
			b = a;
		}
		for (uint64_t x = a; x <= b; x += step) {
			uint64_t *nv;

			if (n >= MAX_LIST_ITEMS) {
				rc = ios_errf(
					err, -ERANGE,
					"%s: list \"%s\" has more than %d items",
					what, value, MAX_LIST_ITEMS);
				goto out;
			}
			nv = realloc(vals, (n + 1) * sizeof(*vals));
			if (!nv) {
				rc = -ENOMEM;
				goto out;
			}
			vals = nv;
			vals[n++] = x;
			if (UINT64_MAX - x < step)
				break;
		}
	}
	if (n == 0)
		rc = ios_errf(
			err, -EINVAL,
			"%s: empty list: expected items separated by commas",
			what);
out:
	free(copy);
	if (rc < 0) {
		free(vals);
		return rc;
	}
	*out = vals;
	return (int)n;
}

/* Check [value] against [d]; returns 0 or a negative errno with [err]. */
static int check_value(const struct key_def *d, const char *value,
		       const char *what, struct ios_err *err)
{
	uint64_t u, *list = NULL;
	double x;
	int rc;

	if (!*value)
		return ios_errf(err, -EINVAL, "%s: empty value", what);
	switch (d->kind) {
	case IOS_SITE_STRING:
		return 0;
	case IOS_SITE_SIZE:
		return ios_parse_size(value, what, &u, err);
	case IOS_SITE_RATE:
		return ios_parse_rate(value, what, &u, err);
	case IOS_SITE_UINT:
		return ios_parse_uint(value, what, 0, UINT64_MAX, &u, err);
	case IOS_SITE_DOUBLE:
		return parse_double(value, what, &x, err);
	case IOS_SITE_DURATION:
		return ios_parse_duration(value, what, &x, err);
	case IOS_SITE_SIZE_LIST:
	case IOS_SITE_RATE_LIST:
	case IOS_SITE_UINT_LIST:
		rc = parse_list(d->kind, value, what, &list, err);
		free(list);
		return rc < 0 ? rc : 0;
	case IOS_SITE_ENUM: {
		const char *p = d->choices;
		size_t vl = strlen(value);

		while (p) {
			const char *bar = strchr(p, '|');
			size_t l = bar ? (size_t)(bar - p) : strlen(p);

			if (l == vl && strncmp(p, value, l) == 0)
				return 0;
			p = bar ? bar + 1 : NULL;
		}
		return ios_errf(err, -EINVAL,
				"%s: invalid value \"%s\": accepted: %s", what,
				value, d->choices);
	}
	}
	return -EINVAL;
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
	ios_err_clear(&verr);
	if (check_value(d, v, what, &verr) < 0) {
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
	TYPED_GET(parse_double, out, err);
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
	return parse_list(kind, v, what, out, err);
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

static double price(const struct ios_site *s, const char *key)
{
	double d = 0;

	if (ios_site_get(s, "prices", key))
		ios_site_get_double(s, "prices", key, &d, NULL);
	return d;
}

int ios_site_node_cost(const struct ios_site *s, uint64_t cores,
		       uint64_t mem_bytes, double *out, struct ios_err *err)
{
	uint64_t disks = 0, nvme = 0;

	if (!ios_site_get(s, "prices", "core") &&
	    !ios_site_get(s, "prices", "mem_gb"))
		return ios_errf(
			err, -ENOENT,
			"siteconf: %s: [prices]: neither core nor mem_gb is set: cannot price a configuration",
			s->path);
	if (ios_site_get(s, "storage", "disks_per_node"))
		ios_site_get_uint(s, "storage", "disks_per_node", &disks, NULL);
	if (ios_site_get(s, "storage", "nvme_per_node"))
		ios_site_get_uint(s, "storage", "nvme_per_node", &nvme, NULL);
	*out = price(s, "node_base") + (double)cores * price(s, "core") +
	       (double)mem_bytes / 1e9 * price(s, "mem_gb") +
	       (double)disks * price(s, "hdd") +
	       (double)nvme * price(s, "nvme");
	return 0;
}
