## h5schema/: build fragment (owned by the h5schema area; see Makefile.am).
## libiostrata_h5.la: results file writer/reader/validator + hwinfo.
## Link it before common/libiostrata_common.la.

if HAVE_HDF5
noinst_LTLIBRARIES += h5schema/libiostrata_h5.la
h5schema_libiostrata_h5_la_SOURCES = \
	h5schema/h5run.c \
	h5schema/h5run.h \
	h5schema/h5run_internal.h \
	h5schema/schema.c \
	h5schema/schema.h \
	h5schema/results.h \
	h5schema/hwinfo.c \
	h5schema/hwinfo.h \
	h5schema/hwinfo_internal.h \
	# End of h5schema_libiostrata_h5_la_SOURCES
h5schema_libiostrata_h5_la_CPPFLAGS = $(AM_CPPFLAGS) $(HDF5_CFLAGS) \
	$(JANSSON_CFLAGS) $(HWLOC_CFLAGS) $(RADOS_CPPFLAGS) $(CEPHFS_CPPFLAGS)
h5schema_libiostrata_h5_la_LIBADD = $(HDF5_LIBS) $(JANSSON_LIBS) \
	$(HWLOC_LIBS) -lm
EXTRA_DIST += \
	h5schema/schema.def \
	h5schema/SCHEMA.md \
	h5schema/README.md \
	h5schema/bench_report.sh \
	tests/integration/t30-results.sh \
	# End of EXTRA_DIST (h5schema)
endif

if HAVE_HDF5
noinst_LTLIBRARIES += h5schema/libiostrata_h5synth.la
h5schema_libiostrata_h5synth_la_SOURCES = \
	h5schema/synth.c \
	h5schema/synth.h \
	# End of h5schema_libiostrata_h5synth_la_SOURCES
h5schema_libiostrata_h5synth_la_LIBADD = -lm

if HAVE_CMOCKA
check_PROGRAMS += \
	tests/unit/test_h5run \
	# End of check_PROGRAMS (h5schema)
TESTS += \
	tests/unit/test_h5run \
	# End of TESTS (h5schema)
tests_unit_test_h5run_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_h5run_CPPFLAGS = $(AM_CPPFLAGS) $(HDF5_CFLAGS)
tests_unit_test_h5run_LDADD = h5schema/libiostrata_h5synth.la \
	h5schema/libiostrata_h5.la common/libiostrata_common.la \
	$(HDF5_LIBS) $(CMOCKA_LIBS)
if HAVE_JANSSON
check_PROGRAMS += tests/unit/test_hwinfo
TESTS += tests/unit/test_hwinfo
endif
tests_unit_test_hwinfo_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_hwinfo_CPPFLAGS = $(AM_CPPFLAGS) $(JANSSON_CFLAGS)
tests_unit_test_hwinfo_LDADD = h5schema/libiostrata_h5.la \
	common/libiostrata_common.la $(JANSSON_LIBS) $(CMOCKA_LIBS)
endif
endif

if HAVE_HDF5
if HAVE_JANSSON
if HAVE_INIH
bin_PROGRAMS += h5schema/iostrata-report
h5schema_iostrata_report_SOURCES = \
	h5schema/report.c \
	h5schema/report.h \
	h5schema/report_check.c \
	h5schema/report_plot.c \
	h5schema/report_advise.c \
	h5schema/report_advise.h \
	# End of h5schema_iostrata_report_SOURCES
h5schema_iostrata_report_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/site \
	$(JANSSON_CFLAGS)
h5schema_iostrata_report_LDADD = h5schema/libiostrata_h5.la \
	common/libiostrata_figures.la \
	site/libiostrata_site.la common/libiostrata_common.la \
	$(JANSSON_LIBS) -lm

if HAVE_CMOCKA
check_PROGRAMS += \
	tests/unit/test_report \
	# End of check_PROGRAMS (report)
TESTS += \
	tests/unit/test_report \
	# End of TESTS (report)
tests_unit_test_report_SOURCES = \
	tests/unit/test_report.c \
	h5schema/report.c \
	h5schema/report_check.c \
	h5schema/report_plot.c \
	# End of tests_unit_test_report_SOURCES
tests_unit_test_report_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_report_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/site \
	$(JANSSON_CFLAGS) -DREPORT_NO_MAIN
tests_unit_test_report_LDADD = h5schema/libiostrata_h5synth.la \
	h5schema/libiostrata_h5.la common/libiostrata_figures.la \
	site/libiostrata_site.la \
	common/libiostrata_common.la $(JANSSON_LIBS) $(CMOCKA_LIBS) -lm
endif

noinst_PROGRAMS += h5schema/iostrata-h5synth
h5schema_iostrata_h5synth_SOURCES = h5schema/synth_main.c
h5schema_iostrata_h5synth_LDADD = h5schema/libiostrata_h5synth.la \
	h5schema/libiostrata_h5.la common/libiostrata_common.la
endif
endif
endif
