/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * state: the state directory (root-only, never through a symlink), the
 * node-wide lock, and the journal: the observed state of everything the
 * plugin may change, written (temp + fsync + rename + fsync dir) BEFORE any
 * change and removed only after a verified restore.
 */
#ifndef IOSTRATA_STATE_H
#define IOSTRATA_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "blkio.h"
#include "errbuf.h"
#include "policy.h"

#define STATE_ID_MAX 64

struct snap_thr {
	char cg[BLKIO_CG_MAX]; /* cgroup directory, absolute below the sysroot
				*/
	enum blkio_ver ver;
	struct blkio_dev dev;
	struct blkio_limit lim;
};

struct snap_item {
	int id;
	bool online;
};

/* "No limit" in struct snap_mds (cgroup v1 -1, v2 "max"). */
#define SNAP_MDS_NOLIMIT UINT64_MAX

/* The MDS's shape, before and after (struct snapshot's mds). */
struct snap_mds {
	char id[POLICY_NAME_MAX];   /* mds.ID; "" none */
	char cg[POLICY_MDS_CG_MAX]; /* in the hierarchy: "/system.slice/..." */
	bool cpu, mem, cache;       /* what the apply changes */
	int cpu_ver, mem_ver;       /* 1: cgroup v1, 2: cgroup v2 */
	uint64_t cpu_old, cpu_new;  /* quota, microseconds per period */
	uint64_t cpu_period;        /* microseconds */
	uint64_t mem_old, mem_new;  /* bytes */
	bool cache_explicit_old;    /* mds.ID had an entry of its own */
	uint64_t cache_old, cache_new; /* bytes */
};

/* Observed node state: a journal's snapshot, or what is in effect now. */
struct snapshot {
	char jobid[STATE_ID_MAX];
	unsigned uid;
	char node[STATE_ID_MAX];
	long long time;
	size_t n_cpu;
	struct snap_item *cpu; /* hot-pluggable CPUs only */
	uint64_t block_size;
	size_t n_mem;
	struct snap_item *mem; /* hot-pluggable memory blocks only */
	size_t n_thr;
	struct snap_thr *thr;
	/* cgroup2 parents whose cgroup.subtree_control lacked "io": the
	 * apply writes "+io" there (top-down), the restore "-io" (journal
	 * lines "ioen DIR") */
	size_t n_ioen;
	struct snap_ioen {
		char cg[BLKIO_CG_MAX];
	} * ioen;
	/* OSD memory targets the apply sets (policy osd_memory_target =
	 * share; journal lines "omt ID EXPLICIT OLD NEW"): the old value
	 * in the monitors' configuration database, whether osd.ID had an
	 * entry of its own there (else the restore removes the one the
	 * apply made) and the value the apply sets */
	size_t n_omt;
	struct snap_omt {
		int id;
		bool explicit_old;
		uint64_t old_bytes;
		uint64_t new_bytes;
	} * omt;
	/* the job's own blkio cgroup (policy throttle_job = yes, cgroup
	 * v1; blkio_job_cgroup): the apply creates it with the OSDs' new
	 * limits on their v1 devices and the job's tasks on this host join
	 * it, so that what the job itself does here (a device test, fio)
	 * sees the emulated disk; the restore moves any process left to
	 * the hierarchy's root and removes it (journal line "jobcg DIR");
	 * "" for none */
	char jobcg[BLKIO_CG_MAX];
	/* the metadata server (policy mds, mds_cgroup; node_mds.c): what
	 * its cgroup's CPU quota, memory limit and its
	 * mds_cache_memory_limit were and what the apply sets (journal
	 * lines "mds ID CGROUP", "mdscpu VER OLD PERIOD NEW", "mdsmem VER
	 * OLD NEW", "mdscache EXPLICIT OLD NEW"); id "" for none */
	struct snap_mds mds;
	/* how the apply ran the ceph CLI for them and the MDS cache (journal
	 * line "ceph PATH CONF TIMEOUT_MS", "-" for an empty path): the restore
	 * needs no policy (the epilog and slurmd's start have none) */
	struct ceph_cli ceph;
};

void snapshot_free(struct snapshot *s);

/* Append a copy of [t] to s->thr.  0 or -ENOMEM. */
int snapshot_push_thr(struct snapshot *s, const struct snap_thr *t);

struct state_dir {
	int dirfd;  /* <path>: 0755, holds the per-job applied files */
	int jdirfd; /* <path>/journal: 0700, journals and the lock */
	char path[4096];
};

/*
 * Open (and with [create], make) the state directory [path] and its
 * journal/ subdirectory.  Refuses (-EPERM) directories not owned by the
 * effective uid, writable by group/others, or (journal/) accessible by
 * them; -ELOOP for a symlink anywhere in the last components.
 */
int state_open(struct state_dir *sd, const char *path, bool create,
	       struct ios_err *err);
void state_close(struct state_dir *sd);

/* Take the node-wide lock (blocks at most [timeout_ms]).  Returns an fd
 * to pass to state_unlock, or -ETIMEDOUT / -errno. */
int state_lock(struct state_dir *sd, int timeout_ms);
void state_unlock(int fd);

/* A job id as used in file names: [A-Za-z0-9_.-]{1,63}, not starting
 * with a dot. */
bool state_valid_id(const char *id);

/* Write the journal of s->jobid atomically.  Returns 0 or -errno
 * (-EINVAL: an invalid job id or a throttle cgroup blkio_check_cgroup
 * refuses). */
int state_journal_write(struct state_dir *sd, const struct snapshot *s);

/* Read the journal of [jobid].  Returns 0, -ENOENT (none), -EINVAL
 * (corrupt, [err] says where: any line not exactly as state_journal_write
 * writes it, a NUL byte, an overlong line, a number out of range, a
 * cgroup blkio_check_cgroup refuses, a repeated header line, no "end"),
 * -EPERM (wrong owner/mode, not a regular file). */
int state_journal_read(struct state_dir *sd, const char *jobid,
		       struct snapshot *s, struct ios_err *err);

int state_journal_remove(struct state_dir *sd, const char *jobid);

/* Job ids of all journals (malloc'd array of malloc'd strings). */
int state_journal_list(struct state_dir *sd, char ***ids, size_t *n);
void state_list_free(char **ids, size_t n);

/*
 * Write [name] in the state directory (not the journal dir) atomically
 * with [mode] (e.g. 0644 for the per-job applied file).
 */
int state_write_public(struct state_dir *sd, const char *name, const char *data,
		       size_t len, mode_t mode);
/* Remove [name] from the state directory: only a regular file owned by
 * the effective uid, never through a symlink.  0 (also when absent),
 * -EPERM (something else by that name: left alone), -EINVAL, -errno. */
int state_remove_public(struct state_dir *sd, const char *name);

/* The files a job publishes: <jobid>.applied.json and <jobid>.env. */
#define STATE_APPLIED_SUFFIX ".applied.json"
#define STATE_ENV_SUFFIX ".env"

/* Remove both published files of [jobid] (state_remove_public each).
 * Returns 0 or the first error. */
int state_remove_published(struct state_dir *sd, const char *jobid);

/* Job ids that have a published file (each once; state_list_free). */
int state_public_list(struct state_dir *sd, char ***ids, size_t *n);

/* Read a public file (regular, owned by us, no symlink) into [buf]. */
ssize_t state_read_public(struct state_dir *sd, const char *name, char *buf,
			  size_t len);

#endif
