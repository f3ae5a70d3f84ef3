## mpibench/layers.mk: rados and cephfs backends, network layer, layered run
## (owned by the layers area; appends to the iostrata-bench target).

# Pure layer logic (ceilings, verdict, fio parsing, peaks): no MPI, no Ceph,
# shared by iostrata-bench, the report and the unit tests.
noinst_LTLIBRARIES += mpibench/libiostrata_layers.la
mpibench_libiostrata_layers_la_SOURCES = \
	mpibench/layers.c \
	mpibench/layers.h \
	# End of mpibench_libiostrata_layers_la_SOURCES
mpibench_libiostrata_layers_la_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)
mpibench_libiostrata_layers_la_LIBADD = \
	common/libiostrata_common.la \
	$(JANSSON_LIBS) \
	-lm

EXTRA_DIST += \
	mpibench/LAYERS.md \
	bench/be_harness.c \
	bench/harness/mbconfig.h \
	# End of EXTRA_DIST (layers)

if HAVE_CMOCKA
check_PROGRAMS += \
	tests/unit/test_layers \
	# End of check_PROGRAMS (layers)
TESTS += \
	tests/unit/test_layers \
	# End of TESTS (layers)
tests_unit_test_layers_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_layers_LDADD = \
	mpibench/libiostrata_layers.la \
	$(CMOCKA_LIBS)
endif
