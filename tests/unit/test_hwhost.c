/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_hwhost: the host record's collectors (facts/hwinfo_host.c,
 * hwinfo_dev.c) on a fake sysroot: cpufreq, microcode, DMI and the SMBIOS
 * DIMM table, block device identity, InfiniBand ports, slurm.conf keys,
 * role and shape; each with the files missing, unreadable and garbage,
 * where the record must say "unknown" and why.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "fake_root.h"
#include "hwinfo.h"
#include "hwinfo_internal.h"

static int setup(void **state)
{
	*state = fake_root_new();
	return 0;
}

static int teardown(void **state)
{
	fake_root_free(*state);
	return 0;
}

/* o[key] as text ("(missing)", or the integer printed). */
static const char *get(json_t *o, const char *key)
{
	static char num[64];
	json_t *v = json_object_get(o, key);

	if (!v)
		return "(missing)";
	if (json_is_string(v))
		return json_string_value(v);
	snprintf(num, sizeof(num), "%lld", (long long)json_integer_value(v));
	return num;
}

/* o[key] is "unknown" and its reason contains [want]. */
static void assert_unknown(json_t *o, const char *key, const char *want)
{
	const char *why = json_string_value(
		json_object_get(json_object_get(o, "why_unknown"), key));

	if (strcmp(get(o, key), "unknown") || !why || !strstr(why, want))
		fail_msg("%s: want unknown because of \"%s\", got \"%s\" (%s)",
			 key, want, get(o, key), why ? why : "no reason");
}

static void test_cpufreq(void **state)
{
	struct fake_root *r = *state;
	json_t *o;

	fake_write(r, "sys/devices/system/cpu/cpu0/cpufreq/scaling_driver",
		   "intel_pstate\n");
	fake_write(r, "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
		   "performance\n");
	fake_write(r, "sys/devices/system/cpu/cpu1/cpufreq/scaling_governor",
		   "powersave\n");
	fake_write(r, "sys/devices/system/cpu/cpu10/cpufreq/scaling_governor",
		   "performance\n");
	fake_write(r, "sys/devices/system/cpu/cpu0/cpufreq/base_frequency",
		   "2100000\n");
	fake_write(r, "sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq",
		   "3900000\n");
	/* garbage: not a count */
	fake_write(r, "sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_min_freq",
		   "fast\n");
	o = ios_hw_cpufreq(r->dir);
	assert_string_equal(get(o, "driver"), "intel_pstate");
	assert_string_equal(get(o, "governor"), "performance,powersave");
	assert_string_equal(get(o, "base_khz"), "2100000");
	assert_string_equal(get(o, "max_khz"), "3900000");
	assert_unknown(o, "min_khz", "\"fast\" is not a count");
	json_decref(o);
}

static void test_cpufreq_missing(void **state)
{
	struct fake_root *r = *state;
	json_t *o;

	fake_write(r, "sys/devices/system/cpu/online", "0\n");
	o = ios_hw_cpufreq(r->dir);
	assert_unknown(o, "governor", "no cpufreq driver");
	assert_unknown(o, "max_khz", "no cpufreq driver");
	assert_unknown(o, "base_khz", "no cpufreq driver");
	json_decref(o);
	/* cpufreq there, files unreadable (a directory where a file is) */
	fake_mkdir(r, "sys/devices/system/cpu/cpu0/cpufreq/scaling_driver");
	o = ios_hw_cpufreq(r->dir);
	assert_unknown(o, "driver", "Is a directory");
	assert_unknown(o, "governor", "none readable");
	assert_unknown(o, "base_khz", "No such file");
	json_decref(o);
}

