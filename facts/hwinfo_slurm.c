/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hwinfo_slurm: the Slurm that is actually running, next to the one this
 * build used: slurmctld's version (its configuration's SLURM_VERSION) and
 * this host's slurmd's (its node record's Version=), asked through
 * scontrol with an argv and a bounded wait (cmdrun.h), and whether they
 * differ.  A difference is noted, never fatal.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <jansson.h>

#include "cmdrun.h"
#include "hwinfo_internal.h"

/* A version as Slurm prints it ("22.05.8", "23.11.0-0rc1"): copy the
 * token at [s] into [v] when it is one. */
static int version_token(const char *s, char *v, size_t len)
{
	size_t n = 0;

	while (s[n] && (isalnum((unsigned char)s[n]) || s[n] == '.' ||
			s[n] == '-' || s[n] == '_'))
		n++;
	if (n == 0 || n >= len || !isdigit((unsigned char)s[0]) ||
	    (s[n] && !isspace((unsigned char)s[n])))
		return -EINVAL;
	memcpy(v, s, n);
	v[n] = '\0';
	return 0;
}

int ios_hw_slurm_conf_version(const char *text, char *v, size_t len)
{
	for (const char *p = text; p && *p;
	     p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {

		if (strncmp(p, "SLURM_VERSION", 13) != 0 ||
		    !(p[13] == ' ' || p[13] == '\t' || p[13] == '='))
			continue;
		p += 13;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p++ != '=')
			continue;
		while (*p == ' ' || *p == '\t')
			p++;
		return version_token(p, v, len);
	}
	return -ENOENT;
}

int ios_hw_slurm_node_version(const char *text, char *v, size_t len)
{
	for (const char *p = text; (p = strstr(p, "Version=")); p += 8)
		if (p == text || isspace((unsigned char)p[-1]))
			return version_token(p + 8, v, len);
	return -ENOENT;
}

/* Run "[scontrol] ARGS" into [out]; on failure [why] says what happened,
 * naming the command. */
static int scontrol(const char *prog, const char *const *args, int ms,
		    char *out, size_t len, char *why, size_t wlen)
{
	const char *argv[8];
	char cmd[160] = "", eline[200];
	size_t k = 0, off = 0;
	int rc, st = 0;

	argv[k++] = prog;
	for (size_t i = 0; args[i] && k < 7; i++) {
		argv[k++] = args[i];
		off += (size_t)snprintf(
			cmd + off, off < sizeof(cmd) ? sizeof(cmd) - off : 0,
			" %s", args[i]);
	}
	argv[k] = NULL;
	rc = ios_cmd_run(argv, ms, out, len, eline, sizeof(eline), &st);
	if (rc == -ETIMEDOUT)
		snprintf(
			why, wlen,
			"%s%s: no answer within %d ms (killed; is slurmctld reachable?)",
			prog, cmd, ms);
	else if (rc == -EIO)
		snprintf(why, wlen, "%s%s: %s %d: \"%s\"", prog, cmd,
			 WIFEXITED(st) ? "exit" : "signal",
			 WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st), eline);
	else if (rc < 0)
		snprintf(why, wlen, "%s%s: %s", prog, cmd, strerror(-rc));
	return rc;
}

/* A node name we hand to scontrol: printable, no option. */
static int node_name_ok(const char *n)
{
	if (!n || !n[0] || n[0] == '-' || strlen(n) > 64)
		return 0;
	for (const char *p = n; *p; p++)
		if (!isgraph((unsigned char)*p))
			return 0;
	return 1;
}

