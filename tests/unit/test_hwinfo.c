/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_hwinfo: node facts from a fake /proc + /sys tree, CPU list
 * parsing, mountinfo matching, Slurm environment facts, Ceph facts when
 * the cluster cannot be asked.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "ceph_conn.h"
#include "hwinfo.h"
#include "hwinfo_internal.h"

static void fake_write(const char *root, const char *rel, const char *text)
{
	char path[PATH_MAX], cmd[PATH_MAX + 32];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	char *root = strdup("/tmp/test_hwinfo.XXXXXX");

	assert_non_null(mkdtemp(root));
	fake_write(root, "proc/sys/kernel/hostname", "node17\n");
	fake_write(root, "proc/sys/kernel/osrelease", "6.1.0-test\n");
	fake_write(root, "proc/sys/kernel/version", "#1 SMP\n");
	fake_write(
		root, "etc/os-release",
		"NAME=Debian\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n");
	fake_write(
		root, "proc/cpuinfo",
		"processor\t: 0\nmodel name\t: AMD EPYC 9374F 32-Core Processor\n\nprocessor\t: 1\nmodel name\t: AMD EPYC 9374F 32-Core Processor\n");
	fake_write(root, "sys/devices/system/cpu/online", "0-1,3\n");
	fake_write(root, "sys/devices/system/cpu/possible", "0-3\n");
	fake_write(root, "sys/devices/system/node/node0/cpulist", "0-3\n");
	fake_write(root, "sys/devices/system/node/node1/cpulist", "\n");
	fake_write(root, "proc/meminfo",
		   "MemTotal:       16384 kB\nMemFree: 1 kB\n");
	fake_write(root, "sys/devices/system/memory/block_size_bytes",
		   "8000000\n");
	fake_write(root, "sys/devices/system/memory/memory0/state", "online\n");
	fake_write(root, "sys/devices/system/memory/memory1/state", "online\n");
	fake_write(root, "sys/devices/system/memory/memory2/state",
		   "offline\n");
	fake_write(root, "sys/block/sda/size", "2048\n");
	fake_write(root, "sys/block/sda/dev", "8:0\n");
	fake_write(root, "sys/block/sda/device/model", "WUH722222AL5200  \n");
	fake_write(root, "sys/block/sda/queue/rotational", "1\n");
	fake_write(root, "sys/block/sda/queue/scheduler",
		   "none [mq-deadline] kyber\n");
	fake_write(root, "sys/block/sda/queue/logical_block_size", "512\n");
	fake_write(root, "sys/block/sda/queue/physical_block_size", "4096\n");
	fake_write(root, "sys/block/sda/queue/nr_requests", "64\n");
	fake_write(root, "sys/block/loop0/size", "0\n");
	fake_write(root, "sys/class/net/ib0/mtu", "2044\n");
	fake_write(root, "sys/class/net/ib0/speed", "100000\n");
	fake_write(root, "sys/class/net/ib0/operstate", "up\n");
	fake_write(root, "sys/class/net/eth0/mtu", "1500\n");
	fake_write(root, "sys/class/net/eth0/speed", "-1\n");
	fake_write(root, "sys/class/net/eth0/operstate", "down\n");
	fake_write(
		root, "proc/self/mountinfo",
		"22 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n"
		"40 22 0:50 / /mnt/ceph\\040fs rw,nosuid - fuse.ceph-fuse ceph-fuse rw,user_id=0\n"
		"41 22 0:51 / /mnt/cephx rw - tmpfs tmpfs rw\n"
		"42 22 0:52 / /mnt/kceph rw,relatime - ceph 198.18.7.1:3300:/ "
		"rw,name=admin,secret=<hidden>,acl,mds_namespace=cephfs\n"
		"43 22 0:53 / /mnt/leak rw - ceph 10.0.0.1:/ "
		"rw,name=admin,secret=AQBsecretkeyXYZ==,key=k1,mds_namespace=x\n");
	*state = root;
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", (char *)*state);
	free(*state);
	return system(cmd);
}

/* The JSON text [s] (malloc'd, freed here) parsed. */
static json_t *parsed(char *s)
{
	json_t *j;

	assert_non_null(s);
	j = json_loads(s, 0, NULL);
	free(s);
	assert_non_null(j);
	return j;
}

static json_t *node(const char *root, const char *target)
{
	return parsed(ios_hw_node_json_root(root, target));
}