static void test_microcode(void **state)
{
	struct fake_root *r = *state;
	json_t *o = json_object();

	ios_hw_microcode(o, r->dir);
	assert_unknown(o, "microcode", "/proc/cpuinfo: No such file");
	fake_write(r, "proc/cpuinfo",
		   "processor\t: 0\nmodel name\t: X\nmicrocode_x\t: 7\n");
	ios_hw_microcode(o, r->dir);
	assert_unknown(o, "microcode", "no microcode line");
	fake_write(
		r, "proc/cpuinfo",
		"processor\t: 0\nmodel name\t: X\nmicrocode\t: 0x2b000590\n\nprocessor\t: 1\nmicrocode\t: 0x2b000590\n");
	ios_hw_microcode(o, r->dir);
	assert_string_equal(get(o, "microcode"), "0x2b000590");
	json_decref(o);
}

/* An SMBIOS type 17 structure: 0x28 bytes formatted, then strings. */
static size_t dimm(uint8_t *p, uint16_t size_mib, uint16_t speed,
		   const char *strs, size_t strs_len)
{
	memset(p, 0, 0x28);
	p[0] = 17;
	p[1] = 0x28;
	p[0x0c] = (uint8_t)(size_mib & 0xff);
	p[0x0d] = (uint8_t)(size_mib >> 8);
	p[0x10] = 1; /* locator: string 1 */
	p[0x15] = (uint8_t)(speed & 0xff);
	p[0x16] = (uint8_t)(speed >> 8);
	p[0x17] = 2; /* manufacturer */
	p[0x1a] = 3; /* part number */
	memcpy(p + 0x28, strs, strs_len);
	return 0x28 + strs_len;
}

static void test_dimms(void **state)
{
	static const char s1[] = "DIMM_A1\0Samsung\0M321R8GA0BB0-CQK \0";
	static const char s0[] = "DIMM_A2\0NO DIMM\0NO DIMM\0";
	struct fake_root *r = *state;
	uint8_t t[512];
	size_t n = 0;
	json_t *o, *d;
	FILE *f;

	/* a type 0 (BIOS) entry first, then a DIMM, an empty slot, the end */
	memset(t, 0, sizeof(t));
	t[0] = 0;
	t[1] = 4;
	n = 4 + 2;
	n += dimm(t + n, 16384, 4800, s1, sizeof(s1)); /* 16 GiB */
	n += dimm(t + n, 0, 0, s0, sizeof(s0));        /* an empty slot */
	t[n] = 127;
	t[n + 1] = 4;
	n += 4 + 2;
	d = json_array();
	assert_int_equal(ios_hw_dimms_parse(t, n, d), 0);
	assert_int_equal(json_array_size(d), 1);
	o = json_array_get(d, 0);
	assert_string_equal(get(o, "locator"), "DIMM_A1");
	assert_string_equal(get(o, "size_bytes"), "17179869184");
	assert_string_equal(get(o, "speed_mts"), "4800");
	assert_string_equal(get(o, "manufacturer"), "Samsung");
	assert_string_equal(get(o, "part_number"), "M321R8GA0BB0-CQK");
	json_decref(d);
	/* truncated: the DIMM's strings run past the end */
	d = json_array();
	assert_int_equal(ios_hw_dimms_parse(t, 6 + 0x28 + 4, d), -EBADMSG);
	/* a zero-length header: garbage */
	memset(t, 0xff, 16);
	t[1] = 0;
	assert_int_equal(ios_hw_dimms_parse(t, 16, d), -EBADMSG);
	json_decref(d);

	/* through ios_hw_dmi: missing table, garbage table */
	fake_write(r, "sys/class/dmi/id/sys_vendor", "Dell Inc.\n");
	fake_write(r, "sys/class/dmi/id/product_name", "PowerEdge R760\n");
	fake_write(r, "sys/class/dmi/id/bios_version", "\x01\x02garbage\n");
	o = ios_hw_dmi(r->dir);
	assert_string_equal(get(o, "sys_vendor"), "Dell Inc.");
	assert_string_equal(get(o, "product_name"), "PowerEdge R760");
	assert_unknown(o, "bios_version", "not text");
	assert_unknown(o, "board_name", "No such file");
	assert_unknown(o, "dimms", "sys/firmware/dmi/tables/DMI: No such file");
	json_decref(o);
	fake_write(r, "sys/firmware/dmi/tables/DMI", "garbage, not SMBIOS");
	o = ios_hw_dmi(r->dir);
	assert_unknown(o, "dimms", "not an SMBIOS table");
	json_decref(o);
	/* a table with only a type 0 entry (a VM) */
	memset(t, 0, 6);
	t[1] = 4;
	f = fopen(fake_path(r, "sys/firmware/dmi/tables/DMI"), "w");
	assert_non_null(f);
	assert_int_equal(fwrite(t, 1, 6, f), 6);
	assert_int_equal(fclose(f), 0);
	o = ios_hw_dmi(r->dir);
	assert_unknown(o, "dimms", "no memory device (type 17)");
	json_decref(o);
	/* unreadable: only meaningful when not root */
	if (geteuid() != 0) {
		assert_int_equal(
			chmod(fake_path(r, "sys/firmware/dmi/tables/DMI"), 0),
			0);
		o = ios_hw_dmi(r->dir);
		assert_unknown(o, "dimms", "readable by root only");
		json_decref(o);
	}
}

