## report/: iostrata-report, one file per group of commands (main.c holds
## the command table).  Depends on h5schema/, model/, site/ and common/.

if HAVE_HDF5
if HAVE_JANSSON
if HAVE_INIH
# Everything of iostrata-report but its command table (main.c), compiled
# once: the tool and the unit tests link the same objects.
noinst_LTLIBRARIES += report/libiostrata_report.la
report_libiostrata_report_la_SOURCES = \
	report/report.c \
	report/report_show.c \
	report/report_export.c \
	report/report.h \
	report/report_check.c \
	report/report_health.c \
	report/report_health_index.c \
	report/report_health_record.c \
	report/report_health_verdict.c \
	report/report_health.h \
	report/report_accept.c \
	report/report_accept.h \
	report/report_accept_print.c \
	report/report_nersc.c \
	report/report_hosts.c \
	report/report_meta.c \
	report/report_plot.c \
	report/report_plot_common.c \
	report/report_plot_int.h \
	report/report_plot_heatmap.c \
	report/report_plot_throttle.c \
	report/report_plot_timeline.c \
	report/report_advise.c \
	report/report_advise.h \
	report/report_advise_int.h \
	report/report_advise_search.c \
	report/report_advise_plot.c \
	report/report_layers.c \
	report/report_layers.h \
	report/report_threads.c \
	report/report_threads.h \
	# End of report_libiostrata_report_la_SOURCES
report_cppflags = $(AM_CPPFLAGS) $(INC_REPORT) $(JANSSON_CFLAGS)
report_libiostrata_report_la_CPPFLAGS = $(report_cppflags)
report_ldadd = report/libiostrata_report.la h5schema/libiostrata_h5.la \
	model/libiostrata_model.la site/libiostrata_site.la \
	common/libiostrata_common.la $(JANSSON_LIBS) -lm

bin_PROGRAMS += report/iostrata-report
report_iostrata_report_SOURCES = report/main.c
report_iostrata_report_CPPFLAGS = $(report_cppflags)
report_iostrata_report_LDADD = $(report_ldadd)

# The unit tests' fixtures (a report test's runs and files; the advise
# tests' catalogues and curves), compiled once for the tests that share them.
if HAVE_CMOCKA
check_LTLIBRARIES += tests/unit/libreport_fx.la
endif
tests_unit_libreport_fx_la_SOURCES = \
	tests/unit/report_fx.c \
	tests/unit/report_fx.h \
	tests/unit/advise_fx.c \
	tests/unit/advise_fx.h \
	tests/unit/hostile.h \
	# End of tests_unit_libreport_fx_la_SOURCES
tests_unit_libreport_fx_la_CPPFLAGS = $(report_cppflags)
tests_unit_libreport_fx_la_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)

if HAVE_CMOCKA
check_PROGRAMS += \
	tests/unit/test_report \
	tests/unit/test_report_plot \
	tests/unit/test_advise \
	tests/unit/test_advise_plot \
	tests/unit/test_report_threads \
	tests/unit/test_invariants \
	tests/unit/test_health \
	# End of check_PROGRAMS (report)
TESTS += \
	tests/unit/test_report \
	tests/unit/test_report_plot \
	tests/unit/test_advise \
	tests/unit/test_advise_plot \
	tests/unit/test_report_threads \
	tests/unit/test_invariants \
	tests/unit/test_health \
	tests/unit/test_report_isolated.sh \
	tests/unit/test_report_shapes.sh \
	tests/unit/test_report_markdown.sh \
	tests/unit/test_prom_rules.sh \
	tests/unit/test_health_html.sh \
	# End of TESTS (report)
endif
report_test_cflags = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
report_test_ldadd = tests/unit/libreport_fx.la model/libiostrata_synth.la \
	$(report_ldadd) $(CMOCKA_LIBS)
tests_unit_test_report_SOURCES = tests/unit/test_report.c tests/unit/hostile.h
tests_unit_test_report_CFLAGS = $(report_test_cflags)
tests_unit_test_report_CPPFLAGS = $(report_cppflags)
tests_unit_test_report_LDADD = $(report_test_ldadd)
tests_unit_test_report_plot_SOURCES = tests/unit/test_report_plot.c \
	tests/unit/hostile.h
tests_unit_test_report_plot_CFLAGS = $(report_test_cflags)
tests_unit_test_report_plot_CPPFLAGS = $(report_cppflags)
tests_unit_test_report_plot_LDADD = $(report_test_ldadd)
tests_unit_test_invariants_SOURCES = tests/unit/test_invariants.c \
	tests/unit/hostile.h
tests_unit_test_invariants_CFLAGS = $(report_test_cflags)
tests_unit_test_invariants_CPPFLAGS = $(report_cppflags)
tests_unit_test_invariants_LDADD = $(report_test_ldadd)
tests_unit_test_report_threads_CFLAGS = $(report_test_cflags)
tests_unit_test_report_threads_CPPFLAGS = $(report_cppflags)
tests_unit_test_report_threads_LDADD = $(report_test_ldadd)
tests_unit_test_health_SOURCES = tests/unit/test_health.c
tests_unit_test_health_CFLAGS = $(report_test_cflags)
tests_unit_test_health_CPPFLAGS = $(report_cppflags)
tests_unit_test_health_LDADD = $(report_test_ldadd)
tests_unit_test_advise_SOURCES = tests/unit/test_advise.c tests/unit/hostile.h
tests_unit_test_advise_CFLAGS = $(report_test_cflags)
tests_unit_test_advise_CPPFLAGS = $(report_cppflags)
tests_unit_test_advise_LDADD = $(report_test_ldadd)
tests_unit_test_advise_plot_SOURCES = tests/unit/test_advise_plot.c \
	tests/unit/hostile.h
tests_unit_test_advise_plot_CFLAGS = $(report_test_cflags)
tests_unit_test_advise_plot_CPPFLAGS = $(report_cppflags)
tests_unit_test_advise_plot_LDADD = $(report_test_ldadd)

# Synthetic results files through the real writer (tests, bench; not installed).
noinst_PROGRAMS += tests/tools/iostrata-h5synth
tests_tools_iostrata_h5synth_SOURCES = tests/tools/h5synth.c
tests_tools_iostrata_h5synth_CPPFLAGS = $(AM_CPPFLAGS) $(INC_H5) $(INC_FACTS)
tests_tools_iostrata_h5synth_LDADD = model/libiostrata_synth.la \
	h5schema/libiostrata_h5.la model/libiostrata_model.la \
	facts/libiostrata_facts.la common/libiostrata_common.la
endif
endif
endif

EXTRA_DIST += \
	report/README.md \
	tests/unit/test_report_isolated.sh \
	tests/unit/test_report_shapes.sh \
	tests/unit/test_report_markdown.sh \
	tests/unit/test_prom_rules.sh \
	tests/unit/test_health_html.sh \
	tests/unit/prom_rules_test.yml \
	tests/unit/report_h5py.bash \
	bench/bench_report.sh \
	# End of EXTRA_DIST (report)
