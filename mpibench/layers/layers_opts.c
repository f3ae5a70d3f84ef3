// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * layers_opts: the layered run's options, the configuration of each layer
 * and the layered run's record (layers_opts.h).  No MPI.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "layers_opts.h"
#include "mb_runrec.h"
#include "runrec.h"
#include "units.h"

#define MAX_ARGS 256

static const char *const ceph_opt_names[] = {
	"rados-pool",   "ceph-conf",    "ceph-id",
	"ceph-keyring", "ceph-timeout", "cephfs-root",
};

void lyr_usage(FILE *f)
{
	fputs("Layered run (seeds/003): iostrata-bench --layers [options]\n"
	      "  --layers                    device, network, protocol, full stack into one results file\n"
	      "  --layers-device-dir=PATTERN directory on the OSDs' filesystem per node (%n node index,\n"
	      "                              %h node name); default: no device layer\n"
	      "  --layers-skip=LIST          skip layers: device,network,protocol,fullstack,fullstack-lib\n"
	      "  --layers-fio=PATH|none      fio for the device cross-check (default: fio)\n"
	      "  --layers-net-msg=SIZE       network message size (default 8M)\n"
	      "  --layers-net-streams=N      concurrent messages per pair (default 4)\n"
	      "  --layers-net-time=SECONDS   bandwidth time per node pair (default 1)\n"
	      "  --layers-osds=N             OSDs behind the pool (default: asked from the cluster)\n"
	      "  --layers-storage-nodes=HOSTLIST  the storage hosts (s1,s2 or s[1-3]); the other ranks\n"
	      "                              are clients (default: a het job's last component)\n"
	      "  --layers-tolerance=FRACTION ceiling slack for noise (default 0.10)\n"
	      "  --cephfs-dir=PATH           directory inside CephFS for the libcephfs layer\n"
	      "                              (default: no libcephfs layer)\n"
	      "  --rados-pool=POOL --ceph-conf=FILE --ceph-id=ID --ceph-keyring=FILE\n"
	      "  --ceph-timeout=SECONDS --cephfs-root=PATH   as for the rados/cephfs backends\n"
	      "  --dir=PATH                  the CephFS mount (posix full stack); --buffered applies to\n"
	      "                              the full-stack layers only (device and protocol stay direct)\n",
	      f);
}

bool lyr_requested(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--layers"))
			return true;
	return false;
}

static int layer_index(const char *s, size_t len)
{
	for (int l = 0; l < LYR_NLAYERS; l++)
		if (strlen(lyr_layer_names[l]) == len &&
		    !strncmp(lyr_layer_names[l], s, len))
			return l;
	return -1;
}

/* Split argv: the layered options into [o], the rest into [rest]. */
static int parse_layer_opts(int argc, char **argv, struct lyr_opts *o,
			    char **rest, int *nrest, bool *have_dir,
			    struct ios_err *err)
{
	int i;