static void test_block_identity(void **state)
{
	struct fake_root *r = *state;
	json_t *a, *o;

	fake_write(r, "sys/block/sda/device/model", "WUH722222AL5200\n");
	fake_write(r, "sys/block/sda/device/vendor", "WDC     \n");
	fake_write(r, "sys/block/sda/device/rev", "W232\n");
	fake_write(r, "sys/block/sda/device/queue_depth", "32\n");
	fake_write(r, "sys/block/sda/queue/scheduler", "none [mq-deadline]\n");
	fake_write(r, "sys/block/sda/queue/nr_requests", "-5\n");
	fake_write(r, "sys/block/nvme0n1/device/model", "SAMSUNG MZQL2\n");
	fake_write(r, "sys/block/nvme0n1/device/serial", "S64GNE0R\n");
	fake_write(r, "sys/block/nvme0n1/device/firmware_rev", "GDC5302Q\n");
	fake_write(r, "sys/block/nvme0n1/size", "2048\n");
	fake_write(r, "sys/block/nvme0n1/queue/scheduler", "[none]\n");
	fake_write(r, "sys/block/nvme0n1/queue/nr_requests", "1023\n");
	a = ios_hw_block_devices(r->dir);
	assert_int_equal(json_array_size(a), 2);
	o = json_array_get(a, 0); /* nvme0n1 sorts first */
	assert_string_equal(get(o, "name"), "nvme0n1");
	assert_string_equal(get(o, "serial"), "S64GNE0R");
	assert_string_equal(get(o, "firmware"), "GDC5302Q");
	assert_string_equal(get(o, "size_bytes"), "1048576");
	assert_string_equal(get(o, "scheduler"), "none");
	assert_string_equal(get(o, "nr_requests"), "1023");
	assert_unknown(o, "vendor", "device/vendor: No such file");
	assert_unknown(o, "queue_depth", "device/queue_depth: No such file");
	o = json_array_get(a, 1);
	assert_string_equal(get(o, "vendor"), "WDC");
	assert_string_equal(get(o, "firmware"), "W232");
	assert_string_equal(get(o, "queue_depth"), "32");
	assert_string_equal(get(o, "scheduler"), "mq-deadline");
	assert_unknown(o, "serial", "device/serial: No such file");
	assert_unknown(o, "nr_requests", "\"-5\" is not a count");
	assert_unknown(o, "rotational", "No such file");
	json_decref(a);
}