static const char *str_at(json_t *j, const char *path)
{
	char buf[256], *save = NULL, *t;
	json_t *cur = j;

	snprintf(buf, sizeof(buf), "%s", path);
	for (t = strtok_r(buf, ".", &save); t; t = strtok_r(NULL, ".", &save))
		cur = json_is_array(cur) ? json_array_get(cur, atoi(t))
					 : json_object_get(cur, t);
	if (!cur)
		return "(missing)";
	if (json_is_string(cur))
		return json_string_value(cur);
	{
		static char num[64];

		snprintf(num, sizeof(num), "%lld",
			 (long long)json_integer_value(cur));
		return num;
	}
}

static void test_node_fake_root(void **state)
{
	static const struct {
		const char *path, *want;
	} cases[] = {
		{"hostname", "node17"},
		{"kernel", "6.1.0-test #1 SMP"},
		{"os", "Debian GNU/Linux 12 (bookworm)"},
		{"cpu.model", "AMD EPYC 9374F 32-Core Processor"},
		{"cpu.online", "0-1,3"},
		{"cpu.online_count", "3"},
		{"cpu.possible_count", "4"},
		{"cpu.numa_nodes", "2"},
		{"cpu.sockets", "unknown"},
		{"memory.total_bytes", "16777216"},
		{"memory.block_size_bytes", "134217728"},
		{"memory.blocks_online", "2"},
		{"memory.blocks_total", "3"},
		{"memory.online_bytes", "268435456"},
		{"block_devices.0.name", "sda"},
		{"block_devices.0.model", "WUH722222AL5200"},
		{"block_devices.0.size_bytes", "1048576"},
		{"block_devices.0.rotational", "1"},
		{"block_devices.0.scheduler", "mq-deadline"},
		{"block_devices.0.physical_block_size", "4096"},
		{"block_devices.0.nr_requests", "64"},
		{"block_devices.0.dev", "8:0"},
		{"block_devices.1", "(missing)"}, /* loop devices skipped */
		{"nics.0.name", "eth0"},
		{"nics.0.speed_mbps", "unknown"},
		{"nics.0.driver", "unknown"},
		{"nics.1.name", "ib0"},
		{"nics.1.speed_mbps", "100000"},
		{"nics.1.mtu", "2044"},
		{"nics.1.state", "up"},
		{"filesystem.mount_point", "/mnt/ceph fs"},
		{"filesystem.type", "fuse.ceph-fuse"},
		{"filesystem.source", "ceph-fuse"},
		{"filesystem.options", "rw,nosuid,rw,user_id=0"},
		{"filesystem.dev", "0:50"},
		{"filesystem.client", "fuse"},
	};
	json_t *j = node(*state, "/mnt/ceph fs/bench/dir");

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (strcmp(str_at(j, cases[i].path), cases[i].want))
			fail_msg("%s: got '%s', want '%s'", cases[i].path,
				 str_at(j, cases[i].path), cases[i].want);
	json_decref(j);
}

/*
 * The CephFS client of the mount holding the target: the kernel client
 * (type ceph) with its options, ceph-fuse, not CephFS; libcephfs (no
 * mount) when the caller says so; a credential in the options never kept.
 */
static void test_node_fs_client(void **state)
{
	static const struct {
		const char *target, *client, *type, *options;
	} cases[] = {
		{"/mnt/kceph/bench", "kernel", "ceph",
		 "rw,relatime,rw,name=admin,secret=<hidden>,acl,"
		 "mds_namespace=cephfs"},
		{"/mnt/ceph fs", "fuse", "fuse.ceph-fuse",
		 "rw,nosuid,rw,user_id=0"},
		{"/mnt/cephx/a", "none", "tmpfs", "rw,rw"},
		{"/srv", "none", "ext4", "rw,relatime,rw"},
		{"/mnt/leak/d", "kernel", "ceph",
		 "rw,rw,name=admin,secret=<hidden>,key=<hidden>,"
		 "mds_namespace=x"},
	};
	struct ios_hw_host_opts o = {.target_dir = "/bench/run1",
				     .fs_client = "libcephfs"};
	json_t *j;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		j = node(*state, cases[i].target);
		assert_string_equal(str_at(j, "filesystem.client"),
				    cases[i].client);
		assert_string_equal(str_at(j, "filesystem.type"),
				    cases[i].type);
		assert_string_equal(str_at(j, "filesystem.options"),
				    cases[i].options);
		json_decref(j);
	}
	j = parsed(ios_hw_host_json(*state, &o));
	assert_string_equal(str_at(j, "filesystem.client"), "libcephfs");
	assert_string_equal(str_at(j, "filesystem.path"), "/bench/run1");
	assert_string_equal(str_at(j, "filesystem.mount_point"), "none");
	json_decref(j);
	assert_string_equal(ios_hw_fs_client("fuse.ceph"), "fuse");
	assert_string_equal(ios_hw_fs_client("fuse.sshfs"), "none");
	assert_string_equal(ios_hw_fs_client(""), "unknown");
	assert_string_equal(ios_hw_fs_client(NULL), "unknown");
}

