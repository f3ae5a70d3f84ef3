/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cephcli: run the ceph CLI with an argv through cmdrun.h (no shell: the
 * OSD ids and values are numbers we format, the program and configuration
 * file come from the root-owned policy), killed when it outlives
 * ceph_timeout (the CLI waits for a monitor forever without
 * --connect-timeout, and a prolog or epilog must not hang).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cephcli.h"
#include "cmdrun.h"

#define MAX_ARGS 16

/* "config get osd.0 osd_memory_target" for messages. */
static void join_args(const char *const *args, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; args[i] && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
					i ? " " : "", args[i]);
}

int cephcli_run(const struct ceph_cli *cc, const char *const *args, char *out,
		size_t len, struct ios_err *err)
{
	const char *argv[MAX_ARGS + 8];
	char cmd[256], tmo[16], ebuf[256];
	size_t k = 0;
	int rc, st = 0, ms = cc->timeout_ms > 0 ? cc->timeout_ms : 30000;

	join_args(args, cmd, sizeof(cmd));
	argv[k++] = cc->path[0] ? cc->path : "ceph";
	if (cc->conf[0]) {
		argv[k++] = "--conf";
		argv[k++] = cc->conf;
	}
	/* the CLI's own limit for reaching a monitor, inside ours */
	snprintf(tmo, sizeof(tmo), "%d", ms / 1000 > 1 ? ms / 1000 - 1 : 1);
	argv[k++] = "--connect-timeout";
	argv[k++] = tmo;
	for (size_t i = 0; args[i]; i++) {
		if (k >= MAX_ARGS + 7)
			return ios_errf(err, -E2BIG,
					"iostrata: ceph %s: too many arguments",
					cmd);
		argv[k++] = args[i];
	}
	argv[k] = NULL;
	rc = ios_cmd_run(argv, ms, out, len, ebuf, sizeof(ebuf), &st);
	switch (rc) {
	case 0:
		return 0;
	case -ENOENT:
	case -EACCES:
		return ios_errf(err, rc, "iostrata: run %s %s: %s", argv[0],
				cmd, strerror(-rc));
	case -ETIMEDOUT:
		return ios_errf(
			err, rc,
			"iostrata: ceph %s: no answer within %d ms (killed; are the monitors reachable?)",
			cmd, ms);
	case -EIO:
		return ios_errf(err, rc, "iostrata: ceph %s: %s %d: \"%s\"",
				cmd, WIFEXITED(st) ? "exit" : "signal",
				WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st),
				ebuf);
	case -E2BIG:
		return ios_errf(err, rc, "iostrata: ceph %s: output: %s", cmd,
				strerror(-rc));
	default:
		return ios_errf(err, rc, "iostrata: ceph %s: %s", cmd,
				strerror(-rc));
	}
}

/* A whole decimal number, surrounding white space allowed. */
static int parse_bytes(const char *s, uint64_t *v)
{
	char *end;
	unsigned long long x;

	while (*s == ' ' || *s == '\n' || *s == '\t')
		s++;
	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	while (*end == ' ' || *end == '\n' || *end == '\t')
		end++;
	if (*end)
		return -EINVAL;
	*v = x;
	return 0;
}

/* Does the "ceph config dump" text [dump] hold an entry of [who] itself
 * (no mask) for [key]? */
static bool dump_has(char *dump, const char *who, const char *key)
{
	for (char *line = strtok(dump, "\n"); line; line = strtok(NULL, "\n")) {
		char w[4][64];

		if (sscanf(line, "%63s %63s %63s %63s", w[0], w[1], w[2],
			   w[3]) == 4 &&
		    strcmp(w[0], who) == 0 &&
		    (strcmp(w[1], "basic") == 0 ||
		     strcmp(w[1], "advanced") == 0 ||
		     strcmp(w[1], "dev") == 0) &&
		    strcmp(w[2], key) == 0)
			return true;
	}
	return false;
}

int cephcli_cfg_get(const struct ceph_cli *cc, const char *who, const char *key,
		    uint64_t *bytes, bool *explicit_, struct ios_err *err)
{
	char out[256];
	const char *get[] = {"config", "get", who, key, NULL};
	const char *dump[] = {"config", "dump", NULL};
	char *d;
	int rc;

	rc = cephcli_run(cc, get, out, sizeof(out), err);
	if (rc < 0)
		return rc;
	if (parse_bytes(out, bytes) < 0)
		return ios_errf(
			err, -EINVAL,
			"iostrata: ceph config get %s %s: answer \"%.60s\" is not a number of bytes",
			who, key, out);
	if (!explicit_)
		return 0;
	d = malloc(1 << 20);
	if (!d)
		return -ENOMEM;
	rc = cephcli_run(cc, dump, d, 1 << 20, err);
	if (rc == 0)
		*explicit_ = dump_has(d, who, key);
	free(d);
	return rc;
}

int cephcli_cfg_set(const struct ceph_cli *cc, const char *who, const char *key,
		    uint64_t bytes, struct ios_err *err)
{
	char val[32];
	const char *set[] = {"config", "set", who, key, val, NULL};

	snprintf(val, sizeof(val), "%" PRIu64, bytes);
	return cephcli_run(cc, set, NULL, 0, err);
}

int cephcli_cfg_rm(const struct ceph_cli *cc, const char *who, const char *key,
		   struct ios_err *err)
{
	const char *rm[] = {"config", "rm", who, key, NULL};

	return cephcli_run(cc, rm, NULL, 0, err);
}

int cephcli_omt_get(const struct ceph_cli *cc, int id, uint64_t *bytes,
		    bool *explicit_, struct ios_err *err)
{
	char who[32];

	snprintf(who, sizeof(who), "osd.%d", id);
	return cephcli_cfg_get(cc, who, "osd_memory_target", bytes, explicit_,
			       err);
}

int cephcli_omt_set(const struct ceph_cli *cc, int id, uint64_t bytes,
		    struct ios_err *err)
{
	char who[32];

	snprintf(who, sizeof(who), "osd.%d", id);
	return cephcli_cfg_set(cc, who, "osd_memory_target", bytes, err);
}

int cephcli_omt_rm(const struct ceph_cli *cc, int id, struct ios_err *err)
{
	char who[32];

	snprintf(who, sizeof(who), "osd.%d", id);
	return cephcli_cfg_rm(cc, who, "osd_memory_target", err);
}
