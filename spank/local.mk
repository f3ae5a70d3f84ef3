## spank/: build fragment (owned by the spank area; see Makefile.am).
## Core modules are built twice: into a noinst library (iostrata-node and
## the unit tests, with the sanitizer flags when enabled) and straight into
## the plugin (never sanitized: slurmd is not).

spank_core_sources = \
	spank/args.c \
	spank/args.h \
	spank/blkio.c \
	spank/blkio.h \
	spank/cephcli.c \
	spank/cephcli.h \
	spank/cpu.c \
	spank/cpu.h \
	spank/jobproc.c \
	spank/jobproc.h \
	spank/log.c \
	spank/log.h \
	spank/mem.c \
	spank/mem.h \
	spank/node.c \
	spank/node.h \
	spank/node_apply.c \
	spank/node_internal.h \
	spank/node_omt.c \
	spank/node_mds.c \
	spank/node_publish.c \
	spank/node_restore.c \
	spank/node_status.c \
	spank/options.h \
	spank/osd.c \
	spank/osd.h \
	spank/policy.c \
	spank/policy_req.c \
	spank/policy.h \
	spank/state.c \
	spank/state.h \
	spank/sysfs.c \
	spank/sysfs.h \
	# End of spank_core_sources

noinst_LTLIBRARIES += spank/libiostrata_node.la
spank_libiostrata_node_la_SOURCES = $(spank_core_sources)
spank_libiostrata_node_la_CPPFLAGS = $(AM_CPPFLAGS) $(INC_SPANK) \
	-DIOSTRATA_SYSCONFDIR='"$(sysconfdir)"'
spank_libiostrata_node_la_LIBADD = common/libiostrata_common.la

sbin_PROGRAMS += spank/iostrata-node
spank_iostrata_node_SOURCES = spank/iostrata-node.c
spank_iostrata_node_CPPFLAGS = $(spank_libiostrata_node_la_CPPFLAGS)
spank_iostrata_node_LDADD = spank/libiostrata_node.la
if HAVE_LIBSLURM
# The health check drains/resumes through libslurm (linked here; the
# plugin resolves the same calls from slurmd at run time).
spank_iostrata_node_SOURCES += spank/slurmapi.c spank/slurmapi.h
spank_iostrata_node_CPPFLAGS += -DSLURMAPI_LINKED $(LIBSLURM_CPPFLAGS)
spank_iostrata_node_LDADD += $(LIBSLURM_LIBS)
endif

# The plugin's option table in --help form, for spank_iostrata(8) (man/).
noinst_PROGRAMS += spank/spank-options
spank_spank_options_SOURCES = spank/spank-options.c spank/options.h
spank_spank_options_CPPFLAGS = $(spank_libiostrata_node_la_CPPFLAGS)

EXTRA_DIST += \
	spank/iostrata.lds \
	spank/README.md \
	site/local/policy.conf \
	site/example/policy.conf \
	# End of EXTRA_DIST (spank)

if HAVE_SLURM
slurmplugin_LTLIBRARIES += spank/spank_iostrata.la
spank_spank_iostrata_la_SOURCES = \
	$(spank_core_sources) \
	common/cmdrun.c \
	common/errbuf.c \
	common/hostfs.c \
	common/jsonw.c \
	common/units.c \
	spank/ctx_job.c \
	spank/ctx_local.c \
	spank/ctx_remote.c \
	spank/ctx_slurmd.c \
	spank/plugin.c \
	spank/plugin.h \
	spank/slurmapi.c \
	spank/slurmapi.h \
	# End of spank_spank_iostrata_la_SOURCES
spank_spank_iostrata_la_CPPFLAGS = $(spank_libiostrata_node_la_CPPFLAGS)
# No $(SANITIZE_CFLAGS), no -lslurm, no -no-undefined: slurmd provides the
# slurm_* and spank_* symbols (STYLE.md 1).
spank_spank_iostrata_la_CFLAGS = $(WARNING_CFLAGS) $(HARDEN_CFLAGS)
spank_spank_iostrata_la_LDFLAGS = -module -avoid-version -shared \
	$(HARDEN_LDFLAGS) \
	-Wl,--version-script=$(top_srcdir)/spank/iostrata.lds
spank_spank_iostrata_la_LIBADD = -lm
EXTRA_spank_spank_iostrata_la_DEPENDENCIES = spank/iostrata.lds
endif

if HAVE_CMOCKA
check_LTLIBRARIES += tests/fakes/libfakeroot.la
tests_fakes_libfakeroot_la_SOURCES = \
	tests/fakes/fake_root.c \
	tests/fakes/fake_root.h \
	# End of tests_fakes_libfakeroot_la_SOURCES