static void test_nics_ib(void **state)
{
	struct fake_root *r = *state;
	json_t *a, *o;

	fake_write(r, "sys/class/net/ib0/speed", "100000\n");
	fake_write(r, "sys/class/net/ib0/mtu", "4092\n");
	fake_write(r, "sys/class/net/eth0/speed", "-1\n");
	fake_write(r, "sys/class/net/eth0/operstate", "unknown\n");
	fake_write(r, "sys/class/infiniband/mlx5_0/ports/1/rate",
		   "100 Gb/sec (4X EDR)\n");
	fake_write(r, "sys/class/infiniband/mlx5_0/ports/1/state",
		   "4: ACTIVE\n");
	fake_write(r, "sys/class/infiniband/mlx5_0/ports/1/link_layer",
		   "InfiniBand\n");
	fake_write(r, "sys/class/infiniband/mlx5_0/ports/2/state", "1: DOWN\n");
	a = ios_hw_nics(r->dir);
	assert_int_equal(json_array_size(a), 2);
	o = json_array_get(a, 0);
	assert_string_equal(get(o, "name"), "eth0");
	assert_unknown(o, "speed_mbps", "\"-1\"");
	assert_unknown(o, "driver", "no device (virtual)");
	assert_unknown(o, "state", "the kernel reports \"unknown\"");
	assert_string_equal(get(json_array_get(a, 1), "speed_mbps"), "100000");
	json_decref(a);
	a = ios_hw_infiniband(r->dir);
	assert_int_equal(json_array_size(a), 2);
	o = json_array_get(a, 0);
	assert_string_equal(get(o, "device"), "mlx5_0");
	assert_string_equal(get(o, "port"), "1");
	assert_string_equal(get(o, "rate"), "100 Gb/sec (4X EDR)");
	assert_string_equal(get(o, "state"), "4: ACTIVE");
	assert_unknown(json_array_get(a, 1), "rate", "ports/2/rate: No such");
	json_decref(a);
	/* no InfiniBand at all: an empty list, not an error */
	fake_root_free(r);
	*state = r = fake_root_new();
	a = ios_hw_infiniband(r->dir);
	assert_int_equal(json_array_size(a), 0);
	json_decref(a);
}

static void test_slurm_conf(void **state)
{
	struct fake_root *r = *state;
	char conf[PATH_MAX];
	json_t *o, *cg;

	/* SLURM_CONF names a path on the host: under the fake root here */
	setenv("SLURM_CONF", "/etc/slurm/slurm.conf", 1);
	o = ios_hw_slurm(r->dir);
	assert_unknown(o, "SelectType", "/etc/slurm/slurm.conf: No such file");
	assert_unknown(json_object_get(o, "cgroup"), "ConstrainCores",
		       "/etc/slurm/cgroup.conf: No such file");
#if defined(HAVE_SLURM) || defined(HAVE_LIBSLURM)
	assert_string_not_equal(get(o, "version_built"), "unknown");
#else
	assert_unknown(o, "version_built", "without the Slurm headers");
#endif
	json_decref(o);
	fake_write(r, "etc/slurm/slurm.conf",
		   "# SelectType=select/linear\n"
		   "ClusterName=c\n"
		   "selecttype = select/cons_tres   # comment\n"
		   "SelectTypeParameters=CR_Core_Memory\n"
		   "TaskPlugin=task/affinity,task/cgroup\n"
		   "ProctrackType=proctrack/linuxproc\n"
		   "ProctrackType=proctrack/cgroup\n"
		   "PrologFlags=Contain,\x01X\n"
		   "garbage line without equals\n");
	fake_write(r, "etc/slurm/cgroup.conf",
		   "ConstrainCores=yes\nConstrainRAMSpace=no\n");
	o = ios_hw_slurm(r->dir);
	assert_string_equal(get(o, "SelectType"), "select/cons_tres");
	assert_string_equal(get(o, "SelectTypeParameters"), "CR_Core_Memory");
	assert_string_equal(get(o, "TaskPlugin"), "task/affinity,task/cgroup");
	/* the last setting wins, as in Slurm */
	assert_string_equal(get(o, "ProctrackType"), "proctrack/cgroup");
	/* a control character: not taken, so Slurm's default applies */
	assert_string_equal(get(o, "PrologFlags"), "unset (default)");
	cg = json_object_get(o, "cgroup");
	assert_string_equal(get(cg, "ConstrainCores"), "yes");
	assert_string_equal(get(cg, "ConstrainRAMSpace"), "no");
	assert_string_equal(get(cg, "ConstrainDevices"), "unset (default)");
	json_decref(o);
	snprintf(conf, sizeof(conf), "%s", "/etc/slurm/slurm.conf");
	unsetenv("SLURM_CONF");
	o = ios_hw_slurm(r->dir); /* the default path */
	assert_string_equal(get(o, "conf"), conf);
	json_decref(o);
}