/* o.version_mismatch from the versions o holds. */
static void mismatch(json_t *o, const char *node)
{
	static const char *const keys[] = {"version_built", "version_slurmctld",
					   "version_slurmd"};
	static const char *const who[] = {"built", "slurmctld", "slurmd"};
	const char *v[3], *first = NULL;
	char text[256];
	size_t off = 0;
	int known = 0, differ = 0;

	for (int i = 0; i < 3; i++) {
		v[i] = json_string_value(json_object_get(o, keys[i]));
		if (!v[i] || !strcmp(v[i], "unknown")) {
			v[i] = NULL;
			continue;
		}
		known++;
		if (!first)
			first = v[i];
		else if (strcmp(first, v[i]))
			differ = 1;
	}
	if (known < 2) {
		ios_hw_unknown(
			o, "version_mismatch",
			"fewer than two of the built, slurmctld and slurmd versions are known");
		return;
	}
	if (!differ) {
		json_object_set_new(o, "version_mismatch", json_string("no"));
		return;
	}
	text[0] = '\0';
	for (int i = 0; i < 3; i++)
		if (v[i] && off < sizeof(text))
			off += (size_t)snprintf(text + off, sizeof(text) - off,
						"%s%s %s", off ? ", " : "",
						who[i], v[i]);
	json_object_set_new(o, "version_mismatch", json_string(text));
	fprintf(stderr,
		"%s: host %s: Slurm versions differ: %s (recorded in slurm.version_mismatch; not fatal)\n",
		program_invocation_short_name,
		node ? node : "(no Slurm node name)", text);
}

void ios_hw_slurm_running(json_t *o, const char *prog, const char *node,
			  int timeout_ms)
{
	static char out[1 << 16];
	const char *conf[] = {"show", "config", NULL};
	const char *show[] = {"-o", "show", "node", node, NULL};
	char v[64], why[512], src[160];
	int rc;

	if (!prog || !prog[0])
		prog = "scontrol";
	json_object_set_new(o, "version_built_source",
			    json_string("slurm/slurm_version.h of the build"));
	rc = scontrol(prog, conf, timeout_ms, out, sizeof(out), why,
		      sizeof(why));
	if (rc == 0 && ios_hw_slurm_conf_version(out, v, sizeof(v)) < 0) {
		rc = -EINVAL;
		snprintf(why, sizeof(why),
			 "%s show config: no SLURM_VERSION = <version> line",
			 prog);
	}
	if (rc == 0)
		json_object_set_new(o, "version_slurmctld", json_string(v));
	else
		ios_hw_unknown(o, "version_slurmctld", "%s", why);
	snprintf(src, sizeof(src), "%s show config (SLURM_VERSION)", prog);
	json_object_set_new(o, "version_slurmctld_source", json_string(src));

	/* the node record comes from slurmctld too: not asked again when it
	 * did not answer (one bounded wait, not two) */
	if (rc == -ETIMEDOUT || rc == -ENOENT || rc == -EACCES) {
		ios_hw_unknown(o, "version_slurmd", "not asked: %s", why);
	} else if (!node_name_ok(node)) {
		ios_hw_unknown(
			o, "version_slurmd",
			"no Slurm node name for this host (SLURMD_NODENAME, SLURM_TOPOLOGY_ADDR unset or not a name)");
	} else {
		rc = scontrol(prog, show, timeout_ms, out, sizeof(out), why,
			      sizeof(why));
		if (rc == 0 &&
		    ios_hw_slurm_node_version(out, v, sizeof(v)) < 0) {
			rc = -EINVAL;
			snprintf(
				why, sizeof(why),
				"%s -o show node %s: no Version=<version> (slurmd not registered?)",
				prog, node);
		}
		if (rc == 0)
			json_object_set_new(o, "version_slurmd",
					    json_string(v));
		else
			ios_hw_unknown(o, "version_slurmd", "%s", why);
	}
	if (node_name_ok(node))
		snprintf(src, sizeof(src), "%s -o show node %s (Version=)",
			 prog, node);
	else
		snprintf(src, sizeof(src), "%s -o show node (Version=)", prog);
	json_object_set_new(o, "version_slurmd_source", json_string(src));
	mismatch(o, node);
}