/* An empty root: every fact "unknown", never a failure. */
static void test_node_empty_root(void **state)
{
	char *root = strdup("/tmp/test_hwinfo_empty.XXXXXX");
	json_t *j;
	char cmd[128];

	(void)state;
	assert_non_null(mkdtemp(root));
	j = node(root, "/x");
	assert_string_equal(str_at(j, "hostname"), "unknown");
	assert_string_equal(str_at(j, "cpu.model"), "unknown");
	assert_string_equal(str_at(j, "cpu.online_count"), "unknown");
	assert_string_equal(str_at(j, "memory.total_bytes"), "unknown");
	assert_string_equal(str_at(j, "filesystem.type"), "unknown");
	assert_string_equal(str_at(j, "filesystem.client"), "unknown");
	assert_int_equal(json_array_size(json_object_get(j, "nics")), 0);
	json_decref(j);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	free(root);
}

static void test_count_list(void **state)
{
	static const struct {
		const char *in;
		long want;
	} cases[] = {
		{"0", 1},   {"0-1", 2},   {"0-3,8,10-11", 7},
		{"", 0},    {"3-1", -1},  {"a", -1},
		{"0-", -1}, {"1,,2", -1}, {"0-63\n", 64},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (ios_hw_count_list(cases[i].in) != cases[i].want)
			fail_msg("'%s': got %ld, want %ld", cases[i].in,
				 ios_hw_count_list(cases[i].in), cases[i].want);
}

/* setenv each "NAME=VALUE" of the NULL-terminated [kv]. */
static void set_env(const char *const *kv)
{
	for (; *kv; kv++) {
		char name[128];
		const char *eq = strchr(*kv, '=');

		assert_non_null(eq);
		assert_true((size_t)(eq - *kv) < sizeof(name));
		memcpy(name, *kv, (size_t)(eq - *kv));
		name[eq - *kv] = '\0';
		assert_int_equal(setenv(name, eq + 1, 1), 0);
	}
}

/* ios_hw_job_json() parsed; fails the test when there is none. */
static json_t *job_record(void)
{
	char *s = ios_hw_job_json();
	json_t *j;

	assert_non_null(s);
	j = json_loads(s, 0, NULL);
	free(s);
	assert_non_null(j);
	return j;
}

static void test_job_env(void **state)
{
	json_t *j;

	(void)state;
	unsetenv("SLURM_JOB_ID");
	assert_null(ios_hw_job_json());
	set_env((const char *const[]){
		"SLURM_JOB_ID=77", "SLURM_ARRAY_JOB_ID=70",
		"SLURM_ARRAY_TASK_ID=7", "SLURM_HET_JOB_ID=77",
		"SLURM_HET_JOB_OFFSET=1", "IOSTRATA_REQ_CPUS=1",
		"IOSTRATA_APPLIED_MEM=1073741824",
		"IOSTRATA_APPLIED_FILE=/nonexistent/77.applied.json", NULL});
	j = job_record();
	assert_string_equal(str_at(j, "job_id"), "77");
	assert_string_equal(str_at(j, "array_task_id"), "7");
	assert_string_equal(str_at(j, "het_job_offset"), "1");
	assert_string_equal(str_at(j, "requested.cpus"), "1");
	assert_string_equal(str_at(j, "applied.mem"), "1073741824");
	assert_string_equal(str_at(j, "spank_plugin"), "active");
	assert_non_null(json_object_get(j, "applied_file_error"));
	assert_null(json_object_get(j, "het_components"));
	json_decref(j);
}

/* A het step's task (Slurm 22.05 on the local site): SLURM_JOB_PARTITION
 * is the last component's on every task, the clients' too; the record
 * names each component's partition instead. */
static void test_job_env_het(void **state)
{
	json_t *j, *c;

	(void)state;
	set_env((const char *const[]){
		"SLURM_JOB_ID=1", "SLURM_JOB_PARTITION=storage",
		"SLURM_HET_SIZE=2", "SLURM_JOB_ID_HET_GROUP_0=1",
		"SLURM_JOB_ID_HET_GROUP_1=2",
		"SLURM_JOB_PARTITION_HET_GROUP_0=compute",
		"SLURM_JOB_PARTITION_HET_GROUP_1=storage",
		"SLURM_JOB_NODELIST_HET_GROUP_0=c[1-2]",
		"SLURM_JOB_NODELIST_HET_GROUP_1=s1",
		"SLURM_NTASKS_HET_GROUP_0=4", NULL});
	unsetenv("SLURM_NTASKS_HET_GROUP_1");
	j = job_record();
	assert_string_equal(str_at(j, "partition"), "compute,storage");
	assert_int_equal(json_integer_value(json_object_get(j, "het_size")), 2);
	c = json_object_get(j, "het_components");
	assert_int_equal(json_array_size(c), 2);
	assert_string_equal(json_string_value(json_object_get(
				    json_array_get(c, 0), "nodelist")),
			    "c[1-2]");
	assert_string_equal(json_string_value(json_object_get(
				    json_array_get(c, 1), "job_id")),
			    "2");
	assert_null(json_object_get(json_array_get(c, 1), "ntasks"));
	json_decref(j);
	/* not a het step's count: no components, the variable as it is */
	setenv("SLURM_HET_SIZE", "2x", 1);
	j = job_record();
	assert_string_equal(str_at(j, "partition"), "storage");
	assert_null(json_object_get(j, "het_components"));
	json_decref(j);
	unsetenv("SLURM_HET_SIZE");
}

/* No conf given or found: no Ceph facts at all (skipped on a host with
 * /etc/ceph/ceph.conf, which comes first). */
static void test_ceph_no_conf(void **state)
{
	char dir[] = "/tmp/test_hwinfo_ceph.XXXXXX", cwd[PATH_MAX];
	const char *home = getenv("HOME");
	char *saved = home ? strdup(home) : NULL;

	(void)state;
	if (access("/etc/ceph/ceph.conf", F_OK) == 0) {
		free(saved);
		skip();
	}
	assert_non_null(mkdtemp(dir));
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(dir), 0);
	setenv("HOME", dir, 1);
	unsetenv("CEPH_CONF");
	assert_null(ios_hw_ceph_json(NULL, "/tmp"));
	assert_int_equal(chdir(cwd), 0);
	if (saved)
		setenv("HOME", saved, 1);
	free(saved);
	assert_int_equal(rmdir(dir), 0);
}

