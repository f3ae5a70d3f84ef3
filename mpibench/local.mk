## mpibench/: build fragment (owned by the mpibench area; see Makefile.am).
## The three mpibench_iostrata_bench_* variables and
## mpibench_libiostrata_mb_la_SOURCES are defined here with '='
## (unconditionally); mpibench/layers.mk appends to them with '+='.

# The MPI-free part of iostrata-bench (options, backends, verify stamps,
# layouts, the run record, the summaries, the crash report, the exit
# table), compiled once, without MPI's headers: the benchmark and the unit
# tests link the same objects.  layers.mk appends the Ceph backends.
noinst_LTLIBRARIES += mpibench/libiostrata_mb.la
mpibench_libiostrata_mb_la_SOURCES = \
	mpibench/mb_config.c \
	mpibench/mb_config.h \
	mpibench/mb_config_check.c \
	mpibench/mb_config_internal.h \
	mpibench/mb_target.c \
	mpibench/ownfile.c \
	mpibench/ownfile.h \
	mpibench/backend.c \
	mpibench/backend.h \
	mpibench/be_posix.c \
	mpibench/be_null.c \
	mpibench/thrq.c \
	mpibench/thrq.h \
	mpibench/once.c \
	mpibench/once.h \
	mpibench/segment.c \
	mpibench/segment.h \
	mpibench/mix.h \
	mpibench/verify.c \
	mpibench/verify.h \
	mpibench/content.c \
	mpibench/content.h \
	mpibench/dataset.c \
	mpibench/dataset.h \
	mpibench/crashlog.c \
	mpibench/crashlog.h \
	mpibench/summary.c \
	mpibench/summary.h \
	mpibench/config_record.c \
	mpibench/mb_runrec.h \
	mpibench/mb_exit.c \
	mpibench/mb_exit.h \
	# End of mpibench_libiostrata_mb_la_SOURCES
# The Ceph backends need only Ceph's headers (the libraries are loaded at
# run time, common/ceph_dl.c), so the unit tests link the whole registry.
mpibench_libiostrata_mb_la_CPPFLAGS = \
	$(AM_CPPFLAGS) \
	$(INC_MPIBENCH) \
	$(RADOS_CPPFLAGS) \
	$(CEPHFS_CPPFLAGS) \
	$(LIBURING_CFLAGS) \
	$(JANSSON_CFLAGS) \
	# End of mpibench_libiostrata_mb_la_CPPFLAGS

# What needs MPI's headers but not its library, for the unit tests too:
# the layered run's end (layers_print.c; test_mb_exit fakes its MPI side).
if HAVE_MPI
noinst_LTLIBRARIES += mpibench/libiostrata_mbmpi.la
mpibench_libiostrata_mbmpi_la_SOURCES = \
	mpibench/layers_print.c \
	mpibench/layers_internal.h \
	# End of mpibench_libiostrata_mbmpi_la_SOURCES
mpibench_libiostrata_mbmpi_la_CPPFLAGS = \
	$(mpibench_libiostrata_mb_la_CPPFLAGS) \
	$(MPI_CFLAGS) \
	# End of mpibench_libiostrata_mbmpi_la_CPPFLAGS
endif

mpibench_iostrata_bench_SOURCES = \
	mpibench/main.c \
	mpibench/phase.c \
	mpibench/phase.h \
	mpibench/phase_gather.c \
	mpibench/phase_internal.h \
	mpibench/phase_rank.c \
	mpibench/progress.c \
	mpibench/progress.h \
	mpibench/watchdog.c \
	mpibench/watchdog.h \
	mpibench/world.c \
	mpibench/h5out.c \
	mpibench/h5out.h \
	mpibench/runrec.c \
	mpibench/mpit.c \
	mpibench/mpit.h \
	# End of mpibench_iostrata_bench_SOURCES
mpibench_iostrata_bench_CPPFLAGS = \
	$(AM_CPPFLAGS) \
	$(INC_MPIBENCH) \
	$(MPI_CFLAGS) \
	$(LIBURING_CFLAGS) \
	# End of mpibench_iostrata_bench_CPPFLAGS
mpibench_iostrata_bench_LDADD = \
	mpibench/libiostrata_mbmpi.la \
	mpibench/libiostrata_mb.la \
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

# Unit tests: the MPI-free parts (options, backends, verify stamps), each a
# test program linked against the libraries above.
MB_TEST_CPPFLAGS = $(AM_CPPFLAGS) $(INC_MPIBENCH) $(RADOS_CPPFLAGS) \
	$(CEPHFS_CPPFLAGS)
