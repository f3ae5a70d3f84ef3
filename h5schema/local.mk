## h5schema/: the results file: schema.def (one table walked by the writer,
## the reader and the validator), h5write.c, h5read.c, h5validate.c and
## what they share, h5common.c.  Depends on model/ and common/.
## libiostrata_h5.la: link it before model/ and common/.

if HAVE_HDF5
noinst_LTLIBRARIES += h5schema/libiostrata_h5.la
h5schema_libiostrata_h5_la_SOURCES = \
	h5schema/h5common.c \
	h5schema/h5iso.c \
	h5schema/h5iso_child.c \
	h5schema/h5iso_internal.h \
	h5schema/h5iso.h \
	h5schema/h5read.c \
	h5schema/h5read_prim.c \
	h5schema/h5run.h \
	h5schema/h5run_internal.h \
	h5schema/h5validate.c \
	h5schema/h5write.c \
	h5schema/h5write_json.c \
	h5schema/h5write_json.h \
	h5schema/h5write_prim.c \
	h5schema/h5write_prim.h \
	h5schema/runwire.c \
	h5schema/runwire.h \
	h5schema/schema.c \
	h5schema/schema.h \
	# End of h5schema_libiostrata_h5_la_SOURCES
h5schema_libiostrata_h5_la_CPPFLAGS = $(AM_CPPFLAGS) $(INC_H5) $(HDF5_CFLAGS) \
	$(JANSSON_CFLAGS)
h5schema_libiostrata_h5_la_LIBADD = model/libiostrata_model.la $(HDF5_LIBS) \
	$(JANSSON_LIBS) -lm
EXTRA_DIST += \
	h5schema/schema.def \
	h5schema/SCHEMA.md \
	h5schema/README.md \
	tests/integration/t30-results.sh \
	tests/integration/t31-hosts.sh \
	tests/fixtures/results-v1.h5 \
	# End of EXTRA_DIST (h5schema)
endif

if HAVE_HDF5
if HAVE_CMOCKA
check_PROGRAMS += \
	tests/unit/test_h5run \
	tests/unit/test_h5read_bounds \
	tests/unit/test_h5iso \
	# End of check_PROGRAMS (h5schema)
TESTS += \
	tests/unit/test_h5run \
	tests/unit/test_h5read_bounds \
	tests/unit/test_h5iso \
	# End of TESTS (h5schema)
tests_unit_test_h5run_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_h5run_CPPFLAGS = $(AM_CPPFLAGS) $(INC_H5) $(HDF5_CFLAGS) \
	-DIOS_FIXTURES='"$(abs_top_srcdir)/tests/fixtures"'
tests_unit_test_h5run_LDADD = tests/unit/libh5_fx.la \
	model/libiostrata_synth.la \
	h5schema/libiostrata_h5.la model/libiostrata_model.la \
	common/libiostrata_common.la \
	$(HDF5_LIBS) $(CMOCKA_LIBS)
tests_unit_test_h5run_SOURCES = tests/unit/test_h5run.c tests/unit/sanitizer.h
tests_unit_test_h5read_bounds_SOURCES = tests/unit/test_h5read_bounds.c \
	tests/unit/sanitizer.h
tests_unit_test_h5read_bounds_CFLAGS = $(tests_unit_test_h5run_CFLAGS)
tests_unit_test_h5read_bounds_CPPFLAGS = $(tests_unit_test_h5run_CPPFLAGS)
tests_unit_test_h5read_bounds_LDADD = $(tests_unit_test_h5run_LDADD)
# The fixtures of the two tests above (written runs, a child under limits),
# compiled once.
check_LTLIBRARIES += tests/unit/libh5_fx.la
tests_unit_libh5_fx_la_SOURCES = tests/unit/h5_fx.c tests/unit/h5_fx.h \
	tests/unit/sanitizer.h
tests_unit_libh5_fx_la_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_libh5_fx_la_CPPFLAGS = $(AM_CPPFLAGS) $(INC_H5) $(HDF5_CFLAGS)
tests_unit_test_h5iso_SOURCES = tests/unit/test_h5iso.c tests/unit/sanitizer.h \
	tests/fakes/h5fault.c tests/fakes/h5fault.h
tests_unit_test_h5iso_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_h5iso_CPPFLAGS = $(AM_CPPFLAGS) $(INC_H5) $(HDF5_CFLAGS) \
	-I$(top_srcdir)/tests/fakes
tests_unit_test_h5iso_LDADD = $(tests_unit_test_h5run_LDADD)

# The stand-in libhdf5 fault as a shared object, for LD_PRELOAD under the
# real iostrata-report (test_report_isolated.sh); -rpath makes libtool
# build a .so of a check library.  No sanitizer: it is preloaded.
check_LTLIBRARIES += tests/fakes/libh5fault.la
tests_fakes_libh5fault_la_SOURCES = tests/fakes/h5fault.c tests/fakes/h5fault.h
tests_fakes_libh5fault_la_CFLAGS = $(WARNING_CFLAGS)
tests_fakes_libh5fault_la_CPPFLAGS = $(AM_CPPFLAGS) $(HDF5_CFLAGS)
tests_fakes_libh5fault_la_LDFLAGS = -module -avoid-version -shared \
	-rpath $(abs_builddir)/tests/fakes
tests_fakes_libh5fault_la_LIBADD = $(HDF5_LIBS)
endif

endif
