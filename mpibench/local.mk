## mpibench/: build fragment (owned by the mpibench area; see Makefile.am).
## The three mpibench_iostrata_bench_* variables are defined here with '='
## (unconditionally); mpibench/layers.mk appends to them with '+='.

mpibench_iostrata_bench_SOURCES = \
	mpibench/main.c \
	mpibench/mb_config.c \
	mpibench/mb_config.h \
	mpibench/mb_config_check.c \
	mpibench/mb_config_internal.h \
	mpibench/mb_exit.h \
	mpibench/mb_target.c \
	mpibench/ownfile.c \
	mpibench/ownfile.h \
	mpibench/backend.c \
	mpibench/backend.h \
	mpibench/be_posix.c \
	mpibench/be_null.c \
	mpibench/thrq.c \
	mpibench/thrq.h \
	mpibench/phase.c \
	mpibench/phase.h \
	mpibench/phase_gather.c \
	mpibench/phase_internal.h \
	mpibench/phase_rank.c \
	mpibench/once.c \
	mpibench/once.h \
	mpibench/segment.c \
	mpibench/segment.h \
	mpibench/mix.h \
	mpibench/progress.c \
	mpibench/progress.h \
	mpibench/verify.c \
	mpibench/content.c \
	mpibench/content.h \
	mpibench/dataset.c \
	mpibench/dataset.h \
	mpibench/verify.h \
	mpibench/watchdog.c \
	mpibench/watchdog.h \
	mpibench/crashlog.c \
	mpibench/crashlog.h \
	mpibench/world.c \
	mpibench/h5out.c \
	mpibench/h5out.h \
	mpibench/runrec.c \
	mpibench/mpit.c \
	mpibench/mpit.h \
	mpibench/mb_runrec.h \
	mpibench/summary.c \
	mpibench/summary.h \
	mpibench/config_record.c \
	mpibench/mb_exit.c \
	mpibench/mb_exit.h \
	# End of mpibench_iostrata_bench_SOURCES
mpibench_iostrata_bench_CPPFLAGS = \
	$(AM_CPPFLAGS) \
	$(INC_MPIBENCH) \
	$(MPI_CFLAGS) \
	$(LIBURING_CFLAGS) \
	# End of mpibench_iostrata_bench_CPPFLAGS
mpibench_iostrata_bench_LDADD = \
	h5schema/libiostrata_h5.la \
	facts/libiostrata_facts.la \
	model/libiostrata_model.la \
	common/libiostrata_common.la \
	$(MPI_LIBS) \
	$(LIBAIO_LIBS) \
	$(LIBURING_LIBS) \
	$(PTHREAD_LIBS) \
	-lm \
	# End of mpibench_iostrata_bench_LDADD

# iostrata-bench needs MPI and the results writer (h5schema/: HDF5) with
# the host facts (facts/: jansson), linked before model/ and common/ (they
# use both): without a results file a run records nothing.
if HAVE_MPI
if HAVE_HDF5
if HAVE_JANSSON
bin_PROGRAMS += mpibench/iostrata-bench
endif
endif
endif

EXTRA_DIST += \
	mpibench/README.md \
	tests/integration/t1x-lib.bash \
	bench/README.md \
	bench/lib.bash \
	# End of EXTRA_DIST (mpibench)
dist_noinst_SCRIPTS += \
	tests/integration/t10-bench.sh \
	tests/integration/t11-bench-faults.sh \
	tests/integration/t12-bench-hostile.sh \
	tests/integration/t13-bench-straggler.sh \
	tests/integration/t14-bench-once.sh \
	tests/integration/t15-bench-shared.sh \
	bench/compare-fio.sh \
	bench/compare-ior.sh \
	bench/truth-diskstats.sh \
	bench/scale.sh \
	# End of dist_noinst_SCRIPTS (mpibench)

# Unit tests: the MPI-free parts (options, backends, verify stamps).
MB_TEST_SOURCES = \
	mpibench/mb_config.c \
	mpibench/thrq.c \
	mpibench/mb_config_check.c \
	mpibench/mb_target.c \
	mpibench/ownfile.c \
	mpibench/backend.c \
	mpibench/be_posix.c \
	mpibench/be_null.c \
	mpibench/verify.c \
	mpibench/content.c \
	mpibench/once.c \
	mpibench/segment.c \
	mpibench/dataset.c \
	mpibench/mb_exit.c \
	# End of MB_TEST_SOURCES
