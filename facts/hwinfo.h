/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hwinfo: the hardware, Slurm and Ceph facts a results file carries, as
 * JSON objects (stored raw and as HDF5 groups, see SCHEMA.md).  A fact the
 * machine does not expose is the string "unknown", never a failure.
 */
#ifndef IOSTRATA_HWINFO_H
#define IOSTRATA_HWINFO_H

#include <stdbool.h>
#include <stddef.h>

/*
 * This node: hostname, slurm_node, kernel, os, cpu {model, sockets,
 * cores, threads, online, online_count, possible, possible_count,
 * numa_nodes}, memory {total_bytes, block_size_bytes, blocks_online,
 * blocks_total, online_bytes}, block_devices [...], nics [...],
 * filesystem {path, mount_point, type, source, options, dev, client} of the
 * mount holding [target_dir] (NULL: no filesystem member); options with
 * a credential's value (secret=...) <hidden>; client the CephFS client
 * serving it (ios_hw_fs_client).  Returns a malloc'd
 * JSON text (free()), NULL only when out of memory.
 */
char *ios_hw_node_json(const char *target_dir);

/*
 * The full record of this host (SCHEMA.md, /hosts): what
 * ios_hw_node_json gives plus role, role_source, cpu.microcode,
 * cpu.frequency, system (DMI, DIMMs), the block devices' vendor, serial,
 * firmware and queue_depth, infiniband, slurm (version_built, the running
 * version_slurmctld and version_slurmd with their sources, asked through
 * $IOSTRATA_SCONTROL or "scontrol" with IOS_SLURM_PROBE_TIMEOUT_MS per
 * call, version_mismatch, conf keys, cgroup), mpi_library, mpi_transport
 * and shape (the SPANK applied file), read under [root] (NULL: "/").  [opts]
 * may be NULL; in it every member may be NULL: target_dir (no filesystem
 * member), fs_client (NULL: the filesystem member is the mount holding
 * target_dir; else a client that is no mount, "libcephfs": target_dir is
 * its path and the mount's members are "none"), role + role_source (NULL: from
 * the environment: $IOSTRATA_ROLE, else "storage" when the SPANK plugin shaped
 * this host, else "unknown"), applied_file (NULL: $IOSTRATA_APPLIED_FILE),
 * mpi_library (MPI_Get_library_version's text; NULL: "unknown" and no
 * mpi_transport), mpi_cvars (n_mpi_cvars MPI_T control variables read after
 * MPI_Init; NULL: mpi_t_why says why there are none), for mpi_transport
 * {requested {env, cvars}, selected (unknown: Open MPI 4.1 does not show it
 * reliably)}.  A fact that cannot be read is "unknown" and the object's
 * "why_unknown" member says why.  Returns malloc'd JSON, NULL only when out of
 * memory.
 */
#define IOS_SLURM_PROBE_TIMEOUT_MS 5000
/* One MPI_T control variable: its value as text, or NULL and why not. */
struct ios_hw_mpi_cvar {
	const char *name;
	const char *value;
	const char *why;
};
struct ios_hw_host_opts {
	const char *target_dir;
	const char *fs_client;
	const char *role;
	const char *role_source;
	const char *applied_file;
	const char *mpi_library;
	const struct ios_hw_mpi_cvar *mpi_cvars;
	size_t n_mpi_cvars;
	const char *mpi_t_why;
};
char *ios_hw_host_json(const char *root, const struct ios_hw_host_opts *opts);

/*
 * The CephFS client kind of a mount of filesystem type [type]: "kernel"
 * (ceph), "fuse" (fuse.ceph-fuse, fuse.ceph), "none" (not CephFS),
 * "unknown" (NULL, "" or "unknown").  Never NULL.
 */
const char *ios_hw_fs_client(const char *type);

/*
 * One record per host that took part: the records of the ranks' nodes
 * [nodes] (in node order; NULL or not JSON: a placeholder whose role is
 * unknown, and why), then the records [extra] made on other hosts (by
 * iostrata-facts on the storage hosts; [extra_names] names each in
 * messages), matched by slurm_node, else hostname.  A host in both keeps
 * its node record, which takes the other's role (when its own is
 * unknown) and shape (when unknown).  An [extra] text that is not a host
 * record is left out and [msg] names the first such.  Sets *out to a
 * malloc'd array of malloc'd JSON texts and returns their number, or
 * -ENOMEM.
 */
int ios_hw_hosts_merge(char *const *nodes, int nnodes, char *const *extra,
		       const char *const *extra_names, int nextra, char ***out,
		       char *msg, size_t msglen);

/*
 * Slurm facts from this process's environment (job_id, array_job_id,
 * array_task_id, het_job_id, het_job_offset, partition, nodelist, nnodes,
 * ntasks, tasks_per_node, cpus_per_task, job_name, cluster; in a het
 * step het_size, het_components and partition as each component's), the SPANK
 * options requested (IOSTRATA_REQ_* -> "requested") and applied
 * (IOSTRATA_APPLIED_* -> "applied"), and the per-job applied file
 * (IOSTRATA_APPLIED_FILE, embedded as "applied_file" when it is readable
 * JSON).  Returns malloc'd JSON; NULL outside Slurm (no SLURM_JOB_ID) or
 * when out of memory.
 */
char *ios_hw_job_json(void);

/*
 * Ceph facts through librados: conf (the ceph.conf read), client
 * (client.<id>), fsid, version, osds {total, up, in}, pools [{name, id,
 * size, min_size, pg_num, crush_rule}], data_pool of [target_dir] (xattr
 * ceph.dir.layout.pool / ceph.file.layout.pool of the directory or its
 * parents, else the file system's first data pool) and data_pool_source.
 * Connects with [opts] (NULL: every default; ceph_conn.h, the same
 * connect and defaults as the rados backend: the conf from opts->conf,
 * $CEPH_CONF or Ceph's default places, client.<opts->id or admin>, the
 * keyring given, else $CEPH_KEYRING, else the conf's; opts->extra is
 * replaced by keys that keep librados quiet).  Bounded time: connect and
 * every command time out after IOS_CEPH_PROBE_TIMEOUT (5) seconds, or
 * $IOSTRATA_CEPH_TIMEOUT, or opts->timeout when shorter.
 * Returns malloc'd JSON; NULL only when no ceph.conf is given or found
 * (no Ceph here) or when built without jansson.  When a conf is there but
 * the cluster cannot be asked (library missing, wrong key, monitor
 * unreachable), every cluster fact is "unknown" and "error" says why,
 * naming the step, the client and the conf: never another key's facts.
 * Of the monitors' configuration database ("config"), only the entries
 * ios_hw_ceph_config_kept keeps; "config_omitted" counts the others.
 */
struct ios_ceph_opts;
char *ios_hw_ceph_json(const struct ios_ceph_opts *opts,
		       const char *target_dir);

/*
 * Whether the Ceph config option [name] is stored in a results file with
 * its value: on the allow-list of options that change what a benchmark
 * measures (h5schema/SCHEMA.md, /ceph) and not named like a credential
 * (ios_hw_secret_name).  NULL or "" is not.
 */
bool ios_hw_ceph_config_kept(const char *name);

/*
 * Whether [name] (a config option, an environment variable) looks like it
 * holds a credential: it contains key, secret, password, passwd, pass_,
 * token, credential, cred_, auth, cert or private, in any case.  Such a
 * value never reaches a results file, whatever allow-list took the name.
 */
bool ios_hw_secret_name(const char *name);

#endif
