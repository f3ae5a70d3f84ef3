/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hwinfo: the hardware, Slurm and Ceph facts a results file carries, as
 * JSON objects (stored raw and as HDF5 groups, see SCHEMA.md).  A fact the
 * machine does not expose is the string "unknown", never a failure.
 */
#ifndef IOSTRATA_HWINFO_H
#define IOSTRATA_HWINFO_H

/*
 * This node: hostname, slurm_node, kernel, os, cpu {model, sockets,
 * cores, threads, online, online_count, possible, possible_count,
 * numa_nodes}, memory {total_bytes, block_size_bytes, blocks_online,
 * blocks_total, online_bytes}, block_devices [...], nics [...],
 * filesystem {path, mount_point, type, source, options, dev} of the mount
 * holding [target_dir] (NULL: no filesystem member).  Returns a malloc'd
 * JSON text (free()), NULL only when out of memory.
 */
char *ios_hw_node_json(const char *target_dir);

/*
 * Slurm facts from this process's environment (job_id, array_job_id,
 * array_task_id, het_job_id, het_job_offset, partition, nodelist, nnodes,
 * ntasks, tasks_per_node, cpus_per_task, job_name, cluster), the SPANK
 * options requested (IOSTRATA_REQ_* -> "requested") and applied
 * (IOSTRATA_APPLIED_* -> "applied"), and the per-job applied file
 * (IOSTRATA_APPLIED_FILE, embedded as "applied_file" when it is readable
 * JSON).  Returns malloc'd JSON; NULL outside Slurm (no SLURM_JOB_ID) or
 * when out of memory.
 */
char *ios_hw_job_json(void);

/*
 * Ceph facts through librados: fsid, version, osds {total, up, in}, pools
 * [{name, id, size, min_size, pg_num, crush_rule}], data_pool of
 * [target_dir] (xattr ceph.dir.layout.pool / ceph.file.layout.pool of the
 * directory or its parents, else the file system's first data pool) and
 * data_pool_source.  [ceph_conf] NULL: $CEPH_CONF, else
 * /etc/ceph/ceph.conf; the key comes from $CEPH_KEYRING when set, the id
 * from $CEPH_ID (default admin).  Bounded time: connect and commands time
 * out after $IOSTRATA_CEPH_TIMEOUT seconds (default 5).  Returns malloc'd
 * JSON, or NULL when no Ceph is reachable (or built without librados).
 */
char *ios_hw_ceph_json(const char *ceph_conf, const char *target_dir);

#endif