# The Ceph backends need only Ceph's headers (the libraries are loaded at
# run time, common/ceph_dl.c), so the unit tests link the whole registry.
MB_TEST_CPPFLAGS = $(AM_CPPFLAGS) $(INC_MPIBENCH) $(RADOS_CPPFLAGS) \
	$(CEPHFS_CPPFLAGS)
if HAVE_RADOS
MB_TEST_SOURCES += mpibench/be_rados.c mpibench/ceph_opts.c
else
if HAVE_CEPHFS
MB_TEST_SOURCES += mpibench/ceph_opts.c
endif
endif
if HAVE_CEPHFS
MB_TEST_SOURCES += mpibench/be_cephfs.c
endif
if HAVE_CMOCKA
check_PROGRAMS += \
	tests/unit/test_mb_config \
	tests/unit/test_mb_verify \
	tests/unit/test_mb_backend \
	tests/unit/test_mb_hostile \
	tests/unit/test_mb_runrec \
	tests/unit/test_mb_crashlog \
	tests/unit/test_mb_once \
	tests/unit/test_mb_segment \
	tests/unit/test_mb_summary \
	tests/unit/test_mb_dataset \
	tests/unit/test_mb_thrq \
	# End of check_PROGRAMS (mpibench)
TESTS += \
	tests/unit/test_mb_config \
	tests/unit/test_mb_verify \
	tests/unit/test_mb_backend \
	tests/unit/test_mb_hostile \
	tests/unit/test_mb_runrec \
	tests/unit/test_mb_crashlog \
	tests/unit/test_mb_once \
	tests/unit/test_mb_segment \
	tests/unit/test_mb_summary \
	tests/unit/test_mb_dataset \
	tests/unit/test_mb_thrq \
	# End of TESTS (mpibench)
if HAVE_MPI
check_PROGRAMS += tests/unit/test_mb_exit
TESTS += tests/unit/test_mb_exit
endif
endif
tests_unit_test_mb_config_SOURCES = tests/unit/test_mb_config.c $(MB_TEST_SOURCES)
tests_unit_test_mb_config_CPPFLAGS = $(MB_TEST_CPPFLAGS)
tests_unit_test_mb_config_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) $(LIBURING_CFLAGS)
tests_unit_test_mb_config_LDADD = common/libiostrata_common.la $(CMOCKA_LIBS) $(LIBAIO_LIBS) $(LIBURING_LIBS) $(PTHREAD_LIBS)
tests_unit_test_mb_verify_SOURCES = tests/unit/test_mb_verify.c $(MB_TEST_SOURCES)
tests_unit_test_mb_verify_CPPFLAGS = $(MB_TEST_CPPFLAGS)
tests_unit_test_mb_verify_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) $(LIBURING_CFLAGS)
tests_unit_test_mb_verify_LDADD = common/libiostrata_common.la $(CMOCKA_LIBS) $(LIBAIO_LIBS) $(LIBURING_LIBS) $(PTHREAD_LIBS)
tests_unit_test_mb_backend_SOURCES = tests/unit/test_mb_backend.c $(MB_TEST_SOURCES)
tests_unit_test_mb_backend_CPPFLAGS = $(MB_TEST_CPPFLAGS)
tests_unit_test_mb_backend_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) $(LIBURING_CFLAGS)
tests_unit_test_mb_backend_LDADD = common/libiostrata_common.la $(CMOCKA_LIBS) $(LIBAIO_LIBS) $(LIBURING_LIBS) $(PTHREAD_LIBS)
tests_unit_test_mb_thrq_SOURCES = tests/unit/test_mb_thrq.c $(MB_TEST_SOURCES)
tests_unit_test_mb_thrq_CPPFLAGS = $(MB_TEST_CPPFLAGS)
tests_unit_test_mb_thrq_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) $(LIBURING_CFLAGS)
tests_unit_test_mb_thrq_LDADD = common/libiostrata_common.la $(CMOCKA_LIBS) $(LIBAIO_LIBS) $(LIBURING_LIBS) $(PTHREAD_LIBS)
tests_unit_test_mb_hostile_SOURCES = tests/unit/test_mb_hostile.c $(MB_TEST_SOURCES)
tests_unit_test_mb_hostile_CPPFLAGS = $(MB_TEST_CPPFLAGS)
tests_unit_test_mb_hostile_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) $(LIBURING_CFLAGS)
tests_unit_test_mb_hostile_LDADD = common/libiostrata_common.la $(CMOCKA_LIBS) $(LIBAIO_LIBS) $(LIBURING_LIBS) $(PTHREAD_LIBS)
# The --once block order and I/O bound (no MPI).
tests_unit_test_mb_once_SOURCES = tests/unit/test_mb_once.c \
	mpibench/once.c mpibench/once.h mpibench/mix.h