	memset(o, 0, sizeof(*o));
	nb_opts_default(&o->net);
	o->fio = "fio";
	o->tolerance = lyr_default_thresholds.tolerance;
	*nrest = 0;
	*have_dir = false;
	rest[(*nrest)++] = argv[0];
	for (i = 1; i < argc; i++) {
		char *a = argv[i], *v = strchr(a, '=');
		size_t nl = v ? (size_t)(v - a) : strlen(a);
		bool ceph = false;
		uint64_t u;
		int rc = 0;

		if (v)
			v++;
		if (!strcmp(a, "--layers"))
			continue;
		for (size_t k = 0;
		     k < sizeof(ceph_opt_names) / sizeof(ceph_opt_names[0]);
		     k++) {
			if (nl == strlen(ceph_opt_names[k]) + 2 &&
			    !strncmp(a + 2, ceph_opt_names[k], nl - 2)) {
				if (!v || !*v)
					return ios_errf(
						err, -EINVAL,
						"--%s: needs a value (--%s=VALUE)",
						ceph_opt_names[k],
						ceph_opt_names[k]);
				o->ceph[o->nceph].name = ceph_opt_names[k];
				o->ceph[o->nceph].value = v;
				o->nceph++;
				ceph = true;
				break;
			}
		}
		if (ceph)
			continue;
		if (!strncmp(a, "--layers-", 9) ||
		    !strncmp(a, "--cephfs-dir", nl)) {
			if (!v || !*v)
				return ios_errf(
					err, -EINVAL,
					"%.*s: needs a value (see --help)",
					(int)nl, a);
		}
		if (!strncmp(a, "--layers-device-dir=", 20)) {
			o->device_dir = v;
		} else if (!strncmp(a, "--layers-storage-nodes=", 23)) {
			struct ios_err e2 = {0};

			/* checked here, used per rank (lyr_role_of) */
			if (lyr_hostlist_has(v, "", &e2) < 0)
				return ios_errf(err, -EINVAL,
						"--layers-storage-nodes: %s",
						e2.msg);
			o->storage_nodes = v;
		} else if (!strncmp(a, "--layers-fio=", 13)) {
			o->fio = v;
		} else if (!strncmp(a, "--cephfs-dir=", 13)) {
			o->cephfs_dir = v;
		} else if (!strncmp(a, "--layers-skip=", 14)) {
			const char *p = v;

			while (*p) {
				size_t l = strcspn(p, ",");
				int li = layer_index(p, l);

				if (li < 0)
					return ios_errf(
						err, -EINVAL,
						"--layers-skip: unknown layer \"%.*s\" (accepted: device, network, protocol, fullstack, fullstack-lib)",
						(int)l, p);
				o->skip[li] = true;
				p += l + (p[l] == ',');
			}
		} else if (!strncmp(a, "--layers-net-msg=", 17)) {
			rc = ios_parse_size(v, "--layers-net-msg",
					    &o->net.msg_bytes, err);
		} else if (!strncmp(a, "--layers-net-streams=", 21)) {
			rc = ios_parse_uint(v, "--layers-net-streams", 1, 64,
					    &u, err);
			o->net.streams = (int)u;
		} else if (!strncmp(a, "--layers-net-time=", 18)) {
			rc = ios_parse_duration(v, "--layers-net-time",
						&o->net.seconds, err);
		} else if (!strncmp(a, "--layers-osds=", 14)) {
			rc = ios_parse_uint(v, "--layers-osds", 1, 100000, &u,
					    err);
			o->osds = (int)u;
		} else if (!strncmp(a, "--layers-tolerance=", 19)) {
			char *end;

			o->tolerance = strtod(v, &end);
			if (*end || o->tolerance < 0 || o->tolerance > 1)
				return ios_errf(
					err, -EINVAL,
					"--layers-tolerance: \"%s\" is not a fraction (accepted: 0 to 1, e.g. 0.10)",
					v);
		} else if (!strncmp(a, "--layers", 8)) {
			return ios_errf(
				err, -EINVAL,
				"unknown option \"%.*s\" (see --help for the layered options)",
				(int)nl, a);
		} else {
			if (!strncmp(a, "--backend", 9) ||
			    !strncmp(a, "--rw", 4))
				return ios_errf(
					err, -EINVAL,
					"%.*s: not with --layers (each layer picks its backend; the layers run write then read)",
					(int)nl, a);
			if (!strncmp(a, "--dir=", 6))
				*have_dir = true;
			if (*nrest >= MAX_ARGS - 4)
				return ios_errf(err, -EINVAL,
						"too many arguments");
			rest[(*nrest)++] = a;
		}
		if (rc < 0)
			return rc;
	}
	if (!o->device_dir)
		o->skip[LYR_DEVICE] = true;
	if (!o->cephfs_dir)
		o->skip[LYR_FULLLIB] = true;
	if (!*have_dir)
		o->skip[LYR_FULLSTACK] = true;
	return 0;
}

