/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * node_fx: the fake node of test_node and test_node_osds (8 CPUs, 16
 * memory blocks of 128 MiB, a v1 and a v2 cgroup, a policy, a state
 * directory under a fake root) and the helpers both use.
 */
#ifndef IOSTRATA_NODE_FX_H
#define IOSTRATA_NODE_FX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fake_root.h"
#include "node.h"

#define BS (128ULL << 20)
#define V1 "sys/fs/cgroup/blkio/site/osd.0"
#define V2 "sys/fs/cgroup/site/osd.1"

struct fx {
	struct fake_root *r;
	struct node_ctx c;
	struct policy *pol;
	char before[8192];
};

/* Everything the plugin may touch, as one string. */
void observe(struct fx *f, char *out, size_t len);
int setup(void **state);
int teardown(void **state);
/* A request for CPUs, memory, disk bandwidth and IOPS at once. */
void req_full(struct iostrata_req *r);
bool journal_exists(struct fx *f, const char *id);
/* The node as before the test, and a restore with nothing to do. */
void assert_whole(struct fx *f);
/* Replace the fixture's policy with [text]. */
void use_policy(struct fx *f, const char *text);
/* The device of the fake data file [rel], as "MAJ:MIN "; skips the test
 * where the fake tree is on no block device (tmpfs). */
void dev_key(struct fx *f, const char *rel, char *key, size_t len);
/* The fake slurmctld of the jobproc checks: answers ctl_answer. */
extern int ctl_answer;
int fake_ctl(uint32_t jobid, char *why, size_t len);
/* jobproc_alive over the fake /proc and fake_ctl ([arg]: the sysfs). */
int alive(const char *jobid, void *arg, char *why, size_t len);
/* A fake /proc/[pid] with [comm], owner [uid] and command line [title]. */
void fake_proc(struct fx *f, int pid, const char *comm, unsigned uid,
	       const char *title);

#endif
