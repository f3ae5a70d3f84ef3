## mpibench/: build fragment (owned by the mpibench area; see Makefile.am).
## iostrata-bench is built from rooms, each a folder with its own include
## variable (docs/arrows.txt), bottom up:
##   mpibench/backends/  the options (mb_config) and the ops table with its
##                       implementations (be_*.c), the files they own
##   mpibench/engine/    the phase engine: one access pattern on the ranks
##   mpibench/record/    what a run leaves: run record, results file glue,
##                       summaries, the exit table
##   mpibench/layers/    the layered method (its fragment: layers/local.mk)
##   mpibench/           the program, main.c
## Each room is a library: its MPI-free part (the unit tests link it, no
## MPI header) and, under HAVE_MPI, the part that needs MPI's header.

# The options and the backends (no MPI).  The Ceph backends need only
# Ceph's headers (the libraries are loaded at run time, common/ceph_dl.c),
# so the unit tests link the whole registry.
noinst_LTLIBRARIES += mpibench/backends/libiostrata_mbbe.la
mpibench_backends_libiostrata_mbbe_la_SOURCES = \
	mpibench/backends/mb_config.c \
	mpibench/backends/mb_config.h \
	mpibench/backends/mb_config_check.c \
	mpibench/backends/mb_config_meta.c \
	mpibench/backends/mb_config_parse.c \
	mpibench/backends/mb_config_apply.c \
	mpibench/backends/mb_config_internal.h \
	mpibench/backends/mb_target.c \
	mpibench/backends/ownfile.c \
	mpibench/backends/ownfile.h \
	mpibench/backends/backend.c \
	mpibench/backends/backend.h \
	mpibench/backends/be_posix.c \
	mpibench/backends/be_null.c \
	mpibench/backends/thrq.c \
	mpibench/backends/thrq.h \
	mpibench/backends/ceph_opts.c \
	# End of mpibench_backends_libiostrata_mbbe_la_SOURCES
if HAVE_RADOS
mpibench_backends_libiostrata_mbbe_la_SOURCES += mpibench/backends/be_rados.c
endif
if HAVE_CEPHFS
mpibench_backends_libiostrata_mbbe_la_SOURCES += mpibench/backends/be_cephfs.c
endif
mpibench_backends_libiostrata_mbbe_la_CPPFLAGS = \
	$(AM_CPPFLAGS) \
	$(INC_MB_BACKENDS) \
	$(RADOS_CPPFLAGS) \
	$(CEPHFS_CPPFLAGS) \
	$(LIBURING_CFLAGS) \
	# End of mpibench_backends_libiostrata_mbbe_la_CPPFLAGS

# The phase engine: its MPI-free part (verify stamps, layouts, the --once
# order, write content, the dataset mark, the crash report) ...
noinst_LTLIBRARIES += mpibench/engine/libiostrata_mbeng.la
mpibench_engine_libiostrata_mbeng_la_SOURCES = \
	mpibench/engine/once.c \
	mpibench/engine/once.h \
	mpibench/engine/segment.c \
	mpibench/engine/segment.h \
	mpibench/engine/mix.h \
	mpibench/engine/verify.c \
	mpibench/engine/verify.h \
	mpibench/engine/content.c \
	mpibench/engine/content.h \
	mpibench/engine/dataset.c \
	mpibench/engine/dataset.h \
	mpibench/engine/crashlog.c \
	mpibench/engine/crashlog.h \
	mpibench/engine/meta.h \
	mpibench/engine/meta_name.c \
	# End of mpibench_engine_libiostrata_mbeng_la_SOURCES
mpibench_engine_libiostrata_mbeng_la_CPPFLAGS = \
	$(AM_CPPFLAGS) \
	$(INC_MB_ENGINE) \
	# End of mpibench_engine_libiostrata_mbeng_la_CPPFLAGS

# ... and the phase driver, one rank's repetition, the gather, the world,
# the progress line and the watchdog (MPI).
if HAVE_MPI
noinst_LTLIBRARIES += mpibench/engine/libiostrata_mbengmpi.la
endif
mpibench_engine_libiostrata_mbengmpi_la_SOURCES = \
	mpibench/engine/meta.c \
	mpibench/engine/phase.c \
	mpibench/engine/phase.h \
	mpibench/engine/phase_gather.c \
	mpibench/engine/phase_gather.h \
	mpibench/engine/phase_rank.c \
	mpibench/engine/phase_rank.h \
	mpibench/engine/progress.c \
	mpibench/engine/progress.h \
	mpibench/engine/watchdog.c \
	mpibench/engine/watchdog.h \
	mpibench/engine/world.c \
	mpibench/engine/world.h \
	# End of mpibench_engine_libiostrata_mbengmpi_la_SOURCES
mpibench_engine_libiostrata_mbengmpi_la_CPPFLAGS = \
	$(AM_CPPFLAGS) \
	$(INC_MB_ENGINE) \
	$(MPI_CFLAGS) \
	$(LIBURING_CFLAGS) \
	# End of mpibench_engine_libiostrata_mbengmpi_la_CPPFLAGS

# What a run leaves: the summaries, the configuration's run record, the
# exit table (no MPI) ...
noinst_LTLIBRARIES += mpibench/record/libiostrata_mbrec.la
mpibench_record_libiostrata_mbrec_la_SOURCES = \
	mpibench/record/summary.c \
	mpibench/record/summary.h \
	mpibench/record/config_record.c \
	mpibench/record/mb_runrec.h \
	mpibench/record/mb_exit.c \
	mpibench/record/mb_exit.h \
	# End of mpibench_record_libiostrata_mbrec_la_SOURCES