/* A fake scontrol: calls logged in scontrol-calls; "hang" makes it wait,
 * "down" fail as with slurmctld unreachable; ctld-version and
 * node-version are what slurmctld and the node record say. */
static const char fake_scontrol[] =
	"#!/bin/sh\n"
	"d=$(dirname \"$0\")/..\n"
	"echo \"$*\" >>\"$d/scontrol-calls\"\n"
	"[ -e \"$d/hang\" ] && exec sleep 30\n"
	"if [ -e \"$d/down\" ]; then\n"
	"  echo 'slurm_load_ctl_conf error: Unable to contact slurm controller (connect failure)' >&2\n"
	"  exit 1\n"
	"fi\n"
	"case \"$*\" in\n"
	"'show config')\n"
	"  echo 'Configuration data as of 2026-12-01T10:00:00'\n"
	"  echo 'SLURM_CONF              = /etc/slurm/slurm.conf'\n"
	"  echo \"SLURM_VERSION           = $(cat \"$d/ctld-version\")\"\n"
	"  echo 'SlurmctldPort           = 6817' ;;\n"
	"'-o show node s1')\n"
	"  echo \"NodeName=s1 Arch=x86_64 CoresPerSocket=1 OS=Linux 6.1 Version=$(cat \"$d/node-version\") RealMemory=1000\" ;;\n"
	"*) echo \"Node ${4:-?} not found\" >&2; exit 1 ;;\n"
	"esac\n";

/* The number of lines in the fake's call log (fake_read drops the last
 * newline). */
static int ncalls(struct fake_root *r)
{
	const char *t = fake_read(r, "scontrol-calls");
	int n = t && *t;

	for (; t && *t; t++)
		n += *t == '\n';
	return n;
}

static void fresh_calls(struct fake_root *r)
{
	unlink(fake_path(r, "scontrol-calls"));
}

/* The running Slurm: slurmctld's and slurmd's versions through scontrol
 * (no shell), their sources, a mismatch noted; slurmctld down or hanging:
 * unknown and why, one bounded call, the node record not asked. */
