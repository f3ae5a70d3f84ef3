## facts/: what a host is (hardware, Slurm, Ceph facts as JSON: hwinfo.c).
## Reads /sys, /proc, hwloc and the Ceph cluster; knows nothing of runs.

if HAVE_JANSSON
noinst_LTLIBRARIES += facts/libiostrata_facts.la
facts_libiostrata_facts_la_SOURCES = \
	facts/hwinfo.c \
	facts/hwinfo_ceph.c \
	facts/hwinfo_dev.c \
	facts/hwinfo_host.c \
	facts/hwinfo_mpi.c \
	facts/hwinfo_slurm.c \
	facts/hwinfo.h \
	facts/hwinfo_internal.h \
	# End of facts_libiostrata_facts_la_SOURCES
facts_libiostrata_facts_la_CPPFLAGS = $(AM_CPPFLAGS) $(INC_FACTS) \
	$(JANSSON_CFLAGS) $(HWLOC_CFLAGS)
facts_libiostrata_facts_la_LIBADD = common/libiostrata_common.la \
	$(JANSSON_LIBS) $(HWLOC_LIBS)

bin_PROGRAMS += facts/iostrata-facts
facts_iostrata_facts_SOURCES = facts/iostrata-facts.c
facts_iostrata_facts_CPPFLAGS = $(AM_CPPFLAGS) $(INC_FACTS)
facts_iostrata_facts_LDADD = facts/libiostrata_facts.la \
	common/libiostrata_common.la

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_hwinfo
TESTS += tests/unit/test_hwinfo
check_PROGRAMS += tests/unit/test_hwhost
TESTS += tests/unit/test_hwhost
endif
tests_unit_test_hwhost_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_hwhost_CPPFLAGS = $(AM_CPPFLAGS) $(INC_FACTS) \
	-I$(top_srcdir)/tests/fakes $(JANSSON_CFLAGS)
tests_unit_test_hwhost_LDADD = facts/libiostrata_facts.la \
	tests/fakes/libfakeroot.la common/libiostrata_common.la \
	$(JANSSON_LIBS) $(CMOCKA_LIBS)
tests_unit_test_hwinfo_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_hwinfo_CPPFLAGS = $(AM_CPPFLAGS) $(INC_FACTS) $(JANSSON_CFLAGS) \
	-DFAKE_RADOS_SO='"$(abs_builddir)/tests/fakes/.libs/libfake_rados.so"'
tests_unit_test_hwinfo_LDADD = facts/libiostrata_facts.la \
	common/libiostrata_common.la $(JANSSON_LIBS) $(CMOCKA_LIBS)
endif
