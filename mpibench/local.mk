## mpibench/: build fragment (owned by the mpibench area; see Makefile.am).
## The three mpibench_iostrata_bench_* variables are defined here with '='
## (unconditionally); mpibench/layers.mk appends to them with '+='.

mpibench_iostrata_bench_SOURCES = \
	mpibench/main.c \
	mpibench/mb_config.c \
	mpibench/mb_config.h \
	mpibench/ownfile.c \
	mpibench/ownfile.h \
	mpibench/backend.c \
	mpibench/backend.h \
	mpibench/be_posix.c \
	mpibench/be_null.c \
	mpibench/phase.c \
	mpibench/phase.h \
	mpibench/progress.c \
	mpibench/progress.h \
	mpibench/verify.c \
	mpibench/verify.h \
	mpibench/watchdog.c \
	mpibench/watchdog.h \
	mpibench/h5out.c \
	mpibench/h5out.h \
	mpibench/runrec.c \
	mpibench/runrec.h \
	# End of mpibench_iostrata_bench_SOURCES
mpibench_iostrata_bench_CPPFLAGS = \
	$(AM_CPPFLAGS) \
	$(INC_MPIBENCH) \
	$(MPI_CFLAGS) \
	$(LIBURING_CFLAGS) \
	# End of mpibench_iostrata_bench_CPPFLAGS
mpibench_iostrata_bench_LDADD = \
	$(MB_H5_LIBS) \
	model/libiostrata_model.la \
	common/libiostrata_common.la \
	$(MPI_LIBS) \
	$(LIBAIO_LIBS) \
	$(LIBURING_LIBS) \
	$(PTHREAD_LIBS) \
	-lm \
	# End of mpibench_iostrata_bench_LDADD

if HAVE_MPI
bin_PROGRAMS += mpibench/iostrata-bench
endif

# The results writer (h5schema/) and the host facts (facts/), linked before
# model/ and common/ (they use both).
if HAVE_HDF5
mpibench_iostrata_bench_CPPFLAGS += -DMB_HAVE_H5RUN
MB_H5_LIBS = h5schema/libiostrata_h5.la facts/libiostrata_facts.la
else
MB_H5_LIBS =
endif

EXTRA_DIST += \
	mpibench/README.md \
	tests/integration/t1x-lib.bash \
	bench/README.md \
	# End of EXTRA_DIST (mpibench)
dist_noinst_SCRIPTS += \
	tests/integration/t10-bench.sh \
	tests/integration/t11-bench-faults.sh \
	tests/integration/t12-bench-hostile.sh \
	tests/integration/t13-bench-straggler.sh \
	bench/compare-fio.sh \
	bench/truth-diskstats.sh \
	bench/scale.sh \
	# End of dist_noinst_SCRIPTS (mpibench)

# Unit tests: the MPI-free parts (options, backends, verify stamps).
MB_TEST_SOURCES = \
	mpibench/mb_config.c \
	mpibench/ownfile.c \
	mpibench/backend.c \
	mpibench/be_posix.c \
	mpibench/be_null.c \
	mpibench/verify.c \
	# End of MB_TEST_SOURCES
if HAVE_CMOCKA
check_PROGRAMS += \
	tests/unit/test_mb_config \
	tests/unit/test_mb_verify \
	tests/unit/test_mb_backend \
	tests/unit/test_mb_hostile \
	# End of check_PROGRAMS (mpibench)
TESTS += \
	tests/unit/test_mb_config \
	tests/unit/test_mb_verify \
	tests/unit/test_mb_backend \
	tests/unit/test_mb_hostile \
	# End of TESTS (mpibench)
endif
tests_unit_test_mb_config_SOURCES = tests/unit/test_mb_config.c $(MB_TEST_SOURCES)
tests_unit_test_mb_config_CPPFLAGS = $(AM_CPPFLAGS) $(INC_MPIBENCH)
tests_unit_test_mb_config_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) $(LIBURING_CFLAGS)
tests_unit_test_mb_config_LDADD = common/libiostrata_common.la $(CMOCKA_LIBS) $(LIBAIO_LIBS) $(LIBURING_LIBS)
tests_unit_test_mb_verify_SOURCES = tests/unit/test_mb_verify.c $(MB_TEST_SOURCES)
tests_unit_test_mb_verify_CPPFLAGS = $(AM_CPPFLAGS) $(INC_MPIBENCH)
tests_unit_test_mb_verify_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) $(LIBURING_CFLAGS)
tests_unit_test_mb_verify_LDADD = common/libiostrata_common.la $(CMOCKA_LIBS) $(LIBAIO_LIBS) $(LIBURING_LIBS)
tests_unit_test_mb_backend_SOURCES = tests/unit/test_mb_backend.c $(MB_TEST_SOURCES)
tests_unit_test_mb_backend_CPPFLAGS = $(AM_CPPFLAGS) $(INC_MPIBENCH)
tests_unit_test_mb_backend_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) $(LIBURING_CFLAGS)
tests_unit_test_mb_backend_LDADD = common/libiostrata_common.la $(CMOCKA_LIBS) $(LIBAIO_LIBS) $(LIBURING_LIBS)
tests_unit_test_mb_hostile_SOURCES = tests/unit/test_mb_hostile.c $(MB_TEST_SOURCES)
tests_unit_test_mb_hostile_CPPFLAGS = $(AM_CPPFLAGS) $(INC_MPIBENCH)
tests_unit_test_mb_hostile_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) $(LIBURING_CFLAGS)
tests_unit_test_mb_hostile_LDADD = common/libiostrata_common.la $(CMOCKA_LIBS) $(LIBAIO_LIBS) $(LIBURING_LIBS)