MB_TEST_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) $(LIBURING_CFLAGS)
MB_TEST_LDADD = mpibench/libiostrata_mb.la model/libiostrata_model.la \
	common/libiostrata_common.la $(CMOCKA_LIBS) $(LIBAIO_LIBS) \
	$(LIBURING_LIBS) $(JANSSON_LIBS) $(PTHREAD_LIBS) -lm
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
tests_unit_test_mb_config_CPPFLAGS = $(MB_TEST_CPPFLAGS)
tests_unit_test_mb_config_CFLAGS = $(MB_TEST_CFLAGS)
tests_unit_test_mb_config_LDADD = $(MB_TEST_LDADD)
tests_unit_test_mb_verify_CPPFLAGS = $(MB_TEST_CPPFLAGS)
tests_unit_test_mb_verify_CFLAGS = $(MB_TEST_CFLAGS)
tests_unit_test_mb_verify_LDADD = $(MB_TEST_LDADD)
tests_unit_test_mb_backend_CPPFLAGS = $(MB_TEST_CPPFLAGS)
tests_unit_test_mb_backend_CFLAGS = $(MB_TEST_CFLAGS)
tests_unit_test_mb_backend_LDADD = $(MB_TEST_LDADD)
tests_unit_test_mb_thrq_CPPFLAGS = $(MB_TEST_CPPFLAGS)
tests_unit_test_mb_thrq_CFLAGS = $(MB_TEST_CFLAGS)
tests_unit_test_mb_thrq_LDADD = $(MB_TEST_LDADD)
tests_unit_test_mb_hostile_CPPFLAGS = $(MB_TEST_CPPFLAGS)
tests_unit_test_mb_hostile_CFLAGS = $(MB_TEST_CFLAGS)
tests_unit_test_mb_hostile_LDADD = $(MB_TEST_LDADD)
# The --once block order and I/O bound (no MPI).
tests_unit_test_mb_once_CPPFLAGS = $(MB_TEST_CPPFLAGS)
tests_unit_test_mb_once_CFLAGS = $(MB_TEST_CFLAGS)
tests_unit_test_mb_once_LDADD = $(MB_TEST_LDADD)
# The dataset mark (match, mismatch per field, owner) and the lay-out's
# watchdog bound, and the posix and rados backends' marks (no MPI; rados
# on an in-memory librados loaded through $IOSTRATA_LIBRADOS).
tests_unit_test_mb_dataset_CPPFLAGS = $(MB_TEST_CPPFLAGS) \
	-DFAKE_RADOS_SO='"$(abs_builddir)/tests/fakes/.libs/libfake_rados.so"'
if HAVE_RADOS
check_LTLIBRARIES += tests/fakes/libfake_rados.la
endif
tests_fakes_libfake_rados_la_SOURCES = tests/fakes/fake_librados.c
tests_fakes_libfake_rados_la_CPPFLAGS = $(AM_CPPFLAGS) $(RADOS_CPPFLAGS)
tests_fakes_libfake_rados_la_LDFLAGS = $(AM_LDFLAGS) -module -avoid-version \
	-shared -rpath /nowhere
tests_unit_test_mb_dataset_CFLAGS = $(MB_TEST_CFLAGS)
tests_unit_test_mb_dataset_LDADD = $(MB_TEST_LDADD)
# The file layouts: per rank and shared (no MPI).
tests_unit_test_mb_segment_CPPFLAGS = $(MB_TEST_CPPFLAGS)
tests_unit_test_mb_segment_CFLAGS = $(MB_TEST_CFLAGS)
tests_unit_test_mb_segment_LDADD = $(MB_TEST_LDADD)
# The summaries' run mode (no MPI).
tests_unit_test_mb_summary_CPPFLAGS = $(MB_TEST_CPPFLAGS)
tests_unit_test_mb_summary_CFLAGS = $(MB_TEST_CFLAGS) $(JANSSON_CFLAGS)
tests_unit_test_mb_summary_LDADD = model/libiostrata_synth.la $(MB_TEST_LDADD)
# The run record of the plain and the layered run (no MPI).
tests_unit_test_mb_runrec_CPPFLAGS = $(MB_TEST_CPPFLAGS)
tests_unit_test_mb_runrec_CFLAGS = $(MB_TEST_CFLAGS)
tests_unit_test_mb_runrec_LDADD = $(MB_TEST_LDADD)
# The crash report of a rank (no MPI).
tests_unit_test_mb_crashlog_CPPFLAGS = $(MB_TEST_CPPFLAGS)
tests_unit_test_mb_crashlog_CFLAGS = $(MB_TEST_CFLAGS)
tests_unit_test_mb_crashlog_LDADD = $(MB_TEST_LDADD)
# How a run ends: the status written and the exit code, plain and layered
# (layers_print.c needs mpi.h, no MPI library: its MPI side is faked).
tests_unit_test_mb_exit_CPPFLAGS = $(MB_TEST_CPPFLAGS) $(MPI_CFLAGS)
tests_unit_test_mb_exit_CFLAGS = $(MB_TEST_CFLAGS)
tests_unit_test_mb_exit_LDADD = mpibench/libiostrata_mbmpi.la $(MB_TEST_LDADD)