/* The facts of [o]: "unknown" everywhere, the client asked for, and an
 * error containing [want] (when the library loads). */
static void check_unknown(const struct ios_ceph_opts *o, const char *want)
{
	char *s = ios_hw_ceph_json(o, "/tmp");
	json_t *j;
	const char *e;

	assert_non_null(s);
	j = json_loads(s, 0, NULL);
	assert_non_null(j);
	print_message("%s\n", s);
	assert_string_equal(str_at(j, "conf"), o->conf);
	assert_string_equal(str_at(j, "client"), "client.nobody");
	assert_string_equal(str_at(j, "fsid"), "unknown");
	assert_string_equal(str_at(j, "version"), "unknown");
	assert_string_equal(str_at(j, "osds.up"), "unknown");
	assert_int_equal(json_array_size(json_object_get(j, "pools")), 0);
	/* the cluster-side facts: unknown, each with its reason */
	for (size_t k = 0; k < 5; k++) {
		static const char *const keys[] = {"health", "osd_flags",
						   "osd_tree", "osd_metadata",
						   "config"};

		assert_string_equal(str_at(j, keys[k]), "unknown");
		assert_non_null(json_string_value(json_object_get(
			json_object_get(j, "why_unknown"), keys[k])));
	}
	e = str_at(j, "error");
	assert_non_null(strstr(e, o->conf));
	if (!strstr(e, "cannot load the Ceph client library") &&
	    !strstr(e, "built without librados"))
		assert_non_null(strstr(e, want));
	json_decref(j);
	free(s);
}

/* A conf that cannot be used: "unknown" and why, for the client, conf
 * and keyring asked for, never silently another's. */
