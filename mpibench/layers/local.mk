## mpibench/layers/local.mk: the layered run's room (the network layer,
## the layered run; owned by the layers area; mpibench/local.mk links it).

EXTRA_DIST += \
	mpibench/layers/LAYERS.md \
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


# The layered run's room: its options (no MPI: the unit tests link them)
# and the rest, which needs MPI's header (layers_print.c alone, without
# MPI's library, in test_mb_exit: its MPI side is faked there), linked into
# iostrata-bench by mpibench/local.mk.
noinst_LTLIBRARIES += mpibench/layers/libiostrata_mblyr.la
mpibench_layers_libiostrata_mblyr_la_SOURCES = \
	mpibench/layers/layers_opts.c \
	mpibench/layers/layers_opts.h \
	mpibench/layers/netbench_opts.h \
	# End of mpibench_layers_libiostrata_mblyr_la_SOURCES
mpibench_layers_libiostrata_mblyr_la_CPPFLAGS = \
	$(AM_CPPFLAGS) \
	$(INC_MB_LAYERS) \
	# End of mpibench_layers_libiostrata_mblyr_la_CPPFLAGS
if HAVE_MPI
noinst_LTLIBRARIES += mpibench/layers/libiostrata_mblyrmpi.la
endif
mpibench_layers_libiostrata_mblyrmpi_la_SOURCES = \
	mpibench/layers/layers_ceph.c \
	mpibench/layers/layers_device.c \
	mpibench/layers/layers_internal.h \
	mpibench/layers/layers_net.c \
	mpibench/layers/layers_phase.c \
	mpibench/layers/layers_print.c \
	mpibench/layers/layers_roles.c \
	mpibench/layers/layers_run.c \
	mpibench/layers/layers_run.h \
	mpibench/layers/netbench.c \
	mpibench/layers/netbench.h \
	# End of mpibench_layers_libiostrata_mblyrmpi_la_SOURCES
mpibench_layers_libiostrata_mblyrmpi_la_CPPFLAGS = \
	$(AM_CPPFLAGS) \
	$(INC_MB_LAYERS) \
	$(MPI_CFLAGS) \
	$(RADOS_CPPFLAGS) \
	$(CEPHFS_CPPFLAGS) \
	$(JANSSON_CFLAGS) \
	# End of mpibench_layers_libiostrata_mblyrmpi_la_CPPFLAGS


# bench/be_harness: the rados/cephfs ops tables driven directly (no MPI, no
# core), to test the backends against a cluster by hand.
if HAVE_RADOS
if HAVE_CEPHFS
noinst_PROGRAMS += bench/be_harness
bench_be_harness_SOURCES = bench/be_harness.c
bench_be_harness_CPPFLAGS = $(AM_CPPFLAGS) $(INC_MB_BACKENDS) $(RADOS_CPPFLAGS) $(CEPHFS_CPPFLAGS)
bench_be_harness_LDADD = \
	mpibench/backends/libiostrata_mbbe.la \
	common/libiostrata_common.la \
	$(LIBAIO_LIBS) \
	$(LIBURING_LIBS) \
	$(PTHREAD_LIBS) \
	# End of bench_be_harness_LDADD
endif
endif
