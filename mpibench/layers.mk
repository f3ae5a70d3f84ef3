## mpibench/layers.mk: rados and cephfs backends, network layer, layered run
## (owned by the layers area; appends to the iostrata-bench target).

EXTRA_DIST += \
	mpibench/LAYERS.md \
	bench/rados-compare \
	bench/cephfs-compare \
	tests/integration/t4x-lib.bash \
	tests/integration/t40-ceph-backends.sh \
	tests/integration/t41-layers.sh \
	tests/integration/t42-layers-faults.sh \
	tests/integration/t43-layers-cached.sh \
	tests/integration/t44-layers-osd-kill.sh \
	tests/integration/t45-layers-roles.sh \
	tests/integration/t46-layers-bottleneck.sh \
	# End of EXTRA_DIST (layers)


# The layered run, linked into iostrata-bench (bench defines the three
# variables with '=' in mpibench/local.mk), and the Ceph backends with their
# options, MPI-free, into mpibench/libiostrata_mb.la (the unit tests link
# them too; layers_print.c is in mpibench/libiostrata_mbmpi.la).
mpibench_iostrata_bench_SOURCES += \
	mpibench/layers_ceph.c \
	mpibench/layers_device.c \
	mpibench/layers_internal.h \
	mpibench/layers_net.c \
	mpibench/layers_phase.c \
	mpibench/layers_roles.c \
	mpibench/layers_run.c \
	mpibench/layers_run.h \
	mpibench/netbench_opts.h \
	mpibench/netbench.c \
	mpibench/netbench.h \
	# End of mpibench_iostrata_bench_SOURCES (layers)
mpibench_libiostrata_mb_la_SOURCES += \
	mpibench/ceph_opts.c \
	mpibench/layers_opts.c \
	mpibench/layers_opts.h \
	# End of mpibench_libiostrata_mb_la_SOURCES (layers)
if HAVE_RADOS
mpibench_libiostrata_mb_la_SOURCES += mpibench/be_rados.c
endif
if HAVE_CEPHFS
mpibench_libiostrata_mb_la_SOURCES += mpibench/be_cephfs.c
endif
mpibench_iostrata_bench_CPPFLAGS += \
	$(RADOS_CPPFLAGS) \
	$(CEPHFS_CPPFLAGS) \
	$(JANSSON_CFLAGS) \
	# End of mpibench_iostrata_bench_CPPFLAGS (layers)
mpibench_iostrata_bench_LDADD += \
	$(JANSSON_LIBS) \
	# End of mpibench_iostrata_bench_LDADD (layers)


# bench/be_harness: the rados/cephfs ops tables driven directly (no MPI, no
# core), to test the backends against a cluster by hand.
if HAVE_RADOS
if HAVE_CEPHFS
noinst_PROGRAMS += bench/be_harness
bench_be_harness_SOURCES = bench/be_harness.c
bench_be_harness_CPPFLAGS = $(AM_CPPFLAGS) $(INC_MPIBENCH) $(RADOS_CPPFLAGS) $(CEPHFS_CPPFLAGS)
bench_be_harness_LDADD = \
	mpibench/libiostrata_mb.la \
	common/libiostrata_common.la \
	$(LIBAIO_LIBS) \
	$(LIBURING_LIBS) \
	$(PTHREAD_LIBS) \
	# End of bench_be_harness_LDADD
endif
endif
