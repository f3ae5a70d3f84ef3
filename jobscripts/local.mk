## jobscripts/: the campaign tool and the job scripts (owned by the jobs area).

jobscriptsdir = $(pkgdatadir)/jobscripts
dist_jobscripts_SCRIPTS = \
	jobscripts/sweep-cores-mem.sbatch \
	jobscripts/sweep-disk-bw.sbatch \
	jobscripts/sweep-threads.sbatch \
	jobscripts/layered.sbatch \
	jobscripts/nightly-health.sbatch \
	jobscripts/acceptance.sbatch \
	# End of dist_jobscripts_SCRIPTS
dist_jobscripts_DATA = \
	jobscripts/README.md \
	jobscripts/scrontab \
	jobscripts/iostrata-health.rules.yml \
	jobscripts/iostrata-jobs.sh \
	# End of dist_jobscripts_DATA

# The pure part of `status --wait` (no Slurm needed): compiled once for the
# campaign tool and its unit test.
if HAVE_JANSSON
noinst_LTLIBRARIES += jobscripts/libiostrata_progress.la
endif
jobscripts_libiostrata_progress_la_SOURCES = \
	jobscripts/campaign_estimate.c \
	jobscripts/campaign_estimate.h \
	jobscripts/campaign_progress.c \
	jobscripts/campaign_progress.h \
	jobscripts/campaign.h \
	# End of jobscripts_libiostrata_progress_la_SOURCES
jobscripts_libiostrata_progress_la_CPPFLAGS = $(AM_CPPFLAGS) $(INC_JOBS) \
	$(JANSSON_CFLAGS)

if HAVE_LIBSLURM
if HAVE_INIH
if HAVE_JANSSON
# The campaign tool without its main (campaign.c), compiled once: the tool,
# the unit test and the fuzz harness of clean's records
# (tests/fuzz/local.mk) link the same objects.
noinst_LTLIBRARIES += jobscripts/libiostrata_campaign.la
jobscripts_libiostrata_campaign_la_SOURCES = \
	jobscripts/campaign.h \
	jobscripts/campaign_clean.c \
	jobscripts/campaign_dir.c \
	jobscripts/campaign_internal.h \
	jobscripts/campaign_plan.c \
	jobscripts/campaign_repl.c \
	jobscripts/campaign_state.c \
	jobscripts/campaign_submit.c \
	# End of jobscripts_libiostrata_campaign_la_SOURCES
jobscripts_libiostrata_campaign_la_CPPFLAGS = \
	$(AM_CPPFLAGS) \
	$(INC_JOBS) \
	-DJOBSCRIPTS_DATADIR='"$(jobscriptsdir)"' \
	-DJOBSCRIPTS_SRCDIR='"$(abs_top_srcdir)/jobscripts"' \
	-DJOBSCRIPTS_BUILDDIR='"$(abs_top_builddir)"' \
	$(JANSSON_CFLAGS) \
	# End of jobscripts_libiostrata_campaign_la_CPPFLAGS

bin_PROGRAMS += jobscripts/iostrata-campaign
jobscripts_iostrata_campaign_SOURCES = \
	jobscripts/campaign.c \
	jobscripts/campaign.h \
	jobscripts/campaign_internal.h \
	# End of jobscripts_iostrata_campaign_SOURCES
jobscripts_iostrata_campaign_CPPFLAGS = \
	$(jobscripts_libiostrata_campaign_la_CPPFLAGS)
jobscripts_iostrata_campaign_LDADD = \
	jobscripts/libiostrata_campaign.la \
	jobscripts/libiostrata_progress.la \
	site/libiostrata_site.la \
	common/libiostrata_common.la \
	$(LIBSLURM_LIBS) \
	$(JANSSON_LIBS) \
	-lm \
	# End of jobscripts_iostrata_campaign_LDADD
endif
endif
endif

if HAVE_CMOCKA
if HAVE_JANSSON
check_PROGRAMS += tests/unit/test_campaign_estimate
TESTS += tests/unit/test_campaign_estimate
tests_unit_test_campaign_estimate_CPPFLAGS = \
	$(jobscripts_libiostrata_progress_la_CPPFLAGS)
tests_unit_test_campaign_estimate_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_campaign_estimate_LDADD = jobscripts/libiostrata_progress.la \
	$(CMOCKA_LIBS) -lm

check_PROGRAMS += tests/unit/test_campaign_progress
TESTS += tests/unit/test_campaign_progress
tests_unit_test_campaign_progress_CPPFLAGS = \
	$(jobscripts_libiostrata_progress_la_CPPFLAGS)
tests_unit_test_campaign_progress_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_campaign_progress_LDADD = jobscripts/libiostrata_progress.la \
	$(CMOCKA_LIBS) $(JANSSON_LIBS) -lm

# `clean` with hostile records (the campaign code linked, Ceph faked).
if HAVE_LIBSLURM
if HAVE_INIH
check_PROGRAMS += tests/unit/test_campaign_clean
TESTS += tests/unit/test_campaign_clean
tests_unit_test_campaign_clean_CPPFLAGS = \
	$(jobscripts_iostrata_campaign_CPPFLAGS)
tests_unit_test_campaign_clean_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_campaign_clean_LDADD = \
	$(jobscripts_iostrata_campaign_LDADD) $(CMOCKA_LIBS)
endif
endif
endif
endif

# `iostrata-campaign env` exports every declared site key (skips itself
# when the tool is not built).
TESTS += tests/unit/test_campaign_env.sh tests/unit/test_jobs_noscrub.sh tests/unit/test_jobs_hetsrun.sh \
	tests/unit/test_jobs_wdir.sh tests/unit/test_jobs_source.sh tests/unit/test_campaign_dir.sh \
	tests/unit/test_jobs_srcrace.sh tests/unit/test_jobs_edir.sh tests/unit/test_jobs_campfiles.sh \
	tests/unit/test_campaign_estimate.sh tests/unit/test_jobs_pernode.sh
dist_noinst_SCRIPTS += tests/unit/test_campaign_env.sh tests/unit/test_jobs_noscrub.sh tests/unit/test_jobs_hetsrun.sh \
	tests/unit/test_jobs_wdir.sh tests/unit/test_jobs_source.sh tests/unit/test_campaign_dir.sh \
	tests/unit/test_jobs_srcrace.sh tests/unit/test_jobs_edir.sh tests/unit/test_jobs_campfiles.sh \
	tests/unit/test_campaign_estimate.sh tests/unit/test_jobs_pernode.sh
# The canonical copy of the block every job script carries (checked by
# test_jobs_source.sh)
EXTRA_DIST += jobscripts/source-helpers.block tests/unit/users.bash

# The jobs integration tests (run by tests/integration/run).
dist_noinst_SCRIPTS += \
	tests/integration/t50-campaign.sh \
	tests/integration/t51-sweep-disk-bw.sh \
	tests/integration/t52-sweep-cores-mem.sh \
	tests/integration/t53-acceptance.sh \
	tests/integration/t54-sweep-threads.sh \
	tests/tools/render-html \
	tests/integration/t55-sweep-replication.sh \
	tests/integration/t56-accept-nersc.sh \
	tests/integration/t57-campaign-dataset.sh \
	tests/integration/t58-nightly-health.sh \
	# End of dist_noinst_SCRIPTS (jobs)
EXTRA_DIST += \
	tests/integration/t5x-lib.bash \
	# End of EXTRA_DIST (jobs tests)