int lyr_parse(int argc, char **argv, struct lyr_opts *o, struct mb_config *cfg,
	      struct ios_err *err)
{
	char *rest[MAX_ARGS];
	int nrest, rc;
	bool have_dir;

	mb_config_defaults(cfg);
	rc = parse_layer_opts(argc, argv, o, rest, &nrest, &have_dir, err);
	if (rc < 0)
		return rc;
	rest[nrest++] = have_dir ? "--backend=posix" : "--backend=null";
	rest[nrest] = NULL;
	rc = mb_config_parse(cfg, nrest, rest, err);
	if (rc < 0)
		goto out_free;
	/* the record holds the command line as given, not [rest] */
	free(cfg->command_line);
	cfg->command_line = mb_command_line(argc, argv);
	if (!cfg->command_line) {
		rc = ios_errf(err, -ENOMEM, "layers: %s", strerror(ENOMEM));
		goto out_free;
	}
	if (cfg->once) {
		rc = ios_errf(
			err, -EINVAL,
			"--once: not available with --layers (the layers run time-based, fio alongside; accepted: --runtime=DURATION)");
		goto out_free;
	}
	if (cfg->file_layout == MB_LAYOUT_SHARED) {
		rc = ios_errf(
			err, -EINVAL,
			"--file-layout: \"shared\" is not available with --layers (each layer runs one file per rank; accepted: --file-layout=per-rank)");
		goto out_free;
	}
	cfg->npatterns = 2; /* every layer writes, then reads */
	cfg->patterns[0] = MB_PAT_WRITE;
	cfg->patterns[1] = MB_PAT_READ;
	for (int i = 0; i < o->nceph; i++) {
		if (cfg->nbopts == MB_MAX_BOPTS) {
			rc = ios_errf(err, -EINVAL,
				      "--%s: too many backend options",
				      o->ceph[i].name);
			goto out_free;
		}
		cfg->bopts[cfg->nbopts].name = o->ceph[i].name;
		cfg->bopts[cfg->nbopts].value = strdup(o->ceph[i].value);
		if (!cfg->bopts[cfg->nbopts].value) {
			rc = ios_errf(err, -ENOMEM, "layers: %s",
				      strerror(ENOMEM));
			goto out_free;
		}
		cfg->nbopts++;
	}
	return 0;
out_free:
	mb_config_free(cfg);
	return rc;
}

void lyr_layer_config(const struct mb_config *cfg, const struct lyr_opts *o,
		      int layer, const char *devdir, int nnodes,
		      struct mb_config *out)
{
	*out = *cfg;
	switch (layer) {
	case LYR_DEVICE: /* one rank per node, no cache */
		out->backend = mb_backend_find("posix");
		out->dir = (char *)devdir;
		out->direct = true;
		out->reorder = false;
		break;
	case LYR_PROTOCOL:
		out->backend = mb_backend_find("rados");
		out->dir = NULL;
		out->direct = true;
		out->reorder = false;
		break;
	case LYR_FULLSTACK:
		out->backend = mb_backend_find("posix");
		out->reorder = nnodes > 1;
		break;
	case LYR_FULLLIB: /* FIXME: at queue depth 1 still; the cephfs
			   * backend's thread queue (--iodepth > 1) is not
			   * used by the layered run yet */
		out->backend = mb_backend_find("cephfs");
		out->dir = (char *)o->cephfs_dir;
		out->iodepth = 1;
		/* the run's --ioengine is the posix layers' (cephfs refuses
		 * a posix engine) */
		out->ioengine = MB_ENG_PSYNC;
		out->reorder = nnodes > 1;
		break;
	default:
		break;
	}
	if (out->iodepth_batch > out->iodepth)
		out->iodepth_batch = out->iodepth;
}

