/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hwinfo_dev: the node's block devices (model, vendor, serial, firmware,
 * rotational, scheduler, queue depths) and network interfaces (link
 * speed, MTU, driver) as JSON, read under a root directory; a fact that
 * cannot be read is "unknown" and "why_unknown" says why.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "hwinfo_internal.h"

/* The first of [rels] (relative to sys/block/NAME/) that reads, as
 * o[key]; else unknown with the first one's reason. */
static void first_str(json_t *o, const char *key, const char *root,
		      const char *name, const char *const *rels)
{
	char rel[PATH_MAX], buf[512];
	json_t *tmp = json_object();

	for (size_t i = 0; rels[i]; i++) {
		snprintf(rel, sizeof(rel), "sys/block/%s/%s", name, rels[i]);
		if (ios_hw_rd(root, rel, buf, sizeof(buf)) == 0 && buf[0]) {
			ios_hw_str(o, key, root, rel);
			json_decref(tmp);
			return;
		}
		if (!i)
			ios_hw_str(tmp, key, root, rel);
	}
	ios_hw_unknown(o, key, "%s",
		       json_string_value(json_object_get(
			       json_object_get(tmp, "why_unknown"), key)));
	json_decref(tmp);
}

json_t *ios_hw_block_devices(const char *root)
{
	/* SCSI/SATA: device/{model,vendor,rev}; NVMe: device/ is the
	 * controller with model, serial, firmware_rev and no vendor file */
	static const char *const serial[] = {"device/serial", "serial",
					     "device/wwid", "wwid", NULL};
	static const char *const fw[] = {"device/firmware_rev", "device/rev",
					 NULL};
	static const char *const vendor[] = {"device/vendor", NULL};
	json_t *a = json_array();
	char path[PATH_MAX], rel[PATH_MAX], buf[512];
	struct dirent **ents = NULL;
	int n;

	snprintf(path, sizeof(path), "%s/sys/block", root);
	n = scandir(path, &ents, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		json_t *o;
		char *l, *r;
		int rc;

		if (name[0] == '.' || !strncmp(name, "loop", 4) ||
		    !strncmp(name, "ram", 3)) {
			free(ents[i]);
			continue;
		}
		o = json_object();
		json_object_set_new(o, "name", json_string(name));
#define REL(fmt) (snprintf(rel, sizeof(rel), "sys/block/%s/" fmt, name), rel)
		ios_hw_str(o, "model", root, REL("device/model"));
		first_str(o, "vendor", root, name, vendor);
		first_str(o, "serial", root, name, serial);
		first_str(o, "firmware", root, name, fw);
		if (ios_hw_int(o, "size_bytes", root, REL("size")) == 0)
			json_object_set_new(
				o, "size_bytes",
				json_integer(json_integer_value(json_object_get(
						     o, "size_bytes")) *
					     512));
		ios_hw_int(o, "rotational", root, REL("queue/rotational"));
		rc = ios_hw_rd(root, REL("queue/scheduler"), buf, sizeof(buf));
		if (rc)
			ios_hw_unknown(o, "scheduler", "/%s: %s", rel,
				       strerror(-rc));
		else if ((l = strchr(buf, '[')) && (r = strchr(l, ']'))) {
			*r = '\0';
			json_object_set_new(o, "scheduler", json_string(l + 1));
		} else {
			ios_hw_str(o, "scheduler", root, rel);
		}
		ios_hw_int(o, "logical_block_size", root,
			   REL("queue/logical_block_size"));
		ios_hw_int(o, "physical_block_size", root,
			   REL("queue/physical_block_size"));
		ios_hw_int(o, "nr_requests", root, REL("queue/nr_requests"));
		/* SCSI device queue depth (NVMe has none: nr_requests) */
		ios_hw_int(o, "queue_depth", root, REL("device/queue_depth"));
		ios_hw_str(o, "dev", root, REL("dev"));
#undef REL
		json_array_append_new(a, o);
		free(ents[i]);
	}
	free(ents);
	return a;
}

json_t *ios_hw_nics(const char *root)
{
	json_t *a = json_array();
	char path[PATH_MAX], rel[PATH_MAX], buf[256], link[PATH_MAX];
	struct dirent **ents = NULL;
	int n;

	snprintf(path, sizeof(path), "%s/sys/class/net", root);
	n = scandir(path, &ents, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		json_t *o;
		ssize_t len;
		long long v;
		char *end;
		int rc;

		if (name[0] == '.') {
			free(ents[i]);
			continue;
		}
		o = json_object();
		json_object_set_new(o, "name", json_string(name));
		snprintf(rel, sizeof(rel), "sys/class/net/%s/speed", name);
		/* speed: EINVAL when the link is down, -1 when unknown */
		rc = ios_hw_rd(root, rel, buf, sizeof(buf));
		v = rc ? 0 : strtoll(buf, &end, 10);
		if (rc)
			ios_hw_unknown(o, "speed_mbps", "/%s: %s%s", rel,
				       strerror(-rc),
				       rc == -EINVAL ? " (link down)" : "");
		else if (v > 0 && !*end)
			json_object_set_new(o, "speed_mbps", json_integer(v));
		else
			ios_hw_unknown(
				o, "speed_mbps",
				"/%s: \"%.32s\" (no speed: virtual or down)",
				rel, buf);
		snprintf(rel, sizeof(rel), "sys/class/net/%s/mtu", name);
		ios_hw_int(o, "mtu", root, rel);
		snprintf(path, sizeof(path),
			 "%s/sys/class/net/%s/device/driver", root, name);
		len = readlink(path, link, sizeof(link) - 1);
		if (len > 0) {
			link[len] = '\0';
			json_object_set_new(
				o, "driver",
				json_string(strrchr(link, '/')
						    ? strrchr(link, '/') + 1
						    : link));
		} else {
			ios_hw_unknown(o, "driver",
				       "/sys/class/net/%s/device/driver: %s",
				       name,
				       errno == ENOENT ? "no device (virtual)"
						       : strerror(errno));
		}
		snprintf(rel, sizeof(rel), "sys/class/net/%s/operstate", name);
		ios_hw_str(o, "state", root, rel);
		json_array_append_new(a, o);
		free(ents[i]);
	}
	free(ents);
	return a;
}