mpibench_record_libiostrata_mbrec_la_CPPFLAGS = \
	$(AM_CPPFLAGS) \
	$(INC_MB_RECORD) \
	$(JANSSON_CFLAGS) \
	# End of mpibench_record_libiostrata_mbrec_la_CPPFLAGS

# ... and the run record's MPI side, the results file glue, MPI_T (MPI).
if HAVE_MPI
noinst_LTLIBRARIES += mpibench/record/libiostrata_mbrecmpi.la
endif
mpibench_record_libiostrata_mbrecmpi_la_SOURCES = \
	mpibench/record/h5out.c \
	mpibench/record/h5out.h \
	mpibench/record/runrec.c \
	mpibench/record/mpit.c \
	mpibench/record/mpit.h \
	# End of mpibench_record_libiostrata_mbrecmpi_la_SOURCES
mpibench_record_libiostrata_mbrecmpi_la_CPPFLAGS = \
	$(AM_CPPFLAGS) \
	$(INC_MB_RECORD) \
	$(MPI_CFLAGS) \
	# End of mpibench_record_libiostrata_mbrecmpi_la_CPPFLAGS

# The program: main.c over the rooms, upper rooms first.
mpibench_iostrata_bench_SOURCES = mpibench/main.c
mpibench_iostrata_bench_CPPFLAGS = \
	$(AM_CPPFLAGS) \
	$(INC_MPIBENCH) \
	$(MPI_CFLAGS) \
	$(RADOS_CPPFLAGS) \
	$(CEPHFS_CPPFLAGS) \
	# End of mpibench_iostrata_bench_CPPFLAGS
mpibench_iostrata_bench_LDADD = \
	mpibench/layers/libiostrata_mblyrmpi.la \
	mpibench/layers/libiostrata_mblyr.la \
	mpibench/record/libiostrata_mbrecmpi.la \
	mpibench/record/libiostrata_mbrec.la \
	mpibench/engine/libiostrata_mbengmpi.la \
	mpibench/engine/libiostrata_mbeng.la \
	mpibench/backends/libiostrata_mbbe.la \
	h5schema/libiostrata_h5.la \
	facts/libiostrata_facts.la \
	model/libiostrata_model.la \
	common/libiostrata_common.la \
	$(MPI_LIBS) \
	$(JANSSON_LIBS) \
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
	bench/clock-loop.c \
	# End of EXTRA_DIST (mpibench)
dist_noinst_SCRIPTS += \
	tests/integration/t10-bench.sh \
	tests/integration/t11-bench-faults.sh \
	tests/integration/t12-bench-hostile.sh \
	tests/integration/t13-bench-straggler.sh \
	tests/integration/t14-bench-once.sh \
	tests/integration/t15-bench-shared.sh \
	tests/integration/t62-bench-meta.sh \
	bench/compare-fio.sh \
	bench/compare-ior.sh \
	bench/compare-mdtest.sh \
	bench/compare-harness.sh \
	bench/truth-diskstats.sh \
	bench/scale.sh \
	bench/reference-shape \
	# End of dist_noinst_SCRIPTS (mpibench)

# Unit tests: the MPI-free parts (options, backends, verify stamps), each a
# test program linked against the libraries above.
MB_TEST_CPPFLAGS = $(AM_CPPFLAGS) $(INC_MPIBENCH) $(RADOS_CPPFLAGS) \
	$(CEPHFS_CPPFLAGS)
MB_TEST_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) $(LIBURING_CFLAGS)
MB_TEST_LDADD = mpibench/layers/libiostrata_mblyr.la \
	mpibench/record/libiostrata_mbrec.la \
	mpibench/engine/libiostrata_mbeng.la \
	mpibench/backends/libiostrata_mbbe.la model/libiostrata_model.la \
	common/libiostrata_common.la $(CMOCKA_LIBS) $(LIBAIO_LIBS) \
	$(LIBURING_LIBS) $(JANSSON_LIBS) $(PTHREAD_LIBS) -lm
# The option parser called from a list of arguments, compiled once for
# the tests that share it.
if HAVE_CMOCKA
check_LTLIBRARIES += tests/unit/libmb_fx.la
endif
tests_unit_libmb_fx_la_SOURCES = tests/unit/mb_fx.c tests/unit/mb_fx.h
tests_unit_libmb_fx_la_CPPFLAGS = $(MB_TEST_CPPFLAGS)
tests_unit_libmb_fx_la_CFLAGS = $(MB_TEST_CFLAGS)
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
	tests/unit/test_mb_meta \
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
	tests/unit/test_mb_meta \
	# End of TESTS (mpibench)
if HAVE_MPI
check_PROGRAMS += tests/unit/test_mb_exit
TESTS += tests/unit/test_mb_exit
endif
endif
tests_unit_test_mb_config_CPPFLAGS = $(MB_TEST_CPPFLAGS)
tests_unit_test_mb_config_CFLAGS = $(MB_TEST_CFLAGS)
tests_unit_test_mb_config_LDADD = tests/unit/libmb_fx.la $(MB_TEST_LDADD)
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
# The metadata phases: options, names, stonewall, figures, posix hooks
# (no MPI).
tests_unit_test_mb_meta_CPPFLAGS = $(MB_TEST_CPPFLAGS)
tests_unit_test_mb_meta_CFLAGS = $(MB_TEST_CFLAGS)
tests_unit_test_mb_meta_LDADD = tests/unit/libmb_fx.la $(MB_TEST_LDADD)
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
tests_unit_test_mb_dataset_LDADD = tests/unit/libmb_fx.la $(MB_TEST_LDADD)
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
tests_unit_test_mb_exit_LDADD = mpibench/layers/libiostrata_mblyrmpi.la \
	$(MB_TEST_LDADD)