int lyr_runrec_start(struct ios_run *run, const struct mb_config *cfg,
		     const struct lyr_opts *o, const struct lyr_numbers *n)
{
	char skip[128] = "";
	int rc;

	rc = ios_runrec_header(run, "iostrata-bench", cfg->command_line);
	rc |= ios_runrec_kv(run, "layers", "1");
	rc |= mb_runrec_config(run, cfg);
	rc |= ios_runrec_kv(run, "layers.device_dir", "%s",
			    o->device_dir ? o->device_dir : "");
	rc |= ios_runrec_kv(run, "layers.cephfs_dir", "%s",
			    o->cephfs_dir ? o->cephfs_dir : "");
	if (n) {
		rc |= ios_runrec_kv(run, "layers.replicas", "%d", n->replicas);
		rc |= ios_runrec_kv(run, "layers.fs_replicas", "%d",
				    n->fs_replicas);
		rc |= ios_runrec_kv(run, "layers.osds", "%d", n->osds);
		rc |= ios_runrec_kv(run, "layers.device_ranks", "%d",
				    n->device_ranks);
		rc |= ios_runrec_kv(run, "layers.storage_nodes", "%d",
				    n->storage_nodes);
		rc |= ios_runrec_kv(run, "layers.one_host", "%d", n->one_host);
		rc |= ios_runrec_kv(run, "layers.roles_known", "%d",
				    n->roles_known);
	}
	rc |= ios_runrec_kv(run, "layers.tolerance", "%g", o->tolerance);
	for (int l = 0; l < LYR_NLAYERS; l++)
		if (o->skip[l])
			snprintf(skip + strlen(skip),
				 sizeof(skip) - strlen(skip), "%s%s",
				 skip[0] ? "," : "", lyr_layer_names[l]);
	rc |= ios_runrec_kv(run, "layers.skip", "%s", skip);
	rc |= ios_runrec_kv(run, "layers.fio", "%s", o->fio);
	rc |= ios_runrec_kv(run, "layers.storage_nodes_option", "%s",
			    o->storage_nodes ? o->storage_nodes : "");
	rc |= ios_runrec_kv(run, "layers.net_msg", "%" PRIu64,
			    o->net.msg_bytes);
	rc |= ios_runrec_kv(run, "layers.net_streams", "%d", o->net.streams);
	rc |= ios_runrec_kv(run, "layers.net_time", "%g", o->net.seconds);
	for (int l = 0; l < LYR_NLAYERS; l++) {
		struct mb_config lc;
		const char *name = lyr_layer_names[l];
		char key[64];

		if (o->skip[l] || l == LYR_NETWORK)
			continue;
		/* the full stack reorders over the hosts that run it */
		lyr_layer_config(cfg, o, l, o->device_dir,
				 !n               ? 1
				 : n->roles_known ? n->clients
						  : n->storage_nodes,
				 &lc);
#define LKV(k, ...)                                                            \
	(snprintf(key, sizeof(key), "layers.%s." k, name),                     \
	 ios_runrec_kv(run, key, __VA_ARGS__))
		rc |= LKV("backend", "%s",
			  lc.backend ? lc.backend->name : "(not built)");
		rc |= LKV("dir", "%s", lc.dir ? lc.dir : "");
		rc |= LKV("direct", "%d", lc.direct);
		rc |= LKV("iodepth", "%u", lc.iodepth);
		rc |= LKV("iodepth_batch", "%u", lc.iodepth_batch);
		rc |= LKV("reorder", "%d", lc.reorder);
#undef LKV
		/* the defaults of the layer's backend options, as the plain
		 * run records them (the given ones are in cfg's) */
		for (const struct mb_option *bo =
			     lc.backend ? lc.backend->options : NULL;
		     bo && bo->name; bo++)
			if (bo->def && !ios_runrec_get(run, bo->name))
				rc |= ios_runrec_kv(run, bo->name, "%s",
						    bo->def);
	}
	return rc ? -ENOMEM : 0;
}
