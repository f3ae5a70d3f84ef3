## tests/integration/: build fragment (owned by the tests/integration area; see Makefile.am).
## The integration tests run through tests/integration/run against a local
## site (site/local/localsite); here only their helper programs are built.

if HAVE_MPI
if HAVE_RADOS
# t00-smoke: O_DIRECT on CephFS per MPI rank + one rados object.
noinst_PROGRAMS += \
	tests/integration/smoke_mpi \
	# End of noinst_PROGRAMS
tests_integration_smoke_mpi_SOURCES = tests/integration/smoke_mpi.c
tests_integration_smoke_mpi_CPPFLAGS = $(AM_CPPFLAGS) $(INC_MODEL) $(RADOS_CPPFLAGS)
tests_integration_smoke_mpi_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
tests_integration_smoke_mpi_LDADD = model/libiostrata_model.la $(MPI_LIBS) $(RADOS_LIBS)
endif
endif

dist_noinst_SCRIPTS += \
	tests/integration/run \
	tests/integration/t00-smoke.sh \
	tests/integration/t01-site-shape.sh \
	tests/integration/t02-site-updown.sh \
	tests/integration/t03-het-step-end.sh \
	tests/integration/t60-guest-kernel-client.sh \
	tests/integration/t61-guest-iomax.sh \
	# End of dist_noinst_SCRIPTS

# What every integration test sources (log/fail/skip, cleanups, jobs), and
# the minutes they may take (tests/run prints their sum against it).
EXTRA_DIST += \
	tests/integration/budget \
	tests/integration/lib.bash \
	# End of EXTRA_DIST (tests/integration)


# The one-machine site the integration tests and the demo run on (site area).
dist_noinst_SCRIPTS += \
	site/local/localsite \
	site/local/guest/boot \
	site/local/guest/exec \
	site/local/guest/init \
	site/local/demo \
	site/local/demo.sbatch \
	# End of dist_noinst_SCRIPTS (site/local)

# localsite's parts (sourced from site/local/lib/ next to it) and the
# policy it gives the storage hosts.
EXTRA_DIST += \
	site/local/README.md \
	site/local/policy.conf \
	site/local/lib/ceph.bash \
	site/local/lib/checks.bash \
	site/local/lib/common.bash \
	site/local/lib/down.bash \
	site/local/lib/guest.bash \
	site/local/guest/xstate-shim.c \
	site/local/lib/msg.bash \
	site/local/lib/net.bash \
	site/local/lib/ops.bash \
	site/local/lib/platform.bash \
	site/local/lib/procs.bash \
	site/local/lib/slurm.bash \
	site/local/lib/status.bash \
	site/local/lib/up.bash \
	# End of EXTRA_DIST (site/local)