static void test_ceph_unreachable(void **state)
{
	char dir[] = "/tmp/test_hwinfo_ceph.XXXXXX", conf[PATH_MAX + 16];
	struct ios_ceph_opts o = {.conf = "/nonexistent/ceph.conf",
				  .id = "nobody"};
	struct timespec t0, t1;
	FILE *f;

	(void)state;
	check_unknown(
		&o,
		"read the config for client.nobody (conf '/nonexistent/ceph.conf'");

	/* a monitor nobody listens on: bounded by the caller's shorter
	 * timeout (1 s, not the probe's 5 s) */
	assert_non_null(mkdtemp(dir));
	snprintf(conf, sizeof(conf), "%s/ceph.conf", dir);
	f = fopen(conf, "w");
	assert_non_null(f);
	fputs("[global]\nmon host = 127.0.0.1:1\nauth client required = none\n",
	      f);
	assert_int_equal(fclose(f), 0);
	o.conf = conf;
	o.keyring = "/x/wrong.keyring";
	o.timeout = 1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	check_unknown(&o, "connect to the cluster as client.nobody (conf '");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_true(t1.tv_sec - t0.tv_sec < 5);
	/* no timeout given: the probe's, here from the environment */
	o.timeout = 0;
	setenv("IOSTRATA_CEPH_TIMEOUT", "2", 1);
	check_unknown(
		&o,
		"keyring '/x/wrong.keyring', timeout 2 s): Connection timed out (monitor unreachable?)");
	unsetenv("IOSTRATA_CEPH_TIMEOUT");
	assert_int_equal(unlink(conf), 0);
	assert_int_equal(rmdir(dir), 0);
}

#if defined(HAVE_RADOS) && defined(FAKE_RADOS_SO)
/* A config dump as the monitors give it: performance options, credentials
 * (a mgr module's key, RGW's keystone password, a vault token, secrets
 * under allow-listed prefixes and in any case), options of no interest. */
static const char config_dump[] =
	"["
	"{\"section\":\"osd\",\"name\":\"osd_memory_target\",\"value\":\"4294967296\",\"mask\":\"\"},"
	"{\"section\":\"osd\",\"name\":\"bluestore_cache_size_hdd\",\"value\":\"1073741824\",\"mask\":\"\"},"
	"{\"section\":\"osd\",\"name\":\"osd_op_num_shards\",\"value\":\"8\",\"mask\":\"\"},"
	"{\"section\":\"global\",\"name\":\"ms_type\",\"value\":\"async+posix\",\"mask\":\"\"},"
	"{\"section\":\"client\",\"name\":\"rbd_cache\",\"value\":\"false\",\"mask\":\"\"},"
	"{\"section\":\"mds\",\"name\":\"mds_cache_memory_limit\",\"value\":\"8589934592\",\"mask\":\"\"},"
	"{\"section\":\"osd\",\"name\":\"osd_scrub_begin_hour\",\"value\":\"1\",\"mask\":\"\"},"
	"{\"section\":\"mgr\",\"name\":\"mgr/dashboard/RGW_API_SECRET_KEY\",\"value\":\"s3cr3t-dash\",\"mask\":\"\"},"
	"{\"section\":\"mgr\",\"name\":\"mgr/dashboard/RGW_API_ACCESS_KEY\",\"value\":\"s3cr3t-access\",\"mask\":\"\"},"
	"{\"section\":\"client.rgw\",\"name\":\"rgw_keystone_admin_password\",\"value\":\"s3cr3t-keystone\",\"mask\":\"\"},"
	"{\"section\":\"client.rgw\",\"name\":\"rgw_crypt_vault_token_file\",\"value\":\"s3cr3t-vault\",\"mask\":\"\"},"
	"{\"section\":\"client\",\"name\":\"rbd_cache_Secret\",\"value\":\"s3cr3t-prefix\",\"mask\":\"\"},"
	"{\"section\":\"client\",\"name\":\"client_oc_PASSWD\",\"value\":\"s3cr3t-upper\",\"mask\":\"\"},"
	"{\"section\":\"osd\",\"name\":\"osd_recovery_credential\",\"value\":\"s3cr3t-cred\",\"mask\":\"\"},"
	"{\"section\":\"mgr\",\"name\":\"mgr/prometheus/server_addr\",\"value\":\"10.0.0.1\",\"mask\":\"\"},"
	"{\"section\":\"global\",\"name\":\"log_file\",\"value\":\"/var/log/x\",\"mask\":\"\"}"
	"]";

