/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hwinfo_internal: the root-relative entry points behind hwinfo.h, for
 * unit tests with a fake /proc and /sys tree.
 */
#ifndef IOSTRATA_HWINFO_INTERNAL_H
#define IOSTRATA_HWINFO_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#ifdef HAVE_JANSSON
#include <jansson.h>
#endif

#include "hwinfo.h"

/* ios_hw_node_json reading /proc, /sys, /etc under [root]. */
char *ios_hw_node_json_root(const char *root, const char *target_dir);

#ifdef HAVE_JANSSON
/* The filesystem object for [target_dir] from [root]/proc/self/mountinfo. */
json_t *ios_hw_filesystem(const char *root, const char *target_dir);
#endif

#ifdef HAVE_JANSSON
/* hwinfo_host.c: the collectors, each reading under [root].  A fact that
 * cannot be read is "unknown" and [o]'s "why_unknown" object holds the
 * reason under the same key. */

/* Read root/rel into buf (trailing whitespace stripped); 0 or -errno
 * (-ENAMETOOLONG when the path does not fit). */
int ios_hw_rd(const char *root, const char *rel, char *buf, size_t len);
/* o[key] = "unknown", o.why_unknown[key] = the formatted reason. */
void ios_hw_unknown(json_t *o, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* o[key] = the text of root/rel (printable), or unknown and why; returns 0,
 * -errno, or -EINVAL (empty or not text). */
int ios_hw_str(json_t *o, const char *key, const char *root, const char *rel);
/* o[key] = the decimal count in root/rel, or unknown and why; 0 or
 * -errno, -EINVAL (not a count). */
int ios_hw_int(json_t *o, const char *key, const char *root, const char *rel);
/* cpufreq of the node: driver, governor (every CPU's, comma-joined when
 * they differ), base_khz, min_khz, max_khz. */
json_t *ios_hw_cpufreq(const char *root);
/* cpu.microcode from /proc/cpuinfo. */
void ios_hw_microcode(json_t *cpu, const char *root);
/* DMI: sys_vendor, product_name, product_version, board_vendor,
 * board_name, bios_vendor, bios_version, bios_date, dimms (from the
 * SMBIOS table). */
json_t *ios_hw_dmi(const char *root);
/* Append the populated memory devices (SMBIOS type 17) of table [t] to
 * [out]: locator, size_bytes, speed_mts, manufacturer, part_number.
 * Returns 0, or -EBADMSG (a structure runs past the end). */
int ios_hw_dimms_parse(const uint8_t *t, size_t len, json_t *out);
/* hwinfo.c: o[key] = v, or "unknown" when v is NULL or empty. */
void ios_hw_set_str(json_t *o, const char *key, const char *v);
/* The compact JSON text of [o] (malloc'd), releasing [o]. */
char *ios_hw_dump(json_t *o);

/* hwinfo_dev.c: block devices and network interfaces (SCHEMA.md). */
json_t *ios_hw_block_devices(const char *root);
json_t *ios_hw_nics(const char *root);
/* InfiniBand ports: [{device, port, rate, state, link_layer}]. */
json_t *ios_hw_infiniband(const char *root);
/* Slurm: version_built, conf, the slurm.conf keys, cgroup {conf, keys}. */
json_t *ios_hw_slurm(const char *root);
/* hwinfo_slurm.c: the running Slurm: version_built_source,
 * version_slurmctld (+_source: "[prog] show config"), version_slurmd
 * (+_source: "[prog] -o show node [node]"; not asked when slurmctld did
 * not answer in time), version_mismatch ("no", the differing versions, or
 * unknown when fewer than two are known; a difference is also one warning
 * line on stderr).  [prog] NULL: "scontrol" in PATH; each call is killed
 * after [timeout_ms]. */
void ios_hw_slurm_running(json_t *o, const char *prog, const char *node,
			  int timeout_ms);
/* The version in "scontrol show config" [text] (SLURM_VERSION = X) and in
 * a "scontrol -o show node" line (Version=X) into [v]: 0, -ENOENT (not
 * there), -EINVAL (not a version). */
int ios_hw_slurm_conf_version(const char *text, char *v, size_t len);
int ios_hw_slurm_node_version(const char *text, char *v, size_t len);
/* hwinfo_mpi.c: host.mpi_transport: requested {env (the OMPI_MCA_pml,
 * OMPI_MCA_btl, OMPI_MCA_mtl and UCX_* variables set in [envp]), cvars
 * (opts' MPI_T control variables, or unknown and why)}, selected (unknown,
 * and why); unknown outside MPI (opts->mpi_library NULL). */
void ios_hw_mpi_transport(json_t *host, char *const *envp,
			  const struct ios_hw_host_opts *opts);
/* Set [keys] found in slurm.conf-style [text] in [o]; returns how many. */
int ios_hw_conf_parse(const char *text, const char *const *keys, json_t *o);
/* o.role and o.role_source: [role] when given, else $IOSTRATA_ROLE, else
 * "storage" when the SPANK plugin shaped this host, else "unknown". */
void ios_hw_role(json_t *o, const char *role, const char *source);
/* o.shape: the SPANK applied file ([applied_file], else
 * $IOSTRATA_APPLIED_FILE) as an object, or unknown and why. */
void ios_hw_shape(json_t *o, const char *applied_file);
#endif

/* Number of CPUs in a list like "0-3,8"; -1 on a syntax error. */
long ios_hw_count_list(const char *s);

/* CephFS data pool of [dir] (layout xattrs, walking up); 0 or -errno. */
int ios_hw_ceph_dir_pool(const char *dir, char *out, size_t len);

#endif