static void test_slurm_running(void **state)
{
	struct fake_root *r = *state;
	char sc[PATH_MAX], v[32];
	json_t *o;

	fake_write(r, "bin/scontrol", fake_scontrol);
	chmod(fake_path(r, "bin/scontrol"), 0755);
	snprintf(sc, sizeof(sc), "%s", fake_path(r, "bin/scontrol"));
	fake_write(r, "ctld-version", "22.05.8\n");
	fake_write(r, "node-version", "22.05.8\n");

	o = json_pack("{ss}", "version_built", "22.05.8");
	ios_hw_slurm_running(o, sc, "s1", 5000);
	assert_string_equal(get(o, "version_slurmctld"), "22.05.8");
	assert_string_equal(get(o, "version_slurmd"), "22.05.8");
	assert_non_null(
		strstr(get(o, "version_slurmctld_source"), "show config"));
	assert_non_null(
		strstr(get(o, "version_slurmd_source"), "show node s1"));
	assert_non_null(
		strstr(get(o, "version_built_source"), "slurm_version.h"));
	assert_string_equal(get(o, "version_mismatch"), "no");
	assert_int_equal(ncalls(r), 2);
	json_decref(o);

	/* slurmctld upgraded, this slurmd not yet: noted, not fatal */
	fake_write(r, "ctld-version", "23.02.6\n");
	o = json_pack("{ss}", "version_built", "22.05.8");
	ios_hw_slurm_running(o, sc, "s1", 5000);
	assert_string_equal(get(o, "version_mismatch"),
			    "built 22.05.8, slurmctld 23.02.6, slurmd 22.05.8");
	json_decref(o);

	/* a node slurmctld does not know; no node name; a garbage answer */
	o = json_pack("{ss}", "version_built", "unknown");
	ios_hw_slurm_running(o, sc, "x9", 5000);
	assert_unknown(o, "version_slurmd", "Node x9 not found");
	assert_string_equal(get(o, "version_slurmctld"), "23.02.6");
	assert_unknown(o, "version_mismatch", "fewer than two");
	json_decref(o);
	fresh_calls(r);
	o = json_object();
	ios_hw_slurm_running(o, sc, "-s1", 5000);
	assert_unknown(o, "version_slurmd", "no Slurm node name");
	assert_int_equal(ncalls(r), 1);
	json_decref(o);
	fake_write(r, "ctld-version", "22.05;rm -rf /\n");
	o = json_object();
	ios_hw_slurm_running(o, sc, NULL, 5000);
	assert_unknown(o, "version_slurmctld", "no SLURM_VERSION");
	json_decref(o);

	/* slurmctld down: its error quoted, the node record still asked */
	fake_write(r, "down", "");
	o = json_object();
	ios_hw_slurm_running(o, sc, "s1", 5000);
	assert_unknown(o, "version_slurmctld",
		       "Unable to contact slurm controller");
	assert_unknown(o, "version_slurmd", "exit 1");
	json_decref(o);
	unlink(fake_path(r, "down"));

	/* hanging: killed after the timeout, once, the node not asked */
	fresh_calls(r);
	fake_write(r, "hang", "");
	o = json_object();
	ios_hw_slurm_running(o, sc, "s1", 300);
	assert_unknown(o, "version_slurmctld", "no answer within 300 ms");
	assert_unknown(o, "version_slurmd", "not asked");
	assert_int_equal(ncalls(r), 1);
	json_decref(o);
	unlink(fake_path(r, "hang"));

	/* no scontrol at all */
	o = json_object();
	ios_hw_slurm_running(o, fake_path(r, "bin/none"), "s1", 5000);
	assert_unknown(o, "version_slurmctld", "No such file");
	assert_unknown(o, "version_slurmd", "not asked");
	json_decref(o);

	/* the parsers on their own */
	assert_int_equal(
		ios_hw_slurm_conf_version("SLURM_VERSIONX = 1\n", v, sizeof(v)),
		-ENOENT);
	assert_int_equal(
		ios_hw_slurm_node_version("OSVersion=1 Version=23.11.0-0rc1", v,
					  sizeof(v)),
		0);
	assert_string_equal(v, "23.11.0-0rc1");
	assert_int_equal(ios_hw_slurm_node_version("NodeName=a", v, sizeof(v)),
			 -ENOENT);
}

/* mpi_transport: the transport variables of the environment (others
 * not), the MPI_T control variables read (a missing one unknown and
 * why), MPI_T not usable, outside MPI; selected always unknown and why. */