/* The Ceph facts of a fake cluster answering [dump] (in a child: the
 * fake librados must be the first one this process loads). */
static char *ceph_facts_with(const char *dump)
{
	char dir[] = "/tmp/test_hwinfo_ceph.XXXXXX", conf[PATH_MAX + 16];
	char buf[1 << 16];
	size_t got = 0;
	int p[2], st;
	pid_t pid;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(conf, sizeof(conf), "%s/ceph.conf", dir);
	f = fopen(conf, "w");
	assert_non_null(f);
	fputs("[global]\nmon host = 127.0.0.1:1\n", f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct ios_ceph_opts o = {.conf = conf, .id = "admin"};
		char *s;

		close(p[0]);
		setenv("IOSTRATA_LIBRADOS", FAKE_RADOS_SO, 1);
		setenv("FAKE_RADOS_CONFIG_DUMP", dump, 1);
		s = ios_hw_ceph_json(&o, "/tmp");
		if (!s || write(p[1], s, strlen(s)) != (ssize_t)strlen(s))
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	for (ssize_t k; (k = read(p[0], buf + got, sizeof(buf) - 1 - got)) > 0;)
		got += (size_t)k;
	close(p[0]);
	buf[got] = '\0';
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_int_equal(unlink(conf), 0);
	assert_int_equal(rmdir(dir), 0);
	return strdup(buf);
}

/* The monitors' config database holds credentials; the results file (0644)
 * keeps only the allow-listed performance options, never a value named
 * like a credential, and says how many entries it left out. */
static void test_ceph_config_secrets(void **state)
{
	static const char *const kept[] = {
		"osd_memory_target",
		"bluestore_cache_size_hdd",
		"osd_op_num_shards",
		"ms_type",
		"rbd_cache",
		"mds_cache_memory_limit",
		"osd_scrub_begin_hour",
	};
	char *s = ceph_facts_with(config_dump);
	json_t *j = json_loads(s, 0, NULL), *cfg, *e;
	size_t i;

	(void)state;
	assert_non_null(j);
	assert_null(strstr(s, "s3cr3t"));
	assert_null(strstr(s, "SECRET_KEY"));
	assert_null(strstr(s, "keystone"));
	cfg = json_object_get(j, "config");
	assert_true(json_is_array(cfg));
	assert_int_equal(json_array_size(cfg), sizeof(kept) / sizeof(*kept));
	json_array_foreach(cfg, i, e)
	{
		assert_string_equal(
			json_string_value(json_object_get(e, "name")), kept[i]);
		assert_non_null(json_object_get(e, "value"));
		assert_non_null(json_object_get(e, "section"));
	}
	assert_string_equal(str_at(j, "config.0.value"), "4294967296");
	assert_int_equal(
		json_integer_value(json_object_get(j, "config_omitted")), 9);
	json_decref(j);
	free(s);

	/* the rule itself: deny beats allow, any case */
	assert_true(ios_hw_ceph_config_kept("osd_memory_target"));
	assert_true(ios_hw_ceph_config_kept("objecter_inflight_op_bytes"));
	assert_false(ios_hw_ceph_config_kept("rbd_cache_token"));
	assert_false(ios_hw_ceph_config_kept("bluestore_cache_KEY"));
	assert_false(ios_hw_ceph_config_kept("osd_recovery_Passwd"));
	assert_false(ios_hw_ceph_config_kept("rgw_keystone_admin_password"));
	assert_false(ios_hw_ceph_config_kept("mon_host"));
	assert_false(ios_hw_ceph_config_kept(""));
	assert_false(ios_hw_ceph_config_kept(NULL));
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
#if defined(HAVE_RADOS) && defined(FAKE_RADOS_SO)
		/* first: its child loads the fake librados, and a child of
		 * this process after test_ceph_unreachable would inherit the
		 * real one */
		cmocka_unit_test(test_ceph_config_secrets),
#endif
		cmocka_unit_test_setup_teardown(test_node_fake_root, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_node_fs_client, setup,
						teardown),
		cmocka_unit_test(test_node_empty_root),
		cmocka_unit_test(test_count_list),
		cmocka_unit_test(test_job_env),
		cmocka_unit_test(test_job_env_het),
		cmocka_unit_test(test_ceph_no_conf),
		cmocka_unit_test(test_ceph_unreachable),
	};

	return cmocka_run_group_tests_name("hwinfo", tests, NULL, NULL);
}
