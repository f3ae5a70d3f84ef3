/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * advise_fx: the synthetic campaigns, site files, captured output and
 * fake results reader of test_advise and test_advise_plot.
 */
#ifndef IOSTRATA_ADVISE_FX_H
#define IOSTRATA_ADVISE_FX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "errbuf.h"
#include "report_advise_int.h"
#include "siteconf.h"

#define G (1ull << 30)

#define assert_has(buf, s)                                                     \
	do {                                                                   \
		if (!strstr((buf), (s)))                                       \
			fail_msg("no \"%s\" in:\n%s", (s), (buf));             \
	} while (0)

#define assert_lacks(buf, s)                                                   \
	do {                                                                   \
		if (strstr((buf), (s)))                                        \
			fail_msg("\"%s\" in:\n%s", (s), (buf));                \
	} while (0)

/* What a command printed on its output and message streams. */
struct capture {
	char *out, *err;
	size_t olen, elen;
	FILE *o, *e;
};

/* A configuration with seq-write and rand-write repetitions. */
struct adv_config cfg(const char *label, uint64_t cpus, uint64_t mem,
		      const double *sw, int nsw, const double *rw, int nrw);

/* Fake results reader: the file name holds "sw,rw[,replication]" of one
 * repetition. */
int fake_reader(const char *path, struct adv_config *c, struct ios_err *err);

/* A new directory /tmp/test_advise.XXXXXX into [dir] (len >= 32). */
void new_dir(char *dir);

/* rm -rf [dir] (a new_dir: no quote in it); kept with TEST_ADVISE_SHOW
 * (to look at the plots). */
void rm_dir(const char *dir);

/* [dir]/[name] with [text] in it, its path in [path]. */
void write_file(const char *dir, const char *name, const char *text, char *path,
		size_t len);

/* [dir]/site.conf with [text], loaded (the test fails if it is refused). */
struct ios_site *load_site(const char *dir, const char *text);

/* Open [c]'s two streams. */
void cap_open(struct capture *c);

/* Close the streams; TEST_ADVISE_SHOW set: print what was captured. */
void cap_close(struct capture *c);

/* Free what [c] captured. */
void cap_free(struct capture *c);

/* adv_model_advise on [c] with [target], output in [cap] (freed by the
 * caller with cap_free). */
int advise(const struct ios_site *site, const struct adv_config *c, size_t n,
	   const char *target, const char *plot, bool all,
	   struct adv_choice *ch, struct capture *cap);

/* The two campaigns of catalogue_site into c[] (24 entries). */
size_t catalogue_campaigns(struct adv_config *c);

/*
 * Campaign [name] under [dir] (an index.tsv of c[0..n), one line per
 * repetition of seq-write, files "sw,0,REPL" for the fake reader; element
 * [failed] FAILED, -1 none) into [path].
 */
void write_campaign(const char *dir, const char *name,
		    const struct adv_config *c, size_t n, int repl, long failed,
		    char *path, size_t len);

/* adv_run on argv (NULL-terminated), output in [cap]. */
int run(char **argv, struct capture *cap);

/*
 * The paper's question on a catalogue: a cores x memory campaign (8..32
 * cores x 32..192G, 5% less with 8 cores, 8% less with 32G) and a
 * disk-speed campaign on the full node (100..275 MB/s, plateau from
 * 200 MB/s) of a 10-node site with 120 drives.  Target seq-write 0.88:
 * 5400 rpm drives (180 MB/s: 0.9 of the installed 7200 rpm) need a full
 * grid cell (16 cores, 64G: 99292 EUR) and beat the 7200 rpm drives with
 * the smallest node (8 cores, 32G, 0.95: 108146 EUR); 180 MB/s lies between
 * two measured speeds: interpolated.
 */
#define CATALOGUE_SITE(DISK5400, CURRENCY, EXTRA)                              \
	"[site]\n"                                                             \
	"name = test\n" EXTRA "[storage]\n"                                    \
	"nodes = 10\n"                                                         \
	"disks_per_node = 12\n"                                                \
	"osds_per_node = 12\n"                                                 \
	"cores = 32\n"                                                         \
	"memory = 192G\n"                                                      \
	"disk_class = hdd-7200\n"                                              \
	"[prices]\n"                                                           \
	"currency = " CURRENCY "\n"                                            \
	"core = 95\n"                                                          \
	"mem_gb = 4.5\n"                                                       \
	"node_base = 4500\n"                                                   \
	"[disk \"" DISK5400 "\"]\n"                                            \
	"bw = 180MB\n"                                                         \
	"price = 300\n"                                                        \
	"[disk \"hdd-7200\"]\n"                                                \
	"bw = 250MB\n"                                                         \
	"price = 450\n"                                                        \
	"[disk \"sata-ssd\"]\n"                                                \
	"bw = 530MB\n"                                                         \
	"price = 1400\n"                                                       \
	"[catalogue]\n"                                                        \
	"cores = 8, 16, 24, 32\n"                                              \
	"memory = 32G, 64G, 128G, 192G\n"

extern const char catalogue_site[];

#endif