static void test_mpi_transport(void **state)
{
	char *envp[] = {
		"OMPI_MCA_pml=ucx", "OMPI_MCA_btl=self,vader",
		"OMPI_MCA_btl_base_verbose=100", "UCX_TLS=rc,sm",
		"UCX_NET_DEVICES=mlx5_0:1",
		/* a transport prefix, a credential's name: never */
		"UCX_RDMA_CM_TOKEN=s3cr3t-token", "UCX_Secret=s3cr3t-secret",
		"UCX_IB_PASSWORD=s3cr3t-password",
		"OMPI_MCA_pml_ucx_api_key=s3cr3t-key",
		"AWS_SECRET_ACCESS_KEY=s3cr3t-aws", "PATH=/bin", "UCX", NULL};
	const struct ios_hw_mpi_cvar cv[] = {
		{"pml", "ucx", NULL},
		{"btl", "", NULL},
		{"mtl", NULL, "this MPI has no control variable \"mtl\""},
	};
	struct ios_hw_host_opts opts = {.mpi_library = "Open MPI v4.1.4",
					.mpi_cvars = cv,
					.n_mpi_cvars = 3};
	json_t *h = json_object(), *t, *env, *cvars;

	(void)state;
	ios_hw_mpi_transport(h, envp, &opts);
	t = json_object_get(h, "mpi_transport");
	assert_true(json_is_object(t));
	env = json_object_get(json_object_get(t, "requested"), "env");
	assert_int_equal(json_object_size(env), 4);
	{
		char *s = json_dumps(h, 0);

		assert_null(strstr(s, "s3cr3t"));
		free(s);
	}
	assert_string_equal(get(env, "OMPI_MCA_pml"), "ucx");
	assert_string_equal(get(env, "OMPI_MCA_btl"), "self,vader");
	assert_string_equal(get(env, "UCX_TLS"), "rc,sm");
	assert_string_equal(get(env, "UCX_NET_DEVICES"), "mlx5_0:1");
	cvars = json_object_get(json_object_get(t, "requested"), "cvars");
	assert_string_equal(get(cvars, "pml"), "ucx");
	assert_string_equal(get(cvars, "btl"), "");
	assert_unknown(cvars, "mtl", "no control variable \"mtl\"");
	assert_unknown(t, "selected", "not known reliably");
	json_decref(h);

	/* MPI_T not usable: the environment still recorded */
	opts.mpi_cvars = NULL;
	opts.mpi_t_why = "MPI_T_init_thread: error 3";
	h = json_object();
	ios_hw_mpi_transport(h, envp, &opts);
	t = json_object_get(h, "mpi_transport");
	assert_unknown(json_object_get(t, "requested"), "cvars",
		       "MPI_T_init_thread: error 3");
	json_decref(h);

	/* outside MPI (iostrata-facts) */
	opts.mpi_library = NULL;
	h = json_object();
	ios_hw_mpi_transport(h, envp, &opts);
	assert_unknown(h, "mpi_transport", "outside an MPI process");
	json_decref(h);
}

static void test_role_shape(void **state)
{
	struct fake_root *r = *state;
	struct ios_hw_host_opts opts = {0};
	json_t *o = json_object();
	char *s;

	unsetenv("IOSTRATA_APPLIED_FILE");
	unsetenv("IOSTRATA_ROLE");
	ios_hw_role(o, NULL, NULL);
	assert_string_equal(get(o, "role"), "unknown");
	assert_non_null(strstr(get(o, "role_source"), "no IOSTRATA_ROLE"));
	setenv("IOSTRATA_ROLE", "oracle", 1);
	ios_hw_role(o, NULL, NULL);
	assert_string_equal(get(o, "role"), "unknown");
	assert_non_null(strstr(get(o, "role_source"), "\"oracle\""));
	setenv("IOSTRATA_ROLE", "client", 1);
	ios_hw_role(o, NULL, NULL);
	assert_string_equal(get(o, "role"), "client");
	unsetenv("IOSTRATA_ROLE");
	ios_hw_shape(o, NULL);
	assert_unknown(o, "shape", "IOSTRATA_APPLIED_FILE unset");
	fake_write(r, "run/iostrata/7.applied.json", "{\"requested\":");
	setenv("IOSTRATA_APPLIED_FILE",
	       fake_path(r, "run/iostrata/7.applied.json"), 1);
	ios_hw_role(o, NULL, NULL);
	assert_string_equal(get(o, "role"), "storage");
	ios_hw_shape(o, NULL);
	assert_unknown(o, "shape", "7.applied.json");
	json_decref(o);
	fake_write(r, "run/iostrata/7.applied.json",
		   "{\"requested\":{\"cpus\":2},\"applied\":{\"cpus\":2}}");
	/* the whole record: role from the caller wins over the environment */
	opts.role = "client";
	opts.role_source = "test";
	opts.mpi_library = "Open MPI v4.1.4";
	/* scontrol: a program that is not there (no wait, no real Slurm) */
	setenv("IOSTRATA_SCONTROL", fake_path(r, "bin/no-scontrol"), 1);
	s = ios_hw_host_json(r->dir, &opts);
	assert_non_null(s);
	o = json_loads(s, 0, NULL);
	free(s);
	assert_non_null(o);
	assert_string_equal(get(o, "role"), "client");
	assert_string_equal(get(o, "role_source"), "test");
	assert_string_equal(get(o, "mpi_library"), "Open MPI v4.1.4");
	assert_string_equal(
		get(json_object_get(json_object_get(o, "shape"), "applied"),
		    "cpus"),
		"2");
	assert_non_null(
		json_object_get(json_object_get(o, "cpu"), "frequency"));
	assert_non_null(json_object_get(o, "system"));
	assert_unknown(json_object_get(o, "slurm"), "version_slurmctld",
		       "no-scontrol");
	unsetenv("IOSTRATA_SCONTROL");
	assert_true(json_is_array(json_object_get(o, "infiniband")));
	json_decref(o);
	unsetenv("IOSTRATA_APPLIED_FILE");
}

