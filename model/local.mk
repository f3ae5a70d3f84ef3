## model/: the run model (results.h) and everything computed from it: the
## figures of a repetition, the layer ceilings and verdict (layers.c), and
## synthetic runs for tests and benchmarks (synth.c).  No MPI, no HDF5, no
## Slurm: the benchmark, the report and the unit tests link the same code,
## so a printed number can always be recomputed from a results file.

noinst_LTLIBRARIES += model/libiostrata_model.la
model_libiostrata_model_la_SOURCES = \
	model/results.c \
	model/results.h \
	model/runrec.c \
	model/runrec.h \
	model/figures.c \
	model/figures.h \
	model/metafig.c \
	model/layers.c \
	model/layers.h \
	model/roles.c \
	model/sweepfit.c \
	model/sweepfit.h \
	model/sweepfit_internal.h \
	model/sweepmodel.c \
	model/accept.c \
	model/accept.h \
	model/nersc.c \
	model/nersc.h \
	# End of model_libiostrata_model_la_SOURCES
model_libiostrata_model_la_CPPFLAGS = $(AM_CPPFLAGS) $(INC_MODEL)
model_libiostrata_model_la_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
model_libiostrata_model_la_LIBADD = \
	common/libiostrata_common.la \
	$(JANSSON_LIBS) \
	-lm \
	# End of model_libiostrata_model_la_LIBADD

# Synthetic runs with known figures (unit tests, the report benchmark).
noinst_LTLIBRARIES += model/libiostrata_synth.la
model_libiostrata_synth_la_SOURCES = \
	model/synth.c \
	model/synth.h \
	# End of model_libiostrata_synth_la_SOURCES
model_libiostrata_synth_la_CPPFLAGS = $(AM_CPPFLAGS) $(INC_MODEL)
model_libiostrata_synth_la_LIBADD = model/libiostrata_model.la -lm

if HAVE_CMOCKA
check_PROGRAMS += \
	tests/unit/test_figures \
	tests/unit/test_layers \
	tests/unit/test_sweepfit \
	tests/unit/test_accept \
	tests/unit/test_nersc \
	# End of check_PROGRAMS (model)
TESTS += \
	tests/unit/test_figures \
	tests/unit/test_layers \
	tests/unit/test_sweepfit \
	tests/unit/test_accept \
	tests/unit/test_nersc \
	# End of TESTS (model)
endif
tests_unit_test_figures_CPPFLAGS = $(AM_CPPFLAGS) $(INC_MODEL)
tests_unit_test_figures_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_figures_LDADD = model/libiostrata_model.la \
	common/libiostrata_common.la $(CMOCKA_LIBS) -lm
tests_unit_test_layers_CPPFLAGS = $(AM_CPPFLAGS) $(INC_MODEL)
tests_unit_test_layers_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_layers_LDADD = model/libiostrata_model.la $(CMOCKA_LIBS)
tests_unit_test_sweepfit_CPPFLAGS = $(AM_CPPFLAGS) $(INC_MODEL)
tests_unit_test_sweepfit_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_sweepfit_LDADD = model/libiostrata_model.la \
	common/libiostrata_common.la $(CMOCKA_LIBS) -lm
tests_unit_test_accept_CPPFLAGS = $(AM_CPPFLAGS) $(INC_MODEL)
tests_unit_test_accept_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_accept_LDADD = model/libiostrata_synth.la \
	model/libiostrata_model.la common/libiostrata_common.la \
	$(CMOCKA_LIBS) -lm
tests_unit_test_nersc_CPPFLAGS = $(AM_CPPFLAGS) $(INC_MODEL)
tests_unit_test_nersc_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_nersc_LDADD = model/libiostrata_synth.la \
	model/libiostrata_model.la common/libiostrata_common.la \
	$(CMOCKA_LIBS) -lm
EXTRA_DIST += tests/fixtures/fio/fio-3.33-randread-4M.json
