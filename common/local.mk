## common/: small shared helpers (units, errbuf, JSON writer, latency histogram,
## the Ceph client libraries and the one Ceph connect, the one reader of the
## host's /sys and /proc below a root).
noinst_LTLIBRARIES += common/libiostrata_common.la
common_libiostrata_common_la_SOURCES = \
	common/cmdrun.c \
	common/cmdrun.h \
	common/errbuf.c \
	common/errbuf.h \
	common/gnuplot.c \
	common/gnuplot.h \
	common/hostfs.c \
	common/hostfs.h \
	common/jsonw.c \
	common/jsonw.h \
	common/lathist.c \
	common/lathist.h \
	common/safefile.c \
	common/safefile.h \
	common/units.c \
	common/units.h \
	common/ceph_dl.c \
	common/ceph_dl.h \
	common/ceph_conn.c \
	common/ceph_conn.h \
	# End of common_libiostrata_common_la_SOURCES
# Header only: Slurm API differences (used by spank/ and jobscripts/).
noinst_HEADERS += common/slurmcompat.h
# ceph_dl.c, ceph_conn.c: librados/libcephfs loaded on first use; only their
# headers here.
common_libiostrata_common_la_CPPFLAGS = $(AM_CPPFLAGS) $(RADOS_CPPFLAGS) \
	$(CEPHFS_CPPFLAGS)
common_libiostrata_common_la_LIBADD = -lm $(DL_LIBS) $(PTHREAD_LIBS)

if HAVE_CMOCKA
check_PROGRAMS += \
	tests/unit/test_units \
	tests/unit/test_jsonw \
	tests/unit/test_lathist \
	tests/unit/test_ceph_dl \
	tests/unit/test_ceph_conn \
	tests/unit/test_gnuplot \
	tests/unit/test_safefile \
	tests/unit/test_hostfs \
	# End of check_PROGRAMS (common)
TESTS += \
	tests/unit/test_units \
	tests/unit/test_jsonw \
	tests/unit/test_lathist \
	tests/unit/test_ceph_dl \
	tests/unit/test_ceph_conn \
	tests/unit/test_gnuplot \
	tests/unit/test_safefile \
	tests/unit/test_hostfs \
	# End of TESTS (common)
tests_unit_test_units_CPPFLAGS = $(AM_CPPFLAGS) $(INC_COMMON)
tests_unit_test_units_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_units_LDADD = common/libiostrata_common.la $(CMOCKA_LIBS)
tests_unit_test_jsonw_CPPFLAGS = $(AM_CPPFLAGS) $(INC_COMMON)
tests_unit_test_jsonw_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_jsonw_LDADD = common/libiostrata_common.la $(CMOCKA_LIBS)
tests_unit_test_lathist_CPPFLAGS = $(AM_CPPFLAGS) $(INC_COMMON)
tests_unit_test_lathist_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_lathist_LDADD = common/libiostrata_common.la $(CMOCKA_LIBS)
tests_unit_test_ceph_dl_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_ceph_dl_CPPFLAGS = $(AM_CPPFLAGS) $(INC_COMMON) $(RADOS_CPPFLAGS) \
	$(CEPHFS_CPPFLAGS)
tests_unit_test_ceph_dl_LDADD = common/libiostrata_common.la $(CMOCKA_LIBS)
tests_unit_test_ceph_conn_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_ceph_conn_CPPFLAGS = $(AM_CPPFLAGS) $(INC_COMMON) \
	$(RADOS_CPPFLAGS) $(CEPHFS_CPPFLAGS)
tests_unit_test_ceph_conn_LDADD = common/libiostrata_common.la $(CMOCKA_LIBS)
tests_unit_test_gnuplot_CPPFLAGS = $(AM_CPPFLAGS) $(INC_COMMON)
tests_unit_test_gnuplot_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_gnuplot_LDADD = common/libiostrata_common.la $(CMOCKA_LIBS)
tests_unit_test_safefile_CPPFLAGS = $(AM_CPPFLAGS) $(INC_COMMON)
tests_unit_test_safefile_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_safefile_LDADD = common/libiostrata_common.la $(CMOCKA_LIBS)
tests_unit_test_hostfs_CPPFLAGS = $(AM_CPPFLAGS) $(INC_COMMON) \
	-I$(top_srcdir)/tests/fakes
tests_unit_test_hostfs_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_hostfs_LDADD = tests/fakes/libfakeroot.la \
	common/libiostrata_common.la $(CMOCKA_LIBS)
endif
