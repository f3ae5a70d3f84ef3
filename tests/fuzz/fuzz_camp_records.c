/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_camp_records: the records `iostrata-campaign clean` reads from a
 * campaign directory others may write (jobscripts/campaign_clean.c:
 * datasets.tsv and replication.tsv).  Byte 0 picks the file, the rest is
 * its content.  The campaign lives in the scratch directory (site: workload
 * directory W, replication 2 and 3, pools fz-r2 fz-r3); Ceph is a fake that
 * knows no pool.  "@W" and "@V" in the input stand for W and the victim's
 * directory V (the scratch path is not known to the corpus), so a seed can
 * name the campaign's own dataset W/iostrata-datasets/camp/k.  Invariant:
 * nothing outside what the campaign derives is removed: W/keep and the victim's
 * file V/data survive every input.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "campaign_internal.h"
#include "fuzz_util.h"

static struct campaign camp;
static char wdir[PATH_MAX], victim[PATH_MAX], cdir[PATH_MAX];
static int devnull = -1;

/* No pool exists; nothing removed. */
static int no_ceph(char *out, size_t len, const char *const *args)
{
	(void)args;
	if (out && len)
		out[0] = '\0';
	return ENOENT;
}

static void must(int ok)
{
	if (!ok)
		abort();
}

static void put(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	must(fp != NULL);
	fputs(text, fp);
	fclose(fp);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char site[PATH_MAX + 16], text[2 * PATH_MAX + 128], p[PATH_MAX + 64];
	const char *s = fuzz_scratch();

	(void)argc;
	(void)argv;
	snprintf(wdir, sizeof(wdir), "%s/w", s);
	snprintf(victim, sizeof(victim), "%s/victim", s);
	snprintf(cdir, sizeof(cdir), "%s/camp", s);
	snprintf(site, sizeof(site), "%s/site.conf", s);
	must(mkdir(wdir, 0755) == 0 && mkdir(victim, 0755) == 0 &&
	     mkdir(cdir, 0770) == 0);
	snprintf(p, sizeof(p), "%s/keep", wdir);
	put(p, "precious\n");
	snprintf(p, sizeof(p), "%s/data", victim);
	put(p, "precious\n");
	snprintf(text, sizeof(text),
		 "[site]\nname = fz\n[workload]\ndir = %s\n"
		 "[sweep]\ndisk_bw = 40MB\nreplication = 2, 3\n"
		 "replication_pool = fz\n",
		 wdir);
	put(site, text);
	must(camp_open(&camp, site, "sweep-disk-bw", cdir) == 0);
	camp_ceph_fn = no_ceph;
	/* clean's chatter is not the point (stderr is silenced only around
	 * the call: libFuzzer reports on it) */
	must(freopen("/dev/null", "w", stdout) != NULL);
	devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	must(devnull >= 0);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *name =
		size && (data[0] & 1) ? "replication.tsv" : "datasets.tsv";
	char p[PATH_MAX + 64], q[PATH_MAX + 64];
	struct stat st;
	int rc;

	/* the campaign's own dataset, which a valid line may remove */
	snprintf(p, sizeof(p), "%s/iostrata-datasets", wdir);
	must(mkdir(p, 0755) == 0 || errno == EEXIST);
	snprintf(p, sizeof(p), "%s/iostrata-datasets/camp", wdir);
	must(mkdir(p, 0755) == 0 || errno == EEXIST);
	snprintf(p, sizeof(p), "%s/iostrata-datasets/camp/k", wdir);
	must(mkdir(p, 0755) == 0 || errno == EEXIST);
	snprintf(p, sizeof(p), "%s/%s", cdir, name);
	unlink(p);
	snprintf(q, sizeof(q), "camp/%s", name);
	{
		size_t n = 0, cap = size * (strlen(wdir) + 1) + 1;
		uint8_t *x = malloc(cap);

		must(x != NULL);
		for (size_t i = 1; i < size; i++) {
			const char *sub = NULL;

			if (data[i] == '@' && i + 1 < size &&
			    data[i + 1] == 'W')
				sub = wdir;
			else if (data[i] == '@' && i + 1 < size &&
				 data[i + 1] == 'V')
				sub = victim;
			if (sub) {
				memcpy(x + n, sub, strlen(sub));
				n += strlen(sub);
				i++;
			} else
				x[n++] = data[i];
		}
		fuzz_write_file(q, x, n);
		free(x);
	}
	if (!getenv("IOSTRATA_FUZZ_VERBOSE")) {
		int saved = dup(2);

		fflush(stderr);
		dup2(devnull, 2);
		rc = camp_cmd_clean(&camp);
		fflush(stderr);
		dup2(saved, 2);
		close(saved);
	} else
		rc = camp_cmd_clean(&camp);
	must(rc >= 0 && rc <= 2);
	snprintf(p, sizeof(p), "%s/keep", wdir);
	must(stat(p, &st) == 0);
	snprintf(p, sizeof(p), "%s/data", victim);
	must(stat(p, &st) == 0);
	snprintf(p, sizeof(p), "%s/%s", cdir, "datasets.tsv");
	unlink(p);
	snprintf(p, sizeof(p), "%s/%s", cdir, "replication.tsv");
	unlink(p);
	return 0;
}
