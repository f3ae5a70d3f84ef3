/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fake_root: a throw-away directory tree under mkdtemp standing in for /
 * (sysfs, cgroupfs) in unit tests, with helpers that lay out CPUs, memory
 * blocks and cgroups the way the kernel does.
 */
#ifndef IOSTRATA_FAKE_ROOT_H
#define IOSTRATA_FAKE_ROOT_H

#include <stddef.h>

#include "hostfs.h"

struct fake_root {
	char dir[4096];
};

struct fake_root *fake_root_new(void);
void fake_root_free(struct fake_root *r);

/*
 * The fixture of the tests of the host's readers (test_hostfs, test_cpu,
 * test_mem, test_blkio): a fake root and the struct sysfs open on it.
 * fake_host_new makes the root, runs [lay_out] on it (NULL: nothing) and
 * opens the sysfs on it; it fails the test on error.  fake_host_free
 * closes the sysfs, removes the tree, frees [h] (NULL: nothing) and
 * clears sysfs_read_fault_hook (hostfs.h) for the next test.
 */
struct fake_host {
	struct fake_root *r;
	struct sysfs fs;
};

struct fake_host *fake_host_new(void (*lay_out)(struct fake_root *r));
void fake_host_free(struct fake_host *h);

/* Write [content] to [rel] (parents created). Aborts the test on error. */
void fake_write(struct fake_root *r, const char *rel, const char *content);
void fake_mkdir(struct fake_root *r, const char *rel);
void fake_symlink(struct fake_root *r, const char *target, const char *rel);
void fake_mkfifo(struct fake_root *r, const char *rel);
/* Contents of [rel] with trailing newlines removed (static buffer). */
const char *fake_read(struct fake_root *r, const char *rel);
/* Absolute path of [rel] (static buffer). */
const char *fake_path(struct fake_root *r, const char *rel);

/* n CPUs, all online, cpu0 without an online file; cpu i in package
 * i % npkg and NUMA node i % npkg. */
void fake_cpus(struct fake_root *r, int n, int npkg);
/* n memory blocks of [bs] bytes, all online, block i on node i % nnode
 * (memory0 without an online file when [fixed0]). */
void fake_mem(struct fake_root *r, int n, unsigned long long bs, int nnode);
/*
 * Run fn(arg) in a child process and return its exit status (fn's return
 * value), or -1 when it had not ended after [timeout_ms] (then killed):
 * for calls that must never block.
 */
int fake_run_bounded(int (*fn)(void *), void *arg, int timeout_ms);

/* proc/meminfo with MemTotal and MemAvailable in kB (what mem_usage
 * reads). */
void fake_meminfo(struct fake_root *r, unsigned long long total_kb,
		  unsigned long long avail_kb);
/* A v1 blkio cgroup dir / a v2 cgroup dir with io.max, empty. */
void fake_cg_v1(struct fake_root *r, const char *rel);
void fake_cg_v2(struct fake_root *r, const char *rel);

/*
 * A process in the fake /proc: proc/<pid>/comm [comm], cmdline the
 * NULL-ended [argv] (NUL-separated), ns/net a symlink to [netns] (as the
 * kernel shows it: "net:[4026531840]"), cgroup [cgroup] (the text of
 * /proc/<pid>/cgroup), exe a symlink to usr/bin/ceph-osd (made, ours).
 * fake_proc_self: proc/self/ns/net -> [netns].
 */
void fake_osd_proc(struct fake_root *r, int pid, const char *comm,
		   const char *const *argv, const char *netns,
		   const char *cgroup);
void fake_proc_self(struct fake_root *r, const char *netns);

/*
 * cgroup v2 directories: [rel] with cgroup.controllers [ctrls],
 * cgroup.subtree_control [sub] and an empty cgroup.procs (io.max when
 * "io" is in [ctrls]).
 */
void fake_cg2_dir(struct fake_root *r, const char *rel, const char *ctrls,
		  const char *sub);

/*
 * The kernel's side of cgroup.subtree_control, for sysfs_fault_hook (set
 * fake_cg2_root first): "+io" / "-io" written to <dir>/cgroup.subtree_control
 * updates that file and gives (takes) the child cgroups "io" in their
 * cgroup.controllers and their io.max; "+io" in a cgroup other than the
 * root (/sys/fs/cgroup) whose cgroup.procs is not empty, and "-io" while a
 * child lists io in its own subtree_control, fail with -EBUSY.  Returns 1
 * (done, do not write), a negative errno, or 0 for other files.  Each
 * write is appended to fake_cg2_log ("path val\n").
 */
extern struct fake_root *fake_cg2_root;
extern char fake_cg2_log[4096];
int fake_cg2_write(const char *path, const char *val);

#endif