/* One record per host: the nodes' own, then other hosts'; a host in both
 * keeps its record and learns the role and shape; garbage is left out. */
static void test_hosts_merge(void **state)
{
	char *nodes[] = {
		"{\"hostname\":\"s1\",\"slurm_node\":\"s1\",\"role\":\"unknown\",\"role_source\":\"none\",\"shape\":\"unknown\",\"why_unknown\":{\"shape\":\"x\"}}",
		"{\"hostname\":\"c1\",\"slurm_node\":\"c1\",\"role\":\"client\",\"role_source\":\"IOSTRATA_ROLE\"}",
		NULL,
	};
	char *extra[] = {
		"{\"hostname\":\"s1\",\"slurm_node\":\"s1\",\"role\":\"storage\",\"role_source\":\"iostrata-facts --role\",\"shape\":{\"applied\":{\"cpus\":1}}}",
		"{\"hostname\":\"s2\",\"slurm_node\":\"s2\",\"role\":\"storage\",\"role_source\":\"iostrata-facts --role\"}",
		"{\"truncated\":",
		"{\"hostname\":\"unknown\",\"role\":\"storage\"}",
	};
	const char *names[] = {"f-s1", "f-s2", "f-bad", "f-noname"};
	char **out = NULL, msg[256];
	json_t *j;
	int n;

	(void)state;
	n = ios_hw_hosts_merge(nodes, 3, extra, names, 4, &out, msg,
			       sizeof(msg));
	assert_int_equal(n, 4); /* s1, c1, the lost node, s2 */
	assert_non_null(strstr(msg, "\"f-bad\""));
	j = json_loads(out[0], 0, NULL);
	assert_string_equal(get(j, "role"), "storage");
	assert_non_null(strstr(get(j, "role_source"), "\"f-s1\""));
	assert_string_equal(
		get(json_object_get(json_object_get(j, "shape"), "applied"),
		    "cpus"),
		"1");
	assert_null(
		json_object_get(json_object_get(j, "why_unknown"), "shape"));
	json_decref(j);
	j = json_loads(out[1], 0, NULL);
	assert_string_equal(get(j, "role"), "client");
	json_decref(j);
	j = json_loads(out[2], 0, NULL);
	assert_string_equal(get(j, "role"), "unknown");
	assert_non_null(strstr(get(j, "role_source"), "did not reach rank 0"));
	json_decref(j);
	j = json_loads(out[3], 0, NULL);
	assert_string_equal(get(j, "hostname"), "s2");
	json_decref(j);
	for (int i = 0; i < n; i++)
		free(out[i]);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cpufreq, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cpufreq_missing, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_microcode, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_dimms, setup, teardown),
		cmocka_unit_test_setup_teardown(test_block_identity, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_nics_ib, setup, teardown),
		cmocka_unit_test_setup_teardown(test_slurm_running, setup,
						teardown),
		cmocka_unit_test(test_mpi_transport),
		cmocka_unit_test_setup_teardown(test_slurm_conf, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_role_shape, setup,
						teardown),
		cmocka_unit_test(test_hosts_merge),
	};

	return cmocka_run_group_tests_name("hwhost", tests, NULL, NULL);
}
