/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_node_omt: --iostrata-mem and the OSDs' osd_memory_target on the
 * fake node of node_fx.c, with a fake ceph CLI (a shell script keeping
 * the monitors' configuration database in files): the share set and
 * restored (an entry of its own removed or put back), the floor, the
 * restore after a crash (slurmd start), Ceph unreachable at the restore
 * (journal kept, the next restore finishes) and at the apply (refused,
 * nothing changed), a hanging CLI killed, the record with the policy off,
 * the status, and the policy's errors with file:line.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "fake_root.h"
#include "log.h"
#include "node.h"
#include "node_fx.h"

#define NS_HERE "net:[4026532001]"
#define NS_OTHER "net:[4026532002]"
#define FSID "8f7c2a54-1d2e-4b3c-9a8b-0123456789ab"
#define CEPHADM_SLICE                                                          \
	"system.slice/system-ceph\\x2d8f7c2a54\\x2d1d2e\\x2d4b3c\\x2d9a8b\\x2d0123456789ab.slice"
#define PAYLOAD(n)                                                             \
	CEPHADM_SLICE "/ceph-" FSID "@osd." #n ".service/libpod-payload-" #n
#define DEFAULT_OMT "4294967296"

/* The fake ceph: global options (--conf F, --connect-timeout S) skipped;
 * "down" makes it fail as an unreachable cluster does, "hang" makes it
 * wait; db/osd.N is osd.N's own entry, db/osd the osd section's. */
static const char fake_ceph[] =
	"#!/bin/sh\n"
	"d=$(dirname \"$0\")/..\n"
	"while [ \"${1#--}\" != \"$1\" ]; do shift 2; done\n"
	"echo \"$*\" >>\"$d/ceph-calls\"\n"
	"[ -e \"$d/ceph-hang\" ] && exec sleep 30\n"
	"if [ -e \"$d/ceph-down\" ]; then\n"
	"  echo '[errno 110] RADOS timed out (error connecting to the cluster)' >&2\n"
	"  exit 1\n"
	"fi\n"
	"case \"$1 $2\" in\n"
	"'config get')\n"
	"  if [ -f \"$d/db/$3\" ]; then cat \"$d/db/$3\"\n"
	"  elif [ -f \"$d/db/osd\" ]; then cat \"$d/db/osd\"\n"
	"  else echo " DEFAULT_OMT "; fi ;;\n"
	"'config set') mkdir -p \"$d/db\"; echo \"$5\" >\"$d/db/$3\" ;;\n"
	"'config rm') rm -f \"$d/db/$3\" ;;\n"
	"'config dump')\n"
	"  echo 'WHO    MASK  LEVEL     OPTION             VALUE  RO'\n"
	"  for f in \"$d\"/db/*; do [ -f \"$f\" ] || continue\n"
	"    echo \"${f##*/}        basic     osd_memory_target  $(cat \"$f\")\"\n"
	"  done ;;\n"
	"*) echo \"unknown command $*\" >&2; exit 22 ;;\n"
	"esac\n";

static void omt_policy(struct fx *f, const char *extra)
{
	char text[2048];

	snprintf(text, sizeof(text),
		 "allow_users = *\n"
		 "min_mem = 256M\n"
		 "mem_reserve = 128M\n"
		 "mem_tolerance = 0\n"
		 "mem_attempt_timeout = 200ms\n"
		 "mem_total_timeout = 5s\n"
		 "osds = auto\n"
		 "device = 254:0\n"
		 "ceph = %s\n"
		 "ceph_conf = /etc/ceph/test.conf\n"
		 "%s",
		 fake_path(f->r, "bin/ceph"), extra);
	use_policy(f, text);
}

static int setup_omt(void **state)
{
	struct fx *f;
	const char *const a0[] = {"/usr/bin/ceph-osd", "-n", "osd.0", NULL};
	const char *const a1[] = {"/usr/bin/ceph-osd", "-n", "osd.1", NULL};

	setup(state);
	f = *state;
	/* osd.0 on this host, osd.1 on another one */
	fake_proc_self(f->r, NS_HERE);
	fake_osd_proc(f->r, 200, "ceph-osd", a0, NS_HERE,
		      "7:blkio:/" PAYLOAD(0) "\n0::/\n");
	fake_osd_proc(f->r, 201, "ceph-osd", a1, NS_OTHER,
		      "7:blkio:/" PAYLOAD(1) "\n0::/\n");
	fake_write(f->r, "bin/ceph", fake_ceph);
	chmod(fake_path(f->r, "bin/ceph"), 0755);
	fake_mkdir(f->r, "db");
	omt_policy(f, "osd_memory_target = share\n");
	return 0;
}

static bool exists(struct fx *f, const char *rel)
{
	struct stat st;

	return stat(fake_path(f->r, rel), &st) == 0;
}

/* node_restore as the epilog calls it: without a policy (the journal
 * says how to run the ceph CLI). */
static int restore_as_epilog(struct fx *f, const char *id, struct ios_err *err)
{
	const struct policy *pol = f->c.pol;
	int rc;

	f->c.pol = NULL;
	rc = node_restore(&f->c, id, err);
	f->c.pol = pol;
	return rc;
}

static void req_mem(struct iostrata_req *r, const char *mem)
{
	memset(r, 0, sizeof(*r));
	assert_int_equal(req_parse_opt(r, REQ_MEM, mem, NULL), 0);
}

/* The share of the memory left (1 GiB, one OSD here) set; the journal
 * holds the old value; the restore removes the entry the apply made. */
static void test_omt_share(void **state)
{
	struct fx *f = *state;
	struct iostrata_req r;
	struct ios_err err;
	const char *j;

	req_mem(&r, "1G");
	if (node_apply(&f->c, "900", 0, &r, &err) != 0)
		fail_msg("apply: %s", err.msg);
	assert_string_equal(fake_read(f->r, "db/osd.0"), "1073741824");
	assert_false(exists(f, "db/osd.1")); /* another host's OSD */
	j = fake_read(f->r, "run/iostrata/journal/900.state");
	assert_non_null(strstr(j, "\nomt 0 0 " DEFAULT_OMT " 1073741824\n"));
	/* how to run the CLI, for a restore without the policy */
	assert_non_null(strstr(j, "\nceph /"));
	assert_non_null(strstr(j, "/bin/ceph /etc/ceph/test.conf 30000\n"));
	j = fake_read(f->r, "run/iostrata/900.applied.json");
	assert_non_null(strstr(j, "\"osd_memory_target\""));
	assert_non_null(strstr(j, "\"policy\": \"share\""));
	assert_non_null(strstr(j, "\"share_bytes\": 1073741824"));
	assert_non_null(strstr(j, "\"old\": " DEFAULT_OMT));
	assert_non_null(strstr(j, "\"exceeds_memory_left\": false"));
	/* the configuration file of the policy went to the CLI */
	assert_non_null(
		strstr(fake_read(f->r, "ceph-calls"),
		       "config set osd.0 osd_memory_target 1073741824"));
	assert_int_equal(restore_as_epilog(f, "900", &err), 0);
	assert_false(exists(f, "db/osd.0"));
	assert_false(journal_exists(f, "900"));
	assert_whole(f);
	/* osd.0 had an entry of its own: it comes back with its value */
	fake_write(f->r, "db/osd.0", "3221225472\n");
	assert_int_equal(node_apply(&f->c, "901", 0, &r, &err), 0);
	assert_string_equal(fake_read(f->r, "db/osd.0"), "1073741824");
	assert_non_null(
		strstr(fake_read(f->r, "run/iostrata/journal/901.state"),
		       "\nomt 0 1 3221225472 1073741824\n"));
	assert_int_equal(restore_as_epilog(f, "901", &err), 0);
	assert_string_equal(fake_read(f->r, "db/osd.0"), "3221225472");
	/* a second restore has nothing to do */
	assert_int_equal(node_restore(&f->c, "901", &err), 0);
}

/* Below osd_memory_target_min the share is the minimum. */
static void test_omt_floor(void **state)
{
	struct fx *f = *state;
	struct iostrata_req r;
	struct ios_err err;

	omt_policy(f, "osd_memory_target = share\n"
		      "osd_memory_target_min = 1536M\n");
	req_mem(&r, "1G");
	assert_int_equal(node_apply(&f->c, "902", 0, &r, &err), 0);
	assert_string_equal(fake_read(f->r, "db/osd.0"), "1610612736");
	assert_non_null(strstr(fake_read(f->r, "run/iostrata/902.applied.json"),
			       "\"exceeds_memory_left\": true"));
	assert_int_equal(node_restore(&f->c, "902", &err), 0);
	assert_false(exists(f, "db/osd.0"));
}

/* slurmd died during the job: its start restores the target too. */
static void test_omt_crash(void **state)
{
	struct fx *f = *state;
	struct iostrata_req r;
	struct ios_err err;

	fake_write(f->r, "db/osd.0", "2147483648\n");
	req_mem(&r, "1G");
	assert_int_equal(node_apply(&f->c, "903", 0, &r, &err), 0);
	assert_string_equal(fake_read(f->r, "db/osd.0"), "1073741824");
	ctl_answer = 0;  /* slurmctld: the job ended */
	f->c.pol = NULL; /* slurmd's start has no policy */
	assert_int_equal(node_restore_ended(&f->c, alive, &f->c.fs, &err), 0);
	f->c.pol = f->pol;
	assert_false(journal_exists(f, "903"));
	assert_string_equal(fake_read(f->r, "db/osd.0"), "2147483648");
	assert_whole(f);
}

/* Ceph unreachable at the restore: the kernel's state comes back, the
 * journal stays and says what is left; the next restore finishes. */
static void test_omt_unreachable_restore(void **state)
{
	struct fx *f = *state;
	struct iostrata_req r;
	struct ios_err err;
	char now[8192];

	req_mem(&r, "1G");
	assert_int_equal(node_apply(&f->c, "904", 0, &r, &err), 0);
	fake_write(f->r, "ceph-down", "");
	assert_int_equal(restore_as_epilog(f, "904", &err), -EIO);
	assert_non_null(strstr(
		err.msg, "osd.0 osd_memory_target not back to " DEFAULT_OMT));
	assert_non_null(strstr(err.msg, "error connecting to the cluster"));
	assert_non_null(strstr(err.msg, "journal kept"));
	assert_true(journal_exists(f, "904"));
	assert_string_equal(fake_read(f->r, "db/osd.0"), "1073741824");
	observe(f, now, sizeof(now));
	assert_string_equal(now, f->before); /* memory online again */
	assert_int_equal(node_check(&f->c, &err), -EBUSY);
	/* slurmd start, Ceph still down: kept; then back: restored */
	ctl_answer = 0;
	assert_int_equal(node_restore_ended(&f->c, alive, &f->c.fs, &err),
			 -EIO);
	assert_true(journal_exists(f, "904"));
	unlink(fake_path(f->r, "ceph-down"));
	assert_int_equal(node_restore(&f->c, NULL, &err), 0);
	assert_false(journal_exists(f, "904"));
	assert_false(exists(f, "db/osd.0"));
	assert_whole(f);
}

/* Ceph unreachable (or hanging) at the apply: refused, nothing changed. */
static void test_omt_unreachable_apply(void **state)
{
	struct fx *f = *state;
	struct iostrata_req r;
	struct ios_err err;
	char now[8192];

	req_mem(&r, "1G");
	fake_write(f->r, "ceph-down", "");
	assert_int_equal(node_apply(&f->c, "905", 0, &r, &err), -EIO);
	assert_non_null(strstr(err.msg, "read osd.0's target"));
	assert_non_null(strstr(err.msg, "nothing changed"));
	assert_false(journal_exists(f, "905"));
	observe(f, now, sizeof(now));
	assert_string_equal(now, f->before);
	unlink(fake_path(f->r, "ceph-down"));
	/* a CLI that never answers is killed after ceph_timeout */
	omt_policy(f, "osd_memory_target = share\nceph_timeout = 300ms\n");
	fake_write(f->r, "ceph-hang", "");
	assert_int_equal(node_apply(&f->c, "906", 0, &r, &err), -ETIMEDOUT);
	assert_non_null(strstr(err.msg, "no answer within 300 ms"));
	assert_false(journal_exists(f, "906"));
	unlink(fake_path(f->r, "ceph-hang"));
	assert_whole(f);
}

/* Policy off: nothing set; the file records that the targets exceed
 * the memory left. */
static void test_omt_off(void **state)
{
	struct fx *f = *state;
	struct iostrata_req r;
	struct ios_err err;
	const char *j;
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	omt_policy(f, "osd_memory_target = off\n");
	req_mem(&r, "1G");
	assert_int_equal(node_apply(&f->c, "907", 0, &r, &err), 0);
	j = fake_read(f->r, "run/iostrata/907.applied.json");
	assert_non_null(strstr(j, "\"policy\": \"off\""));
	assert_non_null(strstr(j, "\"memory_left\": 1073741824"));
	assert_non_null(strstr(j, "\"osd.0\": " DEFAULT_OMT));
	assert_non_null(strstr(j, "\"exceeds_memory_left\": true"));
	assert_null(strstr(fake_read(f->r, "ceph-calls"), "config set"));
	assert_null(strstr(fake_read(f->r, "run/iostrata/journal/907.state"),
			   "omt"));
	/* status shows the targets now */
	out = open_memstream(&buf, &len);
	assert_int_equal(node_status_json(&f->c, out), 0);
	fclose(out);
	assert_non_null(strstr(buf, "\"osd_memory_target\""));
	assert_non_null(strstr(buf, "\"osd.0\": " DEFAULT_OMT));
	free(buf);
	assert_int_equal(node_restore(&f->c, "907", &err), 0);
	/* Ceph unreachable with off: recorded as unknown, not refused */
	fake_write(f->r, "ceph-down", "");
	assert_int_equal(node_apply(&f->c, "908", 0, &r, &err), 0);
	j = fake_read(f->r, "run/iostrata/908.applied.json");
	assert_non_null(strstr(j, "\"targets\": \"unknown\""));
	assert_non_null(strstr(j, "error connecting to the cluster"));
	assert_int_equal(node_restore(&f->c, "908", &err), 0);
	unlink(fake_path(f->r, "ceph-down"));
	assert_whole(f);
}

/* The number of ceph calls so far (fake_read drops the last newline). */
static int ceph_calls(struct fx *f)
{
	const char *t = fake_read(f->r, "ceph-calls");
	int n = t && *t;

	for (; t && *t; t++)
		n += *t == '\n';
	return n;
}

/* Status with Ceph hanging and three OSDs here: one call (the probe,
 * killed after ceph_timeout), every OSD's line "Ceph unreachable" with
 * the reason; with Ceph back, each OSD asked. */
static void test_omt_status_unreachable(void **state)
{
	struct fx *f = *state;
	const char *const a2[] = {"/usr/bin/ceph-osd", "-n", "osd.2", NULL};
	const char *const a3[] = {"/usr/bin/ceph-osd", "-n", "osd.3", NULL};
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	fake_osd_proc(f->r, 202, "ceph-osd", a2, NS_HERE,
		      "7:blkio:/" PAYLOAD(2) "\n0::/\n");
	fake_osd_proc(f->r, 203, "ceph-osd", a3, NS_HERE,
		      "7:blkio:/" PAYLOAD(3) "\n0::/\n");
	omt_policy(f, "osd_memory_target = share\nceph_timeout = 300ms\n");
	unlink(fake_path(f->r, "ceph-calls"));
	fake_write(f->r, "ceph-hang", "");
	out = open_memstream(&buf, &len);
	assert_int_equal(node_status_json(&f->c, out), 0);
	fclose(out);
	unlink(fake_path(f->r, "ceph-hang"));
	assert_int_equal(ceph_calls(f), 1);
	for (int id = 0; id <= 3; id++) {
		char want[160];

		if (id == 1)
			continue; /* osd.1 runs on another host */
		snprintf(
			want, sizeof(want),
			"\"osd.%d\": \"Ceph unreachable: iostrata: ceph config get osd.0 osd_memory_target: no answer within 300 ms",
			id);
		if (!strstr(buf, want))
			fail_msg("no \"%s\" in %s", want, buf);
	}
	free(buf);

	/* Ceph back: every OSD of this host asked, its target shown */
	unlink(fake_path(f->r, "ceph-calls"));
	buf = NULL;
	out = open_memstream(&buf, &len);
	assert_int_equal(node_status_json(&f->c, out), 0);
	fclose(out);
	assert_int_equal(ceph_calls(f), 3);
	assert_non_null(strstr(buf, "\"osd.3\": " DEFAULT_OMT));
	assert_null(strstr(buf, "unreachable"));
	free(buf);
}

/* The policy's keys: bad values and share without OSDs, with file:line. */
static void test_omt_policy(void **state)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{"allow_users = *\nosd_memory_target = half\n",
		 ":2: osd_memory_target: invalid value \"half\" (accepted: share, off)"},
		{"allow_users = *\n\nosd_memory_target = share\n",
		 ":3: osd_memory_target = share needs the OSDs of this host"},
		{"osds = auto\nosd_memory_target_min = 512M\n",
		 ":2: osd_memory_target_min: \"512M\" below Ceph's minimum (accepted: 896M or more)"},
		{"osds = auto\nosd_memory_target = share\nosd_memory_target = off\n",
		 ":3: key \"osd_memory_target\" given twice (first at line 2)"},
		{"ceph = bin/ceph\n", ":1: ceph: invalid file \"bin/ceph\""},
		{"ceph_conf = /etc/ceph/$(reboot).conf\n",
		 ":1: ceph_conf: invalid file"},
		{"ceph_timeout = 0s\n", ":1: ceph_timeout: \"0s\" outside"},
	};
	struct fx *f = *state;
	struct policy *p = NULL;
	struct ios_err err;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		fake_write(f->r, "bad.conf", bad[i].text);
		chmod(fake_path(f->r, "bad.conf"), 0644);
		assert_int_not_equal(policy_load(fake_path(f->r, "bad.conf"),
						 geteuid(), &p, &err),
				     0);
		assert_null(p);
		if (!strstr(err.msg, bad[i].msg))
			fail_msg("case %zu: \"%s\" lacks \"%s\"", i, err.msg,
				 bad[i].msg);
	}
	fake_write(f->r, "good.conf",
		   "osds = auto\nosd_memory_target = share\n");
	chmod(fake_path(f->r, "good.conf"), 0644);
	assert_int_equal(
		policy_load(fake_path(f->r, "good.conf"), geteuid(), &p, &err),
		0);
	assert_true(p->omt_share);
	assert_int_equal(p->omt_min, 896ULL << 20);
	assert_int_equal(p->ceph.timeout_ms, 30000);
	policy_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_omt_share, setup_omt,
						teardown),
		cmocka_unit_test_setup_teardown(test_omt_floor, setup_omt,
						teardown),
		cmocka_unit_test_setup_teardown(test_omt_crash, setup_omt,
						teardown),
		cmocka_unit_test_setup_teardown(test_omt_unreachable_restore,
						setup_omt, teardown),
		cmocka_unit_test_setup_teardown(test_omt_unreachable_apply,
						setup_omt, teardown),
		cmocka_unit_test_setup_teardown(test_omt_off, setup_omt,
						teardown),
		cmocka_unit_test_setup_teardown(test_omt_status_unreachable,
						setup_omt, teardown),
		cmocka_unit_test_setup_teardown(test_omt_policy, setup_omt,
						teardown),
	};

	return cmocka_run_group_tests_name("node_omt", tests, NULL, NULL);
}