# fake_host (a fake root with the sysfs open on it) uses common/hostfs.h:
# link it before the libraries that hold hostfs.c.
tests_fakes_libfakeroot_la_CPPFLAGS = $(AM_CPPFLAGS) $(INC_COMMON)
tests_fakes_libfakeroot_la_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)

spank_test_cppflags = $(AM_CPPFLAGS) $(INC_SPANK) \
	-I$(top_srcdir)/tests/fakes
spank_test_ldadd = tests/fakes/libfakeroot.la spank/libiostrata_node.la \
	$(CMOCKA_LIBS)

# The node tests' fixture (a fake root with the node's files), compiled
# once for the three tests that share it.
check_LTLIBRARIES += tests/unit/libnode_fx.la
tests_unit_libnode_fx_la_SOURCES = tests/unit/node_fx.c tests/unit/node_fx.h
tests_unit_libnode_fx_la_CPPFLAGS = $(spank_test_cppflags)
tests_unit_libnode_fx_la_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)

check_PROGRAMS += \
	tests/unit/test_blkio \
	tests/unit/test_cpu \
	tests/unit/test_mem \
	tests/unit/test_node \
	tests/unit/test_node_omt \
	tests/unit/test_node_mds \
	tests/unit/test_node_osds \
	tests/unit/test_options \
	tests/unit/test_osd \
	tests/unit/test_policy \
	tests/unit/test_state \
	# End of check_PROGRAMS (spank)
TESTS += \
	tests/unit/test_blkio \
	tests/unit/test_cpu \
	tests/unit/test_mem \
	tests/unit/test_node \
	tests/unit/test_node_omt \
	tests/unit/test_node_mds \
	tests/unit/test_node_osds \
	tests/unit/test_options \
	tests/unit/test_osd \
	tests/unit/test_policy \
	tests/unit/test_state \
	# End of TESTS (spank)
tests_unit_test_blkio_CPPFLAGS = $(spank_test_cppflags)
tests_unit_test_blkio_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_blkio_LDADD = $(spank_test_ldadd)
tests_unit_test_cpu_CPPFLAGS = $(spank_test_cppflags)
tests_unit_test_cpu_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_cpu_LDADD = $(spank_test_ldadd)
tests_unit_test_mem_CPPFLAGS = $(spank_test_cppflags)
tests_unit_test_mem_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_mem_LDADD = $(spank_test_ldadd)
tests_unit_test_node_CPPFLAGS = $(spank_test_cppflags)
tests_unit_test_node_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_node_LDADD = tests/unit/libnode_fx.la $(spank_test_ldadd)
tests_unit_test_node_osds_CPPFLAGS = $(spank_test_cppflags)
tests_unit_test_node_osds_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_node_osds_LDADD = tests/unit/libnode_fx.la $(spank_test_ldadd)
tests_unit_test_node_omt_CPPFLAGS = $(spank_test_cppflags)
tests_unit_test_node_omt_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_node_omt_LDADD = tests/unit/libnode_fx.la $(spank_test_ldadd)
tests_unit_test_node_mds_CPPFLAGS = $(spank_test_cppflags)
tests_unit_test_node_mds_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_node_mds_LDADD = tests/unit/libnode_fx.la $(spank_test_ldadd)
tests_unit_test_options_CPPFLAGS = $(spank_test_cppflags)
tests_unit_test_options_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_options_LDADD = $(spank_test_ldadd)
tests_unit_test_osd_CPPFLAGS = $(spank_test_cppflags)
tests_unit_test_osd_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_osd_LDADD = $(spank_test_ldadd)
tests_unit_test_policy_CPPFLAGS = $(spank_test_cppflags)
tests_unit_test_policy_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_policy_LDADD = $(spank_test_ldadd)
tests_unit_test_state_CPPFLAGS = $(spank_test_cppflags)
tests_unit_test_state_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_state_LDADD = $(spank_test_ldadd)
endif

EXTRA_DIST += \
	tests/integration/t2x-lib.bash \
	tests/integration/t20-spank-apply.sh \
	tests/integration/t21-spank-reject.sh \
	tests/integration/t22-spank-jobend.sh \
	tests/integration/t23-spank-prolog-fail.sh \
	tests/integration/t24-spank-slurmd-crash.sh \
	tests/integration/t25-spank-health.sh \
	tests/integration/t26-spank-soak.sh \
	tests/integration/t27-spank-osds.sh \
	tests/integration/t28-spank-osdmem.sh \
	tests/integration/t63-spank-mds.sh \
	tests/integration/t64-spank-mds-cache.sh \
	# End of EXTRA_DIST (spank integration)