tests_unit_test_mb_once_CPPFLAGS = $(MB_TEST_CPPFLAGS)
tests_unit_test_mb_once_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_mb_once_LDADD = $(CMOCKA_LIBS)
# The dataset mark (match, mismatch per field, owner) and the lay-out's
# watchdog bound, and the posix and rados backends' marks (no MPI; rados
# on an in-memory librados loaded through $IOSTRATA_LIBRADOS).
tests_unit_test_mb_dataset_SOURCES = tests/unit/test_mb_dataset.c $(MB_TEST_SOURCES)
tests_unit_test_mb_dataset_CPPFLAGS = $(MB_TEST_CPPFLAGS) \
	-DFAKE_RADOS_SO='"$(abs_builddir)/tests/fakes/.libs/libfake_rados.so"'
if HAVE_RADOS
check_LTLIBRARIES += tests/fakes/libfake_rados.la
endif
tests_fakes_libfake_rados_la_SOURCES = tests/fakes/fake_librados.c
tests_fakes_libfake_rados_la_CPPFLAGS = $(AM_CPPFLAGS) $(RADOS_CPPFLAGS)
tests_fakes_libfake_rados_la_LDFLAGS = $(AM_LDFLAGS) -module -avoid-version \
	-shared -rpath /nowhere
tests_unit_test_mb_dataset_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) $(LIBURING_CFLAGS)
tests_unit_test_mb_dataset_LDADD = common/libiostrata_common.la $(CMOCKA_LIBS) $(LIBAIO_LIBS) $(LIBURING_LIBS) $(PTHREAD_LIBS) -lm
# The file layouts: per rank and shared (no MPI).
tests_unit_test_mb_segment_SOURCES = tests/unit/test_mb_segment.c \
	mpibench/segment.c mpibench/segment.h mpibench/once.c \
	mpibench/once.h mpibench/mix.h
tests_unit_test_mb_segment_CPPFLAGS = $(MB_TEST_CPPFLAGS)
tests_unit_test_mb_segment_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_mb_segment_LDADD = $(CMOCKA_LIBS)
# The summaries' run mode (no MPI).
tests_unit_test_mb_summary_SOURCES = tests/unit/test_mb_summary.c \
	mpibench/summary.c mpibench/summary.h
tests_unit_test_mb_summary_CPPFLAGS = $(MB_TEST_CPPFLAGS)
tests_unit_test_mb_summary_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) $(JANSSON_CFLAGS)
tests_unit_test_mb_summary_LDADD = model/libiostrata_synth.la \
	model/libiostrata_model.la common/libiostrata_common.la \
	$(CMOCKA_LIBS) $(JANSSON_LIBS) -lm
# The run record of the plain and the layered run (no MPI).
tests_unit_test_mb_runrec_SOURCES = tests/unit/test_mb_runrec.c \
	mpibench/config_record.c mpibench/layers_opts.c $(MB_TEST_SOURCES)
tests_unit_test_mb_runrec_CPPFLAGS = $(MB_TEST_CPPFLAGS)
tests_unit_test_mb_runrec_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) $(LIBURING_CFLAGS)
tests_unit_test_mb_runrec_LDADD = model/libiostrata_model.la \
	common/libiostrata_common.la $(CMOCKA_LIBS) $(LIBAIO_LIBS) $(LIBURING_LIBS) $(PTHREAD_LIBS)
# The crash report of a rank (no MPI).
tests_unit_test_mb_crashlog_SOURCES = tests/unit/test_mb_crashlog.c \
	mpibench/crashlog.c mpibench/crashlog.h
tests_unit_test_mb_crashlog_CPPFLAGS = $(MB_TEST_CPPFLAGS)
tests_unit_test_mb_crashlog_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_mb_crashlog_LDADD = $(CMOCKA_LIBS)
# How a run ends: the status written and the exit code, plain and layered
# (layers_print.c needs mpi.h, no MPI library: its MPI side is faked).
tests_unit_test_mb_exit_SOURCES = tests/unit/test_mb_exit.c \
	mpibench/layers_print.c mpibench/summary.c mpibench/mb_exit.c
tests_unit_test_mb_exit_CPPFLAGS = $(MB_TEST_CPPFLAGS) $(MPI_CFLAGS)
tests_unit_test_mb_exit_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_mb_exit_LDADD = model/libiostrata_model.la \
	common/libiostrata_common.la $(CMOCKA_LIBS) -lm
